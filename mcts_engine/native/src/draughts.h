/* The native draughts kernel: types shared by the 64-bit and 128-bit generators.
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
enum { TERM_MOBILITY = 0, TERM_TEMPO = 1, TERM_BACK_RANK = 2, TERM_CENTRE = 3, TERM_RUNAWAY = 4, N_TERMS = 5 };
#define TEMPO_BITS 4

/* One direction of a scan plan (MoveGenerator._setup_scan_plan): shift d (>0), the jump's
 * shift dd = 2d, and which pieces step (st) and jump (ju) along it. */
typedef struct { int d, dd, st, ju; } PlanDir;

typedef struct {
    PlanDir shared_up[MAX_DIRS], shared_down[MAX_DIRS], split_up[MAX_DIRS], split_down[MAX_DIRS];
    int n_shared_up, n_shared_down, n_split_up, n_split_down;
} Plan;

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
    /* the positional terms: weights (all 0: off) and the squares they count (EvalMasks) */
    double terms[N_TERMS];
    int any_term;
    u128 back_rank[2], centre, near_crown[2], tempo_bits[2][TEMPO_BITS];
    int man_step[2][MAX_DIRS], n_man_step[2];
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

/* The generator instantiated for each word (draughts_impl.h). */
#define DECLARE_KERNEL(SUFFIX, BB)                                                             \
    typedef struct { BB frm, to, cap; int crowned; } Move##SUFFIX;                             \
    typedef struct { BB own, opp, kings; int turn; } Key##SUFFIX;                              \
    typedef struct {                                                                           \
        BB own, opp, kings; int turn;                                                          \
        int64_t ply, progress_ply, capture_ply;                                                \
        int drawn;                                                                             \
        BB run_sq[2]; int64_t run_n[2];                                                        \
        Key##SUFFIX *hist; size_t n_hist, cap_hist;                                            \
        size_t n_kept; /* the first keys, still those the position came with */               \
    } Pos##SUFFIX;                                                                             \
    typedef struct {                                                                           \
        Move##SUFFIX *moves; size_t n, cap;                                                    \
        /* capture sequences before the choice rule */                                         \
        Move##SUFFIX *seqs; int *seq_len, *seq_first_king; size_t n_seqs, cap_seqs;            \
        int oom;                                                                               \
    } Scratch##SUFFIX;                                                                         \
    int legal_##SUFFIX(const Rules *r, BB own, BB opp, BB kings, int turn, BB frozen,          \
                       Scratch##SUFFIX *s);                                                    \
    BB jumpers_##SUFFIX(const Rules *r, BB own, BB opp, BB kings, int turn);                   \
    int64_t perft_##SUFFIX(const Rules *r, BB own, BB opp, BB kings, int turn, int depth,      \
                           Scratch##SUFFIX *scratch, int *oom);                                \
    void play_##SUFFIX(const Rules *r, Pos##SUFFIX *p, const Move##SUFFIX *m, int *oom);       \
    double outcome_##SUFFIX(const Rules *r, const Pos##SUFFIX *p); /* -1: the game runs */     \
    double evaluate_##SUFFIX(const Rules *r, BB own, BB opp, BB kings, int turn);              \
    int endgame_limit_##SUFFIX(const Rules *r, BB own, BB opp, BB kings); /* -1: none */       \
    int endgame_drawn_##SUFFIX(const Rules *r, const Pos##SUFFIX *p);                          \
    BB frozen_##SUFFIX(const Rules *r, const Pos##SUFFIX *p);                                  \
    int random_move_##SUFFIX(const Rules *r, const Pos##SUFFIX *p, Rand *rand, Scratch##SUFFIX *s,\
                             Move##SUFFIX *out);                                               \
    double playout_##SUFFIX(const Rules *r, Pos##SUFFIX *p, int64_t max_plies, Rand *rand,     \
                            Scratch##SUFFIX *s, Move##SUFFIX *record, int *turns,              \
                            size_t record_cap, size_t *n_record, int *oom, const Halt *halt);  \
    int64_t table_index_##SUFFIX(const Rules *r, BB own, BB opp, BB kings, const int classes[4]); \
    void scratch_free_##SUFFIX(Scratch##SUFFIX *s);                                            \
    int table_probe_##SUFFIX(const Rules *r, const Tables *tables, const Pos##SUFFIX *p,        \
                             double *result, int *plies);                                       \
    double quiesce_##SUFFIX(const Rules *r, const Tables *tables, Pos##SUFFIX *p,               \
                            Scratch##SUFFIX *s);

DECLARE_KERNEL(64, u64)
DECLARE_KERNEL(128, u128)

#endif
