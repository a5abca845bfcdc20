/*
 * kn_pool.c - a pool for many small blocks (kn_pool.h).
 */
#define _DEFAULT_SOURCE
#include <string.h>
#include <sys/mman.h>

#include "kn_pool.h"

/* The class of a block of n bytes (1..KN_POOL_MAX): class c holds blocks
 * of 16 * (c + 1) bytes. */
static size_t class_of(size_t n) {
    return (n - 1) >> 4;
}

int kn_pool_init(struct kn_pool *p, size_t reserve) {
    memset(p, 0, sizeof *p);
    reserve &= ~(size_t)15;
    if (reserve == 0) return -1;
    void *m = mmap(NULL, reserve, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return -1;
#ifdef MADV_HUGEPAGE
    /* Slabs are cut from the region as the classes need them, and blocks
     * come back in the order the collector frees them: a game's small
     * tables spread over much of it. 2 MiB pages (where the kernel gives them on request)
     * spare the TLB misses; the gain by time is within the noise of our
     * measurements (docs/performance.md). */
    madvise(m, reserve, MADV_HUGEPAGE);
#endif
    p->base = p->top = m;
    p->end = p->base + reserve;
    return 0;
}

void kn_pool_destroy(struct kn_pool *p) {
    if (p->base != NULL) munmap(p->base, (size_t)(p->end - p->base));
    memset(p, 0, sizeof *p);
}

void *kn_pool_slab(struct kn_pool *p, size_t c) {
    /* A slab is KN_POOL_SLAB bytes (8 blocks where that is more: a multiple
     * of 128 bytes), so every slab starts on a cache line and so does
     * every block of a class of 64 bytes (a table) or a multiple of it; a
     * slab of whole blocks, with no room left over, would put the next
     * slab and its blocks across lines. What is left after the last whole
     * block goes unused. */
    size_t size = (c + 1) << 4, want = KN_POOL_SLAB;
    if (want < 8 * size) want = 8 * size;
    size_t room = (size_t)(p->end - p->top);
    if (room < size) return NULL;
    if (want > room) want = room;
    char *b = p->top;
    p->top += want;
    p->limit[c] = b + want / size * size;
    return b;
}

void *kn_pool_realloc(struct kn_pool *p, void *ptr, size_t old, size_t n) {
    if (n > KN_POOL_MAX) return NULL;
    size_t co = class_of(old), cn = class_of(n);
    if (cn == co) return ptr;
    void *b = kn_pool_alloc(p, n);
    if (b == NULL) {
        if (cn > co) return NULL;
        /* Shrinking with nowhere smaller to go: keep the block. It is given
         * back later with the smaller size, on the smaller class's list,
         * which is safe (the block is larger than that class needs). */
        p->in_use -= (co - cn) << 4;
        return ptr;
    }
    memcpy(b, ptr, n < old ? n : old);
    kn_pool_free(p, ptr, old);
    return b;
}
