/* Small helpers the glue of the games whose whole rules are native (Fanorona, Dablot) share:
 * integers read from Python range-checked where they are parsed, with errors naming them,
 * and a playout's result as the Python rules give it. */
#ifndef MCTS_RULES_GLUE_H
#define MCTS_RULES_GLUE_H

#include "glue.h"

/* An int in [lo, hi] (ValueError naming `what` otherwise); -1 with the exception set. */
static inline int arg_i64(PyObject *o, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s %R is outside [%lld, %lld]", what, o, (long long)lo, (long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* An int as a C int in [lo, hi]. */
static inline int arg_int(PyObject *o, int lo, int hi, const char *what, int *out)
{
    int64_t v;
    if (arg_i64(o, lo, hi, what, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* A non-negative int below 2**64 (a mask of up to 64 points). */
static inline int arg_u64(PyObject *o, const char *what, uint64_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s %R is not a mask of this board", what, o);
        return -1;
    }
    *out = v;
    return 0;
}

/* The item `i` of the sequence `seq` as a new reference (NULL with an error naming `what`). */
static inline PyObject *arg_item(PyObject *seq, Py_ssize_t i, const char *what)
{
    PyObject *item = PySequence_Check(seq) ? PySequence_GetItem(seq, i) : NULL;
    if (!item && !PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "%s is not a sequence", what);
    return item;
}

/* The first player's result of a finished game, None for one that goes on. */
static inline PyObject *result_value(int over, double result)
{
    if (over == GAME_OVER)
        return PyFloat_FromDouble(result);
    Py_RETURN_NONE;
}

#endif
