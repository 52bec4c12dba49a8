/* RithmomachiaRules(spec): Rithmomachia's native rules as a Python object.
 *
 * A Rules subtype (rules_object.c gives it game_legal, game_play, game_perft, ... through the C
 * game interface), made once per option set from rules/rithmomachia/native.py's spec, and the
 * Python rules' fast paths: random_move and playout (drawing from the rng handed in exactly as
 * RithmomachiaState does), playouts (bench: native random numbers, the GIL released) and
 * captures (the whole-board capture pass, RithmomachiaState.full_hits, for the tests).
 */
#include "rith_py.h"

#include <stdlib.h>

#define PY_WHOLE_BIT (1L << 20)      /* captures.py's WHOLE_BIT */

static int Rm_init(RmObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"spec", NULL};
    PyObject *spec;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!", kwlist, &PyDict_Type, &spec))
        return -1;
    if (self->rules) {
        PyErr_SetString(PyExc_TypeError, "RithmomachiaRules is made once (searches may hold its rules)");
        return -1;
    }
    RmSpec *s = calloc(1, sizeof(RmSpec));
    RmRules *R = calloc(1, sizeof(RmRules));
    char why[160];
    int ok = s && R;
    if (!ok)
        PyErr_NoMemory();
    else if (rm_read_geometry(spec, s) < 0 || rm_read_options(spec, R) < 0)
        ok = 0;
    else if (rm_rules_build(R, s, why, sizeof(why)) < 0) {
        PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s", why);
        ok = 0;
    }
    free(s);
    if (!ok) {
        free(R);
        return -1;
    }
    self->rules = R;
    self->base.glue = &RM_GLUE;
    return 0;
}

static void Rm_dealloc(RmObject *self)
{
    free(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(RmObject *self)
{
    if (self->rules)
        return 0;
    PyErr_SetString(PyExc_TypeError, "RithmomachiaRules was not initialised");
    return -1;
}

static PyObject *move_value(const RmRules *R, uint16_t m)
{
    return PyLong_FromLong((long)R->py_index[m >> 8] * 256 + R->py_index[m & 0xff]);
}

/* random_move(raw, rng): RithmomachiaState.random_move(rng), drawing as it does. */
static PyObject *Rm_random_move(RmObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "random_move(raw, rng)");
        return NULL;
    }
    RmPos p;
    Rand local, *rand;
    PyObject *method;
    if (ready(self) < 0 || rm_load_pos(self->rules, args[0], &p) < 0 || !(rand = rand_source(args[1], &local, &method)))
        return NULL;
    const RmRules *R = self->rules;
    uint16_t move;
    int found = p.result >= 0 || (R->max_plies && p.ply >= R->max_plies) ? 0 : rm_draw(R, &p, rand, &move);
    Py_XDECREF(method);
    if (found < 0)
        return NULL;
    return found ? move_value(R, move) : Py_NewRef(Py_None);
}

/* playout(raw, rng, max_plies): RithmomachiaState.playout: (outcome or None, raw after). */
static PyObject *Rm_playout(RmObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "playout(raw, rng, max_plies)");
        return NULL;
    }
    int64_t max_plies;
    RmPos p;
    Rand local, *rand;
    PyObject *method;
    if (ready(self) < 0 || to_i64(args[2], &max_plies) < 0 || rm_load_pos(self->rules, args[0], &p) < 0
        || !(rand = rand_source(args[1], &local, &method)))
        return NULL;
    double result;
    int over = rm_playout(self->rules, &p, max_plies, rand, NULL, &result);
    Py_XDECREF(method);
    if (over < 0)
        return NULL;
    PyObject *after = rm_raw_of(self->rules, &p);
    if (!after)
        return NULL;
    return Py_BuildValue("(NN)", over == GAME_OVER ? PyFloat_FromDouble(result) : Py_NewRef(Py_None), after);
}

/* playouts(raw, count, seed): `count` random playouts in C (each at most PLAYOUT_CAP plies, one
 * cut off there counted a draw), native random numbers, the GIL released: bench's kernel rate.
 * (first player's wins, draws, second player's wins, plies). */
static PyObject *Rm_playouts(RmObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "playouts(raw, count, seed)");
        return NULL;
    }
    long count = PyLong_AsLong(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[2]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    RmPos start, p;
    if (ready(self) < 0 || rm_load_pos(self->rules, args[0], &start) < 0)
        return NULL;
    long long out[4] = {0, 0, 0, 0};
    Rand rand;
    rand_seed(&rand, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count; i++) {
        double r;
        p = start;
        int over = rm_playout(self->rules, &p, PLAYOUT_CAP, &rand, NULL, &r);
        out[over != GAME_OVER || r == 0.5 ? 1 : (r == 1.0 ? 0 : 2)]++;
        out[3] += p.ply - start.ply;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

/* captures(raw, colour): RithmomachiaState.full_hits(colour): [(cell, hit mask)] on the Python
 * board's bits and hit coding. */
static PyObject *Rm_captures(RmObject *self, PyObject *args)
{
    PyObject *raw;
    int colour;
    RmPos p;
    if (!PyArg_ParseTuple(args, "Oi", &raw, &colour) || ready(self) < 0 || rm_load_pos(self->rules, raw, &p) < 0)
        return NULL;
    if (colour != 0 && colour != 1) {
        PyErr_SetString(PyExc_ValueError, "captures: colour 0 (White) or 1 (Black)");
        return NULL;
    }
    int cells[RM_CELLS];
    uint32_t hits[RM_CELLS];
    int n = rm_full_hits(self->rules, &p, colour, cells, hits);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        long h = (long)(hits[i] & ~RM_WHOLE) | (hits[i] & RM_WHOLE ? PY_WHOLE_BIT : 0);
        PyObject *item = Py_BuildValue("(il)", self->rules->py_index[cells[i]], h);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyMethodDef Rm_methods[] = {
    {"random_move", (PyCFunction)(void (*)(void))Rm_random_move, METH_FASTCALL,
     "random_move(raw, rng): RithmomachiaState.random_move(rng), drawing as it does."},
    {"playout", (PyCFunction)(void (*)(void))Rm_playout, METH_FASTCALL,
     "playout(raw, rng, max_plies): RithmomachiaState.playout: (outcome or None, the raw position after)."},
    {"playouts", (PyCFunction)(void (*)(void))Rm_playouts, METH_FASTCALL,
     "playouts(raw, count, seed): random playouts in C: (first player's wins, draws, second's, plies)."},
    {"captures", (PyCFunction)Rm_captures, METH_VARARGS,
     "captures(raw, colour): the whole-board capture pass of `colour` (RithmomachiaState.full_hits)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject RithmomachiaRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.RithmomachiaRules",
    .tp_basicsize = sizeof(RmObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RithmomachiaRules(spec): Rithmomachia's rules in the native core, from rules/rithmomachia/native.py's "
              "spec (its tables and options as numbers).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rm_init,
    .tp_dealloc = (destructor)Rm_dealloc,
    .tp_methods = Rm_methods,
};
