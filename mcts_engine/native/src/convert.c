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
    PosFields *f = &s->pos;
    memset(s, 0, sizeof(*s));
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != RAW_SIZE) {
        PyErr_SetString(PyExc_TypeError, "a draughts position is DraughtsState.raw(): a tuple of 10 items");
        return -1;
    }
    PyObject **item = &PyTuple_GET_ITEM(raw, 0);
    if (to_u128(item[RAW_OWN], &f->own) < 0 || to_u128(item[RAW_OPP], &f->opp) < 0
        || to_u128(item[RAW_KINGS], &f->kings) < 0 || to_i64(item[RAW_TURN], &turn) < 0
        || to_i64(item[RAW_PLY], &f->ply) < 0 || to_i64(item[RAW_PROGRESS], &f->progress_ply) < 0
        || to_i64(item[RAW_CAPTURE], &f->capture_ply) < 0)
        return -1;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "the position's turn must be 0 or 1");
        return -1;
    }
    f->turn = (int)turn;
    f->drawn = PyObject_IsTrue(item[RAW_DRAWN]);
    if (f->drawn < 0)
        return -1;
    PyObject *runs = item[RAW_RUNS];
    if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) != 4) {
        PyErr_SetString(PyExc_ValueError, "the position's runs must be a tuple of four ints");
        return -1;
    }
    if (to_u128(PyTuple_GET_ITEM(runs, 0), &f->run_sq[0]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 1), &f->run_n[0]) < 0
        || to_u128(PyTuple_GET_ITEM(runs, 2), &f->run_sq[1]) < 0 || to_i64(PyTuple_GET_ITEM(runs, 3), &f->run_n[1]) < 0)
        return -1;
    RawArgs a = {f->own, f->opp, f->kings, f->run_sq[0] | f->run_sq[1], f->turn};
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
static int read_key(PyObject *key, KernelKey *k)
{
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 4) {
        PyErr_SetString(PyExc_ValueError, "state.history: a key is (turn, own, opp, kings)");
        return -1;
    }
    long t = PyLong_AsLong(PyTuple_GET_ITEM(key, 0));
    if (t == -1 && PyErr_Occurred())
        return -1;
    k->turn = (int)t;
    return to_u128(PyTuple_GET_ITEM(key, 1), &k->own) < 0 || to_u128(PyTuple_GET_ITEM(key, 2), &k->opp) < 0
                   || to_u128(PyTuple_GET_ITEM(key, 3), &k->kings) < 0 ? -1 : 0;
}

static PyObject *key_tuple(const KernelKey *k)
{
    PyObject *t = PyTuple_New(4);
    PyObject *items[4] = {PyLong_FromLong(k->turn), from_u128(k->own), from_u128(k->opp), from_u128(k->kings)};
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

/* A position's fields as DraughtsState.raw() gives them, with its history. */
static PyObject *raw_tuple(const StateIn *in, const PosFields *f, size_t old_hist, PyObject *new_keys)
{
    PyObject *hist = history_tuple(in, old_hist, new_keys);
    if (!hist)
        return NULL;
    return Py_BuildValue("(NNNiLLLO(NLNL)N)", from_u128(f->own), from_u128(f->opp), from_u128(f->kings), f->turn,
                         (long long)f->ply, (long long)f->progress_ply, (long long)f->capture_ply,
                         f->drawn ? Py_True : Py_False, from_u128(f->run_sq[0]), (long long)f->run_n[0],
                         from_u128(f->run_sq[1]), (long long)f->run_n[1], hist);
}

int load_pos(const KernelWord *w, const StateIn *in, void *pos)
{
    Py_ssize_t n = PyTuple_GET_SIZE(in->history);
    if (w->pos_make(pos, &in->pos, (size_t)n) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        KernelKey k;
        if (read_key(PyTuple_GET_ITEM(in->history, i), &k) < 0) {
            w->pos_free(pos);
            return -1;
        }
        w->pos_set_key(pos, (size_t)i, &k);
    }
    return 0;
}

PyObject *raw_pos(const KernelWord *w, const StateIn *in, const void *pos)
{
    PosFields f;
    size_t n_hist, n_kept;
    w->pos_get(pos, &f, &n_hist, &n_kept);
    size_t kept = in ? n_kept : 0;
    PyObject *keys = PyList_New(0);
    if (!keys)
        return NULL;
    for (size_t i = kept; i < n_hist; i++) {
        KernelKey k = w->pos_key(pos, i);
        PyObject *key = key_tuple(&k);
        if (!key || PyList_Append(keys, key) < 0) {
            Py_XDECREF(key);
            Py_DECREF(keys);
            return NULL;
        }
        Py_DECREF(key);
    }
    PyObject *raw = raw_tuple(in, &f, kept, keys);
    Py_DECREF(keys);
    return raw;
}

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
