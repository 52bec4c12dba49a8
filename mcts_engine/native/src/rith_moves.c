/* Rithmomachia's moves: the legal list, the random draw and playing one (§3-§4).
 *
 * The legal list runs as RithmomachiaState._buckets and _all_moves do: plain pieces shape by
 * shape, pattern by pattern, step by step, each bucket's destinations in ascending order, then
 * each pyramid (ascending) with the union of its shapes' patterns.  The random draw is
 * RithmomachiaState._draw, draw for draw: a uniform slot among the pattern slots of the mover's
 * pieces, kept when it names a legal move, the exact list after 64 misses.
 */
#include "rithmomachia.h"

/* --- the legal list --------------------------------------------------------------------------- */

static rm_bb step(const RmPat *p, rm_bb x, rm_bb empty) { return rm_shift(x & p->ok, p->d) & empty; }

/* Destinations of the pyramid on `b` (RithmomachiaState._pyramid_dests). */
static rm_bb pyramid_dests(const RmRules *R, const RmPos *p, int b, rm_bb empty)
{
    const RmPyramid *y = rm_pyramid(p, b);
    unsigned shapes = rm_shapes_of(y);
    rm_bb dest = 0, x0 = rm_bit(b);
    for (int s = 0; s < 3; s++) {
        if (!(shapes >> s & 1))
            continue;
        for (int k = 0; k < R->npats[s]; k++) {
            const RmPat *pat = &R->pats[s][k];
            rm_bb cur = x0;
            for (int i = 1; i <= pat->n; i++) {
                if (!(cur = step(pat, cur, empty)))
                    break;
                if (pat->every || i == pat->n)
                    dest |= cur;
            }
        }
    }
    if (R->ndiag3 && rm_intact(y))
        for (int k = 0; k < R->ndiag3; k++) {
            const RmPat *pat = &R->diag3[k];
            rm_bb cur = x0;
            for (int i = 1; i <= pat->n && (cur = step(pat, cur, empty)); i++)
                if (pat->every || i == pat->n)
                    dest |= cur;
        }
    return dest;
}

static size_t emit(uint16_t *out, size_t n, rm_bb dest, int delta, int origin)
{
    while (dest) {
        int t = rm_ctz(dest);
        dest &= dest - 1;
        out[n++] = (uint16_t)((origin < 0 ? t - delta : origin) << 8 | t);
    }
    return n;
}

/* Every move of the side to move, as from << 8 | to, in the Python rules' order (whether or not
 * the game is over: the caller asks). */
size_t rm_legal(const RmRules *R, const RmPos *p, uint16_t *out)
{
    int c = p->side;
    rm_bb empty = R->cells & ~(rm_occ(p, 0) | rm_occ(p, 1));
    size_t n = 0;
    for (int s = 0; s < 3; s++) {
        rm_bb x = p->bb[c][s];
        if (!x)
            continue;
        for (int k = 0; k < R->npats[s]; k++) {
            const RmPat *pat = &R->pats[s][k];
            rm_bb cur = x;
            for (int i = 1; i <= pat->n; i++) {
                if (!(cur = step(pat, cur, empty)))
                    break;
                if (pat->every || i == pat->n)
                    n = emit(out, n, cur, pat->d * i, -1);
            }
        }
    }
    for (rm_bb y = p->bb[c][RM_PYRAMID]; y; y &= y - 1) {
        int b = rm_ctz(y);
        n = emit(out, n, pyramid_dests(R, p, b, empty), 0, b);
    }
    return n;
}

/* Whether the side to move has a move (RithmomachiaState._has_moves). */
int rm_has_moves(const RmRules *R, const RmPos *p)
{
    int c = p->side;
    rm_bb empty = R->cells & ~(rm_occ(p, 0) | rm_occ(p, 1));
    for (int s = 0; s < 3; s++) {
        rm_bb x = p->bb[c][s];
        for (int k = 0; x && k < R->npats[s]; k++) {
            const RmPat *pat = &R->pats[s][k];
            rm_bb cur = x;
            for (int i = 1; i <= pat->n; i++) {
                if (!(cur = step(pat, cur, empty)))
                    break;
                if (pat->every || i == pat->n)
                    return 1;
            }
        }
    }
    for (rm_bb y = p->bb[c][RM_PYRAMID]; y; y &= y - 1)
        if (pyramid_dests(R, p, rm_ctz(y), empty))
            return 1;
    return 0;
}

/* --- the random draw ----------------------------------------------------------------------------- */

/* Entry k of RithmomachiaGame.pyramid_potential for the pyramid on x: its shapes' pattern lists
 * in shape order (then the diagonal-3 list while intact), each destination once. */
static const RmEntry *pyramid_entry(const RmRules *R, int x, unsigned shapes, int intact, int k)
{
    rm_bb seen = 0;
    for (int s = 0; s < 4; s++) {
        const RmEntry *list = s < 3 ? R->pot[s][x] : R->pot_d3[x];
        int n = s < 3 ? (shapes >> s & 1 ? R->npot[s][x] : 0) : (intact ? R->npot_d3[x] : 0);
        for (int i = 0; i < n; i++) {
            rm_bb d = rm_bit(list[i].cell);
            if (seen & d)
                continue;
            if (k-- == 0)
                return &list[i];
            seen |= d;
        }
    }
    return NULL;
}

static int nth_bit(rm_bb mask, int64_t i)
{
    while (i-- > 0)
        mask &= mask - 1;
    return rm_ctz(mask);
}

int rm_draw(const RmRules *R, const RmPos *p, Rand *rng, uint16_t *move)
{
    int c = p->side;
    rm_bb occ = rm_occ(p, 0) | rm_occ(p, 1);
    int64_t w0 = (int64_t)rm_pop(p->bb[c][0]) * R->slots[0];
    int64_t w1 = w0 + (int64_t)rm_pop(p->bb[c][1]) * R->slots[1];
    int64_t w2 = w1 + (int64_t)rm_pop(p->bb[c][2]) * R->slots[2];
    int px[RM_PYRAMIDS], pn[RM_PYRAMIDS], npyr = 0;
    unsigned pshapes[RM_PYRAMIDS];
    int pintact[RM_PYRAMIDS];
    int64_t total = w2;
    for (rm_bb y = p->bb[c][RM_PYRAMID]; y; y &= y - 1) {
        int x = rm_ctz(y);
        const RmPyramid *py = rm_pyramid(p, x);
        px[npyr] = x;
        pshapes[npyr] = rm_shapes_of(py);
        pintact[npyr] = R->ndiag3 && rm_intact(py);
        pn[npyr] = R->pyr_entries[x][pshapes[npyr]][pintact[npyr]];
        total += pn[npyr++];
    }
    if (!total)
        return 0;
    for (int tries = 0; tries < 64; tries++) {
        double r = rng->next(rng);
        if (rng->failed)
            return -1;
        int64_t k = (int64_t)(r * (double)total);
        if (k >= w2) {
            k -= w2;
            for (int j = 0; j < npyr; j++) {
                if (k < pn[j]) {
                    const RmEntry *e = pyramid_entry(R, px[j], pshapes[j], pintact[j], (int)k);
                    if (!rm_has(occ, e->cell) && rm_path_free(e, occ)) {
                        *move = (uint16_t)(px[j] << 8 | e->cell);
                        return 1;
                    }
                    break;
                }
                k -= pn[j];
            }
            continue;
        }
        int kind;
        int64_t i, slot;
        if (k < w0)
            kind = 0, i = k / R->slots[0], slot = k % R->slots[0];
        else if (k < w1)
            kind = 1, i = (k - w0) / R->slots[1], slot = (k - w0) % R->slots[1];
        else
            kind = 2, i = (k - w1) / R->slots[2], slot = (k - w1) % R->slots[2];
        int x = nth_bit(p->bb[c][kind], i);
        if (slot < R->npot[kind][x]) {
            const RmEntry *e = &R->pot[kind][x][slot];
            if (!rm_has(occ, e->cell) && rm_path_free(e, occ)) {
                *move = (uint16_t)(x << 8 | e->cell);
                return 1;
            }
        }
    }
    uint16_t moves[RM_MAX_MOVES];
    size_t n = rm_legal(R, p, moves);
    if (!n)
        return 0;
    double r = rng->next(rng);
    if (rng->failed)
        return -1;
    *move = moves[(size_t)(r * (double)n)];
    return 1;
}

/* --- playing ---------------------------------------------------------------------------------------- */

/* Move the mover's piece f -> t, resolve the captures (§5), test the end (§7); -1 (nothing
 * changed) when f holds no piece of the mover or t is not an empty cell. */
int rm_play(const RmRules *R, RmPos *p, int f, int t)
{
    int c = p->side;
    if (f < 0 || f >= RM_CELLS || t < 0 || t >= RM_CELLS || !(rm_occ(p, c) >> f & 1)
        || !((R->cells & ~(rm_occ(p, 0) | rm_occ(p, 1))) >> t & 1))
        return -1;
    int kind = rm_is_pyramid(p, c, f) ? RM_PYRAMID : (int)(p->code[f] & 3);
    p->bb[c][kind] ^= rm_bit(f) | rm_bit(t);
    p->code[t] = p->code[f];
    p->code[f] = 0;
    rm_resolve(R, p, c, f, t);
    p->side = c ^ 1;
    p->ply++;
    p->movable = -1;
    return 0;
}
