/* Rithmomachia's implementation of the C game interface (game.h).
 *
 * Positions are RmPos structs (plain data: copied whole), moves MoveSlots holding
 * from | to << 8 (this core's cells) in their first word.  The random playout draws as
 * RithmomachiaState.playout does (rm_draw), from whatever Rand the caller hands it: the search
 * core's own generator, or a Python random.Random through the Python-facing playout.  Only an
 * impossible move fails (play of a cell without a piece of the mover).
 */
#include "rithmomachia.h"

#include <stdlib.h>

#define RULES(g) (*(const RmRules *const *)(g)->ctx)

static int slot_from(const MoveSlot *m) { return (int)(m->w[0] & 0xff); }
static int slot_to(const MoveSlot *m) { return (int)(m->w[0] >> 8 & 0xff); }

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(RmPos));
    ((RmPos *)pos)->result = -1;
    ((RmPos *)pos)->movable = -1;
    return GAME_OK;
}

static void g_pos_free(const GameIface *g, void *pos)
{
    (void)g;
    (void)pos;
}

static int g_copy(const GameIface *g, void *dst, const void *src)
{
    (void)g;
    memcpy(dst, src, sizeof(RmPos));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    *player = ((const RmPos *)pos)->side ^ RULES(g)->first;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    const RmRules *R = RULES(g);
    double r;
    if (rm_outcome(R, pos, &r) == GAME_OVER)
        return GAME_OK;
    uint16_t moves[RM_MAX_MOVES];
    size_t n = rm_legal(R, pos, moves);
    for (size_t i = 0; i < n; i++) {
        MoveSlot slot;
        memset(&slot, 0, sizeof(slot));
        slot.w[0] = (uint64_t)(moves[i] >> 8) | (uint64_t)(moves[i] & 0xff) << 8;
        if (movebuf_push(out, &slot) < 0)
            return GAME_ERROR;
    }
    return GAME_OK;
}

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    return rm_play(RULES(g), pos, slot_from(m), slot_to(m)) < 0 ? GAME_ERROR : GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result) { return rm_outcome(RULES(g), pos, result); }

static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    *value = rm_evaluate(RULES(g), pos);
    return GAME_OK;
}

/* RithmomachiaState.heuristic: the value the move captures for its mover (a win 10000). */
static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    const RmPos *p = pos;
    RmPos child = *p;
    int c = p->side;
    if (rm_play(RULES(g), &child, slot_from(m), slot_to(m)) < 0)
        return GAME_ERROR;
    *value = child.result == c ? 10000.0 : (double)(child.caps[2 * c + 1] - p->caps[2 * c + 1]);
    return GAME_OK;
}

/* RithmomachiaState.is_capture: the move takes at least one piece or component. */
static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    const RmPos *p = pos;
    RmPos child = *p;
    int c = p->side;
    if (rm_play(RULES(g), &child, slot_from(m), slot_to(m)) < 0)
        return GAME_ERROR;
    return child.caps[2 * c] > p->caps[2 * c] ? GAME_YES : GAME_NO;
}

/* RithmomachiaState.playout: random moves in place, at most max_plies (and the ply cap), the
 * halt flags seen every HALT_CHECK plies; GAME_ERROR when a Python random source raised. */
int rm_playout(const RmRules *R, RmPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    int64_t limit = max_plies;
    if (R->max_plies && R->max_plies - p->ply < limit)
        limit = R->max_plies - p->ply;
    for (int64_t i = 0; i < limit; i++) {
        if (halt && i % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            return GAME_RUNNING;
        if (p->result >= 0)
            break;
        uint16_t move;
        int found = rm_draw(R, p, rng, &move);
        if (found < 0)
            return GAME_ERROR;
        if (!found)
            break;
        rm_play(R, p, move >> 8, move & 0xff);
    }
    return rm_outcome(R, p, result);
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    return rm_playout(RULES(g), pos, max_plies, rng, halt, result);
}

static int g_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = m->w[0] * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

static int g_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] ? GAME_YES : GAME_NO;
}

static const GameOps RM_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .oracle = NULL, .quiesce = NULL,
    .move_hash = g_move_hash, .move_equal = g_move_equal,
};

/* An instance for one searcher: it holds only the (shared, read-only) rules. */
int rm_game_open(GameIface *g, const RmRules *R)
{
    const RmRules **ctx = malloc(sizeof(*ctx));
    if (!ctx)
        return -1;
    *ctx = R;
    g->ops = &RM_OPS;
    g->ctx = ctx;
    g->pos_size = sizeof(RmPos);
    g->flags = 0;
    return 0;
}

void rm_game_close(GameIface *g)
{
    free(g->ctx);
    g->ctx = NULL;
}
