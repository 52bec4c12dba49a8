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

#endif
