/* The one search core: UCT with implicit minimax, progressive bias and widening, cut-off
 * playouts, MCTS-Solver proofs and the endgame tables' oracle, over a node arena: one tree and
 * its iterations (the loop that runs them until a limit is run.c, the final choice final.c).
 *
 * An iteration copies the root position, descends by the selection rule through nodes
 * whose moves are all expanded, expands one untried move (listing a node's moves the first
 * time it is reached: the children get one block of the arena, in the order they will be
 * expanded), plays out from the new leaf unless its result is known, and backs the result
 * up the path.  Statistics are kept for the player who made the move into a node (`mover`),
 * whose turn comes from the position, never from depth parity.
 *
 * The arena and its pruning are arena.c, the playouts playout.c.
 */
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ------------------------------------------------------------------------------------------
 * Proofs and values
 * ---------------------------------------------------------------------------------------- */
static void update_minimax(Tree *t, size_t depth)
{
    for (size_t k = depth + 1; k-- > 0;) {
        Node *n = &t->nodes[t->path[k]];
        if (!n->n_open)
            return;
        float best = -1.0f;
        for (uint32_t i = n->first; i < n->first + n->n_open; i++)
            if (t->nodes[i].v > best)
                best = t->nodes[i].v;
        float value = n->mover == n->to_move ? best : 1.0f - best;
        if (value == n->v)
            return;
        n->v = value;
    }
}

/* A finished game (or an oracle's verdict, `plies` from the end) at the end of the path, with
 * `value` for its mover; with the solver, proofs go up the path. */
static void prove(Tree *t, size_t depth, double value, int plies)
{
    Node *node = &t->nodes[t->path[depth]];
    node->proven = proven_code(value);
    node->proof = (int16_t)(plies > 32767 ? 32767 : plies);
    if (!t->s.solver)
        return;
    for (size_t k = depth; k-- > 0;) {
        Node *parent = &t->nodes[t->path[k]];
        int8_t best;
        int proof;
        if (node->proven == 2) {
            proof = 1 << 30;
            for (uint32_t i = parent->first; i < parent->first + parent->n_open; i++)
                if (t->nodes[i].proven == 2 && t->nodes[i].proof < proof)
                    proof = t->nodes[i].proof;
            best = 2;
            proof += 1;
        } else {
            if (parent->n_open < parent->n_moves)
                return;
            best = -1;
            for (uint32_t i = parent->first; i < parent->first + parent->n_open; i++) {
                if (t->nodes[i].proven == PROVEN_NONE)
                    return;
                if (t->nodes[i].proven > best)
                    best = t->nodes[i].proven;
            }
            proof = 0;
            for (uint32_t i = parent->first; i < parent->first + parent->n_open; i++)
                if (t->nodes[i].proven == best && t->nodes[i].proof > proof)
                    proof = t->nodes[i].proof;
            proof += 1;
        }
        if (parent->proven != PROVEN_NONE)
            return;
        parent->proven = parent->mover == parent->to_move ? best : (int8_t)(2 - best);
        parent->proof = (int16_t)(proof > 32767 ? 32767 : proof);
        node = parent;
    }
}

/* ------------------------------------------------------------------------------------------
 * Selection: UCB1, with implicit minimax and progressive bias (informed_value).
 * ---------------------------------------------------------------------------------------- */
/* Selection's arithmetic for the visit counts most nodes have, computed once: log(n), 1/n and
 * 1/sqrt(n).  Selection scores every child of every node on the path each iteration, and its
 * divisions, square roots and logarithm were a third of a search's time at 100 ms a move. */
#define VISIT_TABLE 4096
#define LOG_TABLE 65536          /* the nodes near the root pass 4096 visits in the first tenth of a second */
static double visit_log[LOG_TABLE], visit_inv[VISIT_TABLE], visit_inv_sqrt[VISIT_TABLE];
static pthread_once_t visit_once = PTHREAD_ONCE_INIT;

static void fill_visit_tables(void)
{
    for (int i = 1; i < LOG_TABLE; i++)
        visit_log[i] = log((double)i);
    for (int i = 1; i < VISIT_TABLE; i++) {
        visit_inv[i] = 1.0 / i;
        visit_inv_sqrt[i] = 1.0 / sqrt((double)i);
    }
}

static void visit_tables_ready(void) { pthread_once(&visit_once, fill_visit_tables); }

static double log_visits(uint32_t n) { return n < LOG_TABLE ? visit_log[n] : log((double)n); }

/* UCB1 with implicit minimax and progressive bias: the mean result mixed with the minimax
 * value, plus c * sqrt(log N / n), plus the prior's weight fading with the visits. */
static uint32_t select_child(Tree *t, uint32_t node)
{
    const Node *n = &t->nodes[node];
    double c = t->s.uct_c, a = t->s.minimax_weight, bw = t->s.prior_weight;
    double explore = c * sqrt(log_visits(n->n));
    uint32_t best = 0;
    double best_score = -INFINITY;
    for (uint32_t i = n->first; i < n->first + n->n_open; i++) {
        const Node *ch = &t->nodes[i];
        double q, v;
        if (ch->proven != PROVEN_NONE) {
            if (ch->proven == 2)
                return i;
            if (ch->proven == 0)
                continue;
            q = v = 0.5;
        } else {
            q = ch->w, v = ch->v;
        }
        double inv, inv_sqrt;
        if (!ch->n) {                    /* as the division by zero scored it: a NaN mean is never */
            if (ch->proven == PROVEN_NONE)   /* chosen, a proven draw's infinite bonus is */
                continue;
            inv = inv_sqrt = INFINITY;
        } else if (ch->n < VISIT_TABLE) {
            inv = visit_inv[ch->n];
            inv_sqrt = visit_inv_sqrt[ch->n];
        } else {
            inv = 1.0 / ch->n;
            inv_sqrt = sqrt(inv);
        }
        if (ch->proven == PROVEN_NONE)
            q *= inv;
        double score = (1.0 - a) * q + a * v + explore * inv_sqrt;
        if (bw != 0.0)
            score += bw * ch->prior / (ch->n + 1.0);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    if (!best) {      /* every child is a proven loss (the node is proven): the most visited */
        uint32_t most = 0;
        for (uint32_t i = n->first; i < n->first + n->n_open; i++)
            if (!best || t->nodes[i].n > most) {
                best = i;
                most = t->nodes[i].n;
            }
    }
    return best;
}

static int widens(const Tree *t, const Node *n)
{
    double w = t->s.widening;
    uint32_t considered = (uint32_t)ceil(w * sqrt((double)n->n));
    if (considered < 1)
        considered = 1;
    if (n->n_open < considered)
        return 1;
    for (uint32_t i = n->first; i < n->first + n->n_open; i++)
        if (t->nodes[i].proven != 0)
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * One iteration
 * ---------------------------------------------------------------------------------------- */
static int path_push(Tree *t, size_t depth, uint32_t node)
{
    if (depth >= t->path_cap) {
        size_t cap = t->path_cap ? 2 * t->path_cap : 256;
        uint32_t *p = realloc(t->path, cap * sizeof(uint32_t));
        if (!p)
            return -1;
        t->path = p;
        t->path_cap = cap;
    }
    t->path[depth] = node;
    return 0;
}

/* List a node's moves into a new block, in the order they will be expanded; 0 ok, 1 no room,
 * -1 error. */
static int list_moves(Tree *t, uint32_t node, void *pos)
{
    const GameIface *g = t->g;
    MoveBuf *buf = &t->buf;
    buf->n = 0;
    if (g->ops->legal(g, pos, buf) < 0) {
        buf_release(t, buf);
        return -1;
    }
    if (buf_reserve(buf, buf->n) < 0) {
        buf_release(t, buf);
        t->error = ERR_MEMORY;
        return -1;
    }
    int priors = t->s.prior_weight != 0.0 || t->s.widening > 0.0;
    for (size_t i = 0; i < buf->n; i++) {
        buf->h[i] = 0.0;
        if (priors && g->ops->heuristic(g, pos, &buf->m[i], &buf->h[i]) < 0) {
            buf_release(t, buf);
            return -1;
        }
    }
    uint32_t first = 0;
    if (buf->n) {
        first = alloc_block(t, buf->n);
        if (!first || buf->n > UINT16_MAX) {
            buf_release(t, buf);
            return 1;
        }
    }
    shuffle(t, buf);
    if (t->s.widening > 0.0)
        sort_best_first(buf);
    Node *n = &t->nodes[node];
    for (size_t i = 0; i < buf->n; i++) {
        Node *ch = &t->nodes[first + i];
        node_reset(ch, n->to_move, 0);
        ch->move = buf->m[i];                  /* the node takes the buffer's reference */
        ch->prior = (float)buf->h[i];
    }
    n->first = first;
    n->n_moves = (uint16_t)buf->n;
    n->n_open = 0;
    n->listed = 1;
    buf->n = 0;
    return 0;
}

/* The result of the new leaf `child` (at `depth`), or -1 when a playout is due; -2 error. */
static double expand(Tree *t, size_t depth, uint32_t node, void *pos)
{
    const GameIface *g = t->g;
    Node *n = &t->nodes[node];
    uint32_t child = n->first + n->n_open++;
    if (path_push(t, depth + 1, child) < 0 || g->ops->play(g, pos, &t->nodes[child].move) < 0)
        return -2.0;
    Node *ch = &t->nodes[child];
    int to_move;
    if (g->ops->to_move(g, pos, &to_move) < 0)
        return -2.0;
    ch->to_move = (uint8_t)to_move;
    double result;
    int over = g->ops->outcome(g, pos, &result);
    if (over < 0)
        return -2.0;
    if (over == GAME_OVER) {
        prove(t, depth + 1, for_mover(result, ch->mover), 0);
    } else {
        result = -1.0;
        int plies;
        int hit = g->ops->oracle ? g->ops->oracle(g, pos, &result, &plies) : GAME_NO;
        if (hit < 0)
            return -2.0;
        if (hit == GAME_YES)
            prove(t, depth + 1, for_mover(result, ch->mover), plies);
        else
            result = -1.0;
    }
    if (t->s.minimax_weight != 0.0) {
        double first = result >= 0.0 ? result : leaf_quiesce(t, pos);
        if (first == -1.0 && g->ops->evaluate(g, pos, &first) < 0)
            return -2.0;
        if (first == -2.0)
            return -2.0;
        t->nodes[child].v = (float)for_mover(first, t->nodes[child].mover);
        update_minimax(t, depth);
    }
    return result;
}

static void backup(Tree *t, size_t depth, double result)
{
    int draw = result == 0.5;
    for (size_t k = 0; k <= depth; k++) {
        Node *n = &t->nodes[t->path[k]];
        n->n++;
        n->w += for_mover(result, n->mover);
        if (draw)
            n->d++;
    }
}

int tree_iterate(Tree *t)
{
    const GameIface *g = t->g;
    void *pos = t->pos;
    if (g->ops->copy(g, pos, t->root_pos) < 0)
        return -1;
    uint32_t node = t->root;
    size_t depth = 0;
    double result = -1.0;
    if (path_push(t, 0, node) < 0)
        return -1;
    for (;;) {
        Node *n = &t->nodes[node];
        /* a proven node ends the descent, but the root is searched until every move was tried
         * (a root proven before its moves were listed, an oracle's verdict kept by tree reuse,
         * lists them first: the move to play is one of them) */
        if (n->proven != PROVEN_NONE && (depth > 0 || (n->listed && n->n_open == n->n_moves))) {
            result = for_mover(proven_value(n->proven), n->mover);
            break;
        }
        if (!n->listed) {
            if (t->frozen && depth > 0)
                break;                           /* full: play out from here */
            int r = list_moves(t, node, pos);
            if (r < 0)
                return -1;
            if (r > 0 && depth > 0)
                break;
            if (r > 0) {                         /* the root must be listed: make room */
                t->error = ERR_MEMORY;
                return -1;
            }
            n = &t->nodes[node];
            if (!n->n_moves) {                   /* the game is over here */
                int over = g->ops->outcome(g, pos, &result);
                if (over < 0)
                    return -1;
                if (over == GAME_RUNNING)
                    result = 0.5;                /* no move, yet not over: count it a draw */
                prove(t, depth, for_mover(result, n->mover), 0);
                break;
            }
        }
        if (n->n_open < n->n_moves && (t->s.widening <= 0.0 || widens(t, n))) {
            result = expand(t, depth, node, pos);
            if (result == -2.0)
                return -1;
            depth++;
            break;
        }
        if (!n->n_open)
            break;
        uint32_t child = select_child(t, node);
        if (g->ops->play(g, pos, &t->nodes[child].move) < 0 || path_push(t, depth + 1, child) < 0)
            return -1;
        node = child;
        depth++;
    }
    if (result < 0.0) {
        Played *rec = t->s.policy == POLICY_MAST ? &t->played : NULL;
        result = simulate(t, pos, rec);
        if (result == -2.0)
            return -1;
        if (rec)
            mast_learn(t, rec, result);
    }
    backup(t, depth, result);
    t->iterations++;
    t->depth_sum += (int64_t)depth;
    if ((int)depth > t->seldepth)
        t->seldepth = (int)depth;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The tree's life
 * ---------------------------------------------------------------------------------------- */
int tree_init(Tree *t, GameIface *g, const SearchSettings *s, uint32_t capacity, uint64_t seed)
{
    memset(t, 0, sizeof(*t));
    visit_tables_ready();
    if (pthread_mutex_init(&t->lock, NULL) != 0)
        return -1;
    t->g = g;
    t->s = *s;
    t->capacity = capacity < MIN_CAPACITY ? MIN_CAPACITY : capacity;
    t->nodes = malloc((size_t)t->capacity * sizeof(Node));
    t->root_pos = calloc(1, g->pos_size);
    t->pos = calloc(1, g->pos_size);
    t->scratch_pos = calloc(1, g->pos_size);
    if (!t->nodes || !t->root_pos || !t->pos || !t->scratch_pos)
        return -1;
    if (g->ops->pos_init(g, t->root_pos) < 0 || g->ops->pos_init(g, t->pos) < 0
        || g->ops->pos_init(g, t->scratch_pos) < 0)
        return -1;
    rand_seed(&t->rng, seed);
    t->used = 1;
    return 0;
}

static void release_all(Tree *t)
{
    if (t->root && (t->g->flags & GAME_OBJECT_MOVES)) {
        release_below(t, t->root);
        move_release(t->g, &t->nodes[t->root].move);
    }
}

void tree_clear(Tree *t)
{
    release_all(t);
    t->root = 0;
    t->used = 1;
    t->frozen = 0;
    ab_clear_table(t);
}

/* Release what tree reuse leaves behind: everything but the subtree of `keep`, whose path
 * from the root is t->path[0..depth]. */
static void release_outside(Tree *t, size_t depth)
{
    if (!(t->g->flags & GAME_OBJECT_MOVES))
        return;
    for (size_t k = 0; k < depth; k++) {
        Node *n = &t->nodes[t->path[k]];
        for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
            if (i == t->path[k + 1])
                continue;
            release_below(t, i);
            move_release(t->g, &t->nodes[i].move);
        }
        move_release(t->g, &n->move);
    }
}

static int new_root(Tree *t, const void *pos)
{
    tree_clear(t);
    uint32_t root = alloc_block(t, 1);
    int to_move;
    if (t->g->ops->to_move(t->g, pos, &to_move) < 0)
        return -1;
    node_reset(&t->nodes[root], 1 - to_move, to_move);
    t->root = root;
    return t->g->ops->copy(t->g, t->root_pos, pos);
}

/* The root child (or deeper node) reached from `node` by move `m` among the expanded
 * children: its slot, 0 for none, -1 on an error. */
static int64_t child_by_move(Tree *t, uint32_t node, const MoveSlot *m)
{
    Node *n = &t->nodes[node];
    for (uint32_t i = n->first; n->listed && i < n->first + n->n_open; i++) {
        int eq = t->g->ops->move_equal(t->g, &t->nodes[i].move, m);
        if (eq < 0)
            return -1;
        if (eq == GAME_YES)
            return i;
    }
    return 0;
}

int tree_set_root(Tree *t, const void *pos, const MoveSlot *walk, size_t n_walk)
{
    if (t->root && walk) {
        uint32_t node = t->root;
        size_t depth = 0;
        if (path_push(t, 0, node) < 0)
            return -1;
        for (size_t k = 0; k < n_walk && node; k++) {
            int64_t found = child_by_move(t, node, &walk[k]);
            if (found < 0)
                return -1;
            node = (uint32_t)found;
            if (node && path_push(t, ++depth, node) < 0)
                return -1;
        }
        int to_move = 0;
        if (node && t->g->ops->to_move(t->g, pos, &to_move) < 0)
            return -1;
        if (node && t->nodes[node].to_move == to_move) {
            if (node != t->root) {       /* the same root keeps its arena as it is */
                release_outside(t, depth);
                if (compact(t, node, -1) < 0)
                    return -1;
            }
            t->frozen = 0;
            return t->g->ops->copy(t->g, t->root_pos, pos) < 0 ? -1 : 1;
        }
    }
    return new_root(t, pos) < 0 ? -1 : 0;
}

/* Whether `m` is among allowed[0..n): GAME_YES, GAME_NO, -1 on an error. */
static int among(const GameIface *g, const MoveSlot *m, const MoveSlot *allowed, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int eq = g->ops->move_equal(g, m, &allowed[k]);
        if (eq != GAME_NO)
            return eq < 0 ? -1 : GAME_YES;
    }
    return GAME_NO;
}

int tree_restrict_root(Tree *t, const MoveSlot *allowed, size_t n_allowed)
{
    if (!t->nodes[t->root].listed && list_moves(t, t->root, t->root_pos) != 0)
        return -1;
    Node *root = &t->nodes[t->root];
    uint32_t first = root->first, n = root->n_moves, keep = 0, open = 0;
    Node *kept = malloc((size_t)(n ? n : 1) * sizeof(Node));
    uint8_t *wanted = malloc((size_t)(n ? n : 1));
    if (!kept || !wanted) {
        free(kept);
        free(wanted);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        int w = among(t->g, &t->nodes[first + i].move, allowed, n_allowed);
        if (w < 0) {
            free(kept);
            free(wanted);
            return -1;
        }
        wanted[i] = w == GAME_YES;
    }
    /* the kept children slide to the front of the block, the expanded ones first, in order */
    for (uint32_t i = 0; i < n; i++) {
        Node *c = &t->nodes[first + i];
        if (wanted[i]) {
            open += i < root->n_open;
            kept[keep++] = *c;
            continue;
        }
        if (t->g->flags & GAME_OBJECT_MOVES)
            release_below(t, first + i);
        move_release(t->g, &c->move);
    }
    memcpy(&t->nodes[first], kept, (size_t)keep * sizeof(Node));
    root->n_moves = (uint16_t)keep;
    root->n_open = (uint16_t)open;
    free(kept);
    free(wanted);
    return 0;
}

int tree_prune_if_full(Tree *t)
{
    uint32_t reserve = t->capacity / 32 + 256;
    if (!t->frozen && t->capacity - t->used < reserve && prune(t) < 0) {
        t->error = ERR_MEMORY;
        return -1;
    }
    return 0;
}

int tree_root_done(const Tree *t)
{
    const Node *r = &t->nodes[t->root];
    return r->proven != PROVEN_NONE && r->listed && r->n_open == r->n_moves;
}

int tree_root_lead(const Tree *t, double *best, double *second)
{
    const Node *r = &t->nodes[t->root];
    *best = *second = 0.0;
    for (uint32_t i = r->first; r->listed && i < r->first + r->n_open; i++) {
        double n = t->nodes[i].n;
        if (n > *best) {
            *second = *best;
            *best = n;
        } else if (n > *second) {
            *second = n;
        }
    }
    return r->listed ? r->n_moves : 0;
}

uint32_t tree_best_child(const Tree *t, uint32_t node)
{
    const Node *n = &t->nodes[node];
    uint32_t best = 0;
    for (uint32_t i = n->first; n->listed && i < n->first + n->n_open; i++)
        if (!best || t->nodes[i].n > t->nodes[best].n)
            best = i;
    return best;
}

int tree_pv(Tree *t, const MoveSlot *m, MoveSlot *out, int cap)
{
    if (!t->root)
        return 0;
    int64_t node = child_by_move(t, t->root, m);
    if (node <= 0)
        return (int)node;
    int k = 0;
    for (uint32_t i = (uint32_t)node; i && k < cap; i = tree_best_child(t, i))
        out[k++] = t->nodes[i].move;
    return k;
}

int tree_hashfull(const Tree *t)
{
    uint64_t per_mille = (uint64_t)t->used * 1000 / t->capacity;
    return per_mille > 1000 ? 1000 : (int)per_mille;
}

void tree_free(Tree *t)
{
    if (!t->g)
        return;
    tree_clear(t);
    mast_clear(t);
    ab_free(t);
    ab_free_table(t);
    for (size_t i = 0; i < t->played.n; i++)
        move_release(t->g, &t->played.m[i]);
    free(t->played.m);
    free(t->played.player);
    buf_release(t, &t->buf);
    buf_release(t, &t->buf2);
    buf_free(&t->buf);
    buf_free(&t->buf2);
    if (t->root_pos)
        t->g->ops->pos_free(t->g, t->root_pos);
    if (t->pos)
        t->g->ops->pos_free(t->g, t->pos);
    if (t->scratch_pos)
        t->g->ops->pos_free(t->g, t->scratch_pos);
    free(t->root_pos);
    free(t->pos);
    free(t->scratch_pos);
    free(t->nodes);
    free(t->path);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------------------------------
 * The core's selection on given statistics, for table tests (tests/mcts/test_search_core.py):
 * a root (slot 1, `parent_n` visits) with `n` expanded children (slots 2 ..).
 * ---------------------------------------------------------------------------------------- */
int search_table_select(const SearchSettings *s, uint32_t parent_n, const Node *children, int n)
{
    if (n <= 0)
        return -1;
    Tree t;
    memset(&t, 0, sizeof(t));
    visit_tables_ready();
    t.s = *s;
    t.nodes = calloc((size_t)n + 2, sizeof(Node));
    if (!t.nodes)
        return -1;
    node_reset(&t.nodes[1], 1, 0);
    t.nodes[1].n = parent_n;
    t.nodes[1].listed = 1;
    t.nodes[1].first = 2;
    t.nodes[1].n_moves = t.nodes[1].n_open = (uint16_t)n;
    memcpy(&t.nodes[2], children, (size_t)n * sizeof(Node));
    t.root = 1;
    t.capacity = t.used = (uint32_t)n + 2;
    int i = (int)select_child(&t, 1) - 2;
    free(t.nodes);
    return i;
}
