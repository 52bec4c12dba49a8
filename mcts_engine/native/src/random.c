/* Random: the native random source as a Python object, and the random source of a call
 * (a native Random, or any object's random() method). */
#include "glue.h"

static int Random_init(RandomObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", NULL};
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|K", kwlist, &seed))
        return -1;
    rand_seed(&self->rand, seed);
    return 0;
}

static PyObject *Random_random(RandomObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyFloat_FromDouble(rand_native_next(&self->rand));
}

static PyObject *Random_seed(RandomObject *self, PyObject *arg)
{
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    rand_seed(&self->rand, seed);
    Py_RETURN_NONE;
}

static PyObject *Random_getrandbits(RandomObject *self, PyObject *arg)
{
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    if (k < 0 || k > 64) {
        PyErr_Format(PyExc_ValueError, "getrandbits(%ld): k must be 0 to 64", k);
        return NULL;
    }
    u64 x = k ? rand_next_u64(&self->rand) >> (64 - k) : 0;
    return PyLong_FromUnsignedLongLong(x);
}

static PyMethodDef Random_methods[] = {
    {"random", (PyCFunction)Random_random, METH_NOARGS, "A float in [0, 1) with 53 random bits."},
    {"seed", (PyCFunction)Random_seed, METH_O, "Restart the sequence from an integer seed."},
    {"getrandbits", (PyCFunction)Random_getrandbits, METH_O, "An int of k random bits (k <= 64)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject RandomType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mcts_engine.native._core.Random",
    .tp_basicsize = sizeof(RandomObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Random(seed=0): the native random source (xoshiro256**), for native playouts.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Random_init,
    .tp_methods = Random_methods,
};


/* The random source of a playout: a native Random, or any object's random() method. */
static double py_rand_next(Rand *r)
{
    PyObject *v = PyObject_CallNoArgs((PyObject *)r->py_callable);
    if (!v) {
        r->failed = 1;
        return 0.0;
    }
    double x = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (x == -1.0 && PyErr_Occurred()) {
        r->failed = 1;
        return 0.0;
    }
    if (!(x >= 0.0 && x < 1.0)) {
        PyErr_Format(PyExc_ValueError, "random() returned %R, outside [0, 1)", PyFloat_FromDouble(x));
        r->failed = 1;
        return 0.0;
    }
    return x;
}

/* The random source of a call: a native Random, or the object's random() method (then
 * `*method` holds it until the call ends). */
Rand *rand_source(PyObject *rng, Rand *local, PyObject **method)
{
    *method = NULL;
    if (PyObject_TypeCheck(rng, &RandomType)) {
        Rand *r = &((RandomObject *)rng)->rand;
        r->failed = 0;
        return r;
    }
    *method = PyObject_GetAttr(rng, S_RANDOM);
    if (!*method)
        return NULL;
    memset(local, 0, sizeof(*local));
    local->next = py_rand_next;
    local->py_callable = *method;
    return local;
}

