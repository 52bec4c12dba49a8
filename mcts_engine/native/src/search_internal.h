/* What the search core's files share (search.c, arena.c, playout.c, run.c, final.c): small helpers and the
 * functions one file calls in another.  Not part of the core's interface (search.h). */
#ifndef MCTS_SEARCH_INTERNAL_H
#define MCTS_SEARCH_INTERNAL_H

#include "search.h"

#define PRUNE_SHARE 8          /* a full arena prunes 1/PRUNE_SHARE of itself */
#define MIN_CAPACITY 4096      /* the smallest arena, whatever Hash says */

static inline double proven_value(int8_t p) { return p * 0.5; }
static inline int8_t proven_code(double v) { return (int8_t)(v * 2.0 + 0.25); }
static inline double for_mover(double first, int mover) { return mover == 0 ? first : 1.0 - first; }
static inline size_t rand_below(Rand *r, size_t n) { return (size_t)(rand_native_next(r) * (double)n); }

/* arena.c: move buffers */
int buf_reserve(MoveBuf *b, size_t n);
void buf_release(Tree *t, MoveBuf *b);
void buf_free(MoveBuf *b);
void shuffle(Tree *t, MoveBuf *b);
void sort_best_first(MoveBuf *b);

/* arena.c: the arena */
void node_reset(Node *n, int mover, int to_move);
uint32_t alloc_block(Tree *t, size_t k);
void release_below(Tree *t, uint32_t node);
int compact(Tree *t, uint32_t root, int64_t threshold);
int prune(Tree *t);

/* playout.c: the result of a playout or a leaf's value for the first player; -2.0 on an error */
double simulate(Tree *t, void *pos, Played *rec);
double leaf_quiesce(Tree *t, void *pos);
void mast_learn(Tree *t, Played *p, double result);
void leaf_free(Tree *t);

#endif
