/*
 * kn_alloc.c - the core's allocator (kn_alloc.h).
 */
#include <stdlib.h>

#include "kn_alloc.h"

static void *libc_alloc(void *ud, void *ptr, size_t old, size_t new_size) {
    (void)ud;
    (void)old;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

static kn_alloc_fn alloc_fn = libc_alloc;
static void *alloc_ud = NULL;

void kn_set_allocator(kn_alloc_fn f, void *ud) {
    alloc_fn = f ? f : libc_alloc;
    alloc_ud = f ? ud : NULL;
}

void *kn_realloc(void *ptr, size_t old, size_t new_size) {
    if (ptr == NULL) old = 0;
    return alloc_fn(alloc_ud, ptr, old, new_size);
}
