/* The Alquerque family's long routes: a capture of more than ALQ_SLOT_ROUTE landings does not fit
 * a MoveSlot, so its route is interned here, once per rules object, and the slot names the entry.
 * The same route always gets the same entry, so slots stay comparable across the searchers that
 * share the rules object (their threads take the lock).  Such chains are rare (a dozen pieces
 * taken in one move), so a linear search with a hash to skip most entries is enough.
 */
#include "alquerque.h"

#include <stdlib.h>
#include <string.h>

int alq_routes_init(AlqRoutes *t)
{
    memset(t, 0, sizeof(*t));
    return pthread_mutex_init(&t->lock, NULL) == 0 ? 0 : -1;
}

void alq_routes_free(AlqRoutes *t)
{
    free(t->bytes);
    free(t->start);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof(*t));
}

static uint64_t route_hash(int frm, const uint8_t *route, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)frm;
    for (int i = 0; i < n; i++)
        h = (h ^ route[i]) * 0x100000001b3ULL;
    return h;
}

/* Room for one more entry of `n` landings (an entry: 8 bytes of hash, from, length, landings). */
static int reserve(AlqRoutes *t, int n)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        size_t *start = realloc(t->start, cap * sizeof(size_t));
        if (!start)
            return -1;
        t->start = start;
        t->cap = cap;
    }
    size_t need = t->n_bytes + 10 + (size_t)n;
    if (need > t->cap_bytes) {
        size_t cap = t->cap_bytes ? 2 * t->cap_bytes : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *bytes = realloc(t->bytes, cap);
        if (!bytes)
            return -1;
        t->bytes = bytes;
        t->cap_bytes = cap;
    }
    return 0;
}

int64_t alq_routes_intern(AlqRoutes *t, int frm, const uint8_t *route, int n)
{
    uint64_t h = route_hash(frm, route, n);
    int64_t found = -1;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n && found < 0; i++) {
        const uint8_t *e = t->bytes + t->start[i];
        uint64_t eh;
        memcpy(&eh, e, sizeof(eh));
        if (eh == h && e[8] == frm && e[9] == n && !memcmp(e + 10, route, (size_t)n))
            found = (int64_t)i;
    }
    if (found < 0 && reserve(t, n) == 0) {
        uint8_t *e = t->bytes + t->n_bytes;
        memcpy(e, &h, sizeof(h));
        e[8] = (uint8_t)frm;
        e[9] = (uint8_t)n;
        memcpy(e + 10, route, (size_t)n);
        t->start[t->n] = t->n_bytes;
        t->n_bytes += 10 + (size_t)n;
        found = (int64_t)t->n++;
    }
    pthread_mutex_unlock(&t->lock);
    return found;
}

int alq_routes_get(AlqRoutes *t, uint64_t index, uint8_t *route)
{
    int n = -1;
    pthread_mutex_lock(&t->lock);
    if (index < t->n) {
        const uint8_t *e = t->bytes + t->start[index];
        n = e[9];
        memcpy(route, e + 10, (size_t)n);
    }
    pthread_mutex_unlock(&t->lock);
    return n;
}
