/* The one search core: UCT over a node arena, for every game.
 *
 * A game plugs in through the C game interface (game.h).  The tree, selection, expansion,
 * playouts and their cut-off, backup, proofs, the Hash budget and tree reuse are search.c,
 * arena.c and playout.c; the alpha-beta of LeafDepth and of the root check is alphabeta.c,
 * the root check (RootCheck) rootcheck.c; the loop that runs one or several trees until a
 * limit, on OS threads, is run.c; the final choice, root-parallel merges and votes included,
 * is final.c.
 */
#ifndef MCTS_SEARCH_H
#define MCTS_SEARCH_H

#include <pthread.h>

#include "draughts.h"
#include "game.h"

/* One position of the tree: 64 bytes, so that Hash 64 holds a million nodes. */
typedef struct {
    uint32_t first;        /* the first child's slot (0: no moves listed yet) */
    uint16_t n_moves;      /* children listed: every legal move, in expansion order */
    uint16_t n_open;       /* children expanded: slots first .. first + n_open - 1 */
    uint32_t n;            /* visits */
    uint32_t d;            /* playouts that ended in a draw */
    double w;              /* results for the mover */
    float v;               /* implicit minimax value of evaluate(), for the mover */
    float prior;           /* heuristic(move) in the parent's position (progressive bias) */
    int16_t proof;         /* plies to the end along the proof */
    int8_t proven;         /* PROVEN_NONE, or the proven result for the mover: 0, 1 (draw), 2 */
    uint8_t mover;         /* the player who made the move into this node */
    uint8_t to_move;       /* the player to move here */
    uint8_t listed;        /* the moves were listed (a finished game lists none) */
    uint8_t pad[2];
    MoveSlot move;
} Node;

#define PROVEN_NONE (-1)

enum { POLICY_RANDOM = 0, POLICY_CAPTURE = 1, POLICY_GREEDY = 2, POLICY_MAST = 3 };
enum { FINAL_ROBUST = 0, FINAL_MAX = 1 };
enum { MERGE_VISITS = 0, MERGE_VOTE = 1 };
enum { ERR_NONE = 0, ERR_GAME = 1, ERR_MEMORY = 2 };

typedef struct {
    double uct_c, prior_weight, minimax_weight, widening, epsilon;
    int policy, playout_depth, solver, final_move, quiescence;
    int qsearch;          /* cut-offs and new leaves valued by the game's quiescence search */
    int merge;            /* MERGE_*: how several searchers' root statistics choose the move */
    int leaf_depth;       /* > 0: a new leaf valued by alpha-beta this many plies deep, not a playout */
    int root_check;       /* > 0: root moves an alpha-beta this deep refutes are dropped (rootcheck.c) */
    double root_margin;   /* ... those valued below the best by more than this */
    double root_share;    /* ... in at most this share of the time a move aims at (0, 1] */
    double ab_prune;      /* > 0: the alpha-beta's forward-pruning margin (alphabeta.c) */
} SearchSettings;

#define MAX_LEAF_DEPTH 16  /* the LeafDepth option's maximum */
#define MAX_ROOT_CHECK 32  /* the RootCheck option's maximum */

/* MAST: each (player, move)'s results over the playouts, in an open-addressing table. */
typedef struct {
    MoveSlot move;
    uint64_t hash;
    double sum;
    uint32_t count;
    uint8_t player, used;
} MastEntry;

typedef struct {
    MastEntry *e;
    size_t n, cap;
} Mast;

/* MAST's record of a playout: (player, move) in order. */
typedef struct {
    MoveSlot *m;
    uint8_t *player;
    size_t n, cap;
} Played;

/* One search tree: the arena, the root, and what an iteration needs. */
typedef struct {
    GameIface *g;
    SearchSettings s;
    Node *nodes;
    uint32_t capacity, used;      /* slots in the arena (Hash), slots in use (slot 0 unused) */
    uint32_t root;
    int frozen;                   /* pruning freed too little: the tree stops expanding */
    void *root_pos, *pos, *scratch_pos;   /* the root's position, an iteration's, a spare */
    MoveBuf buf, buf2;
    uint32_t *path;
    size_t path_cap;
    Rand rng;
    Mast mast;
    Played played;
    const Halt *halt;             /* while a search runs: when to give up a playout */
    void **ab_pos;                /* LeafDepth: a position per ply of the leaf's alpha-beta */
    MoveBuf *ab_buf;              /* ... and its moves */
    int ab_plies;                 /* how many plies those hold */
    struct AbEntry *ab_tt;        /* the alpha-beta's transposition table (NULL: the game hashes no position) */
    struct AbOrder *ab_order;     /* ... and its killer moves and history counters */
    uint32_t ab_nodes;            /* alpha-beta nodes searched (the halt flags are looked at every 64) */
    int ab_halted;                /* the leaf's alpha-beta saw them set: it stands pat from there on */
    int check_depth, check_dropped;   /* the last root check: the depth it finished, the moves it dropped, */
    int64_t check_nodes;              /* ... and the alpha-beta nodes it searched */
    int error;                    /* ERR_*: why the last run stopped early */
    int64_t iterations, depth_sum;
    int seldepth;
    pthread_mutex_t lock;         /* held by a searcher thread while it iterates; a report takes it to read */
} Tree;

int tree_init(Tree *t, GameIface *g, const SearchSettings *s, uint32_t capacity, uint64_t seed);
void tree_free(Tree *t);
void tree_clear(Tree *t);                                   /* a new game: a fresh root later */
int tree_set_root(Tree *t, const void *pos, const MoveSlot *walk, size_t n_walk); /* 1 reused, 0 new, -1 error */
/* The root keeps only these of its moves (go searchmoves, the root check): the others are
 * dropped, with their subtrees where they were expanded.  0 ok, -1 error. */
int tree_restrict_root(Tree *t, const MoveSlot *allowed, size_t n_allowed);
int tree_iterate(Tree *t);                                  /* one iteration; -1 error (t->error) */
int tree_prune_if_full(Tree *t);                            /* make room before an iteration; -1 error */
int tree_root_done(const Tree *t);                          /* proven with every move tried */
uint32_t tree_best_child(const Tree *t, uint32_t node);     /* the most visited child, 0 if none */
int tree_hashfull(const Tree *t);
double tree_simulate(Tree *t, void *pos);          /* one playout from `pos`, in place; -2 error */
double ab_root_value(Tree *t, int depth);          /* the root's value, alpha-beta to `depth`; -2 error */
void mast_clear(Tree *t);

/* ------------------------------------------------------------------------------------------
 * The final choice (final.c): one root move's statistics, summed over searchers when merged.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    MoveSlot move;
    double n, w, d;         /* visits, results for the mover, draws (summed: doubles) */
    int8_t proven;          /* PROVEN_NONE or 0, 1, 2 for the mover */
    int proof;
} ChildStat;

/* The child to play among `c[0..n)`: the shortest proven win, else the most visited
 * (FINAL_ROBUST) or best mean (FINAL_MAX) child that is not a proven loss, else the proven
 * loss that lasts longest; -1 when n is 0.  The one definition of the final move. */
int final_choice(const ChildStat *c, int n, int final_move);
/* Add `more` into `into` (a proof in either is kept: proofs are exact). */
void child_add(ChildStat *into, const ChildStat *more);
/* The move most searchers chose (`votes[k]`: the index into `c` of searcher k's choice, -1
 * none); ties go to more summed visits, then to the first voted; where the robust choice over
 * `c` is proven (a win, draw or loss), it overrides the vote (proofs are exact). */
int vote_choice(const ChildStat *c, int n, const int *votes, int n_votes);
/* Tree `t`'s root children's statistics into `out` (room for the root's n_open); their count. */
int tree_children(const Tree *t, ChildStat *out);

/* ------------------------------------------------------------------------------------------
 * The loop (run.c): a search of one or several trees of the same position until a limit.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    const int64_t *shares;      /* per tree: the iterations it runs (< 0: no limit) */
    double seconds;             /* wall seconds from the start (<= 0: no limit): the hard limit */
    double soft_seconds;        /* under a clock, the time aimed at (clock_says_stop); 0: none */
    int depth;                  /* a tree reaching this depth ends the search (0: no limit) */
    double report_seconds;      /* a report on this beat (0: none) */
    int64_t report_nodes;       /* or each time the first tree's iterations pass a multiple (0: none) */
    int root_check;             /* this run's root check depth (0: none; < 0: the setting, RootCheck) */
} RunLimits;

/* The clock's rule, between the time aimed at (`soft`) and the most allowed (`hard`), `elapsed`
 * seconds into a search running `rate` iterations a second whose root's most visited children
 * have `best` and `second` visits among `n_moves`: whether to stop now.  One move: nothing to
 * decide; before `soft`: stop once the second cannot catch up by then; after it: go on only
 * while the choice is unclear (the best has less than twice the second's visits). */
int clock_says_stop(double elapsed, double soft, double hard, double rate, double best, double second, int n_moves);
/* The root's two most visited expanded children's visits; the number of its moves. */
int tree_root_lead(const Tree *t, double *best, double *second);

/* Called on the searching thread between iterations (the others keep searching); a return
 * below 0 ends the search as failed. */
typedef int (*ReportFn)(void *ctx);

/* Search `trees` (rooted at the same position) until a limit, the client's `stop`, a proven
 * root, or an error; tree 0 on this thread, the others on threads of their own.  0 ok, -1
 * failed (each tree's `error` says why; a report's failure is ERR_GAME on tree 0). */
int search_run(Tree **trees, int n, const RunLimits *limits, const atomic_int *stop, ReportFn report, void *ctx);

/* What a report or the result reads: every tree's root children merged, the move chosen, and
 * its longest principal variation over the trees. */
#define PV_CAP 257
typedef struct {
    ChildStat *children;        /* merged, in order of first appearance over the trees */
    int n_children, best;       /* best: index into children, -1 none */
    MoveSlot pv[PV_CAP];        /* from the best move on (the same slots as the tree's) */
    int pv_len;
    int64_t iterations, depth_sum;
    int seldepth, hashfull;
} Snapshot;

/* Read the trees (taking each one's lock but tree 0's, which only the caller iterates); 0 ok,
 * -1 error (a move comparison failed, or out of memory).  snapshot_free releases it. */
int search_snapshot(Tree **trees, int n, Snapshot *out);
void snapshot_free(Snapshot *s);
/* The principal variation of tree `t` from its root child with move `m`: at most `cap` moves
 * into `out`; their count (0 when no such child, -1 on an error). */
int tree_pv(Tree *t, const MoveSlot *m, MoveSlot *out, int cap);

/* The core's selection on given statistics (table tests): the index of the child entered. */
int search_table_select(const SearchSettings *s, uint32_t parent_n, const Node *children, int n);

#endif
