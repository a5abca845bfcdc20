/*
 * test_steps.c - unit tests for core/steps.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "steps.h"
#include "kn_error.h"

static void test_push_and_read(void **state)
{
    kn_steps s;
    (void)state;
    assert_int_equal(kn_steps_init(&s, 0), KN_OK);
    assert_int_equal(s.n, 0);
    assert_null(kn_steps_at(&s, 0));
    for (int32_t i = 1; i <= 100; i++)                 /* grows past 16, 32, 64 */
        assert_int_equal(kn_steps_push(&s, i % 4 + 1, i, i == 50 ? KN_STEP_STOP : 0, 0), KN_OK);
    assert_int_equal(s.n, 100);
    assert_true(s.cap >= 100);
    const kn_step *st = kn_steps_at(&s, 49);
    assert_non_null(st);
    assert_int_equal(st->seat, 50 % 4 + 1);
    assert_int_equal(st->option, 50);
    assert_int_equal(st->flags, KN_STEP_STOP);
    assert_int_equal(kn_steps_at(&s, 0)->flags, 0);
    assert_null(kn_steps_at(&s, 100));
    kn_steps_free(&s);
    assert_null(s.v);
    assert_int_equal(s.n, 0);
    kn_steps_free(&s);                                 /* twice is harmless */
}

static void test_bad_option_and_truncate(void **state)
{
    kn_steps s;
    (void)state;
    assert_int_equal(kn_steps_init(&s, 4), KN_OK);
    assert_int_equal(kn_steps_push(&s, 1, 0, 0, 0), KN_ERANGE);   /* options count from 1 */
    assert_int_equal(s.n, 0);
    assert_int_equal(kn_steps_push(&s, 0, 3, 0, 0), KN_OK);       /* seat 0: chance */
    assert_int_equal(kn_steps_push(&s, 2, 1, 0, 0), KN_OK);
    assert_int_equal(kn_steps_truncate(&s, 3), KN_ERANGE);
    assert_int_equal(s.n, 2);
    assert_int_equal(kn_steps_truncate(&s, 1), KN_OK);
    assert_int_equal(s.n, 1);
    assert_int_equal(kn_steps_at(&s, 0)->option, 3);
    kn_steps_free(&s);
}

/* Two blocks of secret steps between plain ones: each is read back by the
 * rank of its seats, a seat's own steps in the order taken. */
static void test_order(void **state)
{
    kn_steps s;
    size_t out[9];
    (void)state;
    kn_steps_init(&s, 0);
    kn_steps_push(&s, 1, 1, 0, 0);                                         /* 0 plain */
    kn_steps_push(&s, 3, 1, KN_STEP_SECRET | KN_STEP_FIRST, 2);            /* 1 block A: seat 3, rank 2 */
    kn_steps_push(&s, 1, 2, KN_STEP_SECRET, 0);                            /* 2 seat 1, rank 0 */
    kn_steps_push(&s, 3, 2, KN_STEP_SECRET, 2);                            /* 3 seat 3 again */
    kn_steps_push(&s, 2, 1, KN_STEP_SECRET, 1);                            /* 4 seat 2, rank 1 */
    kn_steps_push(&s, 2, 5, KN_STEP_SECRET | KN_STEP_FIRST, 1);            /* 5 block B begins */
    kn_steps_push(&s, 1, 5, KN_STEP_SECRET, 0);                            /* 6 */
    kn_steps_push(&s, 1, 1, 0, 0);                                         /* 7 plain */
    assert_int_equal(kn_steps_order(&s, out), 1);
    size_t want[] = {0, 2, 4, 1, 3, 6, 5, 7};
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(out[i], want[i]);
    kn_steps_free(&s);

    kn_steps_init(&s, 0);                  /* already in seat order: the order taken */
    kn_steps_push(&s, 1, 1, KN_STEP_SECRET | KN_STEP_FIRST, 0);
    kn_steps_push(&s, 2, 1, KN_STEP_SECRET, 1);
    kn_steps_push(&s, 1, 1, 0, 0);
    assert_int_equal(kn_steps_order(&s, out), 0);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(out[i], i);
    kn_steps_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_and_read),
        cmocka_unit_test(test_bad_option_and_truncate),
        cmocka_unit_test(test_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
