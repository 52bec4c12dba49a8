/* GauntletRules: Gauntlet's native rules as a Python object (a Rules subtype, so the search runs
 * it through the C game interface), its glue (glue.h: positions as GauntletState.raw() =
 * (runners, left, right, turn, ply), moves as the Python rules' (from, to, captured) mask
 * tuples), and the fast paths GauntletState calls: random_move, playout, playouts (bench). */
#include "gauntlet.h"
#include "glue.h"
#include "words.h"

#include <string.h>

typedef struct {
    RulesObject base;
    GauntletRules rules;
} GauntletRulesObject;

static const GauntletRules *rules_of(PyObject *self) { return &((GauntletRulesObject *)self)->rules; }

/* ------------------------------------------------------------------------------------------
 * Masks, positions and moves across the boundary, checked against the board.
 * ---------------------------------------------------------------------------------------- */
static int bits_in(PyObject *o, GBits *x, const char *what)
{
    uint64_t w[2];
    if (words_from_int(o, w, 2, what) < 0)
        return -1;
    *x = (GBits)w[1] << 64 | w[0];
    return 0;
}

static PyObject *bits_out(GBits x)
{
    uint64_t w[2] = {(uint64_t)x, (uint64_t)(x >> 64)};
    return int_from_words(w, 2);
}

static int on_board(const GauntletRules *r, PyObject *o, GBits *x, const char *what)
{
    if (bits_in(o, x, what) < 0)
        return -1;
    if (*x & ~r->cells) {
        PyErr_Format(PyExc_ValueError, "%s has a bit that is not a square of the %dx%d board", what, r->files, r->ranks);
        return -1;
    }
    return 0;
}

/* GauntletState.raw() = (runners, left, right, turn, ply) into a position. */
static int read_raw(const GauntletRules *r, PyObject *raw, GauntletPos *p)
{
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 5) {
        PyErr_SetString(PyExc_TypeError, "a Gauntlet position is the tuple (runners, left, right, turn, ply)");
        return -1;
    }
    long turn;
    memset(p, 0, sizeof(*p));
    if (on_board(r, PyTuple_GET_ITEM(raw, 0), &p->runners, "runners") < 0
        || on_board(r, PyTuple_GET_ITEM(raw, 1), &p->left, "left blockers") < 0
        || on_board(r, PyTuple_GET_ITEM(raw, 2), &p->right, "right blockers") < 0
        || bounded_int(PyTuple_GET_ITEM(raw, 3), 0, 1, "turn", &turn) < 0)
        return -1;
    long long ply = PyLong_AsLongLong(PyTuple_GET_ITEM(raw, 4));
    if (ply == -1 && PyErr_Occurred())
        return -1;
    if ((p->runners & p->left) || (p->runners & p->right) || (p->left & p->right)) {
        PyErr_SetString(PyExc_ValueError, "two pieces on the same square");
        return -1;
    }
    p->turn = (int)turn;
    p->ply = ply;
    return 0;
}

static PyObject *raw_of(const GauntletPos *p)
{
    return Py_BuildValue("(NNNiL)", bits_out(p->runners), bits_out(p->left), bits_out(p->right), p->turn,
                         (long long)p->ply);
}

static PyObject *move_of(const GMove *m)
{
    return Py_BuildValue("(NNN)", bits_out(m->frm), bits_out(m->to), bits_out(m->cap));
}

static int one_square(GBits x) { return x && !(x & (x - 1)); }

/* A move (from, to, captured): single squares from and to, all on the board. */
static int move_in(const GauntletRules *r, PyObject *move, GMove *m)
{
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 3) {
        PyErr_SetString(PyExc_ValueError, "a Gauntlet move is the tuple (from, to, captured) of masks");
        return -1;
    }
    if (on_board(r, PyTuple_GET_ITEM(move, 0), &m->frm, "a move's from") < 0
        || on_board(r, PyTuple_GET_ITEM(move, 1), &m->to, "a move's to") < 0
        || on_board(r, PyTuple_GET_ITEM(move, 2), &m->cap, "a move's captured") < 0)
        return -1;
    if (!one_square(m->frm) || !one_square(m->to)) {
        PyErr_SetString(PyExc_ValueError, "a Gauntlet move goes from one square to one square");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The glue (glue.h): a game instance reads the object's rules, which the search keeps alive.
 * ---------------------------------------------------------------------------------------- */
static int glue_open(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)a;
    gauntlet_game_open(g, rules_of(rules));
    return 0;
}

static void glue_close(GameIface *g) { g->ctx = NULL; }

static int glue_pos_load(GameIface *g, PyObject *raw, void *pos) { return read_raw(g->ctx, raw, pos); }

static PyObject *glue_pos_raw(GameIface *g, const void *pos)
{
    (void)g;
    return raw_of(pos);
}

static int glue_move_in(GameIface *g, PyObject *move, MoveSlot *slot)
{
    GMove m;
    if (move_in(g->ctx, move, &m) < 0)
        return -1;
    *slot = gauntlet_slot(&m);
    return 0;
}

static PyObject *glue_move_out(GameIface *g, const MoveSlot *s)
{
    (void)g;
    GMove m = gauntlet_unslot(s);
    return move_of(&m);
}

static const GameGlue GAUNTLET_GLUE = {
    .open = glue_open, .close = glue_close, .pos_load = glue_pos_load, .pos_raw = glue_pos_raw,
    .move_in = glue_move_in, .move_out = glue_move_out,
};

/* ------------------------------------------------------------------------------------------
 * The object: GauntletRules(files, ranks, stride, cells, goal, n_runners, n_blockers,
 * max_capture, compulsory), every number the Python game computed, and its methods.
 * ---------------------------------------------------------------------------------------- */
static int check_board(const GauntletRules *r)
{
    if (r->stride != r->files + 1 || r->ranks * r->stride > 128) {
        PyErr_SetString(PyExc_ValueError, "GauntletRules: stride must be files + 1 and the board fit 128 bits");
        return -1;
    }
    GBits board = ((GBits)1 << (r->ranks * r->stride - 1) << 1) - 1;
    if ((r->cells & ~board) || (r->goal & ~r->cells) || !r->goal) {
        PyErr_SetString(PyExc_ValueError, "GauntletRules: cells must lie on the board and the goal among them");
        return -1;
    }
    return 0;
}

static int GauntletRules_init(GauntletRulesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"files", "ranks", "stride", "cells", "goal", "n_runners", "n_blockers", "max_capture",
                             "compulsory", NULL};
    PyObject *o[9];
    long v[9];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOO", kwlist, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                                     &o[7], &o[8]))
        return -1;
    if (self->base.glue) {
        PyErr_SetString(PyExc_TypeError, "GauntletRules: the rules are set once, when the object is made");
        return -1;
    }
    GauntletRules *r = &self->rules;
    memset(r, 0, sizeof(*r));
    if (bounded_int(o[0], 3, 12, "files", &v[0]) < 0 || bounded_int(o[1], 3, 12, "ranks", &v[1]) < 0
        || bounded_int(o[2], 4, 13, "stride", &v[2]) < 0 || bits_in(o[3], &r->cells, "cells") < 0
        || bits_in(o[4], &r->goal, "goal") < 0 || bounded_int(o[5], 1, 128, "n_runners", &v[5]) < 0
        || bounded_int(o[6], 1, 128, "n_blockers", &v[6]) < 0 || bounded_int(o[7], 0, 1, "max_capture", &v[7]) < 0
        || bounded_int(o[8], 0, 1, "compulsory", &v[8]) < 0)
        return -1;
    r->files = (int)v[0], r->ranks = (int)v[1], r->stride = (int)v[2];
    r->n_runners = (int)v[5], r->n_blockers = (int)v[6], r->max_capture = (int)v[7], r->compulsory = (int)v[8];
    if (check_board(r) < 0)
        return -1;
    self->base.glue = &GAUNTLET_GLUE;
    return 0;
}

/* The methods' guard: an object made without its rules (GauntletRules.__new__) has none. */
static int ready(GauntletRulesObject *self)
{
    if (self->base.glue)
        return 1;
    PyErr_SetString(PyExc_TypeError, "GauntletRules: the object was made without its rules (call GauntletRules(...))");
    return 0;
}

/* perft(raw, depth): GauntletGame.perft, the last ply counted, the GIL released. */
static PyObject *GauntletRules_perft(GauntletRulesObject *self, PyObject *args)
{
    PyObject *raw;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &raw, &depth))
        return NULL;
    if (!ready(self))
        return NULL;
    if (depth < 0 || depth > 64) {
        PyErr_SetString(PyExc_ValueError, "perft: depth from 0 to 64");
        return NULL;
    }
    GauntletPos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = gauntlet_perft(&self->rules, &p, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(n);
}

/* random_move(raw, rng): GauntletState.random_move(rng), drawing as it does. */
static PyObject *GauntletRules_random_move(GauntletRulesObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    if (!PyArg_ParseTuple(args, "OO", &raw, &rng))
        return NULL;
    if (!ready(self))
        return NULL;
    GauntletPos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    Rand local, *rand = rand_source(rng, &local, &method);
    if (!rand)
        return NULL;
    GMove m;
    int found = gauntlet_random_move(&self->rules, &p, rand, &m);
    Py_XDECREF(method);
    if (found < 0)
        return NULL;
    return found ? move_of(&m) : Py_NewRef(Py_None);
}

/* playout(raw, rng, max_plies): GauntletState.playout's loop, (result or None, raw after). */
static PyObject *GauntletRules_playout(GauntletRulesObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    long long max_plies;
    if (!PyArg_ParseTuple(args, "OOL", &raw, &rng, &max_plies))
        return NULL;
    if (!ready(self))
        return NULL;
    GauntletPos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    Rand local, *rand = rand_source(rng, &local, &method);
    if (!rand)
        return NULL;
    double v = gauntlet_playout(&self->rules, &p, max_plies, rand, NULL);
    Py_XDECREF(method);
    if (v <= -2.0)
        return NULL;
    return Py_BuildValue("(NN)", outcome_value(v), raw_of(&p));
}

/* playouts(raw, count, seed): `count` random playouts to the end in C, the GIL released, native
 * random numbers (bench): (first player's wins, draws, second player's wins, plies). */
static PyObject *GauntletRules_playouts(GauntletRulesObject *self, PyObject *args)
{
    PyObject *raw;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK", &raw, &count, &seed))
        return NULL;
    if (!ready(self))
        return NULL;
    GauntletPos start;
    if (read_raw(&self->rules, raw, &start) < 0)
        return NULL;
    long long out[4] = {0, 0, 0, 0};
    Rand rng;
    rand_seed(&rng, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count; i++) {
        GauntletPos p = start;
        double v = gauntlet_playout(&self->rules, &p, (int64_t)1 << 62, &rng, NULL);
        out[v == 1.0 ? 0 : v == 0.5 ? 1 : 2]++;
        out[3] += p.ply - start.ply;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

static PyMethodDef GauntletRules_methods[] = {
    {"perft", (PyCFunction)GauntletRules_perft, METH_VARARGS,
     "perft(raw, depth): leaves of the legal-move tree (GauntletGame.perft); releases the GIL."},
    {"random_move", (PyCFunction)GauntletRules_random_move, METH_VARARGS,
     "random_move(raw, rng): GauntletState.random_move(rng), drawing as it does."},
    {"playout", (PyCFunction)GauntletRules_playout, METH_VARARGS,
     "playout(raw, rng, max_plies): GauntletState.playout's loop: (its result or None, the raw position after); rng "
     "is a native Random or has random() (the Python draws)."},
    {"playouts", (PyCFunction)GauntletRules_playouts, METH_VARARGS,
     "playouts(raw, count, seed): count random playouts from the position, in C without the GIL: "
     "(first player's wins, draws, second player's wins, plies)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject GauntletRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.GauntletRules",
    .tp_basicsize = sizeof(GauntletRulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "GauntletRules(files, ranks, stride, cells, goal, n_runners, n_blockers, max_capture, compulsory): "
              "Gauntlet's rules in C (rules/gauntlet.py's board layout).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)GauntletRules_init,
    .tp_methods = GauntletRules_methods,
};
