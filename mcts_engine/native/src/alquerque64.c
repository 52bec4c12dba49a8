/* The Alquerque family's generator on one 64-bit word: Alquerque's 5x5 board, Fox and Geese's cross. */
#include "alquerque.h"

#define BB u64
#define SUFFIX 64
static inline int POPCNT(u64 x) { return __builtin_popcountll(x); }
static inline int CTZ(u64 x) { return __builtin_ctzll(x); }
static inline u64 HIGHEST(u64 x) { return (u64)1 << (63 - __builtin_clzll(x)); }
/* shifts by 0 < d < 64 (the spec's deltas are checked so) */
static inline u64 SHL(u64 x, int d) { return x << d; }
static inline u64 SHR(u64 x, int d) { return x >> d; }
/* the r-th lowest set bit of x (r below its count) */
static inline u64 NTH(u64 x, int r)
{
    for (; r; r--)
        x &= x - 1;
    return x & (~x + 1);
}
#include "alquerque_impl.h"
