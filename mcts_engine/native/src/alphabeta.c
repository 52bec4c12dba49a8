/* The search core's alpha-beta: a negamax over the game's evaluate(), the pending captures
 * played out after its depth where captures are compulsory (at most AB_QUIESCENCE plies: every
 * one is searched whole, unlike a playout's one random line).  Two callers: alpha-beta leaves
 * (LeafDepth, an MCTS-minimax hybrid: a new leaf's value is this search's, not a playout's) and
 * the root check (rootcheck.c: RootCheck, the root moves a deeper search refutes are dropped
 * before the tree searches them).
 *
 * A third caller is training (Search.alphabeta, ab_root_value): the value of a position to a
 * fixed depth, a label deeper than the evaluation it teaches.
 *
 * A position with a single legal move (in draughts mostly a compulsory capture) costs no ply,
 * at most `depth` times in a line (the budget `ext`, so a line is at most twice the depth before
 * its quiescence): a shot of sacrifices and forced recaptures, ten plies of which three are
 * forced, is seen at depth 6 instead of 10 (GuiCheckers extends such moves likewise).
 *
 * Moves are tried in the order the alpha-beta programs use: the table's best move, then by
 * heuristic (the material a move takes), and among equals the ply's two killer moves, then by
 * history (the cut-offs each move has made).  The first move is searched with the whole window,
 * the others with a null window first (principal variation search).  None of this changes a
 * value, only the nodes it takes.
 *
 * Forward pruning (AlphaBetaPrune m, off by default) does: a position evaluated below alpha by
 * more than m is searched PRUNE_R plies shallower, and cut off when that confirms it
 * (GuiCheckers' pruning); docs/strength.md gives the nodes it saves.
 *
 * A position the endgame tables hold (GameOps.oracle, below the root) takes their verdict.
 *
 * Values are the side to move's, in [0, 1]; the halt flags (t->halt) are looked at every
 * HALT_NODES nodes, and a halted search scores the positions it has not searched by their
 * evaluation (t->ab_halted says it was halted).
 *
 * Where the game hashes its positions (GameOps.pos_hash), a transposition table keeps each
 * searched position's value, the bound it is (exact, at least, at most), the depth it was
 * searched to and its best move: a position met again at the same depth returns that value
 * where the window allows (under forward pruning, at that depth or deeper), and otherwise tries
 * the best move first.  The table keys the board and the side to move, not the way there (the
 * usual trade: a repetition draw on one path can be read on another).  It is cleared with the
 * tree (tree_clear), and at every root check unless forward pruning is on (ab_new_search).
 */
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HALT_NODES 64
#define TT_BITS 17                /* 2^17 entries of 32 bytes: 4 MB a tree, allocated with the first alpha-beta */
#define HISTORY_BITS 14           /* the history table: a counter per move hash, 2^14 of them */
#define KILLER_PLIES 256          /* killer moves are kept for the first plies of a line */
#define PVS_EPSILON 1e-9          /* the width of a null window (values are in [0, 1]) */
#define ORDER_SCALE 1e10          /* a move's order key: its heuristic times this, plus its bonus */
#define KILLER_BONUS 4e9          /* the first killer's ... */
#define KILLER2_BONUS 3e9         /* ... and the second's (history stays under 2e9) */
#define HISTORY_MAX 2000000000u
#define PRUNE_R 3                 /* AlphaBetaPrune: the plies a pruned position's search is reduced by */

enum { BOUND_NONE, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER };

struct AbEntry {
    uint64_t key, move;           /* the position's hash; its best move's (GameOps.move_hash), 0: none */
    double value;                 /* for the side to move */
    int8_t depth;                 /* the plies it was searched to (quiescence: below 0) */
    int8_t ext;                   /* the extensions it had left */
    uint8_t bound;                /* BOUND_* */
};
typedef struct AbEntry AbEntry;
typedef struct AbOrder AbOrder;

/* What the search has learnt about moves, for the order it tries them in: the two latest moves
 * that cut a line off at each ply (killers), and a counter per move of the cut-offs it made,
 * deeper ones counting more (history).  Both are keyed by the move's hash. */
struct AbOrder {
    uint64_t killer[KILLER_PLIES][2];
    uint32_t history[1u << HISTORY_BITS];
};

static AbEntry *tt_slot(const Tree *t, uint64_t key) { return &t->ab_tt[key & ((1u << TT_BITS) - 1)]; }

static uint32_t *history_slot(AbOrder *o, uint64_t move) { return &o->history[move & ((1u << HISTORY_BITS) - 1)]; }

static void halve_history(AbOrder *o)
{
    for (size_t i = 0; i < (1u << HISTORY_BITS); i++)
        o->history[i] /= 2;
}

void ab_clear_table(Tree *t)
{
    if (t->ab_tt)
        memset(t->ab_tt, 0, ((size_t)1 << TT_BITS) * sizeof(AbEntry));
    if (t->ab_order)
        memset(t->ab_order, 0, sizeof(AbOrder));
}

void ab_new_search(Tree *t)
{
    if (t->s.ab_prune == 0.0 || !t->ab_order) {
        ab_clear_table(t);
        return;
    }
    memset(t->ab_order->killer, 0, sizeof(t->ab_order->killer));
    halve_history(t->ab_order);
}

int ab_ready(Tree *t, int depth)
{
    if (t->g->ops->pos_hash && !t->ab_tt && !(t->ab_tt = calloc((size_t)1 << TT_BITS, sizeof(AbEntry))))
        return -1;
    if (!t->ab_order && !(t->ab_order = calloc(1, sizeof(AbOrder))))
        return -1;
    int plies = 2 * depth + AB_QUIESCENCE + 2;     /* room for `depth` extensions */
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

void ab_free_table(Tree *t)
{
    free(t->ab_tt);
    t->ab_tt = NULL;
    free(t->ab_order);
    t->ab_order = NULL;
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

/* Sort t->ab_buf[ply] for the search: the table's best move `first` (0: none) first, then by
 * heuristic (the material a move takes), and among equals the ply's killers, then by history. */
static int order_moves(Tree *t, int ply, uint64_t first)
{
    const GameIface *g = t->g;
    MoveBuf *buf = &t->ab_buf[ply];
    AbOrder *o = t->ab_order;
    for (size_t i = 0; i < buf->n; i++) {
        uint64_t h;
        if (g->ops->move_hash(g, &buf->m[i], &h) < 0)
            return -1;
        double bonus = *history_slot(o, h);
        if (ply < KILLER_PLIES && h == o->killer[ply][0])
            bonus = KILLER_BONUS;
        else if (ply < KILLER_PLIES && h == o->killer[ply][1])
            bonus = KILLER2_BONUS;
        buf->h[i] = first && h == first ? INFINITY : buf->h[i] * ORDER_SCALE + bonus;
    }
    sort_best_first(buf);
    return 0;
}

/* The move with hash `h` cut the search `depth` deep off at `ply`: it becomes the ply's first
 * killer and its history grows by depth squared (all counters halve before one overflows). */
static void note_cutoff(Tree *t, int ply, int depth, uint64_t h)
{
    AbOrder *o = t->ab_order;
    if (ply < KILLER_PLIES && o->killer[ply][0] != h) {
        o->killer[ply][1] = o->killer[ply][0];
        o->killer[ply][0] = h;
    }
    if (depth <= 0)
        return;
    uint32_t *c = history_slot(o, h);
    if (*c > HISTORY_MAX - (uint32_t)(depth * depth))
        halve_history(o);
    *c += (uint32_t)(depth * depth);
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

/* The table's entry for `pos` (NULL: no table, or another position's), its key in *key. */
static AbEntry *tt_probe(Tree *t, const void *pos, uint64_t *key)
{
    if (!t->ab_tt || t->g->ops->pos_hash(t->g, pos, key) < 0)
        return NULL;
    AbEntry *e = tt_slot(t, *key);
    return e->bound != BOUND_NONE && e->key == *key ? e : NULL;
}

/* Whether a stored value answers a search `depth` deep with `ext` extensions left in the window
 * (alpha, beta): only a search to the same depth and budget does, so that the values stay those
 * of the negamax to that depth (the reference the tests hold the search to), the table saving
 * its work, not changing it; unless `deeper` (under forward pruning, whose values are not the
 * negamax's anyway), where a deeper search answers too, as in the alpha-beta programs. */
static int tt_answers(const AbEntry *e, int depth, int ext, double alpha, double beta, int deeper)
{
    if (deeper ? e->depth < depth || (e->depth == depth && e->ext < ext) : e->depth != depth || e->ext != ext)
        return 0;
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && e->value >= beta)
           || (e->bound == BOUND_UPPER && e->value <= alpha);
}

static void tt_store(Tree *t, uint64_t key, int depth, int ext, double value, double alpha, double beta, uint64_t move)
{
    AbEntry *e = tt_slot(t, key);
    if (e->bound != BOUND_NONE && e->key != key && e->depth > depth)
        return;                           /* keep the deeper search of another position */
    e->key = key;
    e->move = move;
    e->value = value;
    e->depth = (int8_t)depth;
    e->ext = (int8_t)ext;
    e->bound = value <= alpha ? BOUND_UPPER : value >= beta ? BOUND_LOWER : BOUND_EXACT;
}

/* The value of t->ab_buf[ply]'s i-th move for the side to move at `ply`, searched in the
 * window (alpha, beta): the first move with the whole window, each later one first with a null
 * window at alpha (principal variation search: most only need to be shown no better) and again
 * with the whole window when it is; -2 on an error. */
static double child_value(Tree *t, int ply, size_t i, int depth, int ext, double alpha, double beta)
{
    const GameIface *g = t->g;
    void *child = t->ab_pos[ply + 1];
    if (g->ops->copy(g, child, t->ab_pos[ply]) < 0 || g->ops->play(g, child, &t->ab_buf[ply].m[i]) < 0)
        return -2.0;
    double v;
    if (i > 0 && beta - alpha > PVS_EPSILON) {
        v = ab_value(t, ply + 1, depth, ext, 1.0 - alpha - PVS_EPSILON, 1.0 - alpha);
        if (v < -1.0 || 1.0 - v <= alpha || 1.0 - v >= beta || t->ab_halted)
            return v < -1.0 ? -2.0 : 1.0 - v;
    }
    v = ab_value(t, ply + 1, depth, ext, 1.0 - beta, 1.0 - alpha);
    return v < -1.0 ? -2.0 : 1.0 - v;
}

/* Forward pruning (AlphaBetaPrune m, as GuiCheckers prunes): a position whose evaluation is
 * below alpha by more than m is searched PRUNE_R plies shallower with a null window at
 * alpha - m; when that search fails low too, its bound is the position's value (*value).
 * 1 pruned, 0 to be searched in full, -1 on an error. */
static int pruned(Tree *t, int ply, int depth, int ext, int player, double alpha, double *value)
{
    double bar = alpha - t->s.ab_prune;
    if (bar <= 0.0)
        return 0;
    double stand = stand_pat(t->g, t->ab_pos[ply], player);
    if (stand < -1.0)
        return -1;
    if (stand >= bar)
        return 0;
    *value = ab_value(t, ply, depth - PRUNE_R, ext, bar - PVS_EPSILON, bar);
    return *value < -1.0 ? -1 : *value <= bar;
}

double ab_value(Tree *t, int ply, int depth, int ext, double alpha, double beta)
{
    const GameIface *g = t->g;
    void *pos = t->ab_pos[ply];
    double r;
    int player, over = g->ops->outcome(g, pos, &r);
    if (over < 0 || g->ops->to_move(g, pos, &player) < 0)
        return -2.0;
    if (over == GAME_OVER)
        return player == 0 ? r : 1.0 - r;
    if (ply > 0 && g->ops->oracle) {      /* the endgame tables' verdict is exact: no search below */
        int plies, hit = g->ops->oracle(g, pos, &r, &plies);
        if (hit < 0)
            return -2.0;
        if (hit == GAME_YES)
            return player == 0 ? r : 1.0 - r;
    }
    if (++t->ab_nodes % HALT_NODES == 0 && !t->ab_halted)
        t->ab_halted = halted(t->halt);
    if (t->ab_halted)
        return stand_pat(g, pos, player);
    int quiet_end = depth <= 0;
    if (quiet_end && (!(g->flags & GAME_COMPULSORY_CAPTURES) || depth <= -AB_QUIESCENCE || ply + 1 >= t->ab_plies))
        return stand_pat(g, pos, player);
    uint64_t key = 0;
    AbEntry *e = tt_probe(t, pos, &key);
    if (e && tt_answers(e, depth, ext, alpha, beta, t->s.ab_prune > 0.0))
        return e->value;
    if (!quiet_end && depth >= PRUNE_R && t->s.ab_prune > 0.0) {
        double v;
        int cut = pruned(t, ply, depth, ext, player, alpha, &v);
        if (cut)
            return cut < 0 ? -2.0 : v;
    }
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
    if (buf->n > 1 && (!quiet_end || (e && e->move)) && order_moves(t, ply, e ? e->move : 0) < 0)
        return -2.0;
    double best = -1.0, alpha0 = alpha;
    size_t best_i = 0;
    int forced = !quiet_end && buf->n == 1 && ext > 0;      /* a single reply costs no depth */
    int child_depth = forced ? depth : depth - 1, child_ext = forced ? ext - 1 : ext;
    for (size_t i = 0; i < buf->n && alpha < beta; i++) {
        double v = child_value(t, ply, i, child_depth, child_ext, alpha, beta);
        if (v < -1.0)
            return -2.0;
        if (v > best) {
            best = v;
            best_i = i;
        }
        if (best > alpha)
            alpha = best;
    }
    if (t->ab_halted || (best < beta && !t->ab_tt))
        return best;                      /* nothing to note or to store */
    uint64_t move;
    if (g->ops->move_hash(g, &buf->m[best_i], &move) < 0)
        return -2.0;
    if (best >= beta)
        note_cutoff(t, ply, depth, move);
    if (t->ab_tt)
        tt_store(t, key, depth, ext, best, alpha0, beta, move);
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
    double v = ab_value(t, 0, t->s.leaf_depth, t->s.leaf_depth, 0.0, 1.0);
    return v < -1.0 ? -2.0 : (player == 0 ? v : 1.0 - v);
}

double ab_root_value(Tree *t, int depth)
{
    const GameIface *g = t->g;
    if (ab_ready(t, depth) < 0) {
        t->error = ERR_MEMORY;
        return -2.0;
    }
    if (g->ops->copy(g, t->ab_pos[0], t->root_pos) < 0)
        return -2.0;
    const Halt *outer = t->halt;
    t->halt = NULL;                       /* nothing halts it: a label is searched whole */
    t->ab_halted = 0;
    double v = ab_value(t, 0, depth, depth, 0.0, 1.0);
    t->halt = outer;
    return v;
}
