/* LifeRules: the Life drop game's native rules as a Python object (a Rules subtype, so the
 * search runs it through the C game interface), its glue (glue.h: positions as LifeState.raw()
 * = (black, white, turn, ply), moves as the drop cell's bit index), and the fast paths
 * LifeState calls: random_move, playout, playouts (bench) and tick (tests). */
#include "glue.h"
#include "life.h"
#include "words.h"

#include <string.h>

typedef struct {
    RulesObject base;
    LifeRules rules;
} LifeRulesObject;

static const LifeRules *rules_of(PyObject *self) { return &((LifeRulesObject *)self)->rules; }

/* ------------------------------------------------------------------------------------------
 * Positions and moves across the boundary, checked against the board.
 * ---------------------------------------------------------------------------------------- */
static int stones_in(const LifeRules *r, PyObject *o, uint64_t *w, const char *what)
{
    memset(w, 0, sizeof(uint64_t) * LIFE_WORDS);
    if (words_from_int(o, w, r->nw, what) < 0)
        return -1;
    for (int i = 0; i < r->nw; i++)
        if (w[i] & ~r->cells[i]) {
            PyErr_Format(PyExc_ValueError, "%s has a bit that is not a cell of the %dx%d board", what, r->size, r->size);
            return -1;
        }
    return 0;
}

/* LifeState.raw() = (black, white, turn, ply) into a position. */
static int read_raw(const LifeRules *r, PyObject *raw, LifePos *p)
{
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 4) {
        PyErr_SetString(PyExc_TypeError, "a Life position is the tuple (black, white, turn, ply)");
        return -1;
    }
    long turn;
    memset(p, 0, sizeof(*p));
    if (stones_in(r, PyTuple_GET_ITEM(raw, 0), p->b, "black") < 0
        || stones_in(r, PyTuple_GET_ITEM(raw, 1), p->w, "white") < 0
        || bounded_int(PyTuple_GET_ITEM(raw, 2), 0, 1, "turn", &turn) < 0)
        return -1;
    long long ply = PyLong_AsLongLong(PyTuple_GET_ITEM(raw, 3));
    if (ply == -1 && PyErr_Occurred())
        return -1;
    for (int i = 0; i < r->nw; i++)
        if (p->b[i] & p->w[i]) {
            PyErr_SetString(PyExc_ValueError, "black and white stones on the same cell");
            return -1;
        }
    p->turn = (int)turn;
    p->ply = ply;
    return 0;
}

static PyObject *raw_of(const LifeRules *r, const LifePos *p)
{
    return Py_BuildValue("(NNiL)", int_from_words(p->b, r->nw), int_from_words(p->w, r->nw), p->turn,
                         (long long)p->ply);
}

/* A drop cell: the bit index of a cell of the board. */
static int cell_in(const LifeRules *r, PyObject *move, int *cell)
{
    long v;
    if (bounded_int(move, 0, (long)r->size * r->stride - 1, "a Life move (a cell's bit index)", &v) < 0)
        return -1;
    if (v % r->stride >= r->size) {
        PyErr_Format(PyExc_ValueError, "%ld is not a cell of the %dx%d board (the ghost column)", v, r->size, r->size);
        return -1;
    }
    *cell = (int)v;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The glue (glue.h): a game instance reads the object's LifeRules, which the search keeps alive.
 * ---------------------------------------------------------------------------------------- */
static int glue_open(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)a;
    life_game_open(g, rules_of(rules));
    return 0;
}

static void glue_close(GameIface *g) { g->ctx = NULL; }

static int glue_pos_load(GameIface *g, PyObject *raw, void *pos)
{
    return read_raw(g->ctx, raw, pos);
}

static PyObject *glue_pos_raw(GameIface *g, const void *pos) { return raw_of(g->ctx, pos); }

static int glue_move_in(GameIface *g, PyObject *move, MoveSlot *slot)
{
    int cell;
    if (cell_in(g->ctx, move, &cell) < 0)
        return -1;
    memset(slot, 0, sizeof(*slot));
    slot->w[0] = (uint64_t)cell;
    return 0;
}

static PyObject *glue_move_out(GameIface *g, const MoveSlot *m)
{
    (void)g;
    return PyLong_FromUnsignedLongLong(m->w[0]);
}

static const GameGlue LIFE_GLUE = {
    .open = glue_open, .close = glue_close, .pos_load = glue_pos_load, .pos_raw = glue_pos_raw,
    .move_in = glue_move_in, .move_out = glue_move_out,
};

/* ------------------------------------------------------------------------------------------
 * The object: LifeRules(size, stride, eval_scale) and its methods.
 * ---------------------------------------------------------------------------------------- */
static int LifeRules_init(LifeRulesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "stride", "eval_scale", NULL};
    PyObject *size, *stride, *scale;
    long n, s, e;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO", kwlist, &size, &stride, &scale))
        return -1;
    if (self->base.glue) {
        PyErr_SetString(PyExc_TypeError, "LifeRules: the rules are set once, when the object is made");
        return -1;
    }
    if (bounded_int(size, 7, LIFE_MAX_SIZE, "size", &n) < 0 || bounded_int(stride, 8, LIFE_MAX_SIZE + 1, "stride", &s) < 0
        || bounded_int(scale, 1, 1000000, "eval_scale", &e) < 0)
        return -1;
    const char *why = NULL;
    if (life_rules_init(&self->rules, (int)n, (int)s, (int)e, &why) < 0) {
        PyErr_Format(PyExc_ValueError, "LifeRules: %s", why);
        return -1;
    }
    self->base.glue = &LIFE_GLUE;
    return 0;
}

/* The methods' guard: an object made without its rules (LifeRules.__new__) has none. */
static int ready(LifeRulesObject *self)
{
    if (self->base.glue)
        return 1;
    PyErr_SetString(PyExc_TypeError, "LifeRules: the object was made without its rules (call LifeRules(...))");
    return 0;
}

/* tick(black, white): one generation of the whole board, (black, white) after it. */
static PyObject *LifeRules_tick(LifeRulesObject *self, PyObject *args)
{
    PyObject *b, *w;
    if (!PyArg_ParseTuple(args, "OO", &b, &w))
        return NULL;
    if (!ready(self))
        return NULL;
    LifePos p;
    memset(&p, 0, sizeof(p));
    if (stones_in(&self->rules, b, p.b, "black") < 0 || stones_in(&self->rules, w, p.w, "white") < 0)
        return NULL;
    life_tick(&self->rules, p.b, p.w);
    return Py_BuildValue("(NN)", int_from_words(p.b, self->rules.nw), int_from_words(p.w, self->rules.nw));
}

/* perft(raw, depth): LifeGame.perft, the last ply bulk-counted, the GIL released. */
static PyObject *LifeRules_perft(LifeRulesObject *self, PyObject *args)
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
    LifePos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = life_perft(&self->rules, &p, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(n);
}

/* random_move(raw, rng): LifeState.random_move(rng), drawing as it does. */
static PyObject *LifeRules_random_move(LifeRulesObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    if (!PyArg_ParseTuple(args, "OO", &raw, &rng))
        return NULL;
    if (!ready(self))
        return NULL;
    LifePos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    Rand local, *rand = rand_source(rng, &local, &method);
    if (!rand)
        return NULL;
    int cell = life_random_drop(&self->rules, &p, rand);
    Py_XDECREF(method);
    if (cell == -2)
        return NULL;
    return cell < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(cell);
}

/* A playout appending its cells to `record` (a list), in chunks of a local buffer; -2 failed. */
#define CHUNK 512
static double recorded(const LifeRules *r, LifePos *p, int64_t max_plies, Rand *rng, PyObject *record)
{
    int cells[CHUNK];
    for (;;) {
        int64_t chunk = max_plies < CHUNK ? max_plies : CHUNK, before = p->ply;
        double v = life_playout(r, p, chunk, rng, NULL, cells);
        for (int64_t i = 0; v > -2.0 && i < p->ply - before; i++) {
            PyObject *cell = PyLong_FromLong(cells[i]);
            if (!cell || PyList_Append(record, cell) < 0)
                v = -2.0;
            Py_XDECREF(cell);
        }
        max_plies -= chunk;
        if (v != -1.0 || max_plies <= 0)
            return v;
    }
}

/* playout(raw, rng, max_plies, record=None): LifeState.playout's loop, (result or None, raw after). */
static PyObject *LifeRules_playout(LifeRulesObject *self, PyObject *args)
{
    PyObject *raw, *rng, *record = Py_None, *method;
    long long max_plies;
    if (!PyArg_ParseTuple(args, "OOL|O", &raw, &rng, &max_plies, &record))
        return NULL;
    if (!ready(self))
        return NULL;
    if (record != Py_None && !PyList_Check(record)) {
        PyErr_SetString(PyExc_TypeError, "playout: record must be a list or None");
        return NULL;
    }
    LifePos p;
    if (read_raw(&self->rules, raw, &p) < 0)
        return NULL;
    Rand local, *rand = rand_source(rng, &local, &method);
    if (!rand)
        return NULL;
    double v = record == Py_None ? life_playout(&self->rules, &p, max_plies, rand, NULL, NULL)
                                 : recorded(&self->rules, &p, max_plies, rand, record);
    Py_XDECREF(method);
    if (v <= -2.0)
        return NULL;
    return Py_BuildValue("(NN)", outcome_value(v), raw_of(&self->rules, &p));
}

/* playouts(raw, count, seed): `count` random playouts to the end in C, the GIL released, native
 * random numbers (bench): (first player's wins, draws, second player's wins, plies). */
static PyObject *LifeRules_playouts(LifeRulesObject *self, PyObject *args)
{
    PyObject *raw;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK", &raw, &count, &seed))
        return NULL;
    if (!ready(self))
        return NULL;
    LifePos start;
    if (read_raw(&self->rules, raw, &start) < 0)
        return NULL;
    long long out[4] = {0, 0, 0, 0};
    Rand rng;
    rand_seed(&rng, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count; i++) {
        LifePos p = start;
        double v = life_playout(&self->rules, &p, (int64_t)1 << 62, &rng, NULL, NULL);
        out[v == 1.0 ? 0 : v == 0.5 ? 1 : 2]++;
        out[3] += p.ply - start.ply;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

static PyMethodDef LifeRules_methods[] = {
    {"tick", (PyCFunction)LifeRules_tick, METH_VARARGS,
     "tick(black, white): one generation of the whole board (LifeGame.tick), (black, white) after it."},
    {"perft", (PyCFunction)LifeRules_perft, METH_VARARGS,
     "perft(raw, depth): leaves of the legal-move tree (LifeGame.perft), the last ply counted; releases the GIL."},
    {"random_move", (PyCFunction)LifeRules_random_move, METH_VARARGS,
     "random_move(raw, rng): LifeState.random_move(rng), drawing as it does."},
    {"playout", (PyCFunction)LifeRules_playout, METH_VARARGS,
     "playout(raw, rng, max_plies, record=None): LifeState.playout's loop: (its result or None, the raw position "
     "after); record (a list) gets each drop's cell; rng is a native Random or has random() (the Python draws)."},
    {"playouts", (PyCFunction)LifeRules_playouts, METH_VARARGS,
     "playouts(raw, count, seed): count random playouts from the position, in C without the GIL: "
     "(first player's wins, draws, second player's wins, plies)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject LifeRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.LifeRules",
    .tp_basicsize = sizeof(LifeRulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LifeRules(size, stride, eval_scale): the Life drop game's rules in C (rules/life.py's board layout).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)LifeRules_init,
    .tp_methods = LifeRules_methods,
};
