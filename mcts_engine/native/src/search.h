/* The one search core: UCT over a node arena, for every game.
 *
 * A game plugs in as a Backend: a table of operations on positions and moves.  The draughts
 * kernel's backends run entirely in C (draughts_impl.h); any other game's backend calls its
 * Python State through callbacks (backend_python.c).  The tree, selection, expansion,
 * playouts and their cut-off, backup, proofs, the Hash budget, tree reuse and the final
 * choice are written once, here (search.c).
 */
#ifndef MCTS_SEARCH_H
#define MCTS_SEARCH_H

#include "draughts.h"

/* A move as the tree keeps it: a draughts move (square numbers and the captured mask), or a
 * Python object (a strong reference, released with the node). */
typedef union {
    struct {
        u64 cap_lo, cap_hi;
        uint8_t frm, to, crowned;
    } d;
    void *obj;
} MoveSlot;

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
enum { ERR_NONE = 0, ERR_CALLBACK = 1, ERR_MEMORY = 2 };

typedef struct {
    double uct_c, prior_weight, minimax_weight, widening, epsilon;
    int policy, playout_depth, solver, final_move, quiescence;
    int qsearch;          /* cut-offs and new leaves valued by the backend's quiescence search */
} SearchSettings;

/* A growing list of moves (listing a node, a playout's choices). */
typedef struct {
    MoveSlot *m;
    double *h;             /* heuristics, when asked for */
    size_t n, cap;
} MoveBuf;

/* What a game does for the core.  `ctx` is the backend's own data; positions are buffers of
 * `pos_size` bytes.  Operations that can fail (a Python callback raised) return -2 / -1 as
 * documented and leave the error to the caller (the tree stops its slice). */
typedef struct Backend {
    void *ctx;
    size_t pos_size;
    int compulsory_captures;     /* a cut-off plays pending captures first (draughts) */
    int retains_moves;           /* moves are objects: retain and release them */
    int (*pos_init)(struct Backend *b, void *pos);
    void (*pos_free)(struct Backend *b, void *pos);
    int (*pos_copy)(struct Backend *b, void *dst, const void *src);     /* 0 ok, -1 error */
    int (*to_move)(struct Backend *b, const void *pos);
    int (*list)(struct Backend *b, void *pos, MoveBuf *out);            /* moves appended; -1 error */
    int (*play)(struct Backend *b, void *pos, const MoveSlot *m);       /* 0 ok, -1 error */
    double (*outcome)(struct Backend *b, void *pos);                    /* -1 running, -2 error */
    double (*evaluate)(struct Backend *b, void *pos);                   /* -2 error */
    double (*heuristic)(struct Backend *b, void *pos, const MoveSlot *m); /* NAN error */
    int (*is_capture)(struct Backend *b, void *pos, const MoveSlot *m);             /* -1 error */
    double (*random_playout)(struct Backend *b, void *pos, int64_t plies, Rand *rng); /* -1 cut off, -2 error */
    int (*oracle)(struct Backend *b, void *pos, double *result, int *plies);          /* 1 hit, 0 none, -1 error */
    /* optional (NULL: none): the value of `pos` for the first player after alpha-beta over its
     * pending captures (a quiescence search), 1 done, 0 not for this game */
    int (*quiesce)(struct Backend *b, void *pos, double *value);
    uint64_t (*move_hash)(struct Backend *b, const MoveSlot *m);
    int (*move_equal)(struct Backend *b, const MoveSlot *x, const MoveSlot *y); /* 1, 0, -1 error */
    void (*move_retain)(struct Backend *b, MoveSlot *m);
    void (*move_release)(struct Backend *b, MoveSlot *m);
} Backend;

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
    Backend *b;
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
    int error;                    /* ERR_*: the last slice failed */
    int64_t iterations, depth_sum;
    int seldepth;
} Tree;

int tree_init(Tree *t, Backend *b, const SearchSettings *s, uint32_t capacity, u64 seed);
void tree_free(Tree *t);
void tree_clear(Tree *t);                                   /* a new game: a fresh root later */
int tree_set_root(Tree *t, const void *pos, const MoveSlot *walk, size_t n_walk); /* 1 reused, 0 new, -1 error */
int tree_restrict_root(Tree *t, const MoveSlot *allowed, size_t n_allowed);
/* Iterate until `max_iterations`, `max_seconds` (0: none), the tree depth `max_depth` (0: none) or a solved
 * root; 0 ok, -1 error (t->error). */
int tree_run(Tree *t, int64_t max_iterations, double max_seconds, int max_depth);
int tree_root_done(const Tree *t);                          /* proven with every move tried */
uint32_t tree_final_child(const Tree *t);                   /* the slot to play, 0 if none */
uint32_t tree_best_child(const Tree *t, uint32_t node);     /* the most visited child, 0 if none */
int tree_hashfull(const Tree *t);
double tree_simulate(Tree *t, void *pos);          /* one playout from `pos`, in place; -2 error */
void mast_clear(Tree *t);
int movebuf_push(MoveBuf *b, const MoveSlot *m);

/* The core's decisions on given statistics (table tests): the index of the child that
 * selection enters, and of the root child the final choice plays (-1: none). */
int search_table_select(const SearchSettings *s, uint32_t parent_n, const Node *children, int n);
int search_table_final(const SearchSettings *s, const Node *children, int n);

/* The draughts kernel's backends (draughts_impl.h), one per word. */
int backend_init_64(Backend *b, const Rules *r, const Tables *tables);
int backend_init_128(Backend *b, const Rules *r, const Tables *tables);
void backend_free_64(Backend *b);
void backend_free_128(Backend *b);

#endif
