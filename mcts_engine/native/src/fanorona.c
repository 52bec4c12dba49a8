/* Fanorona's rules, compiled, and their C game interface (game.h).
 *
 * The Python rules (rules/fanorona.py) stay the reference: the same moves in the same order
 * (every capturing move of each stone in turn, its chains walked depth first with the longer
 * chain listed before its prefix, as ``extend`` and ``extend_dagaz`` do; else the paikas by
 * direction, then by point), the same outcome and draw counters, the same evaluation to the
 * last bit, the same random draws in a playout (one a ply).  The tests compare the two on
 * seeded random positions in every run.  Types and the move's slot: fanorona.h.
 */
#include "fanorona.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The playout compiled twice on x86-64 with GCC, for the CPUs with BMI2 and the rest, the
 * loader choosing (its bit tricks are a third shorter with BMI's instructions). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define FN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FN_CLONES
#endif
/* A part of the playout: inlined into it, so that both its compilations have it. */
#define FN_HOT static inline __attribute__((always_inline))

static inline uint64_t bit(int i) { return (uint64_t)1 << i; }
static inline int ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
/* x with every bit moved d places up (down for d < 0); bits leaving the word are gone */
static inline uint64_t shift(uint64_t x, int d) { return d >= 0 ? x << d : x >> -d; }

/* ------------------------------------------------------------------------------------------
 * Which stones can capture, and which can step (rules/fanorona.py: capturers, paika_masks)
 * ---------------------------------------------------------------------------------------- */

/* The empty points `e` a step in direction k may reach: all of them orthogonally, the strong
 * points diagonally (a diagonal step keeps a point's parity).  With the board's shifts
 * (fanorona.h) and its ghost column, which no step crosses, that is all the masking a step
 * needs: fn_step_masks checks it against the lines when the rules load. */
#define FN_ORTHOGONAL(k) ((k) < 4)

/* The points from which a stone could capture in direction k (shift d), whoever holds them: Q =
 * P + d in `to` (the empty points it may reach) and Q + d holds an enemy (an approach) or P - d
 * does (a withdrawal). */
static inline uint64_t capture_from(uint64_t to, uint64_t opp, int d)
{
    return shift(to & (shift(opp, -d) | shift(opp, 2 * d)), -d);
}

/* The points from which a stone could capture, per direction into `from` (capture_from), and
 * all of them (e the empty points). */
static inline uint64_t capture_points(const FnRules *r, uint64_t opp, uint64_t e, uint64_t from[FN_DIRS])
{
    uint64_t es = e & r->strong;
    from[0] = capture_from(e, opp, FN_D0);
    from[1] = capture_from(e, opp, FN_D1);
    from[2] = capture_from(e, opp, FN_D2);
    from[3] = capture_from(e, opp, FN_D3);
    from[4] = capture_from(es, opp, FN_D4);
    from[5] = capture_from(es, opp, FN_D5);
    from[6] = capture_from(es, opp, FN_D6);
    from[7] = capture_from(es, opp, FN_D7);
    return from[0] | from[1] | from[2] | from[3] | from[4] | from[5] | from[6] | from[7];
}

/* The stones of `own` with a capturing step, all at once (e the empty points). */
static inline uint64_t capturers_of(const FnRules *r, uint64_t own, uint64_t opp, uint64_t e)
{
    uint64_t from[FN_DIRS];
    return own & capture_points(r, opp, e, from);
}

uint64_t fn_capturers(const FnRules *r, uint64_t own, uint64_t opp)
{
    return capturers_of(r, own, opp, r->cells & ~(own | opp));
}

/* Per direction (E W N S NE SW NW SE), the stones of `own` that can step that way (e the
 * empty points). */
static inline void paika_masks_of(const FnRules *r, uint64_t own, uint64_t e, uint64_t masks[FN_DIRS])
{
    uint64_t es = e & r->strong;
    masks[0] = own & shift(e, -FN_D0);
    masks[1] = own & shift(e, -FN_D1);
    masks[2] = own & shift(e, -FN_D2);
    masks[3] = own & shift(e, -FN_D3);
    masks[4] = own & shift(es, -FN_D4);
    masks[5] = own & shift(es, -FN_D5);
    masks[6] = own & shift(es, -FN_D6);
    masks[7] = own & shift(es, -FN_D7);
}

static void paika_masks(const FnRules *r, uint64_t own, uint64_t opp, uint64_t masks[FN_DIRS])
{
    paika_masks_of(r, own, r->cells & ~(own | opp), masks);
}

int fn_step_masks(FnRules *r)
{
    r->strong = r->lines[4] | r->lines[5] | r->lines[6] | r->lines[7];
    uint64_t c = r->cells;
    for (int k = 0; k < FN_DIRS; k++) {
        int d = r->delta[k];
        uint64_t to = FN_ORTHOGONAL(k) ? c : c & r->strong;
        uint64_t approach = c & shift(c, -d) & shift(c, d), withdraw = c & shift(c, d) & shift(c, 2 * d);
        uint64_t step = c & shift(c, -d);
        if (((r->approach[k] ^ to) & approach) || ((r->withdraw[k] ^ to) & withdraw)
            || ((r->lines[k] ^ shift(to, -d)) & step))
            return -1;
    }
    for (int q = 0; q < FN_POINTS; q++)
        for (int j = 0; j < 2 * FN_DIRS; j++) {
            const FnLine *l = &r->line[q][j >> 1];
            r->step[q][j] = (FnStep){l->ray[j & 1], l->to_bit, -(uint64_t)l->up[j & 1], l->keep, l->to,
                                     (int8_t)((FN_REACH - l->to) & 63)};
        }
    return 0;
}

static int has_paika(const FnRules *r, uint64_t own, uint64_t opp)
{
    uint64_t m[FN_DIRS];
    paika_masks(r, own, opp, m);
    for (int k = 0; k < FN_DIRS; k++)
        if (m[k])
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The chain walk (rules/fanorona.py: extend, extend_dagaz), writing into a sink
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    const FnRules *r;
    FnSink *sink;
    int frm, mode;
    uint64_t opp0;                    /* Dagaz's removal: the enemies at the start of the turn */
    uint8_t path[FN_MAX_STEPS];       /* the step codes so far: (direction << 1) | kind */
} Walk;

/* The light list's room for one more move; 0, or -1 out of memory. */
static int sink_grow(FnSink *s)
{
    size_t cap_n = s->cap ? 2 * s->cap : 256;
    FnLight *l = realloc(s->light, cap_n * sizeof(FnLight));
    if (!l) {
        s->oom = 1;
        return -1;
    }
    s->light = l;
    s->cap = cap_n;
    return 0;
}

static inline void sink_push_light(FnSink *s, uint64_t cap, int from, int to)
{
    if (s->n == s->cap && sink_grow(s) < 0)
        return;
    s->light[s->n++] = (FnLight){cap, (uint8_t)from, (uint8_t)to};
}

/* movebuf_push, its room checked here first (the call only when the buffer grows). */
static inline int push_slot(MoveBuf *b, const MoveSlot *m)
{
    if (b->n < b->cap) {
        b->m[b->n++] = *m;
        return GAME_OK;
    }
    return movebuf_push(b, m);
}

/* A capturing move of `depth` steps ending on `to`, taking `cap`. */
static inline void emit(Walk *w, int to, uint64_t cap, int depth)
{
    FnSink *s = w->sink;
    if (!s->slots) {
        sink_push_light(s, cap, w->frm, to);
        return;
    }
    MoveSlot m;
    memset(&m, 0, sizeof m);
    m.w[0] = cap;
    m.b[FN_SLOT_FROM] = (uint8_t)w->frm;
    m.b[FN_SLOT_TO] = (uint8_t)to;
    m.b[FN_SLOT_STEPS] = (uint8_t)depth;
    for (int i = 0; i < depth; i++)
        m.b[FN_SLOT_CODES + i / 2] |= (uint8_t)(w->path[i] << (4 * (i & 1)));
    if (push_slot(s->slots, &m) < 0)
        s->oom = 1;
}

/* The stones a capture along a ray takes: its enemies from its first point up to the first
 * point without one, without a branch.  Up the bits: the ray's points below the lowest gap
 * (all of them when there is none).  Down: those above the highest gap, found on the gaps
 * moved up a bit with a sentinel at bit 0 (so that no gap leaves the whole ray). */
static inline uint64_t run_of(uint64_t ray, int up, uint64_t opp)
{
    uint64_t gaps = ray & ~opp, g2 = (gaps << 1) | 1;
    uint64_t below_low = (gaps & -gaps) - 1;
    uint64_t above_high = -((uint64_t)1 << (63 - __builtin_clzll(g2))), up_mask = -(uint64_t)up;
    return ray & ((below_low & up_mask) | (above_high & ~up_mask));
}

static inline uint64_t rotl(uint64_t x, int n) { return (x << n) | (x >> (-n & 63)); }
static inline unsigned gather_near(uint64_t x) { return (unsigned)((x & FN_NEAR_MASK) * FN_NEAR_MUL >> 55); }
static inline unsigned gather_far(uint64_t x) { return (unsigned)((x & FN_FAR_MASK) * FN_FAR_MUL >> (64 - FN_FAR_BITS)); }

/* The capturing steps open to the stone on `q`, bit 2k an approach in direction k and bit
 * 2k + 1 a withdrawal, in the order the rows list them (by direction, approach first).  The
 * board is turned so that q sits on bit FN_REACH (fanorona.h: the gathers).  A step in a
 * direction needs its neighbour free and, to approach, the point beyond an enemy, or, to
 * withdraw, the opposite neighbour an enemy; `valid` keeps the steps that have their lines,
 * which also drops the points the turn brought round from the other end of the word. */
static inline unsigned options_turned(const FnRules *r, int turn, uint64_t free, uint64_t opp)
{
    uint64_t o = rotl(opp, turn);
    return r->free_opts[gather_near(rotl(free, turn))] & (r->near_opts[gather_near(o)] | r->far_opts[gather_far(o)]);
}

/* options() but for `valid` (the walks' `keep` holds it) */
static inline unsigned options_raw(const FnRules *r, int q, uint64_t free, uint64_t opp)
{
    return options_turned(r, (FN_REACH - q) & 63, free, opp);
}

static inline unsigned options(const FnRules *r, int q, uint64_t free, uint64_t opp)
{
    return options_raw(r, q, free, opp) & r->valid[q];
}

/* run_of for a step of the playout's table. */
static inline uint64_t run_of_step(const FnStep *st, uint64_t opp)
{
    uint64_t ray = st->ray, gaps = ray & ~opp, g2 = (gaps << 1) | 1;
    uint64_t below_low = (gaps & -gaps) - 1, above_high = -((uint64_t)1 << (63 - __builtin_clzll(g2)));
    return ray & ((below_low & st->up) | (above_high & ~st->up));
}

/* The index bit of the point `d` away from the centre of a 3 x 3 square; -1 outside it. */
static int square_bit(int d)
{
    static const int shifts[9] = {FN_D5, FN_D3, FN_D7, FN_D1, 0, FN_D0, FN_D6, FN_D2, FN_D4};
    for (int i = 0; i < 9; i++)
        if (shifts[i] == d)
            return i;
    return -1;
}

/* Whether a gather moves every subset of its points as it moves each point alone. */
static int gather_exact(uint64_t mask, unsigned (*gather)(uint64_t))
{
    for (uint64_t sub = mask;; sub = (sub - 1) & mask) {
        unsigned alone = 0;
        for (uint64_t m = sub; m; m &= m - 1)
            alone |= gather(m & -m);
        if (gather(sub) != alone)
            return 0;
        if (!sub)
            return 1;
    }
}

static unsigned near_of(uint64_t x) { return gather_near(x); }
static unsigned far_of(uint64_t x) { return gather_far(x); }

int fn_gather_tables(FnRules *r)
{
    /* first by the square's bits: that index mirrored through the centre, the far gather
     * turned into it, and such an index spread onto the option bits of its directions */
    uint16_t opposite[1 << 9] = {0}, far[1 << FN_FAR_BITS] = {0}, spread[2][1 << 9] = {{0}};
    if (!gather_exact(FN_NEAR_MASK, near_of) || !gather_exact(FN_FAR_MASK, far_of))
        return -1;
    for (int x = 0; x < 1 << 9; x++)
        for (int i = 0; i < 9; i++)
            if (x >> i & 1)
                opposite[x] |= (uint16_t)(1u << (8 - i));
    for (int k = 0; k < FN_DIRS; k++) {
        int i = square_bit(r->delta[k]);
        if (i < 0)
            return -1;
        for (int x = 0; x < 1 << 9; x++)
            if (x >> i & 1) {
                spread[0][x] |= (uint16_t)(1u << (2 * k));
                spread[1][x] |= (uint16_t)(2u << (2 * k));
            }
        unsigned at = gather_far(bit(FN_REACH + 2 * r->delta[k]));
        if (!at)
            return -1;
        for (int x = 0; x < 1 << FN_FAR_BITS; x++)
            if (x & at)
                far[x] |= (uint16_t)(1u << i);
    }
    for (int x = 0; x < 1 << 9; x++) {
        r->free_opts[x] = spread[0][x] | spread[1][x];
        r->near_opts[x] = spread[1][opposite[x]];
    }
    for (int x = 0; x < 1 << FN_FAR_BITS; x++)
        r->far_opts[x] = spread[0][far[x]];
    return 0;
}

/* One level of the walk: the stone on `q` (a step's end), the points still free, the enemies
 * left, the stones taken so far, and the options not yet followed. */
typedef struct {
    uint64_t free, opp, taken;
    const FnLine *lines;              /* q's, by direction */
    unsigned mask;
    int q;
} Frame;

/* Every capturing move of the stone on `w->frm` (``extend``), without recursion.  A step whose
 * chain cannot go on is recorded at once; one that can opens a level, and is recorded when
 * that level closes (after the longer chains it starts) if chains may stop anywhere.  `free`
 * holds the empty points.  `light`, a constant where it is inlined: light moves, written
 * through a copy of the sink that stays in registers, and no step codes. */
static inline __attribute__((always_inline)) void walk(Walk *w, FnSink *out, int frm, uint64_t free, uint64_t opp,
                                                      int light, int mode)
{
    const FnRules *r = w->r;
    Frame stack[FN_MAX_STEPS + 1];
    int sp = 0;
    stack[0] = (Frame){free, opp, 0, r->line[frm], options(r, frm, free, opp), frm};
    while (sp >= 0) {
        Frame *f = &stack[sp];
        if (!f->mask) {
            if (sp && mode == FN_OPTIONAL) {
                if (light)
                    sink_push_light(out, f->taken, frm, f->q);
                else
                    emit(w, f->q, f->taken, sp);
            }
            sp--;
            continue;
        }
        int j = __builtin_ctz(f->mask);
        f->mask &= f->mask - 1;
        const FnLine *l = &f->lines[j >> 1];
        uint64_t line = run_of(l->ray[j & 1], l->up[j & 1], f->opp);
        uint64_t cap = f->taken | line, f2 = (f->free ^ l->to_bit) | line, o2 = f->opp ^ line;
        if (!light)
            w->path[sp] = (uint8_t)((l->k << 1) | (j & 1));
        unsigned next = mode == FN_SINGLE ? 0 : options_raw(r, l->to, f2, o2) & l->keep;
        if (!next) {
            if (light)
                sink_push_light(out, cap, frm, l->to);
            else
                emit(w, l->to, cap, sp + 1);
        } else if (sp + 1 >= FN_MAX_STEPS) {     /* more steps than stones a position may hold */
            out->oom = 1;
            return;
        } else {
            stack[++sp] = (Frame){f2, o2, cap, r->line[l->to], next, l->to};
        }
    }
}

static void extend(Walk *w, uint64_t free, uint64_t opp) { walk(w, w->sink, w->frm, free, opp, 0, w->mode); }

/* The light moves of every stone in `starters`, the sink's fields held in a local copy. */
static inline __attribute__((always_inline)) void light_chains(Walk *w, uint64_t free, uint64_t opp,
                                                              uint64_t starters, int mode)
{
    FnSink out = *w->sink;
    for (; starters && !out.oom; starters &= starters - 1)
        walk(w, &out, ctz(starters), free, opp, 1, mode);
    *w->sink = out;
}

/* light_chains compiled for each chain mode. */
static void chains_light(Walk *w, uint64_t free, uint64_t opp, uint64_t starters)
{
    if (w->mode == FN_OPTIONAL)
        light_chains(w, free, opp, starters, FN_OPTIONAL);
    else if (w->mode == FN_COMPULSORY)
        light_chains(w, free, opp, starters, FN_COMPULSORY);
    else
        light_chains(w, free, opp, starters, FN_SINGLE);
}

/* ``extend_dagaz``: only each line's first stone leaves while the chain is walked; the line
 * a step takes is traced on the board at the start of the turn. */
static int extend_dagaz(Walk *w, int q, uint64_t free, uint64_t opp, unsigned keep, uint64_t taken, int depth)
{
    const FnRules *r = w->r;
    unsigned mask = options(r, q, free, opp) & keep;
    for (unsigned m = mask; m; m &= m - 1) {
        int j = __builtin_ctz(m), kind = j & 1;
        const FnLine *l = &r->line[q][j >> 1];
        if (depth >= FN_MAX_STEPS) {
            w->sink->oom = 1;
            return 1;
        }
        uint64_t first = l->first[kind], cap = taken | run_of(l->ray[kind], l->up[kind], w->opp0);
        w->path[depth] = (uint8_t)((l->k << 1) | kind);
        if (w->mode == FN_SINGLE
            || !extend_dagaz(w, l->to, (free ^ l->to_bit) | first, opp ^ first, l->keep, cap, depth + 1)
            || w->mode == FN_OPTIONAL)
            emit(w, l->to, cap, depth + 1);
    }
    return mask != 0;
}

void fn_chains(const FnRules *r, uint64_t own, uint64_t opp, uint64_t starters, int mode, FnSink *sink)
{
    Walk w = {.r = r, .sink = sink, .mode = mode, .opp0 = opp};
    uint64_t free = r->cells & ~(own | opp);
    if (!r->dagaz && !sink->slots) {
        chains_light(&w, free, opp, starters);
        return;
    }
    while (starters && !sink->oom) {
        w.frm = ctz(starters);
        starters &= starters - 1;
        if (r->dagaz)
            extend_dagaz(&w, w.frm, free, opp, ~0u, 0, 0);
        else
            extend(&w, free, opp);
    }
}

void fn_sink_free(FnSink *s)
{
    free(s->light);
    free(s->rec);
    s->light = NULL;
    s->rec = NULL;
    s->n = s->cap = s->rec_cap = 0;
}

/* ------------------------------------------------------------------------------------------
 * Counting the capturing moves, and finding the one numbered k, without a list (the playout)
 * ---------------------------------------------------------------------------------------- */

/* A level of count_below's walk left for a child's: the stone's steps, the board it stands on,
 * its record and its steps not yet followed. */
typedef struct {
    const FnStep *steps;
    uint64_t free, opp;
    uint32_t *node;
    unsigned mask;
} CountLevel;

/* The moves below a stone whose steps are `steps` (its point's table) and its next steps
 * `mask`, on the board (`free`, `opp`) it stands on, chains optional (each node of the walk a
 * move): one record a node, in the walk's order (a node before its children), holding the
 * moves of its subtree (itself included), so that the move numbered k is found again by
 * skipping whole subtrees.  Returns the end of the records, or NULL when they would pass `end`
 * (which leaves room for a node's children), or the chain is longer than a position allows.
 * A child's own next steps are read on this same board, before its capture: the stones a step
 * takes lie on its own line, beyond its end or behind its start, and the next step may neither
 * repeat that direction (`keep`) nor go back (the start is not free), nor reach the line from
 * anywhere else, so that they change nothing it can do: a child that cannot go on costs one
 * options() and no run_of. */
FN_HOT uint32_t *count_below(const FnRules *r, const FnStep *steps, uint64_t free, uint64_t opp, unsigned mask,
                             uint32_t *w, const uint32_t *end)
{
    CountLevel stack[FN_MAX_STEPS], *sp = stack;
    uint32_t *node = NULL;
    if (w > end)
        return NULL;
    for (;;) {
        if (mask) {
            const FnStep *st = &steps[__builtin_ctz(mask)];
            unsigned next = options_turned(r, st->turn, free, opp) & st->keep;
            uint32_t *child = w++;
            mask &= mask - 1;
            *child = 1;
            if (!next)
                continue;
            if (w > end || sp == stack + FN_MAX_STEPS)
                return NULL;
            uint64_t line = run_of_step(st, opp);
            *sp++ = (CountLevel){steps, free, opp, node, mask};
            steps = r->step[st->to];
            free = (free ^ st->to_bit) | line;
            opp ^= line;
            node = child;
            mask = next;
            continue;
        }
        if (w > end)
            return NULL;
        if (sp == stack)
            return w;
        *node = (uint32_t)(w - node);
        --sp;
        steps = sp->steps;
        free = sp->free;
        opp = sp->opp;
        node = sp->node;
        mask = sp->mask;
    }
}

/* count_below for the first steps of the stone on `q`, whose going on is read on `go_on`
 * (go_on_masks: per direction, the points from which the chain goes on) in place of options(). */
FN_HOT uint32_t *count_first(const FnRules *r, int q, uint64_t free, uint64_t opp, const uint64_t go_on[FN_DIRS],
                                    uint32_t *w, const uint32_t *end)
{
    const FnStep *steps = r->step[q];
    if (w > end)
        return NULL;
    for (unsigned mask = options(r, q, free, opp); mask && w; mask &= mask - 1) {
        unsigned j = (unsigned)__builtin_ctz(mask);
        const FnStep *st = &steps[j];
        uint32_t *node = w++;
        *node = 1;
        if (!(go_on[j >> 1] >> st->to & 1))
            continue;
        unsigned next = options_turned(r, st->turn, free, opp) & st->keep;
        uint64_t line = run_of_step(st, opp);
        if ((w = count_below(r, r->step[st->to], (free ^ st->to_bit) | line, opp ^ line, next, w, end)))
            *node = (uint32_t)(w - node);
    }
    return w;
}

/* The capturing move numbered `k` among the stone on `frm`'s (chains optional, `rec` its
 * records, k below their number): its end in *to, the stones it takes in *cap. */
FN_HOT void nth_optional(const FnRules *r, int frm, uint64_t free, uint64_t opp, size_t k, const uint32_t *rec,
                         int *to, uint64_t *cap)
{
    const FnStep *steps = r->step[frm];
    unsigned mask = options(r, frm, free, opp);
    uint64_t taken = 0;
    for (;;) {
        const FnStep *st = &steps[__builtin_ctz(mask)];
        mask &= mask - 1;
        size_t size = *rec;
        if (k >= size) {
            k -= size;
            rec += size;
            continue;
        }
        uint64_t line = run_of_step(st, opp);
        taken |= line;
        if (k == size - 1) {          /* the node itself, after the chains it starts */
            *to = st->to;
            *cap = taken;
            return;
        }
        mask = options_turned(r, st->turn, free, opp) & st->keep;
        free = (free ^ st->to_bit) | line;
        opp ^= line;
        steps = r->step[st->to];
        rec++;
    }
}

/* The k-th set bit of `m` (k below its count): the first three cleared without a branch (a
 * direction's paikas are few), a loop for the rest. */
static inline int nth_bit(uint64_t m, size_t k)
{
    for (size_t t = 1; t <= 3; t++) {
        uint64_t next = m & (m - 1);
        m = k >= t ? next : m;
    }
    for (size_t t = 3; t < k; t++)
        m &= m - 1;
    return ctz(m);
}

#define FN_REC_MIN 4096                /* the records' first room */

/* Whether the playout counts the capturing moves rather than lists them: chains optional or one
 * step long, the captured lines leaving at once (else fn_chains lists them). */
FN_HOT int counted(const FnRules *r, int mode) { return !r->dagaz && mode != FN_COMPULSORY; }

/* Per direction k, the points from which a stone could capture in another direction (`from`:
 * capture_points' per direction): a first step in direction k to such a point can go on, since
 * a chain's second step sees the start-of-turn board but for the line the first one took. */
static inline void go_on_masks(const uint64_t from[FN_DIRS], uint64_t go_on[FN_DIRS])
{
    uint64_t a = from[0] | from[1], b = from[2] | from[3], c = from[4] | from[5], d = from[6] | from[7];
    uint64_t ab = a | b, cd = c | d;
    go_on[0] = from[1] | b | cd;
    go_on[1] = from[0] | b | cd;
    go_on[2] = from[3] | a | cd;
    go_on[3] = from[2] | a | cd;
    go_on[4] = from[5] | ab | d;
    go_on[5] = from[4] | ab | d;
    go_on[6] = from[7] | ab | c;
    go_on[7] = from[6] | ab | c;
}

/* The capturing moves of the stones in `starters`, counted (a `counted` mode), per stone into
 * `each` (by ascending point), their records (count_optional) into the sink's; the total, or -1
 * out of memory.  `from`: capture_points' per direction, on this board. */
FN_HOT int64_t count_chains(FnSink *s, const FnRules *r, uint64_t free, uint64_t opp, uint64_t starters, int mode,
                            const uint64_t from[FN_DIRS], size_t *each)
{
    if (mode == FN_SINGLE) {
        size_t total = 0;
        for (size_t i = 0; starters; starters &= starters - 1, i++)
            total += each[i] = (size_t)__builtin_popcount(options(r, ctz(starters), free, opp));
        return (int64_t)total;
    }
    uint64_t go_on[FN_DIRS];
    go_on_masks(from, go_on);
    for (;;) {
        if (s->rec_cap < FN_REC_MIN) {
            uint32_t *grown = realloc(s->rec, FN_REC_MIN * sizeof(uint32_t));
            if (!grown)
                return -1;
            s->rec = grown;
            s->rec_cap = FN_REC_MIN;
        }
        uint32_t *w = s->rec, *end = s->rec + s->rec_cap - 2 * FN_DIRS;     /* room for a node's children */
        size_t i = 0;
        for (uint64_t m = starters; m && w; m &= m - 1, i++) {
            int q = ctz(m);
            uint32_t *start = w;
            w = count_first(r, q, free, opp, go_on, w, end);
            each[i] = w ? (size_t)(w - start) : 0;
        }
        if (w)
            return w - s->rec;
        size_t cap_n = 2 * s->rec_cap;
        uint32_t *grown = realloc(s->rec, cap_n * sizeof(uint32_t));
        if (!grown)
            return -1;
        s->rec = grown;
        s->rec_cap = cap_n;
    }
}

/* The capturing move numbered `k` of those count_chains counted (the same arguments, k below
 * their total): its start, end and captured stones. */
FN_HOT void nth_chain(const FnSink *s, const FnRules *r, uint64_t free, uint64_t opp, uint64_t starters, int mode,
                      const size_t *each, size_t k, int *from, int *to, uint64_t *cap)
{
    size_t i = 0, before = 0;
    for (; k >= each[i]; i++) {
        k -= each[i];
        before += each[i];
        starters &= starters - 1;
    }
    int q = *from = ctz(starters);
    if (mode != FN_SINGLE) {
        nth_optional(r, q, free, opp, k, s->rec + before, to, cap);
        return;
    }
    const FnStep *st = &r->step[q][nth_bit(options(r, q, free, opp), k)];
    *to = st->to;
    *cap = run_of_step(st, opp);
}

/* ------------------------------------------------------------------------------------------
 * Moves, play, outcome, evaluation
 * ---------------------------------------------------------------------------------------- */

FN_HOT int chain_mode(const FnRules *r, const FnPos *p)
{
    return r->first_single && p->ply < 2 ? FN_SINGLE : r->mode;
}

FN_HOT int drawn(const FnRules *r, const FnPos *p)
{
    return p->quiet >= r->quiet_limit || p->ply >= r->ply_limit;
}

static MoveSlot paika_slot(int from, int to)
{
    MoveSlot m;
    memset(&m, 0, sizeof m);
    m.b[FN_SLOT_FROM] = (uint8_t)from;
    m.b[FN_SLOT_TO] = (uint8_t)to;
    return m;
}

/* FanoronaGame.legal (and legal_moves, unless `ignore_draws`): captures if any, else paikas. */
int fn_legal_moves(const FnRules *r, const FnPos *p, int ignore_draws, MoveBuf *out)
{
    if (!ignore_draws && drawn(r, p))
        return GAME_OK;
    uint64_t starters = fn_capturers(r, p->own, p->opp);
    if (starters) {
        FnSink sink = {.slots = out};
        fn_chains(r, p->own, p->opp, starters, chain_mode(r, p), &sink);
        return sink.oom ? GAME_ERROR : GAME_OK;
    }
    uint64_t masks[FN_DIRS];
    paika_masks(r, p->own, p->opp, masks);
    for (int k = 0; k < FN_DIRS; k++)
        for (uint64_t m = masks[k]; m; m &= m - 1) {
            int from = ctz(m);
            MoveSlot slot = paika_slot(from, from + r->delta[k]);
            if (push_slot(out, &slot) < 0)
                return GAME_ERROR;
        }
    return GAME_OK;
}

static inline void play(FnPos *p, uint64_t from, uint64_t to, uint64_t cap)
{
    uint64_t own = p->own;
    p->own = p->opp & ~cap;
    p->opp = own ^ from ^ to;
    p->turn ^= 1;
    p->ply++;
    p->quiet = cap ? 0 : p->quiet + 1;
}

void fn_play(FnPos *p, uint64_t from, uint64_t to, uint64_t cap) { play(p, from, to, cap); }

/* FanoronaState.outcome: the side without a move loses, then the draw counters. */
static int outcome(const FnRules *r, const FnPos *p, double *result)
{
    if (!fn_capturers(r, p->own, p->opp) && !has_paika(r, p->own, p->opp)) {
        *result = p->turn == 0 ? 0.0 : 1.0;
        return GAME_OVER;
    }
    if (drawn(r, p)) {
        *result = 0.5;
        return GAME_OVER;
    }
    return GAME_RUNNING;
}

/* FanoronaState.evaluate: base.balance_score of White's stones against Black's, the same
 * operations in the same order (pow(x, 0.5) is Python's ** 0.5). */
static double evaluate(const FnRules *r, const FnPos *p)
{
    uint64_t white = p->turn == 0 ? p->own : p->opp, black = p->turn == 0 ? p->opp : p->own;
    int w = popcount(white), b = popcount(black), pieces = w + b;
    if (pieces <= 0)
        return 0.5;
    double x = r->eval_scale * (double)(w - b);
    x = x * pow((double)r->start_stones / (double)pieces, 0.5);
    if (x < -700.0)
        return 0.0;
    return 1.0 / (1.0 + exp(-x));
}

/* ------------------------------------------------------------------------------------------
 * Random moves and playouts (FanoronaGame.pick, FanoronaState.playout): one draw a ply
 * ---------------------------------------------------------------------------------------- */

/* The paikas per direction (E W N S NE SW NW SE) counted into `seen`, running: seen[d] those
 * of the directions before d; seen[FN_DIRS] is all of them. */
static inline void paika_counts(const uint64_t masks[FN_DIRS], size_t seen[FN_DIRS + 1])
{
    seen[0] = 0;
    seen[1] = (size_t)popcount(masks[0]);
    seen[2] = seen[1] + (size_t)popcount(masks[1]);
    seen[3] = seen[2] + (size_t)popcount(masks[2]);
    seen[4] = seen[3] + (size_t)popcount(masks[3]);
    seen[5] = seen[4] + (size_t)popcount(masks[4]);
    seen[6] = seen[5] + (size_t)popcount(masks[5]);
    seen[7] = seen[6] + (size_t)popcount(masks[6]);
    seen[8] = seen[7] + (size_t)popcount(masks[7]);
}

/* The paika numbered `k` counting by direction, then by point (the order legal lists them; seen:
 * paika_counts'): the direction found without a branch. */
static inline void nth_paika(const FnRules *r, const uint64_t masks[FN_DIRS], const size_t seen[FN_DIRS + 1],
                             size_t k, int *from, int *to)
{
    int d = (k >= seen[1]) + (k >= seen[2]) + (k >= seen[3]) + (k >= seen[4]) + (k >= seen[5]) + (k >= seen[6])
            + (k >= seen[7]);
    *from = nth_bit(masks[d], k - seen[d]);
    *to = *from + r->delta[d];
}

static inline size_t paika_count(const uint64_t masks[FN_DIRS])
{
    size_t seen[FN_DIRS + 1];
    paika_counts(masks, seen);
    return seen[FN_DIRS];
}

/* A random capturing move of the stones in `starters` (immediate removal or not, any chain
 * mode): counted when the mode allows (`counted`), else listed in the sink; 0, or GAME_ERROR
 * (memory, or the random source failed). */
FN_HOT int draw_capture(FnSink *s, const FnRules *r, uint64_t own, uint64_t opp, uint64_t e, uint64_t starters,
                               const uint64_t points[FN_DIRS], int mode, Rand *rng, int *from, int *to, uint64_t *cap)
{
    size_t each[FN_POINTS], n;
    int count = counted(r, mode);
    if (count) {
        int64_t total = count_chains(s, r, e, opp, starters, mode, points, each);
        if (total < 0)
            return GAME_ERROR;
        n = (size_t)total;
    } else {
        s->n = 0;
        fn_chains(r, own, opp, starters, mode, s);
        if (s->oom)
            return GAME_ERROR;
        n = s->n;
    }
    double x = rand_draw(rng);
    if (rng->failed)
        return GAME_ERROR;
    size_t k = (size_t)(x * (double)n);
    if (count) {
        nth_chain(s, r, e, opp, starters, mode, each, k, from, to, cap);
    } else {
        *from = s->light[k].from;
        *to = s->light[k].to;
        *cap = s->light[k].cap;
    }
    return 0;
}

FN_CLONES int fn_playout(FnCtx *c, FnPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result,
                        int64_t *plies)
{
    const FnRules *r = c->r;
    FnSink *s = &c->sink;
    FnPos pos = *p;
    int err = 0;
    s->slots = NULL;
    for (int64_t i = 0; i < max_plies && !drawn(r, &pos); i++) {
        uint64_t points[FN_DIRS], e = r->cells & ~(pos.own | pos.opp), cap = 0;
        uint64_t starters = pos.own & capture_points(r, pos.opp, e, points);
        int f = 0, t = 0;
        if (i % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            break;                   /* the search is over: cut off here, the game going on */
        if (starters) {
            if ((err = draw_capture(s, r, pos.own, pos.opp, e, starters, points, chain_mode(r, &pos), rng, &f, &t, &cap)))
                break;
        } else {
            uint64_t masks[FN_DIRS];
            size_t seen[FN_DIRS + 1];
            paika_masks_of(r, pos.own, e, masks);
            paika_counts(masks, seen);
            if (!seen[FN_DIRS])
                break;
            double x = rand_draw(rng);
            if (rng->failed) {
                err = GAME_ERROR;
                break;
            }
            nth_paika(r, masks, seen, (size_t)(x * (double)seen[FN_DIRS]), &f, &t);
        }
        play(&pos, bit(f), bit(t), cap);
        ++*plies;
    }
    *p = pos;
    if (err)
        return GAME_ERROR;
    return outcome(r, p, result);
}

int fn_random_move(FnCtx *c, const FnPos *p, Rand *rng, MoveSlot *out)
{
    const FnRules *r = c->r;
    if (drawn(r, p))
        return 0;
    uint64_t starters = fn_capturers(r, p->own, p->opp);
    if (starters) {
        MoveBuf buf = {0};
        FnSink sink = {.slots = &buf};
        fn_chains(r, p->own, p->opp, starters, chain_mode(r, p), &sink);
        int got = sink.oom ? GAME_ERROR : 1;
        if (got == 1) {
            double x = rng->next(rng);
            if (rng->failed)
                got = GAME_ERROR;
            else
                *out = buf.m[(size_t)(x * (double)buf.n)];
        }
        free(buf.m);
        free(buf.h);
        return got;
    }
    uint64_t masks[FN_DIRS];
    size_t seen[FN_DIRS + 1];
    paika_masks(r, p->own, p->opp, masks);
    paika_counts(masks, seen);
    if (!seen[FN_DIRS])
        return 0;
    double x = rng->next(rng);
    if (rng->failed)
        return GAME_ERROR;
    int from = 0, to = 0;
    nth_paika(r, masks, seen, (size_t)(x * (double)seen[FN_DIRS]), &from, &to);
    *out = paika_slot(from, to);
    return 1;
}

/* FanoronaGame.perft: the leaves `depth` plies below, draw rules ignored. */
int64_t fn_perft(const FnRules *r, const FnPos *p, int depth)
{
    if (depth <= 0)
        return 1;
    uint64_t starters = fn_capturers(r, p->own, p->opp);
    int64_t total = 0;
    if (starters) {
        FnSink s = {0};
        fn_chains(r, p->own, p->opp, starters, chain_mode(r, p), &s);
        total = s.oom ? -1 : (depth == 1 ? (int64_t)s.n : 0);
        for (size_t i = 0; depth > 1 && total >= 0 && i < s.n; i++) {
            FnPos child = *p;
            fn_play(&child, bit(s.light[i].from), bit(s.light[i].to), s.light[i].cap);
            int64_t below = fn_perft(r, &child, depth - 1);
            total = below < 0 ? -1 : total + below;
        }
        fn_sink_free(&s);
        return total;
    }
    uint64_t masks[FN_DIRS];
    paika_masks(r, p->own, p->opp, masks);
    if (depth == 1)
        return (int64_t)paika_count(masks);
    for (int k = 0; k < FN_DIRS && total >= 0; k++)
        for (uint64_t m = masks[k]; m && total >= 0; m &= m - 1) {
            FnPos child = *p;
            int from = ctz(m);
            fn_play(&child, bit(from), bit(from + r->delta[k]), 0);
            int64_t below = fn_perft(r, &child, depth - 1);
            total = below < 0 ? -1 : total + below;
        }
    return total;
}

/* ------------------------------------------------------------------------------------------
 * The C game interface: positions are FnPos, moves slots laid out as fanorona.h says
 * ---------------------------------------------------------------------------------------- */

#define RULES(g) (((const FnCtx *)(g)->ctx)->r)

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(FnPos));
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
    memcpy(dst, src, sizeof(FnPos));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const FnPos *)pos)->turn;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    return fn_legal_moves(RULES(g), pos, 0, out);
}

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    fn_play(pos, bit(m->b[FN_SLOT_FROM]), bit(m->b[FN_SLOT_TO]), m->w[0]);
    return GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result)
{
    return outcome(RULES(g), pos, result);
}

static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    *value = evaluate(RULES(g), pos);
    return GAME_OK;
}

/* FanoronaState.heuristic: the stones a move captures. */
static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    (void)g;
    (void)pos;
    *value = (double)popcount(m->w[0]);
    return GAME_OK;
}

static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    (void)pos;
    return m->w[0] ? GAME_YES : GAME_NO;
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    int64_t plies = 0;
    return fn_playout(g->ctx, pos, max_plies, rng, halt, result, &plies);
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

static const GameOps FANORONA_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .move_hash = g_move_hash, .move_equal = g_move_equal,
};

int fanorona_game_open(GameIface *g, const FnRules *r)
{
    FnCtx *c = calloc(1, sizeof(FnCtx));
    if (!c)
        return -1;
    c->r = r;
    g->ops = &FANORONA_OPS;
    g->ctx = c;
    g->pos_size = sizeof(FnPos);
    g->flags = GAME_COMPULSORY_CAPTURES;
    return 0;
}

void fanorona_game_close(GameIface *g)
{
    FnCtx *c = g->ctx;
    if (c) {
        fn_sink_free(&c->sink);
        free(c);
    }
    g->ctx = NULL;
}
