/*
 * test_log.c - unit tests for core/log.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "log.h"
#include "kn_error.h"

static void add(kn_log *g, const char *s)
{
    assert_int_equal(kn_log_add(g, s, strlen(s)), KN_OK);
}

static void check_line(const kn_log *g, uint32_t i, const char *want)
{
    size_t len = 0;
    const char *s = kn_log_get(g, i, &len);
    assert_non_null(s);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(s, want, len);
    assert_int_equal(s[len], '\0');
}

static void test_add_get(void **state)
{
    kn_log g;
    size_t len = 7;
    (void)state;
    kn_log_init(&g);
    assert_int_equal(kn_log_count(&g), 0);
    assert_null(kn_log_get(&g, 0, &len));
    assert_int_equal(len, 7);
    add(&g, "Anna draws a card");
    add(&g, "");
    add(&g, "Bert scores 3");
    assert_int_equal(kn_log_count(&g), 3);
    check_line(&g, 0, "Anna draws a card");
    check_line(&g, 1, "");
    check_line(&g, 2, "Bert scores 3");
    assert_null(kn_log_get(&g, 3, NULL));
    assert_string_equal(kn_log_get(&g, 2, NULL), "Bert scores 3");
    kn_log_free(&g);
    assert_int_equal(kn_log_count(&g), 0);
    kn_log_free(&g);                          /* twice is harmless */
}

static void test_embedded_nul(void **state)
{
    kn_log g;
    size_t len = 0;
    const char *s;
    (void)state;
    kn_log_init(&g);
    assert_int_equal(kn_log_add(&g, "a\0b", 3), KN_OK);
    add(&g, "next");
    s = kn_log_get(&g, 0, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(s, "a\0b", 3);
    check_line(&g, 1, "next");
    kn_log_free(&g);
}

static void test_many_lines(void **state)
{
    kn_log g;
    char buf[32];
    (void)state;
    kn_log_init(&g);
    for (int i = 0; i < 5000; i++) {
        snprintf(buf, sizeof buf, "line %d", i);
        add(&g, buf);
    }
    assert_int_equal(kn_log_count(&g), 5000);
    for (int i = 0; i < 5000; i += 499) {
        snprintf(buf, sizeof buf, "line %d", i);
        check_line(&g, (uint32_t)i, buf);
    }
    check_line(&g, 4999, "line 4999");
    kn_log_free(&g);
}

static void test_truncate_clear(void **state)
{
    kn_log g;
    (void)state;
    kn_log_init(&g);
    add(&g, "one");
    add(&g, "two");
    add(&g, "three");
    assert_int_equal(kn_log_truncate(&g, 4), KN_ERANGE);
    assert_int_equal(kn_log_count(&g), 3);
    assert_int_equal(kn_log_truncate(&g, 3), KN_OK);
    assert_int_equal(kn_log_count(&g), 3);
    check_line(&g, 2, "three");
    assert_int_equal(kn_log_truncate(&g, 1), KN_OK);
    assert_int_equal(kn_log_count(&g), 1);
    check_line(&g, 0, "one");
    assert_null(kn_log_get(&g, 1, NULL));
    add(&g, "deux");                          /* appends after the cut */
    assert_int_equal(kn_log_count(&g), 2);
    check_line(&g, 0, "one");
    check_line(&g, 1, "deux");
    assert_int_equal(g.len, strlen("one") + 1 + strlen("deux") + 1);
    kn_log_clear(&g);
    assert_int_equal(kn_log_count(&g), 0);
    assert_null(kn_log_get(&g, 0, NULL));
    add(&g, "again");
    check_line(&g, 0, "again");
    assert_int_equal(kn_log_truncate(&g, 0), KN_OK);
    assert_int_equal(kn_log_count(&g), 0);
    kn_log_free(&g);
}

static void test_zeroed_is_empty(void **state)
{
    kn_log g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(kn_log_count(&g), 0);
    add(&g, "x");
    check_line(&g, 0, "x");
    kn_log_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_get),
        cmocka_unit_test(test_embedded_nul),
        cmocka_unit_test(test_many_lines),
        cmocka_unit_test(test_truncate_clear),
        cmocka_unit_test(test_zeroed_is_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
