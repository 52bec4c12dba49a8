/* Rithmomachia's captures (§5, §6 of its rules text): who takes what after a move.
 *
 * The Python rules' CaptureArithmetic and CaptureResolution (rules/rithmomachia/captures.py),
 * test for test: siege (adjacent or natural), equality, ambush (by movement, within one pyramid,
 * or custodial), eruption; the hits of one target are a mask (RM_WHOLE, or pyramid component
 * bits), removed together with the §5.8 counters, then the end test (rith_glory.c).
 *
 * After a move only the opposing pieces whose relations can be new since the mover last
 * resolved are examined (the Python `candidates`: moved and damaged pieces, the moved piece's
 * reach, neighbours, rank and file, the slide lines through vacated cells); a position loaded
 * from Python (`fresh`) gets one whole-board pass per side first, as the Python state does.
 */
#include "rithmomachia.h"

/* --- values (§5.2) ------------------------------------------------------------------------------ */

#define RM_VALUES (RM_COMPS + 1)

/* What a target can be hit through: its value, or each component's and the total. */
typedef struct {
    int64_t v[RM_VALUES];
    uint32_t bit[RM_VALUES];
    int n;
} Targets;

static void target_values(const RmRules *R, const RmPos *p, int o, int x, Targets *t)
{
    if (!rm_is_pyramid(p, o, x)) {
        t->v[0] = p->code[x] >> 2;
        t->bit[0] = RM_WHOLE;
        t->n = 1;
        return;
    }
    const RmPyramid *y = rm_pyramid(p, x);
    int64_t total = 0;
    t->n = 0;
    for (int i = 0; i < y->n; i++)
        if (y->alive >> i & 1) {
            t->v[t->n] = y->comp[i] >> 2;
            t->bit[t->n++] = 1u << i;
            total += y->comp[i] >> 2;
        }
    if (!R->total_only_intact || R->total_defence || rm_intact(y)) {
        t->v[t->n] = total;
        t->bit[t->n++] = RM_WHOLE;
    }
}

static int total_allowed(const RmRules *R, const RmPyramid *y) { return !R->total_only_intact || rm_intact(y); }

/* CaptureArithmetic.attack_values: the values of the mover's piece on `a` reaching a target by
 * `shapes` (bits 0-2 the shapes, bit 3 the pyramid's diagonal-3 pattern). */
static int attack_values(const RmRules *R, const RmPos *p, int c, int a, unsigned shapes, int equality, int64_t *v)
{
    if (!rm_is_pyramid(p, c, a)) {
        uint32_t code = p->code[a];
        if (!(shapes >> (code & 3) & 1))
            return 0;
        v[0] = code >> 2;
        return 1;
    }
    const RmPyramid *y = rm_pyramid(p, a);
    int64_t total = 0;
    int n = 0, any = equality && R->eq_any_component, d3 = (shapes & 8) && rm_intact(y);
    for (int i = 0; i < y->n; i++)
        if (y->alive >> i & 1) {
            total += y->comp[i] >> 2;
            if (any || (shapes >> (y->comp[i] & 3) & 1))
                v[n++] = y->comp[i] >> 2;
        }
    if (!n && !any) {
        if (!d3)
            return 0;
        v[0] = total;
        return 1;
    }
    if (total_allowed(R, y) || d3)
        v[n++] = total;
    return n;
}

/* CaptureArithmetic.all_values: where movement plays no role (eruption, custodial ambush). */
static int all_values(const RmRules *R, const RmPos *p, int c, int a, int64_t *v)
{
    if (!rm_is_pyramid(p, c, a)) {
        v[0] = p->code[a] >> 2;
        return 1;
    }
    const RmPyramid *y = rm_pyramid(p, a);
    int64_t total = 0;
    int n = 0;
    for (int i = 0; i < y->n; i++)
        if (y->alive >> i & 1)
            total += v[n++] = y->comp[i] >> 2;
    if (total_allowed(R, y))
        v[n++] = total;
    return n;
}

/* Sum, difference, product or exact quotient of two attack values equals t (§5.5). */
static int ambush_ok(int64_t a1, int64_t a2, int64_t t)
{
    if (a1 + a2 == t || a1 - a2 == t || a2 - a1 == t || a1 * a2 == t)
        return 1;
    int64_t lo = a1 < a2 ? a1 : a2, hi = a1 < a2 ? a2 : a1;
    return lo > 0 && hi == t * lo;
}

static uint32_t pair_hits(const int64_t *v1, int n1, const int64_t *v2, int n2, const Targets *t)
{
    uint32_t h = 0;
    for (int i = 0; i < n1; i++)
        for (int j = 0; j < n2; j++)
            for (int k = 0; k < t->n; k++)
                if (ambush_ok(v1[i], v2[j], t->v[k]))
                    h |= t->bit[k];
    return h;
}

/* --- the attackers of one cell ------------------------------------------------------------------- */

typedef struct {
    int cell;
    unsigned shapes;
} Attacker;

/* CaptureResolution.attackers: the mover's pieces attacking x, ascending, with their shapes. */
static int attackers(const RmRules *R, const RmPos *p, int x, int c, rm_bb occ, Attacker *out)
{
    rm_bb pyr = p->bb[c][RM_PYRAMID], by[4] = {0, 0, 0, 0};
    for (int s = 0; s < 3; s++) {
        rm_bb movers = p->bb[c][s] | pyr;
        if (!(R->rev_mask[s][x] & movers))
            continue;
        by[s] = R->rev_leaps[s][x] & movers;
        for (int i = 0; i < R->nrev[s][x]; i++) {
            const RmEntry *e = &R->rev[s][x][i];
            if (rm_has(movers, e->cell) && rm_path_free(e, occ))
                by[s] |= rm_bit(e->cell);
        }
    }
    if (R->ndiag3 && (R->rev_d3_mask[x] & pyr))
        for (int i = 0; i < R->nrev_d3[x]; i++) {
            const RmEntry *e = &R->rev_d3[x][i];
            if (rm_has(pyr, e->cell) && rm_path_free(e, occ))
                by[3] |= rm_bit(e->cell);
        }
    int n = 0;
    for (rm_bb all = by[0] | by[1] | by[2] | by[3]; all; all &= all - 1) {
        int a = rm_ctz(all);
        out[n].cell = a;
        out[n++].shapes = (unsigned)(rm_has(by[0], a) | rm_has(by[1], a) << 1 | rm_has(by[2], a) << 2
                                     | rm_has(by[3], a) << 3);
    }
    return n;
}

/* --- the tests of one target (§5.3-§5.6) ---------------------------------------------------------- */

static int besieged(const RmRules *R, int x, int shape, rm_bb mover, rm_bb occ)
{
    for (int k = 0; k < R->nrays[shape][x]; k++) {
        const RmRay *ray = &R->rays[shape][x][k];
        int blocked = ray->leaves;
        for (int j = 0; j < ray->n; j++)
            if (occ >> ray->cell[j] & 1) {
                blocked = (int)(mover >> ray->cell[j] & 1);
                break;
            }
        if (!blocked)
            return 0;
    }
    return 1;
}

/* Natural siege (§8.2.5): the whole piece, or each pyramid component whose moves are all blocked. */
static uint32_t natural_siege_hits(const RmRules *R, const RmPos *p, int x, int o, rm_bb mover, rm_bb occ)
{
    if (!rm_is_pyramid(p, o, x))
        return besieged(R, x, (int)(p->code[x] & 3), mover, occ) ? RM_WHOLE : 0;
    const RmPyramid *y = rm_pyramid(p, x);
    uint32_t hits = 0;
    for (int i = 0; i < y->n; i++)
        if ((y->alive >> i & 1) && besieged(R, x, (int)(y->comp[i] & 3), mover, occ))
            hits |= 1u << i;
    return hits;
}

static uint32_t equality_hits(const RmRules *R, const RmPos *p, int c, const Attacker *a, const Targets *t)
{
    if (!rm_is_pyramid(p, c, a->cell) && t->n == 1)    /* two plain pieces (an attacker has its own shape) */
        return (int64_t)(p->code[a->cell] >> 2) == t->v[0] ? t->bit[0] : 0;
    int64_t v[RM_VALUES];
    int n = attack_values(R, p, c, a->cell, a->shapes, 1, v);
    uint32_t h = 0;
    for (int k = 0; k < t->n; k++)
        for (int i = 0; i < n; i++)
            if (v[i] == t->v[k]) {
                h |= t->bit[k];
                break;
            }
    return h;
}

static uint32_t ambush_hits(const RmRules *R, const RmPos *p, int c, const Attacker *at, int n, const Targets *t)
{
    uint32_t h = 0;
    int64_t v1[RM_VALUES], v2[RM_VALUES];
    for (int i = 0; i < n; i++) {
        int n1 = attack_values(R, p, c, at[i].cell, at[i].shapes, 0, v1);
        if (n1 == 1 && t->n == 1 && !R->same_piece_pairs && !rm_is_pyramid(p, c, at[i].cell)) {
            for (int j = i + 1; j < n; j++)         /* plain pieces: one value each */
                if (!rm_is_pyramid(p, c, at[j].cell) && ambush_ok(v1[0], p->code[at[j].cell] >> 2, t->v[0]))
                    h |= t->bit[0];
                else if (rm_is_pyramid(p, c, at[j].cell)) {
                    int n2 = attack_values(R, p, c, at[j].cell, at[j].shapes, 0, v2);
                    h |= pair_hits(v1, n1, v2, n2, t);
                }
            continue;
        }
        if (R->same_piece_pairs)
            for (int a = 0; a < n1; a++)
                h |= pair_hits(&v1[a], 1, &v1[a + 1], n1 - a - 1, t);
        for (int j = i + 1; j < n; j++) {
            int n2 = attack_values(R, p, c, at[j].cell, at[j].shapes, 0, v2);
            h |= pair_hits(v1, n1, v2, n2, t);
        }
    }
    return h;
}

static uint32_t custodial_hits(const RmRules *R, const RmPos *p, int c, int x, rm_bb mover, const Targets *t)
{
    uint32_t h = 0;
    int64_t v1[RM_VALUES], v2[RM_VALUES];
    for (int k = 0; k < R->ncust[x]; k++) {
        int b1 = R->cust[x][k][0], b2 = R->cust[x][k][1];
        if ((mover >> b1 & 1) && (mover >> b2 & 1)) {
            int n1 = all_values(R, p, c, b1, v1), n2 = all_values(R, p, c, b2, v2);
            h |= pair_hits(v1, n1, v2, n2, t);
        }
    }
    return h;
}

/* The cells strictly between a and x on their rank or file. */
static rm_bb between(int a, int x)
{
    int step = (a >> 3) == (x >> 3) ? 1 : RM_FILES;
    if (a > x)
        step = -step;
    rm_bb out = 0;
    for (int y = a + step; y != x; y += step)
        out |= rm_bit(y);
    return out;
}

/* Eruption (§5.6) of the target on x by the mover's pieces of `near` (on its rank and file). */
static uint32_t eruption_hits(const RmRules *R, const RmPos *p, int c, int x, rm_bb near, rm_bb occ, const Targets *t)
{
    uint32_t h = 0;
    int64_t v[RM_VALUES];
    for (; near; near &= near - 1) {
        int a = rm_ctz(near);
        int dr = (a >> 3) - (x >> 3), dc = (a & 7) - (x & 7);
        int64_t d = (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc) + 1;
        if (R->blocking && (d == 3 || d == 4) && (between(a, x) & occ))
            continue;
        if (t->n == 1 && !rm_is_pyramid(p, c, a)) {      /* two plain pieces */
            int64_t av = p->code[a] >> 2, tv = t->v[0];
            if (av * d == tv || (R->division && tv * d == av))
                h |= t->bit[0];
            continue;
        }
        int n = all_values(R, p, c, a, v);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < t->n; k++)
                if (v[i] * d == t->v[k] || (R->division && t->v[k] * d == v[i]))
                    h |= t->bit[k];
    }
    return h;
}

/* Siege (§5.3): every orthogonal, or every diagonal, neighbour a mover's piece. */
static int adjacent_siege(const RmRules *R, int x, rm_bb mover)
{
    return (R->orth_nb[x] & mover) == R->orth_nb[x] || (R->diag_nb[x] & mover) == R->diag_nb[x];
}

/* CaptureResolution.target_hits: what colour c takes of the piece on x (eruption from the
 * pieces of `erupters` only). */
static uint32_t target_hits(const RmRules *R, const RmPos *p, int x, int c, rm_bb mover, rm_bb occ, rm_bb erupters)
{
    int o = c ^ 1;
    uint32_t hits = 0;
    if (R->natural_siege)
        hits = natural_siege_hits(R, p, x, o, mover, occ);
    else if (adjacent_siege(R, x, mover))
        return RM_WHOLE;
    Targets t;
    target_values(R, p, o, x, &t);
    Attacker at[RM_CELLS];
    int n = attackers(R, p, x, c, occ, at);
    for (int i = 0; i < n; i++)
        hits |= equality_hits(R, p, c, &at[i], &t);
    if (R->movement_ambush && (n > 1 || (n == 1 && R->pairs_in_one)))
        hits |= ambush_hits(R, p, c, at, n, &t);
    if (!R->movement_ambush)
        hits |= custodial_hits(R, p, c, x, mover, &t);
    rm_bb near = R->lines[x] & erupters;
    if (near)
        hits |= eruption_hits(R, p, c, x, near, occ, &t);
    return hits;
}

static uint32_t eruption_only(const RmRules *R, const RmPos *p, int x, int c, rm_bb changed, rm_bb occ)
{
    rm_bb near = R->lines[x] & changed;
    if (!near)
        return 0;
    Targets t;
    target_values(R, p, c ^ 1, x, &t);
    return eruption_hits(R, p, c, x, near, occ, &t);
}

/* --- resolution ------------------------------------------------------------------------------------ */

int rm_full_hits(const RmRules *R, const RmPos *p, int c, int *cells, uint32_t *hits)
{
    rm_bb mover = rm_occ(p, c), opp = rm_occ(p, c ^ 1), occ = mover | opp;
    int n = 0;
    for (; opp; opp &= opp - 1) {
        int x = rm_ctz(opp);
        uint32_t h = target_hits(R, p, x, c, mover, occ, mover);
        if (h) {
            cells[n] = x;
            hits[n++] = h;
        }
    }
    return n;
}

typedef struct {
    rm_bb targets, near, box, far, changed;
} Candidates;

/* CaptureResolution.candidates: the opposing pieces that may be hit after the move f -> t. */
static void candidates(const RmRules *R, const RmPos *p, int c, int f, int t, rm_bb mover, rm_bb opp, Candidates *k)
{
    rm_bb occ = mover | opp, near;
    if (rm_is_pyramid(p, c, t))
        near = R->reach[RM_PYRAMID][t];
    else {
        int kind = (int)(p->code[t] & 3);
        near = R->leaps[kind][t];
        for (int i = 0; i < R->npot[kind][t]; i++) {
            const RmEntry *e = &R->pot[kind][t][i];
            if (e->n && rm_path_free(e, occ))
                near |= rm_bit(e->cell);
        }
    }
    rm_bb vac = p->vac[c] | rm_bit(f);
    if (R->natural_siege)
        for (; vac; vac &= vac - 1)
            near |= R->box3[rm_ctz(vac)];
    else {
        rm_bb sliders = R->blocking ? mover : p->bb[c][1] | p->bb[c][2] | p->bb[c][3];
        for (; vac; vac &= vac - 1) {
            int x = rm_ctz(vac);
            if (R->vback[x] & sliders)
                for (int i = 0; i < R->nvline[x]; i++)
                    if (R->vbk[x][i] & sliders)
                        near |= R->vfwd[x][i];
        }
    }
    rm_bb box = R->box1[t];
    if (R->natural_siege)
        near |= R->box3[t];
    else if (!R->movement_ambush)
        near |= box;
    rm_bb changed = rm_bit(t), far = R->lines[t];
    for (rm_bb extra = p->att[c] & mover; extra; extra &= extra - 1) {
        int a = rm_ctz(extra);
        near |= R->box1[a] | R->reach[RM_PYRAMID][a];
        far |= R->lines[a];
        changed |= rm_bit(a);
    }
    k->targets = p->tgt[c] & opp;
    k->near = near & opp & ~k->targets;
    k->box = box & opp & ~k->targets & ~k->near;
    k->far = far & opp & ~k->targets & ~k->near & ~k->box;
    k->changed = changed;
}

/* Eruption by the moved plain piece on t alone (the common case, no blocking) of the targets
 * of `far`: plain targets tested inline. */
static int far_from_plain(const RmRules *R, const RmPos *p, int c, int t, rm_bb far, rm_bb occ, int *cells,
                          uint32_t *hits, int n)
{
    int64_t av = p->code[t] >> 2;
    int rt = t >> 3, ct = t & 7;
    for (; far; far &= far - 1) {
        int x = rm_ctz(far);
        uint32_t h;
        if (!rm_is_pyramid(p, c ^ 1, x)) {
            int dr = rt - (x >> 3), dc = ct - (x & 7);
            int64_t d = (dr ? (dr < 0 ? -dr : dr) : (dc < 0 ? -dc : dc)) + 1, tv = p->code[x] >> 2;
            h = av * d == tv || (R->division && tv * d == av) ? RM_WHOLE : 0;
        } else
            h = eruption_only(R, p, x, c, rm_bit(t), occ);
        if (h) {
            cells[n] = x;
            hits[n++] = h;
        }
    }
    return n;
}

static int incremental_hits(const RmRules *R, const RmPos *p, int c, int f, int t, int *cells, uint32_t *hits)
{
    rm_bb mover = rm_occ(p, c), opp = rm_occ(p, c ^ 1), occ = mover | opp;
    Candidates k;
    candidates(R, p, c, f, t, mover, opp, &k);
    int n = 0;
    if (k.changed == rm_bit(t) && !R->blocking && !rm_is_pyramid(p, c, t)) {
        n = far_from_plain(R, p, c, t, k.far, occ, cells, hits, n);
        k.far = 0;
    }
    rm_bb erupters = R->blocking ? mover : k.changed;
    for (int pass = 0; pass < 4; pass++) {
        rm_bb set = pass == 0 ? k.targets : pass == 1 ? k.near : pass == 2 ? k.box : k.far;
        for (; set; set &= set - 1) {
            int x = rm_ctz(set);
            uint32_t h;
            if (pass == 0)
                h = target_hits(R, p, x, c, mover, occ, mover);
            else if (pass == 1)
                h = target_hits(R, p, x, c, mover, occ, erupters);
            else if (pass == 2 && adjacent_siege(R, x, mover))
                h = RM_WHOLE;
            else
                h = eruption_only(R, p, x, c, k.changed, occ);
            if (h) {
                cells[n] = x;
                hits[n++] = h;
            }
        }
    }
    return n;
}

/* CaptureResolution._remove: take the hits off together; update the §5.8 counters. */
static void remove_hits(const RmRules *R, RmPos *p, int c, int n, const int *cells, const uint32_t *hits,
                        rm_bb *removed, rm_bb *damaged, int *pyramid_gone)
{
    int o = c ^ 1;
    for (int i = 0; i < n; i++) {
        int x = cells[i];
        uint32_t h = hits[i];
        rm_bb bit = rm_bit(x);
        if (!rm_is_pyramid(p, o, x)) {
            p->bb[o][p->code[x] & 3] ^= bit;
            *removed |= bit;
            p->caps[2 * c]++;
            p->caps[2 * c + 1] += p->code[x] >> 2;
            p->code[x] = 0;
            continue;
        }
        RmPyramid *y = rm_pyramid(p, x);
        uint32_t parts = h & y->alive;
        if ((h & RM_WHOLE) || parts == y->alive || (R->whole_on_part && parts))
            parts = y->alive;
        for (int j = 0; j < y->n; j++)
            if (parts >> j & 1) {
                p->caps[2 * c]++;
                p->caps[2 * c + 1] += y->comp[j] >> 2;
            }
        if (parts == y->alive) {
            p->bb[o][RM_PYRAMID] ^= bit;
            p->code[x] = 0;
            *removed |= bit;
            *pyramid_gone = 1;
            if (R->count_author) {
                p->caps[2 * c]++;
                for (int j = 0; j < y->n; j++)
                    p->caps[2 * c + 1] += y->comp[j] >> 2;
            }
        } else {
            y->alive &= ~parts;
            *damaged |= bit;
        }
    }
}

/* CaptureResolution._end_test: common victories of the mover, the pyramid rule, glorious ones. */
static void end_test(const RmRules *R, RmPos *p, int c, int pyramid_gone)
{
    if (p->caps[2 * c] >= R->win_count || p->caps[2 * c + 1] >= R->thresholds[c])
        p->result = c;
    else if (pyramid_gone && R->pyramid_capture_wins)
        p->result = c;
    else if (R->glorious != RM_GLORY_OFF) {
        if (rm_glorious_win(R, p, c))
            p->result = c;
        else if (rm_glorious_win(R, p, c ^ 1))
            p->result = c ^ 1;
    }
}

/* CaptureResolution._resolve: the captures of the mover c after its move f -> t, then the end test. */
void rm_resolve(const RmRules *R, RmPos *p, int c, int f, int t)
{
    int o = c ^ 1, cells[RM_CELLS];
    uint32_t hits[RM_CELLS];
    int n = p->fresh[c] ? rm_full_hits(R, p, c, cells, hits) : incremental_hits(R, p, c, f, t, cells, hits);
    rm_bb removed = 0, damaged = 0;
    int gone = 0;
    if (n)
        remove_hits(R, p, c, n, cells, hits, &removed, &damaged, &gone);
    p->fresh[c] = 0;
    p->vac[c] = removed;
    p->tgt[c] = damaged;
    p->att[c] = 0;
    if (!p->fresh[o]) {
        p->vac[o] |= rm_bit(f) | removed;
        p->tgt[o] |= rm_bit(t);
        p->att[o] |= damaged;
    }
    if (n || R->glorious != RM_GLORY_OFF)
        end_test(R, p, c, gone);
}
