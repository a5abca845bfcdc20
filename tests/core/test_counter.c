/*
 * test_counter.c - unit tests for core/counter.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "counter.h"
#include "kn_error.h"

static int64_t value(const kn_counter *c, uint32_t i)
{
    int64_t v = -12345;
    assert_int_equal(kn_counter_get(c, i, &v), KN_OK);
    return v;
}

static void test_init(void **state)
{
    kn_counter c;
    (void)state;
    assert_int_equal(kn_counter_init(&c, 3, 0, 5, 2), KN_OK);
    assert_int_equal(c.n, 3);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(value(&c, i), 2);
    kn_counter_free(&c);
    assert_null(c.v);
    assert_int_equal(c.n, 0);
    kn_counter_free(&c);                          /* twice is harmless */

    assert_int_equal(kn_counter_init(&c, 3, 0, 5, 6), KN_ERANGE);
    assert_int_equal(c.n, 0);
    assert_null(c.v);
    assert_int_equal(kn_counter_init(&c, 3, 0, 5, -1), KN_ERANGE);
    assert_int_equal(kn_counter_init(&c, 3, 5, 0, 2), KN_EINVAL);
    assert_int_equal(kn_counter_init(&c, 2, INT64_MIN, INT64_MAX, INT64_MIN),
                     KN_OK);
    assert_int_equal(value(&c, 1), INT64_MIN);
    kn_counter_free(&c);
}

static void test_get_set(void **state)
{
    kn_counter c;
    int64_t v = 99;
    (void)state;
    kn_counter_init(&c, 2, -3, 5, 0);
    assert_int_equal(kn_counter_set(&c, 1, 5), KN_OK);
    assert_int_equal(value(&c, 1), 5);
    assert_int_equal(kn_counter_set(&c, 1, 6), KN_ERANGE);
    assert_int_equal(value(&c, 1), 5);            /* unchanged */
    assert_int_equal(kn_counter_set(&c, 0, -4), KN_ERANGE);
    assert_int_equal(value(&c, 0), 0);
    assert_int_equal(kn_counter_set(&c, 0, -3), KN_OK);
    assert_int_equal(value(&c, 0), -3);
    assert_int_equal(kn_counter_set(&c, 2, 1), KN_ERANGE);   /* index */
    assert_int_equal(kn_counter_get(&c, 2, &v), KN_ERANGE);
    assert_int_equal(v, 99);
    kn_counter_free(&c);
}

static void test_add_bounds(void **state)
{
    kn_counter c;
    int64_t out = 42;
    (void)state;
    kn_counter_init(&c, 2, 0, 5, 0);
    assert_int_equal(kn_counter_add(&c, 1, 3, &out), KN_OK);
    assert_int_equal(out, 3);
    assert_int_equal(kn_counter_add(&c, 1, 2, &out), KN_OK);
    assert_int_equal(out, 5);
    out = 42;
    assert_int_equal(kn_counter_add(&c, 1, 1, &out), KN_ERANGE);
    assert_int_equal(out, 42);
    assert_int_equal(value(&c, 1), 5);            /* unchanged */
    assert_int_equal(kn_counter_add(&c, 0, -1, &out), KN_ERANGE);
    assert_int_equal(value(&c, 0), 0);
    assert_int_equal(kn_counter_add(&c, 1, -5, NULL), KN_OK);
    assert_int_equal(value(&c, 1), 0);
    assert_int_equal(kn_counter_add(&c, 2, 1, &out), KN_ERANGE);  /* index */
    kn_counter_free(&c);
}

static void test_add_overflow(void **state)
{
    kn_counter c;
    int64_t out = 0;
    (void)state;
    kn_counter_init(&c, 1, INT64_MIN, INT64_MAX, INT64_MAX - 1);
    assert_int_equal(kn_counter_add(&c, 0, 1, &out), KN_OK);
    assert_int_equal(out, INT64_MAX);
    assert_int_equal(kn_counter_add(&c, 0, 1, &out), KN_ERANGE);
    assert_int_equal(value(&c, 0), INT64_MAX);
    assert_int_equal(kn_counter_add(&c, 0, INT64_MAX, &out), KN_ERANGE);
    assert_int_equal(kn_counter_add(&c, 0, INT64_MIN, &out), KN_OK);
    assert_int_equal(out, -1);
    assert_int_equal(kn_counter_set(&c, 0, INT64_MIN + 1), KN_OK);
    assert_int_equal(kn_counter_add(&c, 0, -2, &out), KN_ERANGE);
    assert_int_equal(value(&c, 0), INT64_MIN + 1);
    assert_int_equal(kn_counter_add(&c, 0, INT64_MIN, &out), KN_ERANGE);
    assert_int_equal(kn_counter_add(&c, 0, -1, &out), KN_OK);
    assert_int_equal(out, INT64_MIN);
    kn_counter_free(&c);
}

static void test_sum(void **state)
{
    kn_counter c;
    int64_t out = 42;
    (void)state;
    kn_counter_init(&c, 3, INT64_MIN, INT64_MAX, 0);
    assert_int_equal(kn_counter_sum(&c, &out), KN_OK);
    assert_int_equal(out, 0);
    kn_counter_set(&c, 0, 5);
    kn_counter_set(&c, 2, -2);
    assert_int_equal(kn_counter_sum(&c, &out), KN_OK);
    assert_int_equal(out, 3);
    kn_counter_set(&c, 1, INT64_MAX);             /* 5 + MAX overflows */
    out = 42;
    assert_int_equal(kn_counter_sum(&c, &out), KN_ERANGE);
    assert_int_equal(out, 42);
    kn_counter_set(&c, 0, INT64_MIN);             /* MIN + MAX - 2 fits */
    assert_int_equal(kn_counter_sum(&c, &out), KN_OK);
    assert_int_equal(out, -3);
    kn_counter_free(&c);
}

/* kn_counter_init_in: the values in the caller's memory, which
 * kn_counter_free leaves alone. */
static void test_init_in(void **state)
{
    kn_counter c;
    int64_t v[3] = { 9, 9, 9 };
    (void)state;
    assert_int_equal(kn_counter_init_in(&c, v, 3, 0, 5, 6), KN_ERANGE);
    assert_int_equal(c.n, 0);
    assert_int_equal(kn_counter_init_in(&c, v, 3, 5, 0, 2), KN_EINVAL);
    assert_int_equal(kn_counter_init_in(&c, v, 3, 0, 5, 2), KN_OK);
    assert_ptr_equal(c.v, v);
    assert_int_equal(v[2], 2);
    assert_int_equal(kn_counter_add(&c, 2, 3, NULL), KN_OK);
    assert_int_equal(v[2], 5);
    assert_int_equal(kn_counter_add(&c, 2, 1, NULL), KN_ERANGE);
    kn_counter_free(&c);                  /* frees nothing of v */
    assert_int_equal(c.n, 0);
    assert_null(c.v);
    assert_int_equal(v[2], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_get_set),
        cmocka_unit_test(test_add_bounds),
        cmocka_unit_test(test_add_overflow),
        cmocka_unit_test(test_sum),
        cmocka_unit_test(test_init_in),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
