/* Rules: the base type of every native rules object (a DraughtsKernel, and any game whose rules
 * move to C), and what every such game offers Python through the C game interface alone.
 *
 * A native rules object names its glue (glue.h: how to make a game instance and carry
 * positions and moves across); the methods here open an instance and call game.h's
 * operations, so every native game can be checked against its Python rules the same way
 * (tests/native/test_native_games.py) without a line of its own: game_legal, game_play,
 * game_outcome, game_evaluate, game_heuristic, game_is_capture, game_perft (the GIL
 * released) and game_playouts (bench).
 */
#include "glue.h"

#include <stdlib.h>
#include <string.h>

/* An instance of the game and one position of it, loaded from `raw`; close with `done`. */
typedef struct {
    GameIface g;
    void *pos;
    int opened;
} Instance;

static void done(RulesObject *self, Instance *in)
{
    if (in->pos) {
        in->g.ops->pos_free(&in->g, in->pos);
        free(in->pos);
    }
    if (in->opened)
        self->glue->close(&in->g);
    memset(in, 0, sizeof(*in));
}

static int open_at(RulesObject *self, PyObject *raw, Instance *in)
{
    static const Tables no_tables = {NULL, 0, 0};
    memset(in, 0, sizeof(*in));
    if (!self->glue) {
        PyErr_SetString(PyExc_TypeError, "a Rules object of no game (use a subtype such as DraughtsKernel)");
        return -1;
    }
    GameArgs args = {&no_tables, NULL, NULL, 0};
    if (self->glue->open((PyObject *)self, &args, &in->g) < 0)
        return -1;
    in->opened = 1;
    in->pos = calloc(1, in->g.pos_size);
    if (!in->pos || in->g.ops->pos_init(&in->g, in->pos) < 0 || self->glue->pos_load(&in->g, raw, in->pos) < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        done(self, in);
        return -1;
    }
    return 0;
}

static PyObject *failed(void)
{
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
}

static PyObject *Rules_game_legal(RulesObject *self, PyObject *raw)
{
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    MoveBuf buf = {0};
    PyObject *list = NULL;
    if (in.g.ops->legal(&in.g, in.pos, &buf) == GAME_OK && (list = PyList_New((Py_ssize_t)buf.n)))
        for (size_t i = 0; i < buf.n; i++) {
            PyObject *m = self->glue->move_out(&in.g, &buf.m[i]);
            if (!m) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, m);
        }
    for (size_t i = 0; i < buf.n; i++)
        move_release(&in.g, &buf.m[i]);
    free(buf.m);
    free(buf.h);
    done(self, &in);
    return list ? list : failed();
}

static PyObject *Rules_game_play(RulesObject *self, PyObject *args)
{
    PyObject *raw, *move;
    if (!PyArg_ParseTuple(args, "OO", &raw, &move))
        return NULL;
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    MoveSlot m;
    PyObject *after = NULL;
    if (self->glue->move_in(&in.g, move, &m) == 0 && in.g.ops->play(&in.g, in.pos, &m) == GAME_OK)
        after = self->glue->pos_raw(&in.g, in.pos);
    done(self, &in);
    return after ? after : failed();
}

static PyObject *Rules_game_outcome(RulesObject *self, PyObject *raw)
{
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    double r;
    int over = in.g.ops->outcome(&in.g, in.pos, &r);
    done(self, &in);
    if (over < 0)
        return failed();
    if (over == GAME_RUNNING)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(r);
}

static PyObject *Rules_game_evaluate(RulesObject *self, PyObject *raw)
{
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    double v;
    int ok = in.g.ops->evaluate(&in.g, in.pos, &v);
    done(self, &in);
    return ok < 0 ? failed() : PyFloat_FromDouble(v);
}

/* game_heuristic(raw, move) and game_is_capture(raw, move) */
static PyObject *move_question(RulesObject *self, PyObject *args, int capture)
{
    PyObject *raw, *move;
    if (!PyArg_ParseTuple(args, "OO", &raw, &move))
        return NULL;
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    MoveSlot m;
    double h = 0.0;
    int r = self->glue->move_in(&in.g, move, &m) < 0 ? GAME_ERROR
            : capture ? in.g.ops->is_capture(&in.g, in.pos, &m) : in.g.ops->heuristic(&in.g, in.pos, &m, &h);
    done(self, &in);
    if (r < 0)
        return failed();
    return capture ? PyBool_FromLong(r == GAME_YES) : PyFloat_FromDouble(h);
}

static PyObject *Rules_game_heuristic(RulesObject *self, PyObject *args) { return move_question(self, args, 0); }
static PyObject *Rules_game_is_capture(RulesObject *self, PyObject *args) { return move_question(self, args, 1); }

/* The leaves `depth` plies below `pos` (draw rules as the game plays them); -1 out of memory. */
static int64_t perft_from(GameIface *g, void *pos, int depth)
{
    if (depth <= 0)
        return 1;
    MoveBuf buf = {0};
    if (g->ops->legal(g, pos, &buf) < 0) {
        free(buf.m);
        free(buf.h);
        return -1;
    }
    int64_t total = depth == 1 ? (int64_t)buf.n : 0;
    void *child = depth > 1 && buf.n ? calloc(1, g->pos_size) : NULL;
    if (depth > 1 && buf.n && (!child || g->ops->pos_init(g, child) < 0))
        total = -1;
    for (size_t i = 0; depth > 1 && total >= 0 && i < buf.n; i++) {
        int64_t below = g->ops->copy(g, child, pos) < 0 || g->ops->play(g, child, &buf.m[i]) < 0
                            ? -1 : perft_from(g, child, depth - 1);
        total = below < 0 ? -1 : total + below;
    }
    if (child) {
        g->ops->pos_free(g, child);
        free(child);
    }
    free(buf.m);
    free(buf.h);
    return total;
}

/* game_perft(raw, depth): the leaf count through the game interface (the GIL released). */
static PyObject *Rules_game_perft(RulesObject *self, PyObject *args)
{
    PyObject *raw;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &raw, &depth))
        return NULL;
    if (depth < 0 || depth > 64) {
        PyErr_SetString(PyExc_ValueError, "game_perft: depth from 0 to 64");
        return NULL;
    }
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    if (in.g.flags & (GAME_PYTHON | GAME_OBJECT_MOVES)) {
        done(self, &in);
        PyErr_SetString(PyExc_TypeError, "game_perft is for native games");
        return NULL;
    }
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft_from(&in.g, in.pos, depth);
    Py_END_ALLOW_THREADS
    done(self, &in);
    return n < 0 ? PyErr_NoMemory() : PyLong_FromLongLong(n);
}

/* game_playouts(raw, count, seed): `count` random playouts from the position through the game
 * interface, each at most PLAYOUT_CAP plies, in C without the GIL (bench): (first player's
 * wins, draws, second player's wins, cut off). */
static PyObject *Rules_game_playouts(RulesObject *self, PyObject *args)
{
    PyObject *raw;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK", &raw, &count, &seed))
        return NULL;
    Instance in;
    if (open_at(self, raw, &in) < 0)
        return NULL;
    if (in.g.flags & (GAME_PYTHON | GAME_OBJECT_MOVES)) {
        done(self, &in);
        PyErr_SetString(PyExc_TypeError, "game_playouts is for native games");
        return NULL;
    }
    long long out[4] = {0, 0, 0, 0};
    int err = 0;
    void *p = calloc(1, in.g.pos_size);
    if (!p || in.g.ops->pos_init(&in.g, p) < 0)
        err = 1;
    Rand rng;
    rand_seed(&rng, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count && !err; i++) {
        double r;
        int over = in.g.ops->copy(&in.g, p, in.pos) < 0 ? GAME_ERROR
                   : in.g.ops->playout(&in.g, p, PLAYOUT_CAP, &rng, NULL, &r);
        if (over < 0)
            err = 1;
        else if (over == GAME_RUNNING)
            out[3]++;
        else
            out[r == 1.0 ? 0 : (r == 0.5 ? 1 : 2)]++;
    }
    Py_END_ALLOW_THREADS
    if (p) {
        in.g.ops->pos_free(&in.g, p);
        free(p);
    }
    done(self, &in);
    if (err)
        return PyErr_NoMemory();
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

static PyMethodDef Rules_methods[] = {
    {"game_legal", (PyCFunction)Rules_game_legal, METH_O,
     "game_legal(raw): the legal moves of the position State.raw() gives, through the C game interface."},
    {"game_play", (PyCFunction)Rules_game_play, METH_VARARGS, "game_play(raw, move): the raw position after the move."},
    {"game_outcome", (PyCFunction)Rules_game_outcome, METH_O, "game_outcome(raw): the first player's result, or None."},
    {"game_evaluate", (PyCFunction)Rules_game_evaluate, METH_O, "game_evaluate(raw): the first player's evaluation."},
    {"game_heuristic", (PyCFunction)Rules_game_heuristic, METH_VARARGS, "game_heuristic(raw, move)."},
    {"game_is_capture", (PyCFunction)Rules_game_is_capture, METH_VARARGS, "game_is_capture(raw, move)."},
    {"game_perft", (PyCFunction)Rules_game_perft, METH_VARARGS,
     "game_perft(raw, depth): leaves of the move tree through the game interface (the GIL released)."},
    {"game_playouts", (PyCFunction)Rules_game_playouts, METH_VARARGS,
     "game_playouts(raw, count, seed): random playouts in C: (first player's wins, draws, second's, cut off)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The base of every native rules object: a game the search core runs through the C game interface, "
              "and its game_* methods for checking it against the Python rules.",
    .tp_methods = Rules_methods,
};
