/* The Alquerque family's generator for one word (BB: u64 or u128), included by alquerque64.c and
 * alquerque128.c.  Each function is rules/alquerque.py's of the same name, step for step, so the
 * moves come out in the same order and the random draws fall the same way: scan (one pass over
 * the side to move: jumpers, and the steps as buckets of targets), sequences (the capture chains,
 * depth first), choose, huffable, steps_from / step_at, legal, _random, play, outcome, evaluate,
 * heuristic.  Then the C game interface (game.h) over them.
 */
#include <stdlib.h>
#include <string.h>

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(name, SUFFIX)
#define WS CAT(AlqWs, SUFFIX)
#define MOVE CAT(AlqMove, SUFFIX)
#define SCRATCH CAT(AlqScratch, SUFFIX)
#define SCAN CAT(AlqScan, SUFFIX)
#define LPOS CAT(AlqLocal, SUFFIX)
#define DFS CAT(AlqDfs, SUFFIX)
#define CTX CAT(AlqCtx, SUFFIX)

/* ------------------------------------------------------------------------------------------
 * The spec narrowed to the word, and the generator's working types
 * ---------------------------------------------------------------------------------------- */
typedef struct { int d; BB m; } CAT(AlqStepW, SUFFIX);
typedef struct { int d, dd; BB m; } CAT(AlqJumpW, SUFFIX);

typedef struct {
    BB points, promo[2];
    int n_lines, delta[ALQ_MAX_LINES];
    BB line[ALQ_MAX_LINES], jline[ALQ_MAX_LINES];
    CAT(AlqStepW, SUFFIX) step_up[2][ALQ_MAX_LINES], step_down[2][ALQ_MAX_LINES];
    int n_step_up[2], n_step_down[2];
    CAT(AlqJumpW, SUFFIX) jump_up[2][ALQ_MAX_LINES], jump_down[2][ALQ_MAX_LINES];
    int n_jump_up[2], n_jump_down[2];
    const AlqSpec *r;               /* the scalar rule parameters */
    /* lookups made once from the lines (the Python rules' jump_table, and each line's ray) */
    BB ray[ALQ_MAX_BITS][ALQ_MAX_LINES];              /* the points beyond a point along line i, in order */
    struct { uint8_t mid, land; } jt[ALQ_MAX_BITS][ALQ_MAX_LINES];   /* a man's jumps from a point (bit
                                                                       indices), in line order */
    uint8_t n_jt[ALQ_MAX_BITS];
} WS;

/* A move of the generator: `n` landings, stored from `route` in the scratch's route pool. */
typedef struct {
    BB frm, to, cap;
    uint32_t route;
    uint8_t crowned, n;
} MOVE;

typedef struct {
    MOVE *moves;
    size_t n, cap;
    uint8_t *routes;
    size_t n_routes, cap_routes;
    int oom;
} SCRATCH;

/* Steps listed by scan: each set bit t of `t` is a step from shift(t, -d). */
typedef struct { BB t; int d, n; } CAT(AlqBucket, SUFFIX);

typedef struct {
    BB jumpers;
    int count, nb;
    CAT(AlqBucket, SUFFIX) b[ALQ_MAX_BUCKETS];
} SCAN;

/* A position in the word's registers; the history stays in the AlqPos. */
typedef struct {
    BB own, opp, kings;
    int turn, drawn;
    int64_t ply, quiet;
} LPOS;

static inline BB FN(sh)(BB x, int d) { return d >= 0 ? x << d : x >> -d; }
static inline BB FN(shift)(BB x, int d) { return d >= 0 ? SHL(x, d) : SHR(x, -d); }   /* |d| < 64 */
static inline BB FN(lowest)(BB x) { return x & (~x + 1); }

/* The ray and jump lookups of the lines (from the masks the Python rules handed over). */
static void FN(lookups)(WS *w)
{
    for (int idx = 0; idx < ALQ_MAX_BITS && idx < (int)(8 * sizeof(BB)); idx++) {
        BB sq = (BB)1 << idx;
        if (!(sq & w->points))
            continue;
        for (int i = 0; i < w->n_lines; i++) {
            BB ray = 0;
            for (BB s = FN(shift)(sq & w->line[i], w->delta[i]); s; s = FN(shift)(s & w->line[i], w->delta[i]))
                ray |= s;
            w->ray[idx][i] = ray;
            if (sq & w->jline[i]) {
                BB mid = FN(shift)(sq, w->delta[i]);
                w->jt[idx][w->n_jt[idx]].mid = (uint8_t)CTZ(mid);
                w->jt[idx][w->n_jt[idx]++].land = (uint8_t)CTZ(FN(shift)(mid, w->delta[i]));
            }
        }
    }
}

static void FN(narrow)(const AlqSpec *r, WS *w)
{
    memset(w, 0, sizeof(*w));
    w->r = r;
    w->points = (BB)r->points;
    w->n_lines = r->n_lines;
    for (int i = 0; i < r->n_lines; i++) {
        w->delta[i] = r->delta[i];
        w->line[i] = (BB)r->line[i];
        w->jline[i] = (BB)r->jline[i];
    }
    for (int p = 0; p < 2; p++) {
        w->promo[p] = (BB)r->promo[p];
        w->n_step_up[p] = r->n_step_up[p];
        w->n_step_down[p] = r->n_step_down[p];
        w->n_jump_up[p] = r->n_jump_up[p];
        w->n_jump_down[p] = r->n_jump_down[p];
        for (int i = 0; i < ALQ_MAX_LINES; i++) {
            w->step_up[p][i].d = r->step_up[p][i].d;
            w->step_up[p][i].m = (BB)r->step_up[p][i].m;
            w->step_down[p][i].d = r->step_down[p][i].d;
            w->step_down[p][i].m = (BB)r->step_down[p][i].m;
            w->jump_up[p][i].d = r->jump_up[p][i].d;
            w->jump_up[p][i].dd = r->jump_up[p][i].dd;
            w->jump_up[p][i].m = (BB)r->jump_up[p][i].m;
            w->jump_down[p][i].d = r->jump_down[p][i].d;
            w->jump_down[p][i].dd = r->jump_down[p][i].dd;
            w->jump_down[p][i].m = (BB)r->jump_down[p][i].m;
        }
    }
    FN(lookups)(w);
}

static void FN(scratch_free)(SCRATCH *s)
{
    free(s->moves);
    free(s->routes);
    memset(s, 0, sizeof(*s));
}

static void FN(push)(SCRATCH *s, const MOVE *m, const uint8_t *route)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        MOVE *moves = realloc(s->moves, cap * sizeof(MOVE));
        if (!moves) {
            s->oom = 1;
            return;
        }
        s->moves = moves;
        s->cap = cap;
    }
    MOVE *to = &s->moves[s->n++];
    *to = *m;
    if (!route || !m->n)
        return;
    if (s->n_routes + m->n > s->cap_routes) {
        size_t cap = s->cap_routes ? 2 * s->cap_routes : 1024;
        while (cap < s->n_routes + m->n)
            cap *= 2;
        uint8_t *r = realloc(s->routes, cap);
        if (!r) {
            s->oom = 1;
            s->n--;
            return;
        }
        s->routes = r;
        s->cap_routes = cap;
    }
    to->route = (uint32_t)s->n_routes;
    memcpy(s->routes + s->n_routes, route, m->n);
    s->n_routes += m->n;
}

/* ------------------------------------------------------------------------------------------
 * scan: jumpers, steps as buckets (AlquerqueGame.scan and _king_rays).  The bucket count and the
 * step count stay in locals (`Tally`) until the scan ends.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    CAT(AlqBucket, SUFFIX) *b;
    int nb, count;
} CAT(AlqTally, SUFFIX);
#define TALLY CAT(AlqTally, SUFFIX)

static inline void FN(bucket)(TALLY *o, BB t, int d)
{
    int n = POPCNT(t);
    CAT(AlqBucket, SUFFIX) *b = &o->b[o->nb++];
    b->t = t;
    b->d = d;
    b->n = n;
    o->count += n;
}

/* Flying king slides into `o` per direction and distance; 1 if a king can capture (`look`). */
static int FN(king_rays)(const WS *w, BB mine, BB opp, BB empty, TALLY *o, int look)
{
    int found = 0;
    for (int i = 0; i < w->n_lines; i++) {
        int d = w->delta[i];
        BB m = w->line[i], r = mine;
        int k = d;
        if (d > 0) {
            while (r) {
                r = SHL(r & m, d);
                if (look && (SHL(r & opp & m, d) & empty)) {
                    found = 1;
                    look = 0;
                }
                r &= empty;
                if (r)
                    FN(bucket)(o, r, k);
                k += d;
            }
        } else {
            int a = -d;
            while (r) {
                r = SHR(r & m, a);
                if (look && (SHR(r & opp & m, a) & empty)) {
                    found = 1;
                    look = 0;
                }
                r &= empty;
                if (r)
                    FN(bucket)(o, r, k);
                k += d;
            }
        }
    }
    return found;
}

static void FN(scan)(const WS *w, BB own, BB opp, BB kings, int turn, int steps, SCAN *out)
{
    BB empty = w->points ^ (own | opp), mine = own & kings, men = own ^ mine, jumpers = 0;
    TALLY o = {out->b, 0, 0};
    for (int i = 0; i < w->n_jump_up[turn]; i++) {
        const CAT(AlqJumpW, SUFFIX) *j = &w->jump_up[turn][i];      /* over opp onto empty: */
        jumpers |= own & j->m & SHR(opp & SHR(empty, j->d), j->d);   /* ((own << d & opp) << d & empty) >> 2d */
    }
    for (int i = 0; i < w->n_jump_down[turn]; i++) {
        const CAT(AlqJumpW, SUFFIX) *j = &w->jump_down[turn][i];
        jumpers |= own & j->m & SHL(opp & SHL(empty, j->d), j->d);
    }
    if (jumpers && !steps) {
        out->jumpers = jumpers | mine;
        out->nb = out->count = 0;
        return;
    }
    if (men) {
        for (int i = 0; i < w->n_step_up[turn]; i++) {
            BB t = SHL(men & w->step_up[turn][i].m, w->step_up[turn][i].d) & empty;
            if (t)
                FN(bucket)(&o, t, w->step_up[turn][i].d);
        }
        for (int i = 0; i < w->n_step_down[turn]; i++) {
            BB t = SHR(men & w->step_down[turn][i].m, w->step_down[turn][i].d) & empty;
            if (t)
                FN(bucket)(&o, t, -w->step_down[turn][i].d);
        }
    }
    if (mine && (FN(king_rays)(w, mine, opp, empty, &o, !jumpers) || jumpers))
        jumpers |= mine;
    out->jumpers = jumpers;
    out->nb = o.nb;
    out->count = o.count;
}

/* ------------------------------------------------------------------------------------------
 * Capture chains (AlquerqueGame.sequences, _extend_man, _extend_king), choose, huffable
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    const WS *w;
    SCRATCH *s;
    int routes;                     /* keep each move's landings (legal), or only count them (playouts) */
    BB frm, promo;
    uint8_t path[ALQ_MAX_ROUTE];
} DFS;

static void FN(emit)(DFS *x, BB land, BB cap, int crowned, int n)
{
    MOVE m = {x->frm, land, cap, 0, (uint8_t)(crowned != 0), (uint8_t)n};
    FN(push)(x->s, &m, x->routes ? x->path : NULL);
}

/* A man's jumps from the point `at`, depth first (the Python rules' jump_table); 1 if it has one. */
static int FN(extend_man)(DFS *x, int at, BB captured, int depth, BB occupied, BB opp)
{
    const WS *w = x->w;
    const AlqSpec *r = w->r;
    BB free_ = w->points & ~occupied, prey = opp & ~captured, promo = x->promo;
    int found = 0;
    for (int k = 0; k < w->n_jt[at]; k++) {
        BB mid = (BB)1 << w->jt[at][k].mid, land = (BB)1 << w->jt[at][k].land;
        if (!((mid & prey) && (land & free_)))
            continue;
        found = 1;
        BB cap2 = captured | mid;
        int to = w->jt[at][k].land;
        x->path[depth] = (uint8_t)to;
        if ((land & promo) && r->promotion == ALQ_PROMO_STOP) {
            FN(emit)(x, land, cap2, 1, depth + 1);
            continue;
        }
        if (r->chain == ALQ_CHAIN_SINGLE) {
            FN(emit)(x, land, cap2, (land & promo) != 0, depth + 1);
            continue;
        }
        BB occ2 = r->immediate ? occupied ^ mid : occupied, opp2 = r->immediate ? opp ^ mid : opp;
        if (r->chain == ALQ_CHAIN_OPTIONAL) {
            FN(emit)(x, land, cap2, (land & promo) != 0, depth + 1);
            FN(extend_man)(x, to, cap2, depth + 1, occ2, opp2);
        } else if (!FN(extend_man)(x, to, cap2, depth + 1, occ2, opp2)) {
            FN(emit)(x, land, cap2, (land & promo) != 0, depth + 1);
        }
    }
    return found;
}

/* The first point of `x` along line i (its lowest bit going up, its highest going down). */
static inline BB FN(first)(BB x, int d) { return d > 0 ? FN(lowest)(x) : HIGHEST(x); }

/* A flying king's captures from the point `at`: along each line to the first piece, landing on any
 * free point beyond (the lines' rays find the piece and the landing points at once). */
static int FN(extend_king)(DFS *x, int at, BB captured, int depth, int last, BB occupied, BB opp)
{
    const WS *w = x->w;
    const AlqSpec *r = w->r;
    BB prey = opp & ~captured;
    int found = 0;
    for (int i = 0; i < w->n_lines; i++) {
        int d = w->delta[i];
        if (d == -last && !r->king_reverse)
            continue;
        BB blockers = w->ray[at][i] & occupied;
        if (!blockers)
            continue;
        BB s = FN(first)(blockers, d);
        if (!(s & prey))
            continue;
        BB beyond = w->ray[CTZ(s)][i], stop = beyond & occupied, lands = beyond;
        if (stop) {
            BB b = FN(first)(stop, d);
            lands &= d > 0 ? b - 1 : ~(b | (b - 1));
        }
        if (!lands)
            continue;
        found = 1;
        BB cap2 = captured | s;
        BB occ2 = r->immediate ? occupied ^ s : occupied, opp2 = r->immediate ? opp ^ s : opp;
        while (lands) {
            BB land = FN(first)(lands, d);
            lands ^= land;
            int to = CTZ(land);
            x->path[depth] = (uint8_t)to;
            if (r->chain == ALQ_CHAIN_COMPULSORY) {
                if (!FN(extend_king)(x, to, cap2, depth + 1, d, occ2, opp2))
                    FN(emit)(x, land, cap2, 0, depth + 1);
            } else {
                FN(emit)(x, land, cap2, 0, depth + 1);
                if (r->chain == ALQ_CHAIN_OPTIONAL)
                    FN(extend_king)(x, to, cap2, depth + 1, d, occ2, opp2);
            }
        }
    }
    return found;
}

/* Every capture of the `starters` into s (after what s holds), then the choice rule. */
static void FN(captures)(const WS *w, BB own, BB opp, BB kings, int turn, BB starters, SCRATCH *s, int routes)
{
    BB occupied = own | opp;
    DFS x;
    x.w = w;
    x.s = s;
    x.routes = routes;
    x.promo = w->promo[turn];
    size_t first = s->n;
    while (starters) {
        BB frm = starters & (~starters + 1);
        starters ^= frm;
        x.frm = frm;
        if (frm & kings)
            FN(extend_king)(&x, CTZ(frm), 0, 0, 0, occupied ^ frm, opp);
        else
            FN(extend_man)(&x, CTZ(frm), 0, 0, occupied ^ frm, opp);
    }
    if (w->r->choice_max && s->n - first > 1) {
        int best = 0;
        for (size_t i = first; i < s->n; i++)
            if (s->moves[i].n > best)
                best = s->moves[i].n;
        size_t k = first;
        for (size_t i = first; i < s->n; i++)
            if (s->moves[i].n == best)
                s->moves[k++] = s->moves[i];
        s->n = k;
    }
}

/* The pieces that could have captured: removed by a step under the huff. */
static BB FN(huffable)(const WS *w, BB jumpers, const SCRATCH *s, size_t first)
{
    if (!w->r->huff || !jumpers)
        return 0;
    BB out = 0;
    for (size_t i = first; i < s->n; i++)
        out |= s->moves[i].frm;
    return out;
}

/* ------------------------------------------------------------------------------------------
 * Steps (steps_from, step_at), legal, the random move (_random)
 * ---------------------------------------------------------------------------------------- */
static inline MOVE FN(step_move)(const WS *w, BB to, int d, BB kings, int turn, BB huffed)
{
    MOVE m;
    m.frm = FN(sh)(to, -d);
    m.to = to;
    m.cap = (huffed & m.frm) ? huffed ^ m.frm ^ to : huffed;
    m.crowned = (uint8_t)((to & w->promo[turn]) != 0 && !(m.frm & kings));
    m.n = 0;
    m.route = 0;
    return m;
}

static void FN(steps_from)(const WS *w, const SCAN *sc, BB kings, int turn, BB huffed, SCRATCH *s)
{
    for (int i = 0; i < sc->nb; i++)
        for (BB t = sc->b[i].t; t; t &= t - 1) {
            MOVE m = FN(step_move)(w, t & (~t + 1), sc->b[i].d, kings, turn, huffed);
            FN(push)(s, &m, NULL);
        }
}

static MOVE FN(step_at)(const WS *w, const SCAN *sc, size_t r, BB kings, int turn, BB huffed)
{
    for (int i = 0;; i++) {
        if (r < (size_t)sc->b[i].n)
            return FN(step_move)(w, NTH(sc->b[i].t, (int)r), sc->b[i].d, kings, turn, huffed);
        r -= (size_t)sc->b[i].n;
    }
}

/* Every legal move of the masks into s (s emptied first); -1 out of memory. */
static int FN(legal)(const WS *w, BB own, BB opp, BB kings, int turn, SCRATCH *s, int routes)
{
    SCAN sc;
    s->n = s->n_routes = 0;
    s->oom = 0;
    FN(scan)(w, own, opp, kings, turn, !w->r->compulsory, &sc);
    if (!sc.jumpers) {
        FN(steps_from)(w, &sc, kings, turn, 0, s);
        return s->oom ? -1 : 0;
    }
    FN(captures)(w, own, opp, kings, turn, sc.jumpers, s, routes);
    if (!w->r->compulsory && !s->oom)
        FN(steps_from)(w, &sc, kings, turn, FN(huffable)(w, sc.jumpers, s, 0), s);
    return s->oom ? -1 : 0;
}

/* A uniformly random legal move, drawing as AlquerqueState._random does: 1 with *out, 0 none,
 * -1 out of memory or the random source failed. */
static int FN(pick)(const WS *w, const LPOS *p, Rand *rng, SCRATCH *s, int routes, MOVE *out)
{
    SCAN sc;
    int compulsory = w->r->compulsory;
    FN(scan)(w, p->own, p->opp, p->kings, p->turn, !compulsory, &sc);
    if (sc.jumpers) {
        s->n = s->n_routes = 0;
        s->oom = 0;
        FN(captures)(w, p->own, p->opp, p->kings, p->turn, sc.jumpers, s, routes);
        if (s->oom)
            return -1;
        size_t nc = s->n;
        double x = rng->next(rng);
        if (rng->failed)
            return -1;
        if (compulsory) {
            *out = s->moves[(size_t)(x * (double)nc)];
            return 1;
        }
        size_t r = (size_t)(x * (double)(nc + (size_t)sc.count));
        if (r < nc) {
            *out = s->moves[r];
            return 1;
        }
        *out = FN(step_at)(w, &sc, r - nc, p->kings, p->turn, FN(huffable)(w, sc.jumpers, s, 0));
        return 1;
    }
    if (!sc.count)
        return 0;
    double x = rng->next(rng);
    if (rng->failed)
        return -1;
    *out = FN(step_at)(w, &sc, (size_t)(x * (double)sc.count), p->kings, p->turn, 0);
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * play (AlquerqueGame.apply, AlquerqueState.play), outcome, evaluate, heuristic
 * ---------------------------------------------------------------------------------------- */
static inline void FN(apply)(BB *own, BB *opp, BB *kings, const MOVE *m)
{
    if (m->n) {               /* taken first: with immediate removal a king may land where it took */
        *opp &= ~m->cap;
        *kings &= ~m->cap;
    }
    *own ^= m->frm ^ m->to;
    if (*kings & m->frm)
        *kings ^= m->frm ^ m->to;
    else if (m->crowned)
        *kings |= m->to;
    if (m->cap && !m->n) {    /* huffed after the step: the mover itself is huffed where it lands */
        *own &= ~m->cap;
        *kings &= ~m->cap;
    }
}

static int FN(hist_push)(AlqPos *h, BB own, BB opp, BB kings, int turn)
{
    if (h->n_hist == h->cap_hist) {
        size_t cap = h->cap_hist ? 2 * h->cap_hist : 64;
        AlqKey *k = realloc(h->hist, cap * sizeof(AlqKey));
        if (!k)
            return -1;
        h->hist = k;
        h->cap_hist = cap;
    }
    AlqKey *k = &h->hist[h->n_hist++];
    k->own = own;
    k->opp = opp;
    k->kings = kings;
    k->turn = turn;
    return 0;
}

/* A legal move played on p, the draw counters and the history (in h) updated; -1 out of memory. */
static int FN(play)(const AlqSpec *r, LPOS *p, AlqPos *h, const MOVE *m)
{
    BB own0 = p->own, opp0 = p->opp, kings0 = p->kings, own = own0, opp = opp0, kings = kings0;
    int turn = p->turn;
    FN(apply)(&own, &opp, &kings, m);
    p->own = opp;
    p->opp = own;
    p->kings = kings;
    p->turn = turn ^ 1;
    p->ply++;
    if (m->cap || (m->crowned && r->crown_is_progress))
        p->quiet = 0;
    else
        p->quiet++;
    if (r->repetition) {
        if (m->cap || m->crowned) {
            h->n_hist = 0;
        } else {
            if (!h->n_hist && FN(hist_push)(h, own0, opp0, kings0, turn) < 0)
                return -1;
            size_t seen = 0;
            for (size_t i = 0; i < h->n_hist; i++) {
                const AlqKey *k = &h->hist[i];
                seen += k->turn == p->turn && k->own == (u128)p->own && k->opp == (u128)p->opp
                        && k->kings == (u128)p->kings;
            }
            if (seen + 1 >= (size_t)r->repetition)
                p->drawn = 1;
            if (FN(hist_push)(h, p->own, p->opp, p->kings, p->turn) < 0)
                return -1;
        }
    }
    if (p->quiet >= r->no_progress || p->ply >= r->max_plies)
        p->drawn = 1;
    return 0;
}

/* GAME_OVER with the first player's result, or GAME_RUNNING (AlquerqueState.outcome). */
static int FN(outcome)(const WS *w, const LPOS *p, double *result)
{
    SCAN sc;
    FN(scan)(w, p->own, p->opp, p->kings, p->turn, 0, &sc);
    if (sc.jumpers || sc.count) {
        *result = 0.5;
        return p->drawn ? GAME_OVER : GAME_RUNNING;
    }
    *result = p->turn == 0 ? 0.0 : 1.0;
    return GAME_OVER;
}

/* The hunter's steps plus jumps (AlquerqueState._hunter_mobility). */
static int FN(hunter_mobility)(const WS *w, BB hunter, BB prey)
{
    BB empty = w->points & ~(hunter | prey);
    int n = 0;
    for (int i = 0; i < w->n_lines; i++) {
        int d = w->delta[i];
        BB m = w->line[i], step = FN(shift)(hunter & m, d);
        n += POPCNT(step & empty);
        n += POPCNT(FN(shift)(step & prey & m, d) & empty);
    }
    return n;
}

/* AlquerqueState.evaluate, in the same floating-point operations. */
static double FN(evaluate)(const WS *w, const LPOS *p)
{
    const AlqSpec *r = w->r;
    BB p0 = p->turn == 0 ? p->own : p->opp, p1 = p->turn == 0 ? p->opp : p->own, kings = p->kings;
    if (r->hunt) {
        double geese = (double)(POPCNT(p0) - 5) / (double)r->flock;
        geese = geese > 0.0 ? geese : 0.0;
        geese = geese < 1.0 ? geese : 1.0;
        int hunters = POPCNT(p1);
        double mobility = (double)FN(hunter_mobility)(w, p1, p0) / (double)(8 * (hunters > 1 ? hunters : 1));
        return 0.5 * geese + 0.5 * (1.0 - (mobility < 1.0 ? mobility : 1.0));
    }
    double a = (double)POPCNT(p0 & ~kings) + r->king_value * (double)POPCNT(p0 & kings);
    double b = (double)POPCNT(p1 & ~kings) + r->king_value * (double)POPCNT(p1 & kings);
    if (a + b == 0.0)
        return 0.5;
    return a / (a + b);
}

/* AlquerqueState.heuristic: the material a move gains for its mover. */
static double FN(heuristic)(const AlqSpec *r, BB kings, const MOVE *m)
{
    BB cap = m->cap;
    int route = m->n != 0, huffed_mover = (cap & m->to) && !route;
    if (huffed_mover)
        cap ^= m->to ^ m->frm;
    double value = (double)POPCNT(cap & ~kings) + r->king_value * (double)POPCNT(cap & kings);
    double crowning = m->crowned && !huffed_mover ? r->king_value - 1 : 0.0;
    return (route ? value : -value) + crowning;
}

/* A random playout of at most max_plies (AlquerqueState.playout), halted where `halt` says:
 * GAME_OVER with *result, GAME_RUNNING cut off, GAME_ERROR. */
static int FN(run_playout)(const WS *w, AlqPos *h, LPOS *p, int64_t max_plies, Rand *rng, SCRATCH *s,
                           const Halt *halt, double *result)
{
    for (int64_t ply = 0; ply < max_plies; ply++) {
        if (halt && ply % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            return GAME_RUNNING;
        if (p->drawn) {
            *result = 0.5;
            return GAME_OVER;
        }
        MOVE m;
        int found = FN(pick)(w, p, rng, s, 0, &m);
        if (found < 0)
            return GAME_ERROR;
        if (!found) {
            *result = p->turn == 0 ? 0.0 : 1.0;
            return GAME_OVER;
        }
        if (FN(play)(w->r, p, h, &m) < 0)
            return GAME_ERROR;
    }
    return FN(outcome)(w, p, result);
}

/* Leaves of the move tree (AlquerqueGame.perft: draw rules ignored); -1 out of memory. */
static int64_t FN(perft_masks)(const WS *w, BB own, BB opp, BB kings, int turn, int depth, SCRATCH *s)
{
    if (depth <= 0)
        return 1;
    if (FN(legal)(w, own, opp, kings, turn, s, 0) < 0)
        return -1;
    size_t n = s->n;
    if (depth == 1 || !n)
        return (int64_t)n;
    MOVE *moves = malloc(n * sizeof(MOVE));
    if (!moves)
        return -1;
    memcpy(moves, s->moves, n * sizeof(MOVE));
    int64_t total = 0;
    for (size_t i = 0; i < n && total >= 0; i++) {
        BB o = own, x = opp, k = kings;
        FN(apply)(&o, &x, &k, &moves[i]);
        int64_t below = FN(perft_masks)(w, x, o, k, turn ^ 1, depth - 1, s);
        total = below < 0 ? -1 : total + below;
    }
    free(moves);
    return total;
}

#include "alquerque_iface.h"

#undef CAT_
#undef CAT
#undef FN
#undef WS
#undef MOVE
#undef SCRATCH
#undef SCAN
#undef LPOS
#undef DFS
#undef CTX
#undef TALLY
