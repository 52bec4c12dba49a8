/* Conversions at the boundary: masks, moves and DraughtsState objects in and out of native form. */
#include "glue.h"

PyObject *SIXTY_FOUR, *S_OWN, *S_OPP, *S_KINGS, *S_TURN, *S_PLY, *S_PROGRESS, *S_CAPTURE, *S_DRAWN, *S_RUNS,
    *S_HISTORY, *S_RANDOM;

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

/* --- DraughtsState objects ----------------------------------------------------------------
 * A state is read into a native position (its masks, counters, Frisian runs and repetition
 * history) and written back after the work.  The history is written back as the part of
 * the old tuple that is still its start, plus the keys added. */
static int get_i64(PyObject *state, PyObject *name, int64_t *out)
{
    PyObject *v = PyObject_GetAttr(state, name);
    if (!v)
        return -1;
    int r = to_i64(v, out);
    Py_DECREF(v);
    return r;
}

static int get_mask(PyObject *state, PyObject *name, u128 *out)
{
    PyObject *v = PyObject_GetAttr(state, name);
    if (!v)
        return -1;
    int r = to_u128(v, out);
    Py_DECREF(v);
    return r;
}

int read_state(const Rules *r, PyObject *state, StateIn *s)
{
    int64_t turn;
    memset(s, 0, sizeof(*s));
    if (get_mask(state, S_OWN, &s->own) < 0 || get_mask(state, S_OPP, &s->opp) < 0
        || get_mask(state, S_KINGS, &s->kings) < 0 || get_i64(state, S_TURN, &turn) < 0
        || get_i64(state, S_PLY, &s->ply) < 0 || get_i64(state, S_PROGRESS, &s->progress_ply) < 0
        || get_i64(state, S_CAPTURE, &s->capture_ply) < 0)
        return -1;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "state.turn must be 0 or 1");
        return -1;
    }
    s->turn = (int)turn;
    PyObject *drawn = PyObject_GetAttr(state, S_DRAWN);
    if (!drawn)
        return -1;
    s->drawn = PyObject_IsTrue(drawn);
    Py_DECREF(drawn);
    if (s->drawn < 0)
        return -1;
    PyObject *runs = PyObject_GetAttr(state, S_RUNS);
    if (!runs)
        return -1;
    if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) != 4) {
        Py_DECREF(runs);
        PyErr_SetString(PyExc_ValueError, "state.runs must be a tuple of four ints");
        return -1;
    }
    int bad = to_u128(PyTuple_GET_ITEM(runs, 0), &s->run_sq[0]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 1), &s->run_n[0]) < 0
              || to_u128(PyTuple_GET_ITEM(runs, 2), &s->run_sq[1]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 3), &s->run_n[1]) < 0;
    Py_DECREF(runs);
    if (bad)
        return -1;
    RawArgs a = {s->own, s->opp, s->kings, s->run_sq[0] | s->run_sq[1], s->turn};
    if (!masks_fit(r, &a))
        return -1;
    s->history = PyObject_GetAttr(state, S_HISTORY);
    if (!s->history)
        return -1;
    if (!PyTuple_Check(s->history)) {
        Py_CLEAR(s->history);
        PyErr_SetString(PyExc_ValueError, "state.history must be a tuple");
        return -1;
    }
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

static int set_attr_steal(PyObject *state, PyObject *name, PyObject *value)
{
    if (!value)
        return -1;
    int r = PyObject_SetAttr(state, name, value);
    Py_DECREF(value);
    return r;
}

/* Write the position back; `old_hist` keys of the old tuple are still the history's start. */
static int write_state(PyObject *state, const StateIn *in, u128 own, u128 opp, u128 kings, int turn, int64_t ply,
                       int64_t progress, int64_t capture, int drawn, const u128 run_sq[2], const int64_t run_n[2],
                       size_t old_hist, PyObject *new_keys)
{
    if (set_attr_steal(state, S_OWN, from_u128(own)) < 0 || set_attr_steal(state, S_OPP, from_u128(opp)) < 0
        || set_attr_steal(state, S_KINGS, from_u128(kings)) < 0 || set_attr_steal(state, S_TURN, PyLong_FromLong(turn)) < 0
        || set_attr_steal(state, S_PLY, PyLong_FromLongLong(ply)) < 0
        || set_attr_steal(state, S_PROGRESS, PyLong_FromLongLong(progress)) < 0
        || set_attr_steal(state, S_CAPTURE, PyLong_FromLongLong(capture)) < 0
        || PyObject_SetAttr(state, S_DRAWN, drawn ? Py_True : Py_False) < 0)
        return -1;
    if (run_sq[0] != in->run_sq[0] || run_sq[1] != in->run_sq[1] || run_n[0] != in->run_n[0] || run_n[1] != in->run_n[1]) {
        PyObject *runs = Py_BuildValue("(NLNL)", from_u128(run_sq[0]), (long long)run_n[0], from_u128(run_sq[1]),
                                       (long long)run_n[1]);
        if (set_attr_steal(state, S_RUNS, runs) < 0)
            return -1;
    }
    Py_ssize_t n_old = (Py_ssize_t)old_hist, n_new = PyList_GET_SIZE(new_keys);
    if (n_old == PyTuple_GET_SIZE(in->history) && n_new == 0)
        return 0;
    PyObject *hist = PyTuple_New(n_old + n_new);
    if (!hist)
        return -1;
    for (Py_ssize_t i = 0; i < n_old; i++) {
        PyObject *item = PyTuple_GET_ITEM(in->history, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(hist, i, item);
    }
    for (Py_ssize_t i = 0; i < n_new; i++) {
        PyObject *item = PyList_GET_ITEM(new_keys, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(hist, n_old + i, item);
    }
    return set_attr_steal(state, S_HISTORY, hist);
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
    int store_##W(PyObject *state, const StateIn *in, Pos##W *p)                                    \
    {                                                                                                      \
        size_t kept = p->n_kept;                                                                           \
        PyObject *keys = PyList_New(0);                                                                    \
        if (!keys) return -1;                                                                              \
        for (size_t i = kept; i < p->n_hist; i++) {                                                        \
            PyObject *key = key_tuple(p->hist[i].turn, p->hist[i].own, p->hist[i].opp, p->hist[i].kings); \
            if (!key || PyList_Append(keys, key) < 0) { Py_XDECREF(key); Py_DECREF(keys); return -1; }     \
            Py_DECREF(key);                                                                                \
        }                                                                                                  \
        u128 sq[2] = {p->run_sq[0], p->run_sq[1]};                                                         \
        int r = write_state(state, in, p->own, p->opp, p->kings, p->turn, p->ply, p->progress_ply,         \
                            p->capture_ply, p->drawn, sq, p->run_n, kept, keys);                           \
        Py_DECREF(keys);                                                                                   \
        return r;                                                                                          \
    }

STATE_OPS(64, u64)
STATE_OPS(128, u128)



int intern_names(void)
{
    SIXTY_FOUR = PyLong_FromLong(64);
    S_OWN = PyUnicode_InternFromString("own");
    S_OPP = PyUnicode_InternFromString("opp");
    S_KINGS = PyUnicode_InternFromString("kings");
    S_TURN = PyUnicode_InternFromString("turn");
    S_PLY = PyUnicode_InternFromString("ply");
    S_PROGRESS = PyUnicode_InternFromString("progress_ply");
    S_CAPTURE = PyUnicode_InternFromString("capture_ply");
    S_DRAWN = PyUnicode_InternFromString("drawn");
    S_RUNS = PyUnicode_InternFromString("runs");
    S_HISTORY = PyUnicode_InternFromString("history");
    S_RANDOM = PyUnicode_InternFromString("random");
    return SIXTY_FOUR && S_OWN && S_OPP && S_KINGS && S_TURN && S_PLY && S_PROGRESS && S_CAPTURE && S_DRAWN
                   && S_RUNS && S_HISTORY && S_RANDOM ? 0 : -1;
}

PyObject *outcome_value(double v)
{
    if (v < 0)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}
