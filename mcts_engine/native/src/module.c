/* mcts_engine.native._core: the CPython face of the native core.
 *
 * Search (search_object.c) is the one search core, StopFlag what stops it; DraughtsKernel
 * (kernel.c) compiles a draughts variant from the tables the Python rules already built and
 * offers the rules' hot operations, and is a Rules object: a game the search runs natively
 * through the C game interface (game.h).  Random (random.c) is the native random source.
 * FanoronaRules (fanorona_glue.c) and DablotRules (dablot_glue.c) are those games' whole
 * rules, Rules objects too.  Moves cross the boundary as the Python rules' values (draughts:
 * (from, to, captured, crowned) on the same bit layout) and positions as State.raw(), so
 * nothing is parsed or translated.
 */
#include "glue.h"

#include "cpu.h"

int search_types_ready(void);
PyObject *report_type(void);

static PyObject *fast_bits(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(args))
{
    return PyBool_FromLong(cpu_fast_bits());
}


static PyMethodDef core_functions[] = {
    {"table_select", table_select, METH_VARARGS,
     "table_select(settings, parent_visits, children): the index of the child the core's selection enters; each "
     "child (n, w, d, v, prior, proven, proof, mover).  For table tests."},
    {"table_clock", table_clock, METH_VARARGS,
     "table_clock(elapsed, soft, hard, rate, best, second, n_moves): whether the core's clock rule stops a search "
     "with these figures.  For table tests."},
    {"merge_roots", merge_roots, METH_VARARGS,
     "merge_roots(final_move, reports, votes=None): searchers' root statistics summed by move, and the index of the "
     "move to play (the core's final choice, or the majority of `votes`)."},
    {"cpu_fast_bits", fast_bits, METH_NOARGS,
     "cpu_fast_bits(): whether this CPU runs the kernels' second compilation (pext in hardware; cpu.h)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "mcts_engine.native._core",
    "The native core: the search (Search, StopFlag), compiled draughts rules (DraughtsKernel), a random source.", -1,
    core_functions, NULL, NULL, NULL, NULL,
};

static int add_type(PyObject *m, const char *name, PyTypeObject *type)
{
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* the games whose whole rules are native, each a Rules subtype: one row a game */
static const struct {
    const char *name;
    PyTypeObject *type;
} GAME_RULES[] = {
    {"RithmomachiaRules", &RithmomachiaRulesType},
    {"FanoronaRules", &FanoronaType},
    {"DablotRules", &DablotType},
    {"LifeRules", &LifeRulesType},
    {"GauntletRules", &GauntletRulesType},
    {"AlquerqueRules", &AlquerqueRulesType},
};

PyMODINIT_FUNC PyInit__core(void)
{
#if defined(__x86_64__) && defined(__POPCNT__)
    /* built with -mpopcnt (setup.py): refuse to load, rather than crash, on a CPU without it */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "this CPU lacks the POPCNT instruction the kernel was built for");
        return NULL;
    }
#endif
    if (PyType_Ready(&RandomType) < 0 || PyType_Ready(&RulesType) < 0 || PyType_Ready(&KernelType) < 0
        || PyType_Ready(&SearchType) < 0 || PyType_Ready(&StopFlagType) < 0 || search_types_ready() < 0)
        return NULL;
    for (size_t i = 0; i < sizeof GAME_RULES / sizeof GAME_RULES[0]; i++)
        if (PyType_Ready(GAME_RULES[i].type) < 0)
            return NULL;
    if (intern_names() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (add_type(m, "Random", &RandomType) < 0 || add_type(m, "Rules", &RulesType) < 0
        || add_type(m, "DraughtsKernel", &KernelType) < 0 || add_type(m, "Search", &SearchType) < 0
        || add_type(m, "StopFlag", &StopFlagType) < 0 || add_type(m, "Report", (PyTypeObject *)report_type()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof GAME_RULES / sizeof GAME_RULES[0]; i++)
        if (add_type(m, GAME_RULES[i].name, GAME_RULES[i].type) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
