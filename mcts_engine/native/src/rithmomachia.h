/* Rithmomachia (the Battle of Numbers) in the native core: types shared by its files.
 *
 * The Python rules (rules/rithmomachia/) stay the reference: these files list the same moves in
 * the same order, resolve the same captures, end the game the same way and evaluate to the same
 * bits.  The Python game hands its movement patterns, siege rays, custodial pairs and option
 * values over once as numbers (rules/rithmomachia/native.py); rith_tables.c lays them out per
 * cell with the same on-board tests as the Python tables, and nothing here parses text.
 *
 * Layout: cell r * 8 + c (rank r from 0, file c from 0), at most 16 ranks: a board is one
 * 128-bit word.  The Python rules keep bit r * 11 + c (three ghost files); positions and moves
 * are translated at the boundary (rith_glue.c), and both orders run rank by rank, file by file,
 * so "ascending cell" means the same thing on both sides.
 *
 * Files: rith_tables.c (the per-cell tables), rith_moves.c (moves, the random draw, play),
 * rith_captures.c (capture resolution, §5-§6), rith_glory.c (the end of the game, §7),
 * rith_game.c (the C game interface, game.h), rith_glue.c (the Python type and its glue).
 */
#ifndef MCTS_RITHMOMACHIA_H
#define MCTS_RITHMOMACHIA_H

#include <stdint.h>
#include <string.h>

#include "game.h"
#include "rand.h"

typedef unsigned __int128 rm_bb;     /* one board: bit r * 8 + c */

#define RM_FILES 8
#define RM_MAX_RANKS 16
#define RM_CELLS (RM_FILES * RM_MAX_RANKS)
#define RM_MAX_PATS 16        /* movement patterns of one shape */
#define RM_MAX_ENTRIES 24     /* pattern destinations (or attacker cells) of one shape from one cell */
#define RM_MAX_DIRS 8         /* siege rays, slide directions */
#define RM_MAX_CUST 4         /* custodial pairs of one cell */
#define RM_PYRAMIDS 8         /* pyramids one position may hold */
#define RM_COMPS 16           /* components of one pyramid */
#define RM_MAX_VALUE (1 << 24)            /* piece values are below this (products stay in 64 bits) */
#define RM_MAX_COUNT ((int64_t)1 << 60)   /* capture counters and plies */
#define RM_MAX_MOVES (RM_CELLS * RM_MAX_ENTRIES + RM_PYRAMIDS * RM_CELLS)   /* plain pieces, pyramids */
#define RM_WHOLE (1u << 31)   /* a hit mask: the whole piece; bit i: pyramid component i */
#define RM_PYR_FLAG (1u << 31)  /* a position's code of a cell: a pyramid (its index below) */

enum { RM_ROUND = 0, RM_TRIANGLE = 1, RM_SQUARE = 2, RM_PYRAMID = 3 };
enum { RM_GLORY_OFF = 0, RM_GLORY_ON = 1, RM_GLORY_AFTER_PYRAMID = 2 };
enum { RM_LINES_ANY = 0, RM_LINES_ORTHOGONAL = 1, RM_LINES_ORTH_DIAG = 2 };

static inline rm_bb rm_bit(int i) { return (rm_bb)1 << i; }
static inline int rm_ctz(rm_bb x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int rm_pop(rm_bb x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline rm_bb rm_shift(rm_bb x, int d) { return d >= 0 ? x << d : x >> -d; }
static inline int rm_has(rm_bb x, int i)
{
    return (int)((i < 64 ? (uint64_t)x >> i : (uint64_t)(x >> 64) >> (i - 64)) & 1);
}

/* One movement pattern (RithmomachiaGame._build_patterns): `n` steps of (dr, dc), each step a
 * shift by `d` from the cells of `ok` (those whose step stays on the board); `every`: each
 * step is a stop (linear up-to movement), else only the last. */
typedef struct {
    rm_bb ok;
    int dr, dc, n, every, d;
} RmPat;

/* A cell reached by a pattern (or the attacker cell of a reversed one) and the n cells (at most
 * two: patterns run at most 3 steps) that must be empty on the way.  Four bytes, so that the
 * tables stay in the cache. */
typedef struct {
    uint8_t cell, n, path[2];
} RmEntry;

static inline int rm_path_free(const RmEntry *e, rm_bb occ)
{
    return !(e->n && (rm_has(occ, e->path[0]) || (e->n > 1 && rm_has(occ, e->path[1]))));
}

/* A siege ray (natural siege): the cells within reach, nearest first; `leaves`: the walk leaves
 * the board within reach. */
typedef struct {
    uint8_t n, leaves, cell[3];
} RmRay;

/* The rules of one option set: the option values and every per-cell table.  Built once per
 * game (rith_tables.c), shared read-only by every searcher. */
typedef struct {
    int ranks;
    rm_bb cells;
    int first;                                   /* the colour that moves first (0 White) */
    int py_index[RM_CELLS];                      /* the Python rules' bit of each cell */
    /* options (§8.1), as numbers */
    int linear, natural_siege, movement_ambush, same_piece_pairs, pairs_in_one, eq_any_component;
    int division, blocking, total_only_intact, total_defence, whole_on_part, count_author;
    int glorious, glorious_literal, glorious_lines, glorious_ordered, glorious_unobstructed;
    int pyramid_capture_wins, no_moves_loss;
    int64_t win_count, thresholds[2], max_plies;  /* max_plies 0: no cap */
    /* movement */
    RmPat pats[3][RM_MAX_PATS], diag3[4];
    int npats[3], ndiag3;
    RmEntry pot[3][RM_CELLS][RM_MAX_ENTRIES], pot_d3[RM_CELLS][4];     /* forward: (dest, path) */
    uint8_t npot[3][RM_CELLS], npot_d3[RM_CELLS];
    int slots[3];                                /* the longest potential list of each shape */
    uint8_t pyr_entries[RM_CELLS][8][2];         /* a pyramid's distinct destinations: shapes, intact */
    rm_bb reach[4][RM_CELLS], leaps[3][RM_CELLS];
    /* attack (the reversed patterns): (attacker cell, path) */
    RmEntry rev[3][RM_CELLS][RM_MAX_ENTRIES], rev_d3[RM_CELLS][4];
    uint8_t nrev[3][RM_CELLS], nrev_d3[RM_CELLS];
    rm_bb rev_mask[3][RM_CELLS], rev_leaps[3][RM_CELLS], rev_d3_mask[RM_CELLS];
    /* neighbourhoods and lines */
    rm_bb lines[RM_CELLS], orth_nb[RM_CELLS], diag_nb[RM_CELLS], box1[RM_CELLS], box3[RM_CELLS];
    RmRay rays[3][RM_CELLS][RM_MAX_DIRS];
    uint8_t nrays[3][RM_CELLS];
    uint8_t cust[RM_CELLS][RM_MAX_CUST][2], ncust[RM_CELLS];
    rm_bb vfwd[RM_CELLS][RM_MAX_DIRS], vbk[RM_CELLS][RM_MAX_DIRS], vback[RM_CELLS];
    uint8_t nvline[RM_CELLS];
    rm_bb territory[2];                          /* each colour's enemy territory */
} RmRules;

/* What the Python game hands over (rules/rithmomachia/native.py), before the tables are laid out. */
typedef struct {
    int ranks, first;
    int pat[3][RM_MAX_PATS][4], npat[3];         /* (dr, dc, n, every) */
    int diag3[4][4], ndiag3;
    int ray_dir[3][RM_MAX_DIRS][2], nray_dir[3]; /* natural siege directions; reach = shape + 1 */
    int cust_pair[RM_MAX_CUST][4], ncust_pair;   /* custodial pairs (dr1, dc1, dr2, dc2) */
    int slide_dir[RM_MAX_DIRS][2], nslide_dir;   /* directions of the slides a vacated cell opens */
} RmSpec;

/* A pyramid: its original components (value << 2 | shape, as the Python rules code them) and
 * the mask of those still present. */
typedef struct {
    uint32_t comp[RM_COMPS];
    uint32_t alive;
    int n;
} RmPyramid;

/* A position.  code[cell]: a plain piece's value << 2 | shape, or RM_PYR_FLAG | a pyramid's index in pyr.
 * vac/tgt/att/fresh: what changed since each colour last resolved its captures (the Python
 * state's vac/tgt/att; fresh = vac -1: the next resolution is a whole-board pass). */
typedef struct {
    rm_bb bb[2][4];                /* per colour: rounds, triangles, squares, pyramids */
    rm_bb vac[2], tgt[2], att[2];
    int64_t caps[4];               /* pieces and value captured by White, by Black */
    int64_t ply;
    uint32_t code[RM_CELLS];
    RmPyramid pyr[RM_PYRAMIDS];
    int npyr;
    int side;                      /* the colour to move (0 White) */
    int result;                    /* the winning colour, or -1 */
    int movable;                   /* whether the side to move has a move: -1 not known yet */
    int fresh[2];
} RmPos;

/* rith_tables.c */
int rm_rules_build(RmRules *R, const RmSpec *s, char *why, size_t why_size);  /* -1 with *why */

/* rith_moves.c */
static inline rm_bb rm_occ(const RmPos *p, int c) { return p->bb[c][0] | p->bb[c][1] | p->bb[c][2] | p->bb[c][3]; }
static inline RmPyramid *rm_pyramid(const RmPos *p, int x) { return (RmPyramid *)&p->pyr[p->code[x] & 0xff]; }

/* Whether the piece on x (of colour c: a cell the caller knows is occupied) is a pyramid. */
static inline int rm_is_pyramid(const RmPos *p, int c, int x)
{
    (void)c;
    return (p->code[x] & RM_PYR_FLAG) != 0;
}
static inline int rm_intact(const RmPyramid *y) { return y->alive == (uint32_t)((1ull << y->n) - 1); }
static inline unsigned rm_shapes_of(const RmPyramid *y)
{
    unsigned s = 0;
    for (int i = 0; i < y->n; i++)
        if (y->alive >> i & 1)
            s |= 1u << (y->comp[i] & 3);
    return s;
}
size_t rm_legal(const RmRules *R, const RmPos *p, uint16_t *out);          /* from << 8 | to */
int rm_has_moves(const RmRules *R, const RmPos *p);
int rm_draw(const RmRules *R, const RmPos *p, Rand *rng, uint16_t *move);  /* 1 found, 0 none, -1 rng failed */
int rm_play(const RmRules *R, RmPos *p, int f, int t);                     /* -1: not a move of the mover */

/* rith_captures.c */
void rm_resolve(const RmRules *R, RmPos *p, int c, int f, int t);
int rm_full_hits(const RmRules *R, const RmPos *p, int c, int *cells, uint32_t *hits);  /* count */

/* rith_glory.c */
int rm_glorious_win(const RmRules *R, const RmPos *p, int side);
int rm_outcome(const RmRules *R, RmPos *p, double *result);                /* GAME_OVER / GAME_RUNNING */
double rm_evaluate(const RmRules *R, RmPos *p);

/* rith_game.c */
int rm_playout(const RmRules *R, RmPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result);
int rm_game_open(GameIface *g, const RmRules *R);                           /* -1 out of memory */
void rm_game_close(GameIface *g);

#endif
