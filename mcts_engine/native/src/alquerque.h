/* The Alquerque family's native rules (Alquerque, Zamma, Harbagh, Fox and Geese): the types the
 * 64-bit and 128-bit generators (alquerque_impl.h) and the glue (alquerque_glue.c) share.
 *
 * The board layout is the Python reference's (rules/geometry.py: a LineBoard, a Grid with one
 * ghost column and, per direction, the mask of points from which a line runs that way), so a
 * position's masks are the same numbers on both sides of the boundary.  Alquerque (5x5) and the
 * cross of Fox and Geese fit one 64-bit word; Zamma (9x9) and Harbagh (a 9x9 lattice) take 128
 * bits.  Every rule of a game is a field of AlqSpec, filled once from the Python AlquerqueGame's
 * compiled tables (rules/alquerque_kernel.py): this code derives no rule and parses no text.
 */
#ifndef MCTS_ALQUERQUE_H
#define MCTS_ALQUERQUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rand.h"

typedef uint64_t u64;
typedef unsigned __int128 u128;

#define ALQ_MAX_LINES 8                     /* directions of a board's lines */
#define ALQ_MAX_BITS 90                     /* the widest board: 9 rows of 10 bits (a slot holds such a mask) */
#define ALQ_MAX_BUCKETS (ALQ_MAX_LINES * (ALQ_MAX_BITS + 1))   /* step buckets of one scan: men, king rays */
#define ALQ_MAX_ROUTE 128                   /* landings of one capture: each takes a piece, so at most 90 */
#define ALQ_SLOT_ROUTE 11                   /* landings a MoveSlot holds; a longer route is interned */
#define ALQ_INTERNED 15                     /* the slot's route length field of an interned route */
#define ALQ_MAX_DELTA 31                    /* a step's shift: a jump's (twice it) stays below 64 */
#define ALQ_NO_LIMIT ((int64_t)1 << 62)     /* rules/base.py's NO_LIMIT: a counter that never triggers */

enum { ALQ_CHAIN_COMPULSORY = 0, ALQ_CHAIN_OPTIONAL = 1, ALQ_CHAIN_SINGLE = 2 };
enum { ALQ_PROMO_NONE = 0, ALQ_PROMO_STOP = 1, ALQ_PROMO_PASS = 2 };

/* A step direction of men (shift d > 0, the mask ANDed in before it) and a man's jump (d twice). */
typedef struct { int d; u128 m; } AlqShift;
typedef struct { int d, dd; u128 m; } AlqJump;

/* One game of the family (AlquerqueGame's row, compiled): its lines, step and jump plans per
 * player, and its rule parameters. */
typedef struct {
    char name[32];
    int wide;                                 /* 1: the 128-bit generator */
    u128 points;
    int n_lines;
    int delta[ALQ_MAX_LINES];                 /* one step along each line, in the Python line order */
    u128 line[ALQ_MAX_LINES], jline[ALQ_MAX_LINES];   /* points with one / two steps of line that way */
    AlqShift step_up[2][ALQ_MAX_LINES], step_down[2][ALQ_MAX_LINES];
    int n_step_up[2], n_step_down[2];
    AlqJump jump_up[2][ALQ_MAX_LINES], jump_down[2][ALQ_MAX_LINES];
    int n_jump_up[2], n_jump_down[2];
    u128 promo[2];                            /* each player's crowning row (0: no promotion) */
    int hunt, compulsory, immediate, chain, promotion, king_reverse, huff, choice_max, crown_is_progress;
    int repetition;                           /* occurrences that draw, 0: off */
    int64_t no_progress, max_plies;           /* ALQ_NO_LIMIT where off */
    int flock;                                /* Fox and Geese's evaluation: the flock less 5 (or 1) */
    double king_value;
} AlqSpec;

/* A position, with the draw counters and the repetition history (keys since the last capture
 * or crowning, as AlquerqueState.history keeps them).  Masks are 128-bit for both words. */
typedef struct { u128 own, opp, kings; int turn; } AlqKey;

typedef struct {
    u128 own, opp, kings;
    int turn, drawn;
    int64_t ply, quiet;
    AlqKey *hist;
    size_t n_hist, cap_hist;
} AlqPos;

/* A move as Python sees it: masks, and the route's landing points as bit indices. */
typedef struct {
    u128 frm, to, cap;
    int crowned, n;
    uint8_t route[ALQ_MAX_ROUTE];
} AlqPlain;

/* Routes too long for a MoveSlot, interned once per rules object and shared by its game
 * instances (a tree's moves are compared across searchers): entries are never removed. */
typedef struct {
    pthread_mutex_t lock;
    uint8_t *bytes;              /* each entry: from, length, landings */
    size_t n_bytes, cap_bytes;
    size_t *start;               /* entry -> its first byte */
    size_t n, cap;
} AlqRoutes;

int alq_routes_init(AlqRoutes *t);
void alq_routes_free(AlqRoutes *t);
int64_t alq_routes_intern(AlqRoutes *t, int frm, const uint8_t *route, int n);   /* the index, -1 out of memory */
int alq_routes_get(AlqRoutes *t, uint64_t index, uint8_t *route);                /* the length, -1: no such entry */

/* ------------------------------------------------------------------------------------------
 * A move in the search's MoveSlot (game.h), the same for both words:
 *   w[0]        the captured (or huffed) mask, bits 0-63
 *   w[1]        bits 0-25 the mask's bits 64-89; 26-32 from; 33-39 to; 40 crowned;
 *               41-44 the route's length (ALQ_INTERNED: w[2] is an index of AlqRoutes);
 *               45-58 the first two landings, 7 bits each
 *   w[2]        landings 2-10, 7 bits each
 * Unused bits are 0, so equal moves are equal words.
 * ---------------------------------------------------------------------------------------- */
static inline int alq_slot_from(const MoveSlot *s) { return (int)((s->w[1] >> 26) & 127); }
static inline int alq_slot_to(const MoveSlot *s) { return (int)((s->w[1] >> 33) & 127); }
static inline int alq_slot_crowned(const MoveSlot *s) { return (int)((s->w[1] >> 40) & 1); }
static inline int alq_slot_n(const MoveSlot *s) { return (int)((s->w[1] >> 41) & 15); }
static inline u128 alq_slot_cap(const MoveSlot *s)
{
    return (u128)s->w[0] | ((u128)(s->w[1] & ((1ULL << 26) - 1)) << 64);
}
static inline int alq_slot_landing(const MoveSlot *s, int i)
{
    return (int)(i < 2 ? (s->w[1] >> (45 + 7 * i)) & 127 : (s->w[2] >> (7 * (i - 2))) & 127);
}

/* A slot of a move; `n` is the route's length (its landings in `route`), or ALQ_INTERNED with
 * the entry `interned`. */
static inline void alq_slot_pack(MoveSlot *s, u128 cap, int frm, int to, int crowned, int n, const uint8_t *route,
                                 uint64_t interned)
{
    s->w[0] = (u64)cap;
    s->w[1] = (u64)(cap >> 64) | (u64)frm << 26 | (u64)to << 33 | (u64)(crowned != 0) << 40 | (u64)n << 41;
    s->w[2] = 0;
    if (n == ALQ_INTERNED) {
        s->w[2] = interned;
        return;
    }
    for (int i = 0; i < n; i++) {
        if (i < 2)
            s->w[1] |= (u64)route[i] << (45 + 7 * i);
        else
            s->w[2] |= (u64)route[i] << (7 * (i - 2));
    }
}

/* The first member of every word's game instance data: what the glue reads of an instance. */
typedef struct {
    const AlqSpec *r;
    AlqRoutes *routes;
} AlqHead;

/* What the glue needs of each word's generator (alquerque_impl.h). */
typedef struct {
    /* a game instance for one searcher (game.h), or for one call of the glue; -1 out of memory */
    int (*open)(GameIface *g, const AlqSpec *r, AlqRoutes *routes);
    void (*close)(GameIface *g);
    /* AlquerqueState.random_move: 1 with *out, 0 none, -1 the random source failed or out of memory */
    int (*random_move)(GameIface *g, const AlqPos *p, Rand *rng, AlqPlain *out);
    /* AlquerqueGame.perft (draw rules ignored); -1 out of memory */
    int64_t (*perft)(GameIface *g, const AlqPos *p, int depth);
} AlqWord;

extern const AlqWord ALQ_WORD_64, ALQ_WORD_128;

#endif
