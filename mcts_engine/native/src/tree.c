/* SearchTree: the one search core (search.c) as a Python object, for every game.
 *
 * SearchTree(settings, capacity, seed, kernel=None, rng=None, oracle=None): with a
 * DraughtsKernel the tree runs on the kernel's own backend, entirely in C, and `run` releases
 * the GIL; without one it runs on the game's Python states (backend_python.c).  The Python
 * Searcher (mcts/searcher.py) calls `run` in slices and reads the root's statistics between
 * them; tree reuse, restricted roots, the tables and the MAST statistics are its methods.
 */
#include "glue.h"

#include <math.h>

enum { KIND_PYTHON = 0, KIND_DRAUGHTS64 = 1, KIND_DRAUGHTS128 = 2 };

typedef struct {
    PyObject_HEAD
    Tree tree;
    Backend backend;
    int kind, ready;
    PyObject *kernel;          /* the DraughtsKernel whose rules the backend reads */
    Tables tables;
    Py_buffer *views;          /* the tables' value buffers, held while the tree may read them */
    int n_views;
} TreeObject;

static int read_settings(PyObject *d, SearchSettings *s)
{
    struct { const char *key; double *out; } reals[] = {
        {"uct_c", &s->uct_c}, {"prior_weight", &s->prior_weight}, {"minimax_weight", &s->minimax_weight},
        {"widening", &s->widening}, {"epsilon", &s->epsilon},
    };
    struct { const char *key; int *out; } ints[] = {
        {"policy", &s->policy}, {"playout_depth", &s->playout_depth}, {"solver", &s->solver},
        {"final_move", &s->final_move}, {"quiescence", &s->quiescence}, {"qsearch", &s->qsearch},
    };
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "settings must be a dict");
        return -1;
    }
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
        *ints[i].out = (int)x;
    }
    if (s->policy < POLICY_RANDOM || s->policy > POLICY_MAST || s->playout_depth < 0 || s->quiescence < 0
        || !isfinite(s->uct_c) || !isfinite(s->prior_weight) || !isfinite(s->minimax_weight)
        || !(s->widening >= 0.0 && s->widening < 1e6) || !(s->epsilon >= 0.0 && s->epsilon <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "search settings out of range");
        return -1;
    }
    return 0;
}

static int Tree_init(TreeObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"settings", "capacity", "seed", "kernel", "rng", "oracle", "compulsory_captures", NULL};
    PyObject *settings, *kernel = Py_None, *rng = Py_None, *oracle = Py_None;
    unsigned long long capacity, seed;
    int compulsory = 0;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a SearchTree is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKK|OOOp", kwlist, &settings, &capacity, &seed, &kernel, &rng,
                                     &oracle, &compulsory))
        return -1;
    SearchSettings s;
    if (read_settings(settings, &s) < 0)
        return -1;
    if (capacity > UINT32_MAX - 1) {
        PyErr_SetString(PyExc_ValueError, "capacity: too many nodes");
        return -1;
    }
    if (kernel != Py_None) {
        if (!PyObject_TypeCheck(kernel, &KernelType)) {
            PyErr_SetString(PyExc_TypeError, "kernel must be a DraughtsKernel or None");
            return -1;
        }
        const Rules *r = &((KernelObject *)kernel)->rules;
        self->kind = r->wide ? KIND_DRAUGHTS128 : KIND_DRAUGHTS64;
        int ok = r->wide ? backend_init_128(&self->backend, r, &self->tables)
                         : backend_init_64(&self->backend, r, &self->tables);
        if (ok < 0) {
            PyErr_NoMemory();
            return -1;
        }
        Py_INCREF(kernel);
        self->kernel = kernel;
    } else {
        if (rng == Py_None) {
            PyErr_SetString(PyExc_TypeError, "a tree over Python states needs rng (a random.Random)");
            return -1;
        }
        self->kind = KIND_PYTHON;
        if (backend_python_init(&self->backend, rng, oracle, compulsory) < 0)
            return -1;
    }
    if (tree_init(&self->tree, &self->backend, &s, (uint32_t)capacity, seed) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static void drop_tables(TreeObject *self)
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

static void Tree_dealloc(TreeObject *self)
{
    if (self->ready) {
        tree_free(&self->tree);
        if (self->kind == KIND_PYTHON)
            backend_python_free(&self->backend);
        else if (self->kind == KIND_DRAUGHTS128)
            backend_free_128(&self->backend);
        else
            backend_free_64(&self->backend);
    }
    drop_tables(self);
    Py_XDECREF(self->kernel);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_ready(TreeObject *self)
{
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the SearchTree was not initialised");
        return -1;
    }
    return 0;
}

/* --- moves across the boundary ------------------------------------------------------------ */
static int slot_of(TreeObject *self, PyObject *move, MoveSlot *slot)
{
    memset(slot, 0, sizeof(*slot));
    if (self->kind == KIND_PYTHON) {
        slot->obj = move;          /* borrowed for the call */
        return 0;
    }
    u128 frm, to, cap;
    int crowned;
    if (parse_move(move, &frm, &to, &cap, &crowned) < 0)
        return -1;
    const Rules *r = &((KernelObject *)self->kernel)->rules;
    if (!frm || !to || (frm & (frm - 1)) || (to & (to - 1)) || ((frm | to | cap) & ~r->points)) {
        PyErr_SetString(PyExc_ValueError, "not a move of this board");
        return -1;
    }
    int f = 0, t = 0;
    while (!((frm >> f) & 1))
        f++;
    while (!((to >> t) & 1))
        t++;
    slot->d.frm = (uint8_t)f;
    slot->d.to = (uint8_t)t;
    slot->d.cap_lo = (u64)cap;
    slot->d.cap_hi = (u64)(cap >> 64);
    slot->d.crowned = (uint8_t)crowned;
    return 0;
}

static PyObject *move_of(TreeObject *self, const MoveSlot *slot)
{
    if (self->kind == KIND_PYTHON) {
        PyObject *m = slot->obj;
        Py_INCREF(m);
        return m;
    }
    return move_tuple((u128)1 << slot->d.frm, (u128)1 << slot->d.to,
                      ((u128)slot->d.cap_hi << 64) | slot->d.cap_lo, slot->d.crowned);
}

/* A list of moves into slots (borrowed references for Python moves). */
static MoveSlot *slots_of(TreeObject *self, PyObject *moves, Py_ssize_t *n)
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
        if (slot_of(self, PySequence_Fast_GET_ITEM(seq, i), &slots[i]) < 0) {
            PyMem_Free(slots);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);      /* Python moves stay alive in `moves`, which the caller holds */
    return slots;
}

/* --- the root ---------------------------------------------------------------------------- */
static int with_native_position(TreeObject *self, PyObject *state, const MoveSlot *walk, Py_ssize_t n_walk,
                                int *result)
{
    const Rules *r = &((KernelObject *)self->kernel)->rules;
    StateIn in;
    if (read_state(r, state, &in) < 0)
        return -1;
    int ok;
    if (self->kind == KIND_DRAUGHTS128) {
        Pos128 p;
        ok = load_128(&in, &p);
        if (ok == 0)
            *result = tree_set_root(&self->tree, &p, walk, (size_t)n_walk);
        if (ok == 0)
            free(p.hist);
    } else {
        Pos64 p;
        ok = load_64(&in, &p);
        if (ok == 0)
            *result = tree_set_root(&self->tree, &p, walk, (size_t)n_walk);
        if (ok == 0)
            free(p.hist);
    }
    Py_DECREF(in.history);
    return ok;
}

static PyObject *Tree_set_root(TreeObject *self, PyObject *args)
{
    PyObject *state, *walk = Py_None;
    if (check_ready(self) < 0 || !PyArg_ParseTuple(args, "O|O", &state, &walk))
        return NULL;
    MoveSlot *slots = NULL;
    Py_ssize_t n = 0;
    if (walk != Py_None && !(slots = slots_of(self, walk, &n)))
        return NULL;
    int result = -1;
    if (self->kind == KIND_PYTHON) {
        result = tree_set_root(&self->tree, &state, slots, (size_t)n);
    } else if (with_native_position(self, state, slots, n, &result) < 0) {
        PyMem_Free(slots);
        return NULL;
    }
    PyMem_Free(slots);
    if (result < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        tree_clear(&self->tree);
        return NULL;
    }
    return PyBool_FromLong(result == 1);
}

static PyObject *Tree_restrict_root(TreeObject *self, PyObject *moves)
{
    if (check_ready(self) < 0)
        return NULL;
    Py_ssize_t n;
    MoveSlot *slots = slots_of(self, moves, &n);
    if (!slots)
        return NULL;
    int r = tree_restrict_root(&self->tree, slots, (size_t)n);
    PyMem_Free(slots);
    if (r < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    Py_RETURN_NONE;
}

/* --- searching ------------------------------------------------------------------------------ */
static PyObject *Tree_run(TreeObject *self, PyObject *args)
{
    long long iterations;
    double seconds;
    int depth = 0;
    if (check_ready(self) < 0 || !PyArg_ParseTuple(args, "Ld|i", &iterations, &seconds, &depth))
        return NULL;
    if (!self->tree.root) {
        PyErr_SetString(PyExc_RuntimeError, "SearchTree.run before set_root");
        return NULL;
    }
    int r;
    if (self->kind == KIND_PYTHON) {
        r = tree_run(&self->tree, iterations, seconds, depth);
    } else {
        Py_BEGIN_ALLOW_THREADS
        r = tree_run(&self->tree, iterations, seconds, depth);
        Py_END_ALLOW_THREADS
    }
    if (r < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_MemoryError, "the search tree ran out of memory");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Tree_stats(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    const Tree *t = &self->tree;
    return Py_BuildValue("{sLsLsisisIsIsn}", "iterations", (long long)t->iterations, "depth_sum",
                         (long long)t->depth_sum, "seldepth", t->seldepth, "hashfull", tree_hashfull(t), "used",
                         t->used - 1, "capacity", t->capacity, "mast", (Py_ssize_t)t->mast.n);
}

static PyObject *Tree_reset_stats(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    self->tree.iterations = self->tree.depth_sum = 0;
    self->tree.seldepth = 0;
    Py_RETURN_NONE;
}

static PyObject *proven_of(int8_t p)
{
    if (p == PROVEN_NONE)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(p * 0.5);
}

/* The root's expanded children: (move, n, w, d, proven, proof) each, in expansion order. */
static PyObject *Tree_root_children(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    const Tree *t = &self->tree;
    PyObject *list = PyList_New(0);
    if (!list || !t->root)
        return list;
    const Node *r = &t->nodes[t->root];
    for (uint32_t i = r->first; r->listed && i < r->first + r->n_open; i++) {
        const Node *c = &t->nodes[i];
        PyObject *move = move_of(self, &c->move);
        PyObject *item = move ? Py_BuildValue("(NIdINi)", move, c->n, c->w, c->d, proven_of(c->proven), (int)c->proof)
                              : NULL;
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/* The index among root_children() of the move to play (FinalMove), or None. */
static PyObject *Tree_final_index(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    if (!self->tree.root)
        Py_RETURN_NONE;
    uint32_t best = tree_final_child(&self->tree);
    if (!best)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLong(best - self->tree.nodes[self->tree.root].first);
}

/* The principal variation from root child `index`: its move, then the most visited child's. */
static PyObject *Tree_pv(TreeObject *self, PyObject *arg)
{
    if (check_ready(self) < 0)
        return NULL;
    long index = PyLong_AsLong(arg);
    if (index == -1 && PyErr_Occurred())
        return NULL;
    const Tree *t = &self->tree;
    const Node *r = &t->nodes[t->root];
    if (!t->root || index < 0 || index >= r->n_open) {
        PyErr_SetString(PyExc_IndexError, "no such root child");
        return NULL;
    }
    PyObject *pv = PyList_New(0);
    for (uint32_t node = r->first + (uint32_t)index; pv && node; node = tree_best_child(t, node)) {
        PyObject *m = move_of(self, &t->nodes[node].move);
        if (!m || PyList_Append(pv, m) < 0) {
            Py_XDECREF(m);
            Py_CLEAR(pv);
            break;
        }
        Py_DECREF(m);
        if (PyList_GET_SIZE(pv) > 256)
            break;
    }
    return pv;
}

static PyObject *Tree_root_done(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    return PyBool_FromLong(self->tree.root && tree_root_done(&self->tree));
}

static PyObject *Tree_clear(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    tree_clear(&self->tree);
    Py_RETURN_NONE;
}

static PyObject *Tree_clear_stats(TreeObject *self, PyObject *Py_UNUSED(ignored))
{
    if (check_ready(self) < 0)
        return NULL;
    mast_clear(&self->tree);
    Py_RETURN_NONE;
}

static PyObject *Tree_reseed(TreeObject *self, PyObject *arg)
{
    if (check_ready(self) < 0)
        return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    rand_seed(&self->tree.rng, seed);
    Py_RETURN_NONE;
}

/* set_tables(tables, max_pieces): each table (classes, turn, values, count, exact), `values` a
 * buffer of signed integers indexed by the tables' numbering; the tree probes them natively. */
static PyObject *Tree_set_tables(TreeObject *self, PyObject *args)
{
    PyObject *list;
    int max_pieces;
    if (check_ready(self) < 0 || !PyArg_ParseTuple(args, "Oi", &list, &max_pieces))
        return NULL;
    if (self->kind == KIND_PYTHON) {
        PyErr_SetString(PyExc_TypeError, "a tree over Python states probes its oracle callable");
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
                              &tr->count, &tr->exact)) {
            Py_DECREF(seq);
            drop_tables(self);
            return NULL;
        }
        if (PyObject_GetBuffer(values, &self->views[i], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
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

/* The tree below the root as nested dicts (move, n, w, d, v, prior, proven, proof, mover,
 * to_move, children, untried), at most `limit` nodes: what the tests inspect. */
static PyObject *dump_node(TreeObject *self, uint32_t index, long *budget)
{
    const Node *n = &self->tree.nodes[index];
    PyObject *move = index == self->tree.root ? Py_NewRef(Py_None) : move_of(self, &n->move);
    PyObject *children = PyList_New(0);
    if (!move || !children) {
        Py_XDECREF(move);
        Py_XDECREF(children);
        return NULL;
    }
    (*budget)--;
    for (uint32_t i = n->first; n->listed && i < n->first + n->n_open && *budget > 0; i++) {
        PyObject *child = dump_node(self, i, budget);
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

static PyObject *Tree_dump(TreeObject *self, PyObject *arg)
{
    if (check_ready(self) < 0)
        return NULL;
    long budget = PyLong_AsLong(arg);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (!self->tree.root)
        Py_RETURN_NONE;
    return dump_node(self, self->tree.root, &budget);
}

/* simulate(state): one playout of the tree's policy from `state`, in place (the cut-off, its
 * captures and its evaluation included); the first player's result.  For tests and bench. */
static PyObject *Tree_simulate(TreeObject *self, PyObject *state)
{
    if (check_ready(self) < 0)
        return NULL;
    double v;
    if (self->kind == KIND_PYTHON) {
        v = tree_simulate(&self->tree, &state);
    } else {
        const Rules *r = &((KernelObject *)self->kernel)->rules;
        StateIn in;
        if (read_state(r, state, &in) < 0)
            return NULL;
        int ok = -1;
        v = -2.0;
        if (self->kind == KIND_DRAUGHTS128) {
            Pos128 p;
            if (load_128(&in, &p) == 0) {
                v = tree_simulate(&self->tree, &p);
                ok = v > -2.0 ? store_128(state, &in, &p) : -1;
                free(p.hist);
            }
        } else {
            Pos64 p;
            if (load_64(&in, &p) == 0) {
                v = tree_simulate(&self->tree, &p);
                ok = v > -2.0 ? store_64(state, &in, &p) : -1;
                free(p.hist);
            }
        }
        Py_DECREF(in.history);
        if (ok < 0)
            v = -2.0;
    }
    if (v == -2.0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

static PyMethodDef Tree_methods[] = {
    {"simulate", (PyCFunction)Tree_simulate, METH_O,
     "simulate(state): one playout of the policy from `state`, in place, with its cut-off; the first player's "
     "result."},
    {"dump", (PyCFunction)Tree_dump, METH_O,
     "dump(limit): the tree below the root as nested dicts, at most `limit` nodes (untried: moves listed but not "
     "expanded, -1 when not listed).  For tests."},
    {"set_root", (PyCFunction)Tree_set_root, METH_VARARGS,
     "set_root(state, walk=None): search from `state`; `walk`, the moves played from the last root to it, keeps "
     "that subtree (tree reuse).  Returns whether it was kept."},
    {"restrict_root", (PyCFunction)Tree_restrict_root, METH_O,
     "restrict_root(moves): a fresh root considers only these of its moves (go searchmoves)."},
    {"run", (PyCFunction)Tree_run, METH_VARARGS,
     "run(iterations, seconds, depth=0): search until that many iterations, the seconds (0: no limit), the tree "
     "depth (0: none) or a solved root; releases the GIL on a native game."},
    {"stats", (PyCFunction)Tree_stats, METH_NOARGS, "iterations, depth_sum, seldepth, hashfull, used, capacity."},
    {"reset_stats", (PyCFunction)Tree_reset_stats, METH_NOARGS, "Count iterations from zero (a new search)."},
    {"root_children", (PyCFunction)Tree_root_children, METH_NOARGS,
     "The root's expanded children: (move, n, w, d, proven, proof)."},
    {"final_index", (PyCFunction)Tree_final_index, METH_NOARGS, "The index of the root child to play, or None."},
    {"pv", (PyCFunction)Tree_pv, METH_O, "pv(index): the principal variation through that root child."},
    {"root_done", (PyCFunction)Tree_root_done, METH_NOARGS, "Whether the root is proven with every move tried."},
    {"clear", (PyCFunction)Tree_clear, METH_NOARGS, "Forget the tree (a new game, or a failed search)."},
    {"clear_stats", (PyCFunction)Tree_clear_stats, METH_NOARGS, "Forget MAST's statistics."},
    {"reseed", (PyCFunction)Tree_reseed, METH_O, "reseed(seed): restart the tree's random numbers."},
    {"set_tables", (PyCFunction)Tree_set_tables, METH_VARARGS,
     "set_tables(tables, max_pieces): the endgame tables the tree probes natively."},
    {NULL, NULL, 0, NULL},
};

/* --- table tests of the core's decisions ----------------------------------------------------- */
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
        int proof, mover;
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
        c->proven = PROVEN_NONE;
        if (proven != Py_None) {
            double p = PyFloat_AsDouble(proven);
            if (p == -1.0 && PyErr_Occurred()) {
                PyMem_Free(*out);
                Py_DECREF(seq);
                return -1;
            }
            c->proven = (int8_t)(p * 2.0 + 0.25);
        }
    }
    Py_DECREF(seq);
    return 0;
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

PyObject *table_final(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *settings, *children;
    SearchSettings s;
    Node *nodes;
    int n;
    if (!PyArg_ParseTuple(args, "OO", &settings, &children) || read_settings(settings, &s) < 0
        || table_children(children, &nodes, &n) < 0)
        return NULL;
    int i = search_table_final(&s, nodes, n);
    PyMem_Free(nodes);
    if (i < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(i);
}

PyTypeObject SearchTreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.SearchTree",
    .tp_basicsize = sizeof(TreeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "SearchTree(settings, capacity, seed, kernel=None, rng=None, oracle=None, compulsory_captures=False): "
              "the one search core.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tree_init,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
};
