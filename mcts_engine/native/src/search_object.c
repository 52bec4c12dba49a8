/* Search: the one search core as a Python object, for every game.
 *
 * Search(settings, capacity, seeds, rules=None, rng=None, oracle=None, compulsory_captures=False)
 * holds one tree per seed (root parallel: Threads N on a game with native rules), each over its
 * own instance of the game: the native rules object's (a DraughtsKernel) or, with rules=None,
 * the game's Python states (one tree only).  Python sets a search up (set_root with tree
 * reuse, restrict_root, set_tables), runs it with one call that returns at its end (run: the
 * loop is the core's, run.c, with the GIL released on native rules, calling back only to
 * report), and reads the result (the final move over every tree, final.c).  StopFlag is the
 * flag the protocol's thread sets to stop a running search.
 */
#include "glue.h"

#include <math.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    atomic_int flag;
} StopFlagObject;

typedef struct {
    PyObject_HEAD
    int ready, n, running;
    int reporting;               /* inside a report callback: reading the trees is safe */
    SearchSettings s;
    const GameGlue *glue;
    PyObject *rules;             /* the native rules object, or NULL (Python states) */
    GameIface *games;            /* one game instance per tree */
    Tree *trees;
    Tree **tree_of;              /* &trees[k], as the loop takes them */
    Tables tables;
    Py_buffer *views;            /* the tables' value buffers, held while the trees may read them */
    int n_views;
} SearchObject;

/* ------------------------------------------------------------------------------------------
 * StopFlag
 * ---------------------------------------------------------------------------------------- */
static int StopFlag_init(StopFlagObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", kwlist))
        return -1;
    atomic_store(&self->flag, 0);
    return 0;
}

static PyObject *StopFlag_set(StopFlagObject *self, PyObject *Py_UNUSED(ignored))
{
    atomic_store(&self->flag, 1);
    Py_RETURN_NONE;
}

static PyObject *StopFlag_is_set(StopFlagObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(atomic_load(&self->flag));
}

static PyMethodDef StopFlag_methods[] = {
    {"set", (PyCFunction)StopFlag_set, METH_NOARGS, "Stop the search that watches this flag (any thread may)."},
    {"is_set", (PyCFunction)StopFlag_is_set, METH_NOARGS, "Whether the flag was set."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject StopFlagType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.StopFlag",
    .tp_basicsize = sizeof(StopFlagObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "StopFlag(): set by the protocol's thread, seen by a running search inside its loop and playouts.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)StopFlag_init,
    .tp_methods = StopFlag_methods,
};

/* ------------------------------------------------------------------------------------------
 * Report: what a report and the result say (a named tuple)
 * ---------------------------------------------------------------------------------------- */
static PyStructSequence_Field report_fields[] = {
    {"move", "the move to play (None: no iteration has finished)"},
    {"pv", "the principal variation from that move, a tuple of moves"},
    {"n", "the move's visits, summed over the trees"},
    {"w", "its results for the mover, summed"},
    {"d", "its draws, summed"},
    {"proven", "its proven result for the mover (0, 0.5, 1), or None"},
    {"proof", "plies to the end along the proof"},
    {"iterations", "iterations of the search so far, every tree"},
    {"depth_sum", "tree depth reached, summed over the iterations"},
    {"seldepth", "the deepest tree node reached"},
    {"hashfull", "per mille of the fullest tree's arena"},
    {NULL, NULL},
};

static PyStructSequence_Desc report_desc = {
    "mcts_engine.native._core.Report", "A search's progress or result: the chosen root move and its statistics.",
    report_fields, 11,
};

static PyTypeObject *ReportType;

/* ------------------------------------------------------------------------------------------
 * Settings
 * ---------------------------------------------------------------------------------------- */
static int read_settings(PyObject *d, SearchSettings *s)
{
    struct { const char *key; double *out; } reals[] = {
        {"uct_c", &s->uct_c}, {"prior_weight", &s->prior_weight}, {"minimax_weight", &s->minimax_weight},
        {"widening", &s->widening}, {"epsilon", &s->epsilon}, {"root_margin", &s->root_margin},
        {"root_share", &s->root_share}, {"ab_prune", &s->ab_prune},
    };
    struct { const char *key; int *out; } ints[] = {
        {"policy", &s->policy}, {"playout_depth", &s->playout_depth}, {"solver", &s->solver},
        {"final_move", &s->final_move}, {"quiescence", &s->quiescence}, {"qsearch", &s->qsearch},
        {"merge", &s->merge}, {"leaf_depth", &s->leaf_depth}, {"root_check", &s->root_check},
    };
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "settings must be a dict");
        return -1;
    }
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
        PyObject *v = PyDict_GetItemString(d, reals[i].key);
        if (!v) {
            PyErr_Format(PyExc_KeyError, "search settings lack %s", reals[i].key);
            return -1;
        }
        *reals[i].out = PyFloat_AsDouble(v);
        if (*reals[i].out == -1.0 && PyErr_Occurred())
            return -1;
    }
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        PyObject *v = PyDict_GetItemString(d, ints[i].key);
        if (!v) {
            PyErr_Format(PyExc_KeyError, "search settings lack %s", ints[i].key);
            return -1;
        }
        long x = PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred())
            return -1;
        if (x < INT32_MIN || x > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "search setting %s out of range", ints[i].key);
            return -1;
        }
        *ints[i].out = (int)x;
    }
    if (s->policy < POLICY_RANDOM || s->policy > POLICY_MAST || s->playout_depth < 0 || s->quiescence < 0
        || s->leaf_depth < 0 || s->leaf_depth > MAX_LEAF_DEPTH || s->root_check < 0 || s->root_check > MAX_ROOT_CHECK
        || !(s->root_margin >= 0.0 && s->root_margin <= 1.0) || !(s->root_share > 0.0 && s->root_share <= 1.0)
        || !(s->ab_prune >= 0.0 && s->ab_prune <= 1.0)
        || (s->final_move != FINAL_ROBUST && s->final_move != FINAL_MAX)
        || (s->merge != MERGE_VISITS && s->merge != MERGE_VOTE) || !isfinite(s->uct_c) || !isfinite(s->prior_weight)
        || !isfinite(s->minimax_weight) || !(s->widening >= 0.0 && s->widening < 1e6)
        || !(s->epsilon >= 0.0 && s->epsilon <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "search settings out of range");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The object's life
 * ---------------------------------------------------------------------------------------- */
static void drop_tables(SearchObject *self)
{
    for (int i = 0; i < self->n_views; i++)
        PyBuffer_Release(&self->views[i]);
    PyMem_Free(self->views);
    PyMem_Free(self->tables.t);
    self->views = NULL;
    self->tables.t = NULL;
    self->tables.n = self->tables.max_pieces = 0;
    self->n_views = 0;
}

static void release_trees(SearchObject *self)
{
    for (int k = 0; k < self->n; k++) {
        if (self->trees && self->trees[k].g)
            tree_free(&self->trees[k]);
        if (self->games && self->games[k].ctx)
            self->glue->close(&self->games[k]);
    }
    PyMem_Free(self->trees);
    PyMem_Free(self->games);
    PyMem_Free(self->tree_of);
    self->trees = NULL;
    self->games = NULL;
    self->tree_of = NULL;
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"settings", "capacity", "seeds", "rules", "rng", "oracle", "compulsory_captures", NULL};
    PyObject *settings, *seeds, *rules = Py_None, *rng = Py_None, *oracle = Py_None;
    unsigned long long capacity;
    int compulsory = 0;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a Search is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKO|OOOp", kwlist, &settings, &capacity, &seeds, &rules, &rng,
                                     &oracle, &compulsory))
        return -1;
    if (read_settings(settings, &self->s) < 0)
        return -1;
    if (capacity > UINT32_MAX - 1) {
        PyErr_SetString(PyExc_ValueError, "capacity: too many nodes");
        return -1;
    }
    PyObject *seq = PySequence_Fast(seeds, "seeds must be a sequence of ints, one per tree");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > 1024) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a search has 1 to 1024 trees (one seed each)");
        return -1;
    }
    if (rules != Py_None && !PyObject_TypeCheck(rules, &RulesType)) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_TypeError, "rules must be a native rules object (DraughtsKernel) or None");
        return -1;
    }
    self->glue = rules == Py_None ? &PYTHON_GLUE : ((RulesObject *)rules)->glue;
    if (rules == Py_None && n > 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a search over Python states runs one tree (the GIL)");
        return -1;
    }
    self->rules = rules == Py_None ? NULL : Py_NewRef(rules);
    self->n = (int)n;
    self->trees = PyMem_Calloc((size_t)n, sizeof(Tree));
    self->games = PyMem_Calloc((size_t)n, sizeof(GameIface));
    self->tree_of = PyMem_Calloc((size_t)n, sizeof(Tree *));
    if (!self->trees || !self->games || !self->tree_of) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    GameArgs a = {&self->tables, rng, oracle, compulsory};
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned long long seed = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, k));
        if ((seed == (unsigned long long)-1 && PyErr_Occurred()) || self->glue->open(rules, &a, &self->games[k]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (tree_init(&self->trees[k], &self->games[k], &self->s, (uint32_t)capacity, seed) < 0) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        self->tree_of[k] = &self->trees[k];
    }
    Py_DECREF(seq);
    self->ready = 1;
    return 0;
}

static void Search_dealloc(SearchObject *self)
{
    release_trees(self);
    drop_tables(self);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int usable(SearchObject *self);

/* Whether the trees can be read now: initialised, and not running, or running but inside its
 * report callback (on the searching thread, the other trees read under their locks). */
static int readable(SearchObject *self)
{
    if (self->ready && self->running && self->reporting)
        return 1;
    return usable(self);
}

/* Whether the object can be used now: initialised, and not inside its own run. */
static int usable(SearchObject *self)
{
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Search was not initialised");
        return 0;
    }
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is running");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Positions and moves across the boundary
 * ---------------------------------------------------------------------------------------- */
/* A list of moves into slots (Python moves stay borrowed from `moves`, which the caller holds). */
static MoveSlot *slots_of(SearchObject *self, PyObject *moves, Py_ssize_t *n)
{
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence");
    if (!seq)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    MoveSlot *slots = PyMem_Calloc((size_t)(*n ? *n : 1), sizeof(MoveSlot));
    if (!slots) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++)
        if (self->glue->move_in(&self->games[0], PySequence_Fast_GET_ITEM(seq, i), &slots[i]) < 0) {
            PyMem_Free(slots);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    return slots;
}

/* A position buffer of the game, loaded from a state's raw(); free with pos_done. */
static void *pos_from(SearchObject *self, PyObject *raw)
{
    GameIface *g = &self->games[0];
    void *pos = PyMem_Calloc(1, g->pos_size);
    if (!pos)
        return PyErr_NoMemory();
    if (g->ops->pos_init(g, pos) < 0 || self->glue->pos_load(g, raw, pos) < 0) {
        g->ops->pos_free(g, pos);
        PyMem_Free(pos);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    return pos;
}

static void pos_done(SearchObject *self, void *pos)
{
    self->games[0].ops->pos_free(&self->games[0], pos);
    PyMem_Free(pos);
}

static PyObject *proven_of(int8_t p)
{
    if (p == PROVEN_NONE)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(p * 0.5);
}

static void reset_stats(Tree *t)
{
    t->iterations = t->depth_sum = 0;
    t->seldepth = 0;
}

/* set_root(raw, walk=None): every tree searches from this position; `walk`, the moves from
 * the last root to it, keeps that subtree (tree reuse).  Counts start again.  Whether the
 * first tree kept its subtree. */
static PyObject *Search_set_root(SearchObject *self, PyObject *args)
{
    PyObject *raw, *walk = Py_None;
    if (!usable(self) || !PyArg_ParseTuple(args, "O|O", &raw, &walk))
        return NULL;
    MoveSlot *slots = NULL;
    Py_ssize_t n = 0;
    if (walk != Py_None && !(slots = slots_of(self, walk, &n)))
        return NULL;
    void *pos = pos_from(self, raw);
    int kept = -1;
    for (int k = 0; pos && k < self->n; k++) {
        int r = tree_set_root(&self->trees[k], pos, slots, (size_t)n);
        if (r < 0) {
            kept = -1;
            break;
        }
        if (k == 0)
            kept = r;
        reset_stats(&self->trees[k]);
    }
    if (pos)
        pos_done(self, pos);
    PyMem_Free(slots);
    if (kept < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        for (int k = 0; k < self->n; k++)
            tree_clear(&self->trees[k]);
        return NULL;
    }
    return PyBool_FromLong(kept == 1);
}

static PyObject *Search_restrict_root(SearchObject *self, PyObject *moves)
{
    if (!usable(self))
        return NULL;
    Py_ssize_t n;
    MoveSlot *slots = slots_of(self, moves, &n);
    if (!slots)
        return NULL;
    int r = 0;
    for (int k = 0; k < self->n && r >= 0; k++)
        r = self->trees[k].root ? tree_restrict_root(&self->trees[k], slots, (size_t)n) : -1;
    PyMem_Free(slots);
    if (r < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "restrict_root before set_root, or out of memory");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------
 * Running, reporting, the result
 * ---------------------------------------------------------------------------------------- */
static PyObject *moves_tuple(SearchObject *self, const MoveSlot *m, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *move = self->glue->move_out(&self->games[0], &m[i]);
        if (!move) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, move);
    }
    return t;
}

/* The trees read into a Report (GIL held; the other trees' threads may be running). */
static PyObject *report_of(SearchObject *self)
{
    Snapshot snap;
    if (search_snapshot(self->tree_of, self->n, &snap) < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    PyObject *r = PyStructSequence_New(ReportType);
    if (!r) {
        snapshot_free(&snap);
        return NULL;
    }
    const ChildStat *best = snap.best >= 0 ? &snap.children[snap.best] : NULL;
    PyObject *items[11] = {
        best ? self->glue->move_out(&self->games[0], &best->move) : Py_NewRef(Py_None),
        best ? moves_tuple(self, snap.pv, snap.pv_len) : PyTuple_New(0),
        PyLong_FromLongLong(best ? (long long)best->n : 0),
        PyFloat_FromDouble(best ? best->w : 0.0),
        PyLong_FromLongLong(best ? (long long)best->d : 0),
        best ? proven_of(best->proven) : Py_NewRef(Py_None),
        PyLong_FromLong(best ? best->proof : 0),
        PyLong_FromLongLong(snap.iterations),
        PyLong_FromLongLong(snap.depth_sum),
        PyLong_FromLong(snap.seldepth),
        PyLong_FromLong(snap.hashfull),
    };
    snapshot_free(&snap);
    for (int i = 0; i < 11; i++) {
        if (!items[i]) {
            for (int j = 0; j < 11; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(r);
            return NULL;
        }
    }
    for (int i = 0; i < 11; i++)
        PyStructSequence_SET_ITEM(r, i, items[i]);
    return r;
}

typedef struct {
    SearchObject *self;
    PyObject *on_report;
    PyThreadState *released;     /* the saved thread state while the GIL is released, else NULL */
} ReportCtx;

static int report_call(void *arg)
{
    ReportCtx *c = arg;
    if (c->released)
        PyEval_RestoreThread(c->released);
    PyObject *report = report_of(c->self);
    c->self->reporting = 1;
    PyObject *r = report ? PyObject_CallOneArg(c->on_report, report) : NULL;
    c->self->reporting = 0;
    Py_XDECREF(report);
    Py_XDECREF(r);
    if (c->released)
        c->released = PyEval_SaveThread();
    return r ? 0 : -1;
}

/* run(shares, seconds=0, depth=0, report_seconds=0, report_nodes=0, stop=None, on_report=None,
 * soft_seconds=0, root_check=-1): search until each tree ran its share of iterations (negative:
 * no limit), `seconds` passed (0: none), a tree reached `depth` (0: none), the root was proven, or
 * `stop` (a StopFlag) was set; under a clock, `soft_seconds` the time aimed at (the clock's rule);
 * `on_report(Report)` every `report_seconds` or each `report_nodes` iterations; `root_check` this
 * run's root check depth (0: none, negative: the RootCheck setting). */
static PyObject *Search_run(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"shares", "seconds", "depth", "report_seconds", "report_nodes", "stop", "on_report",
                             "soft_seconds", "root_check", NULL};
    PyObject *shares_in, *stop = Py_None, *on_report = Py_None;
    double seconds = 0.0, report_seconds = 0.0, soft_seconds = 0.0;
    int depth = 0, check = -1;
    long long report_nodes = 0;
    if (!usable(self) || !PyArg_ParseTupleAndKeywords(args, kwds, "O|didLOOdi", kwlist, &shares_in, &seconds, &depth,
                                                      &report_seconds, &report_nodes, &stop, &on_report, &soft_seconds,
                                                      &check))
        return NULL;
    if (check > MAX_ROOT_CHECK) {
        PyErr_Format(PyExc_ValueError, "run: root_check %d is deeper than %d", check, MAX_ROOT_CHECK);
        return NULL;
    }
    if (stop != Py_None && !PyObject_TypeCheck(stop, &StopFlagType)) {
        PyErr_SetString(PyExc_TypeError, "stop must be a StopFlag or None");
        return NULL;
    }
    if (!(seconds >= 0.0) || !(report_seconds >= 0.0) || !(soft_seconds >= 0.0) || depth < 0 || report_nodes < 0) {
        PyErr_SetString(PyExc_ValueError, "run: negative seconds, depth or report interval");
        return NULL;
    }
    for (int k = 0; k < self->n; k++)
        if (!self->trees[k].root) {
            PyErr_SetString(PyExc_RuntimeError, "Search.run before set_root");
            return NULL;
        }
    PyObject *seq = PySequence_Fast(shares_in, "shares must be a sequence of ints, one per tree");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != self->n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "run: one share per tree");
        return NULL;
    }
    int64_t *shares = PyMem_Calloc((size_t)self->n, sizeof(int64_t));
    if (!shares) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (int k = 0; k < self->n; k++) {
        shares[k] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (shares[k] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            PyMem_Free(shares);
            return NULL;
        }
    }
    Py_DECREF(seq);
    RunLimits limits = {shares, seconds, soft_seconds, depth, on_report == Py_None ? 0.0 : report_seconds,
                        on_report == Py_None ? 0 : (int64_t)report_nodes, check};
    ReportCtx ctx = {self, on_report, NULL};
    const atomic_int *flag = stop == Py_None ? NULL : &((StopFlagObject *)stop)->flag;
    Py_INCREF(stop);
    Py_INCREF(on_report);
    self->running = 1;
    int r;
    if (self->games[0].flags & GAME_PYTHON) {
        r = search_run(self->tree_of, self->n, &limits, flag, on_report == Py_None ? NULL : report_call, &ctx);
    } else {
        ctx.released = PyEval_SaveThread();
        r = search_run(self->tree_of, self->n, &limits, flag, on_report == Py_None ? NULL : report_call, &ctx);
        PyEval_RestoreThread(ctx.released);
    }
    self->running = 0;
    Py_DECREF(stop);
    Py_DECREF(on_report);
    PyMem_Free(shares);
    if (r < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_MemoryError, "the search ran out of memory");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Search_result(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!readable(self))
        return NULL;
    return report_of(self);
}

/* The root's children merged over the trees: (move, n, w, d, proven, proof) each. */
static PyObject *Search_root_children(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!readable(self))
        return NULL;
    Snapshot snap;
    if (search_snapshot(self->tree_of, self->n, &snap) < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < snap.n_children; i++) {
        const ChildStat *c = &snap.children[i];
        PyObject *move = self->glue->move_out(&self->games[0], &c->move);
        PyObject *item = move ? Py_BuildValue("(NLdLNi)", move, (long long)c->n, c->w, (long long)c->d,
                                              proven_of(c->proven), c->proof)
                              : NULL;
        if (!item || PyList_Append(list, item) < 0)
            Py_CLEAR(list);
        Py_XDECREF(item);
    }
    snapshot_free(&snap);
    return list;
}

/* stats(tree=None): iterations, depth_sum, seldepth, hashfull, used, capacity, mast of one tree,
 * or summed over the trees (the deepest, the fullest); the last root check's depth, dropped
 * moves and alpha-beta nodes (tree 0's: it runs the check). */
static PyObject *Search_stats(SearchObject *self, PyObject *args)
{
    int which = -1;
    if (!usable(self) || !PyArg_ParseTuple(args, "|i", &which))
        return NULL;
    if (which >= self->n) {
        PyErr_SetString(PyExc_IndexError, "no such tree");
        return NULL;
    }
    long long iterations = 0, depth_sum = 0, used = 0, capacity = 0, mast = 0;
    int seldepth = 0, hashfull = 0;
    for (int k = which < 0 ? 0 : which; k < (which < 0 ? self->n : which + 1); k++) {
        const Tree *t = &self->trees[k];
        iterations += t->iterations;
        depth_sum += t->depth_sum;
        seldepth = t->seldepth > seldepth ? t->seldepth : seldepth;
        hashfull = tree_hashfull(t) > hashfull ? tree_hashfull(t) : hashfull;
        used += t->used - 1;
        capacity += t->capacity;
        mast += (long long)t->mast.n;
    }
    const Tree *first = &self->trees[which < 0 ? 0 : which];
    return Py_BuildValue("{sLsLsisisLsLsLsisisL}", "iterations", iterations, "depth_sum", depth_sum, "seldepth",
                         seldepth, "hashfull", hashfull, "used", used, "capacity", capacity, "mast", mast,
                         "check_depth", first->check_depth, "check_dropped", first->check_dropped,
                         "check_nodes", (long long)first->check_nodes);
}

/* alphabeta(depth): the root's value for its side to move by the core's alpha-beta (alphabeta.c:
 * the negamax of LeafDepth and RootCheck, captures played out after `depth` plies), searched whole
 * on tree 0 (its transposition table kept between calls); the GIL released over native rules.
 * Training labels positions with it (mcts_engine/training/deepen.py). */
static PyObject *Search_alphabeta(SearchObject *self, PyObject *args)
{
    int depth;
    if (!usable(self) || !PyArg_ParseTuple(args, "i", &depth))
        return NULL;
    if (depth < 1 || depth > MAX_ROOT_CHECK) {
        PyErr_Format(PyExc_ValueError, "alphabeta: depth %d is not in 1..%d", depth, MAX_ROOT_CHECK);
        return NULL;
    }
    Tree *t = self->tree_of[0];
    if (!t->root) {
        PyErr_SetString(PyExc_RuntimeError, "Search.alphabeta before set_root");
        return NULL;
    }
    self->running = 1;
    double v;
    if (self->games[0].flags & GAME_PYTHON) {
        v = ab_root_value(t, depth);
    } else {
        PyThreadState *released = PyEval_SaveThread();
        v = ab_root_value(t, depth);
        PyEval_RestoreThread(released);
    }
    self->running = 0;
    if (v < -1.0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_MemoryError, "alphabeta: the rules failed or memory ran out");
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

/* ------------------------------------------------------------------------------------------
 * Between games, tables, and what tests look at
 * ---------------------------------------------------------------------------------------- */
static PyObject *Search_clear(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!usable(self))
        return NULL;
    for (int k = 0; k < self->n; k++)
        tree_clear(&self->trees[k]);
    Py_RETURN_NONE;
}

static PyObject *Search_clear_stats(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!usable(self))
        return NULL;
    for (int k = 0; k < self->n; k++)
        mast_clear(&self->trees[k]);
    Py_RETURN_NONE;
}

/* reseed(seeds): restart each tree's random numbers. */
static PyObject *Search_reseed(SearchObject *self, PyObject *seeds)
{
    if (!usable(self))
        return NULL;
    PyObject *seq = PySequence_Fast(seeds, "seeds must be a sequence of ints, one per tree");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != self->n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "reseed: one seed per tree");
        return NULL;
    }
    for (int k = 0; k < self->n; k++) {
        unsigned long long seed = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, k));
        if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        rand_seed(&self->trees[k].rng, seed);
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

/* set_tables(tables, max_pieces): each table (classes, turn, values, count, exact), `values` a
 * buffer of signed integers indexed by the tables' numbering; a native game probes them. */
static PyObject *Search_set_tables(SearchObject *self, PyObject *args)
{
    PyObject *list;
    int max_pieces;
    if (!usable(self) || !PyArg_ParseTuple(args, "Oi", &list, &max_pieces))
        return NULL;
    if (!self->rules) {
        PyErr_SetString(PyExc_TypeError, "a search over Python states probes its oracle callable");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(list, "tables must be a sequence");
    if (!seq)
        return NULL;
    drop_tables(self);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    self->views = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_buffer));
    self->tables.t = PyMem_Calloc((size_t)(n ? n : 1), sizeof(TableRef));
    if (!self->views || !self->tables.t) {
        Py_DECREF(seq);
        drop_tables(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        TableRef *tr = &self->tables.t[i];
        PyObject *values;
        int c0, c1, c2, c3;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "(iiii)iOip", &c0, &c1, &c2, &c3, &tr->turn, &values,
                              &tr->count, &tr->exact)
            || PyObject_GetBuffer(values, &self->views[i], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
            Py_DECREF(seq);
            drop_tables(self);
            return NULL;
        }
        self->n_views++;
        Py_buffer *v = &self->views[i];
        const char *f = v->format ? v->format : "B";
        if ((strcmp(f, "b") && strcmp(f, "h") && strcmp(f, "i") && strcmp(f, "<h") && strcmp(f, "<i") && strcmp(f, "=h")
             && strcmp(f, "=i")) || (v->itemsize != 1 && v->itemsize != 2 && v->itemsize != 4)) {
            Py_DECREF(seq);
            drop_tables(self);
            PyErr_Format(PyExc_TypeError, "table values must be signed integers, not format %s", f);
            return NULL;
        }
        tr->classes[0] = c0;
        tr->classes[1] = c1;
        tr->classes[2] = c2;
        tr->classes[3] = c3;
        tr->values = v->buf;
        tr->itemsize = (int)v->itemsize;
        tr->size = v->len / v->itemsize;
    }
    self->tables.n = (int)n;
    self->tables.max_pieces = max_pieces;
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

/* One tree below the root as nested dicts (move, n, w, d, v, prior, proven, proof, mover,
 * to_move, children, untried), at most `limit` nodes: what the tests inspect. */
static PyObject *dump_node(SearchObject *self, Tree *t, uint32_t index, long *budget)
{
    const Node *n = &t->nodes[index];
    PyObject *move = index == t->root ? Py_NewRef(Py_None) : self->glue->move_out(t->g, &n->move);
    PyObject *children = PyList_New(0);
    if (!move || !children) {
        Py_XDECREF(move);
        Py_XDECREF(children);
        return NULL;
    }
    (*budget)--;
    for (uint32_t i = n->first; n->listed && i < n->first + n->n_open && *budget > 0; i++) {
        PyObject *child = dump_node(self, t, i, budget);
        if (!child || PyList_Append(children, child) < 0) {
            Py_XDECREF(child);
            Py_DECREF(move);
            Py_DECREF(children);
            return NULL;
        }
        Py_DECREF(child);
    }
    return Py_BuildValue("{sNsIsdsIsdsdsNsisisisNsi}", "move", move, "n", n->n, "w", n->w, "d", n->d, "v", (double)n->v,
                         "prior", (double)n->prior, "proven", proven_of(n->proven), "proof", (int)n->proof, "mover",
                         (int)n->mover, "to_move", (int)n->to_move, "children", children, "untried",
                         n->listed ? (int)(n->n_moves - n->n_open) : -1);
}

static PyObject *Search_dump(SearchObject *self, PyObject *args)
{
    long budget;
    int which = 0;
    if (!usable(self) || !PyArg_ParseTuple(args, "l|i", &budget, &which))
        return NULL;
    if (which < 0 || which >= self->n) {
        PyErr_SetString(PyExc_IndexError, "no such tree");
        return NULL;
    }
    Tree *t = &self->trees[which];
    if (!t->root)
        Py_RETURN_NONE;
    return dump_node(self, t, t->root, &budget);
}

/* simulate(raw, stop=None): one playout of the first tree's policy from the position (its
 * cut-off, its captures and its evaluation included), given up where it stands once the
 * StopFlag `stop` is set: (the first player's result, the position after it). */
static PyObject *Search_simulate(SearchObject *self, PyObject *args)
{
    PyObject *raw, *stop = Py_None;
    if (!usable(self) || !PyArg_ParseTuple(args, "O|O", &raw, &stop))
        return NULL;
    if (stop != Py_None && !PyObject_TypeCheck(stop, &StopFlagType)) {
        PyErr_SetString(PyExc_TypeError, "stop must be a StopFlag or None");
        return NULL;
    }
    void *pos = pos_from(self, raw);
    if (!pos)
        return NULL;
    Halt halt = {.stop = stop == Py_None ? NULL : &((StopFlagObject *)stop)->flag};
    atomic_init(&halt.done, 0);
    self->trees[0].halt = &halt;
    double v = tree_simulate(&self->trees[0], pos);
    self->trees[0].halt = NULL;
    PyObject *after = v == -2.0 ? NULL : self->glue->pos_raw(&self->games[0], pos);
    pos_done(self, pos);
    if (!after) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    return Py_BuildValue("(dN)", v, after);
}

static PyObject *Search_get_trees(SearchObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->n);
}

static PyObject *Search_get_python_states(SearchObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->glue == &PYTHON_GLUE);
}

static PyMethodDef Search_methods[] = {
    {"set_root", (PyCFunction)Search_set_root, METH_VARARGS,
     "set_root(raw, walk=None): search from the position State.raw() gives; `walk`, the moves played from the last "
     "root to it, keeps that subtree (tree reuse).  Counts start again.  Returns whether the subtree was kept."},
    {"restrict_root", (PyCFunction)Search_restrict_root, METH_O,
     "restrict_root(moves): a fresh root considers only these of its moves (go searchmoves)."},
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(shares, seconds, depth, report_seconds, report_nodes, stop, on_report): search until a limit, the "
     "StopFlag or a proven root; on_report(Report) on a beat or at node counts.  Releases the GIL on native rules."},
    {"alphabeta", (PyCFunction)Search_alphabeta, METH_VARARGS,
     "alphabeta(depth): the root's value for its side to move by the alpha-beta to depth plies."},
    {"result", (PyCFunction)Search_result, METH_NOARGS, "The Report: the move to play over every tree, its PV."},
    {"root_children", (PyCFunction)Search_root_children, METH_NOARGS,
     "The root's children merged over the trees: (move, n, w, d, proven, proof) each."},
    {"stats", (PyCFunction)Search_stats, METH_VARARGS,
     "stats(tree=None): iterations, depth_sum, seldepth, hashfull, used, capacity, mast (summed without `tree`), "
     "check_depth, check_dropped, check_nodes (the last root check)."},
    {"clear", (PyCFunction)Search_clear, METH_NOARGS, "Forget the trees (a new game, or a failed search)."},
    {"clear_stats", (PyCFunction)Search_clear_stats, METH_NOARGS, "Forget MAST's statistics."},
    {"reseed", (PyCFunction)Search_reseed, METH_O, "reseed(seeds): restart each tree's random numbers."},
    {"set_tables", (PyCFunction)Search_set_tables, METH_VARARGS,
     "set_tables(tables, max_pieces): the endgame tables the native game probes."},
    {"dump", (PyCFunction)Search_dump, METH_VARARGS,
     "dump(limit, tree=0): a tree below the root as nested dicts, at most `limit` nodes (untried: moves listed but "
     "not expanded, -1 when not listed).  For tests."},
    {"simulate", (PyCFunction)Search_simulate, METH_VARARGS,
     "simulate(raw, stop=None): one playout of the policy from the position, with its cut-off, given up once the "
     "StopFlag is set: (result, raw after)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"trees", (getter)Search_get_trees, NULL, "How many trees the search runs (one per thread).", NULL},
    {"python_states", (getter)Search_get_python_states, NULL,
     "Whether the search runs a game's Python states (positions cross as the State itself, not its raw()).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(settings, capacity, seeds, rules=None, rng=None, oracle=None, compulsory_captures=False): the "
              "one search core, a tree per seed.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------------------------------------
 * Module functions: the final choice over statistics merged in Python (root parallel over
 * worker processes), and the selection rule on given statistics (table tests)
 * ---------------------------------------------------------------------------------------- */
static int8_t proven_code_of(PyObject *proven, int *err)
{
    if (proven == Py_None)
        return PROVEN_NONE;
    double p = PyFloat_AsDouble(proven);
    if (p == -1.0 && PyErr_Occurred()) {
        *err = 1;
        return PROVEN_NONE;
    }
    return (int8_t)(p * 2.0 + 0.25);
}

/* Merge reports of (move, n, w, d, proven, proof) into `out` (moves borrowed); their count, -1 error. */
static int merge_reports(PyObject *reports, ChildStat **out, int *cap)
{
    int n = 0;
    PyObject *outer = PySequence_Fast(reports, "reports must be a sequence of lists");
    if (!outer)
        return -1;
    for (Py_ssize_t r = 0; r < PySequence_Fast_GET_SIZE(outer); r++) {
        PyObject *inner = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, r), "a report is a sequence of children");
        if (!inner) {
            Py_DECREF(outer);
            return -1;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(inner); i++) {
            ChildStat c;
            PyObject *move, *proven;
            double n_visits, draws;
            int err = 0;
            memset(&c, 0, sizeof(c));
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(inner, i), "OdddOi", &move, &n_visits, &c.w, &draws, &proven,
                                  &c.proof)) {
                Py_DECREF(inner);
                Py_DECREF(outer);
                return -1;
            }
            c.move.obj = move;
            c.n = n_visits;
            c.d = draws;
            c.proven = proven_code_of(proven, &err);
            int at = -1;
            for (int k = 0; !err && k < n && at < 0; k++) {
                int eq = PyObject_RichCompareBool((PyObject *)(*out)[k].move.obj, move, Py_EQ);
                if (eq < 0)
                    err = 1;
                else if (eq)
                    at = k;
            }
            if (!err && at < 0 && n == *cap) {
                int more = *cap ? 2 * *cap : 64;
                ChildStat *grown = PyMem_Realloc(*out, (size_t)more * sizeof(ChildStat));
                if (!grown) {
                    PyErr_NoMemory();
                    err = 1;
                } else {
                    *out = grown;
                    *cap = more;
                }
            }
            if (err) {
                Py_DECREF(inner);
                Py_DECREF(outer);
                return -1;
            }
            if (at < 0)
                (*out)[n++] = c;
            else
                child_add(&(*out)[at], &c);
        }
        Py_DECREF(inner);
    }
    Py_DECREF(outer);
    return n;
}

/* merge_roots(final_move, reports, votes=None): several searchers' root statistics (each a list
 * of (move, n, w, d, proven, proof)) summed by move, in order of first appearance, and the
 * index of the move to play (None: none), chosen as one tree chooses (final_move 0 robust, 1
 * max) or, given `votes` (each searcher's own choice), by their majority. */
PyObject *merge_roots(PyObject *self, PyObject *args)
{
    (void)self;
    int final_move;
    PyObject *reports, *votes = Py_None;
    if (!PyArg_ParseTuple(args, "iO|O", &final_move, &reports, &votes))
        return NULL;
    ChildStat *c = NULL;
    int cap = 0;
    int n = merge_reports(reports, &c, &cap);
    if (n < 0) {
        PyMem_Free(c);
        return NULL;
    }
    int best = final_choice(c, n, final_move == FINAL_MAX ? FINAL_MAX : FINAL_ROBUST);
    if (best >= 0 && votes != Py_None) {
        PyObject *seq = PySequence_Fast(votes, "votes must be a sequence of moves");
        int k = seq ? (int)PySequence_Fast_GET_SIZE(seq) : 0;
        int *index = seq ? PyMem_Calloc((size_t)(k ? k : 1), sizeof(int)) : NULL;
        for (int v = 0; index && v < k; v++) {
            index[v] = -1;
            for (int i = 0; i < n && index[v] < 0; i++) {
                int eq = PyObject_RichCompareBool((PyObject *)c[i].move.obj, PySequence_Fast_GET_ITEM(seq, v), Py_EQ);
                if (eq < 0) {
                    PyMem_Free(index);
                    index = NULL;
                    break;
                }
                if (eq)
                    index[v] = i;
            }
        }
        if (index)
            best = vote_choice(c, n, index, k);
        PyMem_Free(index);
        Py_XDECREF(seq);
        if (PyErr_Occurred()) {
            PyMem_Free(c);
            return NULL;
        }
    }
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(OLdLNi)", (PyObject *)c[i].move.obj, (long long)c[i].n, c[i].w,
                                       (long long)c[i].d, proven_of(c[i].proven), c[i].proof);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(c);
    if (!list)
        return NULL;
    return Py_BuildValue("(NN)", list, best >= 0 ? PyLong_FromLong(best) : Py_NewRef(Py_None));
}

static int table_children(PyObject *list, Node **out, int *n)
{
    PyObject *seq = PySequence_Fast(list, "children must be a sequence");
    if (!seq)
        return -1;
    *n = (int)PySequence_Fast_GET_SIZE(seq);
    *out = PyMem_Calloc((size_t)(*n ? *n : 1), sizeof(Node));
    if (!*out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < *n; i++) {
        unsigned int visits, draws;
        double w, v, prior;
        PyObject *proven;
        int proof, mover, err = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "IdIddOii", &visits, &w, &draws, &v, &prior,
                              &proven, &proof, &mover)) {
            PyMem_Free(*out);
            Py_DECREF(seq);
            return -1;
        }
        Node *c = &(*out)[i];
        c->n = visits;
        c->w = w;
        c->d = draws;
        c->v = (float)v;
        c->prior = (float)prior;
        c->proof = (int16_t)proof;
        c->mover = (uint8_t)mover;
        c->proven = proven_code_of(proven, &err);
        if (err) {
            PyMem_Free(*out);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* table_clock(elapsed, soft, hard, rate, best, second, n_moves): the clock's rule on given figures. */
PyObject *table_clock(PyObject *self, PyObject *args)
{
    (void)self;
    double elapsed, soft, hard, rate, best, second;
    int n_moves;
    if (!PyArg_ParseTuple(args, "ddddddi", &elapsed, &soft, &hard, &rate, &best, &second, &n_moves))
        return NULL;
    return PyBool_FromLong(clock_says_stop(elapsed, soft, hard, rate, best, second, n_moves));
}

PyObject *table_select(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *settings, *children;
    unsigned int parent_n;
    SearchSettings s;
    Node *nodes;
    int n;
    if (!PyArg_ParseTuple(args, "OIO", &settings, &parent_n, &children) || read_settings(settings, &s) < 0
        || table_children(children, &nodes, &n) < 0)
        return NULL;
    int i = search_table_select(&s, parent_n, nodes, n);
    PyMem_Free(nodes);
    if (i < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(i);
}

/* The Report type, made once when the module loads. */
int search_types_ready(void)
{
    ReportType = PyStructSequence_NewType(&report_desc);
    return ReportType ? 0 : -1;
}

PyObject *report_type(void) { return (PyObject *)ReportType; }
