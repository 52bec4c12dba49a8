/* The search core's playouts: a policy plays to the end or the cut-off; a cut-off plays the
 * pending captures (at most `quiescence` plies, where captures are compulsory), then asks the
 * oracle, then evaluate().  MAST learns from every move of its playouts. */
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
            if (t->b->retains_moves)
                t->b->move_retain(t->b, &e->move);
            m->n++;
            return e;
        }
        if (e->hash == key && e->player == player && t->b->move_equal(t->b, &e->move, move) == 1)
            return e;
    }
}

void mast_clear(Tree *t)
{
    Mast *m = &t->mast;
    if (t->b && t->b->retains_moves)
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].used)
                t->b->move_release(t->b, &m->e[i].move);
    free(m->e);
    memset(m, 0, sizeof(*m));
}

/* The playout's choice among `t->buf2`'s moves (not empty); -1 on a callback error. */
static long choose(Tree *t, void *pos, int player)
{
    MoveBuf *b = &t->buf2;
    Backend *be = t->b;
    size_t n = b->n;
    switch (t->s.policy) {
    case POLICY_CAPTURE: {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            int c = be->is_capture(be, pos, &b->m[i]);
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
                value = be->heuristic(be, pos, &b->m[i]);
                if (isnan(value))
                    return -1;
            } else {
                MastEntry *e = mast_find(t, &b->m[i], be->move_hash(be, &b->m[i]), player, 0);
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
    if (t->b->retains_moves)
        t->b->move_retain(t->b, &p->m[p->n]);
    p->player[p->n++] = (uint8_t)player;
    return 0;
}

void mast_learn(Tree *t, Played *p, double result)
{
    for (size_t i = 0; i < p->n; i++) {
        MastEntry *e = mast_find(t, &p->m[i], t->b->move_hash(t->b, &p->m[i]), p->player[i], 1);
        if (e) {
            e->sum += for_mover(result, p->player[i]);
            e->count++;
        }
        if (t->b->retains_moves)
            t->b->move_release(t->b, &p->m[i]);
    }
    p->n = 0;
}

/* Play the listed move `i` of t->buf2 on `pos`, recording it for MAST. */
static int play_choice(Tree *t, void *pos, size_t i, Played *rec, int player)
{
    if (rec && record_move(t, rec, &t->buf2.m[i], player) < 0)
        return -1;
    return t->b->play(t->b, pos, &t->buf2.m[i]);
}

static double cut_off(Tree *t, void *pos, Played *rec, int running)
{
    Backend *b = t->b;   /* running: the game is known to go on (a playout cut off, a quiet move listed) */
    for (int q = 0; b->compulsory_captures && q < t->s.quiescence; q++) {
        buf_release(t, &t->buf2);
        if (b->list(b, pos, &t->buf2) < 0)
            return -2.0;
        if (!t->buf2.n) {
            running = 0;  /* over: the outcome below says how */
            break;
        }
        int c = b->is_capture(b, pos, &t->buf2.m[0]);
        if (c < 0)
            return -2.0;
        if (!c) {
            running = 1; /* a legal move lists only while the game runs (the rules contract) */
            break;
        }
        size_t i = rand_below(&t->rng, t->buf2.n);
        int player = b->to_move(b, pos);
        if (player < 0 || play_choice(t, pos, i, rec, player) < 0)
            return -2.0;
        running = 0;
    }
    buf_release(t, &t->buf2);
    if (!running) {
        double r = b->outcome(b, pos);
        if (r != -1.0)
            return r;
    }
    if (b->oracle) {
        double result;
        int plies;
        int hit = b->oracle(b, pos, &result, &plies);
        if (hit < 0)
            return -2.0;
        if (hit)
            return result;
    }
    return b->evaluate(b, pos);
}

double simulate(Tree *t, void *pos, Played *rec)
{
    Backend *b = t->b;
    int64_t depth = t->s.playout_depth > 0 ? t->s.playout_depth : NO_LIMIT_PLY;
    if (t->s.policy == POLICY_RANDOM) {
        double r = b->random_playout(b, pos, depth, &t->rng);
        if (r != -1.0)
            return r;
        return cut_off(t, pos, NULL, 1);
    }
    for (int64_t ply = 0; ply < depth; ply++) {
        buf_release(t, &t->buf2);
        if (b->list(b, pos, &t->buf2) < 0)
            return -2.0;
        if (!t->buf2.n)
            return b->outcome(b, pos);
        int player = b->to_move(b, pos);
        long i = player < 0 ? -1 : choose(t, pos, player);
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
