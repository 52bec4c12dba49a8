/* What the CPython-facing files of the native kernel share: conversions at the boundary,
 * the Python types, and reading and writing DraughtsState objects. */
#ifndef MCTS_GLUE_H
#define MCTS_GLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "search.h"

/* interned attribute names (convert.c) */
extern PyObject *SIXTY_FOUR, *S_OWN, *S_OPP, *S_KINGS, *S_TURN, *S_PLY, *S_PROGRESS, *S_CAPTURE, *S_DRAWN,
    *S_RUNS, *S_HISTORY, *S_RANDOM;
int intern_names(void);

int to_u128(PyObject *o, u128 *out);
PyObject *from_u128(u128 x);
int to_i64(PyObject *o, int64_t *out);
PyObject *move_tuple(u128 frm, u128 to, u128 cap, int crowned);
int parse_move(PyObject *o, u128 *frm, u128 *to, u128 *cap, int *crowned);
PyObject *outcome_value(double v);

/* A raw position's masks as they cross the boundary, checked against the board. */
typedef struct { u128 own, opp, kings, frozen; int turn; } RawArgs;
int masks_fit(const Rules *r, const RawArgs *a);

/* A DraughtsState read into native form: masks, counters, Frisian runs, repetition history. */
typedef struct {
    u128 own, opp, kings;
    int turn, drawn;
    int64_t ply, progress_ply, capture_ply;
    u128 run_sq[2];
    int64_t run_n[2];
    PyObject *history;        /* the state's tuple (a new reference) */
} StateIn;

int read_state(const Rules *r, PyObject *state, StateIn *s);
int load_64(const StateIn *in, Pos64 *p);
int load_128(const StateIn *in, Pos128 *p);
int store_64(PyObject *state, const StateIn *in, Pos64 *p);
int store_128(PyObject *state, const StateIn *in, Pos128 *p);

/* fanorona.c: Fanorona's capture chains (the Python rules' ``extend``) */
PyObject *fanorona_setup(PyObject *self, PyObject *args);
PyObject *fanorona_chains(PyObject *self, PyObject *args);

/* random.c */
typedef struct {
    PyObject_HEAD
    Rand rand;
} RandomObject;
extern PyTypeObject RandomType;
Rand *rand_source(PyObject *rng, Rand *local, PyObject **method);

/* kernel.c */
typedef struct {
    PyObject_HEAD
    Rules rules;
    Scratch64 s64;
    Scratch128 s128;
    int busy;            /* the scratch buffers are in use (a callback ran Python code) */
} KernelObject;
extern PyTypeObject KernelType;

/* backend_python.c */
int backend_python_init(Backend *b, PyObject *rng, PyObject *oracle, int compulsory_captures);
void backend_python_free(Backend *b);

/* tree.c */
extern PyTypeObject SearchTreeType;
PyObject *table_select(PyObject *self, PyObject *args);
PyObject *table_final(PyObject *self, PyObject *args);

#endif
