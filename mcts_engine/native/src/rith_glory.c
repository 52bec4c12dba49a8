/* Rithmomachia's end of the game (§7): glorious victories, the outcome and the evaluation.
 *
 * rm_glorious_win is rules/rithmomachia/glory.py's glorious_win, test for test (three pieces in
 * the enemy territory, one at least the side's own, on an evenly spaced line or a right angle,
 * with values in arithmetic, geometric or harmonic progression, and the options' readings);
 * rm_outcome and rm_evaluate are RithmomachiaState.outcome and evaluate, the same floating
 * point operations in the same order.
 */
#include "rithmomachia.h"

/* --- glorious victories (§7.2.1) ------------------------------------------------------------------ */

#define GV_VALUES (RM_COMPS + 1)

static int progression(int64_t a, int64_t b, int64_t c, int constant_ok)
{
    int64_t t;
    if (a > b) t = a, a = b, b = t;
    if (b > c) t = b, b = c, c = t;
    if (a > b) t = a, a = b, b = t;
    if (a == c)
        return constant_ok;
    if (a == b || b == c)
        return 0;
    return b - a == c - b || b * b == a * c || b * (a + c) == 2 * a * c;
}

/* One glorious test: the cells of the enemy territory, their values, the options. */
typedef struct {
    const RmRules *R;
    rm_bb occ, area_occ;
    int64_t v[RM_CELLS][GV_VALUES];
    int nv[RM_CELLS];
    int literal;
} Glory;

/* glory.py's _values: a plain piece's value, a pyramid's components and its total. */
static void load_values(Glory *g, const RmPos *p, int x)
{
    int c = (rm_occ(p, 0) >> x & 1) ? 0 : 1;
    if (!rm_is_pyramid(p, c, x)) {
        g->v[x][0] = p->code[x] >> 2;
        g->nv[x] = 1;
        return;
    }
    const RmPyramid *y = rm_pyramid(p, x);
    int64_t total = 0;
    int n = 0;
    for (int i = 0; i < y->n; i++)
        if (y->alive >> i & 1)
            total += g->v[x][n++] = y->comp[i] >> 2;
    g->v[x][n++] = total;
    g->nv[x] = n;
}

static int three_from_one(const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = j + 1; k < n; k++)
                if (progression(v[i], v[j], v[k], 1))
                    return 1;
    return 0;
}

/* The cell at (r, c) when it holds a piece of the territory, else -1. */
static int at(const Glory *g, int r, int c)
{
    if (r < 0 || r >= g->R->ranks || c < 0 || c >= RM_FILES)
        return -1;
    int i = r * RM_FILES + c;
    return (g->area_occ >> i & 1) ? i : -1;
}

static int iabs(int x) { return x < 0 ? -x : x; }
static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* p, q, z in line order (q in the middle): the line options. */
static int line_ok(const Glory *g, int p, int q)
{
    int dr = (q >> 3) - (p >> 3), dc = (q & 7) - (p & 7);
    if (g->R->glorious_lines == RM_LINES_ORTHOGONAL && dr && dc)
        return 0;
    if (g->R->glorious_lines == RM_LINES_ORTH_DIAG && dr && dc && iabs(dr) != iabs(dc))
        return 0;
    if (g->R->glorious_unobstructed) {
        int k = gcd(iabs(dr), iabs(dc)), sr = dr / k, sc = dc / k;
        for (int e = 0; e < 2; e++) {
            int r0 = ((e ? q : p) >> 3), c0 = ((e ? q : p) & 7);
            for (int j = 1; j < k; j++)
                if (g->occ >> ((r0 + j * sr) * RM_FILES + c0 + j * sc) & 1)
                    return 0;
        }
    }
    return 1;
}

/* Some values of p, q, z in progression (with `middle`'s value in the middle when >= 0). */
static int values_ok(const Glory *g, int p, int q, int z, int middle)
{
    for (int i = 0; i < g->nv[p]; i++)
        for (int j = 0; j < g->nv[q]; j++)
            for (int k = 0; k < g->nv[z]; k++) {
                int64_t a = g->v[p][i], b = g->v[q][j], c = g->v[z][k];
                if (!progression(a, b, c, g->literal))
                    continue;
                if (middle < 0)
                    return 1;
                int64_t mid = middle == p ? a : middle == q ? b : c;
                int64_t lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
                int64_t hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
                if ((lo < mid && mid < hi) || (g->literal && lo == hi))
                    return 1;
            }
    return 0;
}

static int sign(int x) { return (x > 0) - (x < 0); }

/* The reference's missed right angle (literal only): arms to the East and to the South. */
static int angle_ok(const Glory *g, int corner, int p, int q)
{
    if (!g->literal)
        return 1;
    int r0 = corner >> 3, c0 = corner & 7;
    int a[2][2] = {{sign((p >> 3) - r0), sign((p & 7) - c0)}, {sign((q >> 3) - r0), sign((q & 7) - c0)}};
    int east_south = (a[0][0] == 0 && a[0][1] == 1 && a[1][0] == -1 && a[1][1] == 0)
                     || (a[1][0] == 0 && a[1][1] == 1 && a[0][0] == -1 && a[0][1] == 0);
    return !east_south;
}

static int lines_from(const Glory *g, int x, int y)
{
    int ordered = g->R->glorious_ordered;
    int rx = x >> 3, cx = x & 7, ry = y >> 3, cy = y & 7, dr = ry - rx, dc = cy - cx;
    int z = at(g, ry + dr, cy + dc);
    if (z >= 0 && line_ok(g, x, y) && values_ok(g, x, y, z, ordered ? y : -1))
        return 1;
    z = at(g, rx - dr, cx - dc);
    if (z >= 0 && line_ok(g, z, x) && values_ok(g, z, x, y, ordered ? x : -1))
        return 1;
    if (!(dr & 1) && !(dc & 1)) {
        z = at(g, rx + dr / 2, cx + dc / 2);
        if (z >= 0 && line_ok(g, x, z) && values_ok(g, x, z, y, ordered ? z : -1))
            return 1;
    }
    return 0;
}

static int angles_from(const Glory *g, int x, int y)
{
    int pair[2][2] = {{x, y}, {y, x}};
    for (int e = 0; e < 2; e++) {
        int corner = pair[e][0], other = pair[e][1];
        int r0 = corner >> 3, c0 = corner & 7, ro = other >> 3, co = other & 7;
        if ((ro == r0) == (co == c0))
            continue;
        int k = iabs(ro - r0) + iabs(co - c0);
        int thirds[2][2] = {{r0 + k, c0}, {r0 - k, c0}};
        if (ro != r0)
            thirds[0][0] = thirds[1][0] = r0, thirds[0][1] = c0 + k, thirds[1][1] = c0 - k;
        for (int j = 0; j < 2; j++) {
            int z = at(g, thirds[j][0], thirds[j][1]);
            if (z >= 0 && angle_ok(g, corner, other, z) && values_ok(g, x, y, z, -1))
                return 1;
        }
    }
    int dr = (y >> 3) - (x >> 3), dc = (y & 7) - (x & 7);
    if (iabs(dr) == iabs(dc) && dr) {
        int thirds[2][2] = {{x >> 3, y & 7}, {y >> 3, x & 7}};
        for (int j = 0; j < 2; j++) {
            int z = at(g, thirds[j][0], thirds[j][1]);
            if (z >= 0 && angle_ok(g, z, x, y) && values_ok(g, x, y, z, -1))
                return 1;
        }
    }
    return 0;
}

int rm_glorious_win(const RmRules *R, const RmPos *p, int side)
{
    if (R->glorious == RM_GLORY_AFTER_PYRAMID && p->bb[side ^ 1][RM_PYRAMID])
        return 0;
    rm_bb area = R->territory[side];
    rm_bb own = rm_occ(p, side) & area;
    if (!own)
        return 0;
    Glory g;
    g.R = R;
    g.literal = R->glorious_literal;
    g.occ = rm_occ(p, 0) | rm_occ(p, 1);
    g.area_occ = g.occ & area;
    for (rm_bb m = g.area_occ; m; m &= m - 1)
        load_values(&g, p, rm_ctz(m));
    if (g.literal)
        for (rm_bb m = own & p->bb[side][RM_PYRAMID]; m; m &= m - 1)
            if (three_from_one(g.v[rm_ctz(m)], g.nv[rm_ctz(m)]))
                return 1;
    for (rm_bb m = own; m; m &= m - 1) {
        int x = rm_ctz(m);
        for (rm_bb n = g.area_occ; n; n &= n - 1) {
            int y = rm_ctz(n);
            if (y != x && (lines_from(&g, x, y) || angles_from(&g, x, y)))
                return 1;
        }
    }
    return 0;
}

/* --- outcome and evaluation ------------------------------------------------------------------------ */

static int ply_capped(const RmRules *R, const RmPos *p) { return R->max_plies && p->ply >= R->max_plies; }

/* RithmomachiaState.outcome: GAME_OVER with the first player's score, or GAME_RUNNING. */
int rm_outcome(const RmRules *R, RmPos *p, double *result)
{
    if (p->result >= 0) {
        *result = p->result == R->first ? 1.0 : 0.0;
        return GAME_OVER;
    }
    if (ply_capped(R, p)) {
        *result = 0.5;
        return GAME_OVER;
    }
    if (p->movable < 0)
        p->movable = rm_has_moves(R, p);
    if (p->movable)
        return GAME_RUNNING;
    *result = !R->no_moves_loss ? 0.5 : (p->side == R->first ? 0.0 : 1.0);
    return GAME_OVER;
}

/* RithmomachiaState.advancement: captured count or value over what a common victory needs. */
static double advancement(const RmRules *R, const RmPos *p, int colour)
{
    double count = (double)p->caps[2 * colour] / (double)R->win_count;
    double value = (double)p->caps[2 * colour + 1] / (double)R->thresholds[colour];
    return value > count ? value : count;
}

double rm_evaluate(const RmRules *R, RmPos *p)
{
    double r;
    if (rm_outcome(R, p, &r) == GAME_OVER)
        return r;
    double diff = advancement(R, p, R->first) - advancement(R, p, R->first ^ 1);
    double v = 0.5 + diff / 2;
    v = 0.0 > v ? 0.0 : v;
    return 1.0 < v ? 1.0 : v;
}
