/* The C game interface for a game on its Python rules: positions are State objects and moves
 * whatever its legal_moves() lists; every operation is a call of the rules contract
 * (rules/base.py), made with the GIL held (GAME_PYTHON: one searcher, on the calling thread).
 * A call that raises leaves its exception set and returns GAME_ERROR.  This is how a game
 * written only in Python reaches the search core; every game with native rules fills the same
 * interface in C instead. */
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
#define CSTATE(pos) (*(PyObject *const *)(pos))

static int p_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    STATE(pos) = NULL;
    return GAME_OK;
}

static void p_pos_free(const GameIface *g, void *pos)
{
    (void)g;
    Py_CLEAR(STATE(pos));
}

static int p_copy(const GameIface *g, void *dst, const void *src)
{
    (void)g;
    PyObject *copy = PyObject_CallMethodNoArgs(CSTATE(src), N_COPY);
    if (!copy)
        return GAME_ERROR;
    Py_XSETREF(STATE(dst), copy);
    return GAME_OK;
}

static int p_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    PyObject *v = PyObject_GetAttr(CSTATE(pos), N_TO_MOVE);
    if (!v)
        return GAME_ERROR;
    long who = PyLong_AsLong(v);
    Py_DECREF(v);
    if (who == -1 && PyErr_Occurred())
        return GAME_ERROR;
    if (who != 0 && who != 1) {
        PyErr_Format(PyExc_ValueError, "state.to_move is %ld, not 0 or 1", who);
        return GAME_ERROR;
    }
    *player = (int)who;
    return GAME_OK;
}

static int p_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    (void)g;
    PyObject *moves = PyObject_CallMethodNoArgs(STATE(pos), N_LEGAL);
    if (!moves)
        return GAME_ERROR;
    PyObject *seq = PySequence_Fast(moves, "legal_moves() must return a sequence");
    Py_DECREF(moves);
    if (!seq)
        return GAME_ERROR;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        MoveSlot slot;
        memset(&slot, 0, sizeof(slot));
        slot.obj = Py_NewRef(items[i]);
        if (movebuf_push(out, &slot) < 0) {
            Py_DECREF(items[i]);
            Py_DECREF(seq);
            PyErr_NoMemory();
            return GAME_ERROR;
        }
    }
    Py_DECREF(seq);
    return GAME_OK;
}

static int p_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    PyObject *r = PyObject_CallMethodOneArg(STATE(pos), N_PLAY, (PyObject *)m->obj);
    if (!r)
        return GAME_ERROR;
    Py_DECREF(r);
    return GAME_OK;
}

/* A result for the first player in [0, 1] from `v` (a new reference, NULL: the call raised):
 * GAME_OVER, GAME_RUNNING for None where `none_allowed`, or GAME_ERROR. */
static int result_of(PyObject *v, int none_allowed, const char *what, double *out)
{
    if (!v)
        return GAME_ERROR;
    if (v == Py_None && none_allowed) {
        Py_DECREF(v);
        return GAME_RUNNING;
    }
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred())
        return GAME_ERROR;
    if (!(x >= 0.0 && x <= 1.0)) {
        PyErr_Format(PyExc_ValueError, "%s returned %R, outside [0, 1]", what, PyFloat_FromDouble(x));
        return GAME_ERROR;
    }
    *out = x;
    return GAME_OVER;
}

static int p_outcome(const GameIface *g, void *pos, double *result)
{
    (void)g;
    return result_of(PyObject_CallMethodNoArgs(STATE(pos), N_OUTCOME), 1, "outcome()", result);
}

static int p_evaluate(const GameIface *g, void *pos, double *value)
{
    (void)g;
    return result_of(PyObject_CallMethodNoArgs(STATE(pos), N_EVALUATE), 0, "evaluate()", value) < 0 ? GAME_ERROR
                                                                                                   : GAME_OK;
}

static int p_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    (void)g;
    PyObject *v = PyObject_CallMethodOneArg(STATE(pos), N_HEURISTIC, (PyObject *)m->obj);
    if (!v)
        return GAME_ERROR;
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred())
        return GAME_ERROR;
    if (isnan(x)) {
        PyErr_SetString(PyExc_ValueError, "heuristic() returned nan");
        return GAME_ERROR;
    }
    *value = x;
    return GAME_OK;
}

static int p_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    PyObject *v = PyObject_CallMethodOneArg(STATE(pos), N_IS_CAPTURE, (PyObject *)m->obj);
    if (!v)
        return GAME_ERROR;
    int yes = PyObject_IsTrue(v);
    Py_DECREF(v);
    return yes < 0 ? GAME_ERROR : (yes ? GAME_YES : GAME_NO);
}

/* The game's own playout (it draws from its random.Random); the Python loop cannot see the
 * halt flags, so the ply cap alone bounds it. */
static int p_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    (void)rng;
    (void)halt;
    PyCtx *c = g->ctx;
    PyObject *n = PyLong_FromLongLong(max_plies);
    if (!n)
        return GAME_ERROR;
    PyObject *args[3] = {STATE(pos), c->rng, n};
    PyObject *v = PyObject_VectorcallMethod(N_PLAYOUT, args, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(n);
    return result_of(v, 1, "playout()", result);
}

static int p_oracle(const GameIface *g, void *pos, double *result, int *plies)
{
    PyCtx *c = g->ctx;
    PyObject *hit = PyObject_CallOneArg(c->oracle, STATE(pos));
    if (!hit)
        return GAME_ERROR;
    if (hit == Py_None) {
        Py_DECREF(hit);
        return GAME_NO;
    }
    int r = result_of(PyObject_GetAttr(hit, N_RESULT), 0, "the oracle's result", result);
    PyObject *p = PyObject_GetAttr(hit, N_PLIES);
    Py_DECREF(hit);
    if (r < 0 || !p) {
        Py_XDECREF(p);
        return GAME_ERROR;
    }
    long n = PyLong_AsLong(p);
    Py_DECREF(p);
    if (n == -1 && PyErr_Occurred())
        return GAME_ERROR;
    *plies = (int)n;
    return GAME_YES;
}

static int p_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    Py_hash_t h = PyObject_Hash((PyObject *)m->obj);
    if (h == -1 && PyErr_Occurred())
        PyErr_Clear();       /* an unhashable move: every such move shares one MAST bucket */
    *hash = (uint64_t)h * 0x9e3779b97f4a7c15ULL;
    return GAME_OK;
}

static int p_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    if (x->obj == y->obj)
        return GAME_YES;
    int eq = PyObject_RichCompareBool((PyObject *)x->obj, (PyObject *)y->obj, Py_EQ);
    return eq < 0 ? GAME_ERROR : (eq ? GAME_YES : GAME_NO);
}

static void p_move_retain(const GameIface *g, MoveSlot *m)
{
    (void)g;
    Py_XINCREF((PyObject *)m->obj);
}

static void p_move_release(const GameIface *g, MoveSlot *m)
{
    (void)g;
    PyObject *obj = m->obj;
    m->obj = NULL;
    Py_XDECREF(obj);
}

static const GameOps PYTHON_OPS = {
    .pos_init = p_pos_init, .pos_free = p_pos_free, .copy = p_copy, .to_move = p_to_move, .legal = p_legal,
    .play = p_play, .outcome = p_outcome, .evaluate = p_evaluate, .heuristic = p_heuristic,
    .is_capture = p_is_capture, .playout = p_playout, .oracle = p_oracle, .move_hash = p_move_hash,
    .move_equal = p_move_equal, .move_retain = p_move_retain, .move_release = p_move_release,
};

static const GameOps PYTHON_OPS_NO_ORACLE = {
    .pos_init = p_pos_init, .pos_free = p_pos_free, .copy = p_copy, .to_move = p_to_move, .legal = p_legal,
    .play = p_play, .outcome = p_outcome, .evaluate = p_evaluate, .heuristic = p_heuristic,
    .is_capture = p_is_capture, .playout = p_playout, .oracle = NULL, .move_hash = p_move_hash,
    .move_equal = p_move_equal, .move_retain = p_move_retain, .move_release = p_move_release,
};

/* --- its glue: the State itself is the position, a move object the move ---------------------- */
static int python_open(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)rules;
    if (!a->rng || a->rng == Py_None) {
        PyErr_SetString(PyExc_TypeError, "a search over Python states needs rng (a random.Random)");
        return -1;
    }
    if (intern_python_names() < 0)
        return -1;
    PyCtx *c = calloc(1, sizeof(PyCtx));
    if (!c) {
        PyErr_NoMemory();
        return -1;
    }
    c->rng = Py_NewRef(a->rng);
    c->oracle = a->oracle && a->oracle != Py_None ? Py_NewRef(a->oracle) : NULL;
    g->ops = c->oracle ? &PYTHON_OPS : &PYTHON_OPS_NO_ORACLE;
    g->ctx = c;
    g->pos_size = sizeof(PyObject *);
    g->flags = GAME_OBJECT_MOVES | GAME_PYTHON | (a->compulsory_captures ? GAME_COMPULSORY_CAPTURES : 0);
    return 0;
}

static void python_close(GameIface *g)
{
    PyCtx *c = g->ctx;
    if (c) {
        Py_XDECREF(c->rng);
        Py_XDECREF(c->oracle);
        free(c);
    }
    g->ctx = NULL;
}

static int python_pos_load(GameIface *g, PyObject *raw, void *pos)
{
    (void)g;
    Py_XSETREF(STATE(pos), Py_NewRef(raw));
    return 0;
}

static PyObject *python_pos_raw(GameIface *g, const void *pos)
{
    (void)g;
    return Py_NewRef(CSTATE(pos));
}

static int python_move_in(GameIface *g, PyObject *move, MoveSlot *out)
{
    (void)g;
    memset(out, 0, sizeof(*out));
    out->obj = move;
    return 0;
}

static PyObject *python_move_out(GameIface *g, const MoveSlot *m)
{
    (void)g;
    return Py_NewRef((PyObject *)m->obj);
}

const GameGlue PYTHON_GLUE = {
    .open = python_open, .close = python_close, .pos_load = python_pos_load, .pos_raw = python_pos_raw,
    .move_in = python_move_in, .move_out = python_move_out,
};
