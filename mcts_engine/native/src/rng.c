/* The native random source: xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
#include "draughts.h"

static u64 splitmix64(u64 *x)
{
    return rand_mix64(*x += 0x9e3779b97f4a7c15ULL);
}

void rand_seed(Rand *r, u64 seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
    r->next = rand_native_next;
    r->py_callable = NULL;
    r->failed = 0;
}

u64 rand_next_u64(Rand *r) { return rand_step(r->s); }

/* A double in [0, 1) with 53 random bits, as Python's random() has. */
double rand_native_next(Rand *r) { return (double)(rand_next_u64(r) >> 11) * 0x1.0p-53; }
