/* Conversions at the boundary: masks, moves and DraughtsState's raw tuples in and out of native form. */
#include "glue.h"

PyObject *SIXTY_FOUR, *S_RANDOM;

int to_u128(PyObject *o, u128 *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a board mask must be an int, not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    u64 lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (u64)-1 && PyErr_Occurred())
        return -1;
    PyObject *high = PyNumber_Rshift(o, SIXTY_FOUR);
    if (!high)
        return -1;
    u64 hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (u64)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_OverflowError, "a board mask must be an int of 0 to 128 bits");
        return -1;
    }
    *out = ((u128)hi << 64) | lo;
    return 0;
}

PyObject *from_u128(u128 x)
{
    u64 hi = (u64)(x >> 64), lo = (u64)x;
    if (!hi)
        return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = NULL, *shifted = NULL, *out = NULL;
    if (h && (l = PyLong_FromUnsignedLongLong(lo)) && (shifted = PyNumber_Lshift(h, SIXTY_FOUR)))
        out = PyNumber_Or(shifted, l);
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(shifted);
    return out;
}

int to_i64(PyObject *o, int64_t *out)
{
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

int masks_fit(const Rules *r, const RawArgs *a)
{
    u128 all = a->own | a->opp | a->kings | a->frozen;
    if (all & ~r->points) {
        PyErr_SetString(PyExc_ValueError, "a board mask has a bit that is not a square of this board");
        return 0;
    }
    if ((a->own & a->opp) || (a->kings & ~(a->own | a->opp))) {
        PyErr_SetString(PyExc_ValueError, "the masks overlap (own & opp) or a king stands on no piece");
        return 0;
    }
    return 1;
}

PyObject *move_tuple(u128 frm, u128 to, u128 cap, int crowned)
{
    PyObject *t = PyTuple_New(4);
    if (!t)
        return NULL;
    PyObject *a = from_u128(frm), *b = from_u128(to), *c = from_u128(cap);
    if (!a || !b || !c) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    PyTuple_SET_ITEM(t, 2, c);
    PyObject *flag = crowned ? Py_True : Py_False;
    Py_INCREF(flag);
    PyTuple_SET_ITEM(t, 3, flag);
    return t;
}

int parse_move(PyObject *o, u128 *frm, u128 *to, u128 *cap, int *crowned)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) {
        PyErr_SetString(PyExc_TypeError, "a draughts move is a tuple (from, to, captured, crowned)");
        return -1;
    }
    if (to_u128(PyTuple_GET_ITEM(o, 0), frm) < 0 || to_u128(PyTuple_GET_ITEM(o, 1), to) < 0
        || to_u128(PyTuple_GET_ITEM(o, 2), cap) < 0)
        return -1;
    int c = PyObject_IsTrue(PyTuple_GET_ITEM(o, 3));
    if (c < 0)
        return -1;
    *crowned = c;
    return 0;
}

/* --- DraughtsState's raw tuple -------------------------------------------------------------
 * A state crosses the boundary as one tuple, DraughtsState.raw(): (own, opp, kings, turn, ply,
 * progress_ply, capture_ply, drawn, runs, history), runs the Frisian (square, count) pairs of
 * both players and history the keys (turn, own, opp, kings) since the last irreversible move.
 * It is read into a native position, and a position is written out as a new tuple whose
 * history is the part of the old tuple that is still its start, plus the keys added. */
enum { RAW_OWN, RAW_OPP, RAW_KINGS, RAW_TURN, RAW_PLY, RAW_PROGRESS, RAW_CAPTURE, RAW_DRAWN, RAW_RUNS, RAW_HISTORY,
       RAW_SIZE };

int read_state(const Rules *r, PyObject *raw, StateIn *s)
{
    int64_t turn;
    memset(s, 0, sizeof(*s));
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != RAW_SIZE) {
        PyErr_SetString(PyExc_TypeError, "a draughts position is DraughtsState.raw(): a tuple of 10 items");
        return -1;
    }
    PyObject **item = &PyTuple_GET_ITEM(raw, 0);
    if (to_u128(item[RAW_OWN], &s->own) < 0 || to_u128(item[RAW_OPP], &s->opp) < 0
        || to_u128(item[RAW_KINGS], &s->kings) < 0 || to_i64(item[RAW_TURN], &turn) < 0
        || to_i64(item[RAW_PLY], &s->ply) < 0 || to_i64(item[RAW_PROGRESS], &s->progress_ply) < 0
        || to_i64(item[RAW_CAPTURE], &s->capture_ply) < 0)
        return -1;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "the position's turn must be 0 or 1");
        return -1;
    }
    s->turn = (int)turn;
    s->drawn = PyObject_IsTrue(item[RAW_DRAWN]);
    if (s->drawn < 0)
        return -1;
    PyObject *runs = item[RAW_RUNS];
    if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) != 4) {
        PyErr_SetString(PyExc_ValueError, "the position's runs must be a tuple of four ints");
        return -1;
    }
    if (to_u128(PyTuple_GET_ITEM(runs, 0), &s->run_sq[0]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 1), &s->run_n[0]) < 0
        || to_u128(PyTuple_GET_ITEM(runs, 2), &s->run_sq[1]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 3), &s->run_n[1]) < 0)
        return -1;
    RawArgs a = {s->own, s->opp, s->kings, s->run_sq[0] | s->run_sq[1], s->turn};
    if (!masks_fit(r, &a))
        return -1;
    if (!PyTuple_Check(item[RAW_HISTORY])) {
        PyErr_SetString(PyExc_ValueError, "the position's history must be a tuple");
        return -1;
    }
    s->history = Py_NewRef(item[RAW_HISTORY]);
    return 0;
}

/* One key (turn, own, opp, kings) of the history tuple. */
static int read_key(PyObject *key, int *turn, u128 *own, u128 *opp, u128 *kings)
{
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 4) {
        PyErr_SetString(PyExc_ValueError, "state.history: a key is (turn, own, opp, kings)");
        return -1;
    }
    long t = PyLong_AsLong(PyTuple_GET_ITEM(key, 0));
    if (t == -1 && PyErr_Occurred())
        return -1;
    *turn = (int)t;
    return to_u128(PyTuple_GET_ITEM(key, 1), own) < 0 || to_u128(PyTuple_GET_ITEM(key, 2), opp) < 0
                   || to_u128(PyTuple_GET_ITEM(key, 3), kings) < 0 ? -1 : 0;
}

static PyObject *key_tuple(int turn, u128 own, u128 opp, u128 kings)
{
    PyObject *t = PyTuple_New(4), *items[4] = {PyLong_FromLong(turn), from_u128(own), from_u128(opp), from_u128(kings)};
    if (!t || !items[0] || !items[1] || !items[2] || !items[3]) {
        Py_XDECREF(t);
        for (int i = 0; i < 4; i++)
            Py_XDECREF(items[i]);
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(t, i, items[i]);
    return t;
}

/* The history of a position written out: the old tuple's first `old_hist` keys (none without
 * `in`), then `new_keys`. */
static PyObject *history_tuple(const StateIn *in, size_t old_hist, PyObject *new_keys)
{
    Py_ssize_t n_old = in ? (Py_ssize_t)old_hist : 0, n_new = PyList_GET_SIZE(new_keys);
    if (in && n_old == PyTuple_GET_SIZE(in->history) && n_new == 0)
        return Py_NewRef(in->history);
    PyObject *hist = PyTuple_New(n_old + n_new);
    if (!hist)
        return NULL;
    for (Py_ssize_t i = 0; i < n_old; i++)
        PyTuple_SET_ITEM(hist, i, Py_NewRef(PyTuple_GET_ITEM(in->history, i)));
    for (Py_ssize_t i = 0; i < n_new; i++)
        PyTuple_SET_ITEM(hist, n_old + i, Py_NewRef(PyList_GET_ITEM(new_keys, i)));
    return hist;
}

/* A position as DraughtsState.raw() gives it. */
static PyObject *raw_tuple(const StateIn *in, u128 own, u128 opp, u128 kings, int turn, int64_t ply, int64_t progress,
                           int64_t capture, int drawn, const u128 run_sq[2], const int64_t run_n[2], size_t old_hist,
                           PyObject *new_keys)
{
    PyObject *hist = history_tuple(in, old_hist, new_keys);
    if (!hist)
        return NULL;
    return Py_BuildValue("(NNNiLLLO(NLNL)N)", from_u128(own), from_u128(opp), from_u128(kings), turn, (long long)ply,
                         (long long)progress, (long long)capture, drawn ? Py_True : Py_False, from_u128(run_sq[0]),
                         (long long)run_n[0], from_u128(run_sq[1]), (long long)run_n[1], hist);
}

#define STATE_OPS(W, BB)                                                                                   \
    int load_##W(const StateIn *in, Pos##W *p)                                                      \
    {                                                                                                      \
        memset(p, 0, sizeof(*p));                                                                          \
        p->own = (BB)in->own; p->opp = (BB)in->opp; p->kings = (BB)in->kings; p->turn = in->turn;          \
        p->ply = in->ply; p->progress_ply = in->progress_ply; p->capture_ply = in->capture_ply;            \
        p->drawn = in->drawn;                                                                              \
        p->run_sq[0] = (BB)in->run_sq[0]; p->run_sq[1] = (BB)in->run_sq[1];                                \
        p->run_n[0] = in->run_n[0]; p->run_n[1] = in->run_n[1];                                            \
        Py_ssize_t n = PyTuple_GET_SIZE(in->history);                                                      \
        if (n) {                                                                                           \
            p->hist = malloc((size_t)n * sizeof(Key##W));                                                  \
            if (!p->hist) { PyErr_NoMemory(); return -1; }                                                 \
            p->cap_hist = (size_t)n;                                                                       \
        }                                                                                                  \
        for (Py_ssize_t i = 0; i < n; i++) {                                                               \
            u128 a, b, c; int t;                                                                           \
            if (read_key(PyTuple_GET_ITEM(in->history, i), &t, &a, &b, &c) < 0) {                          \
                free(p->hist); p->hist = NULL; return -1;                                                  \
            }                                                                                              \
            p->hist[i].turn = t; p->hist[i].own = (BB)a; p->hist[i].opp = (BB)b; p->hist[i].kings = (BB)c; \
        }                                                                                                  \
        p->n_hist = p->n_kept = (size_t)n;                                                                 \
        return 0;                                                                                          \
    }                                                                                                      \
    PyObject *raw_##W(const StateIn *in, const Pos##W *p)                                                 \
    {                                                                                                      \
        size_t kept = in ? p->n_kept : 0;                                                                  \
        PyObject *keys = PyList_New(0);                                                                    \
        if (!keys) return NULL;                                                                            \
        for (size_t i = kept; i < p->n_hist; i++) {                                                        \
            PyObject *key = key_tuple(p->hist[i].turn, p->hist[i].own, p->hist[i].opp, p->hist[i].kings); \
            if (!key || PyList_Append(keys, key) < 0) { Py_XDECREF(key); Py_DECREF(keys); return NULL; }   \
            Py_DECREF(key);                                                                                \
        }                                                                                                  \
        u128 sq[2] = {p->run_sq[0], p->run_sq[1]};                                                         \
        PyObject *raw = raw_tuple(in, p->own, p->opp, p->kings, p->turn, p->ply, p->progress_ply,          \
                                  p->capture_ply, p->drawn, sq, p->run_n, kept, keys);                     \
        Py_DECREF(keys);                                                                                   \
        return raw;                                                                                        \
    }

STATE_OPS(64, u64)
STATE_OPS(128, u128)



int intern_names(void)
{
    SIXTY_FOUR = PyLong_FromLong(64);
    S_RANDOM = PyUnicode_InternFromString("random");
    return SIXTY_FOUR && S_RANDOM ? 0 : -1;
}

PyObject *outcome_value(double v)
{
    if (v < 0)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}
