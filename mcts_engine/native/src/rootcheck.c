/* The root check (RootCheck d): before the tree searches, an iterative-deepening alpha-beta
 * (alphabeta.c, quiescence over the pending captures) searches every root move up to `d` plies
 * within a share of the move's time, and the moves it refutes (valued below the best one by
 * more than RootCheckMargin at the deepest depth it finished) are dropped from every tree's
 * root.  The tree's playouts or shallow leaves miss the shots two or three moves deep that an
 * alpha-beta program plays; a root move that loses material to one is then never chosen.
 *
 * A root move the tree has proven a win or a draw is always kept (proofs are exact, deeper
 * than the check's horizon), and so is the best move of the check: a root keeps a move.
 */
#include "search_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    MoveSlot *moves;      /* the root's moves, in the order the next depth searches them */
    double *value;        /* each one's value for the side to move at the last finished depth */
    int n;
} RootMoves;

/* The root's moves into r, best heuristic first; 0 ok, -1 error. */
static int root_moves(Tree *t, RootMoves *r)
{
    const GameIface *g = t->g;
    if (g->ops->copy(g, t->ab_pos[0], t->root_pos) < 0 || ab_ordered_moves(t, 0) < 0)
        return -1;
    MoveBuf *buf = &t->ab_buf[0];
    r->n = (int)buf->n;
    r->moves = malloc((size_t)(r->n ? r->n : 1) * sizeof(MoveSlot));
    r->value = calloc((size_t)(r->n ? r->n : 1), sizeof(double));
    if (!r->moves || !r->value)
        return -1;
    for (int i = 0; i < r->n; i++) {
        r->moves[i] = buf->m[i];
        move_retain(g, &r->moves[i]);
    }
    return 0;
}

static void root_moves_free(const GameIface *g, RootMoves *r)
{
    for (int i = 0; r->moves && i < r->n; i++)
        move_release(g, &r->moves[i]);
    free(r->moves);
    free(r->value);
}

/* One depth over every root move into value[] (a move valued below the best less the margin
 * is only known to be so: it was searched with that bound); 1 finished, 0 halted, -1 error. */
static int search_depth(Tree *t, RootMoves *r, int depth, double margin, double *value)
{
    const GameIface *g = t->g;
    double best = -1.0;
    for (int i = 0; i < r->n; i++) {
        double floor = best - margin > 0.0 ? best - margin : 0.0;
        if (g->ops->copy(g, t->ab_pos[1], t->root_pos) < 0 || g->ops->play(g, t->ab_pos[1], &r->moves[i]) < 0)
            return -1;
        double v = ab_value(t, 1, depth - 1, depth - 1, 0.0, 1.0 - floor);
        if (v < -1.0)
            return -1;
        if (t->ab_halted)
            return 0;
        value[i] = 1.0 - v;
        if (value[i] > best)
            best = value[i];
    }
    return 1;
}

/* Sort r's moves by value, best first (stable: a tie keeps the earlier order). */
static void order_by_value(RootMoves *r)
{
    for (int i = 1; i < r->n; i++)
        for (int j = i; j > 0 && r->value[j] > r->value[j - 1]; j--) {
            double v = r->value[j];
            r->value[j] = r->value[j - 1];
            r->value[j - 1] = v;
            MoveSlot m = r->moves[j];
            r->moves[j] = r->moves[j - 1];
            r->moves[j - 1] = m;
        }
}

/* Tree t's root keeps the moves within the margin of the best and those it has proven a win
 * or a draw; the number of its moves dropped, or -1 on an error. */
static int keep_safe(Tree *t, const RootMoves *r, double margin)
{
    Node *root = &t->nodes[t->root];
    int n = root->listed ? root->n_open : 0;
    MoveSlot *keep = malloc((size_t)(r->n + n + 1) * sizeof(MoveSlot));
    if (!keep)
        return -1;
    int k = 0;
    for (int i = 0; i < r->n; i++)
        if (i == 0 || r->value[i] > r->value[0] - margin)
            keep[k++] = r->moves[i];
    for (uint32_t i = root->first; i < root->first + (uint32_t)n; i++)
        if (t->nodes[i].proven > 0)
            keep[k++] = t->nodes[i].move;
    int moves_before = root->listed ? root->n_moves : r->n;
    int err = tree_restrict_root(t, keep, (size_t)k);
    free(keep);
    return err < 0 ? -1 : moves_before - t->nodes[t->root].n_moves;
}

int root_check(Tree **trees, int n, int depth_max, double deadline, const atomic_int *stop)
{
    Tree *t = trees[0];
    double margin = t->s.root_margin;
    uint32_t nodes_before = t->ab_nodes;
    if (ab_ready(t, depth_max + 1) < 0) {
        t->error = ERR_MEMORY;
        return -1;
    }
    ab_new_search(t);
    RootMoves r = {0};
    double *value = NULL;
    Halt halt = {.stop = stop, .deadline = deadline};
    atomic_init(&halt.done, 0);
    const Halt *outer = t->halt;
    int err = root_moves(t, &r);
    if (!err && r.n > 1 && !(value = malloc((size_t)r.n * sizeof(double))))
        err = -1;
    t->halt = &halt;
    t->ab_halted = 0;
    for (int d = 1; !err && r.n > 1 && d <= depth_max; d++) {
        int done = search_depth(t, &r, d, margin, value);
        if (done <= 0) {
            err = done;
            break;
        }
        memcpy(r.value, value, (size_t)r.n * sizeof(double));
        order_by_value(&r);
        t->check_depth = d;
    }
    t->halt = outer;
    t->check_nodes = (uint32_t)(t->ab_nodes - nodes_before);
    for (int k = 0; !err && t->check_depth > 0 && k < n; k++) {
        int dropped = keep_safe(trees[k], &r, margin);
        if (dropped < 0)
            err = -1;
        else if (k == 0)
            t->check_dropped = dropped;
    }
    if (err < 0 && !t->error)
        t->error = ERR_GAME;
    root_moves_free(t->g, &r);
    free(value);
    return err < 0 ? -1 : 0;
}
