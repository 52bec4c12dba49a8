/* The random playout's kernel, included by fanorona_playout.c once per compilation: FN_K(name)
 * names its functions, FN_FAST says whether it may use pext (fanorona_bits.h, options_turned).
 * No include guard: it is meant to be included more than once.
 *
 * A playout draws one move a ply, uniformly, as the Python rules do (FanoronaState.playout): the
 * same random number picks the same move, the moves being numbered in the order `legal` lists
 * them.  A capture position's moves are counted rather than listed (every prefix of every chain
 * is a move, about ten of them), and only the drawn one is built, found again on the count's
 * records (count_below); a paika is drawn by counting too.
 */

/* The moves below a stone whose steps are `steps` (its point's table) and its next steps
 * `mask`, on the board (`free`, `opp`) it stands on, chains optional (each node of the walk a
 * move): one record a node, in the walk's order (a node before its children), holding the
 * moves of its subtree (itself included), so that the move numbered k is found again by
 * skipping whole subtrees.  Returns the end of the records, or NULL when they would pass `end`
 * (which leaves room for a node's children), or the chain is longer than a position allows.
 * A child's own next steps are read on this same board, before its capture: the stones a step
 * takes lie on its own line, beyond its end or behind its start, and the next step may neither
 * repeat that direction (`keep`) nor go back (the start is not free), nor reach the line from
 * anywhere else, so that they change nothing it can do: a child that cannot go on costs one
 * options() and no run_of. */
FN_HOT uint32_t *FN_K(count_below)(const FnRules *r, const FnStep *steps, uint64_t free, uint64_t opp, unsigned mask,
                                   uint32_t *w, const uint32_t *end)
{
    FnCountLevel stack[FN_MAX_STEPS], *sp = stack;
    uint32_t *node = NULL;
    if (w > end)
        return NULL;
    for (;;) {
        if (mask) {
            const FnStep *st = &steps[__builtin_ctz(mask)];
            unsigned next = options_turned(r, st->turn, free, opp, FN_FAST) & st->keep;
            uint32_t *child = w++;
            mask &= mask - 1;
            *child = 1;
            if (__builtin_expect(!next, 1))       /* most children cannot go on */
                continue;
            if (w > end || sp == stack + FN_MAX_STEPS)
                return NULL;
            uint64_t line = run_of(st->ray, st->up, opp);
            *sp++ = (FnCountLevel){steps, free, opp, node, mask};
            steps = r->step[st->to];
            free = (free ^ st->to_bit) | line;
            opp ^= line;
            node = child;
            mask = next;
            continue;
        }
        if (w > end)
            return NULL;
        if (sp == stack)
            return w;
        *node = (uint32_t)(w - node);
        --sp;
        steps = sp->steps;
        free = sp->free;
        opp = sp->opp;
        node = sp->node;
        mask = sp->mask;
    }
}

/* count_below for the first steps of the stone on `q`, whose going on is read on `go_on`
 * (go_on_masks: per direction, the points from which the chain goes on) in place of options(). */
FN_HOT uint32_t *FN_K(count_first)(const FnRules *r, int q, uint64_t free, uint64_t opp, const uint64_t go_on[FN_DIRS],
                                   uint32_t *w, const uint32_t *end)
{
    const FnStep *steps = r->step[q];
    if (w > end)
        return NULL;
    for (unsigned mask = options(r, q, free, opp, FN_FAST); mask && w; mask &= mask - 1) {
        unsigned j = (unsigned)__builtin_ctz(mask);
        const FnStep *st = &steps[j];
        uint32_t *node = w++;
        *node = 1;
        if (!(go_on[j >> 1] >> st->to & 1))
            continue;
        unsigned next = options_turned(r, st->turn, free, opp, FN_FAST) & st->keep;
        uint64_t line = run_of(st->ray, st->up, opp);
        if ((w = FN_K(count_below)(r, r->step[st->to], (free ^ st->to_bit) | line, opp ^ line, next, w, end)))
            *node = (uint32_t)(w - node);
    }
    return w;
}

/* The capturing move numbered `k` among the stone on `frm`'s (chains optional, `rec` its
 * records, k below their number): its end in *to, the stones it takes in *cap. */
FN_HOT void FN_K(nth_optional)(const FnRules *r, int frm, uint64_t free, uint64_t opp, size_t k, const uint32_t *rec,
                               int *to, uint64_t *cap)
{
    const FnStep *steps = r->step[frm];
    unsigned mask = options(r, frm, free, opp, FN_FAST);
    uint64_t taken = 0;
    for (;;) {
        const FnStep *st = &steps[__builtin_ctz(mask)];
        mask &= mask - 1;
        size_t size = *rec;
        if (k >= size) {
            k -= size;
            rec += size;
            continue;
        }
        uint64_t line = run_of(st->ray, st->up, opp);
        taken |= line;
        if (k == size - 1) {          /* the node itself, after the chains it starts */
            *to = st->to;
            *cap = taken;
            return;
        }
        mask = options_turned(r, st->turn, free, opp, FN_FAST) & st->keep;
        free = (free ^ st->to_bit) | line;
        opp ^= line;
        steps = r->step[st->to];
        rec++;
    }
}

/* The capturing moves of the stones in `starters`, counted (a mode fn_counted takes), per
 * stone into `each` (by ascending point), their records (count_below) into the sink's; the
 * total, or -1 out of memory.  `from`: capture_points' per direction, on this board. */
FN_HOT int64_t FN_K(count_chains)(FnSink *s, const FnRules *r, uint64_t free, uint64_t opp, uint64_t starters, int mode,
                                  const uint64_t from[FN_DIRS], size_t *each)
{
    if (mode == FN_SINGLE) {
        size_t total = 0;
        for (size_t i = 0; starters; starters &= starters - 1, i++)
            total += each[i] = (size_t)__builtin_popcount(options(r, ctz(starters), free, opp, FN_FAST));
        return (int64_t)total;
    }
    uint64_t go_on[FN_DIRS];
    fn_go_on_masks(from, go_on);
    for (;;) {
        if (s->rec_cap < FN_REC_MIN && fn_rec_grow(s) < 0)
            return -1;
        uint32_t *w = s->rec, *end = s->rec + s->rec_cap - 2 * FN_DIRS;     /* room for a node's children */
        size_t i = 0;
        for (uint64_t m = starters; m && w; m &= m - 1, i++) {
            uint32_t *start = w;
            w = FN_K(count_first)(r, ctz(m), free, opp, go_on, w, end);
            each[i] = w ? (size_t)(w - start) : 0;
        }
        if (w)
            return w - s->rec;
        if (fn_rec_grow(s) < 0)
            return -1;
    }
}

/* The capturing move numbered `k` of those count_chains counted (the same arguments, k below
 * their total): its start, end and captured stones. */
FN_HOT void FN_K(nth_chain)(const FnSink *s, const FnRules *r, uint64_t free, uint64_t opp, uint64_t starters, int mode,
                            const size_t *each, size_t k, int *from, int *to, uint64_t *cap)
{
    size_t i = 0, before = 0;
    for (; k >= each[i]; i++) {
        k -= each[i];
        before += each[i];
        starters &= starters - 1;
    }
    int q = *from = ctz(starters);
    if (mode != FN_SINGLE) {
        FN_K(nth_optional)(r, q, free, opp, k, s->rec + before, to, cap);
        return;
    }
    const FnStep *st = &r->step[q][nth_bit(options(r, q, free, opp, FN_FAST), k)];
    *to = st->to;
    *cap = run_of(st->ray, st->up, opp);
}

/* A random capturing move of the stones in `starters` (e the empty points, points:
 * capture_points'): counted when the mode allows (fn_counted), else listed by fn_chains; 0,
 * or GAME_ERROR (memory, or the random source failed). */
FN_HOT int FN_K(draw_capture)(FnSink *s, const FnRules *r, uint64_t own, uint64_t opp, uint64_t e, uint64_t starters,
                              const uint64_t points[FN_DIRS], int mode, Rand *rng, int native, int *from, int *to,
                              uint64_t *cap)
{
    size_t each[FN_POINTS], n;
    int count = fn_counted(r, mode);
    if (count) {
        int64_t total = FN_K(count_chains)(s, r, e, opp, starters, mode, points, each);
        if (total < 0)
            return GAME_ERROR;
        n = (size_t)total;
    } else {
        s->n = 0;
        fn_chains(r, own, opp, starters, mode, s);
        if (s->oom)
            return GAME_ERROR;
        n = s->n;
    }
    double x;
    if (rand_draw_checked(rng, native, &x) < 0)
        return GAME_ERROR;
    size_t k = (size_t)(x * (double)n);
    if (count) {
        FN_K(nth_chain)(s, r, e, opp, starters, mode, each, k, from, to, cap);
    } else {
        *from = s->light[k].from;
        *to = s->light[k].to;
        *cap = s->light[k].cap;
    }
    return 0;
}

/* fn_playout (fanorona.h), this compilation's. */
static int FN_K(playout)(FnCtx *c, FnPos *p, int64_t max_plies, Rand *rng, const Halt *halt, double *result,
                         int64_t *plies)
{
    const FnRules *r = c->r;
    FnSink *s = &c->sink;
    FnPos pos = *p;
    int err = 0, native = rng->next == rand_native_next;
    s->slots = NULL;
    for (int64_t i = 0; i < max_plies && !drawn(r, &pos); i++) {
        uint64_t points[FN_DIRS], e = r->cells & ~(pos.own | pos.opp), cap = 0;
        uint64_t starters = pos.own & capture_points(r, pos.opp, e, points, FN_FAST);
        int f = 0, t = 0;
        if (i % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            break;                   /* the search is over: cut off here, the game going on */
        if (starters) {
            err = FN_K(draw_capture)(s, r, pos.own, pos.opp, e, starters, points, chain_mode(r, &pos), rng, native, &f,
                                     &t, &cap);
            if (err)
                break;
        } else {
            uint64_t masks[FN_DIRS];
            size_t seen[FN_DIRS + 1];
            paika_masks_of(r, pos.own, e, masks);
            paika_counts(masks, seen);
            if (!seen[FN_DIRS])
                break;
            double x;
            if (rand_draw_checked(rng, native, &x) < 0) {
                err = GAME_ERROR;
                break;
            }
            nth_paika(r, masks, seen, (size_t)(x * (double)seen[FN_DIRS]), &f, &t);
        }
        play(&pos, bit(f), bit(t), cap);
        ++*plies;
    }
    *p = pos;
    if (err)
        return GAME_ERROR;
    return fn_outcome(r, p, result);
}
