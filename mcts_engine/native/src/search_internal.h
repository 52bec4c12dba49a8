/* What the search core's files share (search.c, arena.c, playout.c, alphabeta.c, rootcheck.c, run.c,
 * final.c): small helpers and the
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

/* alphabeta.c: negamax over evaluate() with the pending captures searched after its depth */
#define AB_QUIESCENCE 4        /* capture plies searched past the depth */
/* Room in t->ab_pos/ab_buf for a search `depth` plies deep from ply 0; 0 ok, -1 out of memory. */
int ab_ready(Tree *t, int depth);
void ab_free(Tree *t);
void ab_clear_table(Tree *t);      /* forget the transposition table's entries */
/* A root check begins: without forward pruning the table is cleared (each check searched as if
 * alone); with it the table is kept from move to move, as the alpha-beta programs keep theirs,
 * and the move-order statistics age. */
void ab_new_search(Tree *t);
void ab_free_table(Tree *t);
/* t->ab_buf[ply] := the moves of t->ab_pos[ply], best heuristic first; 0 ok, -1 error. */
int ab_ordered_moves(Tree *t, int ply);
/* The value of t->ab_pos[ply] for its side to move, searched `depth` plies in the window
 * (alpha, beta), fail-soft, a single reply costing no ply `ext` times at most; -2 on an error. */
double ab_value(Tree *t, int ply, int depth, int ext, double alpha, double beta);
/* A new leaf's value for the first player by alpha-beta LeafDepth plies deep; -2 on an error. */
double leaf_alphabeta(Tree *t, void *pos);

/* rootcheck.c: the root moves an alpha-beta search refutes, dropped from every tree (RootCheck);
 * it fills tree 0's check_* statistics, which search_run zeroes before each run */
int root_check(Tree **trees, int n, int depth_max, double deadline, const atomic_int *stop);

#endif
