/* Gauntlet's native rules (rules/gauntlet.py is the reference): moves, captures, the goal, random
 * playouts, and the C game interface (game.h) over them.  See gauntlet.h for the layout. */
#include "gauntlet.h"

#include <string.h>

static inline int popcnt(GBits x) { return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64)); }

static inline int lowest(GBits x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int highest(GBits x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

static inline GBits shift(GBits x, int d) { return d > 0 ? x << d : x >> -d; }

/* ------------------------------------------------------------------------------------------
 * Move generation, in GauntletGame's order: per moving group (runners north; left blockers
 * east, then right blockers west) the captures of each piece in bit order, every jump length
 * its own move; then the steps, group by group, in the order of their targets.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    GBits pieces;
    int d;
} Group;

/* The moving groups of the side to move and their prey; the number of groups. */
static inline int groups(const GauntletRules *r, const GauntletPos *p, Group g[2], GBits *prey)
{
    if (p->turn == 0) {
        g[0] = (Group){p->runners, r->stride};
        *prey = p->left | p->right;
        return 1;
    }
    g[0] = (Group){p->left, 1};
    g[1] = (Group){p->right, -1};
    *prey = p->runners;
    return 2;
}

/* The pieces of a group that can start a capture. */
static inline GBits starters(const Group *g, GBits prey, GBits empty)
{
    return shift(shift(shift(g->pieces, g->d) & prey, g->d) & empty, -2 * g->d);
}

/* Every capture of the side to move (GauntletGame.captures); their number. */
static int captures(const GauntletRules *r, const GauntletPos *p, GMove *out)
{
    Group g[2];
    GBits prey, empty = r->cells ^ (p->runners | p->left | p->right);
    int n = 0, ng = groups(r, p, g, &prey);
    for (int k = 0; k < ng; k++)
        for (GBits starts = starters(&g[k], prey, empty); starts; starts &= starts - 1) {
            GBits frm = starts & -starts, sq = frm, cap = 0;
            for (;;) {
                GBits mid = shift(sq, g[k].d), land = shift(mid, g[k].d);
                if (!(mid & prey) || !(land & empty) || n == GAUNTLET_MAX_MOVES)
                    break;
                cap |= mid;
                sq = land;
                out[n++] = (GMove){frm, sq, cap};
            }
        }
    if (r->max_capture && n) {
        int best = 0, kept = 0;
        for (int i = 0; i < n; i++)
            if (popcnt(out[i].cap) > best)
                best = popcnt(out[i].cap);
        for (int i = 0; i < n; i++)
            if (popcnt(out[i].cap) == best)
                out[kept++] = out[i];
        n = kept;
    }
    return n;
}

/* The step targets of the side to move, one bucket per group (GauntletGame.steps). */
static inline int steps(const GauntletRules *r, const GauntletPos *p, GBits targets[2], int d[2])
{
    GBits empty = r->cells ^ (p->runners | p->left | p->right);
    if (p->turn == 0) {
        d[0] = r->stride;
        targets[0] = (p->runners << r->stride) & empty;
        return 1;
    }
    d[0] = 1, d[1] = -1;
    targets[0] = (p->left << 1) & empty;
    targets[1] = (p->right >> 1) & empty;
    return 2;
}

static inline GMove step_move(GBits to, int d) { return (GMove){shift(to, -d), to, 0}; }

int gauntlet_legal(const GauntletRules *r, const GauntletPos *p, GMove *out)
{
    if (p->runners & r->goal)
        return 0;
    int n = captures(r, p, out);
    if (n && r->compulsory)
        return n;
    GBits targets[2];
    int d[2], nb = steps(r, p, targets, d);
    for (int k = 0; k < nb; k++)
        for (GBits t = targets[k]; t && n < GAUNTLET_MAX_MOVES; t &= t - 1)
            out[n++] = step_move(t & -t, d[k]);
    return n;
}

void gauntlet_play(const GauntletPos *before, GauntletPos *p, const GMove *m)
{
    GauntletPos q = *before;
    if (q.turn == 0) {
        q.runners ^= m->frm | m->to;
        q.left &= ~m->cap;
        q.right &= ~m->cap;
    } else {
        if (q.left & m->frm)
            q.left ^= m->frm | m->to;
        else
            q.right ^= m->frm | m->to;
        q.runners &= ~m->cap;
    }
    q.turn ^= 1;
    q.ply++;
    *p = q;
}

/* The side to move has no move: it loses (White wins with a runner home, tested first). */
static inline double stuck(const GauntletPos *p) { return p->turn == 0 ? 0.0 : 1.0; }

double gauntlet_outcome(const GauntletRules *r, const GauntletPos *p)
{
    if (p->runners & r->goal)
        return 1.0;
    GBits targets[2], prey, empty = r->cells ^ (p->runners | p->left | p->right);
    int d[2], nb = steps(r, p, targets, d);
    for (int k = 0; k < nb; k++)
        if (targets[k])
            return -1.0;
    Group g[2];
    int ng = groups(r, p, g, &prey);
    for (int k = 0; k < ng; k++)
        if (starters(&g[k], prey, empty))
            return -1.0;
    return stuck(p);
}

/* Leaves of the legal-move tree `depth` plies below `p` (GauntletGame.perft), the last ply
 * counted, not listed. */
int64_t gauntlet_perft(const GauntletRules *r, const GauntletPos *p, int depth)
{
    if (depth <= 0)
        return 1;
    GMove moves[GAUNTLET_MAX_MOVES];
    if (depth == 1) {                       /* the captures listed, the steps counted */
        if (p->runners & r->goal)
            return 0;
        int n = captures(r, p, moves);
        if (n && r->compulsory)
            return n;
        GBits targets[2];
        int d[2], nb = steps(r, p, targets, d);
        for (int k = 0; k < nb; k++)
            n += popcnt(targets[k]);
        return n;
    }
    int n = gauntlet_legal(r, p, moves);
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        GauntletPos child;
        gauntlet_play(p, &child, &moves[i]);
        total += gauntlet_perft(r, &child, depth - 1);
    }
    return total;
}

/* ------------------------------------------------------------------------------------------
 * Random moves and playouts: GauntletState._pick's draws (one rng() per move).
 * ---------------------------------------------------------------------------------------- */
static inline int draw_below(Rand *rng, int n)
{
    double x = rng->next(rng);
    return rng->failed ? -1 : (int)(x * (double)n);
}

int gauntlet_random_move(const GauntletRules *r, const GauntletPos *p, Rand *rng, GMove *m)
{
    GMove caps[GAUNTLET_MAX_MOVES];
    if (p->runners & r->goal)
        return 0;
    int n = captures(r, p, caps);
    if (n && r->compulsory) {
        int k = draw_below(rng, n);
        if (k < 0)
            return -1;
        *m = caps[k];
        return 1;
    }
    GBits targets[2];
    int d[2], nb = steps(r, p, targets, d), total = n;
    for (int b = 0; b < nb; b++)
        total += popcnt(targets[b]);
    if (!total)
        return 0;
    int k = draw_below(rng, total);
    if (k < 0)
        return -1;
    if (k < n) {
        *m = caps[k];
        return 1;
    }
    k -= n;
    for (int b = 0;; b++) {
        int c = popcnt(targets[b]);
        if (k < c) {
            GBits t = targets[b];
            while (k-- > 0)
                t &= t - 1;
            *m = step_move(t & -t, d[b]);
            return 1;
        }
        k -= c;
    }
}

double gauntlet_playout(const GauntletRules *r, GauntletPos *p, int64_t max_plies, Rand *rng, const Halt *halt)
{
    for (int64_t ply = 0; ply < max_plies; ply++) {
        if (ply % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            return -1.0;
        GMove m;
        int found = gauntlet_random_move(r, p, rng, &m);
        if (found < 0)
            return -2.0;
        if (!found)
            return gauntlet_outcome(r, p);
        gauntlet_play(p, p, &m);
    }
    return gauntlet_outcome(r, p);
}

/* ------------------------------------------------------------------------------------------
 * The C game interface (game.h): positions are GauntletPos; a move's slot holds the captured
 * mask in w[0..1] and the from and to squares' bit indices in b[16], b[17].
 * ---------------------------------------------------------------------------------------- */
#define RULES(g) ((const GauntletRules *)(g)->ctx)
enum { SLOT_FROM = 16, SLOT_TO = 17 };

MoveSlot gauntlet_slot(const GMove *m)
{
    MoveSlot s;
    memset(&s, 0, sizeof(s));
    s.w[0] = (uint64_t)m->cap;
    s.w[1] = (uint64_t)(m->cap >> 64);
    s.b[SLOT_FROM] = (uint8_t)lowest(m->frm);
    s.b[SLOT_TO] = (uint8_t)lowest(m->to);
    return s;
}

GMove gauntlet_unslot(const MoveSlot *s)
{
    return (GMove){(GBits)1 << s->b[SLOT_FROM], (GBits)1 << s->b[SLOT_TO], (GBits)s->w[1] << 64 | s->w[0]};
}

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(GauntletPos));
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
    memcpy(dst, src, sizeof(GauntletPos));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const GauntletPos *)pos)->turn;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    GMove moves[GAUNTLET_MAX_MOVES];
    int n = gauntlet_legal(RULES(g), pos, moves);
    for (int i = 0; i < n; i++) {
        MoveSlot s = gauntlet_slot(&moves[i]);
        if (movebuf_push(out, &s) < 0)
            return GAME_ERROR;
    }
    return GAME_OK;
}

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    GMove x = gauntlet_unslot(m);
    gauntlet_play(pos, pos, &x);
    return GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result)
{
    *result = gauntlet_outcome(RULES(g), pos);
    return *result < 0.0 ? GAME_RUNNING : GAME_OVER;
}

/* GauntletState.evaluate: material shares and the most advanced runner's progress, for White. */
static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    const GauntletRules *r = RULES(g);
    const GauntletPos *p = pos;
    if (!p->runners) {
        *value = 0.02;
        return GAME_OK;
    }
    double material = (double)popcnt(p->runners) / (double)r->n_runners
                      - (double)popcnt(p->left | p->right) / (double)r->n_blockers;
    double progress = (double)(highest(p->runners) / r->stride) / (double)(r->ranks - 1);
    double v = 0.5 + 0.25 * material + 0.5 * (progress - 0.5);
    *value = v > 0.98 ? 0.98 : (v > 0.02 ? v : 0.02);
    return GAME_OK;
}

/* Floor division, as Python's // (a move's rank gain; never negative for a legal move). */
static inline int floor_div(int a, int b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* GauntletState.heuristic: pieces taken, plus for a runner its ranks gained (10 for the goal). */
static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    const GauntletRules *r = RULES(g);
    const GauntletPos *p = pos;
    GMove x = gauntlet_unslot(m);
    double gain = (double)popcnt(x.cap);
    if (p->turn == 0) {
        if (x.to & r->goal) {
            *value = gain + 10.0;
            return GAME_OK;
        }
        gain += 0.25 * (double)floor_div(lowest(x.to) - lowest(x.frm), r->stride);
    }
    *value = gain;
    return GAME_OK;
}

static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    (void)pos;
    return m->w[0] || m->w[1] ? GAME_YES : GAME_NO;
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    double r = gauntlet_playout(RULES(g), pos, max_plies, rng, halt);
    if (r <= -2.0)
        return GAME_ERROR;
    *result = r;
    return r < 0.0 ? GAME_RUNNING : GAME_OVER;
}

static int g_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = ((uint64_t)m->b[SLOT_FROM] | (uint64_t)m->b[SLOT_TO] << 8) ^ m->w[0] * 0x9e3779b97f4a7c15ULL
                 ^ m->w[1] * 0xc2b2ae3d27d4eb4fULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

static int g_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] && x->w[1] == y->w[1] && x->b[SLOT_FROM] == y->b[SLOT_FROM]
           && x->b[SLOT_TO] == y->b[SLOT_TO] ? GAME_YES : GAME_NO;
}

static const GameOps GAUNTLET_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .oracle = NULL, .quiesce = NULL,
    .move_hash = g_move_hash, .move_equal = g_move_equal,
};

void gauntlet_game_open(GameIface *g, const GauntletRules *r)
{
    g->ops = &GAUNTLET_OPS;
    g->ctx = (void *)r;
    g->pos_size = sizeof(GauntletPos);
    g->flags = 0;
}
