/*
 * steps.c - a game's step record (see steps.h).
 */
#include "steps.h"
#include "kn_alloc.h"
#include "kn_error.h"

int kn_steps_init(kn_steps *s, size_t cap)
{
    s->v = NULL;
    s->n = s->cap = 0;
    if (cap == 0)
        return KN_OK;
    if (cap > SIZE_MAX / sizeof *s->v)
        return KN_ENOMEM;
    s->v = kn_realloc(NULL, 0, cap * sizeof *s->v);
    if (s->v == NULL)
        return KN_ENOMEM;
    s->cap = cap;
    return KN_OK;
}

void kn_steps_free(kn_steps *s)
{
    kn_free(s->v, s->cap * sizeof *s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

/* Room for one more step: the capacity doubles (16 at first). */
static int grow(kn_steps *s)
{
    size_t cap = s->cap ? s->cap * 2 : 16;
    if (cap < s->cap || cap > SIZE_MAX / sizeof *s->v)
        return KN_ENOMEM;
    kn_step *v = kn_realloc(s->v, s->cap * sizeof *s->v, cap * sizeof *s->v);
    if (v == NULL)
        return KN_ENOMEM;
    s->v = v;
    s->cap = cap;
    return KN_OK;
}

int kn_steps_push(kn_steps *s, int32_t seat, int32_t option, uint16_t flags, uint16_t rank)
{
    if (option < 1)
        return KN_ERANGE;
    if (s->n == s->cap) {
        int rc = grow(s);
        if (rc < 0)
            return rc;
    }
    kn_step *st = &s->v[s->n++];
    st->seat = seat;
    st->option = option;
    st->flags = flags;
    st->rank = rank;
    return KN_OK;
}

int kn_steps_truncate(kn_steps *s, size_t n)
{
    if (n > s->n)
        return KN_ERANGE;
    s->n = n;
    return KN_OK;
}

const kn_step *kn_steps_at(const kn_steps *s, size_t i)
{
    return i < s->n ? &s->v[i] : NULL;
}

/* Orders out[first..last) by the rank of their steps, keeping the order
 * taken among equal ranks (an insertion sort: a block is a few steps). */
static int sort_block(const kn_steps *s, size_t *out, size_t first, size_t last)
{
    int moved = 0;
    for (size_t i = first + 1; i < last; i++) {
        size_t x = out[i], j = i;
        while (j > first && s->v[out[j - 1]].rank > s->v[x].rank) {
            out[j] = out[j - 1];
            j--;
            moved = 1;
        }
        out[j] = x;
    }
    return moved;
}

int kn_steps_order(const kn_steps *s, size_t *out)
{
    int moved = 0;
    for (size_t i = 0; i < s->n; i++)
        out[i] = i;
    size_t i = 0;
    while (i < s->n) {
        if (!(s->v[i].flags & KN_STEP_SECRET)) {
            i++;
            continue;
        }
        size_t last = i + 1;       /* the block: i and the secret steps after it that begin none */
        while (last < s->n && (s->v[last].flags & KN_STEP_SECRET) && !(s->v[last].flags & KN_STEP_FIRST))
            last++;
        moved |= sort_block(s, out, i, last);
        i = last;
    }
    return moved;
}
