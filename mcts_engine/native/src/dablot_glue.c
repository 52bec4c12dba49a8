/* DablotRules: Dablot's native rules as a Python object (a Rules, glue.h), and their glue.
 *
 * Made once per rule set from the numbers rules/dablot.py hands over (``dablot_spec``: the
 * points in the Python numbering, each direction's shift in both numberings and its source
 * mask, the scan order of the steps, the options, the material values), every one checked
 * here.  The search runs it through the C game interface; Python calls its fast paths
 * (``random_move``, ``playout``, ``playouts``, ``perft``).  Positions cross as
 * DablotState.raw(): (own, opp, kings, princes, turn, ply, quiet), masks in the Python
 * numbering; moves as the Python rules' tuples (from_mask, to_mask, captured_mask, route).
 */
#include "rules_glue.h"
#include "dablot.h"

#include <stdlib.h>
#include <string.h>

/* The Python object: a Rules (its glue) and the rule set. */
typedef struct {
    RulesObject base;
    DbRules rules;
} DablotObject;

static const DbRules *rules_of(PyObject *o) { return &((DablotObject *)o)->rules; }
static const DbRules *instance_rules(const GameIface *g) { return ((const DbCtx *)g->ctx)->r; }

/* ------------------------------------------------------------------------------------------
 * Masks across the boundary: the Python numbering (up to 192 bits) and the points' own
 * ---------------------------------------------------------------------------------------- */

/* A Python mask's 192 bits, little-endian words; -1 with ValueError naming `what`. */
static int py_words(PyObject *o, const char *what, uint64_t w[DB_PY_WORDS])
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *bytes = PyObject_CallMethod(o, "to_bytes", "is", 8 * DB_PY_WORDS, "little");
    if (!bytes) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s %R is not a mask of the Dablot board", what, o);
        }
        return -1;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (int i = 0; i < DB_PY_WORDS; i++) {
        w[i] = 0;
        for (int j = 7; j >= 0; j--)
            w[i] = w[i] << 8 | b[8 * i + j];
    }
    Py_DECREF(bytes);
    return 0;
}

/* A Python mask as a mask of the points; ValueError naming `what` for a bit off the board. */
static int read_mask(const DbRules *r, PyObject *o, const char *what, DbMask *out)
{
    uint64_t w[DB_PY_WORDS];
    if (py_words(o, what, w) < 0)
        return -1;
    *out = 0;
    for (int i = 0; i < DB_PY_WORDS; i++)
        for (uint64_t x = w[i]; x; x &= x - 1) {
            int c = r->point_of[64 * i + __builtin_ctzll(x)];
            if (c < 0) {
                PyErr_Format(PyExc_ValueError, "%s %R has a bit that is not a point of the Dablot board", what, o);
                return -1;
            }
            *out |= db_bit(c);
        }
    return 0;
}

static PyObject *py_mask(const DbRules *r, DbMask m)
{
    unsigned char b[8 * DB_PY_WORDS] = {0};
    for (; m; m &= m - 1) {
        int i = r->py_index[db_ctz(m)];
        b[i / 8] |= (unsigned char)(1u << (i % 8));
    }
    return PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "y#s", (const char *)b, (Py_ssize_t)sizeof b,
                               "little");
}

/* ------------------------------------------------------------------------------------------
 * The spec: rules/dablot.py's lattice and options as numbers
 * ---------------------------------------------------------------------------------------- */

static PyObject *spec_item(PyObject *spec, const char *key)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v)
        PyErr_Format(PyExc_ValueError, "dablot spec: no %s", key);
    return v;
}

static int spec_int(PyObject *spec, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    PyObject *v = spec_item(spec, key);
    return v ? arg_i64(v, lo, hi, key, out) : -1;
}

/* A sequence of exactly `n` items (a new reference to it as a list), or NULL naming `what`. */
static PyObject *spec_seq(PyObject *v, Py_ssize_t n, const char *what)
{
    PyObject *seq = v ? PySequence_Fast(v, what) : NULL;
    if (seq && (n >= 0 ? PySequence_Fast_GET_SIZE(seq) != n : PySequence_Fast_GET_SIZE(seq) > DB_MAX_POINTS)) {
        PyErr_Format(PyExc_ValueError, "dablot spec: %s must hold %zd items", what, n >= 0 ? n : DB_MAX_POINTS);
        Py_CLEAR(seq);
    }
    return seq;
}

static int read_points(PyObject *spec, DbRules *r)
{
    PyObject *seq = spec_seq(spec_item(spec, "points"), -1, "points");
    if (!seq)
        return -1;
    r->n_points = (int)PySequence_Fast_GET_SIZE(seq);
    for (int i = 0; i < 64 * DB_PY_WORDS; i++)
        r->point_of[i] = -1;
    int err = 0, last = -1;
    for (int i = 0; i < r->n_points && !err; i++) {
        int64_t b;
        err = arg_i64(PySequence_Fast_GET_ITEM(seq, i), 0, 64 * DB_PY_WORDS - 1, "a point's bit", &b) < 0;
        if (!err && b <= last) {
            PyErr_SetString(PyExc_ValueError, "dablot spec: the points are not in ascending order");
            err = 1;
        }
        if (!err) {            /* the point ranked i in the 72-point order */
            int p = db_point(i);
            last = r->py_index[p] = (int)b;
            r->point_of[b] = (int16_t)p;
            r->points |= db_bit(p);
        }
    }
    Py_DECREF(seq);
    if (!err && r->n_points != 72) {
        PyErr_Format(PyExc_ValueError, "dablot spec: %d points, not the 72 of the Dablot board", r->n_points);
        err = 1;
    }
    return err ? -1 : 0;
}

/* One direction: (shift among the points, shift in the Python numbering, source mask). */
static int read_dir(PyObject *item, int k, DbRules *r)
{
    PyObject *src;
    int py_delta;
    if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "iiO", &r->delta[k], &py_delta, &src)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "dablot spec: a direction is not (shift, python shift, source)");
        return -1;
    }
    if (r->delta[k] == 0 || r->delta[k] <= -DB_MAX_POINTS || r->delta[k] >= DB_MAX_POINTS
        || read_mask(r, src, "a direction's source", &r->src[k]) < 0)
        return -1;
    for (DbMask m = r->src[k]; m; m &= m - 1) {
        int p = db_ctz(m), q = db_next(p, k);
        if (q < 0 || q >= DB_MAX_POINTS || !db_has(r->points, q) || r->py_index[q] != r->py_index[p] + py_delta) {
            PyErr_Format(PyExc_ValueError, "dablot spec: direction %d is not a line of the Dablot lattice", k);
            return -1;
        }
        if (db_has(r->src[k], q))
            r->jsrc[k] |= db_bit(p);
    }
    return 0;
}

/* Each point's jump directions (bit k for direction k) and the points its jumps go over. */
static void make_jumps(DbRules *r)
{
    for (int p = 0; p < DB_MAX_POINTS; p++)
        for (int k = 0; k < DB_DIRS; k++)
            if (db_has(r->jsrc[k], p)) {
                r->jump_dirs[p] |= (uint8_t)(1 << k);
                r->ring[p] |= db_bit(db_next(p, k));
            }
}

static int read_lattice(PyObject *spec, DbRules *r)
{
    PyObject *dirs = spec_seq(spec_item(spec, "dirs"), DB_DIRS, "dirs");
    if (!dirs)
        return -1;
    int err = 0;
    for (int k = 0; k < DB_DIRS && !err; k++)
        err = read_dir(PySequence_Fast_GET_ITEM(dirs, k), k, r) < 0;
    Py_DECREF(dirs);
    static const int lattice[DB_DIRS] = {DB_D0, DB_D1, DB_D2, DB_D3, DB_D4, DB_D5, DB_D6, DB_D7};
    if (!err && memcmp(lattice, r->delta, sizeof lattice)) {
        PyErr_SetString(PyExc_ValueError, "dablot spec: the directions are not those of the Dablot lattice");
        err = 1;
    }
    if (!err)
        make_jumps(r);
    PyObject *order = err ? NULL : spec_seq(spec_item(spec, "step_order"), DB_DIRS, "step_order");
    if (!order)
        return -1;
    int seen = 0, step_order[DB_DIRS];
    for (int i = 0; i < DB_DIRS && !err; i++) {
        int64_t k;
        err = arg_i64(PySequence_Fast_GET_ITEM(order, i), 0, DB_DIRS - 1, "step_order", &k) < 0;
        if (!err && (seen >> k & 1)) {
            PyErr_SetString(PyExc_ValueError, "dablot spec: step_order repeats a direction");
            err = 1;
        }
        if (!err) {
            seen |= 1 << k;
            step_order[i] = (int)k;
        }
    }
    Py_DECREF(order);
    if (!err && memcmp(step_order, DB_STEP_ORDER, sizeof DB_STEP_ORDER)) {
        PyErr_SetString(PyExc_ValueError, "dablot spec: step_order is not the scan's (the directions up, then down)");
        err = 1;
    }
    return err ? -1 : 0;
}

static int read_spec(PyObject *spec, DbRules *r)
{
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "DablotRules(spec): spec must be a dict (rules/dablot.py's dablot_spec)");
        return -1;
    }
    memset(r, 0, sizeof(*r));
    int64_t forced, optional, ludii;
    PyObject *values = NULL;
    if (read_points(spec, r) < 0 || read_lattice(spec, r) < 0 || spec_int(spec, "man_forced", 0, 1, &forced) < 0
        || spec_int(spec, "chain_optional", 0, 1, &optional) < 0 || spec_int(spec, "ludii_win", 0, 1, &ludii) < 0
        || spec_int(spec, "no_capture", 1, INT64_MAX, &r->no_capture) < 0
        || spec_int(spec, "max_plies", 1, INT64_MAX, &r->max_plies) < 0
        || !(values = spec_seq(spec_item(spec, "values"), 3, "values")))
        return -1;
    for (int i = 0; i < 3; i++)
        r->value[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, i));
    Py_DECREF(values);
    if (PyErr_Occurred())
        return -1;
    r->man_forced = (int)forced;
    r->chain_optional = (int)optional;
    r->ludii_win = (int)ludii;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Positions and moves across the boundary
 * ---------------------------------------------------------------------------------------- */

static int side_ok(const DbPos *p, DbMask side)
{
    return db_popcount(side) <= DB_MAX_PIECES && db_popcount(side & p->kings) <= 1
           && db_popcount(side & p->princes) <= 1;
}

/* DablotState.raw(): (own, opp, kings, princes, turn, ply, quiet), checked against the board. */
static int load_raw(const DbRules *r, PyObject *raw, DbPos *p)
{
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 7) {
        PyErr_SetString(PyExc_TypeError, "a Dablot raw position is (own, opp, kings, princes, turn, ply, quiet)");
        return -1;
    }
    int64_t turn;
    memset(p, 0, sizeof(*p));
    if (read_mask(r, PyTuple_GET_ITEM(raw, 0), "own", &p->own) < 0
        || read_mask(r, PyTuple_GET_ITEM(raw, 1), "opp", &p->opp) < 0
        || read_mask(r, PyTuple_GET_ITEM(raw, 2), "kings", &p->kings) < 0
        || read_mask(r, PyTuple_GET_ITEM(raw, 3), "princes", &p->princes) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 4), 0, 1, "turn", &turn) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 5), 0, INT64_MAX - 1, "ply", &p->ply) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 6), 0, INT64_MAX - 1, "quiet", &p->quiet) < 0)
        return -1;
    p->turn = (int)turn;
    if (p->own & p->opp || (p->kings | p->princes) & ~(p->own | p->opp) || p->kings & p->princes
        || !side_ok(p, p->own) || !side_ok(p, p->opp)) {
        PyErr_Format(PyExc_ValueError, "a Dablot raw position's masks overlap, or a side has more than %d pieces, "
                     "two Kings or two Princes", DB_MAX_PIECES);
        return -1;
    }
    return 0;
}

static PyObject *raw_of(const DbRules *r, const DbPos *p)
{
    return Py_BuildValue("(NNNNiLL)", py_mask(r, p->own), py_mask(r, p->opp), py_mask(r, p->kings),
                         py_mask(r, p->princes), p->turn, (long long)p->ply, (long long)p->quiet);
}

static int not_a_move(PyObject *move)
{
    PyErr_Format(PyExc_ValueError, "%R is not a Dablot move (from, to, captured, route) of this board", move);
    return -1;
}

/* A single point's mask as its point, or -1. */
static int single_point(DbMask m) { return m && !(m & (m - 1)) ? db_ctz(m) : -1; }

/* The direction of a step (hops 1) or a jump (hops 2) from `p` to `q`, or -1. */
static int line_to(const DbRules *r, int p, int q, int hops)
{
    for (int k = 0; k < DB_DIRS; k++)
        if (db_has(hops == 1 ? r->src[k] : r->jsrc[k], p) && (hops == 1 ? db_next(p, k) : p + DB_LAND[k]) == q)
            return k;
    return -1;
}

/* The Python rules' move tuple into a slot: a step along a line, or jumps along lines whose
 * middle points are the captured mask. */
static int read_move(const DbRules *r, PyObject *move, MoveSlot *slot)
{
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 4 || !PyTuple_Check(PyTuple_GET_ITEM(move, 3)))
        return not_a_move(move);
    DbMask fm, tm, cap, taken = 0;
    if (read_mask(r, PyTuple_GET_ITEM(move, 0), "a move's start", &fm) < 0
        || read_mask(r, PyTuple_GET_ITEM(move, 1), "a move's end", &tm) < 0
        || read_mask(r, PyTuple_GET_ITEM(move, 2), "a move's captured pieces", &cap) < 0)
        return -1;
    PyObject *route = PyTuple_GET_ITEM(move, 3);
    Py_ssize_t n = PyTuple_GET_SIZE(route);
    int from = single_point(fm), to = single_point(tm);
    if (from < 0 || to < 0 || n > DB_MAX_JUMPS || (n == 0) != (cap == 0))
        return not_a_move(move);
    if (!n) {
        if (line_to(r, from, to, 1) < 0)
            return not_a_move(move);
        *slot = db_slot(from, to, 0, 0, NULL);
        return 0;
    }
    uint8_t dirs[DB_MAX_JUMPS];
    int q = from;
    for (Py_ssize_t j = 0; j < n; j++) {
        int64_t b;
        if (arg_i64(PyTuple_GET_ITEM(route, j), 0, 64 * DB_PY_WORDS - 1, "a landing point", &b) < 0)
            return -1;
        int land = r->point_of[b], k = land < 0 ? -1 : line_to(r, q, land, 2);
        if (k < 0)
            return not_a_move(move);
        dirs[j] = (uint8_t)k;
        taken |= db_bit(db_next(q, k));
        q = land;
    }
    if (q != to || taken != cap)
        return not_a_move(move);
    *slot = db_slot(from, to, cap, (int)n, dirs);
    return 0;
}

static PyObject *py_bit(int index)
{
    PyObject *one = PyLong_FromLong(1), *n = PyLong_FromLong(index);
    PyObject *out = one && n ? PyNumber_Lshift(one, n) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(n);
    return out;
}

static PyObject *move_value(const DbRules *r, const MoveSlot *m)
{
    int n = db_slot_jumps(m), q = db_slot_from(m);
    PyObject *route = PyTuple_New(n);
    for (int j = 0; route && j < n; j++) {
        q += DB_LAND[db_slot_dir(m, j)];
        PyObject *land = PyLong_FromLong(r->py_index[q]);
        if (!land)
            Py_CLEAR(route);
        else
            PyTuple_SET_ITEM(route, j, land);
    }
    if (!route)
        return NULL;
    return Py_BuildValue("(NNNN)", py_bit(r->py_index[db_slot_from(m)]), py_bit(r->py_index[db_slot_to(m)]),
                         py_mask(r, db_slot_cap(m)), route);
}

/* ------------------------------------------------------------------------------------------
 * The glue (glue.h): a game instance per searcher
 * ---------------------------------------------------------------------------------------- */

static int g_open(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)a;
    if (dablot_game_open(g, rules_of(rules)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void g_close(GameIface *g) { dablot_game_close(g); }

static int g_pos_load(GameIface *g, PyObject *raw, void *pos) { return load_raw(instance_rules(g), raw, pos); }

static PyObject *g_pos_raw(GameIface *g, const void *pos) { return raw_of(instance_rules(g), pos); }

static int g_move_in(GameIface *g, PyObject *move, MoveSlot *out) { return read_move(instance_rules(g), move, out); }

static PyObject *g_move_out(GameIface *g, const MoveSlot *m) { return move_value(instance_rules(g), m); }

const GameGlue DABLOT_GLUE = {
    .open = g_open, .close = g_close, .pos_load = g_pos_load, .pos_raw = g_pos_raw,
    .move_in = g_move_in, .move_out = g_move_out,
};

/* ------------------------------------------------------------------------------------------
 * The Python fast paths
 * ---------------------------------------------------------------------------------------- */

/* random_move(raw, rng): DablotState.random_move (the same draw from rng), or None. */
static PyObject *Dablot_random_move(DablotObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    if (!PyArg_ParseTuple(args, "OO", &raw, &rng))
        return NULL;
    DbPos p;
    Rand local, *rand;
    if (load_raw(&self->rules, raw, &p) < 0 || !(rand = rand_source(rng, &local, &method)))
        return NULL;
    DbCtx c = {.r = &self->rules};
    MoveSlot m;
    int got = db_random_move(&c, &p, rand, &m);
    Py_XDECREF(method);
    if (got < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    if (!got)
        Py_RETURN_NONE;
    return move_value(&self->rules, &m);
}

/* playout(raw, rng, max_plies): DablotState.playout: (its result or None, the raw position
 * after); the draws are those of the Python loop (or a native Random's). */
static PyObject *Dablot_playout(DablotObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    long long max_plies;
    if (!PyArg_ParseTuple(args, "OOL", &raw, &rng, &max_plies))
        return NULL;
    DbPos p;
    Rand local, *rand;
    if (load_raw(&self->rules, raw, &p) < 0 || !(rand = rand_source(rng, &local, &method)))
        return NULL;
    DbCtx c = {.r = &self->rules};
    double result;
    int64_t plies = 0;
    int over = db_playout(&c, &p, max_plies, rand, NULL, &result, &plies);
    db_sink_free(&c.sink);
    Py_XDECREF(method);
    if (over < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return Py_BuildValue("(NN)", result_value(over, result), raw_of(&self->rules, &p));
}

/* playouts(raw, count, seed): `count` random playouts of at most PLAYOUT_CAP plies with the
 * native random source, the GIL released (bench): (first player's wins, draws, second
 * player's wins, plies). */
static PyObject *Dablot_playouts(DablotObject *self, PyObject *args)
{
    PyObject *raw;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK", &raw, &count, &seed))
        return NULL;
    DbPos start;
    if (load_raw(&self->rules, raw, &start) < 0)
        return NULL;
    DbCtx c = {.r = &self->rules};
    long long out[4] = {0, 0, 0, 0};
    int err = 0;
    Rand rand;
    rand_seed(&rand, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count && !err; i++) {
        DbPos p = start;
        double result;
        int64_t plies = 0;
        int over = db_playout(&c, &p, PLAYOUT_CAP, &rand, NULL, &result, &plies);
        err = over < 0;
        if (over == GAME_OVER)
            out[result == 1.0 ? 0 : (result == 0.5 ? 1 : 2)]++;
        out[3] += plies;
    }
    Py_END_ALLOW_THREADS
    db_sink_free(&c.sink);
    if (err)
        return PyErr_NoMemory();
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

/* perft(raw, depth): DablotGame.perft (the draw counters ignored), the GIL released. */
static PyObject *Dablot_perft(DablotObject *self, PyObject *args)
{
    PyObject *raw;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &raw, &depth))
        return NULL;
    if (depth < 0 || depth > 64)
        return PyErr_Format(PyExc_ValueError, "perft: depth %d is not 0 to 64", depth);
    DbPos p;
    if (load_raw(&self->rules, raw, &p) < 0)
        return NULL;
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = db_perft(&self->rules, &p, depth);
    Py_END_ALLOW_THREADS
    return n < 0 ? PyErr_NoMemory() : PyLong_FromLongLong(n);
}

static int Dablot_init(DablotObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *spec;
    static char *kwlist[] = {"spec", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &spec))
        return -1;
    if (read_spec(spec, &self->rules) < 0)
        return -1;
    self->base.glue = &DABLOT_GLUE;
    return 0;
}

static PyMethodDef Dablot_methods[] = {
    {"random_move", (PyCFunction)Dablot_random_move, METH_VARARGS,
     "random_move(raw, rng): DablotState.random_move, the same draw from rng; None for no move."},
    {"playout", (PyCFunction)Dablot_playout, METH_VARARGS,
     "playout(raw, rng, max_plies): DablotState.playout: (its result or None, the raw position after)."},
    {"playouts", (PyCFunction)Dablot_playouts, METH_VARARGS,
     "playouts(raw, count, seed): random playouts in C, the GIL released: (first player's wins, draws, second's, "
     "plies)."},
    {"perft", (PyCFunction)Dablot_perft, METH_VARARGS, "perft(raw, depth): leaves, the draw counters ignored."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject DablotType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.DablotRules",
    .tp_basicsize = sizeof(DablotObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DablotRules(spec): Dablot Prejjesne's rules with its options, compiled (spec from rules/dablot.py).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Dablot_init,
    .tp_methods = Dablot_methods,
};
