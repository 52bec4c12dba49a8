/* The Alquerque family's generator on one 64-bit word: Alquerque's 5x5 board, Fox and Geese's cross. */
#include "alquerque.h"

#define BB u64
#define SUFFIX 64
static inline int POPCNT(u64 x) { return __builtin_popcountll(x); }
static inline int CTZ(u64 x) { return __builtin_ctzll(x); }
#include "alquerque_impl.h"
