/* The Life drop game's native rules (rules/life.py is the reference): the board as words of
 * bits, the generation step word-parallel, drops, the outcome, random playouts, and the C game
 * interface (game.h) over them.  See life.h for the layout. */
#include "life.h"

#include <stdlib.h>
#include <string.h>

#define POPCNT(x) __builtin_popcountll(x)
#define HOT static inline __attribute__((always_inline))   /* inlined with constant counts: unrolled */
#define UNROLL _Pragma("GCC unroll 6")
/* nv is 1 to NV (life_rules_init): said to the compiler, which unrolls the loops over it */
#define NV_RANGE(nv) do { if ((nv) < 1 || (nv) > NV) __builtin_unreachable(); } while (0)

/* ------------------------------------------------------------------------------------------
 * The board in registers: a mask as NV vectors of two words (SSE2 on x86-64, any GCC or clang
 * target), every step on all of its words at once.  A shift by k cells (one cell: k = 1, one
 * row: k = stride) carries the bits crossing a word's edge in from the word beside it.
 * ---------------------------------------------------------------------------------------- */
typedef uint64_t V2 __attribute__((vector_size(16)));
#define NV (LIFE_WORDS / 2)

#if defined(__clang__)
#define PAIR(a, b) __builtin_shufflevector(a, b, 1, 2)
#else
#define PAIR(a, b) __builtin_shuffle(a, b, (V2){1, 2})
#endif
/* PAIR(a, b) = {a[1], b[0]}: the words just below b's, or just above a's */

int life_rules_init(LifeRules *r, int size, int stride, int eval_scale, const char **why)
{
    memset(r, 0, sizeof(*r));
    if (size < 7 || size > LIFE_MAX_SIZE) {
        *why = "size must be 7 to 26";
        return -1;
    }
    if (stride != size + 1) {
        *why = "stride must be size + 1 (one ghost column)";
        return -1;
    }
    if (eval_scale < 1 || eval_scale > 1000000) {
        *why = "eval_scale must be 1 to 1000000";
        return -1;
    }
    r->size = size;
    r->stride = stride;
    r->nw = (size * stride + 63) / 64;
    r->nv = (r->nw + 1) / 2;
    r->eval_scale = eval_scale;
    for (int row = 0; row < size; row++)
        for (int col = 0; col < size; col++) {
            int i = row * stride + col;
            r->cells[i / 64] |= (uint64_t)1 << (i % 64);
        }
    return 0;
}

/* y = x << k and y = x >> k (0 < k < 64) over nv vectors; y is not x. */
HOT void shl(const V2 *x, V2 *y, int nv, int k)
{
    NV_RANGE(nv);
    V2 below = {0, 0};
    UNROLL for (int j = 0; j < nv; j++) {
        y[j] = x[j] << k | PAIR(below, x[j]) >> (64 - k);
        below = x[j];
    }
}

HOT void shr(const V2 *x, V2 *y, int nv, int k)
{
    NV_RANGE(nv);
    UNROLL for (int j = 0; j < nv; j++) {
        V2 above = j + 1 < nv ? x[j + 1] : (V2){0, 0};
        y[j] = x[j] >> k | PAIR(x[j], above) << (64 - k);
    }
}

/* A mask's words in and out of vectors: all of them (the words past a board's stay 0). */
HOT void load(V2 *v, const uint64_t *w) { memcpy(v, w, NV * sizeof(V2)); }
HOT void store(uint64_t *w, const V2 *v) { memcpy(w, v, NV * sizeof(V2)); }

HOT int any_v(const V2 *x, int nv)
{
    NV_RANGE(nv);
    V2 a = {0, 0};
    UNROLL for (int j = 0; j < nv; j++)
        a |= x[j];
    return (a[0] | a[1]) != 0;
}

static inline int count_bits(const uint64_t *x, int nw)
{
    int n = 0;
    for (int i = 0; i < nw; i++)
        n += POPCNT(x[i]);
    return n;
}

/* ------------------------------------------------------------------------------------------
 * The generation step.  Bit-sliced neighbour counts as life.py's tick: per cell the pair of
 * horizontal neighbours m (2 bits) and the row triples h above and below (2 bits each); the
 * count of all stones is needed as "2 or 3" and its low bit, the count of black ones mod 4.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    V2 m0[NV], m1[NV], u0[NV], u1[NV], d0[NV], d1[NV];
} Planes;

HOT void planes(const V2 *x, int nv, int s, Planes *p)
{
    NV_RANGE(nv);
    V2 l[NV] = {0}, r[NV] = {0}, h0[NV] = {0}, h1[NV] = {0};
    shl(x, l, nv, 1);
    shr(x, r, nv, 1);
    UNROLL for (int j = 0; j < nv; j++) {
        V2 m0 = l[j] ^ r[j], m1 = l[j] & r[j];
        p->m0[j] = m0;
        p->m1[j] = m1;
        h0[j] = m0 ^ x[j];
        h1[j] = m1 | (m0 & x[j]);
    }
    shl(h0, p->u0, nv, s);
    shl(h1, p->u1, nv, s);
    shr(h0, p->d0, nv, s);
    shr(h1, p->d1, nv, s);
}

HOT void tick_v(const V2 *cells, V2 *black, V2 *white, int nv, int s)
{
    NV_RANGE(nv);
    V2 occ[NV] = {0};
    UNROLL for (int j = 0; j < nv; j++)
        occ[j] = black[j] | white[j];
    Planes o = {0}, k = {0};
    planes(occ, nv, s, &o);
    planes(black, nv, s, &k);
    UNROLL for (int j = 0; j < nv; j++) {
        V2 u0 = o.u0[j], d0 = o.d0[j], m0 = o.m0[j], m1 = o.m1[j];
        V2 s0 = u0 ^ d0 ^ m0, c0 = (u0 & d0) | (m0 & (u0 ^ d0));
        V2 x = o.u1[j] ^ o.d1[j], y = o.u1[j] & o.d1[j], z = m1 ^ c0, w = m1 & c0;
        V2 n23 = (x ^ z) & ~(y | w) & cells[j];
        V2 n3 = n23 & s0, n2 = n23 ^ n3;
        u0 = k.u0[j], d0 = k.d0[j], m0 = k.m0[j];
        V2 b0 = u0 ^ d0 ^ m0;
        c0 = (u0 & d0) | (m0 & (u0 ^ d0));
        V2 b1 = k.u1[j] ^ k.d1[j] ^ k.m1[j] ^ c0;
        V2 survive2 = n2 & occ[j], new_occ = n3 | survive2;
        V2 new_black = (n3 & b1) | (survive2 & ((b1 & ~b0) | (b0 & ~b1 & black[j])));
        black[j] = new_black;
        white[j] = new_occ ^ new_black;
    }
}

/* The empty cells touching a stone (life.py, LifeGame.drops): a dilation by one cell. */
HOT void drops_v(const V2 *cells, const V2 *black, const V2 *white, V2 *out, int nv, int s)
{
    NV_RANGE(nv);
    V2 occ[NV] = {0}, l[NV] = {0}, r[NV] = {0}, h[NV] = {0}, u[NV] = {0}, d[NV] = {0};
    UNROLL for (int j = 0; j < nv; j++)
        occ[j] = black[j] | white[j];
    shl(occ, l, nv, 1);
    shr(occ, r, nv, 1);
    UNROLL for (int j = 0; j < nv; j++)
        h[j] = occ[j] | l[j] | r[j];
    shl(h, u, nv, s);
    shr(h, d, nv, s);
    UNROLL for (int j = 0; j < nv; j++)
        out[j] = (h[j] | u[j] | d[j]) & cells[j] & ~occ[j];
}

/* ------------------------------------------------------------------------------------------
 * Moves and results on a LifePos (word arrays): the rules of LifeState (legal_moves, play,
 * outcome, random_move).
 * ---------------------------------------------------------------------------------------- */
void life_tick(const LifeRules *r, uint64_t *black, uint64_t *white)
{
    V2 c[NV], b[NV], w[NV];
    load(c, r->cells);
    load(b, black);
    load(w, white);
    if (r->stride == 20)
        tick_v(c, b, w, 3, 20);        /* 19x19 */
    else
        tick_v(c, b, w, r->nv, r->stride);
    store(black, b);
    store(white, w);
}

static inline const uint64_t *own_stones(const LifePos *p) { return p->turn == 0 ? p->b : p->w; }

int life_drops(const LifeRules *r, const LifePos *p, uint64_t *out)
{
    memset(out, 0, sizeof(uint64_t) * LIFE_WORDS);
    if (!count_bits(own_stones(p), r->nw))
        return 0;
    V2 c[NV], b[NV], w[NV], d[NV] = {0};
    load(c, r->cells);
    load(b, p->b);
    load(w, p->w);
    if (r->stride == 20)
        drops_v(c, b, w, d, 3, 20);
    else
        drops_v(c, b, w, d, r->nv, r->stride);
    store(out, d);
    return count_bits(out, r->nw);
}

void life_play(const LifeRules *r, LifePos *p, int cell)
{
    uint64_t *own = p->turn == 0 ? p->b : p->w;
    own[cell / 64] |= (uint64_t)1 << (cell % 64);
    life_tick(r, p->b, p->w);
    p->turn ^= 1;
    p->ply++;
}

/* The result of the side to move (`turn`) having no stones: it loses, or wins on an empty board. */
static inline double stoneless(int turn, int other_has_stones)
{
    return other_has_stones ? (double)turn : (double)(turn ^ 1);
}

double life_outcome(const LifeRules *r, const LifePos *p)
{
    if (!count_bits(own_stones(p), r->nw))
        return stoneless(p->turn, count_bits(p->turn == 0 ? p->w : p->b, r->nw) != 0);
    uint64_t d[LIFE_WORDS];
    return life_drops(r, p, d) ? -1.0 : 0.5;     /* A1: stones but no legal drop (a full board) */
}

/* The bit index of the k-th (from 0, lowest first) set bit of x, which has more than k: the
 * byte holding it by the bytes' prefix counts (broadword, no branch), then within the byte. */
static inline int select_bit(uint64_t x, int k)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t c = x - ((x >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = ((c + (c >> 4)) & 0x0f0f0f0f0f0f0f0fULL) * ones;             /* byte i: bits in bytes 0..i */
    uint64_t below = (((uint64_t)k * ones | highs) - c) & highs;     /* the bytes whose prefix <= k */
    int place = POPCNT(below) * 8;
    k -= place ? (int)((c >> (place - 8)) & 0xff) : 0;
    uint64_t b = (x >> place) & 0xff;
    while (k-- > 0)
        b &= b - 1;
    return place + __builtin_ctzll(b);
}

/* The k-th drop cell of `legal` (k below its count; count[i]: word i's bits), in bit order as
 * LifeGame.kth_bit. */
static inline int kth_cell(const uint64_t *legal, const int *count, int nw, int k)
{
    int i = 0;
    while (i < nw - 1 && k >= count[i])
        k -= count[i++];
    return i * 64 + select_bit(legal[i], k);
}

/* One draw rng() * n truncated, as int(rng.random() * n); -1 when the source failed. */
static inline int draw_below(Rand *rng, int n)
{
    double x = rng->next(rng);
    return rng->failed ? -1 : (int)(x * (double)n);
}

int life_random_drop(const LifeRules *r, const LifePos *p, Rand *rng)
{
    uint64_t legal[LIFE_WORDS];
    int count[LIFE_WORDS], n = life_drops(r, p, legal);
    if (!n)
        return -1;
    for (int i = 0; i < r->nw; i++)
        count[i] = POPCNT(legal[i]);
    int k = draw_below(rng, n);
    return k < 0 ? -2 : kth_cell(legal, count, r->nw, k);
}

/* Leaves of the legal-move tree `depth` plies below `p` (LifeGame.perft): the last ply counted
 * from the drops' mask, not played. */
int64_t life_perft(const LifeRules *r, const LifePos *p, int depth)
{
    if (depth <= 0)
        return 1;
    uint64_t legal[LIFE_WORDS];
    int n = life_drops(r, p, legal);
    if (depth == 1)
        return n;
    int64_t total = 0;
    for (int i = 0; i < r->nw; i++)
        for (uint64_t x = legal[i]; x; x &= x - 1) {
            LifePos child = *p;
            life_play(r, &child, i * 64 + __builtin_ctzll(x));
            total += life_perft(r, &child, depth - 1);
        }
    return total;
}

/* ------------------------------------------------------------------------------------------
 * Random playouts: the loop of LifeState._random_playout with the board in registers.
 * ---------------------------------------------------------------------------------------- */
/* The drop one ply of a playout makes (-1: none, -2: the random source failed). */
HOT int playout_drop(const V2 *cells, const V2 *b, const V2 *w, Rand *rng, int nv, int s)
{
    NV_RANGE(nv);
    V2 d[NV] = {0};
    uint64_t legal[LIFE_WORDS];
    int count[LIFE_WORDS], n = 0;
    drops_v(cells, b, w, d, nv, s);
    memcpy(legal, d, (size_t)nv * sizeof(V2));
    UNROLL for (int i = 0; i < 2 * nv; i++)
        n += count[i] = POPCNT(legal[i]);
    if (!n)
        return -1;
    int k = draw_below(rng, n);
    return k < 0 ? -2 : kth_cell(legal, count, 2 * nv, k);
}

/* A stone of `turn` on `cell`, built in registers (a word written in memory and read back as a
 * pair stalls). */
HOT void drop(V2 *b, V2 *w, int turn, int cell, int nv)
{
    NV_RANGE(nv);
    const uint64_t bit = (uint64_t)1 << (cell % 64), word = (uint64_t)(cell / 64);
    const V2 mine = {turn == 0 ? ~(uint64_t)0 : 0, turn == 0 ? ~(uint64_t)0 : 0};
    UNROLL for (int j = 0; j < nv; j++) {
        V2 stone = {word == 2 * (uint64_t)j ? bit : 0, word == 2 * (uint64_t)j + 1 ? bit : 0};
        b[j] |= stone & mine;
        w[j] |= stone & ~mine;
    }
}

/* The playout on nv vectors and rows of stride s (constants where the dispatch inlines it);
 * -3 where it ran its plies out (then the outcome says). */
HOT double playout_v(const LifeRules *r, LifePos *p, int64_t max_plies, Rand *rng, const Halt *halt, int *record,
                     int nv, int s)
{
    NV_RANGE(nv);
    V2 c[NV], b[NV], w[NV];
    load(c, r->cells);
    load(b, p->b);
    load(w, p->w);
    int turn = p->turn;
    int64_t ply = 0;
    double result = -3.0;
    for (; ply < max_plies; ply++) {
        if (ply % HALT_CHECK == HALT_CHECK - 1 && halted(halt)) {
            result = -1.0;
            break;
        }
        if (!any_v(turn == 0 ? b : w, nv)) {
            result = stoneless(turn, any_v(turn == 0 ? w : b, nv));
            break;
        }
        int cell = playout_drop(c, b, w, rng, nv, s);
        if (cell < 0) {
            result = cell == -1 ? 0.5 : -2.0;      /* A1: no drop for a side with stones */
            break;
        }
        if (record)
            record[ply] = cell;
        drop(b, w, turn, cell, nv);
        tick_v(c, b, w, nv, s);
        turn ^= 1;
    }
    store(p->b, b);
    store(p->w, w);
    p->turn = turn;
    p->ply += ply;
    return result;
}

double life_playout(const LifeRules *r, LifePos *p, int64_t max_plies, Rand *rng, const Halt *halt, int *record)
{
    double v = r->stride == 20 ? playout_v(r, p, max_plies, rng, halt, record, 3, 20)    /* 19x19 */
                               : playout_v(r, p, max_plies, rng, halt, record, r->nv, r->stride);
    return v == -3.0 ? life_outcome(r, p) : v;
}

/* ------------------------------------------------------------------------------------------
 * The C game interface (game.h): positions are LifePos, a move is its drop cell in w[0].
 * Nothing fails: the rules need no memory of their own.
 * ---------------------------------------------------------------------------------------- */
#define RULES(g) ((const LifeRules *)(g)->ctx)

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(LifePos));
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
    memcpy(dst, src, sizeof(LifePos));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const LifePos *)pos)->turn;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    const LifeRules *r = RULES(g);
    uint64_t legal[LIFE_WORDS];
    if (!life_drops(r, pos, legal))
        return GAME_OK;
    MoveSlot slot;
    memset(&slot, 0, sizeof(slot));
    for (int i = 0; i < r->nw; i++)
        for (uint64_t x = legal[i]; x; x &= x - 1) {
            slot.w[0] = (uint64_t)(i * 64 + __builtin_ctzll(x));
            if (movebuf_push(out, &slot) < 0)
                return GAME_ERROR;
        }
    return GAME_OK;
}

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    life_play(RULES(g), pos, (int)m->w[0]);
    return GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result)
{
    *result = life_outcome(RULES(g), pos);
    return *result < 0.0 ? GAME_RUNNING : GAME_OVER;
}

/* LifeState.evaluate: the stone balance d squashed, 0.5 + 0.5 * d / (|d| + scale). */
static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    const LifeRules *r = RULES(g);
    const LifePos *p = pos;
    int d = count_bits(p->b, r->nw) - count_bits(p->w, r->nw);
    *value = 0.5 + 0.5 * (double)d / (double)(abs(d) + r->eval_scale);
    return GAME_OK;
}

/* The position after a drop. */
static void after_drop(const LifeRules *r, const LifePos *p, const MoveSlot *m, LifePos *after)
{
    *after = *p;
    life_play(r, after, (int)m->w[0]);
}

/* LifeState.heuristic: the drop's one-ply gain in stone balance for its mover. */
static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    const LifeRules *r = RULES(g);
    const LifePos *p = pos;
    LifePos a;
    after_drop(r, p, m, &a);
    int gain = (count_bits(a.b, r->nw) - count_bits(a.w, r->nw)) - (count_bits(p->b, r->nw) - count_bits(p->w, r->nw));
    *value = (double)(p->turn == 0 ? gain : -gain);
    return GAME_OK;
}

/* LifeState.is_capture: the drop leaves the opponent fewer stones. */
static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    const LifeRules *r = RULES(g);
    const LifePos *p = pos;
    LifePos a;
    after_drop(r, p, m, &a);
    int fewer = p->turn == 0 ? count_bits(a.w, r->nw) < count_bits(p->w, r->nw)
                             : count_bits(a.b, r->nw) < count_bits(p->b, r->nw);
    return fewer ? GAME_YES : GAME_NO;
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    double r = life_playout(RULES(g), pos, max_plies, rng, halt, NULL);
    if (r <= -2.0)
        return GAME_ERROR;
    *result = r;
    return r < 0.0 ? GAME_RUNNING : GAME_OVER;
}

static int g_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = (m->w[0] + 1) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

static int g_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] ? GAME_YES : GAME_NO;
}

static const GameOps LIFE_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .oracle = NULL, .quiesce = NULL,
    .move_hash = g_move_hash, .move_equal = g_move_equal,
};

void life_game_open(GameIface *g, const LifeRules *r)
{
    g->ops = &LIFE_OPS;
    g->ctx = (void *)r;
    g->pos_size = sizeof(LifePos);
    g->flags = 0;
}
