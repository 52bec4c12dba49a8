/* The search core's memory: move buffers, and the arena of nodes.
 *
 * The arena holds `capacity` nodes (the Hash option); a node's children are one block of it,
 * allocated when the node's moves are listed.  When it runs short, the subtrees below the
 * least visited nodes go (an eighth of it) and the blocks that stay slide down in place
 * (`compact`: the live blocks found from the root, sorted by address, moved down in order,
 * each owner's pointer set to its block's new place); tree reuse compacts the same way around
 * the new root.  The root and its children are never pruned.
 */
#include "search_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Move buffers
 * ---------------------------------------------------------------------------------------- */
int buf_reserve(MoveBuf *b, size_t n)
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
        return GAME_ERROR;
    b->m[b->n++] = *m;
    return GAME_OK;
}

void buf_release(Tree *t, MoveBuf *b)
{
    if (t->g->flags & GAME_OBJECT_MOVES)
        for (size_t i = 0; i < b->n; i++)
            move_release(t->g, &b->m[i]);
    b->n = 0;
}

void buf_free(MoveBuf *b)
{
    free(b->m);
    free(b->h);
    memset(b, 0, sizeof(*b));
}

/* --- the order a node's moves are expanded in --- */
void shuffle(Tree *t, MoveBuf *b)
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
void sort_best_first(MoveBuf *b)
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
void node_reset(Node *n, int mover, int to_move)
{
    memset(n, 0, sizeof(*n));
    n->proven = PROVEN_NONE;
    n->v = 0.5f;
    n->mover = (uint8_t)mover;
    n->to_move = (uint8_t)to_move;
}

uint32_t alloc_block(Tree *t, size_t k)
{
    if (k == 0 || (size_t)t->used + k > t->capacity)
        return 0;
    uint32_t first = t->used;
    t->used += (uint32_t)k;
    return first;
}

/* Release the moves of a node's block and of every block below it (moves held as objects). */
void release_below(Tree *t, uint32_t node)
{
    Node *n = &t->nodes[node];
    if (!n->listed || !n->n_moves)
        return;
    for (uint32_t i = n->first; i < n->first + n->n_moves; i++) {
        release_below(t, i);
        move_release(t->g, &t->nodes[i].move);
    }
}

/* A node's children are dropped; its moves will be listed again if it is reached. */
static void drop_children(Tree *t, uint32_t node)
{
    if (t->g->flags & GAME_OBJECT_MOVES)
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
int compact(Tree *t, uint32_t root, int64_t threshold)
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
int prune(Tree *t)
{
    int64_t threshold = prune_threshold(t);
    if (threshold >= 0 && compact(t, t->root, threshold) < 0)
        return -1;
    t->frozen = t->used > t->capacity - t->capacity / (2 * PRUNE_SHARE);
    return 0;
}
