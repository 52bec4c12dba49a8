/* The final move: the one definition of which root move a search plays, for one tree and for
 * several (root parallel on threads here, or worker processes merged through the Python
 * object's merge_roots), with the searchers' statistics summed or their choices voted on. */
#include "search_internal.h"

#include <stdlib.h>
#include <string.h>

static double mean(const ChildStat *c) { return c->n > 0.0 ? c->w / c->n : 0.5; }

int final_choice(const ChildStat *c, int n, int final_move)
{
    int best = -1;
    for (int i = 0; i < n; i++)                  /* the shortest proven win */
        if (c[i].proven == 2 && (best < 0 || c[i].proof < c[best].proof))
            best = i;
    if (best >= 0)
        return best;
    for (int i = 0; i < n; i++) {                /* the best child that is not a proven loss */
        if (c[i].proven == 0)
            continue;
        if (best < 0) {
            best = i;
            continue;
        }
        const ChildStat *x = &c[i], *b = &c[best];
        if (final_move == FINAL_MAX) {
            double vx = x->proven != PROVEN_NONE ? proven_value(x->proven) : mean(x);
            double vb = b->proven != PROVEN_NONE ? proven_value(b->proven) : mean(b);
            if (vx > vb || (vx == vb && x->n > b->n))
                best = i;
        } else if (x->n > b->n || (x->n == b->n && mean(x) > mean(b))) {
            best = i;
        }
    }
    if (best >= 0)
        return best;
    for (int i = 0; i < n; i++)                  /* the loss that lasts longest */
        if (best < 0 || c[i].proof > c[best].proof)
            best = i;
    return best;
}

void child_add(ChildStat *into, const ChildStat *more)
{
    into->n += more->n;
    into->w += more->w;
    into->d += more->d;
    if (into->proven == PROVEN_NONE && more->proven != PROVEN_NONE) {
        into->proven = more->proven;
        into->proof = more->proof;
    }
}

int vote_choice(const ChildStat *c, int n, const int *votes, int n_votes)
{
    int best = final_choice(c, n, FINAL_ROBUST);
    if (best < 0 || c[best].proven != PROVEN_NONE)
        return best;                             /* a proof overrides the vote */
    int *count = calloc((size_t)(n ? n : 1), sizeof(int));
    int *order = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!count || !order) {
        free(count);
        free(order);
        return best;
    }
    int seen = 0;
    for (int k = 0; k < n_votes; k++) {
        int i = votes[k];
        if (i < 0 || i >= n || c[i].proven == 0)
            continue;
        if (!count[i]++)
            order[seen++] = i;
    }
    int chosen = -1;
    for (int k = 0; k < seen; k++) {             /* the most votes; ties to more visits, then the first voted */
        int i = order[k];
        if (chosen < 0 || count[i] > count[chosen] || (count[i] == count[chosen] && c[i].n > c[chosen].n))
            chosen = i;
    }
    free(count);
    free(order);
    return chosen >= 0 ? chosen : best;
}

int tree_children(const Tree *t, ChildStat *out)
{
    if (!t->root)
        return 0;
    const Node *r = &t->nodes[t->root];
    int k = 0;
    for (uint32_t i = r->first; r->listed && i < r->first + r->n_open; i++, k++) {
        const Node *c = &t->nodes[i];
        out[k].move = c->move;
        out[k].n = c->n;
        out[k].w = c->w;
        out[k].d = c->d;
        out[k].proven = c->proven;
        out[k].proof = c->proof;
    }
    return k;
}

/* The index of `m` among `c[0..n)`, -1 none, -2 on an error of the game's comparison. */
static int find_move(const GameIface *g, const ChildStat *c, int n, const MoveSlot *m)
{
    for (int i = 0; i < n; i++) {
        int eq = g->ops->move_equal(g, &c[i].move, m);
        if (eq < 0)
            return -2;
        if (eq == GAME_YES)
            return i;
    }
    return -1;
}

static int open_children(const Tree *t) { return t->root && t->nodes[t->root].listed ? t->nodes[t->root].n_open : 0; }

/* Tree t's children merged into s->children, which has room for `*cap` (grown as needed; the
 * tree's lock held by the caller); its own final choice into *vote (an index into the merged
 * list, -1 none).  0 ok, -1 error. */
static int merge_tree(Tree *t, Snapshot *s, int *cap, int *vote)
{
    int m = open_children(t);
    if (s->n_children + m > *cap) {
        int more = 2 * (s->n_children + m);
        ChildStat *grown = realloc(s->children, (size_t)more * sizeof(ChildStat));
        if (!grown)
            return -1;
        s->children = grown;
        *cap = more;
    }
    ChildStat *own = malloc((size_t)(m ? m : 1) * sizeof(ChildStat));
    if (!own)
        return -1;
    m = tree_children(t, own);
    int pick = final_choice(own, m, t->s.final_move);
    *vote = -1;
    for (int i = 0; i < m; i++) {
        int at = find_move(t->g, s->children, s->n_children, &own[i].move);
        if (at == -2) {
            free(own);
            return -1;
        }
        if (at < 0) {
            at = s->n_children++;
            s->children[at] = own[i];
        } else {
            child_add(&s->children[at], &own[i]);
        }
        if (i == pick)
            *vote = at;
    }
    free(own);
    s->iterations += t->iterations;
    s->depth_sum += t->depth_sum;
    if (t->seldepth > s->seldepth)
        s->seldepth = t->seldepth;
    int full = tree_hashfull(t);
    if (full > s->hashfull)
        s->hashfull = full;
    return 0;
}

/* A searcher thread holds its tree's lock while it iterates; tree 0 is the caller's own. */
static void lock_tree(Tree **trees, int k)
{
    if (k > 0)
        pthread_mutex_lock(&trees[k]->lock);
}

static void unlock_tree(Tree **trees, int k)
{
    if (k > 0)
        pthread_mutex_unlock(&trees[k]->lock);
}

/* The longest principal variation through the chosen move over the trees (the first such
 * tree's on a tie); at least the move itself.  0 ok, -1 error. */
static int longest_pv(Tree **trees, int n, Snapshot *out)
{
    MoveSlot line[PV_CAP];
    for (int k = 0; k < n; k++) {
        lock_tree(trees, k);
        int len = tree_pv(trees[k], &out->children[out->best].move, line, PV_CAP);
        if (len > out->pv_len) {
            memcpy(out->pv, line, (size_t)len * sizeof(MoveSlot));
            out->pv_len = len;
        }
        unlock_tree(trees, k);
        if (len < 0)
            return -1;
    }
    if (!out->pv_len) {
        out->pv[0] = out->children[out->best].move;
        out->pv_len = 1;
    }
    return 0;
}

int search_snapshot(Tree **trees, int n, Snapshot *out)
{
    memset(out, 0, sizeof(*out));
    out->best = -1;
    int cap = 0;
    int *votes = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!votes)
        return -1;
    for (int k = 0; k < n; k++) {
        lock_tree(trees, k);
        int err = merge_tree(trees[k], out, &cap, &votes[k]);
        unlock_tree(trees, k);
        if (err) {
            free(votes);
            snapshot_free(out);
            return -1;
        }
    }
    const SearchSettings *s = &trees[0]->s;
    out->best = final_choice(out->children, out->n_children, s->final_move);
    if (out->best >= 0 && s->merge == MERGE_VOTE && n > 1)
        out->best = vote_choice(out->children, out->n_children, votes, n);
    free(votes);
    if (out->best >= 0 && longest_pv(trees, n, out) < 0) {
        snapshot_free(out);
        return -1;
    }
    return 0;
}

void snapshot_free(Snapshot *s)
{
    free(s->children);
    s->children = NULL;
    s->n_children = 0;
}
