/* mcts_engine.native._core: the CPython face of the native kernel.
 *
 * DraughtsKernel (kernel.c) compiles a draughts variant from the tables the Python rules
 * already built and offers the rules' hot operations; SearchTree (tree.c) is the one search
 * core; Random (random.c) the native random source; fanorona_chains (fanorona.c) Fanorona's
 * capture chains.  Moves cross the boundary as the Python
 * rules' tuples (from, to, captured, crowned) on the same bit layout, so nothing is translated.
 */
#include "glue.h"

static PyMethodDef core_functions[] = {
    {"table_select", table_select, METH_VARARGS,
     "table_select(settings, parent_visits, children): the index of the child the core's selection enters; each "
     "child (n, w, d, v, prior, proven, proof, mover).  For table tests."},
    {"table_final", table_final, METH_VARARGS,
     "table_final(settings, children): the index of the root child the core's final choice plays, or None.  For "
     "table tests."},
    {"fanorona_setup", fanorona_setup, METH_VARARGS,
     "fanorona_setup(points, neighbours, near): Fanorona's lines, from rules/fanorona.py, once."},
    {"fanorona_chains", fanorona_chains, METH_VARARGS,
     "fanorona_chains(own, opp, starters, mode): every capturing move of the stones in starters, as "
     "rules/fanorona.py's extend lists them (the same tuples in the same order)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "mcts_engine.native._core",
    "The native kernel: compiled draughts rules (DraughtsKernel), the search core (SearchTree), a random source.", -1,
    core_functions, NULL, NULL, NULL, NULL,
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
    if (PyType_Ready(&RandomType) < 0 || PyType_Ready(&KernelType) < 0 || PyType_Ready(&SearchTreeType) < 0)
        return NULL;
    if (intern_names() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&RandomType);
    Py_INCREF(&KernelType);
    Py_INCREF(&SearchTreeType);
    if (PyModule_AddObject(m, "Random", (PyObject *)&RandomType) < 0
        || PyModule_AddObject(m, "DraughtsKernel", (PyObject *)&KernelType) < 0
        || PyModule_AddObject(m, "SearchTree", (PyObject *)&SearchTreeType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
