/* Gauntlet's native rules (rules/gauntlet.py): types shared by gauntlet.c and gauntlet_glue.c.
 *
 * The board layout is the Python reference's (rules/geometry.py: Grid with one ghost column):
 * square (rank, file) is bit rank * stride + file, stride = files + 1, so runners step north by
 * << stride, left blockers east by << 1, right blockers west by >> 1, and the masks are the same
 * numbers on both sides of the boundary.  The largest board (10x10) takes 110 bits: one
 * 128-bit word.  Everything the rules depend on comes from the Python game as numbers.
 */
#ifndef MCTS_GAUNTLET_H
#define MCTS_GAUNTLET_H

#include <stdint.h>

#include "game.h"

typedef unsigned __int128 GBits;

#define GAUNTLET_MAX_MOVES 256       /* far above a position's moves (10x10: 16 blockers, 5 jumps each) */

/* A variant: the board's masks, the start material (evaluate's normalisers), the options. */
typedef struct {
    int files, ranks, stride;
    GBits cells, goal;
    int n_runners, n_blockers;
    int max_capture, compulsory;
} GauntletRules;

/* A position: runners (White, player 0), left and right blockers (Black), the side to move,
 * plies since it was set up. */
typedef struct {
    GBits runners, left, right;
    int turn;
    int64_t ply;
} GauntletPos;

/* A move as GauntletState takes it: (from, to, captured) masks. */
typedef struct {
    GBits frm, to, cap;
} GMove;

/* The legal moves of a position in the Python rules' order (GauntletGame.legal); their number. */
int gauntlet_legal(const GauntletRules *r, const GauntletPos *p, GMove *out);

void gauntlet_play(const GauntletPos *before, GauntletPos *p, const GMove *m);

/* Leaves of the legal-move tree `depth` plies below `p` (GauntletGame.perft). */
int64_t gauntlet_perft(const GauntletRules *r, const GauntletPos *p, int depth);

/* The first player's result, or -1 while the game runs (GauntletState.outcome). */
double gauntlet_outcome(const GauntletRules *r, const GauntletPos *p);

/* A random move drawn as GauntletState.random_move draws it: 1 found, 0 none, -1 the random
 * source failed. */
int gauntlet_random_move(const GauntletRules *r, const GauntletPos *p, Rand *rng, GMove *m);

/* A random playout of at most `max_plies` plies, in place (GauntletState.playout): the first
 * player's result, -1 cut off (or halted), -2 when the random source failed. */
double gauntlet_playout(const GauntletRules *r, GauntletPos *p, int64_t max_plies, Rand *rng, const Halt *halt);

/* A move in a game interface's MoveSlot and back. */
MoveSlot gauntlet_slot(const GMove *m);
GMove gauntlet_unslot(const MoveSlot *s);

/* The game interface over GauntletRules that outlive the instance (gauntlet.c). */
void gauntlet_game_open(GameIface *g, const GauntletRules *r);

#endif
