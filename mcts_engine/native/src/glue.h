/* What the CPython-facing files of the native kernel share: conversions at the boundary,
 * the Python types, and reading and writing DraughtsState objects. */
#ifndef MCTS_GLUE_H
#define MCTS_GLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "search.h"

/* interned constants (convert.c) */
extern PyObject *SIXTY_FOUR, *S_RANDOM;
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

/* A DraughtsState's raw tuple read into native form: masks, counters, Frisian runs, repetition history. */
typedef struct {
    u128 own, opp, kings;
    int turn, drawn;
    int64_t ply, progress_ply, capture_ply;
    u128 run_sq[2];
    int64_t run_n[2];
    PyObject *history;        /* the state's tuple (a new reference) */
} StateIn;

int read_state(const Rules *r, PyObject *raw, StateIn *s);
int load_64(const StateIn *in, Pos64 *p);
int load_128(const StateIn *in, Pos128 *p);
PyObject *raw_64(const StateIn *in, const Pos64 *p);     /* the position as a new raw tuple (`in` may be NULL) */
PyObject *raw_128(const StateIn *in, const Pos128 *p);

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

/* --- games across the boundary ---------------------------------------------------------------
 * How the search object makes a game instance for each searcher and moves positions and moves
 * between a game's Python rules and its C game interface: one GameGlue per kind of rules (the
 * draughts kernel for each word, the Python callback game).  A native rules object is a
 * RulesObject (the base type of DraughtsKernel and any native game to come) that names its glue. */
typedef struct {
    const Tables *tables;      /* the endgame tables a native game probes (may be empty) */
    PyObject *rng;             /* the Python game: the random.Random its playouts draw from */
    PyObject *oracle;          /* the Python game: the tables' probe(state) or NULL */
    int compulsory_captures;   /* the Python game: a cut-off plays pending captures first */
} GameArgs;

typedef struct GameGlue {
    int (*open)(PyObject *rules, const GameArgs *args, GameIface *g);   /* -1 with an exception set */
    void (*close)(GameIface *g);
    int (*pos_load)(GameIface *g, PyObject *raw, void *pos);    /* State.raw() into a position */
    PyObject *(*pos_raw)(GameIface *g, const void *pos);         /* a position as State.raw() gives it */
    int (*move_in)(GameIface *g, PyObject *move, MoveSlot *out); /* a Python object move stays borrowed */
    PyObject *(*move_out)(GameIface *g, const MoveSlot *m);      /* a new reference */
} GameGlue;

typedef struct {
    PyObject_HEAD
    const GameGlue *glue;
} RulesObject;
extern PyTypeObject RulesType;

/* kernel.c */
typedef struct {
    RulesObject base;
    Rules rules;
    Scratch64 s64;
    Scratch128 s128;
    int busy;            /* the scratch buffers are in use (a callback ran Python code) */
} KernelObject;
extern PyTypeObject KernelType;

/* draughts_glue.c: the kernel's glue for each word */
extern const GameGlue DRAUGHTS_GLUE_64, DRAUGHTS_GLUE_128;

/* alquerque_glue.c: the Alquerque family's native rules (AlquerqueRules, a Rules object) */
extern PyTypeObject AlquerqueRulesType;

/* game_python.c: a game on its Python rules */
extern const GameGlue PYTHON_GLUE;

/* search_object.c */
extern PyTypeObject SearchType, StopFlagType;
PyObject *table_select(PyObject *self, PyObject *args);
PyObject *merge_roots(PyObject *self, PyObject *args);

#endif
