/* The C game interface: what a game does for the search core.
 *
 * A game is a table of operations (GameOps) and the instance data they work on (GameIface):
 * one instance per searcher, so that searchers on different threads share nothing mutable.
 * The draughts kernel fills it with compiled rules (draughts_impl.h); a game written only in
 * Python fills it with calls of its State (game_python.c).  The search core (search.c,
 * playout.c, run.c) calls nothing else of a game.
 *
 * One error convention: every operation returns GAME_ERROR (negative) when it fails, and a
 * status >= 0 otherwise; values come back through pointers.  The reason for a failure stays
 * where the implementation keeps it (the Python game leaves its exception set; a native game
 * fails only when memory runs out), and the caller stops its search.
 */
#ifndef MCTS_GAME_H
#define MCTS_GAME_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rand.h"

enum { GAME_ERROR = -1, GAME_OK = 0 };
enum { GAME_RUNNING = 0, GAME_OVER = 1 };     /* outcome and playout: still running / finished */
enum { GAME_NO = 0, GAME_YES = 1 };           /* is_capture, move_equal, oracle, quiesce */

/* Every playout ends within PLAYOUT_CAP plies (a game whose random play never ends is cut
 * off and evaluated there), and looks at the search's halt flags every HALT_CHECK plies. */
#define PLAYOUT_CAP 10000
#define HALT_CHECK 64

/* A move as the tree keeps it: 24 bytes that a native game lays out as it likes (plain data:
 * copied, compared and hashed by the game), or a Python object (GAME_OBJECT_MOVES: a strong
 * reference, retained and released through the game). */
typedef union {
    uint64_t w[3];
    uint8_t b[24];
    void *obj;
} MoveSlot;

/* A growing list of moves (listing a node, a playout's choices); `h` holds heuristics. */
typedef struct {
    MoveSlot *m;
    double *h;
    size_t n, cap;
} MoveBuf;

int movebuf_push(MoveBuf *b, const MoveSlot *m);      /* GAME_OK, or GAME_ERROR out of memory */

/* Why a search stops, as its playouts see it: the client's stop (set by another thread), the
 * search's own end (a proof, a tree depth, another searcher's failure), and its deadline. */
typedef struct {
    const atomic_int *stop;    /* may be NULL */
    atomic_int done;
    double deadline;           /* monotonic seconds, 0: none */
} Halt;

/* Whether a playout should give up now (NULL: never); run.c. */
int halted(const Halt *h);

enum {
    GAME_COMPULSORY_CAPTURES = 1,   /* a cut-off plays the pending captures before it evaluates */
    GAME_OBJECT_MOVES = 2,          /* moves are Python objects: retain and release them */
    GAME_PYTHON = 4,                /* operations call Python: the GIL is held, one searcher only */
};

typedef struct GameIface GameIface;

typedef struct {
    int (*pos_init)(const GameIface *g, void *pos);                  /* an empty position */
    void (*pos_free)(const GameIface *g, void *pos);
    int (*copy)(const GameIface *g, void *dst, const void *src);
    int (*to_move)(const GameIface *g, const void *pos, int *player);                   /* 0 or 1 */
    int (*legal)(const GameIface *g, void *pos, MoveBuf *out);                         /* appended */
    int (*play)(const GameIface *g, void *pos, const MoveSlot *m);
    /* GAME_OVER with the first player's result in [0, 1], or GAME_RUNNING */
    int (*outcome)(const GameIface *g, void *pos, double *result);
    int (*evaluate)(const GameIface *g, void *pos, double *value);  /* the first player's, [0, 1] */
    int (*heuristic)(const GameIface *g, void *pos, const MoveSlot *m, double *value);
    int (*is_capture)(const GameIface *g, void *pos, const MoveSlot *m);               /* yes/no */
    /* a random playout of at most max_plies: GAME_OVER with *result, or GAME_RUNNING when cut
     * off there or halted (a native game looks at `halt` every HALT_CHECK plies) */
    int (*playout)(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result);
    /* optional (NULL: none): a known result (the endgame tables), GAME_YES with the first
     * player's result and the plies to the end */
    int (*oracle)(const GameIface *g, void *pos, double *result, int *plies);
    /* optional (NULL: none): the first player's value after alpha-beta over the pending
     * captures, GAME_YES, or GAME_NO where the game scores otherwise */
    int (*quiesce)(const GameIface *g, void *pos, double *value);
    int (*move_hash)(const GameIface *g, const MoveSlot *m, uint64_t *hash);
    /* optional (NULL: none): a hash of the position's board and side to move (not its
     * history or counters), for the alpha-beta's transposition table */
    int (*pos_hash)(const GameIface *g, const void *pos, uint64_t *hash);
    int (*move_equal)(const GameIface *g, const MoveSlot *x, const MoveSlot *y);       /* yes/no */
    /* GAME_OBJECT_MOVES only: take and drop a reference */
    void (*move_retain)(const GameIface *g, MoveSlot *m);
    void (*move_release)(const GameIface *g, MoveSlot *m);
} GameOps;

struct GameIface {
    const GameOps *ops;
    void *ctx;                 /* the instance's own data (rules, scratch buffers, callbacks) */
    size_t pos_size;           /* a position's bytes */
    unsigned flags;            /* GAME_* above */
};

static inline void move_retain(const GameIface *g, MoveSlot *m)
{
    if (g->flags & GAME_OBJECT_MOVES)
        g->ops->move_retain(g, m);
}

static inline void move_release(const GameIface *g, MoveSlot *m)
{
    if (g->flags & GAME_OBJECT_MOVES)
        g->ops->move_release(g, m);
}

#endif
