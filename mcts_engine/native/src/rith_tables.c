/* Rithmomachia's per-cell tables, laid out from the patterns the Python game hands over.
 *
 * The same tables as RithmomachiaGame._build_tables (rules/rithmomachia/game.py), with the same
 * on-board tests, on this core's layout (rithmomachia.h): each shape's pattern destinations
 * (`pot`, in the Python order: the random draw indexes them), the reversed patterns (which
 * cells attack a cell, and through which path), siege rays, custodial pairs, lines and
 * neighbourhoods, the slide lines a vacated cell can open, and the enemy territories.
 */
#include "rithmomachia.h"

#include <stdio.h>
#include <stdlib.h>

static int on_board(const RmRules *R, int r, int c) { return r >= 0 && r < R->ranks && c >= 0 && c < RM_FILES; }
static int cell_at(int r, int c) { return r * RM_FILES + c; }

/* --- patterns ------------------------------------------------------------------------------- */

static int make_pattern(const RmRules *R, RmPat *p, const int v[4])
{
    p->dr = v[0], p->dc = v[1], p->n = v[2], p->every = v[3];
    if (p->dr < -3 || p->dr > 3 || p->dc < -3 || p->dc > 3 || (!p->dr && !p->dc) || p->n < 1 || p->n > 3
        || (p->every != 0 && p->every != 1))
        return -1;
    p->d = p->dr * RM_FILES + p->dc;
    p->ok = 0;
    for (int r = 0; r < R->ranks; r++)
        for (int c = 0; c < RM_FILES; c++)
            if (on_board(R, r + p->dr, c + p->dc))
                p->ok |= rm_bit(cell_at(r, c));
    return 0;
}

/* RithmomachiaGame._potential: (destination, cells that must be empty) of every pattern from
 * (r, c) that stays on the board, in pattern order.  -1 when the list overflows `cap`. */
static int potential(const RmRules *R, const RmPat *pats, int npats, int r, int c, RmEntry *out, int cap)
{
    int n = 0;
    for (int k = 0; k < npats; k++) {
        const RmPat *p = &pats[k];
        for (int i = p->every ? 1 : p->n; i <= p->n; i++) {
            int ok = 1;
            for (int j = 1; j <= i && ok; j++)
                ok = on_board(R, r + j * p->dr, c + j * p->dc);
            if (!ok)
                continue;
            if (n == cap)
                return -1;
            out[n].cell = (uint8_t)cell_at(r + i * p->dr, c + i * p->dc);
            out[n].n = (uint8_t)(i - 1);
            for (int j = 1; j < i; j++)
                out[n].path[j - 1] = (uint8_t)cell_at(r + j * p->dr, c + j * p->dc);
            n++;
        }
    }
    return n;
}

/* RithmomachiaGame._reverse: the cells from which a pattern reaches (r, c), with their paths. */
static int reverse(const RmRules *R, const RmPat *pats, int npats, int r, int c, RmEntry *out, int cap)
{
    int n = 0;
    for (int k = 0; k < npats; k++) {
        const RmPat *p = &pats[k];
        for (int i = p->every ? 1 : p->n; i <= p->n; i++) {
            int ar = r - i * p->dr, ac = c - i * p->dc;
            if (!on_board(R, ar, ac))
                continue;
            if (n == cap)
                return -1;
            out[n].cell = (uint8_t)cell_at(ar, ac);
            out[n].n = (uint8_t)(i - 1);
            for (int j = 1; j < i; j++)
                out[n].path[j - 1] = (uint8_t)cell_at(r - j * p->dr, c - j * p->dc);
            n++;
        }
    }
    return n;
}

/* --- per cell ---------------------------------------------------------------------------------- */

static int movement_tables(RmRules *R, int r, int c)
{
    int x = cell_at(r, c);
    RmEntry rev[RM_MAX_ENTRIES];
    rm_bb pyramid = 0;
    for (int s = 0; s < 3; s++) {
        int n = potential(R, R->pats[s], R->npats[s], r, c, R->pot[s][x], RM_MAX_ENTRIES);
        int m = reverse(R, R->pats[s], R->npats[s], r, c, rev, RM_MAX_ENTRIES);
        if (n < 0 || m < 0)
            return -1;
        R->npot[s][x] = (uint8_t)n;
        for (int i = 0; i < n; i++) {
            R->reach[s][x] |= rm_bit(R->pot[s][x][i].cell);
            if (!R->pot[s][x][i].n)
                R->leaps[s][x] |= rm_bit(R->pot[s][x][i].cell);
        }
        for (int i = 0; i < m; i++) {
            R->rev_mask[s][x] |= rm_bit(rev[i].cell);
            if (!rev[i].n)
                R->rev_leaps[s][x] |= rm_bit(rev[i].cell);
            else
                R->rev[s][x][R->nrev[s][x]++] = rev[i];
        }
        pyramid |= R->reach[s][x];
        if (n > R->slots[s])
            R->slots[s] = n;
    }
    int n = potential(R, R->diag3, R->ndiag3, r, c, R->pot_d3[x], 4);
    int m = reverse(R, R->diag3, R->ndiag3, r, c, R->rev_d3[x], 4);
    if (n < 0 || m < 0)
        return -1;
    R->npot_d3[x] = (uint8_t)n;
    R->nrev_d3[x] = (uint8_t)m;
    for (int i = 0; i < n; i++)
        pyramid |= rm_bit(R->pot_d3[x][i].cell);
    for (int i = 0; i < m; i++)
        R->rev_d3_mask[x] |= rm_bit(R->rev_d3[x][i].cell);
    R->reach[RM_PYRAMID][x] = pyramid;
    return 0;
}

/* RithmomachiaGame.pyramid_potential's length for each set of shapes present (and intact). */
static void pyramid_counts(RmRules *R, int x)
{
    for (int shapes = 0; shapes < 8; shapes++)
        for (int intact = 0; intact < 2; intact++) {
            rm_bb seen = 0;
            for (int s = 0; s < 3; s++)
                if (shapes >> s & 1)
                    for (int i = 0; i < R->npot[s][x]; i++)
                        seen |= rm_bit(R->pot[s][x][i].cell);
            if (intact)
                for (int i = 0; i < R->npot_d3[x]; i++)
                    seen |= rm_bit(R->pot_d3[x][i].cell);
            R->pyr_entries[x][shapes][intact] = (uint8_t)rm_pop(seen);
        }
}

static void neighbourhoods(RmRules *R, const RmSpec *s, int r, int c)
{
    int x = cell_at(r, c);
    for (int rr = 0; rr < R->ranks; rr++)
        for (int cc = 0; cc < RM_FILES; cc++) {
            int dr = rr - r, dc = cc - c, y = cell_at(rr, cc);
            int ar = dr < 0 ? -dr : dr, ac = dc < 0 ? -dc : dc;
            if ((ar == 0) != (ac == 0))
                R->lines[x] |= rm_bit(y);
            if (ar + ac == 1)
                R->orth_nb[x] |= rm_bit(y);
            if (ar == 1 && ac == 1)
                R->diag_nb[x] |= rm_bit(y);
            if ((ar | ac) && ar <= 1 && ac <= 1)
                R->box1[x] |= rm_bit(y);
            if (ar <= 3 && ac <= 3)
                R->box3[x] |= rm_bit(y);
        }
    for (int k = 0; k < s->ncust_pair; k++) {
        const int *q = s->cust_pair[k];
        if (on_board(R, r + q[0], c + q[1]) && on_board(R, r + q[2], c + q[3])) {
            R->cust[x][R->ncust[x]][0] = (uint8_t)cell_at(r + q[0], c + q[1]);
            R->cust[x][R->ncust[x]++][1] = (uint8_t)cell_at(r + q[2], c + q[3]);
        }
    }
    for (int k = 0; k < s->nslide_dir; k++) {
        int dr = s->slide_dir[k][0], dc = s->slide_dir[k][1];
        rm_bb fwd = 0, back = 0;
        for (int j = 1; j <= 2; j++) {
            if (on_board(R, r + j * dr, c + j * dc))
                fwd |= rm_bit(cell_at(r + j * dr, c + j * dc));
            if (on_board(R, r - j * dr, c - j * dc))
                back |= rm_bit(cell_at(r - j * dr, c - j * dc));
        }
        if (fwd && back) {
            R->vfwd[x][R->nvline[x]] = fwd;
            R->vbk[x][R->nvline[x]++] = back;
            R->vback[x] |= back;
        }
    }
}

/* RithmomachiaGame._ray for each shape's siege directions (reach: the shape's move length). */
static void siege_rays(RmRules *R, const RmSpec *s, int r, int c)
{
    int x = cell_at(r, c);
    for (int sh = 0; sh < 3; sh++) {
        R->nrays[sh][x] = (uint8_t)s->nray_dir[sh];
        for (int k = 0; k < s->nray_dir[sh]; k++) {
            RmRay *ray = &R->rays[sh][x][k];
            int dr = s->ray_dir[sh][k][0], dc = s->ray_dir[sh][k][1];
            ray->n = ray->leaves = 0;
            for (int j = 1; j <= sh + 1; j++) {
                if (!on_board(R, r + j * dr, c + j * dc)) {
                    ray->leaves = 1;
                    break;
                }
                ray->cell[ray->n++] = (uint8_t)cell_at(r + j * dr, c + j * dc);
            }
        }
    }
}

/* --- the whole ---------------------------------------------------------------------------------- */

static int fail(char *why, size_t size, const char *text)
{
    snprintf(why, size, "%s", text);
    return -1;
}

static int check_spec(const RmSpec *s, char *why, size_t size)
{
    if (s->ranks < 4 || s->ranks > RM_MAX_RANKS || (s->first != 0 && s->first != 1))
        return fail(why, size, "ranks from 4 to 16 and first 0 or 1");
    for (int sh = 0; sh < 3; sh++)
        if (s->npat[sh] < 0 || s->npat[sh] > RM_MAX_PATS || s->nray_dir[sh] < 0 || s->nray_dir[sh] > RM_MAX_DIRS)
            return fail(why, size, "too many patterns or siege directions");
    for (int sh = 0; sh < 3; sh++)
        for (int k = 0; k < s->nray_dir[sh]; k++)
            for (int j = 0; j < 2; j++)
                if (s->ray_dir[sh][k][j] < -1 || s->ray_dir[sh][k][j] > 1)
                    return fail(why, size, "siege directions are unit steps");
    for (int k = 0; k < s->ncust_pair; k++)
        for (int j = 0; j < 4; j++)
            if (s->cust_pair[k][j] < -1 || s->cust_pair[k][j] > 1)
                return fail(why, size, "custodial pairs are unit steps");
    for (int k = 0; k < s->nslide_dir; k++)
        for (int j = 0; j < 2; j++)
            if (s->slide_dir[k][j] < -1 || s->slide_dir[k][j] > 1)
                return fail(why, size, "slide directions are unit steps");
    return 0;
}

int rm_rules_build(RmRules *R, const RmSpec *s, char *why, size_t why_size)
{
    if (check_spec(s, why, why_size) < 0)
        return -1;
    R->ranks = s->ranks;
    R->first = s->first;
    R->cells = 0;
    for (int r = 0; r < R->ranks; r++)
        for (int c = 0; c < RM_FILES; c++) {
            R->cells |= rm_bit(cell_at(r, c));
            R->py_index[cell_at(r, c)] = r * (RM_FILES + 3) + c;
        }
    for (int sh = 0; sh < 3; sh++) {
        R->npats[sh] = s->npat[sh];
        for (int k = 0; k < s->npat[sh]; k++)
            if (make_pattern(R, &R->pats[sh][k], s->pat[sh][k]) < 0)
                return fail(why, why_size, "a movement pattern out of range");
    }
    R->ndiag3 = s->ndiag3;
    for (int k = 0; k < s->ndiag3; k++)
        if (make_pattern(R, &R->diag3[k], s->diag3[k]) < 0)
            return fail(why, why_size, "a diagonal-3 pattern out of range");
    int half = R->ranks / 2;
    for (int r = 0; r < R->ranks; r++)
        for (int c = 0; c < RM_FILES; c++) {
            if (movement_tables(R, r, c) < 0)
                return fail(why, why_size, "too many pattern destinations from one cell");
            pyramid_counts(R, cell_at(r, c));
            neighbourhoods(R, s, r, c);
            siege_rays(R, s, r, c);
            R->territory[r >= half ? 0 : 1] |= rm_bit(cell_at(r, c));
        }
    return 0;
}
