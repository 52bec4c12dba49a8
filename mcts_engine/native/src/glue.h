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

/* A DraughtsState's raw tuple read: the position's fields and its repetition history. */
typedef struct {
    PosFields pos;
    PyObject *history;        /* the state's tuple of keys (a new reference) */
} StateIn;

int read_state(const Rules *r, PyObject *raw, StateIn *s);
/* A read state into a position of word `w` (`pos`: w->pos_size bytes; -1 with an exception set). */
int load_pos(const KernelWord *w, const StateIn *in, void *pos);
/* A position as a new raw tuple (its history's first keys those of `in`'s tuple; `in` may be NULL). */
PyObject *raw_pos(const KernelWord *w, const StateIn *in, const void *pos);

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
 * draughts kernel for either word, the Python callback game).  A native rules object is a
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
    const KernelWord *word;   /* the board's word (draughts.h), chosen once in Kernel_init */
    PyObject *learned;        /* the bytes rules.learned.patterns points into (with_learned), or NULL */
    ScratchBuf scratch;       /* the word's scratch buffers, zeroed when the object is made */
    int busy;                 /* the scratch buffers are in use (a callback ran Python code) */
} KernelObject;
extern PyTypeObject KernelType;

/* draughts_glue.c: the kernel's glue, for either word */
extern const GameGlue DRAUGHTS_GLUE;

/* rith_object.c: Rithmomachia's native rules (a Rules subtype) */
extern PyTypeObject RithmomachiaRulesType;

/* alquerque_glue.c: the Alquerque family's native rules (AlquerqueRules, a Rules object) */
extern PyTypeObject AlquerqueRulesType;

/* game_python.c: a game on its Python rules */
extern const GameGlue PYTHON_GLUE;

/* fanorona_glue.c: Fanorona's native rules (FanoronaRules) and their glue */
extern PyTypeObject FanoronaType;
extern const GameGlue FANORONA_GLUE;

/* dablot_glue.c: Dablot's native rules (DablotRules) and their glue */
extern PyTypeObject DablotType;
extern const GameGlue DABLOT_GLUE;

/* life_glue.c, gauntlet_glue.c: the native rules of Life and Gauntlet (Rules subtypes) */
extern PyTypeObject LifeRulesType, GauntletRulesType;

/* search_object.c */
extern PyTypeObject SearchType, StopFlagType;
PyObject *table_select(PyObject *self, PyObject *args);
PyObject *table_clock(PyObject *self, PyObject *args);
PyObject *merge_roots(PyObject *self, PyObject *args);

#endif
