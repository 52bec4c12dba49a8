/* The one search core: UCT with implicit minimax, progressive bias and widening, cut-off
 * playouts, MCTS-Solver proofs and the endgame tables' oracle, over a node arena.
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
#define _POSIX_C_SOURCE 200809L
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


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
static uint32_t select_child(Tree *t, uint32_t node)
{
    const Node *n = &t->nodes[node];
    double c = t->s.uct_c, a = t->s.minimax_weight, bw = t->s.prior_weight;
    double log_n = log((double)n->n);
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
            q = ch->w / ch->n;
            v = ch->v;
        }
        double score = (1.0 - a) * q + a * v + bw * ch->prior / (ch->n + 1.0) + c * sqrt(log_n / ch->n);
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
    Backend *b = t->b;
    MoveBuf *buf = &t->buf;
    buf->n = 0;
    if (b->list(b, pos, buf) < 0)
        return -1;
    if (buf_reserve(buf, buf->n) < 0)
        return -1;
    int priors = t->s.prior_weight != 0.0 || t->s.widening > 0.0;
    for (size_t i = 0; i < buf->n; i++) {
        buf->h[i] = 0.0;
        if (priors) {
            double h = b->heuristic(b, pos, &buf->m[i]);
            if (isnan(h)) {
                buf_release(t, buf);
                return -1;
            }
            buf->h[i] = h;
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
    Backend *b = t->b;
    Node *n = &t->nodes[node];
    uint32_t child = n->first + n->n_open++;
    if (path_push(t, depth + 1, child) < 0 || b->play(b, pos, &t->nodes[child].move) < 0)
        return -2.0;
    Node *ch = &t->nodes[child];
    int to_move = b->to_move(b, pos);
    if (to_move < 0)
        return -2.0;
    ch->to_move = (uint8_t)to_move;
    double result = b->outcome(b, pos);
    if (result == -2.0)
        return -2.0;
    if (result >= 0.0) {
        prove(t, depth + 1, for_mover(result, ch->mover), 0);
    } else if (b->oracle) {
        double hit_result;
        int plies;
        int hit = b->oracle(b, pos, &hit_result, &plies);
        if (hit < 0)
            return -2.0;
        if (hit) {
            result = hit_result;
            prove(t, depth + 1, for_mover(result, ch->mover), plies);
        }
    }
    if (t->s.minimax_weight != 0.0) {
        double first = result >= 0.0 ? result : b->evaluate(b, pos);
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

static int iterate(Tree *t)
{
    Backend *b = t->b;
    void *pos = t->pos;
    if (b->pos_copy(b, pos, t->root_pos) < 0)
        return -1;
    uint32_t node = t->root;
    size_t depth = 0;
    double result = -1.0;
    if (path_push(t, 0, node) < 0)
        return -1;
    for (;;) {
        Node *n = &t->nodes[node];
        if (n->proven != PROVEN_NONE && (depth > 0 || n->n_open == n->n_moves)) {
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
                result = b->outcome(b, pos);
                if (result < 0.0) {
                    if (result == -2.0)
                        return -1;
                    result = 0.5;                /* no move, yet not over: count it a draw */
                }
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
        if (b->play(b, pos, &t->nodes[child].move) < 0 || path_push(t, depth + 1, child) < 0)
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
int tree_init(Tree *t, Backend *b, const SearchSettings *s, uint32_t capacity, u64 seed)
{
    memset(t, 0, sizeof(*t));
    t->b = b;
    t->s = *s;
    t->capacity = capacity < MIN_CAPACITY ? MIN_CAPACITY : capacity;
    t->nodes = malloc((size_t)t->capacity * sizeof(Node));
    t->root_pos = calloc(1, b->pos_size);
    t->pos = calloc(1, b->pos_size);
    t->scratch_pos = calloc(1, b->pos_size);
    if (!t->nodes || !t->root_pos || !t->pos || !t->scratch_pos)
        return -1;
    if (b->pos_init(b, t->root_pos) < 0 || b->pos_init(b, t->pos) < 0 || b->pos_init(b, t->scratch_pos) < 0)
        return -1;
    rand_seed(&t->rng, seed);
    t->used = 1;
    return 0;
}

static void release_all(Tree *t)
{
    if (t->root && t->b->retains_moves) {
        release_below(t, t->root);
        t->b->move_release(t->b, &t->nodes[t->root].move);
    }
}

void tree_clear(Tree *t)
{
    release_all(t);
    t->root = 0;
    t->used = 1;
    t->frozen = 0;
}

/* Release what tree reuse leaves behind: everything but the subtree of `keep`, whose path
 * from the root is t->path[0..depth]. */
static void release_outside(Tree *t, size_t depth)
{
    if (!t->b->retains_moves)
        return;
    for (size_t k = 0; k < depth; k++) {
        Node *n = &t->nodes[t->path[k]];
        for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
            if (i == t->path[k + 1])
                continue;
            release_below(t, i);
            t->b->move_release(t->b, &t->nodes[i].move);
        }
        t->b->move_release(t->b, &n->move);
    }
}

static int new_root(Tree *t, const void *pos)
{
    tree_clear(t);
    uint32_t root = alloc_block(t, 1);
    int to_move = t->b->to_move(t->b, pos);
    if (to_move < 0)
        return -1;
    node_reset(&t->nodes[root], 1 - to_move, to_move);
    t->root = root;
    return t->b->pos_copy(t->b, t->root_pos, pos);
}

int tree_set_root(Tree *t, const void *pos, const MoveSlot *walk, size_t n_walk)
{
    if (t->root && walk) {
        uint32_t node = t->root;
        size_t depth = 0;
        if (path_push(t, 0, node) < 0)
            return -1;
        for (size_t k = 0; k < n_walk && node; k++) {
            Node *n = &t->nodes[node];
            uint32_t found = 0;
            for (uint32_t i = n->first; n->listed && i < n->first + n->n_open; i++) {
                int eq = t->b->move_equal(t->b, &t->nodes[i].move, &walk[k]);
                if (eq < 0)
                    return -1;
                if (eq) {
                    found = i;
                    break;
                }
            }
            node = found;
            if (node && path_push(t, ++depth, node) < 0)
                return -1;
        }
        int to_move = node ? t->b->to_move(t->b, pos) : 0;
        if (to_move < 0)
            return -1;
        if (node && t->nodes[node].to_move == to_move) {
            release_outside(t, depth);
            if (compact(t, node, -1) < 0)
                return -1;
            t->frozen = 0;
            return t->b->pos_copy(t->b, t->root_pos, pos) < 0 ? -1 : 1;
        }
    }
    return new_root(t, pos) < 0 ? -1 : 0;
}

int tree_restrict_root(Tree *t, const MoveSlot *allowed, size_t n_allowed)
{
    Node *root = &t->nodes[t->root];
    if (root->listed)
        return 0;
    int r = list_moves(t, t->root, t->root_pos);
    if (r != 0)
        return -1;
    root = &t->nodes[t->root];
    uint32_t keep = 0;
    for (uint32_t i = root->first; i < root->first + root->n_moves; i++) {
        int wanted = 0;
        for (size_t k = 0; k < n_allowed && !wanted; k++) {
            int eq = t->b->move_equal(t->b, &t->nodes[i].move, &allowed[k]);
            if (eq < 0)
                return -1;
            wanted = eq;
        }
        if (wanted)
            t->nodes[root->first + keep++] = t->nodes[i];
        else if (t->b->retains_moves)
            t->b->move_release(t->b, &t->nodes[i].move);
    }
    root->n_moves = (uint16_t)keep;
    return 0;
}

int tree_run(Tree *t, int64_t max_iterations, double max_seconds, int max_depth)
{
    double deadline = max_seconds > 0.0 ? now_seconds() + max_seconds : 0.0;
    uint32_t reserve = t->capacity / 32 + 256;
    t->error = ERR_NONE;
    for (int64_t i = 0; i < max_iterations; i++) {
        if (tree_root_done(t))
            break;
        if (!t->frozen && t->capacity - t->used < reserve && prune(t) < 0) {
            t->error = ERR_MEMORY;
            return -1;
        }
        if (iterate(t) < 0) {
            if (!t->error)
                t->error = ERR_CALLBACK;
            return -1;
        }
        if (max_depth > 0 && t->seldepth >= max_depth)
            break;
        if (deadline > 0.0 && now_seconds() >= deadline)
            break;
    }
    return 0;
}

int tree_root_done(const Tree *t)
{
    const Node *r = &t->nodes[t->root];
    return r->proven != PROVEN_NONE && r->listed && r->n_open == r->n_moves;
}

static double mean(const Node *n) { return n->n ? n->w / n->n : 0.5; }

uint32_t tree_final_child(const Tree *t)
{
    const Node *r = &t->nodes[t->root];
    uint32_t best = 0;
    if (!r->listed || !r->n_open)
        return 0;
    for (uint32_t i = r->first; i < r->first + r->n_open; i++)       /* the shortest proven win */
        if (t->nodes[i].proven == 2 && (!best || t->nodes[i].proof < t->nodes[best].proof))
            best = i;
    if (best)
        return best;
    for (uint32_t i = r->first; i < r->first + r->n_open; i++) {
        const Node *c = &t->nodes[i];
        if (c->proven == 0)
            continue;
        if (!best) {
            best = i;
            continue;
        }
        const Node *b = &t->nodes[best];
        if (t->s.final_move == FINAL_MAX) {
            double vc = c->proven != PROVEN_NONE ? proven_value(c->proven) : mean(c);
            double vb = b->proven != PROVEN_NONE ? proven_value(b->proven) : mean(b);
            if (vc > vb || (vc == vb && c->n > b->n))
                best = i;
        } else if (c->n > b->n || (c->n == b->n && mean(c) > mean(b))) {
            best = i;
        }
    }
    if (best)
        return best;
    for (uint32_t i = r->first; i < r->first + r->n_open; i++)       /* the loss that lasts longest */
        if (!best || t->nodes[i].proof > t->nodes[best].proof)
            best = i;
    return best;
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

int tree_hashfull(const Tree *t)
{
    uint64_t per_mille = (uint64_t)t->used * 1000 / t->capacity;
    return per_mille > 1000 ? 1000 : (int)per_mille;
}

void tree_free(Tree *t)
{
    if (!t->b)
        return;
    tree_clear(t);
    mast_clear(t);
    for (size_t i = 0; i < t->played.n; i++)
        if (t->b->retains_moves)
            t->b->move_release(t->b, &t->played.m[i]);
    free(t->played.m);
    free(t->played.player);
    buf_release(t, &t->buf);
    buf_release(t, &t->buf2);
    buf_free(&t->buf);
    buf_free(&t->buf2);
    if (t->root_pos)
        t->b->pos_free(t->b, t->root_pos);
    if (t->pos)
        t->b->pos_free(t->b, t->pos);
    if (t->scratch_pos)
        t->b->pos_free(t->b, t->scratch_pos);
    free(t->root_pos);
    free(t->pos);
    free(t->scratch_pos);
    free(t->nodes);
    free(t->path);
    memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------------------------------
 * The core's decisions on given statistics, for table tests (tests/test_search_core.py): a
 * root (slot 1, `parent_n` visits) with `n` expanded children (slots 2 ..).
 * ---------------------------------------------------------------------------------------- */
static int table_tree(Tree *t, const SearchSettings *s, uint32_t parent_n, const Node *children, int n)
{
    memset(t, 0, sizeof(*t));
    t->s = *s;
    t->nodes = calloc((size_t)n + 2, sizeof(Node));
    if (!t->nodes)
        return -1;
    node_reset(&t->nodes[1], 1, 0);
    t->nodes[1].n = parent_n;
    t->nodes[1].listed = 1;
    t->nodes[1].first = 2;
    t->nodes[1].n_moves = t->nodes[1].n_open = (uint16_t)n;
    memcpy(&t->nodes[2], children, (size_t)n * sizeof(Node));
    t->root = 1;
    t->capacity = t->used = (uint32_t)n + 2;
    return 0;
}

int search_table_select(const SearchSettings *s, uint32_t parent_n, const Node *children, int n)
{
    Tree t;
    if (n <= 0 || table_tree(&t, s, parent_n, children, n) < 0)
        return -1;
    int i = (int)select_child(&t, 1) - 2;
    free(t.nodes);
    return i;
}

int search_table_final(const SearchSettings *s, const Node *children, int n)
{
    Tree t;
    if (n <= 0 || table_tree(&t, s, 0, children, n) < 0)
        return -1;
    uint32_t best = tree_final_child(&t);
    free(t.nodes);
    return best ? (int)best - 2 : -1;
}
