/*
 * test_pool.c - unit tests for core/kn_pool.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kn_pool.h"

static void test_classes_and_reuse(void **state)
{
    struct kn_pool p;
    (void)state;
    assert_int_equal(kn_pool_init(&p, 1 << 20), 0);
    char *a = kn_pool_alloc(&p, 1), *b = kn_pool_alloc(&p, 16), *c = kn_pool_alloc(&p, 17);
    assert_non_null(a);
    assert_true(kn_pool_owns(&p, a) && kn_pool_owns(&p, b) && kn_pool_owns(&p, c));
    assert_int_equal(b - a, 16);                     /* 1 and 16 bytes: one class */
    assert_int_equal(c - a, KN_POOL_SLAB);           /* 17: the next class, its own slab */
    assert_ptr_equal(kn_pool_alloc(&p, 2), a + 32);  /* a class's blocks sit together */
    assert_ptr_equal(kn_pool_alloc(&p, 30), c + 32);
    assert_int_equal(p.in_use, 16 + 16 + 32 + 16 + 32);
    assert_null(kn_pool_alloc(&p, KN_POOL_MAX + 1)); /* too large: the caller's */
    assert_null(kn_pool_alloc(&p, 0));
    kn_pool_free(&p, b, 16);
    assert_ptr_equal(kn_pool_alloc(&p, 9), b);       /* a freed block is reused by its class */
    kn_pool_free(&p, c, 17);
    char *d = kn_pool_alloc(&p, 16);
    assert_ptr_not_equal(d, c);                      /* not by another class */
    assert_ptr_equal(kn_pool_alloc(&p, 32), c);
    int x = 5;
    assert_false(kn_pool_owns(&p, &x));
    kn_pool_destroy(&p);
    assert_null(p.base);
}

static void test_slabs(void **state)
{
    struct kn_pool p;
    (void)state;
    assert_int_equal(kn_pool_init(&p, 1 << 20), 0);
    /* 48-byte blocks: 85 fill a slab but its last 16 bytes, and the 86th
     * starts the next slab, on a cache line as every slab does */
    char *first = kn_pool_alloc(&p, 48), *b = first;
    for (int i = 1; i < 86; i++) b = kn_pool_alloc(&p, 48);
    assert_int_equal(b - first, KN_POOL_SLAB);
    assert_int_equal((b - p.base) % 64, 0);
    /* 64-byte blocks (a table) each on a line of their own */
    char *t = kn_pool_alloc(&p, 64);
    assert_int_equal((t - p.base) % 64, 0);
    assert_int_equal(t - b, KN_POOL_SLAB);           /* after the 48-byte class's second slab */
    /* a large class's slab holds 8 of its blocks */
    char *big = kn_pool_alloc(&p, KN_POOL_MAX);
    for (int i = 1; i < 8; i++) assert_ptr_equal(kn_pool_alloc(&p, KN_POOL_MAX), big + i * KN_POOL_MAX);
    assert_ptr_equal(kn_pool_alloc(&p, 100), t + KN_POOL_SLAB + 8 * KN_POOL_MAX);
    kn_pool_destroy(&p);
}

static void test_resize(void **state)
{
    struct kn_pool p;
    (void)state;
    assert_int_equal(kn_pool_init(&p, 1 << 20), 0);
    char *a = kn_pool_alloc(&p, 10);
    memcpy(a, "kontor123", 10);
    assert_ptr_equal(kn_pool_realloc(&p, a, 10, 14), a);   /* same class: same block */
    char *b = kn_pool_realloc(&p, a, 14, 100);
    assert_non_null(b);
    assert_ptr_not_equal(b, a);
    assert_string_equal(b, "kontor123");
    assert_ptr_equal(kn_pool_alloc(&p, 16), a);            /* the old block is free again */
    char *c = kn_pool_realloc(&p, b, 100, 5);              /* shrinks to a new block */
    assert_memory_equal(c, "konto", 5);
    assert_null(kn_pool_realloc(&p, c, 5, KN_POOL_MAX + 1)); /* too large: unchanged */
    assert_memory_equal(c, "kont", 4);
    kn_pool_destroy(&p);
}

static void test_full_region(void **state)
{
    struct kn_pool p;
    (void)state;
    assert_int_equal(kn_pool_init(&p, 4096), 0);
    int n = 0;
    void *last = NULL;
    for (void *b; (b = kn_pool_alloc(&p, 64)) != NULL; n++) last = b;
    assert_int_equal(n, 4096 / 64);                  /* never more than reserved */
    assert_null(kn_pool_alloc(&p, 16));
    /* shrinking with nowhere to go keeps the block, given back as smaller */
    assert_ptr_equal(kn_pool_realloc(&p, last, 64, 20), last);
    assert_null(kn_pool_realloc(&p, last, 20, 200));  /* growing fails: the caller's */
    kn_pool_free(&p, last, 20);
    assert_ptr_equal(kn_pool_alloc(&p, 32), last);
    assert_int_equal(p.in_use, (size_t)(n - 1) * 64 + 32);
    kn_pool_destroy(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_and_reuse),
        cmocka_unit_test(test_slabs),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_full_region),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
