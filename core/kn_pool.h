/*
 * kn_pool.h - a pool for many small blocks of memory.
 *
 * A rule script makes and drops small tables all the time (an option list
 * a decision, a list of cards a rule). The C library's malloc keeps a
 * header a block, splits and merges free chunks, and costs about a fifth
 * of a simulated game in instructions. A pool knows the size of every
 * block it is given back (the caller says it, as lua_Alloc does), so it
 * needs neither: blocks of up to KN_POOL_MAX bytes are cut, 16 bytes a
 * size class, from one reserved region, and a freed block goes on its
 * class's free list for the next block of that class.
 *
 * Each class cuts its new blocks from a slab of its own (KN_POOL_SLAB
 * bytes, or 8 blocks where those are larger), taken from the region when
 * the last is used up, so that blocks of one size sit together. Cut from
 * the region in the order asked, a rule script's small objects (its
 * functions' upvalues and closures, the strings its field names are) lie
 * between blocks of every other size, and those a game reads at each
 * step spread over more cache lines: a Sea Merchants 4p game missed a
 * 32 KB first-level data cache 22% more often (callgrind's cache model),
 * and ran 1 to 3% slower (docs/performance.md, "Sea Merchants by time:
 * the pool's slabs and the collector's pause").
 *
 * The region is reserved once (virtual memory; pages are used as they are
 * touched) and never grows: when it is full, kn_pool_alloc returns NULL
 * and the caller uses its own allocator, so the pool holds at most
 * `reserve` bytes whatever a script does. Memory a class has freed is
 * reused by that class only.
 *
 * kn_pool_owns tells whether a block came from the pool: the caller gives
 * every block back to where it came from.
 */
#ifndef KN_POOL_H
#define KN_POOL_H

#include <stddef.h>
#include <string.h>

/* The largest pooled block, bytes: a game's step lists (200 steps) and
 * its thread's stack fit, so a simulated game asks the C library for
 * nothing. */
#define KN_POOL_MAX 4096
#define KN_POOL_CLASSES (KN_POOL_MAX / 16)
/* A class's slab, bytes (or 8 of its blocks where those are larger). */
#define KN_POOL_SLAB 4096

struct kn_pool {
    char *base, *top, *end;              /* the region: [base, top) cut into slabs */
    void *free_list[KN_POOL_CLASSES];    /* freed blocks, by size class */
    char *next[KN_POOL_CLASSES];         /* each class's slab: [next, limit) not cut yet */
    char *limit[KN_POOL_CLASSES];
    size_t in_use;                       /* bytes of blocks handed out */
};

/* Reserves `reserve` bytes of address space. Returns 0, or -1 (the pool
 * is then empty: every kn_pool_alloc returns NULL). */
int kn_pool_init(struct kn_pool *p, size_t reserve);

/* Gives the region back. Every block of the pool becomes invalid. */
void kn_pool_destroy(struct kn_pool *p);

/* A new slab for class c, taken from the region: its first block, or NULL
 * when the region has no room for one block of the class (kn_pool_alloc's
 * slow path). */
void *kn_pool_slab(struct kn_pool *p, size_t c);

static inline int kn_pool_owns(const struct kn_pool *p, const void *ptr) {
    return (const char *)ptr >= p->base && (const char *)ptr < p->end;
}

/* The collector frees blocks all over the region, long before they are
 * asked for again, so the block at the head of a free list is rarely in
 * the cache, and reading its link to the next one stalled: a tenth of a
 * simulated game's time (perf, Sea Merchants 4p). Each allocation asks
 * for the next block of its class to be fetched while the script goes on,
 * so the next allocation of that class finds it there. A hint: it never
 * faults, not even on NULL. */
#if defined(__GNUC__)
#define KN_PREFETCH(ptr) __builtin_prefetch((ptr), 1, 3)
#else
#define KN_PREFETCH(ptr) ((void)(ptr))
#endif

/* A block of n bytes (1..KN_POOL_MAX), or NULL: too large, or the region
 * is full. Inline: a Lua state asks for a block every few instructions. */
static inline void *kn_pool_alloc(struct kn_pool *p, size_t n) {
    if (n - 1 >= KN_POOL_MAX) return NULL;          /* also n == 0 */
    size_t c = (n - 1) >> 4, size = (c + 1) << 4;
    void *b = p->free_list[c];
    if (b != NULL) {
        void *next;
        memcpy(&next, b, sizeof next);              /* the next free block */
        p->free_list[c] = next;
        KN_PREFETCH(next);
    } else {
        b = p->next[c];                             /* limit: past its last whole block */
        if (b == p->limit[c] && (b = kn_pool_slab(p, c)) == NULL) return NULL;
        p->next[c] = (char *)b + size;
    }
    p->in_use += size;
    return b;
}

/* Gives back a block of the pool; n is the size it was asked with (or a
 * smaller size of the same or a lower class: see kn_pool_realloc). */
static inline void kn_pool_free(struct kn_pool *p, void *ptr, size_t n) {
    size_t c = (n - 1) >> 4;
    memcpy(ptr, &p->free_list[c], sizeof ptr);
    p->free_list[c] = ptr;
    p->in_use -= (c + 1) << 4;
}

/* Resizes a block of the pool to n > 0 bytes: the same block when n falls
 * in the same class or shrinks and no smaller block is free to move to,
 * else a new pooled block with the contents moved. NULL when n does not
 * fit the pool (too large, or the region is full): ptr is then unchanged
 * and the caller moves it to its own allocator. */
void *kn_pool_realloc(struct kn_pool *p, void *ptr, size_t old, size_t n);

#endif
