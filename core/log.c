/*
 * log.c - the append-only event log (see log.h).
 */
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "kn_alloc.h"
#include "kn_error.h"

/* 1 if count elements of size bytes do not fit a size_t. */
static int too_big(uint64_t count, size_t size)
{
    return count > SIZE_MAX / size;
}

void kn_log_init(kn_log *g)
{
    g->buf = NULL;
    g->len = g->cap = 0;
    g->off = NULL;
    g->n = g->ocap = 0;
}

void kn_log_free(kn_log *g)
{
    kn_free(g->buf, g->cap);
    kn_free(g->off, (size_t)g->ocap * sizeof *g->off);
    kn_log_init(g);
}

static int grow_buf(kn_log *g, size_t need)
{
    size_t cap = g->cap ? g->cap : 256;
    char *buf;
    if (need <= g->cap)
        return KN_OK;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    buf = kn_realloc(g->buf, g->cap, cap);
    if (buf == NULL)
        return KN_ENOMEM;
    g->buf = buf;
    g->cap = cap;
    return KN_OK;
}

static int grow_off(kn_log *g)
{
    uint32_t cap;
    size_t *off;
    if (g->n < g->ocap)
        return KN_OK;
    if (g->ocap >= UINT32_MAX / 2)
        return KN_ENOMEM;
    cap = g->ocap ? g->ocap * 2 : 16;
    if (too_big(cap, sizeof *off))
        return KN_ENOMEM;
    off = kn_realloc(g->off, (size_t)g->ocap * sizeof *off, (size_t)cap * sizeof *off);
    if (off == NULL)
        return KN_ENOMEM;
    g->off = off;
    g->ocap = cap;
    return KN_OK;
}

int kn_log_add(kn_log *g, const char *text, size_t len)
{
    int rc;
    if (len > SIZE_MAX - 1 - g->len)
        return KN_ENOMEM;
    if ((rc = grow_buf(g, g->len + len + 1)) < 0 || (rc = grow_off(g)) < 0)
        return rc;
    if (len > 0)
        memcpy(g->buf + g->len, text, len);
    g->buf[g->len + len] = '\0';
    g->off[g->n++] = g->len;
    g->len += len + 1;
    return KN_OK;
}

uint32_t kn_log_count(const kn_log *g)
{
    return g->n;
}

const char *kn_log_get(const kn_log *g, uint32_t i, size_t *len)
{
    size_t end;
    if (i >= g->n)
        return NULL;
    end = i + 1 < g->n ? g->off[i + 1] : g->len;
    if (len)
        *len = end - g->off[i] - 1;
    return g->buf + g->off[i];
}

int kn_log_truncate(kn_log *g, uint32_t n)
{
    if (n > g->n)
        return KN_ERANGE;
    g->len = n < g->n ? g->off[n] : g->len;
    g->n = n;
    return KN_OK;
}

void kn_log_clear(kn_log *g)
{
    g->n = 0;
    g->len = 0;
}
