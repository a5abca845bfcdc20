/*
 * kn_alloc.h - the one allocator of the core.
 *
 * Every byte the core's piles, counters and logs hold comes from
 * kn_realloc, which calls the function set with kn_set_allocator (by
 * default the C library's). The function has the shape of lua_Alloc, so an
 * embedder can route the core's memory through the same accounting as
 * everything else, and a memory cap covers both:
 *   f(ud, ptr, old, new): new == 0 frees ptr (returns NULL); otherwise it
 *   returns a block of `new` bytes holding the first min(old, new) bytes of
 *   ptr (ptr may be NULL, old then 0), or NULL and ptr stays valid.
 */
#ifndef KN_ALLOC_H
#define KN_ALLOC_H

#include <stddef.h>

typedef void *(*kn_alloc_fn)(void *ud, void *ptr, size_t old, size_t new_size);

/* NULL restores the C library's allocator. */
void kn_set_allocator(kn_alloc_fn f, void *ud);

void *kn_realloc(void *ptr, size_t old, size_t new_size);

static inline void kn_free(void *ptr, size_t old) {
    if (ptr != NULL) kn_realloc(ptr, old, 0);
}

#endif
