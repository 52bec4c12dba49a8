/* Dablot Prejjesne's rules, compiled, and their C game interface (game.h).
 *
 * The Python rules (rules/dablot.py) stay the reference: the same moves in the same order (the
 * men's captures, jumper by jumper, each chain walked depth first with the longer chains
 * listed before a prefix that may stop; then the King's and the Prince's; then, unless a man's
 * capture forces one, the steps by direction in the scan's order, then by point), the same
 * outcome and draw counters, the same evaluation, the same random draws in a playout.  The
 * tests compare the two on seeded random positions in every run.  Types and the slot: dablot.h.
 */
#include "dablot.h"

#include <stdlib.h>
#include <string.h>

#define popcount db_popcount
#define ctz db_ctz
static inline uint64_t lo(DbMask x) { return (uint64_t)x; }
static inline uint64_t hi(DbMask x) { return (uint64_t)(x >> 64); }
static inline DbMask words(uint64_t low, uint64_t high) { return (DbMask)high << 64 | low; }
/* x with every bit moved d places up (down for d < 0), one word's shift */
static inline uint64_t shift(uint64_t x, int d) { return d >= 0 ? x << d : x >> -d; }
static inline uint64_t rotr(uint64_t x, int n) { return x >> (n & 63) | x << (-n & 63); }

/* The point of `set` (not empty) first in the 72-point order: rows up, a row's grid points
 * (low word) before its centres (high word). */
static inline int first_in_order(DbMask set)
{
    uint64_t l = lo(set), h = hi(set);
    if (!h)
        return __builtin_ctzll(l);
    if (!l)
        return 64 + __builtin_ctzll(h);
    int a = __builtin_ctzll(l), b = __builtin_ctzll(h);
    return a >> 3 <= b >> 3 ? a : 64 + b;
}

/* ------------------------------------------------------------------------------------------
 * The slot (dablot.h): the captured mask, the points, the jumps' directions
 * ---------------------------------------------------------------------------------------- */

#define ROUTE_BIT 92          /* the first direction's bit in the slot (bit 28 of w[1]) */

MoveSlot db_slot(int from, int to, DbMask cap, int n, const uint8_t *dirs)
{
    MoveSlot m;
    memset(&m, 0, sizeof m);
    DbMask ranked = 0;                /* the captured pieces in the 72-point order */
    for (; cap; cap &= cap - 1)
        ranked |= db_bit(db_rank(ctz(cap)));
    m.w[0] = (uint64_t)ranked;
    m.w[1] = (uint64_t)(ranked >> 64) & 0xff;
    m.w[1] |= (uint64_t)from << 8 | (uint64_t)to << 15 | (uint64_t)n << 22;
    for (int j = 0; j < n; j++) {
        int at = ROUTE_BIT + 3 * j;
        m.w[at / 64] |= (uint64_t)dirs[j] << (at % 64);
    }
    return m;
}

/* A step's slot (db_slot with nothing captured), made directly: most listed moves are steps. */
static inline MoveSlot step_slot(int from, int to)
{
    MoveSlot m = {.w = {0, (uint64_t)from << 8 | (uint64_t)to << 15, 0}};
    return m;
}

int db_slot_from(const MoveSlot *m) { return (int)(m->w[1] >> 8 & 0x7f); }
int db_slot_to(const MoveSlot *m) { return (int)(m->w[1] >> 15 & 0x7f); }
int db_slot_jumps(const MoveSlot *m) { return (int)(m->w[1] >> 22 & 0x3f); }
int db_slot_dir(const MoveSlot *m, int j)
{
    int at = ROUTE_BIT + 3 * j;     /* a field never straddles a word: (128 - 92) is a multiple of 3 */
    return (int)(m->w[at / 64] >> (at % 64) & 7);
}
DbMask db_slot_cap(const MoveSlot *m)
{
    DbMask cap = 0;
    for (DbMask ranked = (DbMask)m->w[0] | (DbMask)(m->w[1] & 0xff) << 64; ranked; ranked &= ranked - 1)
        cap |= db_bit(db_point(ctz(ranked)));
    return cap;
}

/* ------------------------------------------------------------------------------------------
 * The end of the game by material (DablotGame.terminal), and the material
 * ---------------------------------------------------------------------------------------- */

/* The side to move's result decided by material alone, or -1: Dagaz, a side without its King
 * or down to one piece has lost (the side to move checked first); Ludii, a side without
 * pieces has lost and the two Kings alone are a draw. */
static double terminal(const DbRules *r, DbMask own, DbMask opp, DbMask kings)
{
    if (r->ludii_win) {
        if (!own)
            return 0.0;
        if (!opp)
            return 1.0;
        if ((own | opp) == kings && popcount(own) == 1 && popcount(opp) == 1)
            return 0.5;
        return -1.0;
    }
    if (!(own & kings) || popcount(own) <= 1)
        return 0.0;
    if (!(opp & kings) || popcount(opp) <= 1)
        return 1.0;
    return -1.0;
}

static double material(const DbRules *r, const DbPos *p, DbMask mask)
{
    DbMask kings = p->kings & mask, princes = p->princes & mask;
    return (double)popcount(mask & ~(kings | princes)) * r->value[DB_MAN]
           + (double)popcount(princes) * r->value[DB_PRINCE]
           + (double)popcount(kings) * r->value[DB_KING];
}

static int drawn(const DbRules *r, const DbPos *p) { return p->quiet >= r->no_capture || p->ply >= r->max_plies; }

/* ------------------------------------------------------------------------------------------
 * The chain walk (DablotGame.chains) and the captures
 * ---------------------------------------------------------------------------------------- */

/* The directions (bit k for direction k) in which the piece on `i` can jump now: a `prey`
 * piece next to it on a line that goes on to an `empty` point.  The words it looks at are
 * turned so that `i` lands on bit 16 (a jump reaches 16 bits either way, so a point a jump
 * reaches never wraps round; what does only lies where `i` has no jump).  Each jump's prey
 * bit is moved onto its landing point's and the two taken together; then one multiplication
 * gathers the orthogonal jumps' four bits in direction order (ORTH_GATHER), another the
 * diagonal ones' in an order DIAG_DIRS puts right. */
#define B(n) ((uint64_t)1 << (n))
#define ORTH_GATHER 0x8000840040000000ULL      /* bits 18 14 32 0 (E W N S) to bits 60..63 */
#define DIAG_GATHER 0x0110008800000000ULL      /* bits 25 23 9 7 (NE NW SE SW) to 60, 62, 61, 63 */
static const uint8_t DIAG_DIRS[16] = {0x00, 0x10, 0x40, 0x50, 0x20, 0x30, 0x60, 0x70,
                                      0x80, 0x90, 0xc0, 0xd0, 0xa0, 0xb0, 0xe0, 0xf0};

static unsigned open_dirs(const DbRules *r, int i, DbMask prey, DbMask empty)
{
    uint64_t orth = 0, diag;
    if (i < 64) {                  /* a grid point: orthogonal jumps over grid points, diagonal over centres */
        uint64_t pl = rotr(lo(prey), i - 16), ph = rotr(hi(prey), i - 16), el = rotr(lo(empty), i - 16);
        orth = el & ((pl << 1 & B(18)) | (pl >> 1 & B(14)) | (pl << 8 & B(32)) | (pl >> 8 & B(0)));
        diag = el & ((ph << 9 & B(25)) | (ph << 8 & B(23)) | (ph << 1 & B(9)) | (ph & B(7)));
    } else {                       /* a centre: diagonal jumps over grid points to centres */
        uint64_t pl = rotr(lo(prey), i - 80), eh = rotr(hi(empty), i - 80);
        diag = eh & ((pl & B(25)) | (pl >> 1 & B(23)) | (pl >> 8 & B(9)) | (pl >> 9 & B(7)));
    }
    return ((unsigned)(orth * ORTH_GATHER >> 60) | DIAG_DIRS[diag * DIAG_GATHER >> 60]) & r->jump_dirs[i];
}
#undef B

/* open_dirs, looked for only with prey next to `i` (not at most landing points of a chain). */
static inline unsigned open_jumps(const DbRules *r, int i, DbMask prey, DbMask empty)
{
    return r->ring[i] & prey ? open_dirs(r, i, prey, empty) : 0;
}

/* A chain walk's fixed data: what it started from (the captured pieces are always the prey
 * at the start less the prey left, and the empty points those at the start and them). */
typedef struct {
    const DbRules *r;
    DbSink *sink;
    int frm;
    DbMask prey0, empty0;            /* the prey, and the empty points with the mover's start */
    uint8_t path[DB_MAX_JUMPS];      /* the jumps' directions so far */
} Walk;

static void push_light(DbSink *s, DbMask cap, int from, int to)
{
    if (s->n == s->cap) {
        size_t cap_n = s->cap ? 2 * s->cap : 128;
        DbLight *l = realloc(s->light, cap_n * sizeof(DbLight));
        if (!l) {
            s->oom = 1;
            return;
        }
        s->light = l;
        s->cap = cap_n;
    }
    s->light[s->n++] = (DbLight){cap, (uint8_t)from, (uint8_t)to};
}

static void emit(Walk *w, int to, DbMask cap, int depth)
{
    DbSink *s = w->sink;
    if (!s->slots) {
        push_light(s, cap, w->frm, to);
        return;
    }
    MoveSlot m = db_slot(w->frm, to, cap, depth, w->path);
    if (movebuf_push(s->slots, &m) < 0)
        s->oom = 1;
    s->n++;
}

/* Every capture of the piece now on `i` with `prey` left (``walk``), `open` its jumps from
 * there: each jump over a prey piece to an empty point, in direction order, the taken piece
 * leaving at once; a chain is recorded where it may stop (anywhere when chains are optional,
 * else where no jump goes on), after the longer ones. */
static void walk(Walk *w, int i, unsigned open, DbMask prey, int depth)
{
    for (unsigned m = open; m; m &= m - 1) {
        int k = __builtin_ctz(m), mid = db_next(i, k), land = i + DB_LAND[k];
        if (depth >= DB_MAX_JUMPS) {      /* more jumps than pieces a position may hold: refused on load */
            w->sink->oom = 1;
            return;
        }
        w->path[depth] = (uint8_t)k;
        DbMask left = prey ^ db_bit(mid);
        walk(w, land, open_jumps(w->r, land, left, w->empty0 | (w->prey0 ^ left)), left, depth + 1);
    }
    if (depth && (w->r->chain_optional || !open))
        emit(w, i, w->prey0 ^ prey, depth);
}

/* The captures of the piece on `frm` taking from `prey`, `open` its first jumps. */
static void walk_from(const DbRules *r, int frm, unsigned open, DbMask prey, DbMask empty, DbSink *sink)
{
    Walk w;                  /* the path is written before it is read: no need to clear it */
    w.r = r;
    w.sink = sink;
    w.frm = frm;
    w.prey0 = prey;
    w.empty0 = empty | db_bit(frm);
    walk(&w, frm, open, prey, 0);
}

/* The captures of the piece on `frm` taking from `prey` (DablotGame.chains), if it has any. */
static inline void chains(const DbRules *r, int frm, DbMask prey, DbMask empty, DbSink *sink)
{
    unsigned open = open_jumps(r, frm, prey, empty);
    if (open)
        walk_from(r, frm, open, prey, empty, sink);
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The steps of a position by direction, in the scan's order (DB_STEP_ORDER): the points they
 * start from (the i-th direction's at [i]), and their numbers a byte each (its in byte i). */
typedef struct {
    DbMask from[DB_DIRS];
    uint64_t counts;
} Steps;

/* One pass over the lattice (DablotGame.scan): the steps (`st`) and the men that can make a
 * first jump (over an enemy man), word by word.  Both look at the points whose next point is
 * empty (`next`).  An orthogonal line is a shift `d` of the low word; a diagonal one takes a
 * grid point to the centre `a` below it in the high word and a centre to the grid point `b`
 * above it in the low word. */
static DbMask scan(const DbRules *r, const DbPos *p, DbMask empty, Steps *st)
{
    DbMask ranked = p->kings | p->princes, men = p->own & ~ranked, prey = p->opp & ~ranked;
    uint64_t ol = lo(p->own), oh = hi(p->own), el = lo(empty), eh = hi(empty);
    uint64_t ml = lo(men), mh = hi(men), pl = lo(prey), ph = hi(prey), jl = 0, jh = 0;
    st->counts = 0;
#define ORTH(k, d)                                                                    \
    do {                                                                              \
        uint64_t next = shift(el, -(d)), from = ol & lo(r->src[k]) & next;            \
        st->from[DB_STEP_PLACE[k]] = from;                                            \
        st->counts |= (uint64_t)__builtin_popcountll(from) << 8 * DB_STEP_PLACE[k];    \
        jl |= ml & lo(r->jsrc[k]) & shift(pl & next, -(d));                           \
    } while (0)
#define DIAG(k, a, b)                                                                 \
    do {                                                                              \
        uint64_t nl = eh << (a), nh = el >> (b);                                      \
        uint64_t fl = ol & lo(r->src[k]) & nl, fh = oh & hi(r->src[k]) & nh;          \
        st->from[DB_STEP_PLACE[k]] = words(fl, fh);                                   \
        uint64_t count = (uint64_t)(__builtin_popcountll(fl) + __builtin_popcountll(fh)); \
        st->counts |= count << 8 * DB_STEP_PLACE[k];                                  \
        jl |= ml & lo(r->jsrc[k]) & (ph & nh) << (a);                                 \
        jh |= mh & hi(r->jsrc[k]) & (pl & nl) >> (b);                                 \
    } while (0)
    ORTH(0, 1);
    ORTH(1, -1);
    ORTH(2, 8);
    ORTH(3, -8);
    DIAG(4, 0, 9);
    DIAG(5, 1, 8);
    DIAG(6, 8, 1);
    DIAG(7, 9, 0);
#undef ORTH
#undef DIAG
    return words(jl, jh);
}

/* Every capture (DablotGame.captures): the men's first (`jumpers`, scan's), then the King's
 * and the Prince's; the number of the men's. */
static size_t captures(const DbRules *r, const DbPos *p, DbMask jumpers, DbMask empty, DbSink *sink)
{
    DbMask prey = p->opp & ~(p->kings | p->princes);
    for (DbMask j = jumpers; j && !sink->oom;) {
        int i = first_in_order(j);
        chains(r, i, prey, empty, sink);
        j ^= db_bit(i);
    }
    size_t n_men = sink->n;
    DbMask king = p->own & p->kings, prince = p->own & p->princes;
    if (king && !sink->oom)
        chains(r, ctz(king), p->opp, empty, sink);
    if (prince && !sink->oom)
        chains(r, ctz(prince), p->opp & ~p->kings, empty, sink);
    return n_men;
}

/* A position's moves as a random pick sees them: the captures appended to `sink` (its n
 * counting them), the steps in `st`; the number of steps to draw from (none when a man's
 * capture forces a capture). */
static size_t moves(const DbRules *r, const DbPos *p, DbSink *sink, Steps *st)
{
    DbMask empty = r->points & ~(p->own | p->opp);
    size_t n_men = captures(r, p, scan(r, p, empty, st), empty, sink);
    if (n_men && r->man_forced)
        return 0;
    return (size_t)(st->counts * ONES >> 56);     /* the bytes summed (at most 240 steps: no carry) */
}

/* Per byte value, the places of its set bits from the lowest, three bits each. */
static const uint32_t BYTE_BITS[256] = {
    0x000000, 0x000000, 0x000001, 0x000008, 0x000002, 0x000010, 0x000011, 0x000088,
    0x000003, 0x000018, 0x000019, 0x0000c8, 0x00001a, 0x0000d0, 0x0000d1, 0x000688,
    0x000004, 0x000020, 0x000021, 0x000108, 0x000022, 0x000110, 0x000111, 0x000888,
    0x000023, 0x000118, 0x000119, 0x0008c8, 0x00011a, 0x0008d0, 0x0008d1, 0x004688,
    0x000005, 0x000028, 0x000029, 0x000148, 0x00002a, 0x000150, 0x000151, 0x000a88,
    0x00002b, 0x000158, 0x000159, 0x000ac8, 0x00015a, 0x000ad0, 0x000ad1, 0x005688,
    0x00002c, 0x000160, 0x000161, 0x000b08, 0x000162, 0x000b10, 0x000b11, 0x005888,
    0x000163, 0x000b18, 0x000b19, 0x0058c8, 0x000b1a, 0x0058d0, 0x0058d1, 0x02c688,
    0x000006, 0x000030, 0x000031, 0x000188, 0x000032, 0x000190, 0x000191, 0x000c88,
    0x000033, 0x000198, 0x000199, 0x000cc8, 0x00019a, 0x000cd0, 0x000cd1, 0x006688,
    0x000034, 0x0001a0, 0x0001a1, 0x000d08, 0x0001a2, 0x000d10, 0x000d11, 0x006888,
    0x0001a3, 0x000d18, 0x000d19, 0x0068c8, 0x000d1a, 0x0068d0, 0x0068d1, 0x034688,
    0x000035, 0x0001a8, 0x0001a9, 0x000d48, 0x0001aa, 0x000d50, 0x000d51, 0x006a88,
    0x0001ab, 0x000d58, 0x000d59, 0x006ac8, 0x000d5a, 0x006ad0, 0x006ad1, 0x035688,
    0x0001ac, 0x000d60, 0x000d61, 0x006b08, 0x000d62, 0x006b10, 0x006b11, 0x035888,
    0x000d63, 0x006b18, 0x006b19, 0x0358c8, 0x006b1a, 0x0358d0, 0x0358d1, 0x1ac688,
    0x000007, 0x000038, 0x000039, 0x0001c8, 0x00003a, 0x0001d0, 0x0001d1, 0x000e88,
    0x00003b, 0x0001d8, 0x0001d9, 0x000ec8, 0x0001da, 0x000ed0, 0x000ed1, 0x007688,
    0x00003c, 0x0001e0, 0x0001e1, 0x000f08, 0x0001e2, 0x000f10, 0x000f11, 0x007888,
    0x0001e3, 0x000f18, 0x000f19, 0x0078c8, 0x000f1a, 0x0078d0, 0x0078d1, 0x03c688,
    0x00003d, 0x0001e8, 0x0001e9, 0x000f48, 0x0001ea, 0x000f50, 0x000f51, 0x007a88,
    0x0001eb, 0x000f58, 0x000f59, 0x007ac8, 0x000f5a, 0x007ad0, 0x007ad1, 0x03d688,
    0x0001ec, 0x000f60, 0x000f61, 0x007b08, 0x000f62, 0x007b10, 0x007b11, 0x03d888,
    0x000f63, 0x007b18, 0x007b19, 0x03d8c8, 0x007b1a, 0x03d8d0, 0x03d8d1, 0x1ec688,
    0x00003e, 0x0001f0, 0x0001f1, 0x000f88, 0x0001f2, 0x000f90, 0x000f91, 0x007c88,
    0x0001f3, 0x000f98, 0x000f99, 0x007cc8, 0x000f9a, 0x007cd0, 0x007cd1, 0x03e688,
    0x0001f4, 0x000fa0, 0x000fa1, 0x007d08, 0x000fa2, 0x007d10, 0x007d11, 0x03e888,
    0x000fa3, 0x007d18, 0x007d19, 0x03e8c8, 0x007d1a, 0x03e8d0, 0x03e8d1, 0x1f4688,
    0x0001f5, 0x000fa8, 0x000fa9, 0x007d48, 0x000faa, 0x007d50, 0x007d51, 0x03ea88,
    0x000fab, 0x007d58, 0x007d59, 0x03eac8, 0x007d5a, 0x03ead0, 0x03ead1, 0x1f5688,
    0x000fac, 0x007d60, 0x007d61, 0x03eb08, 0x007d62, 0x03eb10, 0x03eb11, 0x1f5888,
    0x007d63, 0x03eb18, 0x03eb19, 0x1f58c8, 0x03eb1a, 0x1f58d0, 0x1f58d1, 0xfac688,
};

/* Each byte of `x` replaced by the number of its set bits. */
static inline uint64_t byte_counts(uint64_t x)
{
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
}

/* The point numbered `n` in the 72-point order of `set` (n < its popcount), without a branch
 * (a random pick would mispredict a loop's): the row by the rows' running counts (the bytes'
 * counts of both words summed by one multiplication, compared with n by a subtraction in each
 * byte), then the word in that row, then the bit in that byte from a table. */
static inline int select_in_order(DbMask set, uint64_t n)
{
    uint64_t l = lo(set), h = hi(set);
    uint64_t upto = (byte_counts(l) + byte_counts(h)) * ONES;   /* byte r: the points in rows 0..r */
    uint64_t below = (uint64_t)__builtin_popcountll((((n * ONES) | HIGHS) - upto) & HIGHS) * 8;  /* rows before */
    n -= (upto << 8) >> below & 0xff;
    uint64_t bl = l >> below & 0xff, bh = h >> below & 0xff, k = (uint64_t)__builtin_popcountll(bl);
    uint64_t up = -(uint64_t)(n >= k);                         /* all ones: among the row's centres */
    n -= k & up;
    return (int)(below + (64 & up) + (BYTE_BITS[(bh & up) | (bl & ~up)] >> (3 * n) & 7));
}

/* The step numbered `n` in the order legal lists them (by direction in the scan's order, then
 * by point): the direction found without a branch (the number of directions whose steps all
 * come before `n`), then the point among its steps' starts. */
static void nth_step(const Steps *st, uint64_t n, int *from, int *to)
{
    uint64_t upto = st->counts * ONES, before;         /* byte i: the steps of directions 0..i */
    if (n < 128) {         /* the running counts compared with n in every byte at once */
        before = (uint64_t)__builtin_popcountll((((n * ONES) | HIGHS) - upto) & HIGHS);
    } else {               /* more steps than a byte's comparison takes (no position of a game) */
        for (before = 0; (upto >> 8 * before & 0xff) <= n; before++)
            ;
    }
    *from = select_in_order(st->from[before], n - ((upto << 8) >> 8 * before & 0xff));
    *to = db_next(*from, DB_STEP_ORDER[before]);
}

/* ------------------------------------------------------------------------------------------
 * Moves, play, outcome, evaluation
 * ---------------------------------------------------------------------------------------- */

/* DablotGame.legal (and legal_moves, unless `ignore_draws`): nothing once the game is decided;
 * the captures; the steps unless a man's capture forces a capture. */
int db_legal_moves(const DbRules *r, const DbPos *p, int ignore_draws, MoveBuf *out)
{
    if ((!ignore_draws && drawn(r, p)) || terminal(r, p->own, p->opp, p->kings) >= 0.0)
        return GAME_OK;
    DbSink sink = {.slots = out};
    DbMask empty = r->points & ~(p->own | p->opp);
    Steps st;
    size_t n_men = captures(r, p, scan(r, p, empty, &st), empty, &sink);
    if (sink.oom)
        return GAME_ERROR;
    if (n_men && r->man_forced)
        return GAME_OK;
    for (int i = 0; i < DB_DIRS; i++) {
        for (DbMask t = st.from[i]; t;) {
            int from = first_in_order(t);
            t ^= db_bit(from);
            MoveSlot m = step_slot(from, db_next(from, DB_STEP_ORDER[i]));
            if (movebuf_push(out, &m) < 0)
                return GAME_ERROR;
        }
    }
    return GAME_OK;
}

/* DablotState.play: the King or Prince moves with its piece (a closed chain moves nothing), the
 * captured pieces leave, the counters run, the sides swap. */
static inline void play(DbPos *p, DbMask from, DbMask to, DbMask cap)
{
    DbMask moved = from ^ to;
    if (p->kings & from)
        p->kings ^= moved;
    else if (p->princes & from)
        p->princes ^= moved;
    if (cap) {
        p->opp &= ~cap;
        p->kings &= ~cap;
        p->princes &= ~cap;
        p->quiet = 0;
    } else {
        p->quiet++;
    }
    DbMask own = p->own;
    p->own = p->opp;
    p->opp = own ^ moved;
    p->turn ^= 1;
    p->ply++;
}

void db_play(DbPos *p, DbMask from, DbMask to, DbMask cap) { play(p, from, to, cap); }

/* Whether the side to move has a move at all (the draw counters aside): a step, a man's
 * jump, or a first jump of its King or Prince. */
static int can_move(const DbRules *r, const DbPos *p)
{
    DbMask empty = r->points & ~(p->own | p->opp);
    Steps st;
    if (scan(r, p, empty, &st) || st.counts)
        return 1;
    DbMask king = p->own & p->kings, prince = p->own & p->princes;
    return (king && open_jumps(r, ctz(king), p->opp, empty))
           || (prince && open_jumps(r, ctz(prince), p->opp & ~p->kings, empty));
}

/* DablotState.outcome: material first, then a side without a move loses, then the counters. */
int db_outcome(const DbRules *r, const DbPos *p, double *result)
{
    double v = terminal(r, p->own, p->opp, p->kings);
    if (v < 0.0) {
        if (can_move(r, p)) {
            if (!drawn(r, p))
                return GAME_RUNNING;
            *result = 0.5;
            return GAME_OVER;
        }
        v = 0.0;
    }
    *result = p->turn == 0 || v == 0.5 ? v : 1.0 - v;
    return GAME_OVER;
}

/* DablotState.evaluate: base.material_share of the material by rank. */
double db_evaluate(const DbRules *r, const DbPos *p)
{
    double own = material(r, p, p->own), opp = material(r, p, p->opp);
    if (own + opp == 0.0)
        return 0.5;
    double share = own / (own + opp);
    return p->turn == 0 ? share : 1.0 - share;
}

/* DablotState.heuristic: 100 for a capture that wins on the spot, else the material it takes. */
double db_heuristic(const DbRules *r, const DbPos *p, const MoveSlot *m)
{
    DbMask cap = db_slot_cap(m);
    if (!cap)
        return 0.0;
    DbMask from = db_bit(db_slot_from(m)), moved = from ^ db_bit(db_slot_to(m));
    DbMask kings = ((p->kings & from) ? p->kings ^ moved : p->kings) & ~cap;
    if (terminal(r, p->opp & ~cap, p->own ^ moved, kings) == 0.0)
        return 100.0;
    return material(r, p, cap);
}

/* ------------------------------------------------------------------------------------------
 * Random moves and playouts (DablotState._pick, DablotState.playout): one draw a ply
 * ---------------------------------------------------------------------------------------- */

/* A playout ply's move, drawn as _pick draws it: `x` in [0, 1) over the captures in `s` and
 * the `n_steps` counted (a man's capture forcing one: over the captures only). */
static void pick(const DbSink *s, const Steps *st, size_t n_steps,
                 double x, DbMask *from, DbMask *to, DbMask *cap)
{
    size_t k = (size_t)(x * (double)(s->n + n_steps));
    if (k < s->n) {
        *from = db_bit(s->light[k].from);
        *to = db_bit(s->light[k].to);
        *cap = s->light[k].cap;
        return;
    }
    int f = 0, t = 0;
    nth_step(st, k - s->n, &f, &t);
    *from = db_bit(f);
    *to = db_bit(t);
    *cap = 0;
}

/* DablotState.playout: one draw a ply (even when there is no move at all, as _pick), no move
 * list made (the captures listed light, the steps counted and only the drawn one found); the
 * end by material looked at only where material changed (a step moves, never takes). */
int db_playout(DbCtx *c, DbPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result, int64_t *plies)
{
    const DbRules *r = c->r;
    DbSink *s = &c->sink;
    s->slots = NULL;
    int taken = 1;              /* material changed since the end by material was looked at */
    for (int64_t i = 0; i < max_plies; i++) {
        if (drawn(r, p) || (taken && terminal(r, p->own, p->opp, p->kings) >= 0.0))
            break;
        Steps st;
        s->n = 0;
        size_t n_steps = moves(r, p, s, &st);
        if (s->oom)
            return GAME_ERROR;
        if (s->n + n_steps && i % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            return GAME_RUNNING;     /* the search is over: cut off here, the game going on */
        double x = rand_draw(rng);
        if (rng->failed)
            return GAME_ERROR;
        if (!(s->n + n_steps))
            break;
        DbMask from, to, cap;
        pick(s, &st, n_steps, x, &from, &to, &cap);
        play(p, from, to, cap);
        taken = cap != 0;
        ++*plies;
    }
    return db_outcome(r, p, result);
}

int db_random_move(DbCtx *c, const DbPos *p, Rand *rng, MoveSlot *out)
{
    const DbRules *r = c->r;
    if (drawn(r, p) || terminal(r, p->own, p->opp, p->kings) >= 0.0)
        return 0;
    MoveBuf buf = {0};
    DbSink sink = {.slots = &buf};
    Steps st;
    size_t n_steps = moves(r, p, &sink, &st), total = buf.n + n_steps;
    int got = sink.oom ? GAME_ERROR : 1;
    if (got == 1) {
        double x = rng->next(rng);
        size_t k = (size_t)(x * (double)total);
        if (rng->failed) {
            got = GAME_ERROR;
        } else if (!total) {
            got = 0;
        } else if (k < buf.n) {
            *out = buf.m[k];
        } else {
            int f = 0, t = 0;
            nth_step(&st, k - buf.n, &f, &t);
            *out = step_slot(f, t);
        }
    }
    free(buf.m);
    free(buf.h);
    return got;
}

/* DablotGame.perft: the leaves `depth` plies below, the draw counters ignored. */
int64_t db_perft(const DbRules *r, const DbPos *p, int depth)
{
    if (depth <= 0)
        return 1;
    MoveBuf buf = {0};
    int64_t total = db_legal_moves(r, p, 1, &buf) < 0 ? -1 : (depth == 1 ? (int64_t)buf.n : 0);
    for (size_t i = 0; depth > 1 && total >= 0 && i < buf.n; i++) {
        DbPos child = *p;
        const MoveSlot *m = &buf.m[i];
        play(&child, db_bit(db_slot_from(m)), db_bit(db_slot_to(m)), db_slot_cap(m));
        int64_t below = db_perft(r, &child, depth - 1);
        total = below < 0 ? -1 : total + below;
    }
    free(buf.m);
    free(buf.h);
    return total;
}

void db_sink_free(DbSink *s)
{
    free(s->light);
    s->light = NULL;
    s->n = s->cap = 0;
}

/* ------------------------------------------------------------------------------------------
 * The C game interface: positions are DbPos, moves slots laid out as dablot.h says
 * ---------------------------------------------------------------------------------------- */

#define RULES(g) (((const DbCtx *)(g)->ctx)->r)

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(DbPos));
    return GAME_OK;
}

static void g_pos_free(const GameIface *g, void *pos)
{
    (void)g;
    (void)pos;
}

static int g_copy(const GameIface *g, void *dst, const void *src)
{
    (void)g;
    memcpy(dst, src, sizeof(DbPos));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const DbPos *)pos)->turn;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out) { return db_legal_moves(RULES(g), pos, 0, out); }

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    db_play(pos, db_bit(db_slot_from(m)), db_bit(db_slot_to(m)), db_slot_cap(m));
    return GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result) { return db_outcome(RULES(g), pos, result); }

static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    *value = db_evaluate(RULES(g), pos);
    return GAME_OK;
}

static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    *value = db_heuristic(RULES(g), pos, m);
    return GAME_OK;
}

static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    (void)pos;
    return db_slot_cap(m) ? GAME_YES : GAME_NO;
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    int64_t plies = 0;
    return db_playout(g->ctx, pos, max_plies, rng, halt, result, &plies);
}

static int g_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = m->w[0] * 0x9e3779b97f4a7c15ULL ^ m->w[1] * 0xc2b2ae3d27d4eb4fULL ^ m->w[2];
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

static int g_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] && x->w[1] == y->w[1] && x->w[2] == y->w[2] ? GAME_YES : GAME_NO;
}

static const GameOps DABLOT_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .move_hash = g_move_hash, .move_equal = g_move_equal,
};

int dablot_game_open(GameIface *g, const DbRules *r)
{
    DbCtx *c = calloc(1, sizeof(DbCtx));
    if (!c)
        return -1;
    c->r = r;
    g->ops = &DABLOT_OPS;
    g->ctx = c;
    g->pos_size = sizeof(DbPos);
    g->flags = 0;
    return 0;
}

void dablot_game_close(GameIface *g)
{
    DbCtx *c = g->ctx;
    if (c) {
        db_sink_free(&c->sink);
        free(c);
    }
    g->ctx = NULL;
}
