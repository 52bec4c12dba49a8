/* The Alquerque family's generator on a 128-bit word: Zamma's 9x9 board, Harbagh's lattice. */
#include "alquerque.h"

#define BB u128
#define SUFFIX 128
static inline int POPCNT(u128 x) { return __builtin_popcountll((u64)x) + __builtin_popcountll((u64)(x >> 64)); }
static inline int CTZ(u128 x) { return (u64)x ? __builtin_ctzll((u64)x) : 64 + __builtin_ctzll((u64)(x >> 64)); }
static inline u128 HIGHEST(u128 x)
{
    u64 hi = (u64)(x >> 64);
    return hi ? (u128)((u64)1 << (63 - __builtin_clzll(hi))) << 64 : (u128)((u64)1 << (63 - __builtin_clzll((u64)x)));
}
/* shifts by 0 < d < 64 (the spec's deltas are checked so), on the two halves: no test for d >= 64 */
static inline u128 SHL(u128 x, int d)
{
    u64 lo = (u64)x, hi = (u64)(x >> 64);
    return (u128)((hi << d) | (lo >> (64 - d))) << 64 | (u128)(lo << d);
}
static inline u128 SHR(u128 x, int d)
{
    u64 lo = (u64)x, hi = (u64)(x >> 64);
    return (u128)(hi >> d) << 64 | (u128)((lo >> d) | (hi << (64 - d)));
}
static inline u64 NTH64(u64 x, int r)
{
    for (; r; r--)
        x &= x - 1;
    return x & (~x + 1);
}
/* the r-th lowest set bit of x (r below its count): the low word skipped at once */
static inline u128 NTH(u128 x, int r)
{
    u64 lo = (u64)x;
    int n = __builtin_popcountll(lo);
    if (r >= n)
        return (u128)NTH64((u64)(x >> 64), r - n) << 64;
    return NTH64(lo, r);
}
#include "alquerque_impl.h"
