/* FanoronaRules: Fanorona's native rules as a Python object (a Rules, glue.h), and their glue.
 *
 * Made once per rule set from the numbers rules/fanorona.py hands over (``fanorona_spec``:
 * the lines from every point, the masks, the options), every one range-checked here.  The
 * search runs it through the C game interface; Python calls its fast paths: ``chains`` (the
 * Python rules' capture chains), ``random_move`` and ``playout`` (drawing from a Python
 * random.Random exactly as the Python loop does, or from a native Random), ``playouts``
 * (bench's batches, the GIL released) and ``perft``.  Positions cross as FanoronaState.raw():
 * (own, opp, turn, ply, quiet); moves as the Python rules' tuples (from, to, captured, *steps).
 */
#include "rules_glue.h"
#include "cpu.h"
#include "fanorona.h"

#include <stdlib.h>
#include <string.h>

/* The Python object: a Rules (its glue) and the rule set. */
typedef struct {
    RulesObject base;
    FnRules rules;
} FanoronaObject;

static const FnRules *rules_of(PyObject *o) { return &((FanoronaObject *)o)->rules; }
static const FnRules *instance_rules(const GameIface *g) { return ((const FnCtx *)g->ctx)->r; }

/* ------------------------------------------------------------------------------------------
 * The spec: rules/fanorona.py's tables as numbers
 * ---------------------------------------------------------------------------------------- */

static PyObject *spec_item(PyObject *spec, const char *key)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v)
        PyErr_Format(PyExc_ValueError, "fanorona spec: no %s", key);
    return v;
}

static int spec_int(PyObject *spec, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    PyObject *v = spec_item(spec, key);
    return v ? arg_i64(v, lo, hi, key, out) : -1;
}

/* A tuple of `n` ints in [lo, hi] (masks: lo = hi = -1, any 64-bit mask). */
static int spec_ints(PyObject *seq, Py_ssize_t n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
    Py_ssize_t len = PySequence_Check(seq) ? PySequence_Size(seq) : -1;
    if (len != n) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "fanorona spec: %s must hold %zd items", what, n);
        }
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = arg_item(seq, i, what);
        int err;
        if (!item)
            return -1;
        if (lo == -1 && hi == -1) {
            uint64_t m = 0;
            err = arg_u64(item, what, &m);
            out[i] = (int64_t)m;
        } else {
            err = arg_i64(item, lo, hi, what, &out[i]);
        }
        Py_DECREF(item);
        if (err < 0)
            return -1;
    }
    return 0;
}

static int read_ray(PyObject *seq, int *ray, int *len)
{
    Py_ssize_t n = PySequence_Check(seq) ? PySequence_Size(seq) : -1;
    if (n < 0 || n > FN_RAY) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "fanorona spec: a ray is not a sequence of at most 9 points");
        return -1;
    }
    int64_t v[FN_RAY];
    if (spec_ints(seq, n, "a ray's point", 0, FN_NONE - 1, v) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++)
        ray[i] = (int)v[i];
    *len = (int)n;
    return 0;
}

/* One point's rows: (direction, target, approach ray, withdrawal ray) per line from it. */
static int read_rows(PyObject *rows, int q, FnRules *r)
{
    Py_ssize_t m = PySequence_Check(rows) ? PySequence_Size(rows) : -1;
    if (m < 0 || m > FN_DIRS) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "fanorona spec: point %d has not 0 to 8 lines", q);
        return -1;
    }
    r->nrows[q] = (int)m;
    if (m)
        r->cells |= (uint64_t)1 << q;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *row = arg_item(rows, i, "a row");
        FnRow *out = &r->rows[q][i];
        PyObject *aray, *wray;
        int ok = row && PyTuple_Check(row) && PyArg_ParseTuple(row, "iiOO", &out->k, &out->to, &aray, &wray)
                 && out->k >= 0 && out->k < FN_DIRS && out->to >= 0 && out->to < FN_NONE
                 && read_ray(aray, out->aray, &out->alen) == 0 && read_ray(wray, out->wray, &out->wlen) == 0;
        Py_XDECREF(row);
        if (!ok) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "fanorona spec: row %zd of point %d is not (k, to, ray, ray)", i, q);
            }
            return -1;
        }
    }
    return 0;
}

static int read_board(PyObject *spec, FnRules *r)
{
    PyObject *rows = spec_item(spec, "rows"), *lines = spec_item(spec, "lines"), *delta = spec_item(spec, "delta");
    if (!rows || !lines || !delta)
        return -1;
    Py_ssize_t n = PySequence_Check(rows) ? PySequence_Size(rows) : -1;
    if (n < 0 || n > FN_NONE) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "fanorona spec: rows must hold at most 63 points");
        return -1;
    }
    int64_t v[FN_DIRS];
    if (spec_ints(lines, FN_DIRS, "lines", -1, -1, v) < 0)
        return -1;
    for (int k = 0; k < FN_DIRS; k++)
        r->lines[k] = (uint64_t)v[k];
    if (spec_ints(delta, FN_DIRS, "delta", -FN_POINTS + 1, FN_POINTS - 1, v) < 0)
        return -1;
    for (int k = 0; k < FN_DIRS; k++)
        r->delta[k] = (int)v[k];
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject *pr = arg_item(rows, q, "rows");
        int err = pr ? read_rows(pr, (int)q, r) : -1;
        Py_XDECREF(pr);
        if (err < 0)
            return -1;
    }
    return 0;
}

/* A ray's mask, whether it runs up the bits along `d`, one point after another; 0 if not. */
static int ray_line(const int *ray, int len, int d, uint64_t *mask)
{
    *mask = 0;
    for (int j = 0; j < len; j++) {
        if (j && ray[j] != ray[j - 1] + d)
            return 0;
        *mask |= (uint64_t)1 << ray[j];
    }
    return 1;
}

/* Every line's target and rays on the board and straight, the rows in direction order; the
 * walk's lines (by direction) and the steps each point's lines allow. */
static int check_board(FnRules *r)
{
    static const int grid[FN_DIRS] = {FN_D0, FN_D1, FN_D2, FN_D3, FN_D4, FN_D5, FN_D6, FN_D7};
    if (memcmp(grid, r->delta, sizeof grid)) {
        PyErr_SetString(PyExc_ValueError, "fanorona spec: the directions are not those of Grid(5, 9)");
        return -1;
    }
    for (int q = 0; q < FN_POINTS; q++)
        for (int i = 0; i < r->nrows[q]; i++) {
            const FnRow *row = &r->rows[q][i];
            FnLine *l = &r->line[q][row->k];
            int d = r->delta[row->k];
            if (!(r->cells >> row->to & 1) || row->to != q + d || !ray_line(row->aray, row->alen, d, &l->ray[0])
                || !ray_line(row->wray, row->wlen, -d, &l->ray[1]) || ((l->ray[0] | l->ray[1]) & ~r->cells)
                || (row->alen && row->aray[0] != row->to + d) || (row->wlen && row->wray[0] != q - d)
                || (i && row->k <= r->rows[q][i - 1].k)) {
                PyErr_Format(PyExc_ValueError, "fanorona spec: a line from point %d leaves the board", q);
                return -1;
            }
            l->to_bit = (uint64_t)1 << row->to;
            l->first[0] = row->alen ? (uint64_t)1 << row->aray[0] : 0;
            l->first[1] = row->wlen ? (uint64_t)1 << row->wray[0] : 0;
            l->k = (int8_t)row->k;
            l->keep = (uint16_t)~(3u << (2 * row->k));
            l->to = (int8_t)row->to;
            l->up[0] = d > 0;
            l->up[1] = d < 0;
            r->valid[q] |= (uint16_t)((row->alen ? 1u : 0u) << (2 * row->k) | (row->wlen ? 2u : 0u) << (2 * row->k));
        }
    for (int q = 0; q < FN_POINTS; q++)
        for (int i = 0; i < r->nrows[q]; i++) {
            FnLine *l = &r->line[q][r->rows[q][i].k];
            l->keep &= r->valid[l->to];
        }
    for (int k = 0; k < FN_DIRS; k++) {
        int back = -1;
        for (int j = 0; j < FN_DIRS; j++)
            if (r->delta[j] == -r->delta[k])
                back = j;
        if (back < 0 || r->delta[k] == 0 || (r->lines[k] & ~r->cells)) {
            PyErr_SetString(PyExc_ValueError, "fanorona spec: the directions are not four opposite pairs on the board");
            return -1;
        }
        int d = r->delta[k];
        uint64_t goes_on = r->lines[k] & (d >= 0 ? r->lines[k] >> d : r->lines[k] << -d);
        uint64_t comes_in = r->lines[k] & r->lines[back];
        r->approach[k] = d >= 0 ? goes_on << d : goes_on >> -d;
        r->withdraw[k] = d >= 0 ? comes_in << d : comes_in >> -d;
    }
    if (fn_step_masks(r) < 0) {
        PyErr_SetString(PyExc_ValueError, "fanorona spec: the lines are not those of Fanorona's board (orthogonal "
                        "everywhere, diagonal through the strong points)");
        return -1;
    }
    if (fn_gather_tables(r) < 0) {
        PyErr_SetString(PyExc_ValueError, "fanorona spec: the options' gathers do not fit the board");
        return -1;
    }
    return 0;
}

static int read_spec(PyObject *spec, FnRules *r)
{
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "FanoronaRules(spec): spec must be a dict (fanorona.py's fanorona_spec)");
        return -1;
    }
    memset(r, 0, sizeof(*r));
    int64_t mode, single, dagaz, start, stones;
    PyObject *scale = spec_item(spec, "eval_scale");
    if (read_board(spec, r) < 0 || check_board(r) < 0 || spec_int(spec, "mode", FN_OPTIONAL, FN_COMPULSORY, &mode) < 0
        || spec_int(spec, "first_single", 0, 1, &single) < 0 || spec_int(spec, "dagaz", 0, 1, &dagaz) < 0
        || spec_int(spec, "quiet_limit", 1, INT64_MAX, &r->quiet_limit) < 0
        || spec_int(spec, "ply_limit", 1, INT64_MAX, &r->ply_limit) < 0
        || spec_int(spec, "start_stones", 1, FN_POINTS, &start) < 0
        || spec_int(spec, "max_stones", 1, FN_MAX_STONES, &stones) < 0 || !scale)
        return -1;
    r->eval_scale = PyFloat_AsDouble(scale);
    if (r->eval_scale == -1.0 && PyErr_Occurred())
        return -1;
    r->mode = (int)mode;
    r->first_single = (int)single;
    r->dagaz = (int)dagaz;
    r->start_stones = (int)start;
    r->max_stones = (int)stones;
    /* optional "plain_bits": 1 keeps the playout on its plain compilation (the tests play both) */
    PyObject *plain = PyDict_GetItemString(spec, "plain_bits");
    int64_t plain_bits = 0;
    if (plain && arg_i64(plain, 0, 1, "plain_bits", &plain_bits) < 0)
        return -1;
    r->fast_bits = !plain_bits && cpu_fast_bits();
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Positions and moves across the boundary
 * ---------------------------------------------------------------------------------------- */

/* FanoronaState.raw(): (own, opp, turn, ply, quiet), checked against the board. */
static int load_raw(const FnRules *r, PyObject *raw, FnPos *p)
{
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 5) {
        PyErr_SetString(PyExc_TypeError, "a Fanorona raw position is (own, opp, turn, ply, quiet)");
        return -1;
    }
    int64_t turn;
    memset(p, 0, sizeof(*p));
    if (arg_u64(PyTuple_GET_ITEM(raw, 0), "own", &p->own) < 0 || arg_u64(PyTuple_GET_ITEM(raw, 1), "opp", &p->opp) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 2), 0, 1, "turn", &turn) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 3), 0, INT64_MAX - 1, "ply", &p->ply) < 0
        || arg_i64(PyTuple_GET_ITEM(raw, 4), 0, INT64_MAX - 1, "quiet", &p->quiet) < 0)
        return -1;
    p->turn = (int)turn;
    if ((p->own | p->opp) & ~r->cells || p->own & p->opp) {
        PyErr_SetString(PyExc_ValueError, "a Fanorona raw position's stones are off the board or overlap");
        return -1;
    }
    if (__builtin_popcountll(p->own) > r->max_stones || __builtin_popcountll(p->opp) > r->max_stones) {
        PyErr_Format(PyExc_ValueError, "a Fanorona raw position holds more than %d stones a side", r->max_stones);
        return -1;
    }
    return 0;
}

static PyObject *raw_of(const FnPos *p)
{
    return Py_BuildValue("(KKiLL)", (unsigned long long)p->own, (unsigned long long)p->opp, p->turn,
                         (long long)p->ply, (long long)p->quiet);
}

/* The direction of the line from `q` to `to`, -1 for none. */
static int direction(const FnRules *r, int q, int to)
{
    for (int i = 0; i < r->nrows[q]; i++)
        if (r->rows[q][i].to == to)
            return r->rows[q][i].k;
    return -1;
}

static int not_a_move(PyObject *move)
{
    PyErr_Format(PyExc_ValueError, "%R is not a Fanorona move (from, to, captured, *steps) of this board", move);
    return -1;
}

/* The Python rules' move tuple into a slot: its points on the board, each step along a line. */
static int read_move(const FnRules *r, PyObject *move, MoveSlot *slot)
{
    Py_ssize_t n = PyTuple_Check(move) ? PyTuple_GET_SIZE(move) : -1;
    if (n < 3 || n > 3 + FN_MAX_STEPS)
        return not_a_move(move);
    int64_t from, to, code;
    uint64_t cap;
    if (arg_i64(PyTuple_GET_ITEM(move, 0), 0, FN_POINTS - 1, "a move's start", &from) < 0
        || arg_i64(PyTuple_GET_ITEM(move, 1), 0, FN_POINTS - 1, "a move's end", &to) < 0
        || arg_u64(PyTuple_GET_ITEM(move, 2), "a move's captured stones", &cap) < 0)
        return -1;
    if (!(r->cells >> from & 1) || !(r->cells >> to & 1) || cap & ~r->cells || (n == 3) != (cap == 0))
        return not_a_move(move);
    memset(slot, 0, sizeof(*slot));
    slot->w[0] = cap;
    slot->b[FN_SLOT_FROM] = (uint8_t)from;
    slot->b[FN_SLOT_TO] = (uint8_t)to;
    slot->b[FN_SLOT_STEPS] = (uint8_t)(n - 3);
    if (n == 3)
        return direction(r, (int)from, (int)to) < 0 ? not_a_move(move) : 0;
    int q = (int)from;
    for (Py_ssize_t i = 3; i < n; i++) {
        if (arg_i64(PyTuple_GET_ITEM(move, i), 0, 2 * FN_POINTS - 1, "a step code", &code) < 0)
            return -1;
        int k = direction(r, q, (int)(code >> 1));
        if (k < 0)
            return not_a_move(move);
        slot->b[FN_SLOT_CODES + (i - 3) / 2] |= (uint8_t)(((k << 1) | (code & 1)) << (4 * ((i - 3) & 1)));
        q = (int)(code >> 1);
    }
    return q == to ? 0 : not_a_move(move);
}

static PyObject *move_value(const FnRules *r, const MoveSlot *m)
{
    int n = m->b[FN_SLOT_STEPS], q = m->b[FN_SLOT_FROM];
    PyObject *t = PyTuple_New(3 + n);
    if (!t)
        return NULL;
    PyTuple_SET_ITEM(t, 0, PyLong_FromLong(q));
    PyTuple_SET_ITEM(t, 1, PyLong_FromLong(m->b[FN_SLOT_TO]));
    PyTuple_SET_ITEM(t, 2, PyLong_FromUnsignedLongLong(m->w[0]));
    for (int i = 0; i < n; i++) {
        int nib = (m->b[FN_SLOT_CODES + i / 2] >> (4 * (i & 1))) & 15;
        q += r->delta[nib >> 1];
        PyTuple_SET_ITEM(t, 3 + i, PyLong_FromLong((q << 1) | (nib & 1)));
    }
    for (int i = 0; i < 3 + n; i++)
        if (!PyTuple_GET_ITEM(t, i)) {
            Py_DECREF(t);
            return NULL;
        }
    return t;
}

/* ------------------------------------------------------------------------------------------
 * The glue (glue.h): a game instance per searcher
 * ---------------------------------------------------------------------------------------- */

static int g_open(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)a;
    if (fanorona_game_open(g, rules_of(rules)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void g_close(GameIface *g) { fanorona_game_close(g); }

static int g_pos_load(GameIface *g, PyObject *raw, void *pos) { return load_raw(instance_rules(g), raw, pos); }

static PyObject *g_pos_raw(GameIface *g, const void *pos)
{
    (void)g;
    return raw_of(pos);
}

static int g_move_in(GameIface *g, PyObject *move, MoveSlot *out) { return read_move(instance_rules(g), move, out); }

static PyObject *g_move_out(GameIface *g, const MoveSlot *m) { return move_value(instance_rules(g), m); }

const GameGlue FANORONA_GLUE = {
    .open = g_open, .close = g_close, .pos_load = g_pos_load, .pos_raw = g_pos_raw,
    .move_in = g_move_in, .move_out = g_move_out,
};

/* ------------------------------------------------------------------------------------------
 * The Python fast paths
 * ---------------------------------------------------------------------------------------- */

/* chains(own, opp, starters, mode): the capturing moves of the stones in `starters`, as the
 * Python rules' chains() lists them (the tuples, the order). */
static PyObject *Fanorona_chains(FanoronaObject *self, PyObject *args)
{
    unsigned long long own, opp, starters;
    int mode;
    if (!PyArg_ParseTuple(args, "KKKi", &own, &opp, &starters, &mode))
        return NULL;
    const FnRules *r = &self->rules;
    if (mode < FN_OPTIONAL || mode > FN_SINGLE)
        return PyErr_Format(PyExc_ValueError, "chains: chain mode %d is not 0, 1 or 2", mode);
    if ((own | opp | starters) & ~r->cells || own & opp || starters & ~own)
        return PyErr_Format(PyExc_ValueError, "chains: masks off the board, overlapping, or starters not own");
    if (__builtin_popcountll(opp) > r->max_stones)
        return PyErr_Format(PyExc_ValueError, "chains: more than %d enemy stones", r->max_stones);
    MoveBuf buf = {0};
    FnSink sink = {.slots = &buf};
    fn_chains(r, own, opp, starters, mode, &sink);
    PyObject *list = sink.oom ? PyErr_NoMemory() : PyList_New((Py_ssize_t)buf.n);
    for (size_t i = 0; list && i < buf.n; i++) {
        PyObject *m = move_value(r, &buf.m[i]);
        if (!m)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, m);
    }
    free(buf.m);
    free(buf.h);
    return list;
}

/* random_move(raw, rng): FanoronaState.random_move (the same draw from rng), or None. */
static PyObject *Fanorona_random_move(FanoronaObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    if (!PyArg_ParseTuple(args, "OO", &raw, &rng))
        return NULL;
    FnPos p;
    Rand local, *rand;
    if (load_raw(&self->rules, raw, &p) < 0 || !(rand = rand_source(rng, &local, &method)))
        return NULL;
    FnCtx c = {.r = &self->rules};
    MoveSlot m;
    int got = fn_random_move(&c, &p, rand, &m);
    Py_XDECREF(method);
    if (got < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    if (!got)
        Py_RETURN_NONE;
    return move_value(&self->rules, &m);
}

/* playout(raw, rng, max_plies): FanoronaState.playout: (its result or None, the raw position
 * after); the draws are those of the Python loop (or a native Random's). */
static PyObject *Fanorona_playout(FanoronaObject *self, PyObject *args)
{
    PyObject *raw, *rng, *method;
    long long max_plies;
    if (!PyArg_ParseTuple(args, "OOL", &raw, &rng, &max_plies))
        return NULL;
    FnPos p;
    Rand local, *rand;
    if (load_raw(&self->rules, raw, &p) < 0 || !(rand = rand_source(rng, &local, &method)))
        return NULL;
    FnCtx c = {.r = &self->rules};
    double result;
    int64_t plies = 0;
    int over = fn_playout(&c, &p, max_plies, rand, NULL, &result, &plies);
    fn_sink_free(&c.sink);
    Py_XDECREF(method);
    if (over < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return Py_BuildValue("(NN)", result_value(over, result), raw_of(&p));
}

/* playouts(raw, count, seed): `count` random playouts of at most PLAYOUT_CAP plies with the
 * native random source, the GIL released (bench): (first player's wins, draws, second
 * player's wins, plies). */
static PyObject *Fanorona_playouts(FanoronaObject *self, PyObject *args)
{
    PyObject *raw;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK", &raw, &count, &seed))
        return NULL;
    FnPos start;
    if (load_raw(&self->rules, raw, &start) < 0)
        return NULL;
    FnCtx c = {.r = &self->rules};
    long long out[4] = {0, 0, 0, 0};
    int err = 0;
    Rand rand;
    rand_seed(&rand, seed);
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count && !err; i++) {
        FnPos p = start;
        double result;
        int64_t plies = 0;
        int over = fn_playout(&c, &p, PLAYOUT_CAP, &rand, NULL, &result, &plies);
        err = over < 0;
        if (over == GAME_OVER)
            out[result == 1.0 ? 0 : (result == 0.5 ? 1 : 2)]++;
        out[3] += plies;
    }
    Py_END_ALLOW_THREADS
    fn_sink_free(&c.sink);
    if (err)
        return PyErr_NoMemory();
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

/* perft(raw, depth): FanoronaGame.perft (draw rules ignored), the GIL released. */
static PyObject *Fanorona_perft(FanoronaObject *self, PyObject *args)
{
    PyObject *raw;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &raw, &depth))
        return NULL;
    if (depth < 0 || depth > 64)
        return PyErr_Format(PyExc_ValueError, "perft: depth %d is not 0 to 64", depth);
    FnPos p;
    if (load_raw(&self->rules, raw, &p) < 0)
        return NULL;
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = fn_perft(&self->rules, &p, depth);
    Py_END_ALLOW_THREADS
    return n < 0 ? PyErr_NoMemory() : PyLong_FromLongLong(n);
}

static int Fanorona_init(FanoronaObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *spec;
    static char *kwlist[] = {"spec", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &spec))
        return -1;
    if (read_spec(spec, &self->rules) < 0)
        return -1;
    self->base.glue = &FANORONA_GLUE;
    return 0;
}

static PyMethodDef Fanorona_methods[] = {
    {"chains", (PyCFunction)Fanorona_chains, METH_VARARGS,
     "chains(own, opp, starters, mode): every capturing move of the stones in starters, as rules/fanorona.py's "
     "chains lists them (the same tuples in the same order)."},
    {"random_move", (PyCFunction)Fanorona_random_move, METH_VARARGS,
     "random_move(raw, rng): FanoronaState.random_move, the same draw from rng; None for no move."},
    {"playout", (PyCFunction)Fanorona_playout, METH_VARARGS,
     "playout(raw, rng, max_plies): FanoronaState.playout: (its result or None, the raw position after)."},
    {"playouts", (PyCFunction)Fanorona_playouts, METH_VARARGS,
     "playouts(raw, count, seed): random playouts in C, the GIL released: (first player's wins, draws, second's, "
     "plies)."},
    {"perft", (PyCFunction)Fanorona_perft, METH_VARARGS, "perft(raw, depth): leaves, draw rules ignored."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject FanoronaType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.FanoronaRules",
    .tp_basicsize = sizeof(FanoronaObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "FanoronaRules(spec): Fanorona's rules with its options, compiled (spec from rules/fanorona.py).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Fanorona_init,
    .tp_methods = Fanorona_methods,
};
