/* The search core's playouts: a policy plays to the end or the cut-off; a cut-off plays the
 * pending captures (at most `quiescence` plies, where captures are compulsory), then asks the
 * oracle, then evaluate().  MAST learns from every move of its playouts.
 *
 * Every playout ends: PlayoutDepth 0 means at most PLAYOUT_CAP plies (game.h), and a playout
 * the search's halt flags interrupt is cut off where it stands, like one at its depth. */
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mast_slot(const Mast *m, uint64_t hash) { return hash & (m->cap - 1); }

static MastEntry *mast_find(Tree *t, const MoveSlot *move, uint64_t hash, int player, int add)
{
    Mast *m = &t->mast;
    if (add && (m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 4096;
        MastEntry *e = calloc(cap, sizeof(MastEntry));
        if (!e)
            return NULL;
        MastEntry *old = m->e;
        size_t old_cap = m->cap;
        m->e = e;
        m->cap = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].used) {
                uint64_t j = mast_slot(m, old[i].hash);
                while (m->e[j].used)
                    j = (j + 1) & (cap - 1);
                m->e[j] = old[i];
            }
        free(old);
    }
    if (!m->cap)
        return NULL;
    uint64_t key = hash * 2 + (uint64_t)player;
    for (uint64_t j = mast_slot(m, key);; j = (j + 1) & (m->cap - 1)) {
        MastEntry *e = &m->e[j];
        if (!e->used) {
            if (!add)
                return NULL;
            e->used = 1;
            e->hash = key;
            e->player = (uint8_t)player;
            e->move = *move;
            move_retain(t->g, &e->move);
            m->n++;
            return e;
        }
        if (e->hash == key && e->player == player && t->g->ops->move_equal(t->g, &e->move, move) == GAME_YES)
            return e;
    }
}

void mast_clear(Tree *t)
{
    Mast *m = &t->mast;
    if (t->g)
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].used)
                move_release(t->g, &m->e[i].move);
    free(m->e);
    memset(m, 0, sizeof(*m));
}

/* The playout's choice among `t->buf2`'s moves (not empty); -1 on an error of the game. */
static long choose(Tree *t, void *pos, int player)
{
    MoveBuf *b = &t->buf2;
    const GameIface *g = t->g;
    size_t n = b->n;
    switch (t->s.policy) {
    case POLICY_CAPTURE: {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            int c = g->ops->is_capture(g, pos, &b->m[i]);
            if (c < 0)
                return -1;
            if (c)
                b->h[k++] = (double)i;
        }
        if (k)
            return (long)b->h[rand_below(&t->rng, k)];
        return (long)rand_below(&t->rng, n);
    }
    case POLICY_GREEDY:
    case POLICY_MAST: {
        if (rand_native_next(&t->rng) < t->s.epsilon)
            return (long)rand_below(&t->rng, n);
        double best = -INFINITY;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            double value;
            if (t->s.policy == POLICY_GREEDY) {
                if (g->ops->heuristic(g, pos, &b->m[i], &value) < 0)
                    return -1;
            } else {
                uint64_t hash;
                if (g->ops->move_hash(g, &b->m[i], &hash) < 0)
                    return -1;
                MastEntry *e = mast_find(t, &b->m[i], hash, player, 0);
                value = e && e->count ? e->sum / e->count : 1.0;
            }
            if (value > best) {
                best = value;
                k = 0;
            }
            if (value == best)
                b->h[k++] = (double)i;
        }
        return (long)b->h[rand_below(&t->rng, k)];
    }
    default:
        return (long)rand_below(&t->rng, n);
    }
}

static int record_move(Tree *t, Played *p, const MoveSlot *m, int player)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        MoveSlot *ms = realloc(p->m, cap * sizeof(MoveSlot));
        if (!ms)
            return -1;
        p->m = ms;
        uint8_t *pl = realloc(p->player, cap);
        if (!pl)
            return -1;
        p->player = pl;
        p->cap = cap;
    }
    p->m[p->n] = *m;
    move_retain(t->g, &p->m[p->n]);
    p->player[p->n++] = (uint8_t)player;
    return 0;
}

void mast_learn(Tree *t, Played *p, double result)
{
    for (size_t i = 0; i < p->n; i++) {
        uint64_t hash;
        if (t->g->ops->move_hash(t->g, &p->m[i], &hash) == GAME_OK) {
            MastEntry *e = mast_find(t, &p->m[i], hash, p->player[i], 1);
            if (e) {
                e->sum += for_mover(result, p->player[i]);
                e->count++;
            }
        }
        move_release(t->g, &p->m[i]);
    }
    p->n = 0;
}

/* Play the listed move `i` of t->buf2 on `pos`, recording it for MAST. */
static int play_choice(Tree *t, void *pos, size_t i, Played *rec, int player)
{
    if (rec && record_move(t, rec, &t->buf2.m[i], player) < 0)
        return -1;
    return t->g->ops->play(t->g, pos, &t->buf2.m[i]);
}

/* The game's result at `pos` if it is over: GAME_OVER with *result, GAME_RUNNING, GAME_ERROR. */
static int finished(Tree *t, void *pos, double *result)
{
    return t->g->ops->outcome(t->g, pos, result);
}

/* A leaf's value by the game's quiescence search (QuiescenceSearch on); -1 where it has none,
 * -2 on an error. */
double leaf_quiesce(Tree *t, void *pos)
{
    double value;
    if (!t->s.qsearch || !t->g->ops->quiesce)
        return -1.0;
    int r = t->g->ops->quiesce(t->g, pos, &value);
    return r < 0 ? -2.0 : (r == GAME_YES ? value : -1.0);
}

static double cut_off(Tree *t, void *pos, Played *rec, int running)
{
    const GameIface *g = t->g;   /* running: the game is known to go on (a playout cut off, a quiet move listed) */
    double r;
    if (t->s.qsearch && g->ops->quiesce) {
        if (!running) {
            int over = finished(t, pos, &r);
            if (over != GAME_RUNNING)
                return over < 0 ? -2.0 : r;
        }
        double v = leaf_quiesce(t, pos);
        if (v >= 0.0 || v == -2.0)
            return v;
    }
    for (int q = 0; (g->flags & GAME_COMPULSORY_CAPTURES) && q < t->s.quiescence; q++) {
        buf_release(t, &t->buf2);
        if (g->ops->legal(g, pos, &t->buf2) < 0)
            return -2.0;
        if (!t->buf2.n) {
            running = 0;  /* over: the outcome below says how */
            break;
        }
        int c = g->ops->is_capture(g, pos, &t->buf2.m[0]);
        if (c < 0)
            return -2.0;
        if (!c) {
            running = 1; /* a legal move lists only while the game runs (the rules contract) */
            break;
        }
        size_t i = rand_below(&t->rng, t->buf2.n);
        int player;
        if (g->ops->to_move(g, pos, &player) < 0 || play_choice(t, pos, i, rec, player) < 0)
            return -2.0;
        running = 0;
    }
    buf_release(t, &t->buf2);
    if (!running) {
        int over = finished(t, pos, &r);
        if (over != GAME_RUNNING)
            return over < 0 ? -2.0 : r;
    }
    if (g->ops->oracle) {
        int plies;
        int hit = g->ops->oracle(g, pos, &r, &plies);
        if (hit < 0)
            return -2.0;
        if (hit == GAME_YES)
            return r;
    }
    return g->ops->evaluate(g, pos, &r) < 0 ? -2.0 : r;
}

double simulate(Tree *t, void *pos, Played *rec)
{
    const GameIface *g = t->g;
    int64_t depth = t->s.playout_depth > 0 ? t->s.playout_depth : PLAYOUT_CAP;
    double r;
    if (t->s.leaf_depth > 0)
        return leaf_alphabeta(t, pos);
    if (t->s.policy == POLICY_RANDOM) {
        int over = g->ops->playout(g, pos, depth, &t->rng, t->halt, &r);
        if (over != GAME_RUNNING)
            return over < 0 ? -2.0 : r;
        return cut_off(t, pos, NULL, 1);
    }
    for (int64_t ply = 0; ply < depth; ply++) {
        if (ply % HALT_CHECK == HALT_CHECK - 1 && halted(t->halt))
            break;
        buf_release(t, &t->buf2);
        if (g->ops->legal(g, pos, &t->buf2) < 0)
            return -2.0;
        if (!t->buf2.n) {
            int over = finished(t, pos, &r);
            return over < 0 ? -2.0 : (over == GAME_OVER ? r : 0.5);
        }
        int player;
        if (g->ops->to_move(g, pos, &player) < 0)
            return -2.0;
        long i = choose(t, pos, player);
        if (i < 0 || play_choice(t, pos, (size_t)i, rec, player) < 0)
            return -2.0;
    }
    buf_release(t, &t->buf2);
    return cut_off(t, pos, rec, 0);
}


double tree_simulate(Tree *t, void *pos)
{
    Played *rec = t->s.policy == POLICY_MAST ? &t->played : NULL;
    double result = simulate(t, pos, rec);
    if (result == -2.0)
        return -2.0;
    if (rec)
        mast_learn(t, rec, result);
    return result;
}
