/* What Rithmomachia's two CPython-facing files share: the rules object, reading the game's
 * spec, positions and moves across the boundary (rith_glue.c), and the type (rith_object.c). */
#ifndef MCTS_RITH_PY_H
#define MCTS_RITH_PY_H

#include "glue.h"
#include "rithmomachia.h"

typedef struct {
    RulesObject base;
    RmRules *rules;
} RmObject;

#define PY_STRIDE (RM_FILES + 3)     /* the Python board's bits per rank (three ghost files) */

extern const GameGlue RM_GLUE;
int rm_read_geometry(PyObject *spec, RmSpec *s);                 /* -1 with ValueError */
int rm_read_options(PyObject *spec, RmRules *R);
int rm_load_pos(const RmRules *R, PyObject *raw, RmPos *p);      /* RithmomachiaState.raw() */
PyObject *rm_raw_of(const RmRules *R, const RmPos *p);           /* back to a raw tuple */
int rm_cell_of(const RmRules *R, int64_t py);                    /* a Python bit's cell, or -1 */

#endif
