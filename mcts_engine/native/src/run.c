/* The search loop: one or several trees of one position, searched until a limit.
 *
 * The core owns the clock, as Stockfish's and Scan's searches do: the calling thread runs tree
 * 0 and each other tree runs on a thread of its own; every searcher looks at the limits after
 * each iteration (its share of the node limit, the deadline, the tree depth, a proven root),
 * at the client's stop flag, and at the search's own end (`Halt.done`, set by whichever
 * searcher reached a limit that ends them all); a playout sees both flags too.  Under a clock,
 * tree 0 also stops the search between the time aimed at and the deadline by the clock's rule
 * (clock_says_stop: a clear choice ends early, an unclear one takes longer).  The calling
 * thread alone calls back, on a beat or at node counts, to report progress.  A searcher thread
 * holds its tree's lock while it iterates, a few iterations at a time, so that a report reads
 * a tree between iterations.
 */
#define _POSIX_C_SOURCE 200809L
#include "search_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 16             /* iterations a searcher thread runs between two releases of its lock */
#define CLOCK_EVERY 256      /* tree 0's iterations between two looks at the clock's rule */
#define IDLE_NS 200000       /* how long the calling thread sleeps when its own tree is done */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    Tree *t;
    int64_t share;              /* iterations to run, < 0: no limit */
    int64_t start;              /* the tree's iterations when the run began */
    const RunLimits *limits;
    double deadline;            /* 0: none */
    Halt *halt;
    atomic_llong iterations;    /* published after each iteration, for the reports */
    atomic_int finished;
    int failed;
    pthread_t thread;
} Searcher;

static void end_search(Halt *h) { atomic_store_explicit(&h->done, 1, memory_order_relaxed); }

/* The flags alone (between iterations, where the deadline is looked at after each one). */
static int flagged(const Halt *h)
{
    return atomic_load_explicit(&h->done, memory_order_relaxed)
           || (h->stop && atomic_load_explicit(h->stop, memory_order_relaxed));
}

int halted(const Halt *h)
{
    return h && (flagged(h) || (h->deadline > 0.0 && now_seconds() >= h->deadline));
}

/* One iteration of a searcher with the checks around it: 1 go on, 0 this searcher is done,
 * -1 failed (the tree's error says why). */
static int step(Searcher *s)
{
    Tree *t = s->t;
    if (flagged(s->halt) || (s->share >= 0 && t->iterations - s->start >= s->share))
        return 0;
    if (tree_root_done(t)) {
        if (s->share < 0)         /* under a node limit each tree runs to its own share or proof: */
            end_search(s->halt);  /* the same counts every run; otherwise a proof ends the search */
        return 0;
    }
    if (tree_prune_if_full(t) < 0 || tree_iterate(t) < 0) {
        if (!t->error)
            t->error = ERR_GAME;
        end_search(s->halt);
        return -1;
    }
    atomic_store_explicit(&s->iterations, t->iterations - s->start, memory_order_relaxed);
    if ((s->limits->depth > 0 && t->seldepth >= s->limits->depth)
        || (s->deadline > 0.0 && now_seconds() >= s->deadline)) {
        end_search(s->halt);
        return 0;
    }
    return 1;
}

static void *searcher_thread(void *arg)
{
    Searcher *s = arg;
    int go = 1;
    while (go > 0) {
        pthread_mutex_lock(&s->t->lock);
        for (int k = 0; k < BATCH && (go = step(s)) > 0; k++)
            ;
        pthread_mutex_unlock(&s->t->lock);
    }
    s->failed = go < 0;
    atomic_store_explicit(&s->finished, 1, memory_order_release);
    return NULL;
}

/* The calling thread's reports: on a fixed beat (a search that fell a whole beat behind starts
 * a new one), or each time the summed iterations pass a multiple of report_nodes below the
 * node limit (a seeded one-tree search then reports at the same counts every run). */
typedef struct {
    ReportFn fn;
    void *ctx;
    double next;                /* the next beat */
    int64_t reported, total;    /* report_nodes blocks reported; the node limit (< 0: none) */
} Reports;

static int64_t total_iterations(Searcher *s, int n)
{
    int64_t sum = 0;
    for (int k = 0; k < n; k++)
        sum += atomic_load_explicit(&s[k].iterations, memory_order_relaxed);
    return sum;
}

static int report_due(Reports *r, const RunLimits *l, Searcher *s, int n)
{
    if (!r->fn)
        return 0;
    if (l->report_nodes > 0) {
        int64_t done = total_iterations(s, n), block = done / l->report_nodes;
        if (block > r->reported && (r->total < 0 || done < r->total)) {
            r->reported = block;
            return 1;
        }
        return 0;
    }
    if (l->report_seconds <= 0.0)
        return 0;
    double t = now_seconds();
    if (t < r->next)
        return 0;
    r->next += l->report_seconds;
    if (r->next <= t)
        r->next = t + l->report_seconds;
    return 1;
}

int clock_says_stop(double elapsed, double soft, double hard, double rate, double best, double second, int n_moves)
{
    (void)hard;                  /* the hard limit is the deadline itself */
    if (n_moves == 1)
        return 1;
    double left = soft - elapsed;
    if (left > 0.0)
        return best - second > rate * left;
    return best >= 2.0 * second;
}

/* Under a clock (a time aimed at below the deadline), tree 0's root read by its own thread. */
static int clock_stop(Searcher *s, double start)
{
    const RunLimits *l = s->limits;
    if (!(l->soft_seconds > 0.0 && l->soft_seconds < l->seconds))
        return 0;
    Tree *t = s->t;
    int64_t done = t->iterations - s->start;
    if (done == 0 || done % CLOCK_EVERY)
        return 0;
    double elapsed = now_seconds() - start, best, second;
    int n_moves = tree_root_lead(t, &best, &second);
    return elapsed > 0.0 && clock_says_stop(elapsed, l->soft_seconds, l->seconds, (double)done / elapsed, best, second,
                                            n_moves);
}

static int all_finished(Searcher *s, int n)
{
    for (int k = 1; k < n; k++)
        if (!atomic_load_explicit(&s[k].finished, memory_order_acquire))
            return 0;
    return 1;
}

static void idle(void)
{
    struct timespec ts = {0, IDLE_NS};
    nanosleep(&ts, NULL);
}

/* Tree 0 on this thread, reports between its iterations, until every searcher is done. */
static int lead(Searcher *s, int n, Reports *reports, double start)
{
    const RunLimits *l = s[0].limits;
    int mine = 1, failed = 0;
    for (unsigned ticks = 0;; ticks++) {
        if (mine) {
            int go = step(&s[0]);
            if (go < 0)
                failed = 1;
            if (go > 0 && clock_stop(&s[0], start)) {
                end_search(s[0].halt);
                go = 0;
            }
            mine = go > 0;
        }
        /* the clock every 8 iterations for a beat; node counts after every one */
        int look = l->report_nodes > 0 || !mine || (ticks & 7) == 0;
        if (!failed && look && report_due(reports, l, s, n) && reports->fn(reports->ctx) < 0) {
            s[0].t->error = ERR_GAME;
            end_search(s[0].halt);
            failed = 1;
            mine = 0;
        }
        if (!mine) {
            if (all_finished(s, n))
                return failed ? -1 : 0;
            idle();
        }
    }
}

int search_run(Tree **trees, int n, const RunLimits *limits, const atomic_int *stop, ReportFn report, void *ctx)
{
    double start = now_seconds();
    Halt halt = {.stop = stop, .deadline = limits->seconds > 0.0 ? start + limits->seconds : 0.0};
    atomic_init(&halt.done, 0);
    Searcher *s = calloc((size_t)n, sizeof(Searcher));
    if (!s) {
        trees[0]->error = ERR_MEMORY;
        return -1;
    }
    trees[0]->check_depth = trees[0]->check_dropped = 0;     /* this run's check, if it runs one */
    trees[0]->check_nodes = 0;
    int check = limits->root_check < 0 ? trees[0]->s.root_check : limits->root_check;
    if (check > 0 && !tree_root_done(trees[0])) {
        double aim = limits->soft_seconds > 0.0 ? limits->soft_seconds : limits->seconds;
        if (root_check(trees, n, check, aim > 0.0 ? start + trees[0]->s.root_share * aim : 0.0, stop) < 0) {
            free(s);
            return -1;
        }
    }
    int64_t total = 0;
    for (int k = 0; k < n; k++) {
        s[k].t = trees[k];
        s[k].share = limits->shares[k];
        s[k].start = trees[k]->iterations;
        s[k].limits = limits;
        s[k].deadline = limits->seconds > 0.0 ? start + limits->seconds : 0.0;
        s[k].halt = &halt;
        atomic_init(&s[k].iterations, 0);
        atomic_init(&s[k].finished, 0);
        trees[k]->halt = &halt;
        trees[k]->error = ERR_NONE;
        total = total < 0 || limits->shares[k] < 0 ? -1 : total + limits->shares[k];
    }
    int started = 1, failed = 0;
    for (; started < n; started++)
        if (pthread_create(&s[started].thread, NULL, searcher_thread, &s[started]) != 0) {
            trees[started]->error = ERR_MEMORY;   /* no thread: the search goes on without that tree */
            atomic_store(&s[started].finished, 1);
            s[started].failed = 1;
            break;
        }
    for (int k = started + 1; k < n; k++)
        atomic_store(&s[k].finished, 1);
    Reports reports = {report, ctx, start + limits->report_seconds, 0, total};
    failed = lead(s, started < n ? started + 1 : n, &reports, start) < 0;
    for (int k = 1; k < started; k++) {
        pthread_join(s[k].thread, NULL);
        failed |= s[k].failed;
    }
    if (started < n)
        failed = 1;
    for (int k = 0; k < n; k++)
        trees[k]->halt = NULL;
    free(s);
    return failed ? -1 : 0;
}
