/* RithmomachiaRules: Rithmomachia's native rules as a Python object (a Rules subtype), and its
 * glue (glue.h): the game's tables handed over once as numbers, positions as
 * RithmomachiaState.raw() gives them, moves as the Python rules' ints (from * 256 + to, on the
 * Python board's bits), each checked where it is read.
 *
 * A raw position is one flat tuple of ints: (side, ply, white's captured pieces, their value,
 * black's captured pieces, their value, winner or -1, then per piece in ascending cell order
 * (cell, colour, code) for a plain piece (code = value << 2 | shape) or
 * (cell, colour, 0, alive mask, n, component codes...) for a pyramid).
 */
#include "rith_py.h"

#include <stdlib.h>

/* --- the spec (rules/rithmomachia/native.py) -------------------------------------------------------- */

static int spec_int(PyObject *spec, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v || !PyLong_Check(v)) {
        PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s must be an int", key);
        return -1;
    }
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s=%lld is outside %lld..%lld", key, x, (long long)lo,
                     (long long)hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* `obj`: a sequence of at most `max_rows` rows of `width` ints in -16..16, into rows. */
static int int_rows(PyObject *obj, const char *name, int width, int max_rows, int *rows, int *n)
{
    PyObject *seq = obj ? PySequence_Fast(obj, name) : NULL;
    if (!seq) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s missing", name);
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int ok = count <= max_rows;
    for (Py_ssize_t i = 0; ok && i < count; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(seq, i);
        ok = PyTuple_Check(row) && PyTuple_GET_SIZE(row) == width;
        for (int j = 0; ok && j < width; j++) {
            long v = PyLong_Check(PyTuple_GET_ITEM(row, j)) ? PyLong_AsLong(PyTuple_GET_ITEM(row, j)) : 99;
            ok = v >= -16 && v <= 16;
            rows[i * width + j] = (int)v;
        }
    }
    Py_DECREF(seq);
    if (!ok) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s must be at most %d tuples of %d small ints", name,
                     max_rows, width);
        return -1;
    }
    *n = (int)count;
    return 0;
}

static int spec_shapes(PyObject *spec, const char *key, int width, int max_rows, int *rows, int *counts)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 3) {
        PyErr_Format(PyExc_ValueError, "rithmomachia spec: %s must hold one entry per shape", key);
        return -1;
    }
    for (int s = 0; s < 3; s++)
        if (int_rows(PyTuple_GET_ITEM(v, s), key, width, max_rows, rows + s * max_rows * width, &counts[s]) < 0)
            return -1;
    return 0;
}

int rm_read_geometry(PyObject *spec, RmSpec *s)
{
    int64_t ranks, first;
    if (spec_int(spec, "ranks", 4, RM_MAX_RANKS, &ranks) < 0 || spec_int(spec, "first", 0, 1, &first) < 0)
        return -1;
    s->ranks = (int)ranks;
    s->first = (int)first;
    return spec_shapes(spec, "patterns", 4, RM_MAX_PATS, &s->pat[0][0][0], s->npat) < 0
           || int_rows(PyDict_GetItemString(spec, "diag3"), "diag3", 4, 4, &s->diag3[0][0], &s->ndiag3) < 0
           || spec_shapes(spec, "ray_dirs", 2, RM_MAX_DIRS, &s->ray_dir[0][0][0], s->nray_dir) < 0
           || int_rows(PyDict_GetItemString(spec, "custodial"), "custodial", 4, RM_MAX_CUST, &s->cust_pair[0][0],
                       &s->ncust_pair) < 0
           || int_rows(PyDict_GetItemString(spec, "slide_dirs"), "slide_dirs", 2, RM_MAX_DIRS, &s->slide_dir[0][0],
                       &s->nslide_dir) < 0 ? -1 : 0;
}

int rm_read_options(PyObject *spec, RmRules *R)
{
    static const char *flags[] = {"linear", "natural_siege", "movement_ambush", "same_piece_pairs", "eq_any_component",
                                  "division", "blocking", "total_only_intact", "total_defence", "whole_on_part",
                                  "count_author", "glorious_literal", "glorious_ordered", "glorious_unobstructed",
                                  "pyramid_capture_wins", "no_moves_loss"};
    int *fields[] = {&R->linear, &R->natural_siege, &R->movement_ambush, &R->same_piece_pairs, &R->eq_any_component,
                     &R->division, &R->blocking, &R->total_only_intact, &R->total_defence, &R->whole_on_part,
                     &R->count_author, &R->glorious_literal, &R->glorious_ordered, &R->glorious_unobstructed,
                     &R->pyramid_capture_wins, &R->no_moves_loss};
    int64_t v;
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        if (spec_int(spec, flags[i], 0, 1, &v) < 0)
            return -1;
        *fields[i] = (int)v;
    }
    if (spec_int(spec, "glorious", 0, 2, &v) < 0)
        return -1;
    R->glorious = (int)v;
    if (spec_int(spec, "glorious_lines", 0, 2, &v) < 0)
        return -1;
    R->glorious_lines = (int)v;
    R->pairs_in_one = R->same_piece_pairs && R->movement_ambush;
    /* what the Python rules let a position hold must fit this core's positions */
    if (spec_int(spec, "max_value", 1, RM_MAX_VALUE - 1, &v) < 0 || spec_int(spec, "max_pyramids", 1, RM_PYRAMIDS, &v) < 0
        || spec_int(spec, "max_components", 1, RM_COMPS, &v) < 0 || spec_int(spec, "max_count", 1, RM_MAX_COUNT, &v) < 0)
        return -1;
    return spec_int(spec, "win_count", 1, RM_MAX_COUNT, &R->win_count) < 0
           || spec_int(spec, "threshold_white", 1, RM_MAX_COUNT, &R->thresholds[0]) < 0
           || spec_int(spec, "threshold_black", 1, RM_MAX_COUNT, &R->thresholds[1]) < 0
           || spec_int(spec, "max_plies", 0, RM_MAX_COUNT, &R->max_plies) < 0 ? -1 : 0;
}

/* --- positions ---------------------------------------------------------------------------------------- */

static int bad_raw(const char *why)
{
    PyErr_Format(PyExc_ValueError, "rithmomachia raw position: %s", why);
    return -1;
}

/* Item i of the raw tuple as an int in lo..hi. */
static int raw_int(PyObject *raw, Py_ssize_t i, int64_t lo, int64_t hi, int64_t *out)
{
    if (i >= PyTuple_GET_SIZE(raw))
        return bad_raw("the tuple ends inside a piece");
    PyObject *v = PyTuple_GET_ITEM(raw, i);
    long long x = PyLong_Check(v) ? PyLong_AsLongLong(v) : -1;
    if (x == -1 && PyErr_Occurred())
        PyErr_Clear();
    else if (PyLong_Check(v) && x >= lo && x <= hi) {
        *out = x;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "rithmomachia raw position: item %zd is not an int in %lld..%lld", i, (long long)lo,
                 (long long)hi);
    return -1;
}

int rm_cell_of(const RmRules *R, int64_t py)
{
    int r = (int)(py / PY_STRIDE), c = (int)(py % PY_STRIDE);
    return c < RM_FILES && r < R->ranks ? r * RM_FILES + c : -1;
}

static int valid_code(int64_t code) { return (code & 3) != 3 && code >= 4 && (code >> 2) < RM_MAX_VALUE; }

/* One piece from item *i on; *i moves past it. */
static int load_piece(const RmRules *R, PyObject *raw, Py_ssize_t *i, RmPos *p)
{
    int64_t py, colour, code, alive, n;
    if (raw_int(raw, (*i)++, 0, PY_STRIDE * R->ranks - 1, &py) < 0 || raw_int(raw, (*i)++, 0, 1, &colour) < 0
        || raw_int(raw, (*i)++, 0, (int64_t)RM_MAX_VALUE << 2, &code) < 0)
        return -1;
    int x = rm_cell_of(R, py);
    if (x < 0 || ((rm_occ(p, 0) | rm_occ(p, 1)) >> x & 1))
        return bad_raw("a cell off the board or given twice");
    if (code) {
        if (!valid_code(code))
            return bad_raw("a piece code is not value << 2 | shape with a value from 1 to 2**24 - 1");
        p->code[x] = (uint32_t)code;
        p->bb[colour][code & 3] |= rm_bit(x);
        return 0;
    }
    if (p->npyr == RM_PYRAMIDS)
        return bad_raw("more pyramids than the native rules hold (8)");
    if (raw_int(raw, (*i)++, 1, ((int64_t)1 << RM_COMPS) - 1, &alive) < 0 || raw_int(raw, (*i)++, 1, RM_COMPS, &n) < 0)
        return -1;
    if (alive >> n)
        return bad_raw("a pyramid's alive mask names components it does not have");
    RmPyramid *y = &p->pyr[p->npyr];
    y->n = (int)n;
    y->alive = (uint32_t)alive;
    for (int k = 0; k < n; k++) {
        if (raw_int(raw, (*i)++, 4, (int64_t)RM_MAX_VALUE << 2, &code) < 0)
            return -1;
        if (!valid_code(code))
            return bad_raw("a pyramid component is not value << 2 | shape");
        y->comp[k] = (uint32_t)code;
    }
    p->code[x] = RM_PYR_FLAG | (uint32_t)p->npyr++;
    p->bb[colour][RM_PYRAMID] |= rm_bit(x);
    return 0;
}

int rm_load_pos(const RmRules *R, PyObject *raw, RmPos *p)
{
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) < 7)
        return bad_raw("not a tuple of at least 7 ints (RithmomachiaState.raw())");
    memset(p, 0, sizeof(*p));
    int64_t v[7];
    int64_t hi[7] = {1, RM_MAX_COUNT, RM_MAX_COUNT, RM_MAX_COUNT, RM_MAX_COUNT, RM_MAX_COUNT, 1};
    for (Py_ssize_t i = 0; i < 7; i++)
        if (raw_int(raw, i, i == 6 ? -1 : 0, hi[i], &v[i]) < 0)
            return -1;
    p->side = (int)v[0];
    p->ply = v[1];
    for (int k = 0; k < 4; k++)
        p->caps[k] = v[2 + k];
    p->result = (int)v[6];
    p->movable = -1;
    p->fresh[0] = p->fresh[1] = 1;
    for (Py_ssize_t i = 7; i < PyTuple_GET_SIZE(raw);)
        if (load_piece(R, raw, &i, p) < 0)
            return -1;
    return 0;
}

static int append_int(PyObject *list, int64_t x)
{
    PyObject *v = PyLong_FromLongLong(x);
    int r = v ? PyList_Append(list, v) : -1;
    Py_XDECREF(v);
    return r;
}

PyObject *rm_raw_of(const RmRules *R, const RmPos *p)
{
    PyObject *out = PyList_New(0);
    int ok = out != NULL;
    int64_t head[7] = {p->side, p->ply, p->caps[0], p->caps[1], p->caps[2], p->caps[3], p->result};
    for (int i = 0; ok && i < 7; i++)
        ok = append_int(out, head[i]) == 0;
    for (rm_bb all = rm_occ(p, 0) | rm_occ(p, 1); ok && all; all &= all - 1) {
        int x = rm_ctz(all), colour = (int)(rm_occ(p, 1) >> x & 1);
        ok = append_int(out, R->py_index[x]) == 0 && append_int(out, colour) == 0;
        if (ok && !rm_is_pyramid(p, colour, x))
            ok = append_int(out, p->code[x]) == 0;
        else if (ok) {
            const RmPyramid *y = rm_pyramid(p, x);
            ok = append_int(out, 0) == 0 && append_int(out, y->alive) == 0 && append_int(out, y->n) == 0;
            for (int k = 0; ok && k < y->n; k++)
                ok = append_int(out, y->comp[k]) == 0;
        }
    }
    PyObject *tuple = ok ? PyList_AsTuple(out) : NULL;
    Py_XDECREF(out);
    return tuple;
}

/* --- the glue ------------------------------------------------------------------------------------------- */

static const RmRules *instance_rules(const GameIface *g) { return *(const RmRules *const *)g->ctx; }

static int glue_open(PyObject *rules, const GameArgs *args, GameIface *g)
{
    (void)args;
    if (rm_game_open(g, ((RmObject *)rules)->rules) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int glue_pos_load(GameIface *g, PyObject *raw, void *pos) { return rm_load_pos(instance_rules(g), raw, pos); }
static PyObject *glue_pos_raw(GameIface *g, const void *pos) { return rm_raw_of(instance_rules(g), pos); }

static int glue_move_in(GameIface *g, PyObject *move, MoveSlot *out)
{
    const RmRules *R = instance_rules(g);
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a rithmomachia move is an int (from * 256 + to), not %R", move);
        return -1;
    }
    long long m = PyLong_AsLongLong(move);
    if (m == -1 && PyErr_Occurred())
        PyErr_Clear();
    int f = m >= 0 && m < 65536 ? rm_cell_of(R, m >> 8) : -1, t = m >= 0 && m < 65536 ? rm_cell_of(R, m & 255) : -1;
    if (f < 0 || t < 0 || f == t) {
        PyErr_Format(PyExc_ValueError, "%R is not a move of the 8x%d board (from * 256 + to)", move, R->ranks);
        return -1;
    }
    memset(out, 0, sizeof(*out));
    out->w[0] = (uint64_t)f | (uint64_t)t << 8;
    return 0;
}

static PyObject *glue_move_out(GameIface *g, const MoveSlot *m)
{
    const RmRules *R = instance_rules(g);
    return PyLong_FromLong((long)R->py_index[m->w[0] & 0xff] * 256 + R->py_index[m->w[0] >> 8 & 0xff]);
}

const GameGlue RM_GLUE = {
    .open = glue_open, .close = rm_game_close, .pos_load = glue_pos_load, .pos_raw = glue_pos_raw,
    .move_in = glue_move_in, .move_out = glue_move_out,
};
