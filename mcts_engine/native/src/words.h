/* Board masks wider than a machine word across the boundary: a Python int to and from a
 * little-endian array of 64-bit words (the Life board's 380 to 702 bits, Gauntlet's 128). */
#ifndef MCTS_WORDS_H
#define MCTS_WORDS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* `o` (a non-negative int of at most nw * 64 bits) into w[0..nw); -1 with TypeError or
 * ValueError naming `what`. */
int words_from_int(PyObject *o, uint64_t *w, int nw, const char *what);

/* The int of the words w[0..nw) (a new reference). */
PyObject *int_from_words(const uint64_t *w, int nw);

/* `o` as an int from `low` to `high`; -1 with an error naming `what`. */
int bounded_int(PyObject *o, long low, long high, const char *what, long *out);

#endif
