/* The search core's backend for a game on its Python rules: positions are State objects and
 * moves whatever its legal_moves() lists; every operation is a call of the rules contract
 * (rules/base.py), made with the GIL held.  A call that raises leaves its exception set and
 * returns the error value the Backend table documents. */
#include "glue.h"

#include <math.h>

typedef struct {
    PyObject *rng;        /* the random.Random handed to the game's own playout */
    PyObject *oracle;     /* the endgame tables' probe(state) -> hit or None; NULL: none */
} PyCtx;

static PyObject *N_COPY, *N_TO_MOVE, *N_LEGAL, *N_PLAY, *N_OUTCOME, *N_EVALUATE, *N_HEURISTIC, *N_IS_CAPTURE,
    *N_PLAYOUT, *N_RESULT, *N_PLIES;

static int intern_python_names(void)
{
    if (N_COPY)
        return 0;
    N_COPY = PyUnicode_InternFromString("copy");
    N_TO_MOVE = PyUnicode_InternFromString("to_move");
    N_LEGAL = PyUnicode_InternFromString("legal_moves");
    N_PLAY = PyUnicode_InternFromString("play");
    N_OUTCOME = PyUnicode_InternFromString("outcome");
    N_EVALUATE = PyUnicode_InternFromString("evaluate");
    N_HEURISTIC = PyUnicode_InternFromString("heuristic");
    N_IS_CAPTURE = PyUnicode_InternFromString("is_capture");
    N_PLAYOUT = PyUnicode_InternFromString("playout");
    N_RESULT = PyUnicode_InternFromString("result");
    N_PLIES = PyUnicode_InternFromString("plies");
    return N_COPY && N_TO_MOVE && N_LEGAL && N_PLAY && N_OUTCOME && N_EVALUATE && N_HEURISTIC && N_IS_CAPTURE
                   && N_PLAYOUT && N_RESULT && N_PLIES ? 0 : -1;
}

#define STATE(pos) (*(PyObject **)(pos))

static int p_pos_init(Backend *b, void *pos)
{
    (void)b;
    STATE(pos) = NULL;
    return 0;
}

static void p_pos_free(Backend *b, void *pos)
{
    (void)b;
    Py_CLEAR(STATE(pos));
}

static int p_pos_copy(Backend *b, void *dst, const void *src)
{
    (void)b;
    PyObject *copy = PyObject_CallMethodNoArgs(*(PyObject *const *)src, N_COPY);
    if (!copy)
        return -1;
    Py_XSETREF(STATE(dst), copy);
    return 0;
}

static int p_to_move(Backend *b, const void *pos)
{
    (void)b;
    PyObject *v = PyObject_GetAttr(*(PyObject *const *)pos, N_TO_MOVE);
    if (!v)
        return -1;
    long who = PyLong_AsLong(v);
    Py_DECREF(v);
    if (who == -1 && PyErr_Occurred())
        return -1;
    if (who != 0 && who != 1) {
        PyErr_Format(PyExc_ValueError, "state.to_move is %ld, not 0 or 1", who);
        return -1;
    }
    return (int)who;
}

static int p_list(Backend *b, void *pos, MoveBuf *out)
{
    (void)b;
    PyObject *moves = PyObject_CallMethodNoArgs(STATE(pos), N_LEGAL);
    if (!moves)
        return -1;
    PyObject *seq = PySequence_Fast(moves, "legal_moves() must return a sequence");
    Py_DECREF(moves);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        MoveSlot slot;
        memset(&slot, 0, sizeof(slot));
        slot.obj = items[i];
        Py_INCREF(items[i]);
        if (movebuf_push(out, &slot) < 0) {
            Py_DECREF(items[i]);
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int p_play(Backend *b, void *pos, const MoveSlot *m)
{
    (void)b;
    PyObject *r = PyObject_CallMethodOneArg(STATE(pos), N_PLAY, (PyObject *)m->obj);
    if (!r)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* A result for the first player in [0, 1] (None: -1), -2 on an error. */
static double result_of(PyObject *v, int none_allowed, const char *what)
{
    if (!v)
        return -2.0;
    if (v == Py_None && none_allowed) {
        Py_DECREF(v);
        return -1.0;
    }
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred())
        return -2.0;
    if (!(x >= 0.0 && x <= 1.0)) {
        PyErr_Format(PyExc_ValueError, "%s returned %R, outside [0, 1]", what, PyFloat_FromDouble(x));
        return -2.0;
    }
    return x;
}

static double p_outcome(Backend *b, void *pos)
{
    (void)b;
    return result_of(PyObject_CallMethodNoArgs(STATE(pos), N_OUTCOME), 1, "outcome()");
}

static double p_evaluate(Backend *b, void *pos)
{
    (void)b;
    double v = result_of(PyObject_CallMethodNoArgs(STATE(pos), N_EVALUATE), 0, "evaluate()");
    return v;
}

static double p_heuristic(Backend *b, void *pos, const MoveSlot *m)
{
    (void)b;
    PyObject *v = PyObject_CallMethodOneArg(STATE(pos), N_HEURISTIC, (PyObject *)m->obj);
    if (!v)
        return NAN;
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred())
        return NAN;
    return x;
}

static int p_is_capture(Backend *b, void *pos, const MoveSlot *m)
{
    (void)b;
    PyObject *v = PyObject_CallMethodOneArg(STATE(pos), N_IS_CAPTURE, (PyObject *)m->obj);
    if (!v)
        return -1;
    int yes = PyObject_IsTrue(v);
    Py_DECREF(v);
    return yes;
}

static double p_random_playout(Backend *b, void *pos, int64_t plies, Rand *rng)
{
    (void)rng;          /* the game's own playout draws from its random.Random */
    PyCtx *c = b->ctx;
    PyObject *n = PyLong_FromLongLong(plies);
    if (!n)
        return -2.0;
    PyObject *args[3] = {STATE(pos), c->rng, n};
    PyObject *v = PyObject_VectorcallMethod(N_PLAYOUT, args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(n);
    return result_of(v, 1, "playout()");
}

static int p_oracle(Backend *b, void *pos, double *result, int *plies)
{
    PyCtx *c = b->ctx;
    PyObject *hit = PyObject_CallOneArg(c->oracle, STATE(pos));
    if (!hit)
        return -1;
    if (hit == Py_None) {
        Py_DECREF(hit);
        return 0;
    }
    double r = result_of(PyObject_GetAttr(hit, N_RESULT), 0, "the oracle's result");
    PyObject *p = PyObject_GetAttr(hit, N_PLIES);
    Py_DECREF(hit);
    if (r < 0.0 || !p) {
        Py_XDECREF(p);
        return -1;
    }
    long n = PyLong_AsLong(p);
    Py_DECREF(p);
    if (n == -1 && PyErr_Occurred())
        return -1;
    *result = r;
    *plies = (int)n;
    return 1;
}

static uint64_t p_move_hash(Backend *b, const MoveSlot *m)
{
    (void)b;
    Py_hash_t h = PyObject_Hash((PyObject *)m->obj);
    if (h == -1 && PyErr_Occurred())
        PyErr_Clear();       /* an unhashable move: every such move shares one MAST bucket */
    return (uint64_t)h * 0x9e3779b97f4a7c15ULL;
}

static int p_move_equal(Backend *b, const MoveSlot *x, const MoveSlot *y)
{
    (void)b;
    if (x->obj == y->obj)
        return 1;
    return PyObject_RichCompareBool((PyObject *)x->obj, (PyObject *)y->obj, Py_EQ);
}

static void p_move_retain(Backend *b, MoveSlot *m)
{
    (void)b;
    Py_XINCREF((PyObject *)m->obj);
}

static void p_move_release(Backend *b, MoveSlot *m)
{
    (void)b;
    PyObject *obj = m->obj;
    m->obj = NULL;
    Py_XDECREF(obj);
}

/* A backend over Python states: `rng` for the game's playouts, `oracle` (may be None). */
int backend_python_init(Backend *b, PyObject *rng, PyObject *oracle, int compulsory_captures)
{
    if (intern_python_names() < 0)
        return -1;
    PyCtx *c = calloc(1, sizeof(PyCtx));
    if (!c) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(rng);
    c->rng = rng;
    if (oracle && oracle != Py_None) {
        Py_INCREF(oracle);
        c->oracle = oracle;
    }
    memset(b, 0, sizeof(*b));
    b->ctx = c;
    b->pos_size = sizeof(PyObject *);
    b->compulsory_captures = compulsory_captures;
    b->retains_moves = 1;
    b->pos_init = p_pos_init;
    b->pos_free = p_pos_free;
    b->pos_copy = p_pos_copy;
    b->to_move = p_to_move;
    b->list = p_list;
    b->play = p_play;
    b->outcome = p_outcome;
    b->evaluate = p_evaluate;
    b->heuristic = p_heuristic;
    b->is_capture = p_is_capture;
    b->random_playout = p_random_playout;
    b->oracle = c->oracle ? p_oracle : NULL;
    b->move_hash = p_move_hash;
    b->move_equal = p_move_equal;
    b->move_retain = p_move_retain;
    b->move_release = p_move_release;
    return 0;
}

void backend_python_free(Backend *b)
{
    PyCtx *c = b->ctx;
    if (c) {
        Py_XDECREF(c->rng);
        Py_XDECREF(c->oracle);
        free(c);
    }
    b->ctx = NULL;
}
