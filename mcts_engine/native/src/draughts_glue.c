/* The draughts kernel's glue: how the search object makes a game instance of a DraughtsKernel
 * for each searcher, and reads positions (DraughtsState.raw()) and moves (the Python rules'
 * (from, to, captured, crowned) tuples) into the native forms of game.h and back.  One glue
 * serves both words: an instance is made by the kernel's word (chosen in kernel.c) and names
 * it in its data (KernelGame). */
#include "glue.h"

#include <stdlib.h>
#include <string.h>

/* The rules and word of a game instance: its data begins with them (draughts_impl.h, GameCtx). */
static const KernelGame *instance(const GameIface *g) { return (const KernelGame *)g->ctx; }

static int lowest_bit(u128 x)
{
    int i = 0;
    while (!((x >> i) & 1))
        i++;
    return i;
}

static int open_game(PyObject *rules, const GameArgs *a, GameIface *g)
{
    KernelObject *k = (KernelObject *)rules;
    if (!k->word) {
        PyErr_SetString(PyExc_RuntimeError, "DraughtsKernel: not set up");
        return -1;
    }
    if (k->word->game_open(g, &k->rules, a->tables) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void close_game(GameIface *g) { instance(g)->word->game_close(g); }

static int pos_load(GameIface *g, PyObject *raw, void *pos)
{
    const KernelGame *game = instance(g);
    StateIn in;
    if (read_state(game->rules, raw, &in) < 0)
        return -1;
    PosBuf p;
    int ok = load_pos(game->word, &in, &p);
    Py_DECREF(in.history);
    if (ok < 0)
        return -1;
    g->ops->pos_free(g, pos);
    memcpy(pos, &p, game->word->pos_size);
    return 0;
}

static PyObject *pos_raw(GameIface *g, const void *pos) { return raw_pos(instance(g)->word, NULL, pos); }

static int move_in(GameIface *g, PyObject *move, MoveSlot *slot)
{
    const Rules *r = instance(g)->rules;
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

const GameGlue DRAUGHTS_GLUE = {
    .open = open_game, .close = close_game, .pos_load = pos_load, .pos_raw = pos_raw,
    .move_in = move_in, .move_out = move_out,
};
