/* Board masks wider than a machine word across the boundary (words.h): the int's bytes,
 * little-endian, assembled into words so that the host's byte order does not matter. */
#include "words.h"

#include <string.h>

#define MAX_WORDS 16

int words_from_int(PyObject *o, uint64_t *w, int nw, const char *what)
{
    unsigned char bytes[MAX_WORDS * 8];
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (nw < 1 || nw > MAX_WORDS) {
        PyErr_Format(PyExc_SystemError, "%s: %d words", what, nw);
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(o, bytes, (Py_ssize_t)nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN
                                           | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    int bad = need < 0 || need > (Py_ssize_t)nw * 8;
#else
    int bad = _PyLong_AsByteArray((PyLongObject *)o, bytes, (size_t)nw * 8, 1, 0) < 0;
#endif
    if (bad) {
        if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_OverflowError) && !PyErr_ExceptionMatches(PyExc_ValueError))
            return -1;
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a mask of 0 to %d bits, not %R", what, nw * 64, o);
        return -1;
    }
    for (int i = 0; i < nw; i++) {
        uint64_t x = 0;
        for (int b = 7; b >= 0; b--)
            x = x << 8 | bytes[i * 8 + b];
        w[i] = x;
    }
    return 0;
}

PyObject *int_from_words(const uint64_t *w, int nw)
{
    unsigned char bytes[MAX_WORDS * 8];
    if (nw < 1 || nw > MAX_WORDS) {
        PyErr_Format(PyExc_SystemError, "int_from_words: %d words", nw);
        return NULL;
    }
    for (int i = 0; i < nw; i++)
        for (int b = 0; b < 8; b++)
            bytes[i * 8 + b] = (unsigned char)(w[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, (size_t)nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, (size_t)nw * 8, 1, 0);
#endif
}

int bounded_int(PyObject *o, long low, long high, const char *what, long *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld to %ld, not %R", what, low, high, o);
        return -1;
    }
    *out = v;
    return 0;
}
