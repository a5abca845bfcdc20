/*
 * pile.c - ordered piles of card ids (see pile.h).
 */
#include <stdlib.h>
#include <string.h>
#include "pile.h"
#include "kn_alloc.h"
#include "kn_error.h"

/* 1 if count elements of size bytes do not fit a size_t. */
static int too_big(uint64_t count, size_t size)
{
    return count > SIZE_MAX / size;
}

int kn_pile_init(kn_pile *p, kn_vis vis, int owner)
{
    if (vis != KN_VIS_PUBLIC && vis != KN_VIS_OWNER && vis != KN_VIS_HIDDEN)
        return KN_EINVAL;
    p->cards = NULL;
    p->n = p->cap = 0;
    p->vis = vis;
    p->owner = owner;
    p->borrowed = 0;
    return KN_OK;
}

int kn_pile_use(kn_pile *p, int32_t *cards, uint32_t cap)
{
    if (cap < p->n)
        return KN_EINVAL;
    if (p->n > 0 && cards != p->cards)
        memmove(cards, p->cards, (size_t)p->n * sizeof *cards);
    if (!p->borrowed && cards != p->cards)
        kn_free(p->cards, (size_t)p->cap * sizeof *p->cards);
    p->cards = cards;
    p->cap = cap;
    p->borrowed = 1;
    return KN_OK;
}

void kn_pile_free(kn_pile *p)
{
    if (!p->borrowed)
        kn_free(p->cards, (size_t)p->cap * sizeof *p->cards);
    p->cards = NULL;
    p->n = p->cap = 0;
    p->vis = KN_VIS_PUBLIC;
    p->owner = 0;
    p->borrowed = 0;
}

int kn_pile_reserve(kn_pile *p, uint32_t cap)
{
    uint64_t newcap;
    int32_t *cards;
    if (cap <= p->cap)
        return KN_OK;
    if (cap > KN_PILE_MAX || p->borrowed)
        return KN_ENOMEM;
    newcap = p->cap ? p->cap : 8;
    while (newcap < cap)
        newcap *= 2;
    if (newcap > KN_PILE_MAX)
        newcap = KN_PILE_MAX;
    if (too_big(newcap, sizeof *cards))
        return KN_ENOMEM;
    cards = kn_realloc(p->cards, (size_t)p->cap * sizeof *cards, (size_t)newcap * sizeof *cards);
    if (cards == NULL)
        return KN_ENOMEM;
    p->cards = cards;
    p->cap = (uint32_t)newcap;
    return KN_OK;
}

int kn_pile_push(kn_pile *p, int32_t card)
{
    int rc;
    if (p->n == KN_PILE_MAX)
        return KN_ENOMEM;
    if ((rc = kn_pile_reserve(p, p->n + 1)) < 0)
        return rc;
    p->cards[p->n++] = card;
    return KN_OK;
}

int kn_pile_pop(kn_pile *p, int32_t *out)
{
    if (p->n == 0)
        return KN_EEMPTY;
    p->n--;
    if (out)
        *out = p->cards[p->n];
    return KN_OK;
}

int kn_pile_top(const kn_pile *p, int32_t *out)
{
    if (p->n == 0)
        return KN_EEMPTY;
    if (out)
        *out = p->cards[p->n - 1];
    return KN_OK;
}

int kn_pile_get(const kn_pile *p, uint32_t i, int32_t *out)
{
    if (i >= p->n)
        return KN_ERANGE;
    if (out)
        *out = p->cards[i];
    return KN_OK;
}

int kn_pile_set(kn_pile *p, uint32_t i, int32_t card)
{
    if (i >= p->n)
        return KN_ERANGE;
    p->cards[i] = card;
    return KN_OK;
}

int kn_pile_insert(kn_pile *p, uint32_t pos, int32_t card)
{
    int rc;
    if (pos > p->n)
        return KN_ERANGE;
    if (p->n == KN_PILE_MAX)
        return KN_ENOMEM;
    if ((rc = kn_pile_reserve(p, p->n + 1)) < 0)
        return rc;
    memmove(p->cards + pos + 1, p->cards + pos,
            (size_t)(p->n - pos) * sizeof *p->cards);
    p->cards[pos] = card;
    p->n++;
    return KN_OK;
}

int kn_pile_remove(kn_pile *p, uint32_t pos, int32_t *out)
{
    if (pos >= p->n)
        return KN_ERANGE;
    if (out)
        *out = p->cards[pos];
    memmove(p->cards + pos, p->cards + pos + 1,
            (size_t)(p->n - pos - 1) * sizeof *p->cards);
    p->n--;
    return KN_OK;
}

int32_t kn_pile_find(const kn_pile *p, int32_t card)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->cards[i] == card)
            return (int32_t)i;
    return -1;
}

uint32_t kn_pile_count_of(const kn_pile *p, int32_t card)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->n; i++)
        k += p->cards[i] == card;
    return k;
}

int kn_pile_move(kn_pile *from, kn_pile *to, uint32_t k)
{
    int rc;
    if (from->n < k)
        return KN_EEMPTY;
    if (from == to || k == 0)
        return KN_OK;
    if ((uint64_t)to->n + k > KN_PILE_MAX)
        return KN_ENOMEM;
    if ((rc = kn_pile_reserve(to, to->n + k)) < 0)
        return rc;
    while (k-- > 0)
        to->cards[to->n++] = from->cards[--from->n];
    return KN_OK;
}

int kn_pile_shuffle(kn_pile *p, kn_rng *r)
{
    kn_rng_shuffle_i32(r, p->cards, p->n);
    return KN_OK;
}

int kn_pile_copy(kn_pile *dst, const kn_pile *src)
{
    int rc;
    if (dst == src)
        return KN_OK;
    if ((rc = kn_pile_reserve(dst, src->n)) < 0)
        return rc;
    if (src->n > 0)
        memcpy(dst->cards, src->cards, (size_t)src->n * sizeof *src->cards);
    dst->n = src->n;
    dst->vis = src->vis;
    dst->owner = src->owner;
    return KN_OK;
}

void kn_pile_clear(kn_pile *p)
{
    p->n = 0;
}

int kn_pile_visible_to(const kn_pile *p, int seat)
{
    switch (p->vis) {
    case KN_VIS_PUBLIC: return 1;
    case KN_VIS_OWNER:  return seat == p->owner;
    default:            return 0;
    }
}
