/* Fanorona's rules, compiled, and their C game interface (game.h).
 *
 * The Python rules (rules/fanorona.py) stay the reference: the same moves in the same order
 * (every capturing move of each stone in turn, its chains walked depth first with the longer
 * chain listed before its prefix, as ``extend`` and ``extend_dagaz`` do; else the paikas by
 * direction, then by point), the same outcome and draw counters, the same evaluation to the
 * last bit, the same random draws in a playout (one a ply; the playout itself is in
 * fanorona_playout.c).  The tests compare the two on seeded random positions in every run.
 * Types and the move's slot: fanorona.h; the bit tricks shared with the playout:
 * fanorona_bits.h.
 */
#include "fanorona_bits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Which stones can capture, and which can step (rules/fanorona.py: capturers, paika_masks)
 * ---------------------------------------------------------------------------------------- */

uint64_t fn_capturers(const FnRules *r, uint64_t own, uint64_t opp)
{
    return capturers_of(r, own, opp, r->cells & ~(own | opp));
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
    for (int x = 0; x < 1 << 8; x++) {          /* the same on pext's order: the masks' bits upwards */
        uint64_t near = 0, two_away = 0;
        int i = 0;
        for (uint64_t m = FN_NEAR_MASK; m; m &= m - 1, i++)
            near |= x >> i & 1 ? m & -m : 0;
        i = 0;
        for (uint64_t m = FN_FAR_MASK; m; m &= m - 1, i++)
            two_away |= x >> i & 1 ? m & -m : 0;
        r->free_packed[x] = r->free_opts[gather_near(near)];
        r->near_packed[x] = r->near_opts[gather_near(near)];
        r->far_packed[x] = r->far_opts[gather_far(two_away)];
    }
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
    stack[0] = (Frame){free, opp, 0, r->line[frm], options(r, frm, free, opp, 0), frm};
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
        uint64_t line = run_of(l->ray[j & 1], -(uint64_t)l->up[j & 1], f->opp);
        uint64_t cap = f->taken | line, f2 = (f->free ^ l->to_bit) | line, o2 = f->opp ^ line;
        if (!light)
            w->path[sp] = (uint8_t)((l->k << 1) | (j & 1));
        unsigned next = mode == FN_SINGLE ? 0 : options_turned(r, (FN_REACH - l->to) & 63, f2, o2, 0) & l->keep;
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
    unsigned mask = options(r, q, free, opp, 0) & keep;
    for (unsigned m = mask; m; m &= m - 1) {
        int j = __builtin_ctz(m), kind = j & 1;
        const FnLine *l = &r->line[q][j >> 1];
        if (depth >= FN_MAX_STEPS) {
            w->sink->oom = 1;
            return 1;
        }
        uint64_t first = l->first[kind], cap = taken | run_of(l->ray[kind], -(uint64_t)l->up[kind], w->opp0);
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
 * Moves, play, outcome, evaluation
 * ---------------------------------------------------------------------------------------- */

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

void fn_play(FnPos *p, uint64_t from, uint64_t to, uint64_t cap) { play(p, from, to, cap); }

/* FanoronaState.outcome: the side without a move loses, then the draw counters. */
int fn_outcome(const FnRules *r, const FnPos *p, double *result)
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
    size_t seen[FN_DIRS + 1];
    paika_masks(r, p->own, p->opp, masks);
    paika_counts(masks, seen);
    if (depth == 1)
        return (int64_t)seen[FN_DIRS];
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
    return fn_outcome(RULES(g), pos, result);
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
