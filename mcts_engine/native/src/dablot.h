/* Dablot Prejjesne's rules in the native core: the types dablot.c (the rules and their C game
 * interface) and dablot_glue.c (the Python type DablotRules and its glue) share.
 *
 * The Python rules (rules/dablot.py) lay the 72 points on a 13 x 11 grid with ghost columns
 * (bits up to 166).  Ranked in that order they are the "72-point order" (a row of grid points,
 * then the row of centres above it, and so on up), the order moves are listed in.  Here a
 * mask is one 128-bit word in two halves: the 42 grid points in the low word at 8 * row + file
 * (row 0..6 of the grid points, file a..f), the 30 centres in the high word at 64 + 8 * row +
 * file (the centre of the cell between grid rows row and row + 1, files file and file + 1).
 * An orthogonal line is then a shift of the low word (1 or 8); a diagonal one moves between
 * the halves with a shift of at most 9: every step of the scan is a 64-bit shift.
 * `py_index` maps a point back to its Python bit.  Everything comes from Python once as
 * numbers (``dablot_spec``: the points, each direction's shift in the 72-point order and its
 * source mask, the scan order of the steps, the options, the material values), checked against
 * this lattice; masks cross the boundary in the Python numbering.
 *
 * A move (MoveSlot, game.h): the captured pieces' mask in the 72-point order in w[0] and the
 * low byte of w[1]; then in w[1] the start point (bits 8-14), the end point (15-21), the number
 * of jumps (22-27), and the jumps' directions three bits each from bit 28 of w[1] on through
 * w[2] (33 at most): the Python rules' (from, to, captured, route) rebuilt without a table.
 * Unused bits are zero.
 */
#ifndef MCTS_DABLOT_H
#define MCTS_DABLOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef unsigned __int128 DbMask;

#define DB_MAX_POINTS 128
#define DB_DIRS 8
#define DB_MAX_JUMPS 33        /* the directions a slot holds: more than any chain (30 pieces a side) */
#define DB_MAX_PIECES 30       /* pieces a side a position may hold (28 men, a Prince, a King) */
#define DB_PY_WORDS 3          /* the Python numbering's bits fit 192 */

enum { DB_MAN = 0, DB_PRINCE = 1, DB_KING = 2 };

/* The directions' shifts in the 72-point order (the Python lattice's order: E W N S NE NW SE
 * SW); the spec's are checked against them. */
#define DB_D0 1
#define DB_D1 (-1)
#define DB_D2 11
#define DB_D3 (-11)
#define DB_D4 6
#define DB_D5 5
#define DB_D6 (-5)
#define DB_D7 (-6)

/* A step along direction k in this numbering: from a grid point (a point below 64) and from a
 * centre (centres have no orthogonal line); a jump lands DB_LAND[k] away from either. */
static const int DB_GRID_STEP[8] = {1, -1, 8, -8, 64, 63, 56, 55};
static const int DB_CENTRE_STEP[8] = {0, 0, 0, 0, -55, -56, -63, -64};
static const int DB_LAND[8] = {2, -2, 16, -16, 9, 7, -7, -9};

/* The order the steps are listed in (the scan's: the directions up, then those down), and each
 * direction's place in it; the spec's is checked against it. */
static const int DB_STEP_ORDER[8] = {0, 2, 4, 5, 1, 3, 6, 7};
static const int DB_STEP_PLACE[8] = {0, 4, 1, 5, 2, 3, 6, 7};

/* The point one step from point `p` along direction `k` (a line that way assumed). */
static inline int db_next(int p, int k) { return p + (p < 64 ? DB_GRID_STEP[k] : DB_CENTRE_STEP[k]); }

/* A point's rank in the 72-point order, and the point of a rank (row r: 11 r, its grid points
 * before its centres). */
static inline int db_rank(int p) { return 11 * ((p & 63) >> 3) + (p & 7) + (p >> 6) * 6; }
static inline int db_point(int rank)
{
    return rank % 11 < 6 ? rank / 11 * 8 + rank % 11 : 64 + rank / 11 * 8 + rank % 11 - 6;
}

/* A Dablot rule set: the lattice and the options. */
typedef struct {
    int n_points;
    int py_index[DB_MAX_POINTS];             /* a point's Python bit */
    int16_t point_of[64 * DB_PY_WORDS];      /* a Python bit's point, -1 for none */
    DbMask points;
    int delta[DB_DIRS];                      /* per direction its shift in the 72-point order */
    DbMask src[DB_DIRS];                     /* the points with a line that way */
    DbMask jsrc[DB_DIRS];                    /* those whose line goes on past the next point */
    uint8_t jump_dirs[DB_MAX_POINTS];        /* per point the directions it has a jump in (bit k) */
    DbMask ring[DB_MAX_POINTS];              /* the points a jump from there goes over */
    int man_forced, chain_optional, ludii_win;
    int64_t no_capture, max_plies;           /* the draw counters' limits (count_limit: off is 2**62) */
    double value[3];                         /* material: man, Prince, King */
} DbRules;

/* A position relative to the side to move, with the counters. */
typedef struct {
    DbMask own, opp, kings, princes;
    int64_t ply, quiet;
    int turn;
} DbPos;

/* A move as play needs it. */
typedef struct {
    DbMask cap;
    uint8_t from, to;
} DbLight;

/* Where the chain walk writes: full slots (a MoveBuf) or light moves (a growing array). */
typedef struct {
    MoveBuf *slots;
    DbLight *light;
    size_t n, cap;
    int oom;
} DbSink;

/* An instance's data (one per searcher): the rules and its scratch list. */
typedef struct {
    const DbRules *r;
    DbSink sink;
} DbCtx;

static inline DbMask db_bit(int i) { return (DbMask)1 << i; }
static inline int db_has(DbMask x, int i)
{
    return (int)(((i < 64 ? (uint64_t)x : (uint64_t)(x >> 64)) >> (i & 63)) & 1);
}
static inline int db_popcount(DbMask x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int db_ctz(DbMask x)      /* x != 0 */
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* the slot's fields */
MoveSlot db_slot(int from, int to, DbMask cap, int n, const uint8_t *dirs);
int db_slot_from(const MoveSlot *m);
int db_slot_to(const MoveSlot *m);
int db_slot_jumps(const MoveSlot *m);
int db_slot_dir(const MoveSlot *m, int j);
DbMask db_slot_cap(const MoveSlot *m);

int db_legal_moves(const DbRules *r, const DbPos *p, int ignore_draws, MoveBuf *out);   /* GAME_OK/ERROR */
void db_play(DbPos *p, DbMask from, DbMask to, DbMask cap);
int db_outcome(const DbRules *r, const DbPos *p, double *result);
double db_evaluate(const DbRules *r, const DbPos *p);
double db_heuristic(const DbRules *r, const DbPos *p, const MoveSlot *m);
/* a random playout as DablotState.playout plays it (GAME_OVER, GAME_RUNNING or GAME_ERROR) */
int db_playout(DbCtx *c, DbPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result, int64_t *plies);
int db_random_move(DbCtx *c, const DbPos *p, Rand *rng, MoveSlot *out);   /* 1, 0 for none, GAME_ERROR */
int64_t db_perft(const DbRules *r, const DbPos *p, int depth);   /* draw counters ignored; -1 out of memory */
void db_sink_free(DbSink *s);

int dablot_game_open(GameIface *g, const DbRules *r);    /* -1 out of memory */
void dablot_game_close(GameIface *g);

#endif
