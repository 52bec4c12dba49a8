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

/* xoshiro256**'s next output, inlined where a loop draws often (rand_next_u64 is this). */
static inline uint64_t rand_step(uint64_t *s)
{
    uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* The next draw in [0, 1) into *x: the native generator's inlined (rand_native_next's value)
 * where `native` (r->next is rand_native_next, found once by the caller), else the source's
 * own `next` (a Python callable); -1 if that failed. */
static inline int rand_draw(Rand *r, int native, double *x)
{
    if (native) {
        *x = (double)(rand_step(r->s) >> 11) * 0x1.0p-53;
        return 0;
    }
    *x = r->next(r);
    return r->failed ? -1 : 0;
}

#endif
