/* The Life drop game's native rules (rules/life.py): types shared by life.c and life_glue.c.
 *
 * The board layout is the Python reference's (rules/geometry.py: Grid with one ghost column):
 * cell (row, col) is bit row * stride + col, stride = size + 1, so a position's masks are the
 * same numbers on both sides of the boundary and a move (the drop cell's bit index) needs no
 * translation.  The masks are kept as little-endian arrays of 64-bit words (19x19: 380 bits, six
 * words); the generation step works on them word-parallel, the way life.py's tick works on its
 * big ints.  Everything the rules depend on comes from the Python game as numbers (LifeRules).
 */
#ifndef MCTS_LIFE_H
#define MCTS_LIFE_H

#include <stdint.h>

#include "game.h"

#define LIFE_MAX_SIZE 26                        /* life.py's size option: 7..26 */
#define LIFE_WORDS 12                           /* 26 rows of stride 27: 702 bits in 11, rounded up to pairs */

/* A variant's numbers: the board and the evaluation's scale (life.py, EVAL_SCALE). */
typedef struct {
    int size, stride, nw, nv;                   /* nw: words a mask takes, nv: pairs of them */
    uint64_t cells[LIFE_WORDS];                 /* the board's cells (no ghost column) */
    int eval_scale;
} LifeRules;

/* A position: black and white stones, the side to move (0: B), plies since it was set up. */
typedef struct {
    _Alignas(16) uint64_t b[LIFE_WORDS];
    _Alignas(16) uint64_t w[LIFE_WORDS];
    int turn;
    int64_t ply;
} LifePos;

/* The rules of a board of `size` (stride `stride`) evaluating with `eval_scale`; -1 when
 * the numbers do not make one (then `why` says which). */
int life_rules_init(LifeRules *r, int size, int stride, int eval_scale, const char **why);

/* One synchronous generation of the whole board, in place (life.py, LifeGame.tick). */
void life_tick(const LifeRules *r, uint64_t *black, uint64_t *white);

/* The legal drops of the side to move (empty cells touching a stone; none once it has no
 * stones) into `out`; their number. */
int life_drops(const LifeRules *r, const LifePos *p, uint64_t *out);

/* Drop a stone of the side to move on `cell`, then tick (life.py, LifeState.play). */
void life_play(const LifeRules *r, LifePos *p, int cell);

/* The first player's result (1, 0.5, 0), or -1 while the game runs (LifeState.outcome). */
double life_outcome(const LifeRules *r, const LifePos *p);

/* Leaves of the legal-move tree `depth` plies below `p` (LifeGame.perft). */
int64_t life_perft(const LifeRules *r, const LifePos *p, int depth);

/* A uniformly random legal drop drawn as LifeState.random_move draws it; -1 when none. */
int life_random_drop(const LifeRules *r, const LifePos *p, Rand *rng);

/* A random playout of at most `max_plies` plies, in place (LifeState.playout): the first
 * player's result, -1 cut off (or halted), -2 when the random source failed.  `record` (NULL,
 * or room for `max_plies` cells) gets each drop's cell, in order. */
double life_playout(const LifeRules *r, LifePos *p, int64_t max_plies, Rand *rng, const Halt *halt, int *record);

/* The game interface over a LifeRules that outlives the instance (life.c). */
void life_game_open(GameIface *g, const LifeRules *r);

#endif
