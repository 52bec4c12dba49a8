/* The draughts move generator and game loop for one board word.
 *
 * Included once by draughts64.c (BB = u64) and once by draughts128.c (BB = u128), each of
 * which defines POPCNT and CTZ for its word first; everything here is static to that file but
 * the word's table, THIS_WORD (the KernelWord of draughts.h), which the file exports by its
 * name (KERNEL_WORD_64, KERNEL_WORD_128).  Each function follows its Python reference in
 * rules/draughts/ (generator.py and state.py) loop for loop, so both list the same moves in
 * the same order and a playout fed the same random numbers plays the same game;
 * tests/native/test_native_draughts.py checks it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draughts.h"

/* A move, a repetition key, a position (its counters, Frisian runs and repetition history)
 * and the move lists' scratch buffers, on this word. */
typedef struct { BB frm, to, cap; int crowned; } Move;
typedef struct { BB own, opp, kings; int turn; } Key;
typedef struct {
    BB own, opp, kings; int turn;
    int64_t ply, progress_ply, capture_ply;
    int drawn;
    BB run_sq[2]; int64_t run_n[2];
    Key *hist; size_t n_hist, cap_hist;
    size_t n_kept;            /* the first keys, still those the position came with */
} Pos;
typedef struct {
    Move *moves; size_t n, cap;
    Move *seqs; int *seq_len, *seq_first_king; size_t n_seqs, cap_seqs;   /* capture sequences before the choice rule */
    int oom;
} Scratch;

_Static_assert(sizeof(Pos) <= KERNEL_POS_BYTES && _Alignof(Pos) <= _Alignof(PosBuf), "a Pos fits a PosBuf");
_Static_assert(sizeof(Scratch) <= KERNEL_SCRATCH_BYTES && _Alignof(Scratch) <= _Alignof(ScratchBuf),
               "a Scratch fits a ScratchBuf");

/* The raw position after a legal move, the other side to move (DraughtsGame.child): perft and
 * the tables' move graph walk positions without counters. */
static inline Key raw_child(BB own, BB opp, BB kings, int turn, const Move *m)
{
    BB k = kings & m->frm ? kings ^ m->frm ^ m->to : m->crowned ? kings | m->to : kings;
    Key c = {opp & ~m->cap, own ^ m->frm ^ m->to, k & ~m->cap, turn ^ 1};
    return c;
}

/* A move in the 128-bit form the code serving both words reads (KernelMove), and back. */
static inline KernelMove wide_move(const Move *m)
{
    KernelMove w = {m->frm, m->to, m->cap, m->crowned};
    return w;
}

static inline Move narrow_move(const KernelMove *w)
{
    Move m = {(BB)w->frm, (BB)w->to, (BB)w->cap, w->crowned};
    return m;
}

static inline BB SH(BB x, int d) { return d >= 0 ? x << d : x >> -d; }
static inline BB LOWBIT(BB x) { return x & (~x + 1); }

/* ------------------------------------------------------------------------------------------
 * One whole-board pass over the side to move (MoveGenerator.scan): the pieces that may start
 * a capture (0: none, the steps are the moves), and the steps as buckets: each set bit t of
 * `targets` is the step from t shifted back by `delta`.
 * ---------------------------------------------------------------------------------------- */
typedef struct { BB targets; int delta, n; } Bucket;
typedef struct { BB jumpers; int count, nb; Bucket b[MAX_BUCKETS]; } ScanOut;

static inline void add_bucket(ScanOut *o, BB t, int delta)
{
    int n = POPCNT(t);
    o->b[o->nb].targets = t;
    o->b[o->nb].delta = delta;
    o->b[o->nb].n = n;
    o->nb++;
    o->count += n;
}

static int flying_capture(const Rules *r, BB mine, BB opp, BB empty)
{
    for (int i = 0; i < r->n_king_jump; i++) {
        int d = r->king_jump[i];
        BB x = mine;
        while (x) {
            x = SH(x, d);
            if ((x & opp) && (SH(x & opp, d) & empty))
                return 1;
            x &= empty;
        }
    }
    return 0;
}

/* Flying kings: step buckets per direction and distance (MoveGenerator._king_rays); stops at
 * the first capture found.  `frozen` kings are only tested for captures. */
static int king_rays(const Rules *r, BB steppers, BB frozen, BB opp, BB empty, ScanOut *o)
{
    for (int i = 0; i < r->n_king_step_up; i++) {
        int d = r->king_step_up[i], k = d;
        BB x = steppers;
        while (x) {
            x <<= d;
            if (((x & opp) << d) & empty)
                return 1;
            x &= empty;
            if (x)
                add_bucket(o, x, k);
            k += d;
        }
    }
    for (int i = 0; i < r->n_king_step_down; i++) {
        int d = r->king_step_down[i], k = d;
        BB x = steppers;
        while (x) {
            x >>= d;
            if (((x & opp) >> d) & empty)
                return 1;
            x &= empty;
            if (x)
                add_bucket(o, x, -k);
            k += d;
        }
    }
    if (!r->king_jump_equals_step || frozen)
        return flying_capture(r, frozen | steppers, opp, empty);
    return 0;
}

static void scan(const Rules *r, BB own, BB opp, BB kings, int turn, BB frozen, ScanOut *o)
{
    BB empty = (BB)r->points ^ (own | opp);
    BB mine = own & kings, men = own ^ mine;
    BB prey = r->man_takes_king ? opp : opp ^ (opp & kings);
    BB movers[4] = {0, men, mine, own};
    BB steppers[4] = {0, men, mine, own};
    const Plan *plan;
    if (!mine) {
        plan = &r->plans[turn][0];
    } else if (frozen && !r->flying) {
        plan = &r->plans[turn][2];
        steppers[2] = mine ^ frozen;
        steppers[3] = own ^ frozen;
    } else {
        plan = &r->plans[turn][1];
    }
    BB jumpers = 0;
    o->count = 0;
    o->nb = 0;
    for (int i = 0; i < plan->n_shared_up; i++) {
        const PlanDir *p = &plan->shared_up[i];
        BB a = movers[p->st] << p->d;
        BB t = a & empty;
        if (t)
            add_bucket(o, t, p->d);
        t = ((a & prey) << p->d) & empty;
        if (t)
            jumpers |= t >> p->dd;
    }
    for (int i = 0; i < plan->n_shared_down; i++) {
        const PlanDir *p = &plan->shared_down[i];
        BB a = movers[p->st] >> p->d;
        BB t = a & empty;
        if (t)
            add_bucket(o, t, -p->d);
        t = ((a & prey) >> p->d) & empty;
        if (t)
            jumpers |= t << p->dd;
    }
    for (int i = 0; i < plan->n_split_up; i++) {
        const PlanDir *p = &plan->split_up[i];
        if (p->st) {
            BB t = (steppers[p->st] << p->d) & empty;
            if (t)
                add_bucket(o, t, p->d);
        }
        if (p->ju) {
            BB t = (((movers[p->ju] << p->d) & prey) << p->d) & empty;
            if (t)
                jumpers |= t >> p->dd;
        }
    }
    for (int i = 0; i < plan->n_split_down; i++) {
        const PlanDir *p = &plan->split_down[i];
        if (p->st) {
            BB t = (steppers[p->st] >> p->d) & empty;
            if (t)
                add_bucket(o, t, -p->d);
        }
        if (p->ju) {
            BB t = (((movers[p->ju] >> p->d) & prey) >> p->d) & empty;
            if (t)
                jumpers |= t << p->dd;
        }
    }
    if (mine) {
        if (r->flying) {
            if (jumpers)
                jumpers |= mine;
            else if (king_rays(r, mine ^ frozen, frozen, opp, empty, o))
                jumpers = mine;
        } else if (r->king_only) {
            for (int i = 0; i < r->n_king_only_up; i++) {
                int d = r->king_only_up[i];
                jumpers |= mine & (opp >> d) & (empty >> (2 * d));
            }
            for (int i = 0; i < r->n_king_only_down; i++) {
                int d = r->king_only_down[i];
                jumpers |= mine & (opp << d) & (empty << (2 * d));
            }
        }
    }
    o->jumpers = jumpers;
}

static BB jumpers(const Rules *r, BB own, BB opp, BB kings, int turn)
{
    ScanOut o;
    scan(r, own, opp, kings, turn, 0, &o);
    return o.jumpers;
}

/* ------------------------------------------------------------------------------------------
 * Move lists in the scratch buffers.
 * ---------------------------------------------------------------------------------------- */
static int grow(void **buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *p = realloc(*buf, n * size);
    if (!p)
        return 0;
    *buf = p;
    *cap = n;
    return 1;
}

static inline int push_move(Scratch *s, BB frm, BB to, BB cap, int crowned)
{
    if (s->n == s->cap && !grow((void **)&s->moves, &s->cap, s->n + 1, sizeof(Move))) {
        s->oom = 1;
        return 0;
    }
    Move *m = &s->moves[s->n++];
    m->frm = frm;
    m->to = to;
    m->cap = cap;
    m->crowned = crowned;
    return 1;
}

static int push_seq(Scratch *s, BB frm, BB to, BB cap, int crowned, int len, int first_king)
{
    if (s->n_seqs == s->cap_seqs) {
        size_t cap = s->cap_seqs, need = s->n_seqs + 1;
        size_t c1 = cap, c2 = cap;
        if (!grow((void **)&s->seqs, &cap, need, sizeof(Move))
            || !grow((void **)&s->seq_len, &c1, need, sizeof(int))
            || !grow((void **)&s->seq_first_king, &c2, need, sizeof(int))) {
            s->oom = 1;
            return 0;
        }
        s->cap_seqs = cap;
    }
    size_t i = s->n_seqs++;
    s->seqs[i].frm = frm;
    s->seqs[i].to = to;
    s->seqs[i].cap = cap;
    s->seqs[i].crowned = crowned;
    s->seq_len[i] = len;
    s->seq_first_king[i] = first_king < 0 ? len + 99 : first_king;
    return 1;
}

static void scratch_free(Scratch *s)
{
    free(s->moves);
    free(s->seqs);
    free(s->seq_len);
    free(s->seq_first_king);
    memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------------------------------
 * Capture sequences (MoveGenerator.sequences, _extend, _extend_flying): every complete
 * sequence, before the choice rule, with its length and where its first king was taken.
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    const Rules *r;
    BB kings, frm, promo, points;
    int turn;
    Scratch *s;
} SeqCtx;

static int extend_flying(SeqCtx *c, BB sq, int crowned, BB captured, int ncap, int fk, int last, BB occupied,
                         BB opp)
{
    const Rules *r = c->r;
    BB prey = opp & ~captured, free = c->points & ~occupied;
    int found = 0;
    for (int i = 0; i < r->n_king_jump; i++) {
        int d = r->king_jump[i];
        if (d == -last && !r->king_reverse)
            continue;
        BB s = SH(sq, d);
        while (s & free)
            s = SH(s, d);
        if (!(s & prey))
            continue;
        BB land = SH(s, d);
        if (!(land & free))
            continue;
        found = 1;
        BB cap2 = captured | s;
        int fk2 = (fk < 0 && (s & c->kings)) ? ncap : fk;
        BB occ2 = occupied, opp2 = opp;
        if (r->immediate) {
            occ2 ^= s;
            opp2 ^= s;
        }
        BB finals[16];
        int nf = 0, continuing = 0;
        while (land & free) {
            if (extend_flying(c, land, crowned, cap2, ncap + 1, fk2, d, occ2, opp2))
                continuing = 1;
            else if (!continuing)
                finals[nf++] = land;
            if (r->landing == LAND_NEXT)
                break;
            land = SH(land, d);
        }
        if (!continuing) {
            if (r->landing == LAND_KILLER && (s & c->kings) && nf > 1)
                nf = 1;     /* Killer: after a king as the last piece, just behind it */
            for (int j = 0; j < nf; j++)
                push_seq(c->s, c->frm, finals[j], cap2, crowned, ncap + 1, fk2);
        }
    }
    return found;
}

static int extend(SeqCtx *c, BB sq, int king, int crowned, BB captured, int ncap, int fk, int last, BB occupied,
                  BB opp)
{
    const Rules *r = c->r;
    if (king && r->flying)
        return extend_flying(c, sq, crowned, captured, ncap, fk, last, occupied, opp);
    const int *dirs;
    int nd;
    BB prey;
    if (king) {
        dirs = r->king_jump;
        nd = r->n_king_jump;
        prey = opp & ~captured;
    } else {
        dirs = r->man_jump[c->turn];
        nd = r->n_man_jump[c->turn];
        prey = r->man_takes_king ? opp & ~captured : opp & ~captured & ~c->kings;
    }
    BB empty = c->points & ~occupied;
    int found = 0;
    for (int i = 0; i < nd; i++) {
        int d = dirs[i];
        BB mid = SH(sq, d);
        if (!(mid & prey))
            continue;
        BB land = SH(mid, d);
        if (!(land & empty) || (!r->king_reverse && king && d == -last))
            continue;
        found = 1;
        BB cap2 = captured | mid;
        int fk2 = (fk < 0 && (mid & c->kings)) ? ncap : fk;
        BB occ2 = occupied, opp2 = opp;
        if (r->immediate) {
            occ2 ^= mid;
            opp2 ^= mid;
        }
        int king2 = king;
        if (!king && (land & c->promo)) {
            if (r->promotion == PROMO_STOP) {
                push_seq(c->s, c->frm, land, cap2, 1, ncap + 1, fk2);
                continue;
            }
            king2 = r->promotion == PROMO_FLY;
        }
        if (!extend(c, land, king2, crowned || king2 != king, cap2, ncap + 1, fk2, d, occ2, opp2))
            push_seq(c->s, c->frm, land, cap2, crowned || (!king && (land & c->promo)), ncap + 1, fk2);
    }
    return found;
}

static void sequences(const Rules *r, BB own, BB opp, BB kings, int turn, BB starters, Scratch *s)
{
    SeqCtx c = {r, kings, 0, (BB)r->promo[turn], (BB)r->points, turn, s};
    BB occupied = own | opp;
    s->n_seqs = 0;
    while (starters) {
        BB frm = LOWBIT(starters);
        starters ^= frm;
        c.frm = frm;
        extend(&c, frm, (frm & kings) != 0, 0, 0, 0, -1, 0, occupied ^ frm, opp);
    }
}

/* The lexicographic key of the choice rule (MoveGenerator._choice_key), packed in one int. */
static int64_t choice_key(const Rules *r, const Scratch *s, size_t i, BB kings)
{
    const Move *m = &s->seqs[i];
    int64_t len = s->seq_len[i], nk = POPCNT(m->cap & kings), kf = (m->frm & kings) != 0;
    switch (r->choice) {
    case CHOICE_MAX:
        return len;
    case CHOICE_MAX_KINGS:
        return len * 256 + nk;
    case CHOICE_ITALIAN:
        return ((((len << 1) | kf) << 8 | nk) << 11) | (1024 - s->seq_first_king[i]);
    case CHOICE_FRISIAN:
        return ((len - nk) * 1000 + nk * 1501) * 2 + kf;
    case CHOICE_KING_FIRST:
        return kf;
    default:
        return 0;
    }
}

/* The choice rule, then FMJD-equal sequences merged, first seen first (MoveGenerator.choose). */
static void choose(const Rules *r, BB kings, Scratch *s)
{
    size_t n = s->n_seqs;
    int64_t best = 0;
    s->n = 0;
    if (r->choice != CHOICE_FREE && n > 1) {
        best = choice_key(r, s, 0, kings);
        for (size_t i = 1; i < n; i++) {
            int64_t k = choice_key(r, s, i, kings);
            if (k > best)
                best = k;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (r->choice != CHOICE_FREE && n > 1 && choice_key(r, s, i, kings) != best)
            continue;
        const Move *q = &s->seqs[i];
        int seen = 0;
        for (size_t j = 0; j < s->n; j++) {
            const Move *m = &s->moves[j];
            if (m->frm == q->frm && m->to == q->to && m->cap == q->cap && m->crowned == q->crowned) {
                seen = 1;
                break;
            }
        }
        if (!seen && !push_move(s, q->frm, q->to, q->cap, q->crowned))
            return;
    }
}

static void steps_from(const Rules *r, const ScanOut *o, BB kings, int turn, Scratch *s)
{
    BB promo = (BB)r->promo[turn];
    s->n = 0;
    for (int i = 0; i < o->nb; i++) {
        BB targets = o->b[i].targets;
        int d = o->b[i].delta;
        while (targets) {
            BB to = LOWBIT(targets);
            targets ^= to;
            BB frm = SH(to, -d);
            if (!push_move(s, frm, to, 0, (to & promo) != 0 && !(frm & kings)))
                return;
        }
    }
}

static Move pick_step(const Rules *r, const ScanOut *o, BB kings, int turn, double x)
{
    int k = (int)(x * o->count);
    Move m = {0, 0, 0, 0};
    for (int i = 0; i < o->nb; i++) {
        const Bucket *b = &o->b[i];
        if (k < b->n) {
            BB targets = b->targets;
            while (k) {
                targets &= targets - 1;
                k--;
            }
            m.to = LOWBIT(targets);
            m.frm = SH(m.to, -b->delta);
            m.crowned = (m.to & (BB)r->promo[turn]) != 0 && !(m.frm & kings);
            return m;
        }
        k -= b->n;
    }
    return m;
}

/* Captures of a position that has them (`o` from scan), after the choice rule, in s->moves. */
static void captures_after_scan(const Rules *r, BB own, BB opp, BB kings, int turn, const ScanOut *o, Scratch *s)
{
    sequences(r, own, opp, kings, turn, o->jumpers, s);
    choose(r, kings, s);
}

static int legal(const Rules *r, BB own, BB opp, BB kings, int turn, BB frozen, Scratch *s)
{
    ScanOut o;
    s->oom = 0;
    scan(r, own, opp, kings, turn, frozen, &o);
    if (o.jumpers)
        captures_after_scan(r, own, opp, kings, turn, &o, s);
    else
        steps_from(r, &o, kings, turn, s);
    return s->oom ? -1 : (int)s->n;
}

/* ------------------------------------------------------------------------------------------
 * Perft over raw positions (draw rules ignored; where the first king wins, a position with
 * a king has no moves), counting the last ply in bulk.
 * ---------------------------------------------------------------------------------------- */
static int64_t perft_rec(const Rules *r, BB own, BB opp, BB kings, int turn, int depth, Scratch *s)
{
    if (r->goal == GOAL_CROWN && kings)
        return 0;
    ScanOut o;
    scan(r, own, opp, kings, turn, 0, &o);
    if (depth == 1 && !o.jumpers)
        return o.count;
    if (o.jumpers)
        captures_after_scan(r, own, opp, kings, turn, &o, s);
    else
        steps_from(r, &o, kings, turn, s);
    if (s->oom)
        return -1;
    size_t n = s->n;
    if (depth == 1)
        return (int64_t)n;
    Move local[128];
    Move *moves = n <= 128 ? local : malloc(n * sizeof(Move));
    if (!moves) {
        s->oom = 1;
        return -1;
    }
    memcpy(moves, s->moves, n * sizeof(Move));
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        Key c = raw_child(own, opp, kings, turn, &moves[i]);
        int64_t sub = perft_rec(r, c.own, c.opp, c.kings, c.turn, depth - 1, s);
        if (sub < 0) {
            total = -1;
            break;
        }
        total += sub;
    }
    if (moves != local)
        free(moves);
    return total;
}

static int64_t perft(const Rules *r, BB own, BB opp, BB kings, int turn, int depth, Scratch *scratch, int *oom)
{
    if (depth <= 0)
        return 1;
    scratch->oom = 0;
    int64_t n = perft_rec(r, own, opp, kings, turn, depth, scratch);
    *oom = scratch->oom;
    return n;
}

/* ------------------------------------------------------------------------------------------
 * Draw rules (DraughtsState.play, _extra_rules, _endgame_drawn; variants.py's counts).
 * ---------------------------------------------------------------------------------------- */
static int smallest(int a, int b) { return a < 0 ? b : (b < 0 ? a : (a < b ? a : b)); }

static int endgame_limit(const Rules *r, BB own, BB opp, BB kings)
{
    if (r->endgame == COUNT_NONE || POPCNT(own | opp) > r->endgame_max)
        return -1;
    int own_men = POPCNT(own & ~kings), own_kings = POPCNT(own & kings);
    int opp_men = POPCNT(opp & ~kings), opp_kings = POPCNT(opp & kings);
    BB longd = (BB)r->long_diagonal;
    int limit = -1;
    switch (r->endgame) {
    case COUNT_FMJD: {
        int sides[2][4] = {{own_men, own_kings, opp_men, opp_kings}, {opp_men, opp_kings, own_men, own_kings}};
        for (int i = 0; i < 2; i++) {
            int a_men = sides[i][0], a_kings = sides[i][1], b_men = sides[i][2], b_kings = sides[i][3];
            if (b_men == 0 && b_kings == 1 && a_kings >= 1) {
                if (a_men + a_kings == 3)
                    limit = smallest(limit, 32);
                if (a_men + a_kings <= 2)
                    limit = smallest(limit, 10);
            }
        }
        return limit;
    }
    case COUNT_RUSSIAN: {
        int lone_own = (own & kings & longd) != 0, lone_opp = (opp & kings & longd) != 0;
        int other_own = (own & longd) != 0, other_opp = (opp & longd) != 0;
        int sides[2][6] = {{own_men, own_kings, opp_men, opp_kings, other_own, lone_opp},
                           {opp_men, opp_kings, own_men, own_kings, other_opp, lone_own}};
        for (int i = 0; i < 2; i++) {
            int a_men = sides[i][0], a_kings = sides[i][1], b_men = sides[i][2], b_kings = sides[i][3];
            int long_a = sides[i][4], long_b = sides[i][5];
            if (b_men == 0 && b_kings == 1) {
                if (a_men == 0 && a_kings >= 3)
                    limit = smallest(limit, 30);
                if (a_men + a_kings == 2 && a_kings >= 1)
                    limit = smallest(limit, 10);
                if (a_men + a_kings == 3 && a_kings >= 1 && long_b && !long_a)
                    limit = smallest(limit, 10);
            }
        }
        int own_n = own_men + own_kings, opp_n = opp_men + opp_kings;
        if (own_kings == opp_kings && opp_kings >= 1 && own_n == opp_n) {
            if (own_n == 4 || own_n == 5)
                limit = smallest(limit, 60);
            if (own_n == 6 || own_n == 7)
                limit = smallest(limit, 120);
        }
        return limit;
    }
    case COUNT_FRISIAN:
        if (own_men || opp_men)
            return -1;
        if ((own_kings == 1 && opp_kings == 2) || (own_kings == 2 && opp_kings == 1))
            return 14;
        if (own_kings == 1 && opp_kings == 1)
            return 4;
        return -1;
    case COUNT_TURKISH:
        return own_men + own_kings == 1 && opp_men + opp_kings == 1 ? 0 : -1;
    default:
        return -1;
    }
}

static int endgame_drawn(const Rules *r, const Pos *p)
{
    int64_t since = p->ply - p->capture_ply;
    if (since < r->endgame_floor || POPCNT(p->own | p->opp) > r->endgame_max)
        return 0;
    int limit = endgame_limit(r, p->own, p->opp, p->kings);
    if (limit < 0 || since < limit)
        return 0;
    return limit > 0 || !jumpers(r, p->own, p->opp, p->kings, p->turn);
}

static BB frozen_square(const Rules *r, const Pos *p)
{
    if (!r->king_move_limit)
        return 0;
    BB sq = p->run_sq[p->turn];
    int64_t n = p->run_n[p->turn];
    return n >= r->king_move_limit && (sq & p->own & p->kings) && (p->own & ~p->kings) ? sq : 0;
}

static int push_key(Pos *p, BB own, BB opp, BB kings, int turn)
{
    if (p->n_hist == p->cap_hist && !grow((void **)&p->hist, &p->cap_hist, p->n_hist + 1, sizeof(Key)))
        return 0;
    Key *k = &p->hist[p->n_hist++];
    k->own = own;
    k->opp = opp;
    k->kings = kings;
    k->turn = turn;
    return 1;
}

static void play(const Rules *r, Pos *p, const Move *m, int *oom)
{
    BB frm = m->frm, to = m->to, cap = m->cap;
    int turn = p->turn;
    BB own0 = p->own, opp0 = p->opp, kings0 = p->kings;
    BB own = own0 ^ frm ^ to, opp = opp0, kings = kings0;
    BB by_king = kings & frm;
    if (by_king)
        kings ^= frm ^ to;
    else if (m->crowned)
        kings |= to;
    if (cap) {
        opp &= ~cap;
        kings &= ~cap;
    }
    p->own = opp;
    p->opp = own;
    p->kings = kings;
    p->turn = turn ^ 1;
    int64_t ply = ++p->ply;
    if (cap) {
        p->progress_ply = p->capture_ply = ply;
        p->n_hist = p->n_kept = 0;
    } else {
        if (!by_king && !r->quiet_on_man_move)
            p->progress_ply = ply;
        if (by_king || (r->men_sideways && (to == (frm << 1) || frm == (to << 1)))) {
            if (r->repetition) {   /* a reversible move: count the repetitions since the last irreversible one */
                if (p->n_hist == 0 && !push_key(p, own0, opp0, kings0, turn))
                    *oom = 1;
                size_t seen = 0;
                for (size_t i = 0; i < p->n_hist; i++) {
                    const Key *k = &p->hist[i];
                    seen += k->turn == (turn ^ 1) && k->own == opp && k->opp == own && k->kings == kings;
                }
                if (!push_key(p, opp, own, kings, turn ^ 1))
                    *oom = 1;
                if ((int64_t)seen + 1 >= r->repetition)
                    p->drawn = 1;
            }
        } else {
            p->n_hist = p->n_kept = 0;
        }
        if (ply - p->progress_ply >= r->no_progress)
            p->drawn = 1;
    }
    if (r->extra_rules) {
        if (r->king_move_limit) {
            if (by_king && !cap) {
                p->run_n[turn] = p->run_sq[turn] == frm ? p->run_n[turn] + 1 : 1;
                p->run_sq[turn] = to;
            } else {
                p->run_sq[turn] = 0;
                p->run_n[turn] = 0;
            }
        }
        if (r->endgame != COUNT_NONE && !p->drawn)
            p->drawn = endgame_drawn(r, p);
    }
}

/* Breakthrough: the player with a king has won (both, from a set-up position: who moved last). */
static double crowned_winner(const Pos *p)
{
    BB p0 = p->turn == 0 ? p->own : p->opp;
    int first = (p->kings & p0) != 0, second = (p->kings & ~p0) != 0;
    if (first != second)
        return first ? 1.0 : 0.0;
    return p->turn == 0 ? 0.0 : 1.0;
}

static double outcome(const Rules *r, const Pos *p)
{
    if (p->kings && r->goal == GOAL_CROWN)
        return crowned_winner(p);
    ScanOut o;
    scan(r, p->own, p->opp, p->kings, p->turn, frozen_square(r, p), &o);
    if (o.jumpers || o.count)
        return p->drawn ? 0.5 : -1.0;
    return r->stuck_score[p->turn];
}

/* ------------------------------------------------------------------------------------------
 * Random moves and playouts (DraughtsState.random_move, _random_playout): one draw a ply.
 * ---------------------------------------------------------------------------------------- */
static int random_move(const Rules *r, const Pos *p, Rand *rand, Scratch *s, Move *out)
{
    if (p->drawn || (p->kings && r->goal == GOAL_CROWN))
        return 0;
    ScanOut o;
    s->oom = 0;
    scan(r, p->own, p->opp, p->kings, p->turn, frozen_square(r, p), &o);
    if (o.jumpers) {
        captures_after_scan(r, p->own, p->opp, p->kings, p->turn, &o, s);
        if (s->oom || !s->n)
            return s->oom ? -1 : 0;
        double x = rand->next(rand);
        if (rand->failed)
            return -1;
        *out = s->moves[(size_t)(x * (double)s->n)];
        return 1;
    }
    if (!o.count)
        return 0;
    double x = rand->next(rand);
    if (rand->failed)
        return -1;
    *out = pick_step(r, &o, p->kings, p->turn, x);
    return 1;
}

static double playout(const Rules *r, Pos *p, int64_t max_plies, Rand *rand, Scratch *s, KernelMove *record,
                      int *turns, size_t record_cap, size_t *n_record, int *oom, const Halt *halt)
{
    ScanOut o;
    s->oom = 0;
    for (int64_t i = 0; i < max_plies; i++) {
        if (record && *n_record == record_cap)
            return -3.0;     /* the caller's record is full: it grows it and goes on */
        if (i % HALT_CHECK == HALT_CHECK - 1 && halted(halt))
            return -1.0;     /* the search is over: cut off here */
        if (p->drawn)
            return 0.5;
        if (r->goal == GOAL_CROWN && p->kings)
            return crowned_winner(p);
        scan(r, p->own, p->opp, p->kings, p->turn, frozen_square(r, p), &o);
        Move m;
        if (o.jumpers) {
            captures_after_scan(r, p->own, p->opp, p->kings, p->turn, &o, s);
            if (s->oom) {
                *oom = 1;
                return -2.0;
            }
            double x = rand->next(rand);
            if (rand->failed)
                return -2.0;
            m = s->moves[(size_t)(x * (double)s->n)];
        } else if (o.count) {
            double x = rand->next(rand);
            if (rand->failed)
                return -2.0;
            m = pick_step(r, &o, p->kings, p->turn, x);
        } else {
            return r->stuck_score[p->turn];
        }
        if (record) {
            record[*n_record] = wide_move(&m);
            turns[*n_record] = p->turn;
            (*n_record)++;
        }
        play(r, p, &m, oom);
        if (*oom)
            return -2.0;
    }
    return outcome(r, p);
}

/* ------------------------------------------------------------------------------------------
 * The evaluation (rules/draughts/evaluation.py and base.balance_score), to the last bit: the same
 * operations in the same order, with pow(x, 0.5) as Python's ** 0.5 and no fused multiply-add.
 * ---------------------------------------------------------------------------------------- */
static int tempo_of(BB men, const u128 *bits)
{
    int t = 0;
    for (int j = 0; j < TEMPO_BITS; j++)
        t += POPCNT(men & (BB)bits[j]) << j;
    return t;
}

static int runaways(const Rules *r, BB men, BB empty, int turn)
{
    BB runners = 0, ready = men & (BB)r->near_crown[turn];
    for (int i = 0; i < r->n_man_step[turn]; i++) {
        int d = r->man_step[turn][i];
        runners |= SH(SH(ready, d) & empty & (BB)r->promo[turn], -d);
    }
    return POPCNT(runners);
}

/* evaluation.men_on: the side's men on own_mask less the other side's on opp_mask. */
static inline int men_on(BB own_men, BB opp_men, u128 own_mask, u128 opp_mask)
{
    return POPCNT(own_men & (BB)own_mask) - POPCNT(opp_men & (BB)opp_mask);
}

/* evaluation.king_lead: kings (at most two) where the other side has none, less the other's. */
static int king_lead(BB own_kings, BB opp_kings)
{
    int mine = POPCNT(own_kings), theirs = POPCNT(opp_kings);
    return (theirs ? 0 : (mine < 2 ? mine : 2)) - (mine ? 0 : (theirs < 2 ? theirs : 2));
}

/* evaluation.back_guard: the square of the men on the guard squares, while the other side's
 * pieces hold fewer kings than half of them. */
static int back_guard(BB men, u128 mask, BB other, BB other_kings)
{
    if (2 * POPCNT(other_kings) >= POPCNT(other))
        return 0;
    int n = POPCNT(men & (BB)mask);
    return n * n;
}

/* evaluation.term_balance: the positional terms' sum, in men, for the side to move. */
static double term_balance(const Rules *r, BB own, BB opp, BB kings, int turn)
{
    int other = 1 - turn;
    BB own_men = own & ~kings, opp_men = opp & ~kings;
    BB empty = (BB)r->points ^ (own | opp);
    double total = 0.0;
    if (r->terms[TERM_MOBILITY] != 0.0) {
        ScanOut o;
        scan(r, own, opp, kings, turn, 0, &o);
        int mine = o.count;
        scan(r, opp, own, kings, other, 0, &o);
        total = total + r->terms[TERM_MOBILITY] * (double)(mine - o.count);
    }
    if (r->terms[TERM_TEMPO] != 0.0) {
        int tempo = tempo_of(own_men, r->tempo_bits[turn]) - tempo_of(opp_men, r->tempo_bits[other]);
        total = total + r->terms[TERM_TEMPO] * (double)tempo;
    }
    if (r->terms[TERM_BACK_RANK] != 0.0) {
        int guard = men_on(own_men, opp_men, r->back_rank[turn], r->back_rank[other]);
        total = total + r->terms[TERM_BACK_RANK] * (double)guard;
    }
    if (r->terms[TERM_CENTRE] != 0.0) {
        int centre = men_on(own_men, opp_men, r->centre, r->centre);
        total = total + r->terms[TERM_CENTRE] * (double)centre;
    }
    if (r->terms[TERM_RUNAWAY] != 0.0) {
        int run = runaways(r, own_men, empty, turn) - runaways(r, opp_men, empty, other);
        total = total + r->terms[TERM_RUNAWAY] * (double)run;
    }
    if (r->terms[TERM_EDGE] != 0.0) {
        int edge = men_on(own_men, opp_men, r->edge, r->edge);
        total = total + r->terms[TERM_EDGE] * (double)edge;
    }
    if (r->terms[TERM_KING_LEAD] != 0.0)
        total = total + r->terms[TERM_KING_LEAD] * (double)king_lead(own & kings, opp & kings);
    if (r->terms[TERM_GUARD] != 0.0) {
        int guard = back_guard(own_men, r->guard[turn], opp, opp & kings)
                    - back_guard(opp_men, r->guard[other], own, own & kings);
        total = total + r->terms[TERM_GUARD] * (double)guard;
    }
    return total;
}

/* ------------------------------------------------------------------------------------------
 * The learned evaluation (rules/draughts/learned.py, learned_evaluate), to the last bit: integer
 * sums of the pattern and scalar weights, blended by the pieces left, then the same logistic.
 * ---------------------------------------------------------------------------------------- */
static inline u64 reverse64(u64 x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

/* The half turn of the board: bit b to bit top - b (learned.rotate). */
static inline BB half_turn(BB x, int top)
{
    if (sizeof(BB) == sizeof(u64))
        return (BB)(reverse64((u64)x) >> (63 - top));
    u128 w = (u128)x;
    u128 turned = ((u128)reverse64((u64)w) << 64) | reverse64((u64)(w >> 64));
    return (BB)(turned >> (127 - top));
}

/* A region's squares of `x` as the bits of its digits. */
static inline unsigned gather(const Run *runs, int n, BB x)
{
    unsigned v = 0;
    for (int i = 0; i < n; i++)
        v |= (unsigned)((x >> runs[i].shift) & (BB)((1u << runs[i].width) - 1u)) << runs[i].digit;
    return v;
}

/* A region's weights for the digits `m` (the mover's men) and `t` (the other side's), added to
 * the full-board and the empty-board sums. */
static inline void add_pattern(const Learned *l, int k, unsigned m, unsigned t, int64_t sums[2])
{
    const int32_t *w = l->patterns + ((size_t)k * PATTERN_SIZE + l->ternary[m] + 2u * l->ternary[t]) * 2;
    sums[0] += w[0];
    sums[1] += w[1];
}

/* Every region's weights, its men gathered by its runs' shifts. */
static inline void pattern_sums(const Learned *l, BB mine, BB theirs, int64_t sums[2])
{
    for (int k = 0; k < l->n_regions; k++)
        add_pattern(l, k, gather(l->runs[k], l->n_runs[k], mine), gather(l->runs[k], l->n_runs[k], theirs), sums);
}

#if CPU_TWO_COMPILATIONS
/* The same, each region's men gathered by one pext of its mask (Learned.pext). */
__attribute__((target("bmi2"))) static void pattern_sums_pext(const Learned *l, u64 mine, u64 theirs,
                                                              int64_t sums[2])
{
    for (int k = 0; k < l->n_regions; k++)
        add_pattern(l, k, (unsigned)__builtin_ia32_pext_di(mine, l->masks[k]),
                    (unsigned)__builtin_ia32_pext_di(theirs, l->masks[k]), sums);
}
#endif

/* |the lean of `men`|: the sum over them of 2 * column - (n - 1) (learned.lean). */
static inline int64_t abs_lean(const Learned *l, BB men)
{
    int64_t lean = 0;
    for (int c = 0; c < l->n_columns; c++)
        lean += (int64_t)(2 * c - (l->n_columns - 1)) * POPCNT(men & (BB)l->columns[c]);
    return lean < 0 ? -lean : lean;
}

/* The king squares' weights of `view` (kings seen from their owner's side), times `sign`. */
static inline void add_king_squares(const Learned *l, BB view, int64_t sign, int64_t *full, int64_t *empty)
{
    for (; view; view &= view - 1) {
        int b = CTZ(view);
        *full += sign * l->kings[b][0];
        *empty += sign * l->kings[b][1];
    }
}

static double learned_evaluate(const Rules *r, BB own, BB opp, BB kings, int turn)
{
    const Learned *l = &r->learned;
    BB mine = own & ~kings, theirs = opp & ~kings;
    if (turn) {
        mine = half_turn(mine, l->top_bit);
        theirs = half_turn(theirs, l->top_bit);
    }
    int64_t sums[2] = {0, 0};
#if CPU_TWO_COMPILATIONS
    if (sizeof(BB) == sizeof(u64) && l->pext)
        pattern_sums_pext(l, (u64)mine, (u64)theirs, sums);
    else
#endif
        pattern_sums(l, mine, theirs, sums);
    int64_t full = sums[0], empty = sums[1];
    BB own_k = own & kings, opp_k = opp & kings, diagonal = (BB)l->diagonal;
    int n_own_k = POPCNT(own_k), n_opp_k = POPCNT(opp_k);
    int64_t f[N_SCALARS] = {1, POPCNT(own & ~kings) - POPCNT(opp & ~kings), n_own_k - n_opp_k,
                            (n_own_k > 0) - (n_opp_k > 0), POPCNT(own_k & diagonal) - POPCNT(opp_k & diagonal),
                            l->reads_balance ? abs_lean(l, own & ~kings) - abs_lean(l, opp & ~kings) : 0};
    for (int i = 0; i < N_SCALARS; i++) {
        full += l->scalars[i][0] * f[i];
        empty += l->scalars[i][1] * f[i];
    }
    if (l->reads_kings) {
        add_king_squares(l, turn ? half_turn(own_k, l->top_bit) : own_k, 1, &full, &empty);
        add_king_squares(l, turn ? opp_k : half_turn(opp_k, l->top_bit), -1, &full, &empty);
    }
    int64_t start = r->start_pieces, p = POPCNT(own | opp);
    if (p > start)
        p = start;
    int64_t num = full * p + empty * (start - p);
    double x = (double)num / (double)(start * l->unit);
    double mover = x < -700.0 ? 0.0 : 1.0 / (1.0 + exp(-x));
    return turn == 0 ? mover : 1.0 - mover;
}

static double evaluate(const Rules *r, BB own, BB opp, BB kings, int turn)
{
    if (r->learned.patterns)
        return learned_evaluate(r, own, opp, kings, turn);
    BB own_men = own & ~kings, opp_men = opp & ~kings;
    int n_own_k = POPCNT(own & kings), n_opp_k = POPCNT(opp & kings);
    int n_own_m = POPCNT(own_men), n_opp_m = POPCNT(opp_men);
    int adv = POPCNT(own_men & (BB)r->far_half[turn]) - POPCNT(opp_men & (BB)r->far_half[1 - turn]);
    double balance = (double)(n_own_m - n_opp_m) + r->king_value * (double)(n_own_k - n_opp_k);
    balance = balance + r->eval_advance * (double)adv;
    if (r->any_term)
        balance = balance + term_balance(r, own, opp, kings, turn);
    int pieces = n_own_m + n_opp_m + n_own_k + n_opp_k;
    double mover;
    if (pieces <= 0) {
        mover = 0.5;
    } else {
        double x = r->eval_scale * balance;
        x = x * r->piece_scale[pieces];                  /* pow(start_pieces / pieces, 0.5) */
        mover = x < -700.0 ? 0.0 : 1.0 / (1.0 + exp(-x));
    }
    double first = turn == 0 ? mover : 1.0 - mover;
    return r->goal == GOAL_LOSE ? 1.0 - first : first;
}

/* ------------------------------------------------------------------------------------------
 * The endgame tables' numbering (tables/material.py, Numbering.index): each piece class's
 * squares ranked among all combinations of that many squares, in mixed radix.
 * ---------------------------------------------------------------------------------------- */
static int64_t binom(int n, int k)
{
    if (k < 0 || n < k)
        return 0;
    int64_t c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

static int64_t combination_rank(const Rules *r, BB mask, int k)
{
    int n = r->n_points, prev = -1, i = 0;
    int64_t rank = 0;
    if (POPCNT(mask) != k)
        return -1;
    while (mask) {
        BB low = LOWBIT(mask);
        mask ^= low;
        int a = r->ordinal[CTZ(low)];
        if (a < 0)
            return -1;
        i++;
        for (int j = prev + 1; j < a; j++)
            rank += binom(n - 1 - j, k - i);
        prev = a;
    }
    return rank;
}

static int64_t table_index(const Rules *r, BB own, BB opp, BB kings, const int classes[4])
{
    BB parts[4] = {own & kings, own & ~kings, opp & kings, opp & ~kings};
    int64_t index = 0;
    for (int c = 0; c < 4; c++) {
        int64_t rank = combination_rank(r, parts[c], classes[c]);
        if (rank < 0)
            return -1;
        index = index * binom(r->n_points, classes[c]) + rank;
    }
    return index;
}

/* The tables' verdict on a position (TableSet.probe): 1 with the first player's result and
 * the plies to the end, 0 where no table or nothing certain. */
static int table_probe(const Rules *r, const Tables *tables, const Pos *p, double *result, int *plies)
{
    if (!tables || POPCNT(p->own | p->opp) > tables->max_pieces)
        return 0;
    int c[4] = {POPCNT(p->own & p->kings), POPCNT(p->own & ~p->kings), POPCNT(p->opp & p->kings),
                POPCNT(p->opp & ~p->kings)};
    int turn = c[1] || c[3] ? p->turn : 0;
    const TableRef *tr = NULL;
    for (int i = 0; i < tables->n && !tr; i++) {
        const TableRef *x = &tables->t[i];
        if (x->turn == turn && x->classes[0] == c[0] && x->classes[1] == c[1] && x->classes[2] == c[2]
            && x->classes[3] == c[3])
            tr = x;
    }
    if (!tr)
        return 0;
    int64_t index = table_index(r, p->own, p->opp, p->kings, c);
    if (index < 0 || index >= tr->size)
        return 0;
    int64_t v = tr->itemsize == 1 ? ((const int8_t *)tr->values)[index]
              : tr->itemsize == 2 ? ((const int16_t *)tr->values)[index]
                                  : ((const int32_t *)tr->values)[index];
    if (v == 0) {
        if (!tr->exact)
            return 0;
        *result = 0.5;
        *plies = 0;
        return 1;
    }
    int64_t n = (v < 0 ? -v : v) - 1;
    int64_t left = r->no_progress - (p->ply - p->progress_ply);
    if (tr->count >= 0 && tr->count - (p->ply - p->capture_ply) < left)
        left = tr->count - (p->ply - p->capture_ply);
    if (n > left)
        return 0;
    *result = (v > 0) == (p->turn == 0) ? 1.0 : 0.0;
    *plies = (int)n;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * The draughts kernel's implementation of the C game interface (game.h): positions are Pos
 * structs, moves MoveSlots laid out as SLOT_* (draughts.h).  Only running out of memory fails.
 * ---------------------------------------------------------------------------------------- */
static const KernelWord THIS_WORD;

typedef struct {
    KernelGame head;                  /* first: the glue reads a game instance's rules and word here */
    const Tables *tables;
    Scratch s;
} GameCtx;

static inline const Rules *ctx_rules(const GameIface *g) { return ((const GameCtx *)g->ctx)->head.rules; }

static inline Move slot_move(const MoveSlot *m)
{
    Move x;
    x.frm = (BB)1 << m->b[SLOT_FROM];
    x.to = (BB)1 << m->b[SLOT_TO];
    x.cap = (BB)(((u128)m->w[1] << 64) | m->w[0]);
    x.crowned = m->b[SLOT_CROWNED];
    return x;
}

static inline MoveSlot move_slot(const Move *m)
{
    MoveSlot slot;
    memset(&slot, 0, sizeof(slot));
    slot.w[0] = (u64)m->cap;
    slot.w[1] = (u64)((u128)m->cap >> 64);
    slot.b[SLOT_FROM] = (uint8_t)CTZ(m->frm);
    slot.b[SLOT_TO] = (uint8_t)CTZ(m->to);
    slot.b[SLOT_CROWNED] = (uint8_t)m->crowned;
    return slot;
}

static int g_pos_init(const GameIface *g, void *pos)
{
    (void)g;
    memset(pos, 0, sizeof(Pos));
    return GAME_OK;
}

static void g_pos_free(const GameIface *g, void *pos)
{
    (void)g;
    free(((Pos *)pos)->hist);
    ((Pos *)pos)->hist = NULL;
}

static int g_copy(const GameIface *g, void *dst, const void *src)
{
    (void)g;
    Pos *d = dst;
    const Pos *s = src;
    Key *hist = d->hist;
    size_t cap = d->cap_hist;
    *d = *s;
    d->hist = hist;
    d->cap_hist = cap;
    if (s->n_hist > d->cap_hist) {
        size_t c = d->cap_hist ? d->cap_hist : 64;
        while (c < s->n_hist)
            c *= 2;
        Key *h = realloc(d->hist, c * sizeof(Key));
        if (!h)
            return GAME_ERROR;
        d->hist = h;
        d->cap_hist = c;
    }
    if (s->n_hist)
        memcpy(d->hist, s->hist, s->n_hist * sizeof(Key));
    return GAME_OK;
}

static int g_to_move(const GameIface *g, const void *pos, int *player)
{
    (void)g;
    *player = ((const Pos *)pos)->turn;
    return GAME_OK;
}

static int g_legal(const GameIface *g, void *pos, MoveBuf *out)
{
    GameCtx *c = g->ctx;
    Pos *p = pos;
    if (p->drawn || (p->kings && c->head.rules->goal == GOAL_CROWN))
        return GAME_OK;
    if (legal(c->head.rules, p->own, p->opp, p->kings, p->turn, frozen_square(c->head.rules, p), &c->s) < 0)
        return GAME_ERROR;
    for (size_t i = 0; i < c->s.n; i++) {
        MoveSlot slot = move_slot(&c->s.moves[i]);
        if (movebuf_push(out, &slot) < 0)
            return GAME_ERROR;
    }
    return GAME_OK;
}

static int g_play(const GameIface *g, void *pos, const MoveSlot *m)
{
    Move x = slot_move(m);
    int oom = 0;
    play(ctx_rules(g), pos, &x, &oom);
    return oom ? GAME_ERROR : GAME_OK;
}

static int g_outcome(const GameIface *g, void *pos, double *result)
{
    *result = outcome(ctx_rules(g), pos);
    return *result < 0.0 ? GAME_RUNNING : GAME_OVER;
}

static int g_evaluate(const GameIface *g, void *pos, double *value)
{
    const Pos *p = pos;
    *value = evaluate(ctx_rules(g), p->own, p->opp, p->kings, p->turn);
    return GAME_OK;
}

/* DraughtsState.heuristic: the material a move gains for its mover. */
static int g_heuristic(const GameIface *g, void *pos, const MoveSlot *m, double *value)
{
    const Rules *r = ctx_rules(g);
    const Pos *p = pos;
    Move x = slot_move(m);
    double kv = r->king_value;
    double gain = (double)POPCNT(x.cap & ~p->kings) + kv * (double)POPCNT(x.cap & p->kings);
    if (r->goal == GOAL_CROWN && x.crowned) {
        *value = gain + 1000.0;
        return GAME_OK;
    }
    if (x.crowned)
        gain += kv - 1.0;
    *value = r->goal == GOAL_LOSE ? -gain : gain;
    return GAME_OK;
}

static int g_is_capture(const GameIface *g, void *pos, const MoveSlot *m)
{
    (void)g;
    (void)pos;
    return m->w[0] != 0 || m->w[1] != 0 ? GAME_YES : GAME_NO;
}

static int g_playout(const GameIface *g, void *pos, int64_t max_plies, Rand *rng, const Halt *halt, double *result)
{
    GameCtx *c = g->ctx;
    size_t n = 0;
    int oom = 0;
    double r = playout(c->head.rules, pos, max_plies, rng, &c->s, NULL, NULL, 0, &n, &oom, halt);
    if (r <= -2.0)
        return GAME_ERROR;
    *result = r;
    return r < 0.0 ? GAME_RUNNING : GAME_OVER;
}

static int g_oracle(const GameIface *g, void *pos, double *result, int *plies)
{
    GameCtx *c = g->ctx;
    return table_probe(c->head.rules, c->tables, pos, result, plies) == 1 ? GAME_YES : GAME_NO;
}

/* Quiescence search: alpha-beta over the capture sequences (captures are compulsory, so a side
 * that has one must take), the evaluation (or an endgame table's verdict) where the position
 * is quiet.  Values for the side to move, in [0, 1].  The counters are left out: a capture
 * restarts them, and a line of captures repeats nothing. */
#define QS_DEPTH 16
static double quiet_value(const Rules *r, const Tables *tables, Pos *p)
{
    double result;
    int plies;
    double first = table_probe(r, tables, p, &result, &plies) == 1
                       ? result : evaluate(r, p->own, p->opp, p->kings, p->turn);
    return p->turn == 0 ? first : 1.0 - first;
}

static double qsearch(const Rules *r, const Tables *tables, Pos *p, int depth, double alpha, double beta, Scratch *s)
{
    ScanOut o;
    scan(r, p->own, p->opp, p->kings, p->turn, 0, &o);
    if (!o.jumpers) {
        if (!o.count) {
            double first = r->stuck_score[p->turn];
            return p->turn == 0 ? first : 1.0 - first;
        }
        return quiet_value(r, tables, p);
    }
    if (depth == 0)
        return quiet_value(r, tables, p);
    captures_after_scan(r, p->own, p->opp, p->kings, p->turn, &o, s);
    if (s->oom)
        return quiet_value(r, tables, p);
    size_t n = s->n;
    Move local[32];
    Move *moves = n <= 32 ? local : malloc(n * sizeof(Move));
    if (!moves)
        return quiet_value(r, tables, p);
    memcpy(moves, s->moves, n * sizeof(Move));
    double best = -1.0;
    for (size_t i = 0; i < n && alpha < beta; i++) {
        const Move *m = &moves[i];
        Pos child = *p;
        BB k = p->kings;
        if (k & m->frm)
            k ^= m->frm ^ m->to;
        else if (m->crowned)
            k |= m->to;
        child.own = p->opp & ~m->cap;
        child.opp = p->own ^ m->frm ^ m->to;
        child.kings = k & ~m->cap;
        child.turn = p->turn ^ 1;
        child.ply = child.progress_ply = child.capture_ply = 0;
        child.n_hist = 0;
        double v = 1.0 - qsearch(r, tables, &child, depth - 1, 1.0 - beta, 1.0 - alpha, s);
        if (v > best)
            best = v;
        if (best > alpha)
            alpha = best;
    }
    if (moves != local)
        free(moves);
    return best;
}

/* The quiescence value of a position for the first player; -1 where the game scores otherwise
 * (antidraughts, breakthrough: their random cut-off). */
static double quiesce(const Rules *r, const Tables *tables, Pos *p, Scratch *s)
{
    if (r->goal != GOAL_BLOCK)
        return -1.0;
    if (p->drawn)
        return 0.5;
    double v = qsearch(r, tables, p, QS_DEPTH, 0.0, 1.0, s);
    return p->turn == 0 ? v : 1.0 - v;
}

static int g_quiesce(const GameIface *g, void *pos, double *value)
{
    GameCtx *c = g->ctx;
    *value = quiesce(c->head.rules, c->tables, pos, &c->s);
    return *value >= 0.0 ? GAME_YES : GAME_NO;
}

static int g_move_hash(const GameIface *g, const MoveSlot *m, uint64_t *hash)
{
    (void)g;
    uint64_t x = ((uint64_t)m->b[SLOT_FROM] | (uint64_t)m->b[SLOT_TO] << 8 | (uint64_t)m->b[SLOT_CROWNED] << 16)
                 ^ m->w[0] * 0x9e3779b97f4a7c15ULL ^ m->w[1] * 0xc2b2ae3d27d4eb4fULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    *hash = x ^ (x >> 29);
    return GAME_OK;
}

/* The board and the side to move, each word of each board mixed in turn (rand_mix64). */
static int g_pos_hash(const GameIface *g, const void *pos, uint64_t *hash)
{
    (void)g;
    const Pos *p = pos;
    const BB words[3] = {p->own, p->opp, p->kings};
    uint64_t h = rand_mix64((uint64_t)p->turn + 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < 3; i++) {
        h = rand_mix64(h ^ (uint64_t)words[i]);
        h = rand_mix64(h ^ (uint64_t)(words[i] >> 32 >> 32));   /* the high word of a 128-bit board; 0 on 64 */
    }
    *hash = h;
    return GAME_OK;
}

static int g_move_equal(const GameIface *g, const MoveSlot *x, const MoveSlot *y)
{
    (void)g;
    return x->w[0] == y->w[0] && x->w[1] == y->w[1] && x->b[SLOT_FROM] == y->b[SLOT_FROM]
           && x->b[SLOT_TO] == y->b[SLOT_TO] && x->b[SLOT_CROWNED] == y->b[SLOT_CROWNED] ? GAME_YES : GAME_NO;
}

static const GameOps GAME_OPS = {
    .pos_init = g_pos_init, .pos_free = g_pos_free, .copy = g_copy, .to_move = g_to_move, .legal = g_legal,
    .play = g_play, .outcome = g_outcome, .evaluate = g_evaluate, .heuristic = g_heuristic,
    .is_capture = g_is_capture, .playout = g_playout, .oracle = g_oracle, .quiesce = g_quiesce,
    .move_hash = g_move_hash, .move_equal = g_move_equal, .pos_hash = g_pos_hash,
};

/* An instance of the game for one searcher (its own scratch buffers); -1 out of memory. */
static int game_open(GameIface *g, const Rules *r, const Tables *tables)
{
    GameCtx *c = calloc(1, sizeof(GameCtx));
    if (!c)
        return -1;
    c->head.rules = r;
    c->head.word = &THIS_WORD;
    c->tables = tables;
    g->ops = &GAME_OPS;
    g->ctx = c;
    g->pos_size = sizeof(Pos);
    g->flags = GAME_COMPULSORY_CAPTURES;
    return 0;
}

static void game_close(GameIface *g)
{
    GameCtx *c = g->ctx;
    if (c) {
        scratch_free(&c->s);
        free(c);
    }
    g->ctx = NULL;
}

#include "table_graph_impl.h"

/* ------------------------------------------------------------------------------------------
 * This word's table (KernelWord, draughts.h): the operations above with the signatures both
 * words share (masks as u128, positions and scratch buffers as void *), for the code that
 * serves both words (kernel.c, convert.c, draughts_glue.c).
 * ---------------------------------------------------------------------------------------- */
static int word_legal(const Rules *r, u128 own, u128 opp, u128 kings, int turn, u128 frozen, void *scratch)
{
    return legal(r, (BB)own, (BB)opp, (BB)kings, turn, (BB)frozen, scratch);
}

static KernelMove word_move_at(const void *scratch, size_t i)
{
    return wide_move(&((const Scratch *)scratch)->moves[i]);
}

static u128 word_jumpers(const Rules *r, u128 own, u128 opp, u128 kings, int turn)
{
    return jumpers(r, (BB)own, (BB)opp, (BB)kings, turn);
}

static int64_t word_perft(const Rules *r, u128 own, u128 opp, u128 kings, int turn, int depth, int *oom)
{
    Scratch s = {0};
    int64_t n = perft(r, (BB)own, (BB)opp, (BB)kings, turn, depth, &s, oom);
    scratch_free(&s);
    return n;
}

static double word_evaluate(const Rules *r, u128 own, u128 opp, u128 kings, int turn)
{
    return evaluate(r, (BB)own, (BB)opp, (BB)kings, turn);
}

static int word_endgame_limit(const Rules *r, u128 own, u128 opp, u128 kings)
{
    return endgame_limit(r, (BB)own, (BB)opp, (BB)kings);
}

static int64_t word_table_index(const Rules *r, u128 own, u128 opp, u128 kings, const int classes[4])
{
    return table_index(r, (BB)own, (BB)opp, (BB)kings, classes);
}

static int word_pos_make(void *pos, const PosFields *f, size_t n_hist)
{
    Pos *p = pos;
    memset(p, 0, sizeof(*p));
    p->own = (BB)f->own;
    p->opp = (BB)f->opp;
    p->kings = (BB)f->kings;
    p->turn = f->turn;
    p->ply = f->ply;
    p->progress_ply = f->progress_ply;
    p->capture_ply = f->capture_ply;
    p->drawn = f->drawn;
    p->run_sq[0] = (BB)f->run_sq[0];
    p->run_sq[1] = (BB)f->run_sq[1];
    p->run_n[0] = f->run_n[0];
    p->run_n[1] = f->run_n[1];
    if (n_hist) {
        p->hist = calloc(n_hist, sizeof(Key));
        if (!p->hist)
            return -1;
        p->cap_hist = n_hist;
    }
    p->n_hist = p->n_kept = n_hist;
    return 0;
}

static void word_pos_set_key(void *pos, size_t i, const KernelKey *k)
{
    Key *key = &((Pos *)pos)->hist[i];
    key->own = (BB)k->own;
    key->opp = (BB)k->opp;
    key->kings = (BB)k->kings;
    key->turn = k->turn;
}

static void word_pos_get(const void *pos, PosFields *f, size_t *n_hist, size_t *n_kept)
{
    const Pos *p = pos;
    f->own = p->own;
    f->opp = p->opp;
    f->kings = p->kings;
    f->turn = p->turn;
    f->ply = p->ply;
    f->progress_ply = p->progress_ply;
    f->capture_ply = p->capture_ply;
    f->drawn = p->drawn;
    f->run_sq[0] = p->run_sq[0];
    f->run_sq[1] = p->run_sq[1];
    f->run_n[0] = p->run_n[0];
    f->run_n[1] = p->run_n[1];
    *n_hist = p->n_hist;
    *n_kept = p->n_kept;
}

static KernelKey word_pos_key(const void *pos, size_t i)
{
    const Key *key = &((const Pos *)pos)->hist[i];
    KernelKey k = {key->own, key->opp, key->kings, key->turn};
    return k;
}

static void word_pos_free(void *pos)
{
    free(((Pos *)pos)->hist);
    ((Pos *)pos)->hist = NULL;
}

static double word_outcome(const Rules *r, const void *pos)
{
    return outcome(r, pos);
}

static double word_quiesce(const Rules *r, const Tables *tables, void *pos, void *scratch)
{
    return quiesce(r, tables, pos, scratch);
}

static int word_random_move(const Rules *r, const void *pos, Rand *rand, void *scratch, KernelMove *out)
{
    Move m = {0, 0, 0, 0};
    int found = random_move(r, pos, rand, scratch, &m);
    *out = wide_move(&m);
    return found;
}

static void word_play(const Rules *r, void *pos, const KernelMove *m, int *oom)
{
    Move x = narrow_move(m);
    play(r, pos, &x, oom);
}

static double word_playout(const Rules *r, void *pos, int64_t max_plies, Rand *rand, void *scratch,
                           KernelMove *record, int *turns, size_t record_cap, size_t *n_record, int *oom)
{
    return playout(r, pos, max_plies, rand, scratch, record, turns, record_cap, n_record, oom, NULL);
}

/* `count` random playouts to the end from `start` (left as it is), one seeded generator for
 * all: the kernel's own speed, for bench.  out: the first player's wins, draws (a playout the
 * search's PLAYOUT_CAP cuts off counts as one: random play need not end, e.g. on every square
 * without the no-progress rule), the second player's wins, plies.  -1 out of memory. */
static int word_playouts(const Rules *r, const void *start_pos, long count, u64 seed, int64_t out[4])
{
    const Pos *start = start_pos;
    Pos p;
    Scratch s = {0};
    Rand rand;
    int oom = 0;
    rand_seed(&rand, seed);
    p.hist = NULL;
    for (long i = 0; i < count && !oom; i++) {
        Key *hist = p.hist;
        size_t cap = i ? p.cap_hist : 0;
        p = *start;
        p.hist = hist;
        p.cap_hist = cap;
        p.n_hist = 0;
        for (size_t j = 0; j < start->n_hist && !oom; j++)
            if (p.n_hist == p.cap_hist) {
                size_t c = p.cap_hist ? 2 * p.cap_hist : 64;
                Key *h = realloc(p.hist, c * sizeof(Key));
                if (!h)
                    oom = 1;
                else {
                    p.hist = h;
                    p.cap_hist = c;
                    p.hist[p.n_hist++] = start->hist[j];
                }
            } else
                p.hist[p.n_hist++] = start->hist[j];
        size_t n_rec = 0;
        double v = playout(r, &p, PLAYOUT_CAP, &rand, &s, NULL, NULL, 0, &n_rec, &oom, NULL);
        if (v <= -2.0 || oom) {
            oom = 1;
            break;
        }
        out[v == 1.0 ? 0 : (v == 0.5 || v < 0.0) ? 1 : 2]++;
        out[3] += p.ply - start->ply;
    }
    free(p.hist);
    scratch_free(&s);
    return oom ? -1 : 0;
}

static void word_scratch_free(void *scratch)
{
    scratch_free(scratch);
}

static const KernelWord THIS_WORD = {
    .bits = (int)(8 * sizeof(BB)), .pos_size = sizeof(Pos), .scratch_size = sizeof(Scratch),
    .legal = word_legal, .move_at = word_move_at, .jumpers = word_jumpers, .perft = word_perft,
    .evaluate = word_evaluate, .endgame_limit = word_endgame_limit, .table_index = word_table_index,
    .table_graph = table_graph,
    .pos_make = word_pos_make, .pos_set_key = word_pos_set_key, .pos_get = word_pos_get, .pos_key = word_pos_key,
    .pos_free = word_pos_free, .outcome = word_outcome, .quiesce = word_quiesce, .random_move = word_random_move,
    .play = word_play, .playout = word_playout, .playouts = word_playouts, .scratch_free = word_scratch_free,
    .game_open = game_open, .game_close = game_close,
};
