/* Fanorona's random playout (fn_playout, fanorona.h): FanoronaState.playout in C, one uniform
 * draw a ply, the same move for the same random number as the Python loop.
 *
 * Its kernel (fanorona_playout_impl.h) is compiled twice where GCC builds for x86-64: for the
 * CPUs whose BMI instructions and pext are fast (Intel since Haswell, AMD since Zen 3), whose
 * bit tricks are then a tenth shorter, and for the rest; the rules choose once (FnRules'
 * fast_bits, from cpu.h's cpu_fast_bits).  Both give the same moves: the tests play both.
 */
#include "fanorona_bits.h"

#include <stdlib.h>

#include "cpu.h"

#define FN_TWO_COMPILATIONS CPU_TWO_COMPILATIONS

#define FN_REC_MIN 4096                /* the count's records' first room */

/* A level of count_below's walk left for a child's: the stone's steps, the board it stands on,
 * its record and its steps not yet followed. */
typedef struct {
    const FnStep *steps;
    uint64_t free, opp;
    uint32_t *node;
    unsigned mask;
} FnCountLevel;

/* The count's records grown (to FN_REC_MIN, then twice as many); -1 out of memory. */
static int fn_rec_grow(FnSink *s)
{
    size_t cap_n = s->rec_cap ? 2 * s->rec_cap : FN_REC_MIN;
    uint32_t *grown = realloc(s->rec, cap_n * sizeof(uint32_t));
    if (!grown)
        return -1;
    s->rec = grown;
    s->rec_cap = cap_n;
    return 0;
}

/* Whether the playout counts the capturing moves rather than lists them: chains optional or one
 * step long, the captured lines leaving at once (else fn_chains lists them). */
static inline int fn_counted(const FnRules *r, int mode) { return !r->dagaz && mode != FN_COMPULSORY; }

/* Per direction k, the points from which a stone could capture in another direction (`from`:
 * capture_points' per direction): a first step in direction k to such a point can go on, since
 * a chain's second step sees the start-of-turn board but for the line the first one took. */
static inline void fn_go_on_masks(const uint64_t from[FN_DIRS], uint64_t go_on[FN_DIRS])
{
    uint64_t a = from[0] | from[1], b = from[2] | from[3], c = from[4] | from[5], d = from[6] | from[7];
    uint64_t ab = a | b, cd = c | d;
    go_on[0] = from[1] | b | cd;
    go_on[1] = from[0] | b | cd;
    go_on[2] = from[3] | a | cd;
    go_on[3] = from[2] | a | cd;
    go_on[4] = from[5] | ab | d;
    go_on[5] = from[4] | ab | d;
    go_on[6] = from[7] | ab | c;
    go_on[7] = from[6] | ab | c;
}

#if FN_TWO_COMPILATIONS
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#define FN_K(name) fast_##name
#define FN_FAST 1
#include "fanorona_playout_impl.h"
#undef FN_K
#undef FN_FAST
#pragma GCC pop_options
#endif

#define FN_K(name) plain_##name
#define FN_FAST 0
#include "fanorona_playout_impl.h"
#undef FN_K
#undef FN_FAST

int fn_playout(FnCtx *c, FnPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result, int64_t *plies)
{
#if FN_TWO_COMPILATIONS
    if (c->r->fast_bits)
        return fast_playout(c, p, max_plies, rng, halt, result, plies);
#endif
    return plain_playout(c, p, max_plies, rng, halt, result, plies);
}
