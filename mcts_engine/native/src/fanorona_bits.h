/* Fanorona's bit tricks, shared by the rules (fanorona.c: the chain walk, the lists, perft) and
 * the random playout (fanorona_playout.c, which compiles them twice: fanorona_playout_impl.h).
 * Everything here is static inline: each file, and each of the playout's compilations, has
 * its own copy, compiled for its own instructions.  Types: fanorona.h.
 */
#ifndef MCTS_FANORONA_BITS_H
#define MCTS_FANORONA_BITS_H

#include "fanorona.h"

/* A part of the playout: inlined into it, so that both its compilations have it. */
#define FN_HOT static inline __attribute__((always_inline))

static inline uint64_t bit(int i) { return (uint64_t)1 << i; }
static inline int ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
/* x with every bit moved d places up (down for d < 0); bits leaving the word are gone */
static inline uint64_t shift(uint64_t x, int d) { return d >= 0 ? x << d : x >> -d; }
static inline uint64_t rotl(uint64_t x, int n) { return (x << n) | (x >> (-n & 63)); }

/* ------------------------------------------------------------------------------------------
 * Which stones can capture, and which can step (rules/fanorona.py: capturers, paika_masks)
 * ---------------------------------------------------------------------------------------- */

/* The empty points `e` a step in direction k may reach: all of them orthogonally, the strong
 * points diagonally (a diagonal step keeps a point's parity).  With the board's shifts
 * (fanorona.h) and its ghost column, which no step crosses, that is all the masking a step
 * needs: fn_step_masks checks it against the lines when the rules load. */
#define FN_ORTHOGONAL(k) ((k) < 4)

/* The points P from which a stone could capture along the line of shift d > 0, whoever holds
 * them: up the bits into *up (Q = P + d in `to`, the empty points a step along the line may
 * reach, and Q + d holding an enemy, an approach, or P - d, a withdrawal), the other way into
 * *down.  `fast`: the shifts by a count in a register (BMI2's shlx and shrx keep their operand,
 * where a shift by a constant needs a copy). */
static inline void capture_line(uint64_t to, uint64_t opp, int d, int fast, uint64_t *up, uint64_t *down)
{
    int d2 = 2 * d;
    if (fast)
        __asm__("" : "+r"(d), "+r"(d2));
    *up = (to & ((opp >> d) | (opp << d2))) >> d;
    *down = (to & ((opp << d) | (opp >> d2))) << d;
}

/* The points from which a stone could capture, per direction into `from` (capture_line), and
 * all of them (e the empty points; fast: capture_line's). */
static inline uint64_t capture_points(const FnRules *r, uint64_t opp, uint64_t e, uint64_t from[FN_DIRS], int fast)
{
    uint64_t es = e & r->strong;
    _Static_assert(FN_D1 == -FN_D0 && FN_D3 == -FN_D2 && FN_D5 == -FN_D4 && FN_D7 == -FN_D6 && FN_D0 > 0 && FN_D2 > 0
                   && FN_D4 > 0 && FN_D6 > 0, "the directions come in opposite pairs, up the bits first");
    capture_line(e, opp, FN_D0, fast, &from[0], &from[1]);
    capture_line(e, opp, FN_D2, fast, &from[2], &from[3]);
    capture_line(es, opp, FN_D4, fast, &from[4], &from[5]);
    capture_line(es, opp, FN_D6, fast, &from[6], &from[7]);
    return from[0] | from[1] | from[2] | from[3] | from[4] | from[5] | from[6] | from[7];
}

/* The stones of `own` with a capturing step, all at once (e the empty points). */
static inline uint64_t capturers_of(const FnRules *r, uint64_t own, uint64_t opp, uint64_t e)
{
    uint64_t from[FN_DIRS];
    return own & capture_points(r, opp, e, from, 0);
}

/* Per direction (E W N S NE SW NW SE), the stones of `own` that can step that way (e the
 * empty points). */
static inline void paika_masks_of(const FnRules *r, uint64_t own, uint64_t e, uint64_t masks[FN_DIRS])
{
    uint64_t es = e & r->strong;
    masks[0] = own & shift(e, -FN_D0);
    masks[1] = own & shift(e, -FN_D1);
    masks[2] = own & shift(e, -FN_D2);
    masks[3] = own & shift(e, -FN_D3);
    masks[4] = own & shift(es, -FN_D4);
    masks[5] = own & shift(es, -FN_D5);
    masks[6] = own & shift(es, -FN_D6);
    masks[7] = own & shift(es, -FN_D7);
}

/* The paikas per direction counted into `seen`, running: seen[d] those of the directions
 * before d; seen[FN_DIRS] is all of them. */
static inline void paika_counts(const uint64_t masks[FN_DIRS], size_t seen[FN_DIRS + 1])
{
    seen[0] = 0;
    seen[1] = (size_t)popcount(masks[0]);
    seen[2] = seen[1] + (size_t)popcount(masks[1]);
    seen[3] = seen[2] + (size_t)popcount(masks[2]);
    seen[4] = seen[3] + (size_t)popcount(masks[3]);
    seen[5] = seen[4] + (size_t)popcount(masks[4]);
    seen[6] = seen[5] + (size_t)popcount(masks[5]);
    seen[7] = seen[6] + (size_t)popcount(masks[6]);
    seen[8] = seen[7] + (size_t)popcount(masks[7]);
}

/* The k-th set bit of `m` (k below its count): the first three cleared without a branch (a
 * direction's paikas are few), a loop for the rest. */
static inline int nth_bit(uint64_t m, size_t k)
{
    for (size_t t = 1; t <= 3; t++) {
        uint64_t next = m & (m - 1);
        m = k >= t ? next : m;
    }
    for (size_t t = 3; t < k; t++)
        m &= m - 1;
    return ctz(m);
}

/* The paika numbered `k` counting by direction, then by point (the order legal lists them; seen:
 * paika_counts'): the direction found without a branch. */
static inline void nth_paika(const FnRules *r, const uint64_t masks[FN_DIRS], const size_t seen[FN_DIRS + 1],
                             size_t k, int *from, int *to)
{
    int d = (k >= seen[1]) + (k >= seen[2]) + (k >= seen[3]) + (k >= seen[4]) + (k >= seen[5]) + (k >= seen[6])
            + (k >= seen[7]);
    *from = nth_bit(masks[d], k - seen[d]);
    *to = *from + r->delta[d];
}

/* ------------------------------------------------------------------------------------------
 * A stone's capturing steps (rules/fanorona.py: NEIGHBOURS, NEAR and the step tables)
 * ---------------------------------------------------------------------------------------- */

/* The stones a capture along a ray takes: its enemies from its first point up to the first
 * point without one, without a branch.  Up the bits: the ray's points below the lowest gap
 * (all of them when there is none).  Down: those above the highest gap, found on the gaps
 * moved up a bit with a sentinel at bit 0 (so that no gap leaves the whole ray).  `up`: all
 * ones up the bits, zero down. */
static inline uint64_t run_of(uint64_t ray, uint64_t up, uint64_t opp)
{
    uint64_t gaps = ray & ~opp, g2 = (gaps << 1) | 1;
    uint64_t below_low = (gaps & -gaps) - 1, above_high = -((uint64_t)1 << (63 - __builtin_clzll(g2)));
    return ray & ((below_low & up) | (above_high & ~up));
}

static inline unsigned gather_near(uint64_t x) { return (unsigned)((x & FN_NEAR_MASK) * FN_NEAR_MUL >> 55); }
static inline unsigned gather_far(uint64_t x) { return (unsigned)((x & FN_FAR_MASK) * FN_FAR_MUL >> (64 - FN_FAR_BITS)); }

#if defined(__x86_64__) && defined(__GNUC__)
#define FN_HAS_PEXT 1
/* BMI2's pext: the bits of x under `mask`, packed (the caller knows the CPU has it: the
 * playout's fast compilation, fanorona_playout.c). */
static inline uint64_t pext(uint64_t x, uint64_t mask)
{
    uint64_t out;
    __asm__("pextq %2, %1, %0" : "=r"(out) : "r"(x), "rm"(mask));
    return out;
}
#else
#define FN_HAS_PEXT 0
static inline uint64_t pext(uint64_t x, uint64_t mask) { (void)x; (void)mask; return 0; }
#endif

/* The capturing steps open to a stone, bit 2k an approach in direction k and bit 2k + 1 a
 * withdrawal, in the order the rows list them (by direction, approach first), but for the
 * lines the point has (options() adds them).  The board is turned by `turn` so that the
 * stone's point sits on bit FN_REACH (fanorona.h: the gathers), its neighbourhood gathered by
 * multiplications, or by pext where `fast` (the tables on pext's order, fanorona.h).  A step in
 * a direction needs its neighbour free and, to approach, the point beyond an enemy, or, to
 * withdraw, the opposite neighbour an enemy. */
FN_HOT unsigned options_turned(const FnRules *r, int turn, uint64_t free, uint64_t opp, int fast)
{
    uint64_t o = rotl(opp, turn), f = rotl(free, turn);
    if (FN_HAS_PEXT && fast)
        return r->free_packed[pext(f, FN_NEAR_MASK)]
               & (r->near_packed[pext(o, FN_NEAR_MASK)] | r->far_packed[pext(o, FN_FAR_MASK)]);
    return r->free_opts[gather_near(f)] & (r->near_opts[gather_near(o)] | r->far_opts[gather_far(o)]);
}

/* The capturing steps open to the stone on `q` (options_turned with its lines: `valid` also
 * drops the points the turn brought round from the other end of the word). */
FN_HOT unsigned options(const FnRules *r, int q, uint64_t free, uint64_t opp, int fast)
{
    return options_turned(r, (FN_REACH - q) & 63, free, opp, fast) & r->valid[q];
}

/* ------------------------------------------------------------------------------------------
 * Moves and the draw counters
 * ---------------------------------------------------------------------------------------- */

/* The chain mode of the position's turn (the first turns' single step). */
static inline int chain_mode(const FnRules *r, const FnPos *p)
{
    return r->first_single && p->ply < 2 ? FN_SINGLE : r->mode;
}

static inline int drawn(const FnRules *r, const FnPos *p)
{
    return p->quiet >= r->quiet_limit || p->ply >= r->ply_limit;
}

static inline void play(FnPos *p, uint64_t from, uint64_t to, uint64_t cap)
{
    uint64_t own = p->own;
    p->own = p->opp & ~cap;
    p->opp = own ^ from ^ to;
    p->turn ^= 1;
    p->ply++;
    p->quiet = cap ? 0 : p->quiet + 1;
}

#endif
