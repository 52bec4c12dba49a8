/* The random source every native part draws from: xoshiro256** (rng.c), or a Python callable
 * (random.random), so that a playout can draw exactly as the Python reference does. */
#ifndef MCTS_RAND_H
#define MCTS_RAND_H

#include <stdint.h>

typedef struct Rand {
    double (*next)(struct Rand *);
    uint64_t s[4];                    /* xoshiro256** state */
    void *py_callable;                /* PyObject * for the Python source */
    int failed;                       /* the Python source raised */
} Rand;

double rand_native_next(Rand *r);
uint64_t rand_next_u64(Rand *r);
void rand_seed(Rand *r, uint64_t seed);

/* splitmix64's finaliser: a 64-bit word mixed so that every bit of it moves every bit of the
 * result (seeding, position hashes). */
static inline uint64_t rand_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One step of xoshiro256** on the state `s` (rand_next_u64's, here for loops that draw at every
 * move, so that they need no call). */
static inline uint64_t rand_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t rand_step(uint64_t s[4])
{
    uint64_t result = rand_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rand_rotl(s[3], 45);
    return result;
}

/* r->next(r) with the native source's draw inline: the same double (53 random bits). */
static inline double rand_draw(Rand *r)
{
    return r->next == rand_native_next ? (double)(rand_step(r->s) >> 11) * 0x1.0p-53 : r->next(r);
}

/* The next draw in [0, 1) into *x, for a loop that found once whether the source is the native
 * one (`native`: r->next is rand_native_next, its draw inlined as rand_draw's) and that checks a
 * Python source's failure at every draw: -1 if that source failed. */
static inline int rand_draw_checked(Rand *r, int native, double *x)
{
    if (native) {
        *x = (double)(rand_step(r->s) >> 11) * 0x1.0p-53;
        return 0;
    }
    *x = r->next(r);
    return r->failed ? -1 : 0;
}

#endif
