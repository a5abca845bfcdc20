/*
 * counter.c - bounded int64 counters (see counter.h).
 */
#include <stdlib.h>
#include "counter.h"
#include "kn_alloc.h"
#include "kn_error.h"

/* 1 if count elements of size bytes do not fit a size_t. */
static int too_big(uint64_t count, size_t size)
{
    return count > SIZE_MAX / size;
}

static void make_empty(kn_counter *c)
{
    c->v = NULL;
    c->n = 0;
    c->borrowed = 0;
    c->min = INT64_MIN;
    c->max = INT64_MAX;
}

int kn_counter_init(kn_counter *c, uint32_t n, int64_t min, int64_t max,
                    int64_t initial)
{
    make_empty(c);
    if (min > max)
        return KN_EINVAL;
    if (initial < min || initial > max)
        return KN_ERANGE;
    if (n > 0) {
        if (too_big(n, sizeof *c->v))
            return KN_ENOMEM;
        c->v = kn_realloc(NULL, 0, (size_t)n * sizeof *c->v);
        if (c->v == NULL)
            return KN_ENOMEM;
        for (uint32_t i = 0; i < n; i++)
            c->v[i] = initial;
    }
    c->n = n;
    c->min = min;
    c->max = max;
    return KN_OK;
}

int kn_counter_init_in(kn_counter *c, int64_t *v, uint32_t n, int64_t min,
                       int64_t max, int64_t initial)
{
    make_empty(c);
    if (min > max)
        return KN_EINVAL;
    if (initial < min || initial > max)
        return KN_ERANGE;
    for (uint32_t i = 0; i < n; i++)
        v[i] = initial;
    c->v = n > 0 ? v : NULL;
    c->n = n;
    c->borrowed = 1;
    c->min = min;
    c->max = max;
    return KN_OK;
}

void kn_counter_free(kn_counter *c)
{
    if (!c->borrowed)
        kn_free(c->v, (size_t)c->n * sizeof *c->v);
    make_empty(c);
}

int kn_counter_get(const kn_counter *c, uint32_t i, int64_t *out)
{
    if (i >= c->n)
        return KN_ERANGE;
    if (out)
        *out = c->v[i];
    return KN_OK;
}

int kn_counter_set(kn_counter *c, uint32_t i, int64_t v)
{
    if (i >= c->n || v < c->min || v > c->max)
        return KN_ERANGE;
    c->v[i] = v;
    return KN_OK;
}

int kn_counter_add(kn_counter *c, uint32_t i, int64_t delta, int64_t *out)
{
    int64_t cur, sum;
    if (i >= c->n)
        return KN_ERANGE;
    cur = c->v[i];
    if ((delta > 0 && cur > INT64_MAX - delta) ||
        (delta < 0 && cur < INT64_MIN - delta))
        return KN_ERANGE;
    sum = cur + delta;
    if (sum < c->min || sum > c->max)
        return KN_ERANGE;
    c->v[i] = sum;
    if (out)
        *out = sum;
    return KN_OK;
}

int kn_counter_sum(const kn_counter *c, int64_t *out)
{
    int64_t sum = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        int64_t v = c->v[i];
        if ((v > 0 && sum > INT64_MAX - v) || (v < 0 && sum < INT64_MIN - v))
            return KN_ERANGE;
        sum += v;
    }
    *out = sum;
    return KN_OK;
}
