/* The endgame tables' move graph on one board word (included by draughts_impl.h, after the
 * move generator and the tables' index): every placement of one material, its legal moves,
 * and where each quiet move leads in the numbering of the material after it, for the solver
 * of tables/solve.py.  The numbering is the one table_index (and tables/material.py) gives:
 * each piece class's squares ranked among the combinations of the board's points, in mixed
 * radix.  The Python walk of solve.py (_list_moves) stays the reference this is checked against.
 */

#define GRAPH_MAX_CLASS 8         /* pieces of one class: the tables stop at 6 pieces */

/* cum[t][x]: the sum of binom(n - 1 - j, t) for j < x, so that a combination's rank (the
 * rank combination_rank gives) is a sum of k differences instead of a loop over the points. */
typedef struct { int64_t cum[GRAPH_MAX_CLASS][129]; int n; } RankTable;

static void rank_table(const Rules *r, RankTable *t)
{
    t->n = r->n_points;
    for (int k = 0; k < GRAPH_MAX_CLASS; k++) {
        t->cum[k][0] = 0;
        for (int x = 0; x < t->n; x++)
            t->cum[k][x + 1] = t->cum[k][x] + binom(t->n - 1 - x, k);
    }
}

/* The rank of a mask of k points (k = its popcount) among the combinations of k points. */
static inline int64_t fast_rank(const Rules *r, const RankTable *t, BB mask, int k)
{
    int64_t rank = 0;
    int prev = -1;
    for (int i = 1; mask; i++) {
        BB low = LOWBIT(mask);
        mask ^= low;
        int a = r->ordinal[CTZ(low)];
        rank += t->cum[k - i][a] - t->cum[k - i][prev + 1];
        prev = a;
    }
    return rank;
}

/* Every mask of k of the board's points, in rank order (the lexicographic order of the
 * points' combinations); NULL out of memory. */
static BB *combination_masks(const Rules *r, int k, int64_t *count)
{
    int n = r->n_points, idx[GRAPH_MAX_CLASS];
    BB point[128];
    for (int b = 0, m = 0; b < (int)(8 * sizeof(BB)) && m < n; b++)
        if (r->ordinal[b] >= 0)
            point[m++] = (BB)1 << b;
    *count = binom(n, k);
    BB *out = malloc((size_t)(*count > 0 ? *count : 1) * sizeof(BB));
    if (!out)
        return NULL;
    for (int i = 0; i < k; i++)
        idx[i] = i;
    for (int64_t c = 0; c < *count; c++) {
        BB mask = 0;
        for (int i = 0; i < k; i++)
            mask |= point[idx[i]];
        out[c] = mask;
        int i = k - 1;
        while (i >= 0 && idx[i] == n - k + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
    return out;
}

/* A growing list of the moves that leave the material (captures, crownings). */
typedef struct { TableExit *e; int64_t n, cap; } ExitList;

/* One table_graph call: the material after a quiet move (its classes and mixed-radix weights),
 * the arrays it fills, and its move lists. */
typedef struct {
    const Rules *r;
    RankTable ranks;
    int turn, after[4];
    int64_t after_weight[3];
    uint8_t *valid;
    int32_t *degree, *limit;
    const int64_t *starts;
    int64_t *targets;
    ExitList exits;
    Scratch s;
} Graph;

/* The move `m` of the position (own, opp, kings) leaves the material: its slot, and the
 * position after it (the Python rules' DraughtsGame.child) as its material and index there. */
static int exit_push(Graph *g, int64_t at, BB own, BB opp, BB kings, const Move *m)
{
    ExitList *x = &g->exits;
    if (x->n == x->cap) {
        int64_t cap = x->cap ? 2 * x->cap : 1024;
        TableExit *e = realloc(x->e, (size_t)cap * sizeof(TableExit));
        if (!e)
            return -1;
        x->e = e;
        x->cap = cap;
    }
    Key c = raw_child(own, opp, kings, g->turn, m);
    int classes[4] = {POPCNT(c.own & c.kings), POPCNT(c.own & ~c.kings), POPCNT(c.opp & c.kings),
                      POPCNT(c.opp & ~c.kings)};
    TableExit *t = &x->e[x->n++];
    memset(t, 0, sizeof(*t));
    for (int c = 0; c < 4; c++)
        t->classes[c] = (int8_t)classes[c];
    t->turn = (int8_t)(classes[1] || classes[3] ? c.turn : 0);
    t->at = at;
    t->index = c.own ? table_index(g->r, c.own, c.opp, c.kings, classes) : -1;
    return 0;
}

/* One placement's entries: on the first pass (no targets) its flag, move count and endgame
 * count; on the second its moves. */
static int graph_placement(Graph *g, BB own, BB opp, BB kings, int64_t slot)
{
    const Rules *r = g->r;
    int n = legal(r, own, opp, kings, g->turn, 0, &g->s);
    if (n < 0)
        return -1;
    if (!g->targets) {
        g->valid[slot] = 1;
        g->degree[slot] = n;
        if (g->limit) {
            int found = endgame_limit(r, own, opp, kings);
            g->limit[slot] = found < 0 ? INT32_MAX : found;
        }
        return 0;
    }
    /* the side not moving becomes the side to move: its ranks are the same for every move */
    const RankTable *t = &g->ranks;
    const int *after = g->after;
    const int64_t *w = g->after_weight;
    int64_t base = fast_rank(r, t, opp & kings, after[0]) * w[0] + fast_rank(r, t, opp & ~kings, after[1]) * w[1];
    for (int i = 0; i < n; i++) {
        const Move *m = &g->s.moves[i];
        int64_t at = g->starts[slot] + i;
        if (m->cap || m->crowned) {
            g->targets[at] = -1;
            if (exit_push(g, at, own, opp, kings, m) < 0)
                return -1;
            continue;
        }
        Key c = raw_child(own, opp, kings, g->turn, m);      /* c.own is opp, ranked once above */
        g->targets[at] = base + fast_rank(r, t, c.opp & c.kings, after[2]) * w[2] + fast_rank(r, t, c.opp & ~c.kings, after[3]);
    }
    return 0;
}

/* Every placement of `classes` (the men off their crowning rows), slot by slot in the
 * numbering's mixed radix. */
static int graph_placements(Graph *g, const int classes[4])
{
    BB *masks[4] = {NULL, NULL, NULL, NULL};
    int64_t count[4];
    int status = -1;
    for (int c = 0; c < 4; c++)
        if (!(masks[c] = combination_masks(g->r, classes[c], &count[c])))
            goto done;
    BB own_rows = g->r->promo[g->turn], opp_rows = g->r->promo[1 - g->turn];   /* where each side's men cannot stand */
    for (int64_t a = 0; a < count[0]; a++) {
        for (int64_t b = 0; b < count[1]; b++) {
            BB ka = masks[0][a], mb = masks[1][b];
            if (mb & (ka | own_rows))
                continue;
            for (int64_t c = 0; c < count[2]; c++) {
                BB kc = masks[2][c];
                if (kc & (ka | mb))
                    continue;
                int64_t slot = ((a * count[1] + b) * count[2] + c) * count[3];
                for (int64_t d = 0; d < count[3]; d++) {
                    BB md = masks[3][d];
                    if (!(md & (ka | mb | kc | opp_rows)) && graph_placement(g, ka | mb, kc | md, ka | kc, slot + d) < 0)
                        goto done;
                }
            }
        }
    }
    status = 0;
done:
    for (int c = 0; c < 4; c++)
        free(masks[c]);
    return status;
}

static int table_graph(const Rules *r, const int classes[4], int turn, const int after[4], uint8_t *valid,
                       int32_t *degree, int32_t *limit, const int64_t *starts, int64_t *targets,
                       TableExit **exits, int64_t *n_exits)
{
    for (int c = 0; c < 4; c++)
        if (classes[c] >= GRAPH_MAX_CLASS || after[c] >= GRAPH_MAX_CLASS)
            return -1;
    Graph *g = calloc(1, sizeof(Graph));
    if (!g)
        return -1;
    g->r = r;
    rank_table(r, &g->ranks);
    g->turn = turn;
    memcpy(g->after, after, sizeof(g->after));
    g->after_weight[2] = binom(r->n_points, after[3]);
    g->after_weight[1] = g->after_weight[2] * binom(r->n_points, after[2]);
    g->after_weight[0] = g->after_weight[1] * binom(r->n_points, after[1]);
    g->valid = valid;
    g->degree = degree;
    g->limit = limit;
    g->starts = starts;
    g->targets = targets;
    int status = graph_placements(g, classes);
    scratch_free(&g->s);
    if (status == 0) {
        *exits = g->exits.e;
        *n_exits = g->exits.n;
    } else {
        free(g->exits.e);
    }
    free(g);
    return status;
}
