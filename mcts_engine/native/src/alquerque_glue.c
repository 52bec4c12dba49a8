/* AlquerqueRules: the Alquerque family's native rules as a Python object (a RulesObject, so the
 * search core runs it through the C game interface), and its glue.
 *
 * AlquerqueRules(spec) takes one game's row as rules/alquerque_kernel.py compiles it (numbers
 * and tuples of them, each range-checked here).  Positions cross as AlquerqueState.raw():
 * (own, opp, kings, turn, ply, quiet, drawn, history), history a tuple of (turn, own, opp,
 * kings) keys; moves as the Python rules' (from, to, captured, crowned, route) tuples.  Beside
 * what every Rules object offers (rules_object.c), the methods are the Python state's fast
 * paths: random_move and playout (drawing from the caller's random source exactly as the
 * Python loop does), playouts (bench: in C, the native random source) and perft.
 */
#include "alquerque.h"
#include "glue.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    RulesObject base;
    AlqSpec spec;
    AlqRoutes routes;
    int ready;                /* spec and routes set (once) */
} AlqRulesObject;

static const AlqWord *word_of(const AlqSpec *r) { return r->wide ? &ALQ_WORD_128 : &ALQ_WORD_64; }
static const AlqHead *head_of(const GameIface *g) { return (const AlqHead *)g->ctx; }

static int lowest(u128 x)
{
    return (u64)x ? __builtin_ctzll((u64)x) : 64 + __builtin_ctzll((u64)(x >> 64));
}

static int single(u128 x) { return x && !(x & (x - 1)); }

/* ------------------------------------------------------------------------------------------
 * The spec: one game's row, every number range-checked
 * ---------------------------------------------------------------------------------------- */
static PyObject *field(PyObject *spec, const char *key)
{
    PyObject *v = PyDict_GetItemString(spec, key);
    if (!v)
        PyErr_Format(PyExc_ValueError, "AlquerqueRules spec: no '%s'", key);
    return v;
}

static int int_in(PyObject *o, const char *what, long long lo, long long hi, long long *out)
{
    long long v = PyLong_Check(o) ? PyLong_AsLongLong(o) : -1;
    if (!PyLong_Check(o) || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "AlquerqueRules spec: %s must be an int from %lld to %lld, not %R", what, lo,
                     hi, o);
        return -1;
    }
    *out = v;
    return 0;
}

static int int_field(PyObject *spec, const char *key, long long lo, long long hi, int *out)
{
    long long v;
    PyObject *o = field(spec, key);
    if (!o || int_in(o, key, lo, hi, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

static int mask_in(PyObject *o, const char *what, u128 within, u128 *out)
{
    if (to_u128(o, out) < 0)
        return -1;
    if (*out & ~within) {
        PyErr_Format(PyExc_ValueError, "AlquerqueRules spec: %s has a bit that is not a point of the board", what);
        return -1;
    }
    return 0;
}

/* A tuple of `n` items (n < 0: any length up to -n), as a new reference. */
static PyObject *tuple_of(PyObject *o, const char *what, Py_ssize_t n)
{
    if (!PyTuple_Check(o) || (n >= 0 ? PyTuple_GET_SIZE(o) != n : PyTuple_GET_SIZE(o) > -n)) {
        PyErr_Format(PyExc_ValueError, "AlquerqueRules spec: %s must be a tuple of %s%zd items", what,
                     n >= 0 ? "" : "at most ", n >= 0 ? n : -n);
        return NULL;
    }
    return Py_NewRef(o);
}

static int read_lines(PyObject *spec, AlqSpec *r)
{
    PyObject *lines = field(spec, "lines");
    if (!lines || !(lines = tuple_of(lines, "lines", -ALQ_MAX_LINES)))
        return -1;
    int ok = 0;
    r->n_lines = (int)PyTuple_GET_SIZE(lines);
    for (int i = 0; i < r->n_lines && ok == 0; i++) {
        PyObject *t = tuple_of(PyTuple_GET_ITEM(lines, i), "a line", 3);
        long long d;
        ok = !t || int_in(PyTuple_GET_ITEM(t, 0), "a line's delta", -ALQ_MAX_DELTA, ALQ_MAX_DELTA, &d) < 0
             || !d || mask_in(PyTuple_GET_ITEM(t, 1), "a line", r->points, &r->line[i]) < 0
             || mask_in(PyTuple_GET_ITEM(t, 2), "a line's jumps", r->line[i], &r->jline[i]) < 0 ? -1 : 0;
        if (ok == 0)
            r->delta[i] = (int)d;
        else if (t && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "AlquerqueRules spec: a line's delta is 0");
        Py_XDECREF(t);
    }
    Py_DECREF(lines);
    return ok;
}

/* One plan per player: ((d, mask), ...) for steps, ((d, 2d, mask), ...) for jumps, read as AlqJump
 * (dd = 0 for a step). */
static int read_plan(PyObject *spec, const char *key, u128 points, int jumps, AlqJump out[2][ALQ_MAX_LINES],
                     int n[2])
{
    PyObject *both = field(spec, key);
    if (!both || !(both = tuple_of(both, key, 2)))
        return -1;
    int ok = 0;
    for (int p = 0; p < 2 && ok == 0; p++) {
        PyObject *plan = tuple_of(PyTuple_GET_ITEM(both, p), key, -ALQ_MAX_LINES);
        if (!plan) {
            ok = -1;
            break;
        }
        n[p] = (int)PyTuple_GET_SIZE(plan);
        for (int i = 0; i < n[p] && ok == 0; i++) {
            PyObject *t = tuple_of(PyTuple_GET_ITEM(plan, i), key, jumps ? 3 : 2);
            long long d = 0, dd = 0;
            ok = !t || int_in(PyTuple_GET_ITEM(t, 0), key, 1, ALQ_MAX_DELTA, &d) < 0
                 || (jumps && int_in(PyTuple_GET_ITEM(t, 1), key, 2 * d, 2 * d, &dd) < 0)
                 || mask_in(PyTuple_GET_ITEM(t, jumps ? 2 : 1), key, points, &out[p][i].m) < 0 ? -1 : 0;
            out[p][i].d = (int)d;
            out[p][i].dd = (int)dd;
            Py_XDECREF(t);
        }
        Py_DECREF(plan);
    }
    Py_DECREF(both);
    return ok;
}

static int read_steps(PyObject *spec, const char *key, u128 points, AlqShift out[2][ALQ_MAX_LINES], int n[2])
{
    AlqJump plan[2][ALQ_MAX_LINES];
    if (read_plan(spec, key, points, 0, plan, n) < 0)
        return -1;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < n[p]; i++)
            out[p][i] = (AlqShift){plan[p][i].d, plan[p][i].m};
    return 0;
}

/* Each player's step and jump plans (AlquerqueGame.step_up, step_down, jump_up, jump_down). */
static int read_plans(PyObject *spec, AlqSpec *r)
{
    return read_steps(spec, "step_up", r->points, r->step_up, r->n_step_up) < 0
           || read_steps(spec, "step_down", r->points, r->step_down, r->n_step_down) < 0
           || read_plan(spec, "jump_up", r->points, 1, r->jump_up, r->n_jump_up) < 0
           || read_plan(spec, "jump_down", r->points, 1, r->jump_down, r->n_jump_down) < 0 ? -1 : 0;
}

static int read_board(PyObject *spec, AlqSpec *r)
{
    PyObject *name, *points;
    if (!(name = field(spec, "name")) || !(points = field(spec, "points")) || int_field(spec, "wide", 0, 1, &r->wide) < 0)
        return -1;
    const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (!text) {
        PyErr_SetString(PyExc_ValueError, "AlquerqueRules spec: name must be a str");
        return -1;
    }
    snprintf(r->name, sizeof(r->name), "%s", text);
    u128 widest = ((u128)1 << (r->wide ? ALQ_MAX_BITS : 64)) - 1;
    if (mask_in(points, "points", widest, &r->points) < 0)
        return -1;
    PyObject *promo = field(spec, "promo");
    if (!promo || !(promo = tuple_of(promo, "promo", 2)))
        return -1;
    int ok = mask_in(PyTuple_GET_ITEM(promo, 0), "promo", r->points, &r->promo[0]) < 0
             || mask_in(PyTuple_GET_ITEM(promo, 1), "promo", r->points, &r->promo[1]) < 0 ? -1 : 0;
    Py_DECREF(promo);
    if (ok < 0 || read_lines(spec, r) < 0 || read_plans(spec, r) < 0)
        return -1;
    return 0;
}

static int read_spec(PyObject *spec, AlqSpec *r)
{
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "AlquerqueRules(spec): spec must be a dict (rules/alquerque_kernel.py)");
        return -1;
    }
    memset(r, 0, sizeof(*r));
    long long no_progress, max_plies;
    PyObject *np, *mp, *kv;
    if (read_board(spec, r) < 0 || int_field(spec, "hunt", 0, 1, &r->hunt) < 0
        || int_field(spec, "compulsory", 0, 1, &r->compulsory) < 0
        || int_field(spec, "immediate", 0, 1, &r->immediate) < 0
        || int_field(spec, "chain", ALQ_CHAIN_COMPULSORY, ALQ_CHAIN_SINGLE, &r->chain) < 0
        || int_field(spec, "promotion", ALQ_PROMO_NONE, ALQ_PROMO_PASS, &r->promotion) < 0
        || int_field(spec, "king_reverse", 0, 1, &r->king_reverse) < 0 || int_field(spec, "huff", 0, 1, &r->huff) < 0
        || int_field(spec, "choice_max", 0, 1, &r->choice_max) < 0
        || int_field(spec, "crown_is_progress", 0, 1, &r->crown_is_progress) < 0
        || int_field(spec, "repetition", 0, 1 << 30, &r->repetition) < 0
        || int_field(spec, "flock", 1, 1 << 20, &r->flock) < 0
        || !(np = field(spec, "no_progress")) || int_in(np, "no_progress", 1, ALQ_NO_LIMIT, &no_progress) < 0
        || !(mp = field(spec, "max_plies")) || int_in(mp, "max_plies", 1, ALQ_NO_LIMIT, &max_plies) < 0
        || !(kv = field(spec, "king_value")))
        return -1;
    if (r->repetition == 1) {
        PyErr_SetString(PyExc_ValueError, "AlquerqueRules spec: repetition must be 0 (off) or 2 or more");
        return -1;
    }
    r->no_progress = no_progress;
    r->max_plies = max_plies;
    r->king_value = PyFloat_AsDouble(kv);
    if ((r->king_value == -1.0 && PyErr_Occurred()) || !isfinite(r->king_value)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "AlquerqueRules spec: king_value must be a finite float");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Positions: AlquerqueState.raw() in and out
 * ---------------------------------------------------------------------------------------- */
static int read_key(const AlqSpec *r, PyObject *o, AlqKey *k)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) {
        PyErr_SetString(PyExc_ValueError, "a history key must be a tuple (turn, own, opp, kings)");
        return -1;
    }
    long long turn;
    if (int_in(PyTuple_GET_ITEM(o, 0), "a key's turn", 0, 1, &turn) < 0
        || mask_in(PyTuple_GET_ITEM(o, 1), "a key's own", r->points, &k->own) < 0
        || mask_in(PyTuple_GET_ITEM(o, 2), "a key's opp", r->points, &k->opp) < 0
        || mask_in(PyTuple_GET_ITEM(o, 3), "a key's kings", r->points, &k->kings) < 0)
        return -1;
    k->turn = (int)turn;
    return 0;
}

static int read_history(const AlqSpec *r, PyObject *o, AlqPos *p)
{
    if (!PyTuple_Check(o)) {
        PyErr_SetString(PyExc_ValueError, "a position's history must be a tuple of keys");
        return -1;
    }
    size_t n = (size_t)PyTuple_GET_SIZE(o);
    if (!n)
        return 0;
    p->hist = malloc(n * sizeof(AlqKey));
    if (!p->hist) {
        PyErr_NoMemory();
        return -1;
    }
    p->cap_hist = n;
    for (size_t i = 0; i < n; i++)
        if (read_key(r, PyTuple_GET_ITEM(o, (Py_ssize_t)i), &p->hist[p->n_hist++]) < 0)
            return -1;
    return 0;
}

static int read_pos(const AlqSpec *r, PyObject *raw, AlqPos *p)
{
    memset(p, 0, sizeof(*p));
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 8) {
        PyErr_SetString(PyExc_ValueError,
                        "a raw position must be AlquerqueState.raw(): (own, opp, kings, turn, ply, quiet, drawn, history)");
        return -1;
    }
    long long turn, ply, quiet;
    int drawn;
    if (mask_in(PyTuple_GET_ITEM(raw, 0), "own", r->points, &p->own) < 0
        || mask_in(PyTuple_GET_ITEM(raw, 1), "opp", r->points, &p->opp) < 0
        || mask_in(PyTuple_GET_ITEM(raw, 2), "kings", r->points, &p->kings) < 0
        || int_in(PyTuple_GET_ITEM(raw, 3), "turn", 0, 1, &turn) < 0
        || int_in(PyTuple_GET_ITEM(raw, 4), "ply", 0, ALQ_NO_LIMIT, &ply) < 0
        || int_in(PyTuple_GET_ITEM(raw, 5), "quiet", 0, ALQ_NO_LIMIT, &quiet) < 0
        || (drawn = PyObject_IsTrue(PyTuple_GET_ITEM(raw, 6))) < 0)
        return -1;
    if ((p->own & p->opp) || (p->kings & ~(p->own | p->opp))) {
        PyErr_SetString(PyExc_ValueError, "a raw position's masks overlap (own & opp) or a king stands on no piece");
        return -1;
    }
    p->turn = (int)turn;
    p->ply = ply;
    p->quiet = quiet;
    p->drawn = drawn;
    if (read_history(r, PyTuple_GET_ITEM(raw, 7), p) < 0) {
        free(p->hist);
        p->hist = NULL;
        return -1;
    }
    return 0;
}

static PyObject *key_tuple(const AlqKey *k)
{
    return Py_BuildValue("(iNNN)", k->turn, from_u128(k->own), from_u128(k->opp), from_u128(k->kings));
}

static PyObject *raw_of(const AlqPos *p)
{
    PyObject *hist = PyTuple_New((Py_ssize_t)p->n_hist);
    for (size_t i = 0; hist && i < p->n_hist; i++) {
        PyObject *k = key_tuple(&p->hist[i]);
        if (!k)
            Py_CLEAR(hist);
        else
            PyTuple_SET_ITEM(hist, (Py_ssize_t)i, k);
    }
    if (!hist)
        return NULL;
    return Py_BuildValue("(NNNiLLON)", from_u128(p->own), from_u128(p->opp), from_u128(p->kings), p->turn,
                         (long long)p->ply, (long long)p->quiet, p->drawn ? Py_True : Py_False, hist);
}

/* ------------------------------------------------------------------------------------------
 * Moves: the Python rules' (from, to, captured, crowned, route) in and out
 * ---------------------------------------------------------------------------------------- */
static PyObject *plain_tuple(const AlqPlain *m)
{
    PyObject *route = PyTuple_New(m->n);
    for (int i = 0; route && i < m->n; i++) {
        PyObject *x = from_u128((u128)1 << m->route[i]);
        if (!x)
            Py_CLEAR(route);
        else
            PyTuple_SET_ITEM(route, i, x);
    }
    if (!route)
        return NULL;
    return Py_BuildValue("(NNNON)", from_u128(m->frm), from_u128(m->to), from_u128(m->cap),
                         m->crowned ? Py_True : Py_False, route);
}

static int not_a_move(const AlqSpec *r, PyObject *move, const char *why)
{
    PyErr_Format(PyExc_ValueError, "not a move of %s (%s): %R", r->name, why, move);
    return -1;
}

static int point_in(const AlqSpec *r, PyObject *o, u128 *x)
{
    if (to_u128(o, x) < 0) {
        PyErr_Clear();
        return -1;
    }
    return single(*x) && (*x & r->points) ? 0 : -1;
}

/* A move tuple read into `m`, checked against the board (its legality is the caller's). */
static int read_move(const AlqSpec *r, PyObject *move, AlqPlain *m)
{
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 5)
        return not_a_move(r, move, "a move is a tuple (from, to, captured, crowned, route)");
    PyObject *crowned = PyTuple_GET_ITEM(move, 3), *route = PyTuple_GET_ITEM(move, 4);
    if (point_in(r, PyTuple_GET_ITEM(move, 0), &m->frm) < 0 || point_in(r, PyTuple_GET_ITEM(move, 1), &m->to) < 0)
        return not_a_move(r, move, "from and to must be single points of the board");
    if (to_u128(PyTuple_GET_ITEM(move, 2), &m->cap) < 0 || (m->cap & ~r->points)) {
        PyErr_Clear();
        return not_a_move(r, move, "captured must be points of the board");
    }
    long long c = PyLong_Check(crowned) ? PyLong_AsLongLong(crowned) : -1;   /* a bool, or 0 / 1 */
    if (c < 0 || c > 1) {
        PyErr_Clear();
        return not_a_move(r, move, "crowned must be a bool");
    }
    m->crowned = (int)c;
    if (!PyTuple_Check(route) || PyTuple_GET_SIZE(route) > ALQ_MAX_BITS)
        return not_a_move(r, move, "route must be a tuple of at most 90 points");
    m->n = (int)PyTuple_GET_SIZE(route);
    for (int i = 0; i < m->n; i++) {
        u128 x;
        if (point_in(r, PyTuple_GET_ITEM(route, i), &x) < 0)
            return not_a_move(r, move, "route must be single points of the board");
        m->route[i] = (uint8_t)lowest(x);
    }
    if (m->n && ((u128)1 << m->route[m->n - 1]) != m->to)
        return not_a_move(r, move, "a capture ends on its route's last point");
    return 0;
}

static int move_in(GameIface *g, PyObject *move, MoveSlot *slot)
{
    const AlqHead *h = head_of(g);
    AlqPlain m;
    if (read_move(h->r, move, &m) < 0)
        return -1;
    int n = m.n;
    int64_t interned = 0;
    if (n > ALQ_SLOT_ROUTE) {
        if ((interned = alq_routes_intern(h->routes, lowest(m.frm), m.route, n)) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        n = ALQ_INTERNED;
    }
    alq_slot_pack(slot, m.cap, lowest(m.frm), lowest(m.to), m.crowned, n, m.route, (uint64_t)interned);
    return 0;
}

static PyObject *move_out(GameIface *g, const MoveSlot *slot)
{
    AlqPlain m;
    m.frm = (u128)1 << alq_slot_from(slot);
    m.to = (u128)1 << alq_slot_to(slot);
    m.cap = alq_slot_cap(slot);
    m.crowned = alq_slot_crowned(slot);
    m.n = alq_slot_n(slot);
    if (m.n == ALQ_INTERNED) {
        m.n = alq_routes_get(head_of(g)->routes, slot->w[2], m.route);
        if (m.n < 0) {
            PyErr_SetString(PyExc_RuntimeError, "a move slot names no interned route");
            return NULL;
        }
    } else {
        for (int i = 0; i < m.n; i++)
            m.route[i] = (uint8_t)alq_slot_landing(slot, i);
    }
    return plain_tuple(&m);
}

/* ------------------------------------------------------------------------------------------
 * The glue (glue.h): a game instance per searcher of the rules object's word
 * ---------------------------------------------------------------------------------------- */
static int open_instance(PyObject *rules, const GameArgs *a, GameIface *g)
{
    (void)a;
    AlqRulesObject *self = (AlqRulesObject *)rules;
    if (word_of(&self->spec)->open(g, &self->spec, &self->routes) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void close_instance(GameIface *g) { word_of(head_of(g)->r)->close(g); }

static int pos_load(GameIface *g, PyObject *raw, void *pos)
{
    AlqPos p;
    if (read_pos(head_of(g)->r, raw, &p) < 0)
        return -1;
    g->ops->pos_free(g, pos);
    memcpy(pos, &p, sizeof(p));
    return 0;
}

static PyObject *pos_raw(GameIface *g, const void *pos)
{
    (void)g;
    return raw_of(pos);
}

static const GameGlue ALQ_GLUE = {
    .open = open_instance, .close = close_instance, .pos_load = pos_load, .pos_raw = pos_raw,
    .move_in = move_in, .move_out = move_out,
};


/* ------------------------------------------------------------------------------------------
 * The Python state's fast paths: a game instance and a position of `raw` for one call
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    GameIface g;
    AlqPos p;
    int opened;
} Call;

static void call_close(Call *c)
{
    free(c->p.hist);
    if (c->opened)
        close_instance(&c->g);
    memset(c, 0, sizeof(*c));
}

static int call_open(AlqRulesObject *self, PyObject *raw, Call *c)
{
    memset(c, 0, sizeof(*c));
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "AlquerqueRules was not initialised");
        return -1;
    }
    if (read_pos(&self->spec, raw, &c->p) < 0)
        return -1;
    if (open_instance((PyObject *)self, NULL, &c->g) < 0) {
        call_close(c);
        return -1;
    }
    c->opened = 1;
    return 0;
}

/* random_move(raw, rng): AlquerqueState.random_move, drawing from rng as it does. */
static PyObject *Alq_random_move(AlqRulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "random_move(raw, rng)");
        return NULL;
    }
    Rand local, *rand;
    PyObject *method;
    if (!(rand = rand_source(args[1], &local, &method)))
        return NULL;
    Call c;
    int found = -1;
    AlqPlain m;
    if (call_open(self, args[0], &c) == 0)
        found = word_of(&self->spec)->random_move(&c.g, &c.p, rand, &m);
    call_close(&c);
    Py_XDECREF(method);
    if (found < 0)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return found ? plain_tuple(&m) : Py_NewRef(Py_None);
}

/* playout(raw, rng, max_plies): AlquerqueState.playout: (its result or None, the raw position after). */
static PyObject *Alq_playout(AlqRulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "playout(raw, rng, max_plies)");
        return NULL;
    }
    int64_t max_plies;
    if (to_i64(args[2], &max_plies) < 0)
        return NULL;
    Rand local, *rand;
    PyObject *method, *out = NULL;
    if (!(rand = rand_source(args[1], &local, &method)))
        return NULL;
    Call c;
    if (call_open(self, args[0], &c) == 0) {
        double result = 0.0;
        int over = c.g.ops->playout(&c.g, &c.p, max_plies, rand, NULL, &result);
        if (over >= 0)
            out = Py_BuildValue("(NN)", over == GAME_OVER ? PyFloat_FromDouble(result) : Py_NewRef(Py_None),
                                raw_of(&c.p));
        else if (!PyErr_Occurred())
            PyErr_NoMemory();
    }
    call_close(&c);
    Py_XDECREF(method);
    return out;
}

/* The batch of playouts(): GAME_ERROR out of memory. */
static int batch(Call *c, long count, u64 seed, long long out[4])
{
    AlqPos p;
    Rand rng;
    int err = 0;
    memset(&p, 0, sizeof(p));
    rand_seed(&rng, seed);
    for (long i = 0; i < count && !err; i++) {
        double v = 0.0;
        int over = c->g.ops->copy(&c->g, &p, &c->p) < 0 ? GAME_ERROR
                   : c->g.ops->playout(&c->g, &p, PLAYOUT_CAP, &rng, NULL, &v);
        if (over < 0)
            err = 1;
        else if (over == GAME_OVER)
            out[v == 1.0 ? 0 : v == 0.5 ? 1 : 2]++;
        out[3] += p.ply - c->p.ply;
    }
    free(p.hist);
    return err ? GAME_ERROR : GAME_OK;
}

/* playouts(raw, count, seed): `count` random playouts from raw in C, the GIL released, each at most
 * PLAYOUT_CAP plies (bench): (first player's wins, draws, second player's wins, plies played). */
static PyObject *Alq_playouts(AlqRulesObject *self, PyObject *const *args, Py_ssize_t nargs)
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
    Call c;
    if (call_open(self, args[0], &c) < 0)
        return NULL;
    long long out[4] = {0, 0, 0, 0};
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = batch(&c, count, seed, out);
    Py_END_ALLOW_THREADS
    call_close(&c);
    if (r < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(LLLL)", out[0], out[1], out[2], out[3]);
}

/* perft(raw, depth): AlquerqueGame.perft (the draw rules ignored), the GIL released. */
static PyObject *Alq_perft(AlqRulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long depth;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "perft(raw, depth)");
        return NULL;
    }
    if (int_in(args[1], "perft depth", 0, 64, &depth) < 0)
        return NULL;
    Call c;
    if (call_open(self, args[0], &c) < 0)
        return NULL;
    int64_t n;
    const AlqWord *word = word_of(&self->spec);
    Py_BEGIN_ALLOW_THREADS
    n = word->perft(&c.g, &c.p, (int)depth);
    Py_END_ALLOW_THREADS
    call_close(&c);
    return n < 0 ? PyErr_NoMemory() : PyLong_FromLongLong(n);
}

/* ------------------------------------------------------------------------------------------
 * The type
 * ---------------------------------------------------------------------------------------- */
static int Alq_init(AlqRulesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"spec", NULL};
    PyObject *spec;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "an AlquerqueRules is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &spec) || read_spec(spec, &self->spec) < 0)
        return -1;
    if (alq_routes_init(&self->routes) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "AlquerqueRules: no lock for its routes");
        return -1;
    }
    self->ready = 1;
    self->base.glue = &ALQ_GLUE;
    return 0;
}

static void Alq_dealloc(AlqRulesObject *self)
{
    if (self->ready)
        alq_routes_free(&self->routes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Alq_get_wide(AlqRulesObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->ready && self->spec.wide);
}

static PyObject *Alq_get_interned(AlqRulesObject *self, void *Py_UNUSED(closure))
{
    if (!self->ready)
        return PyLong_FromLong(0);
    pthread_mutex_lock(&self->routes.lock);
    size_t n = self->routes.n;
    pthread_mutex_unlock(&self->routes.lock);
    return PyLong_FromSize_t(n);
}

static PyMethodDef Alq_methods[] = {
    {"random_move", (PyCFunction)(void (*)(void))Alq_random_move, METH_FASTCALL,
     "random_move(raw, rng): AlquerqueState.random_move(rng), drawing from rng as it does."},
    {"playout", (PyCFunction)(void (*)(void))Alq_playout, METH_FASTCALL,
     "playout(raw, rng, max_plies): AlquerqueState.playout: (the result or None, the raw position after)."},
    {"playouts", (PyCFunction)(void (*)(void))Alq_playouts, METH_FASTCALL,
     "playouts(raw, count, seed): random playouts in C (bench): (first player's wins, draws, second's, plies)."},
    {"perft", (PyCFunction)(void (*)(void))Alq_perft, METH_FASTCALL,
     "perft(raw, depth): leaves of the move tree, draw rules ignored (AlquerqueGame.perft)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Alq_getset[] = {
    {"wide", (getter)Alq_get_wide, NULL, "Whether the rules run on the 128-bit word.", NULL},
    {"interned", (getter)Alq_get_interned, NULL, "Routes too long for a move slot interned so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AlquerqueRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.AlquerqueRules",
    .tp_basicsize = sizeof(AlqRulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "AlquerqueRules(spec): a game of the Alquerque family (rules/alquerque_kernel.py's spec) as native "
              "rules: the search core runs it through the C game interface.",
    .tp_base = &RulesType,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Alq_init,
    .tp_dealloc = (destructor)Alq_dealloc,
    .tp_methods = Alq_methods,
    .tp_getset = Alq_getset,
};
