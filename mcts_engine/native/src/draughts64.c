/* The draughts kernel on one 64-bit word: 8x8 and 10x10 dark-square boards. */
#include "search.h"

#define BB u64
#define SUFFIX 64
static inline int POPCNT(u64 x) { return __builtin_popcountll(x); }
static inline int CTZ(u64 x) { return __builtin_ctzll(x); }
#include "draughts_impl.h"
