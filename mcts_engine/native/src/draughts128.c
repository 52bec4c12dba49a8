/* The draughts kernel on a 128-bit word: Canadian 12x12 and the boards played on every square. */
#include "draughts.h"

typedef u128 BB;
static inline int POPCNT(u128 x) { return __builtin_popcountll((u64)x) + __builtin_popcountll((u64)(x >> 64)); }
static inline int CTZ(u128 x) { return (u64)x ? __builtin_ctzll((u64)x) : 64 + __builtin_ctzll((u64)(x >> 64)); }
#include "draughts_impl.h"

const KernelWord *const KERNEL_WORD_128 = &THIS_WORD;
