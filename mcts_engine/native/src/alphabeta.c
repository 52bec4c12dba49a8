/* The search core's alpha-beta: a negamax over the game's evaluate(), the pending captures
 * played out after its depth where captures are compulsory (at most AB_QUIESCENCE plies: every
 * one is searched whole, unlike a playout's one random line), moves tried best heuristic
 * first.  Two callers: alpha-beta leaves (LeafDepth, an MCTS-minimax hybrid: a new leaf's
 * value is this search's, not a playout's) and the root check (rootcheck.c: RootCheck, the
 * root moves a deeper search refutes are dropped before the tree searches them).
 *
 * Values are the side to move's, in [0, 1]; the halt flags (t->halt) are looked at every
 * HALT_NODES nodes, and a halted search scores the positions it has not searched by their
 * evaluation (t->ab_halted says it was halted).
 */
#include "search_internal.h"

#include <stdlib.h>

#define HALT_NODES 64

int ab_ready(Tree *t, int depth)
{
    int plies = depth + AB_QUIESCENCE + 2;
    if (t->ab_pos && t->ab_plies >= plies)
        return 0;
    ab_free(t);
    t->ab_pos = calloc((size_t)plies, sizeof(void *));
    t->ab_buf = calloc((size_t)plies, sizeof(MoveBuf));
    if (!t->ab_pos || !t->ab_buf)
        return -1;
    t->ab_plies = plies;
    for (int i = 0; i < plies; i++)
        if (!(t->ab_pos[i] = calloc(1, t->g->pos_size)) || t->g->ops->pos_init(t->g, t->ab_pos[i]) < 0)
            return -1;
    return 0;
}

void ab_free(Tree *t)
{
    for (int i = 0; t->ab_pos && i < t->ab_plies; i++)
        if (t->ab_pos[i]) {
            t->g->ops->pos_free(t->g, t->ab_pos[i]);
            free(t->ab_pos[i]);
        }
    for (int i = 0; t->ab_buf && i < t->ab_plies; i++) {
        buf_release(t, &t->ab_buf[i]);
        buf_free(&t->ab_buf[i]);
    }
    free(t->ab_pos);
    free(t->ab_buf);
    t->ab_pos = NULL;
    t->ab_buf = NULL;
    t->ab_plies = 0;
}

/* The side to move's value of `pos` by its evaluation; -2 on an error. */
static double stand_pat(const GameIface *g, void *pos, int player)
{
    double v;
    return g->ops->evaluate(g, pos, &v) < 0 ? -2.0 : (player == 0 ? v : 1.0 - v);
}

int ab_ordered_moves(Tree *t, int ply)
{
    const GameIface *g = t->g;
    MoveBuf *buf = &t->ab_buf[ply];
    buf_release(t, buf);
    if (g->ops->legal(g, t->ab_pos[ply], buf) < 0 || buf_reserve(buf, buf->n) < 0)
        return -1;
    for (size_t i = 0; i < buf->n; i++)
        if (g->ops->heuristic(g, t->ab_pos[ply], &buf->m[i], &buf->h[i]) < 0)
            return -1;
    sort_best_first(buf);
    return 0;
}

double ab_value(Tree *t, int ply, int depth, double alpha, double beta)
{
    const GameIface *g = t->g;
    void *pos = t->ab_pos[ply];
    double r;
    int player, over = g->ops->outcome(g, pos, &r);
    if (over < 0 || g->ops->to_move(g, pos, &player) < 0)
        return -2.0;
    if (over == GAME_OVER)
        return player == 0 ? r : 1.0 - r;
    if (++t->ab_nodes % HALT_NODES == 0 && !t->ab_halted)
        t->ab_halted = halted(t->halt);
    if (t->ab_halted)
        return stand_pat(g, pos, player);
    int quiet_end = depth <= 0;
    if (quiet_end && (!(g->flags & GAME_COMPULSORY_CAPTURES) || depth <= -AB_QUIESCENCE || ply + 1 >= t->ab_plies))
        return stand_pat(g, pos, player);
    if (ab_ordered_moves(t, ply) < 0)
        return -2.0;
    MoveBuf *buf = &t->ab_buf[ply];
    if (!buf->n)
        return 0.5;                       /* no move, yet not over: a draw, as elsewhere */
    if (quiet_end) {
        int c = g->ops->is_capture(g, pos, &buf->m[0]);
        if (c < 0)
            return -2.0;
        if (c == GAME_NO)                 /* quiet: the evaluation stands */
            return stand_pat(g, pos, player);
    }
    double best = -1.0;
    for (size_t i = 0; i < buf->n && alpha < beta; i++) {
        void *child = t->ab_pos[ply + 1];
        if (g->ops->copy(g, child, pos) < 0 || g->ops->play(g, child, &buf->m[i]) < 0)
            return -2.0;
        double v = ab_value(t, ply + 1, depth - 1, 1.0 - beta, 1.0 - alpha);
        if (v < -1.0)
            return -2.0;
        v = 1.0 - v;
        if (v > best)
            best = v;
        if (best > alpha)
            alpha = best;
    }
    return best;
}

double leaf_alphabeta(Tree *t, void *pos)
{
    const GameIface *g = t->g;
    int player;
    if (ab_ready(t, t->s.leaf_depth) < 0) {
        t->error = ERR_MEMORY;
        return -2.0;
    }
    if (g->ops->copy(g, t->ab_pos[0], pos) < 0 || g->ops->to_move(g, pos, &player) < 0)
        return -2.0;
    t->ab_halted = 0;
    double v = ab_value(t, 0, t->s.leaf_depth, 0.0, 1.0);
    return v < -1.0 ? -2.0 : (player == 0 ? v : 1.0 - v);
}
