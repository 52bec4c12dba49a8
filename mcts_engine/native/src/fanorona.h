/* Fanorona's rules in the native core: the types fanorona.c (the rules and their C game
 * interface), fanorona_playout.c (the random playout) and fanorona_glue.c (the Python type
 * FanoronaRules and its glue) share.
 *
 * The board is the Python rules' (rules/fanorona.py): Grid(5, 9) with one ghost column, bit
 * row * 10 + col, so a position's masks are the same numbers on both sides of the boundary.
 * Everything the rules depend on (the lines from every point, the masks, the rule options,
 * the evaluation's constants) comes from Python once, as numbers (`fanorona_spec`).
 *
 * A move (MoveSlot, game.h): w[0] the captured stones' mask; b[8] the start point, b[9] the
 * end point, b[10] the number of capturing steps (0: a paika), and from b[11] one nibble per
 * step, (direction << 1) | kind (kind 0 approach, 1 withdrawal), the low nibble first: the
 * Python rules' move (from, to, captured, *steps) rebuilt without a table.  Unused bytes are
 * zero, so that equality and hashing read the whole slot.
 */
#ifndef MCTS_FANORONA_H
#define MCTS_FANORONA_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define FN_POINTS 64
#define FN_DIRS 8
#define FN_RAY 9          /* the longest line on a 9-point row */
#define FN_MAX_STEPS 26   /* the nibbles of a slot: more than any chain (each step takes a stone) */
#define FN_MAX_STONES 26  /* stones per side a position may hold (the start has 22) */
#define FN_NONE 63        /* the board's points lie below this bit */
/* The directions' shifts on the Python rules' Grid(5, 9) (E W N S NE SW NW SE), as constants
 * for the walk's shifts; the spec's are checked against them. */
#define FN_D0 1
#define FN_D1 (-1)
#define FN_D2 10
#define FN_D3 (-10)
#define FN_D4 11
#define FN_D5 (-11)
#define FN_D6 9
#define FN_D7 (-9)
#define FN_REACH 22       /* the farthest a step's test looks: two steps of the longest shift */
/* The options' gathers (fanorona.c), on the board turned so that the point sits on bit
 * FN_REACH: a multiplication moves the neighbours (three rows of three bits, the point's
 * always clear) into the top nine bits, the neighbourhood index; another moves the points two
 * steps away into the top FN_FAR_BITS bits, in an order the table `far` undoes.  No two
 * partial products meet, so that nothing carries (fn_check_gathers tries every subset). */
#define FN_NEAR_MASK 0x380a03800ULL   /* bits 11-13, 21, 23, 31-33 */
#define FN_NEAR_MUL ((1ULL << 44) | (1ULL << 37) | (1ULL << 30))
#define FN_FAR_MASK 0x150001100015ULL /* bits 0 2 4, 20 24, 40 42 44 */
#define FN_FAR_MUL ((1ULL << 59) | (1ULL << 34) | (1ULL << 13))
#define FN_FAR_BITS 11

enum { FN_OPTIONAL = 0, FN_COMPULSORY = 1, FN_SINGLE = 2 };   /* rules/fanorona.py's chain modes */
enum { FN_SLOT_FROM = 8, FN_SLOT_TO = 9, FN_SLOT_STEPS = 10, FN_SLOT_CODES = 11 };   /* the slot's bytes */

/* One line from a point as the spec hands it: direction k, the target, the approach ray beyond
 * the target and the withdrawal ray behind the start (point indices, nearest first). */
typedef struct {
    int k, to;
    int alen, wlen;
    int aray[FN_RAY], wray[FN_RAY];
} FnRow;

/* A line as the chain walk reads it (made from an FnRow): the target, and per kind (0 the
 * approach, 1 the withdrawal) the ray's mask, its first point, and whether it runs up the bits
 * (so that the stones a capture takes, the ray's enemies up to its first gap, are found
 * without a loop or a branch). */
typedef struct {
    uint64_t to_bit, ray[2], first[2];
    uint16_t keep;                    /* the option bits of the other directions (a chain turns) that
                                       * the target's lines allow */
    int8_t k, to, up[2];
} FnLine;

/* A capturing step as the playout's count reads it, by point and option bit j (2k + kind): the
 * captured ray and whether it runs up the bits (all ones, or zero), the target, its turn for
 * options() (FN_REACH - to, modulo 64) and the next steps a chain may take from it (FnLine's
 * keep). */
typedef struct {
    uint64_t ray, to_bit, up;
    uint32_t keep;
    int8_t to, turn;
} FnStep;

/* A Fanorona rule set: the board's lines and the rule options. */
typedef struct {
    int nrows[FN_POINTS];
    FnRow rows[FN_POINTS][FN_DIRS];
    FnLine line[FN_POINTS][FN_DIRS];  /* by direction (the rows come in direction order) */
    FnStep step[FN_POINTS][2 * FN_DIRS];
    /* per point, the capturing steps its lines allow: bit 2k an approach in direction k (a
     * line to the target and on beyond it), bit 2k + 1 a withdrawal (a line coming in) */
    uint16_t valid[FN_POINTS];
    /* the options' tables (fanorona.c, options), on a point's neighbourhood gathered into nine
     * bits, 3 * row + column of its 3 x 3 square (bit 4 the point), or on the points two steps
     * away gathered (FN_FAR_BITS bits): the option bits, approach 2k and withdrawal 2k + 1 of
     * direction k, that free neighbours allow (both kinds of their directions), that enemy
     * neighbours allow (the withdrawal away from each), and that enemies two steps away allow
     * (the approach towards each) */
    uint16_t free_opts[1 << 9], near_opts[1 << 9], far_opts[1 << FN_FAR_BITS];
    /* the same three on the neighbourhoods gathered by pext (the mask's bits upwards, 8 each) */
    uint32_t free_packed[1 << 8], near_packed[1 << 8], far_packed[1 << 8];
    uint64_t cells;
    int delta[FN_DIRS];               /* the shift of each direction (E W N S NE SW NW SE) */
    uint64_t lines[FN_DIRS];          /* the points with a line going in each direction */
    /* the targets Q = P + d of the steps from P along each direction that can approach (P's
     * line goes on beyond Q) and that can withdraw (a line comes in to P along it) */
    uint64_t approach[FN_DIRS], withdraw[FN_DIRS];
    /* the points with a diagonal line: where a diagonal step may start or end (fn_step_masks
     * checks that every other step the board allows is told by its points being on the board) */
    uint64_t strong;
    int mode, first_single, dagaz;    /* the chain mode, first_turn_single_capture, Dagaz's removal */
    int64_t quiet_limit, ply_limit;   /* the draw counters' limits (count_limit: off is 2**62) */
    double eval_scale;
    int start_stones, max_stones;
    int fast_bits;                    /* the playout's compilation for fast BMI (cpu_fast_bits) */
} FnRules;

/* A position: the mover's stones, the other side's, the side to move (0 White) and the
 * counters (plies since the start, plies since the last capture). */
typedef struct {
    uint64_t own, opp;
    int64_t ply, quiet;
    int turn;
} FnPos;

/* A move as the playout needs it. */
typedef struct {
    uint64_t cap;
    uint8_t from, to;
} FnLight;

/* Where the chain walk writes: full slots (a MoveBuf) or light moves (a growing array); and the
 * records of the playout's count. */
typedef struct {
    MoveBuf *slots;
    FnLight *light;
    size_t n, cap;
    int oom;
    uint32_t *rec;                    /* the playout's count of the moves (fanorona_playout_impl.h, count_below) */
    size_t rec_cap;
} FnSink;

/* An instance's data (one per searcher): the rules and its scratch list. */
typedef struct {
    const FnRules *r;
    FnSink sink;
} FnCtx;

int fn_gather_tables(FnRules *r);     /* the options' tables (its `delta` set); -1 if a gather is not exact */
int fn_step_masks(FnRules *r);        /* `strong` and `step`, from the lines; -1 if they are not Fanorona's (see strong) */
uint64_t fn_capturers(const FnRules *r, uint64_t own, uint64_t opp);
/* every capturing move of the stones in `starters` in chain `mode`, appended to the sink */
void fn_chains(const FnRules *r, uint64_t own, uint64_t opp, uint64_t starters, int mode, FnSink *sink);
int fn_legal_moves(const FnRules *r, const FnPos *p, int ignore_draws, MoveBuf *out);   /* GAME_OK or GAME_ERROR */
void fn_play(FnPos *p, uint64_t from, uint64_t to, uint64_t cap);
int fn_outcome(const FnRules *r, const FnPos *p, double *result);   /* FanoronaState.outcome: GAME_OVER or GAME_RUNNING */
/* a random playout as FanoronaState.playout plays it (fanorona_playout.c): GAME_OVER with
 * *result, GAME_RUNNING, or GAME_ERROR (memory, or the Python random source failed); `plies`
 * counts the moves played */
int fn_playout(FnCtx *c, FnPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result, int64_t *plies);
/* FanoronaState.random_move: 1 with the move in `out`, 0 for none, GAME_ERROR */
int fn_random_move(FnCtx *c, const FnPos *p, Rand *rng, MoveSlot *out);
int64_t fn_perft(const FnRules *r, const FnPos *p, int depth);    /* draw rules ignored; -1 out of memory */
void fn_sink_free(FnSink *s);

int fanorona_game_open(GameIface *g, const FnRules *r);    /* -1 out of memory */
void fanorona_game_close(GameIface *g);

#endif
