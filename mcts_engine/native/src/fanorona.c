/* Fanorona's capture chains, compiled: the hot spot of its Python rules.
 *
 * The Python rules (rules/fanorona.py, ``extend``) stay the reference: ``fanorona_chains``
 * lists the same moves, as the same tuples (from, to, captured mask, *step codes), in the same
 * order, and the tests compare the two on seeded random positions in every run.  The board's
 * lines come from Python once (``fanorona_setup``): per point its rows (direction, target, the
 * approach ray beyond the target, the withdrawal ray behind the start), and the NEIGHBOURS and
 * NEAR masks.  Points are bit indices of the Python Grid (5 rows of stride 10: below 64).
 */
#include "glue.h"

#define FN_POINTS 64
#define FN_DIRS 8
#define FN_RAY 9          /* the longest line on a 9-point row */
#define FN_PATH 64

enum { FN_OPTIONAL = 0, FN_COMPULSORY = 1, FN_SINGLE = 2 };   /* rules/fanorona.py's chain modes */

typedef struct {
    int k, to;
    int alen, wlen;
    int aray[FN_RAY], wray[FN_RAY];
} FnRow;

typedef struct {
    int ready;
    int nrows[FN_POINTS];
    FnRow rows[FN_POINTS][FN_DIRS];
    uint64_t neighbours[FN_POINTS], near[FN_POINTS];
    uint64_t cells;           /* the points that have lines: the board */
} FnTable;

static FnTable fn;

typedef struct {
    PyObject *out;
    int frm;
    int mode;
    int path[FN_PATH];
} FnWalk;

/* The stones a capture along ``ray`` takes: from its first point up to the first non-enemy. */
static uint64_t fn_run(const int *ray, int len, uint64_t opp)
{
    uint64_t line = 0;
    for (int i = 0; i < len && (opp >> ray[i] & 1); i++)
        line |= (uint64_t)1 << ray[i];
    return line;
}

static int fn_append(FnWalk *w, int to, uint64_t cap, int depth)
{
    PyObject *move = PyTuple_New(3 + depth);
    if (!move)
        return -1;
    PyObject *items[3] = {PyLong_FromLong(w->frm), PyLong_FromLong(to), PyLong_FromUnsignedLongLong(cap)};
    for (int i = 0; i < 3; i++) {
        if (!items[i]) {
            for (int j = 0; j < 3; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(move);
            return -1;
        }
        PyTuple_SET_ITEM(move, i, items[i]);
    }
    for (int i = 0; i < depth; i++) {
        PyObject *code = PyLong_FromLong(w->path[i]);
        if (!code) {
            Py_DECREF(move);
            return -1;
        }
        PyTuple_SET_ITEM(move, 3 + i, code);
    }
    int err = PyList_Append(w->out, move);
    Py_DECREF(move);
    return err;
}

static int fn_extend(FnWalk *w, int q, uint64_t free, uint64_t opp, int last, uint64_t taken, int depth);

/* One capturing step to ``to`` taking ``line``: recorded unless the chain must go on. */
static int fn_step(FnWalk *w, int k, int to, uint64_t free, uint64_t opp, uint64_t taken, uint64_t line,
                   int code, int depth)
{
    if (depth >= FN_PATH) {
        PyErr_SetString(PyExc_RuntimeError, "fanorona_chains: a chain longer than the board");
        return -1;
    }
    uint64_t cap = taken | line, f2 = (free ^ ((uint64_t)1 << to)) | line, o2 = opp ^ line;
    w->path[depth] = code;
    if (w->mode == FN_SINGLE)
        return fn_append(w, to, cap, depth + 1);
    int goes_on = 0;
    if ((fn.neighbours[to] & f2) && (fn.near[to] & o2)) {
        goes_on = fn_extend(w, to, f2, o2, k, cap, depth + 1);
        if (goes_on < 0)
            return -1;
    }
    if (!goes_on || w->mode == FN_OPTIONAL)     /* the walk beyond wrote deeper entries only */
        return fn_append(w, to, cap, depth + 1);
    return 0;
}

/* rules/fanorona.py's ``extend``: every capturing step of the stone on ``q``; 1 if any, 0 if
 * none, -1 on a Python error. */
static int fn_extend(FnWalk *w, int q, uint64_t free, uint64_t opp, int last, uint64_t taken, int depth)
{
    int found = 0;
    for (int r = 0; r < fn.nrows[q]; r++) {
        const FnRow *row = &fn.rows[q][r];
        if (!(free >> row->to & 1) || row->k == last)
            continue;
        if (row->alen && (opp >> row->aray[0] & 1)) {
            found = 1;
            if (fn_step(w, row->k, row->to, free, opp, taken, fn_run(row->aray, row->alen, opp),
                        row->to << 1, depth) < 0)
                return -1;
        }
        if (row->wlen && (opp >> row->wray[0] & 1)) {
            found = 1;
            if (fn_step(w, row->k, row->to, free, opp, taken, fn_run(row->wray, row->wlen, opp),
                        (row->to << 1) | 1, depth) < 0)
                return -1;
        }
    }
    return found;
}

static int fn_ray(PyObject *seq, int *ray, int *len)
{
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0 || n > FN_RAY)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        long p = item ? PyLong_AsLong(item) : -1;
        Py_XDECREF(item);
        if (p < 0 || p >= FN_POINTS)
            return -1;
        ray[i] = (int)p;
    }
    *len = (int)n;
    return 0;
}

PyObject *fanorona_setup(PyObject *self, PyObject *args)
{
    PyObject *points, *neighbours, *near;
    if (!PyArg_ParseTuple(args, "OOO", &points, &neighbours, &near))
        return NULL;
    static FnTable t;
    memset(&t, 0, sizeof t);
    Py_ssize_t n = PySequence_Size(points);
    if (n < 0 || n > FN_POINTS || PySequence_Size(neighbours) != n || PySequence_Size(near) != n)
        goto bad;
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject *rows = PySequence_GetItem(points, q);
        PyObject *nb = PySequence_GetItem(neighbours, q), *nr = PySequence_GetItem(near, q);
        Py_ssize_t m = rows ? PySequence_Size(rows) : -1;
        int ok = rows && nb && nr && m >= 0 && m <= FN_DIRS;
        if (ok) {
            if (m)
                t.cells |= (uint64_t)1 << q;
            t.neighbours[q] = PyLong_AsUnsignedLongLongMask(nb);
            t.near[q] = PyLong_AsUnsignedLongLongMask(nr);
            t.nrows[q] = (int)m;
        }
        for (Py_ssize_t i = 0; ok && i < m; i++) {
            PyObject *row = PySequence_GetItem(rows, i);
            FnRow *out = &t.rows[q][i];
            PyObject *aray = NULL, *wray = NULL;
            ok = row && PyArg_ParseTuple(row, "iiOO", &out->k, &out->to, &aray, &wray)
                 && out->to >= 0 && out->to < FN_POINTS
                 && fn_ray(aray, out->aray, &out->alen) == 0 && fn_ray(wray, out->wray, &out->wlen) == 0;
            Py_XDECREF(row);
        }
        Py_XDECREF(rows);
        Py_XDECREF(nb);
        Py_XDECREF(nr);
        if (!ok || PyErr_Occurred())
            goto bad;
    }
    t.ready = 1;
    fn = t;
    Py_RETURN_NONE;
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "fanorona_setup: the table is not rules/fanorona.py's");
    return NULL;
}

PyObject *fanorona_chains(PyObject *self, PyObject *args)
{
    unsigned long long own, opp, starters;
    int mode;
    if (!PyArg_ParseTuple(args, "KKKi", &own, &opp, &starters, &mode))
        return NULL;
    if (!fn.ready) {
        PyErr_SetString(PyExc_RuntimeError, "fanorona_chains before fanorona_setup");
        return NULL;
    }
    if (mode < FN_OPTIONAL || mode > FN_SINGLE) {
        PyErr_Format(PyExc_ValueError, "fanorona_chains: chain mode %d is not 0, 1 or 2", mode);
        return NULL;
    }
    uint64_t cells = fn.cells;
    if ((own | opp | starters) & ~cells || own & opp || starters & ~own) {
        PyErr_SetString(PyExc_ValueError, "fanorona_chains: masks off the board, overlapping, or starters not own");
        return NULL;
    }
    FnWalk w = {.out = PyList_New(0), .mode = mode};
    if (!w.out)
        return NULL;
    uint64_t free = cells & ~(own | opp);
    while (starters) {
        w.frm = __builtin_ctzll(starters);
        starters &= starters - 1;
        if (fn_extend(&w, w.frm, free, opp, -1, 0, 0) < 0) {
            Py_DECREF(w.out);
            return NULL;
        }
    }
    return w.out;
}
