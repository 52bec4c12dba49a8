/* The native draughts kernel: the compiled rules (Rules), the endgame tables, and the table of
 * operations each board word exports (KernelWord).
 *
 * The board layout is the Python reference's (rules/geometry.py: DarkGrid, or Grid for
 * boards played on every square), so a position's masks are the same numbers on both sides
 * of the boundary.  8x8 and 10x10 dark-square boards fit one 64-bit word; Canadian 12x12
 * and the all-square Turkish boards take 128 bits.  Everything a variant's rules depend on
 * is a field of Rules, filled once from the Python MoveGenerator's compiled tables: this
 * code derives no rule of its own and parses no text.
 */
#ifndef MCTS_DRAUGHTS_H
#define MCTS_DRAUGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "game.h"
#include "rand.h"

typedef uint64_t u64;
typedef unsigned __int128 u128;

#define MAX_DIRS 8            /* directions of one kind (Frisian kings jump 8 ways) */
#define MAX_BUCKETS 128       /* step buckets of one scan: short steps plus flying rays */
#define NO_LIMIT_PLY ((int64_t)1 << 62)

enum { WHO_MEN = 1, WHO_KINGS = 2, WHO_BOTH = 3 };
enum { PROMO_STOP = 0, PROMO_PASS = 1, PROMO_FLY = 2 };
enum { LAND_ANY = 0, LAND_NEXT = 1, LAND_KILLER = 2 };
enum { CHOICE_FREE = 0, CHOICE_MAX = 1, CHOICE_MAX_KINGS = 2, CHOICE_ITALIAN = 3, CHOICE_FRISIAN = 4,
       CHOICE_KING_FIRST = 5 };
enum { GOAL_BLOCK = 0, GOAL_LOSE = 1, GOAL_CROWN = 2 };
enum { COUNT_NONE = 0, COUNT_FMJD = 1, COUNT_RUSSIAN = 2, COUNT_FRISIAN = 3, COUNT_TURKISH = 4 };
/* The evaluation's positional terms (rules/draughts/evaluation.py, EvalTerms), in its order. */
enum {
    TERM_MOBILITY = 0, TERM_TEMPO = 1, TERM_BACK_RANK = 2, TERM_CENTRE = 3, TERM_RUNAWAY = 4, TERM_EDGE = 5,
    TERM_KING_LEAD = 6, TERM_GUARD = 7, N_TERMS = 8
};
#define TEMPO_BITS 4

/* One direction of a scan plan (MoveGenerator._setup_scan_plan): shift d (>0), the jump's
 * shift dd = 2d, and which pieces step (st) and jump (ju) along it. */
typedef struct { int d, dd, st, ju; } PlanDir;

typedef struct {
    PlanDir shared_up[MAX_DIRS], shared_down[MAX_DIRS], split_up[MAX_DIRS], split_down[MAX_DIRS];
    int n_shared_up, n_shared_down, n_split_up, n_split_down;
} Plan;

/* The learned evaluation (rules/draughts/learned.py): pattern weights over regions of the board,
 * handed over as numbers by DraughtsKernel.with_learned (kernel.c).  A region's men are gathered
 * by runs of consecutive bits (shift, width, the digit of the run's first square). */
#define MAX_REGIONS 81             /* a 12x12 board at stride 1 (learned.STRIDES) */
#define MAX_RUNS 8
#define REGION_SQUARES 8
#define PATTERN_SIZE 6561          /* 3^REGION_SQUARES */
#define N_SCALARS 6                /* learned.SCALARS: to_move, men, kings, king_lead, diagonal_kings, balance */
#define KING_BITS 128              /* learned.KING_BITS: the king squares' table, a row per bit */
#define MAX_COLUMNS 16             /* the widest board's columns (the balance feature) */
typedef struct { int shift, width, digit; } Run;

typedef struct {
    const int32_t *patterns;       /* regions x PATTERN_SIZE x 2 (full board, empty board); NULL: hand-set */
    int n_regions, n_runs[MAX_REGIONS];
    Run runs[MAX_REGIONS][MAX_RUNS];
    int pext;                      /* 1: each region gathered by one pext of its mask (cpu_fast_bits, a
                                    * 64-bit board, digits in bit order); 0: by its runs' shifts */
    u64 masks[MAX_REGIONS];        /* each region's squares, where `pext` */
    int64_t scalars[N_SCALARS][2];
    int top_bit;                   /* the half turn maps bit b to top_bit - b */
    int64_t unit;
    u128 diagonal;
    uint16_t ternary[1 << REGION_SQUARES];   /* bits -> the base-3 number of the same digits */
    int32_t kings[KING_BITS][2];   /* a king on each bit, seen from its owner's side */
    int n_columns;
    u128 columns[MAX_COLUMNS];     /* each column's squares, left to right */
    int reads_kings, reads_balance;   /* any king square / balance weight is not 0 (else skipped) */
} Learned;

/* A compiled variant.  Masks are kept as 128-bit words; the 64-bit generator narrows them. */
typedef struct {
    int wide;                         /* 1: the 128-bit generator */
    u128 points, promo[2], far_half[2], long_diagonal;
    Plan plans[2][3];                 /* per player: men only, kings, a frozen (Frisian) king */
    int king_step_up[MAX_DIRS], n_king_step_up, king_step_down[MAX_DIRS], n_king_step_down;
    int king_jump[MAX_DIRS], n_king_jump, king_jump_equals_step;
    int man_jump[2][MAX_DIRS], n_man_jump[2];
    int king_only_up[MAX_DIRS], n_king_only_up, king_only_down[MAX_DIRS], n_king_only_down, king_only;
    int flying, man_takes_king, king_reverse, immediate, promotion, landing, choice, goal;
    int repetition, quiet_on_man_move, men_sideways, king_move_limit, extra_rules;
    int64_t no_progress;
    int endgame, endgame_max, endgame_floor;
    double stuck_score[2], king_value, eval_scale, eval_advance;
    int start_pieces;
    double piece_scale[129];          /* pow(start_pieces / p, 0.5) for p pieces: the evaluation's slope */
    /* the positional terms: weights (all 0: off) and the squares they count (EvalMasks) */
    double terms[N_TERMS];
    int any_term;
    u128 back_rank[2], centre, near_crown[2], edge, guard[2], tempo_bits[2][TEMPO_BITS];
    int man_step[2][MAX_DIRS], n_man_step[2];
    Learned learned;                  /* the learned evaluation, where learned.patterns is set */
    int ordinal[128];                 /* bit -> the square's rank among the points, -1 for none */
    int n_points;
} Rules;



/* The endgame tables, as the search probes them: one solved material each (its values in a
 * buffer the Python side keeps alive), read-only and shared by every searcher. */
typedef struct {
    int classes[4];           /* kings and men of the side to move, kings and men of the other */
    int turn;                 /* the player to move where men stand; 0 for kings only */
    const void *values;       /* signed integers of `itemsize` bytes (tables/solve.py's encoding) */
    int itemsize;
    int64_t size;
    int count;                /* the material's endgame count, -1 for none */
    int exact;                /* a position it leaves unknown is a draw */
} TableRef;

typedef struct {
    TableRef *t;
    int n, max_pieces;
} Tables;

/* A move in the search's MoveSlot (game.h): the captured mask in w[0] (low) and w[1] (high),
 * then from, to and crowned as square numbers in b[SLOT_FROM], b[SLOT_TO], b[SLOT_CROWNED]. */
enum { SLOT_FROM = 16, SLOT_TO = 17, SLOT_CROWNED = 18 };

/* --- the kernel's word -----------------------------------------------------------------------
 * The generator and game loop (draughts_impl.h) are compiled once for each board word:
 * draughts64.c (8x8 and 10x10 dark-square boards) and draughts128.c (Canadian 12x12, the boards
 * played on every square).  Each exports one table of its operations, KERNEL_WORD_64 and
 * KERNEL_WORD_128, whose signatures are the same for both words: masks as u128 (the 64-bit word
 * reads their low half), moves as KernelMove, positions and scratch buffers as `void *` of the
 * word's pos_size and scratch_size (at most KERNEL_POS_BYTES and KERNEL_SCRATCH_BYTES: PosBuf
 * and ScratchBuf hold either word's).  A DraughtsKernel picks its table once, when it is made
 * (kernel.c, Kernel_init); nothing else chooses between the words. */

/* A move: the origin, destination and captured squares as masks, and whether it crowns. */
typedef struct { u128 frm, to, cap; int crowned; } KernelMove;

/* A key of a position's repetition history: the position before the move made at it. */
typedef struct { u128 own, opp, kings; int turn; } KernelKey;

/* A position's fields, its repetition history aside (DraughtsState.raw()'s first nine items). */
typedef struct {
    u128 own, opp, kings;
    int turn, drawn;
    int64_t ply, progress_ply, capture_ply;
    u128 run_sq[2];              /* the Frisian king runs: each player's king square and its count */
    int64_t run_n[2];
} PosFields;

/* Room for either word's position and scratch buffers (each word checks that its own fit). */
#define KERNEL_POS_BYTES 256
#define KERNEL_SCRATCH_BYTES 128
typedef union { unsigned char bytes[KERNEL_POS_BYTES]; u128 align_word; void *align_ptr; } PosBuf;
typedef union { unsigned char bytes[KERNEL_SCRATCH_BYTES]; u128 align_word; void *align_ptr; } ScratchBuf;

/* A move of the endgame tables' move graph that leaves its material (a capture or a crowning),
 * for the caller to value in the smaller table (table_graph): targets[at] is its slot; the
 * position after it is of the material `classes` (the side to move's kings and men, the other
 * side's), `turn` to move (0 where only kings stand), numbered `index` there (-1: the side to
 * move has no piece left).  Laid out as tables/solve.py's EXIT dtype reads it. */
typedef struct { int64_t at, index; int8_t classes[4], turn, pad[3]; } TableExit;

typedef struct KernelWord {
    int bits;                           /* 64 or 128 */
    size_t pos_size, scratch_size;
    /* raw positions (draw rules ignored; a scratch buffer starts zeroed, scratch_free empties it):
     * legal lists the moves into the scratch buffers, their count or -1 out of memory */
    int (*legal)(const Rules *r, u128 own, u128 opp, u128 kings, int turn, u128 frozen, void *scratch);
    KernelMove (*move_at)(const void *scratch, size_t i);      /* the i-th move legal listed */
    u128 (*jumpers)(const Rules *r, u128 own, u128 opp, u128 kings, int turn);
    int64_t (*perft)(const Rules *r, u128 own, u128 opp, u128 kings, int turn, int depth, int *oom);
    double (*evaluate)(const Rules *r, u128 own, u128 opp, u128 kings, int turn);
    int (*endgame_limit)(const Rules *r, u128 own, u128 opp, u128 kings);                    /* -1: none */
    /* the endgame tables' index of a position of the material `classes`; -1: not that material */
    int64_t (*table_index)(const Rules *r, u128 own, u128 opp, u128 kings, const int classes[4]);
    /* the tables' move graph of the material `classes` with `turn` to move, numbered as table_index
     * (tables/solve.py).  Without targets: valid[i] = 1 and degree[i] = its legal moves for every
     * placement i (the men off their crowning rows), and limit[i] its endgame count (INT32_MAX: none)
     * where limit is not NULL.  With targets: each placement's moves from targets[starts[i]] on, the
     * index in the numbering of `after` of the position after a quiet move, -1 for the others, which
     * go to *exits (malloc'd, *n_exits of them, in the order of their slots).  0, or -1 out of memory. */
    int (*table_graph)(const Rules *r, const int classes[4], int turn, const int after[4], uint8_t *valid,
                       int32_t *degree, int32_t *limit, const int64_t *starts, int64_t *targets,
                       TableExit **exits, int64_t *n_exits);
    void (*scratch_free)(void *scratch);
    /* positions: pos_make fills the fields and room for n_hist keys (set by pos_set_key; -1: no
     * memory), pos_free releases the history */
    int (*pos_make)(void *pos, const PosFields *f, size_t n_hist);
    void (*pos_set_key)(void *pos, size_t i, const KernelKey *k);
    void (*pos_get)(const void *pos, PosFields *f, size_t *n_hist, size_t *n_kept);  /* n_kept: keys it came with */
    KernelKey (*pos_key)(const void *pos, size_t i);
    void (*pos_free)(void *pos);
    double (*outcome)(const Rules *r, const void *pos);      /* the first player's result; -1: the game runs */
    /* the first player's value after alpha-beta over the pending captures; -1 where the game scores otherwise */
    double (*quiesce)(const Rules *r, const Tables *tables, void *pos, void *scratch);
    /* DraughtsState.random_move: 1 with the move, 0 none, -1 failed (no memory, or the Rand) */
    int (*random_move)(const Rules *r, const void *pos, Rand *rand, void *scratch, KernelMove *out);
    void (*play)(const Rules *r, void *pos, const KernelMove *m, int *oom);
    /* DraughtsState.playout: the result, -1 cut off at max_plies, -2 failed, -3 the record (when
     * not NULL) is full at record_cap: the caller grows it and calls again */
    double (*playout)(const Rules *r, void *pos, int64_t max_plies, Rand *rand, void *scratch, KernelMove *record,
                      int *turns, size_t record_cap, size_t *n_record, int *oom);
    /* `count` seeded playouts from a position (left as it is), no Python: wins, draws, losses of
     * the first player and plies into out[4]; -1 out of memory */
    int (*playouts)(const Rules *r, const void *start, long count, u64 seed, int64_t out[4]);
    /* the C game interface (game.h): an instance for one searcher; open -1 out of memory */
    int (*game_open)(GameIface *g, const Rules *r, const Tables *tables);
    void (*game_close)(GameIface *g);
} KernelWord;

/* A draughts game instance's data (GameIface.ctx) begins with this: its rules and its word. */
typedef struct {
    const Rules *rules;
    const KernelWord *word;
} KernelGame;

extern const KernelWord *const KERNEL_WORD_64, *const KERNEL_WORD_128;

#endif
