/* The Alquerque family's generator on a 128-bit word: Zamma's 9x9 board, Harbagh's lattice. */
#include "alquerque.h"

#define BB u128
#define SUFFIX 128
static inline int POPCNT(u128 x) { return __builtin_popcountll((u64)x) + __builtin_popcountll((u64)(x >> 64)); }
static inline int CTZ(u128 x) { return (u64)x ? __builtin_ctzll((u64)x) : 64 + __builtin_ctzll((u64)(x >> 64)); }
#include "alquerque_impl.h"
