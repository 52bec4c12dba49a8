/* The Alquerque family's implementation of the C game interface (game.h) for one word, the end
 * of alquerque_impl.h: positions are AlqPos, moves MoveSlots packed as alquerque.h says (a
 * route too long for a slot interned in the rules object's AlqRoutes).  Only running out of
 * memory fails.
 */
typedef struct {
    AlqHead head;                   /* first: the glue reads the spec and the routes here */
    WS w;
    SCRATCH s;
} CTX;

#define W_OF(g) (&((CTX *)(g)->ctx)->w)

static inline LPOS FN(local)(const AlqPos *p)
{
    LPOS l = {(BB)p->own, (BB)p->opp, (BB)p->kings, p->turn, p->drawn, p->ply, p->quiet};
    return l;
}

static inline void FN(store)(AlqPos *p, const LPOS *l)
{
    p->own = l->own;
    p->opp = l->opp;
    p->kings = l->kings;
    p->turn = l->turn;
    p->drawn = l->drawn;
    p->ply = l->ply;
    p->quiet = l->quiet;
}

/* The generator's move of a slot (the route's landings are not needed to play it). */
static inline MOVE FN(slot_move)(const MoveSlot *slot)
{
    MOVE m;
    m.frm = (BB)1 << alq_slot_from(slot);
    m.to = (BB)1 << alq_slot_to(slot);
    m.cap = (BB)alq_slot_cap(slot);
    m.crowned = (uint8_t)alq_slot_crowned(slot);
    m.n = (uint8_t)alq_slot_n(slot);
    m.route = 0;
    return m;
}

static int FN(g_pos_init)(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(AlqPos));
    return GAME_OK;
}

static void FN(g_pos_free)(const GameIface *g, void *pos)
{
    (void)g;
    AlqPos *p = pos;
    free(p->hist);
    p->hist = NULL;
    p->n_hist = p->cap_hist = 0;
}

static int FN(g_copy)(const GameIface *g, void *dst, const void *src)
{
    (void)g;
    AlqPos *d = dst;
    const AlqPos *s = src;
    AlqKey *hist = d->hist;
    size_t cap = d->cap_hist;
    *d = *s;
    d->hist = hist;
    d->cap_hist = cap;
    if (s->n_hist > d->cap_hist) {
        size_t c = d->cap_hist ? d->cap_hist : 64;
        while (c < s->n_hist)
            c *= 2;
        AlqKey *h = realloc(d->hist, c * sizeof(AlqKey));
        if (!h) {
            d->n_hist = 0;
            return GAME_ERROR;
        }
        d->hist = h;
        d->cap_hist = c;
    }
    if (s->n_hist)
        memcpy(d->hist, s->hist, s->n_hist * sizeof(AlqKey));
    return GAME_OK;
}

static int FN(g_to_move)(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const AlqPos *)pos)->turn;
    return GAME_OK;
}

static int FN(g_legal)(const GameIface *g, void *pos, MoveBuf *out)
{
    CTX *c = g->ctx;
    const AlqPos *p = pos;
    if (p->drawn)
        return GAME_OK;
    if (FN(legal)(&c->w, (BB)p->own, (BB)p->opp, (BB)p->kings, p->turn, &c->s, 1) < 0)
        return GAME_ERROR;
    for (size_t i = 0; i < c->s.n; i++) {
        const MOVE *m = &c->s.moves[i];
        const uint8_t *route = m->n ? c->s.routes + m->route : NULL;
        int n = m->n;
        int64_t interned = 0;
        if (n > ALQ_SLOT_ROUTE) {
            interned = alq_routes_intern(c->head.routes, CTZ(m->frm), route, n);
            if (interned < 0)
                return GAME_ERROR;
            n = ALQ_INTERNED;
        }
        MoveSlot slot;
        alq_slot_pack(&slot, (u128)m->cap, CTZ(m->frm), CTZ(m->to), m->crowned, n, route, (uint64_t)interned);
        if (movebuf_push(out, &slot) < 0)
            return GAME_ERROR;
    }
    return GAME_OK;
}

static int FN(g_play)(const GameIface *g, void *pos, const MoveSlot *slot)
{
    AlqPos *p = pos;
    LPOS l = FN(local)(p);
    MOVE m = FN(slot_move)(slot);
    int r = FN(play)(W_OF(g)->r, &l, p, &m);
    FN(store)(p, &l);
    return r < 0 ? GAME_ERROR : GAME_OK;
}

static int FN(g_outcome)(const GameIface *g, void *pos, double *result)
{
    LPOS l = FN(local)(pos);
    return FN(outcome)(W_OF(g), &l, result);
}

static int FN(g_evaluate)(const GameIface *g, void *pos, double *value)
{
    LPOS l = FN(local)(pos);
    *value = FN(evaluate)(W_OF(g), &l);
    return GAME_OK;
}

static int FN(g_heuristic)(const GameIface *g, void *pos, const MoveSlot *slot, double *value)
{
    MOVE m = FN(slot_move)(slot);
    *value = FN(heuristic)(W_OF(g)->r, (BB)((const AlqPos *)pos)->kings, &m);
    return GAME_OK;
}

static int FN(g_is_capture)(const GameIface *g, void *pos, const MoveSlot *slot)
{
    (void)g;
    (void)pos;
    return alq_slot_n(slot) ? GAME_YES : GAME_NO;
}

static int FN(g_playout)(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt,
                         double *result)
{
    CTX *c = g->ctx;
    AlqPos *p = pos;
    LPOS l = FN(local)(p);
    int r = FN(run_playout)(&c->w, p, &l, max_plies, rng, &c->s, halt, result);
    FN(store)(p, &l);
    return r;
}

static int FN(g_move_hash)(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = m->w[0] * 0x9e3779b97f4a7c15ULL ^ m->w[1] * 0xc2b2ae3d27d4eb4fULL ^ m->w[2] * 0x165667b19e3779f9ULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

static int FN(g_move_equal)(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] && x->w[1] == y->w[1] && x->w[2] == y->w[2] ? GAME_YES : GAME_NO;
}

static const GameOps CAT(ALQ_OPS, SUFFIX) = {
    .pos_init = FN(g_pos_init), .pos_free = FN(g_pos_free), .copy = FN(g_copy), .to_move = FN(g_to_move),
    .legal = FN(g_legal), .play = FN(g_play), .outcome = FN(g_outcome), .evaluate = FN(g_evaluate),
    .heuristic = FN(g_heuristic), .is_capture = FN(g_is_capture), .playout = FN(g_playout),
    .oracle = NULL, .quiesce = NULL, .move_hash = FN(g_move_hash), .move_equal = FN(g_move_equal),
};

/* ------------------------------------------------------------------------------------------
 * What the glue calls (AlqWord): an instance, the random move of AlquerqueState.random_move,
 * perft on masks
 * ---------------------------------------------------------------------------------------- */
static int FN(open)(GameIface *g, const AlqSpec *r, AlqRoutes *routes)
{
    CTX *c = calloc(1, sizeof(CTX));
    if (!c)
        return -1;
    FN(narrow)(r, &c->w);
    c->head.r = r;
    c->head.routes = routes;
    g->ops = &CAT(ALQ_OPS, SUFFIX);
    g->ctx = c;
    g->pos_size = sizeof(AlqPos);
    g->flags = r->compulsory ? GAME_COMPULSORY_CAPTURES : 0;
    return 0;
}

static void FN(close)(GameIface *g)
{
    CTX *c = g->ctx;
    if (c) {
        FN(scratch_free)(&c->s);
        free(c);
    }
    g->ctx = NULL;
}

static int FN(random_move)(GameIface *g, const AlqPos *p, Rand *rng, AlqPlain *out)
{
    CTX *c = g->ctx;
    if (p->drawn)
        return 0;
    LPOS l = FN(local)(p);
    MOVE m;
    int found = FN(pick)(&c->w, &l, rng, &c->s, 1, &m);
    if (found <= 0)
        return found;
    out->frm = m.frm;
    out->to = m.to;
    out->cap = m.cap;
    out->crowned = m.crowned;
    out->n = m.n;
    if (m.n)
        memcpy(out->route, c->s.routes + m.route, m.n);
    return 1;
}

static int64_t FN(perft)(GameIface *g, const AlqPos *p, int depth)
{
    CTX *c = g->ctx;
    return FN(perft_masks)(&c->w, (BB)p->own, (BB)p->opp, (BB)p->kings, p->turn, depth, &c->s);
}

const AlqWord CAT(ALQ_WORD, SUFFIX) = {
    .open = FN(open), .close = FN(close), .random_move = FN(random_move), .perft = FN(perft),
};

#undef W_OF
