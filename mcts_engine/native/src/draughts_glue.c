/* The draughts kernel's glue: how the search object makes a game instance of a DraughtsKernel
 * for each searcher, and reads positions (DraughtsState.raw()) and moves (the Python rules'
 * (from, to, captured, crowned) tuples) into the native forms of game.h and back.  A kernel
 * names the glue of its word when it is made (kernel.c): the one place the word is chosen. */
#include "glue.h"

#include <stdlib.h>
#include <string.h>

static const Rules *rules_of(PyObject *kernel) { return &((KernelObject *)kernel)->rules; }

/* The Rules of a game instance: its data begins with them (draughts_impl.h, GameCtx). */
static const Rules *instance_rules(const GameIface *g) { return *(const Rules *const *)g->ctx; }

static int lowest_bit(u128 x)
{
    int i = 0;
    while (!((x >> i) & 1))
        i++;
    return i;
}

/* Every glue function but the position's conversion is the same for both words. */
#define GLUE(W)                                                                                            \
    static int open_##W(PyObject *rules, const GameArgs *a, GameIface *g)                                  \
    {                                                                                                      \
        if (draughts_game_open_##W(g, rules_of(rules), a->tables) < 0) {                                   \
            PyErr_NoMemory();                                                                              \
            return -1;                                                                                     \
        }                                                                                                  \
        return 0;                                                                                          \
    }                                                                                                      \
    static void close_##W(GameIface *g) { draughts_game_close_##W(g); }                                    \
    static int pos_load_##W(GameIface *g, PyObject *raw, void *pos)                                        \
    {                                                                                                      \
        const Rules *r = instance_rules(g);                                                    \
        StateIn in;                                                                                        \
        if (read_state(r, raw, &in) < 0)                                                                   \
            return -1;                                                                                     \
        Pos##W p;                                                                                          \
        int ok = load_##W(&in, &p);                                                                        \
        Py_DECREF(in.history);                                                                             \
        if (ok < 0)                                                                                        \
            return -1;                                                                                     \
        g->ops->pos_free(g, pos);                                                                          \
        memcpy(pos, &p, sizeof(p));                                                                        \
        return 0;                                                                                          \
    }                                                                                                      \
    static PyObject *pos_raw_##W(GameIface *g, const void *pos)                                            \
    {                                                                                                      \
        (void)g;                                                                                           \
        return raw_##W(NULL, (const Pos##W *)pos);                                                         \
    }                                                                                                      \
    const GameGlue DRAUGHTS_GLUE_##W = {                                                                   \
        .open = open_##W, .close = close_##W, .pos_load = pos_load_##W, .pos_raw = pos_raw_##W,            \
        .move_in = move_in, .move_out = move_out,                                                          \
    };

static int move_in(GameIface *g, PyObject *move, MoveSlot *slot)
{
    const Rules *r = instance_rules(g);
    u128 frm, to, cap;
    int crowned;
    if (parse_move(move, &frm, &to, &cap, &crowned) < 0)
        return -1;
    if (!frm || !to || (frm & (frm - 1)) || (to & (to - 1)) || ((frm | to | cap) & ~r->points)) {
        PyErr_SetString(PyExc_ValueError, "not a move of this board");
        return -1;
    }
    memset(slot, 0, sizeof(*slot));
    slot->w[0] = (u64)cap;
    slot->w[1] = (u64)(cap >> 64);
    slot->b[SLOT_FROM] = (uint8_t)lowest_bit(frm);
    slot->b[SLOT_TO] = (uint8_t)lowest_bit(to);
    slot->b[SLOT_CROWNED] = (uint8_t)crowned;
    return 0;
}

static PyObject *move_out(GameIface *g, const MoveSlot *m)
{
    (void)g;
    return move_tuple((u128)1 << m->b[SLOT_FROM], (u128)1 << m->b[SLOT_TO], ((u128)m->w[1] << 64) | m->w[0],
                      m->b[SLOT_CROWNED]);
}

GLUE(64)
GLUE(128)
