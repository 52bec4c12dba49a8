/* The draughts kernel on one 64-bit word: 8x8 and 10x10 dark-square boards. */
#include "draughts.h"

typedef u64 BB;
static inline int POPCNT(u64 x) { return __builtin_popcountll(x); }
static inline int CTZ(u64 x) { return __builtin_ctzll(x); }
#include "draughts_impl.h"

const KernelWord *const KERNEL_WORD_64 = &THIS_WORD;
