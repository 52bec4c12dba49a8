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
 * The arena holds `capacity` nodes (the Hash option).  When it runs short, the subtrees below
 * the least visited nodes go (an eighth of it) and the blocks that stay slide down (`compact`);
 * tree reuse compacts the same way around the new root.  The root and its children are
 * never pruned.
 */
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PRUNE_SHARE 8
#define MIN_CAPACITY 4096

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline double proven_value(int8_t p) { return p * 0.5; }
static inline int8_t proven_code(double v) { return (int8_t)(v * 2.0 + 0.25); }
static inline double for_mover(double first, int mover) { return mover == 0 ? first : 1.0 - first; }

/* ------------------------------------------------------------------------------------------
 * Move buffers
 * ---------------------------------------------------------------------------------------- */
static int buf_reserve(MoveBuf *b, size_t n)
{
    if (n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < n)
        cap *= 2;
    MoveSlot *m = realloc(b->m, cap * sizeof(MoveSlot));
    if (!m)
        return -1;
    b->m = m;
    double *h = realloc(b->h, cap * sizeof(double));
    if (!h)
        return -1;
    b->h = h;
    b->cap = cap;
    return 0;
}

int movebuf_push(MoveBuf *b, const MoveSlot *m)
{
    if (buf_reserve(b, b->n + 1) < 0)
        return -1;
    b->m[b->n++] = *m;
    return 0;
}

static void buf_release(Tree *t, MoveBuf *b)
{
    if (t->b->retains_moves)
        for (size_t i = 0; i < b->n; i++)
            t->b->move_release(t->b, &b->m[i]);
    b->n = 0;
}

static void buf_free(MoveBuf *b)
{
    free(b->m);
    free(b->h);
    memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------------------------------
 * Random numbers of the tree's own decisions
 * ---------------------------------------------------------------------------------------- */
static inline size_t rand_below(Rand *r, size_t n) { return (size_t)(rand_native_next(r) * (double)n); }

static void shuffle(Tree *t, MoveBuf *b)
{
    for (size_t i = b->n; i > 1; i--) {
        size_t j = rand_below(&t->rng, i);
        MoveSlot m = b->m[i - 1];
        b->m[i - 1] = b->m[j];
        b->m[j] = m;
        double h = b->h[i - 1];
        b->h[i - 1] = b->h[j];
        b->h[j] = h;
    }
}

/* Progressive widening: best heuristic first, ties in the shuffled order (a stable sort). */
static void sort_best_first(MoveBuf *b)
{
    for (size_t i = 1; i < b->n; i++) {
        MoveSlot m = b->m[i];
        double h = b->h[i];
        size_t j = i;
        while (j > 0 && b->h[j - 1] < h) {
            b->m[j] = b->m[j - 1];
            b->h[j] = b->h[j - 1];
            j--;
        }
        b->m[j] = m;
        b->h[j] = h;
    }
}

/* ------------------------------------------------------------------------------------------
 * The arena
 * ---------------------------------------------------------------------------------------- */
static void node_reset(Node *n, int mover, int to_move)
{
    memset(n, 0, sizeof(*n));
    n->proven = PROVEN_NONE;
    n->v = 0.5f;
    n->mover = (uint8_t)mover;
    n->to_move = (uint8_t)to_move;
}

static uint32_t alloc_block(Tree *t, size_t k)
{
    if (k == 0 || (size_t)t->used + k > t->capacity)
        return 0;
    uint32_t first = t->used;
    t->used += (uint32_t)k;
    return first;
}

/* Release the moves of a node's block and of every block below it (moves held as objects). */
static void release_below(Tree *t, uint32_t node)
{
    Node *n = &t->nodes[node];
    if (!n->listed || !n->n_moves)
        return;
    for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
        release_below(t, i);
        t->b->move_release(t->b, &t->nodes[i].move);
    }
}

/* A node's children are dropped; its moves will be listed again if it is reached. */
static void drop_children(Tree *t, uint32_t node)
{
    if (t->b->retains_moves)
        release_below(t, node);
    Node *n = &t->nodes[node];
    n->first = 0;
    n->n_moves = n->n_open = 0;
    n->listed = 0;
}

typedef struct { uint32_t start, size, owner; } Block;

typedef struct {
    Block *b;
    size_t n, cap;
} Blocks;

static int blocks_push(Blocks *bs, uint32_t start, uint32_t size, uint32_t owner)
{
    if (bs->n == bs->cap) {
        size_t cap = bs->cap ? 2 * bs->cap : 1024;
        Block *b = realloc(bs->b, cap * sizeof(Block));
        if (!b)
            return -1;
        bs->b = b;
        bs->cap = cap;
    }
    bs->b[bs->n].start = start;
    bs->b[bs->n].size = size;
    bs->b[bs->n].owner = owner;
    bs->n++;
    return 0;
}

static int block_cmp(const void *x, const void *y)
{
    uint32_t a = ((const Block *)x)->start, b = ((const Block *)y)->start;
    return a < b ? -1 : a > b;
}

/* The block that holds slot `i` (blocks sorted by start). */
static const Block *block_of(const Blocks *bs, uint32_t i)
{
    size_t lo = 0, hi = bs->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (bs->b[mid].start <= i)
            lo = mid;
        else
            hi = mid;
    }
    return &bs->b[lo];
}

/* Keep the tree below `root` (its own slot a block of one), drop the subtrees of nodes with
 * at most `threshold` visits below the root's children (threshold < 0: none), and slide the
 * blocks that stay to the start of the arena. */
static int compact(Tree *t, uint32_t root, int64_t threshold)
{
    Blocks bs = {0};
    uint32_t *stack = NULL;
    size_t sp = 0, scap = 0;
    int err = blocks_push(&bs, root, 1, 0);
    /* depth-first over the nodes that stay: (node, depth) pairs */
    #define PUSH(x)                                                                          \
        do {                                                                                 \
            if (sp == scap) {                                                                \
                size_t c = scap ? 2 * scap : 1024;                                           \
                uint32_t *s2 = realloc(stack, c * sizeof(uint32_t));                         \
                if (!s2) { err = -1; break; }                                                \
                stack = s2;                                                                  \
                scap = c;                                                                    \
            }                                                                                \
            stack[sp++] = (x);                                                               \
        } while (0)
    PUSH(root);
    PUSH(0);
    while (sp && !err) {
        uint32_t depth = stack[--sp], node = stack[--sp];
        Node *n = &t->nodes[node];
        if (!n->listed || !n->n_moves)
            continue;
        if (depth >= 1 && threshold >= 0 && (int64_t)n->n <= threshold) {
            drop_children(t, node);
            continue;
        }
        if (blocks_push(&bs, n->first, n->n_moves, node) < 0) {
            err = -1;
            break;
        }
        for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
            PUSH(i);
            PUSH(depth + 1);
        }
    }
    #undef PUSH
    free(stack);
    if (err) {
        free(bs.b);
        return -1;
    }
    qsort(bs.b, bs.n, sizeof(Block), block_cmp);
    /* new places: blocks in order, from slot 1; a block never moves up */
    uint32_t *dest = malloc(bs.n * sizeof(uint32_t));
    if (!dest) {
        free(bs.b);
        return -1;
    }
    uint32_t next = 1;
    for (size_t i = 0; i < bs.n; i++) {
        dest[i] = next;
        next += bs.b[i].size;
    }
    /* each owner's `first` points at its block's new place; the owners themselves move too,
     * so the new `first` values are computed before anything moves */
    uint32_t *new_first = malloc(bs.n * sizeof(uint32_t));
    uint32_t *owner_at = malloc(bs.n * sizeof(uint32_t));
    if (!new_first || !owner_at) {
        free(dest);
        free(bs.b);
        free(new_first);
        free(owner_at);
        return -1;
    }
    uint32_t new_root = 0;
    for (size_t i = 0; i < bs.n; i++) {
        const Block *b = &bs.b[i];
        if (b->start == root && b->size == 1 && b->owner == 0) {
            new_root = dest[i];
            owner_at[i] = 0;
            continue;
        }
        const Block *ob = block_of(&bs, b->owner);
        owner_at[i] = dest[ob - bs.b] + (b->owner - ob->start);
        new_first[i] = dest[i];
    }
    for (size_t i = 0; i < bs.n; i++)
        if (dest[i] != bs.b[i].start)
            memmove(&t->nodes[dest[i]], &t->nodes[bs.b[i].start], bs.b[i].size * sizeof(Node));
    for (size_t i = 0; i < bs.n; i++)
        if (owner_at[i])
            t->nodes[owner_at[i]].first = new_first[i];
    t->used = next;
    t->root = new_root;
    free(dest);
    free(new_first);
    free(owner_at);
    free(bs.b);
    return 0;
}

/* The visit count at or below which a node's subtree goes: the smallest that frees
 * 1/PRUNE_SHARE of the arena (-1: nothing to free). */
static int64_t prune_threshold(Tree *t)
{
    /* slots freed per visit count: a histogram over the nodes below the root's children */
    size_t cap = 4096;
    uint64_t *freed = calloc(cap, sizeof(uint64_t));
    uint32_t *stack = NULL;
    size_t sp = 0, scap = 0;
    if (!freed)
        return -1;
    Node *root = &t->nodes[t->root];
    for (uint32_t i = root->first; root->listed && i < root->first + root->n_moves; i++) {
        if (sp == scap) {
            scap = scap ? 2 * scap : 1024;
            stack = realloc(stack, scap * sizeof(uint32_t));
            if (!stack) {
                free(freed);
                return -1;
            }
        }
        stack[sp++] = i;
    }
    while (sp) {
        uint32_t node = stack[--sp];
        Node *n = &t->nodes[node];
        if (!n->listed || !n->n_moves)
            continue;
        size_t k = n->n < cap - 1 ? n->n : cap - 1;
        freed[k] += n->n_moves;
        for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
            if (sp == scap) {
                scap = 2 * scap;
                uint32_t *s2 = realloc(stack, scap * sizeof(uint32_t));
                if (!s2) {
                    free(stack);
                    free(freed);
                    return -1;
                }
                stack = s2;
            }
            stack[sp++] = i;
        }
    }
    free(stack);
    uint64_t target = t->capacity / PRUNE_SHARE, sum = 0;
    int64_t threshold = -1;
    for (size_t k = 0; k < cap; k++) {
        sum += freed[k];
        if (sum >= target) {
            threshold = (int64_t)k;
            break;
        }
    }
    free(freed);
    return threshold;
}

/* Make room in a full arena; if that frees too little, stop expanding. */
static int prune(Tree *t)
{
    int64_t threshold = prune_threshold(t);
    if (threshold >= 0 && compact(t, t->root, threshold) < 0)
        return -1;
    t->frozen = t->used > t->capacity - t->capacity / (2 * PRUNE_SHARE);
    return 0;
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
 * Playouts: a policy plays to the end or the cut-off; a cut-off plays the pending captures
 * (at most `quiescence` plies, where captures are compulsory), then asks the oracle, then
 * evaluate().  MAST learns from every move of its playouts.
 * ---------------------------------------------------------------------------------------- */
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

static void mast_learn(Tree *t, Played *p, double result)
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

static double simulate(Tree *t, void *pos, Played *rec)
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

