/* DraughtsKernel: one draughts variant's rules, compiled from the spec rules/draughts/kernel.py
 * makes, and their hot operations on raw masks and on DraughtsState objects. */
#include "glue.h"

#include <math.h>

static int spec_int(PyObject *spec, const char *key, int *out)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "kernel spec lacks %s", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = (int)x;
    return 0;
}

static int spec_double(PyObject *spec, const char *key, double *out)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "kernel spec lacks %s", key);
        return -1;
    }
    *out = PyFloat_AsDouble(v);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int spec_mask(PyObject *spec, const char *key, int index, u128 *out)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "kernel spec lacks %s", key);
        return -1;
    }
    if (index >= 0) {
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) <= index) {
            PyErr_Format(PyExc_ValueError, "kernel spec %s: a tuple expected", key);
            return -1;
        }
        v = PyTuple_GET_ITEM(v, index);
    }
    return to_u128(v, out);
}

/* A tuple of ints (or of tuples whose first item is the int) into dirs[]. */
static int read_dirs(PyObject *seq, int *dirs, int *n, const char *what)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > MAX_DIRS) {
        PyErr_Format(PyExc_ValueError, "kernel spec %s: a tuple of at most %d directions expected", what, MAX_DIRS);
        return -1;
    }
    *n = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *n; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) > 0)
            item = PyTuple_GET_ITEM(item, 0);
        long d = PyLong_AsLong(item);
        if (d == -1 && PyErr_Occurred())
            return -1;
        if (d == 0 || d > 40 || d < -40) {
            PyErr_Format(PyExc_ValueError, "kernel spec %s: direction %ld out of range", what, d);
            return -1;
        }
        dirs[i] = (int)d;
    }
    return 0;
}

/* One group of a scan plan: (d, dd, st) entries (shared) or (d, dd, st, ju) entries (split). */
static int read_plan_group(PyObject *seq, PlanDir *out, int *n, int shared)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > MAX_DIRS) {
        PyErr_SetString(PyExc_ValueError, "kernel spec plans: a tuple of directions expected");
        return -1;
    }
    *n = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *n; i++) {
        PyObject *e = PyTuple_GET_ITEM(seq, i);
        int size = shared ? 3 : 4;
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != size) {
            PyErr_SetString(PyExc_ValueError, "kernel spec plans: a bad entry");
            return -1;
        }
        long v[4];
        for (int j = 0; j < size; j++) {
            v[j] = PyLong_AsLong(PyTuple_GET_ITEM(e, j));
            if (v[j] == -1 && PyErr_Occurred())
                return -1;
        }
        if (v[0] <= 0 || v[0] > 40 || v[1] != 2 * v[0] || v[2] < 0 || v[2] > 3 || (!shared && (v[3] < 0 || v[3] > 3))) {
            PyErr_SetString(PyExc_ValueError, "kernel spec plans: an entry out of range");
            return -1;
        }
        out[i].d = (int)v[0];
        out[i].dd = (int)v[1];
        out[i].st = (int)v[2];
        out[i].ju = shared ? (int)v[2] : (int)v[3];
    }
    return 0;
}

static int read_plans(Rules *r, PyObject *spec)
{
    PyObject *plans = PyDict_GetItemString(spec, "plans");
    if (!plans || !PyTuple_Check(plans) || PyTuple_GET_SIZE(plans) != 2) {
        PyErr_SetString(PyExc_ValueError, "kernel spec plans: two players expected");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        PyObject *cases = PyTuple_GET_ITEM(plans, p);
        if (!PyTuple_Check(cases) || PyTuple_GET_SIZE(cases) != 3) {
            PyErr_SetString(PyExc_ValueError, "kernel spec plans: three cases expected");
            return -1;
        }
        for (int c = 0; c < 3; c++) {
            PyObject *g = PyTuple_GET_ITEM(cases, c);
            Plan *plan = &r->plans[p][c];
            if (!PyTuple_Check(g) || PyTuple_GET_SIZE(g) != 4
                || read_plan_group(PyTuple_GET_ITEM(g, 0), plan->shared_up, &plan->n_shared_up, 1) < 0
                || read_plan_group(PyTuple_GET_ITEM(g, 1), plan->shared_down, &plan->n_shared_down, 1) < 0
                || read_plan_group(PyTuple_GET_ITEM(g, 2), plan->split_up, &plan->n_split_up, 0) < 0
                || read_plan_group(PyTuple_GET_ITEM(g, 3), plan->split_down, &plan->n_split_down, 0) < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "kernel spec plans: four groups expected");
                return -1;
            }
        }
    }
    return 0;
}

/* The evaluation's positional terms: weights, the squares they count, the men's steps. */
static int read_terms(Rules *r, PyObject *spec)
{
    PyObject *v = PyDict_GetItemString(spec, "eval_terms");
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != N_TERMS) {
        PyErr_Format(PyExc_ValueError, "kernel spec: eval_terms must be %d floats", N_TERMS);
        return -1;
    }
    r->any_term = 0;
    for (int i = 0; i < N_TERMS; i++) {
        r->terms[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(v, i));
        if (r->terms[i] == -1.0 && PyErr_Occurred())
            return -1;
        r->any_term |= r->terms[i] != 0.0;
    }
    if (spec_mask(spec, "centre", -1, &r->centre) < 0 || spec_mask(spec, "edge", -1, &r->edge) < 0)
        return -1;
    for (int p = 0; p < 2; p++) {
        if (spec_mask(spec, "back_rank", p, &r->back_rank[p]) < 0 || spec_mask(spec, "near_crown", p, &r->near_crown[p]) < 0
            || spec_mask(spec, "guard", p, &r->guard[p]) < 0)
            return -1;
        PyObject *bits = PyDict_GetItemString(spec, "tempo_bits");
        if (!bits || !PyTuple_Check(bits) || PyTuple_GET_SIZE(bits) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(bits, p))
            || PyTuple_GET_SIZE(PyTuple_GET_ITEM(bits, p)) != TEMPO_BITS) {
            PyErr_Format(PyExc_ValueError, "kernel spec: tempo_bits must be two tuples of %d masks", TEMPO_BITS);
            return -1;
        }
        for (int j = 0; j < TEMPO_BITS; j++)
            if (to_u128(PyTuple_GET_ITEM(PyTuple_GET_ITEM(bits, p), j), &r->tempo_bits[p][j]) < 0)
                return -1;
    }
    v = PyDict_GetItemString(spec, "man_step");
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2
        || read_dirs(PyTuple_GET_ITEM(v, 0), r->man_step[0], &r->n_man_step[0], "man_step") < 0
        || read_dirs(PyTuple_GET_ITEM(v, 1), r->man_step[1], &r->n_man_step[1], "man_step") < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "kernel spec: bad man_step");
        return -1;
    }
    return 0;
}

static int Kernel_init(KernelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"spec", NULL};
    PyObject *spec;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!", kwlist, &PyDict_Type, &spec))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "DraughtsKernel: cannot be set up again while it runs");
        return -1;
    }
    if (self->word) {     /* set up again: the old word's buffers go, and it is no game until it is done */
        self->word->scratch_free(&self->scratch);
        self->word = NULL;
        self->base.glue = NULL;
    }
    Py_CLEAR(self->learned);
    Rules *r = &self->rules;
    memset(r, 0, sizeof(*r));
    PyObject *v;
    if (spec_int(spec, "wide", &r->wide) < 0 || spec_mask(spec, "points", -1, &r->points) < 0
        || spec_mask(spec, "promo", 0, &r->promo[0]) < 0 || spec_mask(spec, "promo", 1, &r->promo[1]) < 0
        || spec_mask(spec, "far_half", 0, &r->far_half[0]) < 0 || spec_mask(spec, "far_half", 1, &r->far_half[1]) < 0
        || spec_mask(spec, "long_diagonal", -1, &r->long_diagonal) < 0 || read_plans(r, spec) < 0)
        return -1;
    if (!r->wide && (r->points >> 64)) {
        PyErr_SetString(PyExc_ValueError, "kernel spec: the board does not fit 64 bits; set wide");
        return -1;
    }
    if (!(v = PyDict_GetItemString(spec, "king_step_up")) || read_dirs(v, r->king_step_up, &r->n_king_step_up, "king_step_up") < 0
        || !(v = PyDict_GetItemString(spec, "king_step_down")) || read_dirs(v, r->king_step_down, &r->n_king_step_down, "king_step_down") < 0
        || !(v = PyDict_GetItemString(spec, "king_jump")) || read_dirs(v, r->king_jump, &r->n_king_jump, "king_jump") < 0
        || !(v = PyDict_GetItemString(spec, "man_jump")) || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2
        || read_dirs(PyTuple_GET_ITEM(v, 0), r->man_jump[0], &r->n_man_jump[0], "man_jump") < 0
        || read_dirs(PyTuple_GET_ITEM(v, 1), r->man_jump[1], &r->n_man_jump[1], "man_jump") < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "kernel spec: bad directions");
        return -1;
    }
    v = PyDict_GetItemString(spec, "king_only");
    if (v && v != Py_None) {
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2
            || read_dirs(PyTuple_GET_ITEM(v, 0), r->king_only_up, &r->n_king_only_up, "king_only") < 0
            || read_dirs(PyTuple_GET_ITEM(v, 1), r->king_only_down, &r->n_king_only_down, "king_only") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "kernel spec: bad king_only");
            return -1;
        }
        r->king_only = 1;
    }
    int64_t no_progress;
    v = PyDict_GetItemString(spec, "no_progress");
    if (!v || to_i64(v, &no_progress) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "kernel spec lacks no_progress");
        return -1;
    }
    r->no_progress = no_progress;
    if (spec_int(spec, "king_jump_equals_step", &r->king_jump_equals_step) < 0
        || spec_int(spec, "flying", &r->flying) < 0 || spec_int(spec, "man_takes_king", &r->man_takes_king) < 0
        || spec_int(spec, "king_reverse", &r->king_reverse) < 0 || spec_int(spec, "immediate", &r->immediate) < 0
        || spec_int(spec, "promotion", &r->promotion) < 0 || spec_int(spec, "landing", &r->landing) < 0
        || spec_int(spec, "choice", &r->choice) < 0 || spec_int(spec, "goal", &r->goal) < 0
        || spec_int(spec, "repetition", &r->repetition) < 0 || spec_int(spec, "quiet_on_man_move", &r->quiet_on_man_move) < 0
        || spec_int(spec, "men_sideways", &r->men_sideways) < 0 || spec_int(spec, "king_move_limit", &r->king_move_limit) < 0
        || spec_int(spec, "extra_rules", &r->extra_rules) < 0 || spec_int(spec, "endgame", &r->endgame) < 0
        || spec_int(spec, "endgame_max", &r->endgame_max) < 0 || spec_int(spec, "endgame_floor", &r->endgame_floor) < 0
        || spec_int(spec, "start_pieces", &r->start_pieces) < 0
        || spec_double(spec, "king_value", &r->king_value) < 0 || spec_double(spec, "eval_scale", &r->eval_scale) < 0
        || spec_double(spec, "eval_advance", &r->eval_advance) < 0)
        return -1;
    if (read_terms(r, spec) < 0)
        return -1;
    v = PyDict_GetItemString(spec, "stuck_score");
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) {
        PyErr_SetString(PyExc_ValueError, "kernel spec: stuck_score must be two floats");
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        r->stuck_score[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(v, i));
        if (r->stuck_score[i] == -1.0 && PyErr_Occurred())
            return -1;
    }
    if (r->promotion < PROMO_STOP || r->promotion > PROMO_FLY || r->landing < LAND_ANY || r->landing > LAND_KILLER
        || r->choice < CHOICE_FREE || r->choice > CHOICE_KING_FIRST || r->goal < GOAL_BLOCK || r->goal > GOAL_CROWN
        || r->endgame < COUNT_NONE || r->endgame > COUNT_TURKISH) {
        PyErr_SetString(PyExc_ValueError, "kernel spec: a rule parameter out of range");
        return -1;
    }
    r->piece_scale[0] = 0.0;
    for (int p = 1; p <= 128; p++)      /* pow once per count, not per evaluation */
        r->piece_scale[p] = pow((double)r->start_pieces / (double)p, 0.5);
    r->n_points = 0;
    for (int i = 0; i < 128; i++)
        r->ordinal[i] = (r->points >> i) & 1 ? r->n_points++ : -1;
    self->base.glue = &DRAUGHTS_GLUE;
    self->word = r->wide ? KERNEL_WORD_128 : KERNEL_WORD_64;   /* the word, chosen once */
    return 0;
}

static void Kernel_dealloc(KernelObject *self)
{
    if (self->word)
        self->word->scratch_free(&self->scratch);
    Py_CLEAR(self->learned);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --- arguments ------------------------------------------------------------------------- */
static int set_up(KernelObject *k)
{
    if (k->word)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "DraughtsKernel: not set up (its __init__ failed or was not called)");
    return 0;
}

static int parse_raw(KernelObject *k, PyObject *const *args, Py_ssize_t nargs, int min, int max, RawArgs *a)
{
    if (nargs < min || nargs > max) {
        PyErr_Format(PyExc_TypeError, "expected %d to %d arguments, got %zd", min, max, nargs);
        return -1;
    }
    if (!set_up(k))
        return -1;
    memset(a, 0, sizeof(*a));
    if (to_u128(args[0], &a->own) < 0 || to_u128(args[1], &a->opp) < 0 || to_u128(args[2], &a->kings) < 0)
        return -1;
    if (nargs > 3) {
        long t = PyLong_AsLong(args[3]);
        if (t == -1 && PyErr_Occurred())
            return -1;
        if (t != 0 && t != 1) {
            PyErr_SetString(PyExc_ValueError, "turn must be 0 or 1");
            return -1;
        }
        a->turn = (int)t;
    }
    if (nargs > 4 && to_u128(args[4], &a->frozen) < 0)
        return -1;
    return masks_fit(&k->rules, a) ? 0 : -1;
}

/* --- the word's operations on Python's arguments ---------------------------------------------
 * Every method calls the kernel's word (self->word, draughts.h) with masks as u128 and positions
 * in a PosBuf, so one function serves both words. */

/* The kernel's scratch buffers, or fresh ones while a callback holds them. */
typedef struct { void *s; ScratchBuf fresh; int own; } ScratchUse;

static void scratch_take(KernelObject *k, ScratchUse *u)
{
    memset(u, 0, sizeof(*u));
    if (k->busy) {
        u->s = &u->fresh;
    } else {
        k->busy = 1;
        u->own = 1;
        u->s = &k->scratch;
    }
}

static void scratch_give(KernelObject *k, ScratchUse *u)
{
    if (u->own)
        k->busy = 0;
    else
        k->word->scratch_free(&u->fresh);
}

static PyObject *Kernel_legal(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (parse_raw(self, args, nargs, 4, 5, &a) < 0)
        return NULL;
    const KernelWord *w = self->word;
    ScratchUse u;
    scratch_take(self, &u);
    PyObject *out = NULL;
    int n = w->legal(&self->rules, a.own, a.opp, a.kings, a.turn, a.frozen, u.s);
    if (n < 0)
        PyErr_NoMemory();
    else if ((out = PyList_New(n))) {
        for (int i = 0; i < n; i++) {
            KernelMove m = w->move_at(u.s, (size_t)i);
            PyObject *t = move_tuple(m.frm, m.to, m.cap, m.crowned);
            if (!t) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, t);
        }
    }
    scratch_give(self, &u);
    return out;
}

static PyObject *Kernel_jumpers(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (parse_raw(self, args, nargs, 4, 4, &a) < 0)
        return NULL;
    return from_u128(self->word->jumpers(&self->rules, a.own, a.opp, a.kings, a.turn));
}

static PyObject *Kernel_perft(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "perft(own, opp, kings, turn, depth)");
        return NULL;
    }
    if (parse_raw(self, args, 4, 4, 4, &a) < 0)
        return NULL;
    long depth = PyLong_AsLong(args[4]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (depth > 64) {
        PyErr_SetString(PyExc_ValueError, "perft depth above 64");
        return NULL;
    }
    int64_t n;
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    n = self->word->perft(&self->rules, a.own, a.opp, a.kings, a.turn, (int)depth, &oom);
    Py_END_ALLOW_THREADS
    if (oom || n < 0)
        return PyErr_NoMemory();
    return PyLong_FromLongLong(n);
}

static PyObject *Kernel_evaluate(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (parse_raw(self, args, nargs, 4, 4, &a) < 0)
        return NULL;
    return PyFloat_FromDouble(self->word->evaluate(&self->rules, a.own, a.opp, a.kings, a.turn));
}

static PyObject *Kernel_endgame_limit(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (parse_raw(self, args, nargs, 3, 3, &a) < 0)
        return NULL;
    int v = self->word->endgame_limit(&self->rules, a.own, a.opp, a.kings);
    if (v < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Kernel_table_index(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    RawArgs a;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "table_index(own, opp, kings, classes)");
        return NULL;
    }
    if (parse_raw(self, args, 3, 3, 3, &a) < 0)
        return NULL;
    PyObject *cls = args[3];
    if (!PyTuple_Check(cls) || PyTuple_GET_SIZE(cls) != 4) {
        PyErr_SetString(PyExc_TypeError, "classes: a tuple of four piece counts");
        return NULL;
    }
    int classes[4];
    for (int i = 0; i < 4; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(cls, i));
        if (c == -1 && PyErr_Occurred())
            return NULL;
        if (c < 0 || c > self->rules.n_points) {
            PyErr_SetString(PyExc_ValueError, "classes: a piece count out of range");
            return NULL;
        }
        classes[i] = (int)c;
    }
    int64_t index = self->word->table_index(&self->rules, a.own, a.opp, a.kings, classes);
    if (index < 0) {
        PyErr_SetString(PyExc_KeyError, "the position is not of that material");
        return NULL;
    }
    return PyLong_FromLongLong(index);
}

/* Four piece counts (a material's classes) from a tuple, each at most the board's points. */
static int read_classes(KernelObject *self, PyObject *tuple, int classes[4])
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 4) {
        PyErr_SetString(PyExc_TypeError, "classes: a tuple of four piece counts");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (c == -1 && PyErr_Occurred())
            return -1;
        if (c < 0 || c > self->rules.n_points || c > 6) {
            PyErr_SetString(PyExc_ValueError, "classes: a piece count out of range (0 to 6)");
            return -1;
        }
        classes[i] = (int)c;
    }
    return 0;
}

/* A writable contiguous buffer of exactly `items` items of `itemsize` bytes, or None where
 * `optional` (view->buf NULL then). */
static int graph_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t items, Py_ssize_t itemsize, int optional,
                        const char *name)
{
    memset(view, 0, sizeof(*view));
    if (obj == Py_None && optional)
        return 0;
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd items of %zd bytes", name, view->len, items,
                     itemsize);
        PyBuffer_Release(view);
        view->buf = NULL;
        return -1;
    }
    return 0;
}

/* The positions of a material of `classes` on n points: the product of the classes' combinations. */
static Py_ssize_t material_size(int n, const int classes[4])
{
    Py_ssize_t size = 1;
    for (int c = 0; c < 4; c++) {
        int64_t comb = 1;
        for (int i = 1; i <= classes[c]; i++)
            comb = comb * (n - classes[c] + i) / i;
        size *= (Py_ssize_t)comb;
    }
    return size;
}

static PyObject *Kernel_table_graph(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int classes[4], after[4];
    long turn = -1;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "table_graph(classes, turn, after, valid, degree, limit, starts, targets)");
        return NULL;
    }
    if (!set_up(self) || read_classes(self, args[0], classes) < 0 || read_classes(self, args[2], after) < 0
        || ((turn = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred()))
        return NULL;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "turn: 0 or 1");
        return NULL;
    }
    Py_ssize_t size = material_size(self->rules.n_points, classes), moves = 0;
    Py_buffer view[5];                               /* valid, degree, limit, starts, targets */
    memset(view, 0, sizeof(view));
    PyObject *out = NULL;
    TableExit *exits = NULL;
    int64_t n_exits = 0;
    int status;
    if (graph_buffer(args[3], &view[0], size, 1, 0, "valid") < 0 || graph_buffer(args[4], &view[1], size, 4, 0, "degree") < 0
        || graph_buffer(args[5], &view[2], size, 4, 1, "limit") < 0 || graph_buffer(args[6], &view[3], size, 8, 1, "starts") < 0)
        goto done;
    if (view[3].buf && size)
        moves = (Py_ssize_t)(((const int64_t *)view[3].buf)[size - 1] + ((const int32_t *)view[1].buf)[size - 1]);
    if (graph_buffer(args[7], &view[4], moves, 8, !view[3].buf, "targets") < 0)
        goto done;
    if (!view[3].buf != !view[4].buf) {
        PyErr_SetString(PyExc_TypeError, "starts and targets: both or neither");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    status = self->word->table_graph(&self->rules, classes, (int)turn, after, view[0].buf, view[1].buf, view[2].buf,
                                     view[3].buf, view[4].buf, &exits, &n_exits);
    Py_END_ALLOW_THREADS
    if (status < 0)
        PyErr_NoMemory();
    else
        out = view[4].buf ? PyBytes_FromStringAndSize((const char *)exits, (Py_ssize_t)(n_exits * (int64_t)sizeof(TableExit)))
                          : Py_NewRef(Py_None);
    free(exits);
done:
    for (int i = 0; i < 5; i++)
        if (view[i].buf)
            PyBuffer_Release(&view[i]);
    return out;
}

/* A raw tuple read into `p` (the kernel's word); `in` keeps its history tuple until it is
 * released (state_release), which also frees the position. */
static int state_load(KernelObject *self, PyObject *raw, StateIn *in, PosBuf *p)
{
    if (!set_up(self) || read_state(&self->rules, raw, in) < 0)
        return -1;
    if (load_pos(self->word, in, p) < 0) {
        Py_DECREF(in->history);
        return -1;
    }
    return 0;
}

static void state_release(KernelObject *self, StateIn *in, PosBuf *p)
{
    self->word->pos_free(p);
    Py_DECREF(in->history);
}

static PyObject *Kernel_outcome(KernelObject *self, PyObject *state)
{
    StateIn in;
    PosBuf p;
    if (state_load(self, state, &in, &p) < 0)
        return NULL;
    double v = self->word->outcome(&self->rules, &p);
    state_release(self, &in, &p);
    return outcome_value(v);
}

/* quiesce(state): the state's value for the first player after alpha-beta over its pending
 * captures (what QuiescenceSearch values a cut-off by), or None where the game scores otherwise. */
static PyObject *Kernel_quiesce(KernelObject *self, PyObject *state)
{
    StateIn in;
    PosBuf p;
    if (state_load(self, state, &in, &p) < 0)
        return NULL;
    ScratchUse u;
    scratch_take(self, &u);
    double v = self->word->quiesce(&self->rules, NULL, &p, u.s);
    scratch_give(self, &u);
    state_release(self, &in, &p);
    return outcome_value(v);
}

static PyObject *Kernel_random_move(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "random_move(raw, rng)");
        return NULL;
    }
    Rand local, *rand;
    PyObject *method;
    StateIn in;
    PosBuf p;
    if (!(rand = rand_source(args[1], &local, &method)))
        return NULL;
    if (state_load(self, args[0], &in, &p) < 0) {
        Py_XDECREF(method);
        return NULL;
    }
    ScratchUse u;
    scratch_take(self, &u);
    KernelMove m;
    int found = self->word->random_move(&self->rules, &p, rand, u.s, &m);
    scratch_give(self, &u);
    state_release(self, &in, &p);
    Py_XDECREF(method);
    if (found < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return found ? move_tuple(m.frm, m.to, m.cap, m.crowned) : Py_NewRef(Py_None);
}

static PyObject *Kernel_play(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(raw, move)");
        return NULL;
    }
    KernelMove m;
    int oom = 0;
    if (parse_move(args[1], &m.frm, &m.to, &m.cap, &m.crowned) < 0)
        return NULL;
    StateIn in;
    PosBuf p;
    if (state_load(self, args[0], &in, &p) < 0)
        return NULL;
    self->word->play(&self->rules, &p, &m, &oom);
    PyObject *out = oom ? PyErr_NoMemory() : raw_pos(self->word, &in, &p);
    state_release(self, &in, &p);
    return out;
}

/* One playout from `p`, its moves appended to `record` (a list, or NULL) as (turn, move) pairs:
 * its result, -1 cut off, -2 failed (an exception set). */
static double run_playout(KernelObject *self, void *p, int64_t max_plies, Rand *rand, void *scratch,
                          PyObject *record)
{
    KernelMove *moves = NULL;
    int *turns = NULL;
    size_t cap = 0, n = 0;
    int oom = 0;
    double v;
    for (;;) {     /* a record grown as it fills */
        if (record && n == cap) {
            size_t c = cap ? 2 * cap : 64;
            KernelMove *m2 = realloc(moves, c * sizeof(KernelMove));
            if (m2)
                moves = m2;
            int *t2 = m2 ? realloc(turns, c * sizeof(int)) : NULL;
            if (t2)
                turns = t2;
            if (!m2 || !t2) {
                oom = 1;
                v = -2.0;
                break;
            }
            cap = c;
        }
        v = self->word->playout(&self->rules, p, max_plies - (int64_t)n, rand, scratch, record ? moves : NULL, turns,
                                cap, &n, &oom);
        if (v != -3.0)
            break;
    }
    if (oom)
        PyErr_NoMemory();
    for (size_t i = 0; record && v > -2.0 && i < n; i++) {
        PyObject *m = move_tuple(moves[i].frm, moves[i].to, moves[i].cap, moves[i].crowned);
        PyObject *entry = m ? Py_BuildValue("(iN)", turns[i], m) : NULL;
        if (!entry || PyList_Append(record, entry) < 0) {
            Py_XDECREF(entry);
            v = -2.0;
            break;
        }
        Py_DECREF(entry);
    }
    free(moves);
    free(turns);
    return v;
}

static PyObject *Kernel_playout(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 3 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "playout(raw, rng, max_plies, record=None)");
        return NULL;
    }
    PyObject *state = args[0], *rng = args[1], *record = nargs > 3 && args[3] != Py_None ? args[3] : NULL;
    int64_t max_plies;
    if (to_i64(args[2], &max_plies) < 0)
        return NULL;
    if (record && !PyList_Check(record)) {
        PyErr_SetString(PyExc_TypeError, "playout: record must be a list or None");
        return NULL;
    }
    Rand local, *rand;
    PyObject *method;
    if (!(rand = rand_source(rng, &local, &method)))
        return NULL;
    StateIn in;
    PosBuf p;
    if (state_load(self, state, &in, &p) < 0) {
        Py_XDECREF(method);
        return NULL;
    }
    ScratchUse u;
    scratch_take(self, &u);
    double v = run_playout(self, &p, max_plies, rand, u.s, record);
    PyObject *after = v > -2.0 ? raw_pos(self->word, &in, &p) : NULL;
    scratch_give(self, &u);
    state_release(self, &in, &p);
    Py_XDECREF(method);
    if (!after) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "native playout failed");
        return NULL;
    }
    return Py_BuildValue("(NN)", outcome_value(v), after);
}

/* playouts(state, count, seed): `count` random playouts to the end from `state` (left as it
 * is), all in C with the GIL released: the kernel's own speed, for bench.  Returns
 * (first player's wins, draws, second player's wins, plies). */
static PyObject *Kernel_playouts(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "playouts(raw, count, seed)");
        return NULL;
    }
    long count = PyLong_AsLong(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    u64 seed = PyLong_AsUnsignedLongLongMask(args[2]);
    if (seed == (u64)-1 && PyErr_Occurred())
        return NULL;
    StateIn in;
    PosBuf start;
    if (state_load(self, args[0], &in, &start) < 0)
        return NULL;
    int64_t out[4] = {0, 0, 0, 0};
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = self->word->playouts(&self->rules, &start, count, seed, out);
    Py_END_ALLOW_THREADS
    state_release(self, &in, &start);
    if (r < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(LLLL)", (long long)out[0], (long long)out[1], (long long)out[2], (long long)out[3]);
}

/* with_terms(weights): a kernel of the same rules evaluating with the positional terms'
 * `weights` (EvalTerms' order): the draughts family's search parameters, per search. */
static PyObject *Kernel_with_terms(KernelObject *self, PyObject *weights)
{
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != N_TERMS) {
        PyErr_Format(PyExc_ValueError, "with_terms: %d weights", N_TERMS);
        return NULL;
    }
    KernelObject *k = (KernelObject *)KernelType.tp_alloc(&KernelType, 0);
    if (!k)
        return NULL;
    k->base.glue = self->base.glue;
    k->word = self->word;
    k->rules = self->rules;
    k->learned = Py_XNewRef(self->learned);
    k->rules.any_term = 0;
    for (int i = 0; i < N_TERMS; i++) {
        double w = PyFloat_AsDouble(PyTuple_GET_ITEM(weights, i));
        if ((w == -1.0 && PyErr_Occurred()) || !isfinite(w)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "with_terms: a weight is not finite");
            Py_DECREF(k);
            return NULL;
        }
        k->rules.terms[i] = w;
        k->rules.any_term |= w != 0.0;
    }
    return (PyObject *)k;
}

/* --- the learned evaluation ------------------------------------------------------------------ */
#define MAX_LEARNED_WEIGHT (1 << 24)     /* learned.MAX_WEIGHT: the sums stay exact in 64 bits */

static int spec_long(PyObject *spec, const char *key, long low, long high, long *out)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "learned spec lacks %s", key);
        return -1;
    }
    *out = PyLong_AsLong(v);
    if (*out == -1 && PyErr_Occurred())
        return -1;
    if (*out < low || *out > high) {
        PyErr_Format(PyExc_ValueError, "learned spec %s=%ld out of range [%ld, %ld]", key, *out, low, high);
        return -1;
    }
    return 0;
}

/* The regions' runs of bits: a tuple of regions, each a tuple of (shift, width, digit). */
static int read_regions(Learned *l, PyObject *spec, int bits)
{
    PyObject *regions = PyDict_GetItemString(spec, "regions");
    if (!regions || !PyTuple_Check(regions) || PyTuple_GET_SIZE(regions) < 1 || PyTuple_GET_SIZE(regions) > MAX_REGIONS) {
        PyErr_Format(PyExc_ValueError, "learned spec regions: a tuple of 1 to %d regions expected", MAX_REGIONS);
        return -1;
    }
    l->n_regions = (int)PyTuple_GET_SIZE(regions);
    for (int k = 0; k < l->n_regions; k++) {
        PyObject *runs = PyTuple_GET_ITEM(regions, k);
        if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) < 1 || PyTuple_GET_SIZE(runs) > MAX_RUNS) {
            PyErr_Format(PyExc_ValueError, "learned spec regions: a region of 1 to %d runs expected", MAX_RUNS);
            return -1;
        }
        l->n_runs[k] = (int)PyTuple_GET_SIZE(runs);
        for (int i = 0; i < l->n_runs[k]; i++) {
            PyObject *run = PyTuple_GET_ITEM(runs, i);
            long v[3];
            if (!PyTuple_Check(run) || PyTuple_GET_SIZE(run) != 3) {
                PyErr_SetString(PyExc_ValueError, "learned spec regions: a run is (shift, width, digit)");
                return -1;
            }
            for (int j = 0; j < 3; j++)
                if ((v[j] = PyLong_AsLong(PyTuple_GET_ITEM(run, j))) == -1 && PyErr_Occurred())
                    return -1;
            if (v[0] < 0 || v[1] < 1 || v[0] + v[1] > bits || v[2] < 0 || v[2] + v[1] > REGION_SQUARES) {
                PyErr_SetString(PyExc_ValueError, "learned spec regions: a run out of range");
                return -1;
            }
            l->runs[k][i] = (Run){(int)v[0], (int)v[1], (int)v[2]};
        }
    }
    return 0;
}

static int read_scalars(Learned *l, PyObject *spec)
{
    PyObject *v = PyDict_GetItemString(spec, "scalars");
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != N_SCALARS) {
        PyErr_Format(PyExc_ValueError, "learned spec scalars: %d pairs expected", N_SCALARS);
        return -1;
    }
    for (int i = 0; i < N_SCALARS; i++) {
        PyObject *pair = PyTuple_GET_ITEM(v, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_Format(PyExc_ValueError, "learned spec scalars: %d pairs expected", N_SCALARS);
            return -1;
        }
        for (int j = 0; j < 2; j++) {
            long w = PyLong_AsLong(PyTuple_GET_ITEM(pair, j));
            if (w == -1 && PyErr_Occurred())
                return -1;
            if (w < -MAX_LEARNED_WEIGHT || w > MAX_LEARNED_WEIGHT) {
                PyErr_SetString(PyExc_ValueError, "learned spec scalars: a weight out of range");
                return -1;
            }
            l->scalars[i][j] = w;
        }
    }
    return 0;
}

/* The king squares' weights: bytes of KING_BITS x 2 native int32 (copied), none beyond the board. */
static int read_kings(Learned *l, PyObject *spec, int bits)
{
    PyObject *v = PyDict_GetItemString(spec, "kings");
    if (!v || !PyBytes_Check(v) || PyBytes_GET_SIZE(v) != (Py_ssize_t)sizeof(l->kings)) {
        PyErr_Format(PyExc_ValueError, "learned spec kings: %zd bytes (int32 weights) expected", sizeof(l->kings));
        return -1;
    }
    memcpy(l->kings, PyBytes_AS_STRING(v), sizeof(l->kings));
    for (int b = 0; b < KING_BITS; b++)
        for (int j = 0; j < 2; j++)
            if (l->kings[b][j] < -MAX_LEARNED_WEIGHT || l->kings[b][j] > MAX_LEARNED_WEIGHT
                || (b >= bits && l->kings[b][j] != 0)) {
                PyErr_SetString(PyExc_ValueError, "learned spec kings: a weight out of range or off the board");
                return -1;
            } else if (l->kings[b][j] != 0) {
                l->reads_kings = 1;
            }
    return 0;
}

/* Each column's squares, left to right (the balance feature): a tuple of masks. */
static int read_columns(Learned *l, PyObject *spec, u128 points)
{
    PyObject *v = PyDict_GetItemString(spec, "columns");
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) < 1 || PyTuple_GET_SIZE(v) > MAX_COLUMNS) {
        PyErr_Format(PyExc_ValueError, "learned spec columns: a tuple of 1 to %d masks expected", MAX_COLUMNS);
        return -1;
    }
    l->n_columns = (int)PyTuple_GET_SIZE(v);
    for (int c = 0; c < l->n_columns; c++) {
        if (to_u128(PyTuple_GET_ITEM(v, c), &l->columns[c]) < 0)
            return -1;
        l->columns[c] &= points;
    }
    return 0;
}

/* The pattern weights: bytes of n_regions x PATTERN_SIZE x 2 native int32, kept alive by the kernel. */
static PyObject *read_patterns(Learned *l, PyObject *spec)
{
    PyObject *v = PyDict_GetItemString(spec, "patterns");
    Py_ssize_t want = (Py_ssize_t)l->n_regions * PATTERN_SIZE * 2 * (Py_ssize_t)sizeof(int32_t);
    if (!v || !PyBytes_Check(v) || PyBytes_GET_SIZE(v) != want) {
        PyErr_Format(PyExc_ValueError, "learned spec patterns: %zd bytes (int32 weights) expected", want);
        return NULL;
    }
    const int32_t *w = (const int32_t *)PyBytes_AS_STRING(v);
    for (Py_ssize_t i = 0; i < want / (Py_ssize_t)sizeof(int32_t); i++)
        if (w[i] < -MAX_LEARNED_WEIGHT || w[i] > MAX_LEARNED_WEIGHT) {
            PyErr_SetString(PyExc_ValueError, "learned spec patterns: a weight out of range");
            return NULL;
        }
    l->patterns = w;
    return Py_NewRef(v);
}

/* Each region's mask, and whether one pext gathers the region's men as its runs do (Learned.pext):
 * a 64-bit board whose runs do not overlap and whose digits count the region's squares below them
 * (learned.segments lists them so). */
static int regions_pext(Learned *l, int wide)
{
    if (wide)
        return 0;
    for (int k = 0; k < l->n_regions; k++) {
        u64 mask = 0;
        for (int i = 0; i < l->n_runs[k]; i++) {
            u64 run = (((u64)1 << l->runs[k][i].width) - 1) << l->runs[k][i].shift;
            if (mask & run)
                return 0;
            mask |= run;
        }
        for (int i = 0; i < l->n_runs[k]; i++)
            if (__builtin_popcountll(mask & (((u64)1 << l->runs[k][i].shift) - 1)) != l->runs[k][i].digit)
                return 0;
        l->masks[k] = mask;
    }
    return 1;
}

/* with_learned(spec): a kernel of the same rules evaluating with the learned evaluation (spec:
 * rules/draughts/learned.py, learned_spec). */
static PyObject *Kernel_with_learned(KernelObject *self, PyObject *spec)
{
    if (!set_up(self))
        return NULL;
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "with_learned: a dict expected (learned.learned_spec)");
        return NULL;
    }
    Learned l;
    memset(&l, 0, sizeof(l));
    int bits = self->rules.wide ? 128 : 64;
    long top, unit, start, k;
    u128 diagonal;
    PyObject *d = PyDict_GetItemString(spec, "diagonal");
    if (spec_long(spec, "top_bit", 0, bits - 1, &top) < 0 || spec_long(spec, "unit", 1, MAX_LEARNED_WEIGHT, &unit) < 0
        || spec_long(spec, "start_pieces", self->rules.start_pieces, self->rules.start_pieces, &start) < 0
        || read_regions(&l, spec, (int)top + 1) < 0 || read_scalars(&l, spec) < 0
        || read_kings(&l, spec, (int)top + 1) < 0 || read_columns(&l, spec, self->rules.points) < 0)
        return NULL;
    if (!d) {
        PyErr_SetString(PyExc_KeyError, "learned spec lacks diagonal");
        return NULL;
    }
    if (to_u128(d, &diagonal) < 0)
        return NULL;
    l.reads_balance = l.scalars[N_SCALARS - 1][0] != 0 || l.scalars[N_SCALARS - 1][1] != 0;
    l.top_bit = (int)top;
    l.unit = unit;
    l.diagonal = diagonal & self->rules.points;
    for (unsigned b = 0; b < (1u << REGION_SQUARES); b++) {
        unsigned t = 0;
        for (k = REGION_SQUARES - 1; k >= 0; k--)
            t = 3 * t + ((b >> k) & 1);
        l.ternary[b] = (uint16_t)t;
    }
    /* optional "plain_bits": 1 keeps the regions' gather on the shifts (the tests run both) */
    long plain_bits = 0;
    if (PyDict_GetItemString(spec, "plain_bits") && spec_long(spec, "plain_bits", 0, 1, &plain_bits) < 0)
        return NULL;
    l.pext = !plain_bits && cpu_fast_bits() && regions_pext(&l, self->rules.wide);
    PyObject *owner = read_patterns(&l, spec);
    if (!owner)
        return NULL;
    KernelObject *out = (KernelObject *)KernelType.tp_alloc(&KernelType, 0);
    if (!out) {
        Py_DECREF(owner);
        return NULL;
    }
    out->base.glue = self->base.glue;
    out->word = self->word;
    out->rules = self->rules;
    out->rules.learned = l;
    out->learned = owner;
    return (PyObject *)out;
}

static PyObject *Kernel_get_learned(KernelObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->rules.learned.patterns != NULL);
}

static PyObject *Kernel_get_learned_pext(KernelObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->rules.learned.pext);     /* set by with_learned alone */
}

static PyObject *Kernel_get_wide(KernelObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->rules.wide);
}

static PyMethodDef Kernel_methods[] = {
    {"with_learned", (PyCFunction)Kernel_with_learned, METH_O,
     "with_learned(spec): these rules evaluating with the learned evaluation (learned.learned_spec; a new kernel)."},
    {"with_terms", (PyCFunction)Kernel_with_terms, METH_O,
     "with_terms(weights): these rules evaluating with the positional terms' weights (a new kernel)."},
    {"legal", (PyCFunction)(void (*)(void))Kernel_legal, METH_FASTCALL,
     "legal(own, opp, kings, turn, frozen=0): the legal moves of a raw position, as the Python generator lists them."},
    {"jumpers", (PyCFunction)(void (*)(void))Kernel_jumpers, METH_FASTCALL,
     "jumpers(own, opp, kings, turn): the pieces that may start a capture (0: none)."},
    {"perft", (PyCFunction)(void (*)(void))Kernel_perft, METH_FASTCALL,
     "perft(own, opp, kings, turn, depth): leaves of the legal-move tree (draw rules ignored); releases the GIL."},
    {"evaluate", (PyCFunction)(void (*)(void))Kernel_evaluate, METH_FASTCALL,
     "evaluate(own, opp, kings, turn): DraughtsState.evaluate() of a raw position."},
    {"endgame_limit", (PyCFunction)(void (*)(void))Kernel_endgame_limit, METH_FASTCALL,
     "endgame_limit(own, opp, kings): the endgame count of a placement, or None."},
    {"table_index", (PyCFunction)(void (*)(void))Kernel_table_index, METH_FASTCALL,
     "table_index(own, opp, kings, classes): the endgame tables' index of a position of the material "
     "classes = (own kings, own men, other kings, other men)."},
    {"table_graph", (PyCFunction)(void (*)(void))Kernel_table_graph, METH_FASTCALL,
     "table_graph(classes, turn, after, valid, degree, limit, starts, targets): the endgame tables' move graph "
     "of a material into writable buffers (tables/solve.py): without starts and targets (None) each "
     "placement's valid flag, move count and (limit not None) endgame count; with them, each placement's "
     "moves from starts[i], and the moves leaving the material as bytes of TableExit records (draughts.h); "
     "releases the GIL."},
    {"outcome", (PyCFunction)Kernel_outcome, METH_O, "outcome(raw): DraughtsState.outcome() of the position State.raw() gives."},
    {"quiesce", (PyCFunction)Kernel_quiesce, METH_O,
     "quiesce(raw): the first player's value after alpha-beta over the pending captures, or None."},
    {"random_move", (PyCFunction)(void (*)(void))Kernel_random_move, METH_FASTCALL,
     "random_move(raw, rng): DraughtsState.random_move(rng), drawing as it does."},
    {"play", (PyCFunction)(void (*)(void))Kernel_play, METH_FASTCALL,
     "play(raw, move): the raw position after DraughtsState.play(move), counters and history included."},
    {"playouts", (PyCFunction)(void (*)(void))Kernel_playouts, METH_FASTCALL,
     "playouts(raw, count, seed): count random playouts from the position, in C without the GIL: "
     "(first player's wins, draws, second player's wins, plies)."},
    {"playout", (PyCFunction)(void (*)(void))Kernel_playout, METH_FASTCALL,
     "playout(raw, rng, max_plies, record=None): DraughtsState.playout: (its result or None, the raw position "
     "after); rng is a native Random or an object with random() (then the draws are those of the Python loop)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"wide", (getter)Kernel_get_wide, NULL, "Whether the board takes the 128-bit generator.", NULL},
    {"learned", (getter)Kernel_get_learned, NULL, "Whether it evaluates with the learned evaluation.", NULL},
    {"learned_pext", (getter)Kernel_get_learned_pext, NULL,
     "Whether the learned evaluation gathers each region by one pext (else by shifts).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.DraughtsKernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DraughtsKernel(spec): one draughts variant's rules, compiled (spec from rules/draughts/kernel.py).",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

