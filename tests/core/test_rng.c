/*
 * test_rng.c - unit tests for core/rng.c.
 * The expected values were computed once by an independent implementation
 * of splitmix64 + xoshiro256** and are fixed forever: changing them breaks
 * every saved game and recorded simulation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "rng.h"
#include "kn_error.h"

static void test_seed_fixed_outputs(void **state)
{
    kn_rng r;
    (void)state;
    kn_rng_seed(&r, 42);
    assert_int_equal(kn_rng_next(&r), UINT64_C(0x15780b2e0c2ec716));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0x6104d9866d113a7e));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0xae17533239e499a1));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0xecb8ad4703b360a1));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0xfde6dc7fe2ec5e64));

    kn_rng_seed(&r, 0);
    /* splitmix64 from 0 starts with the well-known e220a8397b1dcdaf */
    assert_int_equal(r.s[0], UINT64_C(0xe220a8397b1dcdaf));
    assert_int_equal(r.s[1], UINT64_C(0x6e789e6aa1b965f4));
    assert_int_equal(r.s[2], UINT64_C(0x06c45d188009454f));
    assert_int_equal(r.s[3], UINT64_C(0xf88bb8a8724c81ec));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0x99ec5f36cb75f2b4));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0xbf6e1f784956452a));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0x1a5f849d4933e6e0));
}

static void test_below_fixed(void **state)
{
    static const uint64_t want[10] = { 0, 2, 4, 5, 5, 4, 4, 5, 4, 3 };
    kn_rng r;
    (void)state;
    kn_rng_seed(&r, 42);
    for (int i = 0; i < 10; i++)
        assert_int_equal(kn_rng_below(&r, 6), want[i]);
}

static void test_below_zero_and_one(void **state)
{
    kn_rng r, before;
    (void)state;
    kn_rng_seed(&r, 5);
    before = r;
    assert_int_equal(kn_rng_below(&r, 0), 0);
    assert_memory_equal(&r, &before, sizeof r);   /* no draw for n == 0 */
    for (int i = 0; i < 100; i++)
        assert_int_equal(kn_rng_below(&r, 1), 0);
}

static void test_below_range_and_uniform(void **state)
{
    enum { DRAWS = 60000, SIDES = 6 };
    int count[SIDES] = { 0 };
    kn_rng r;
    (void)state;
    kn_rng_seed(&r, 123456789);
    for (int i = 0; i < DRAWS; i++) {
        uint64_t v = kn_rng_below(&r, SIDES);
        assert_true(v < SIDES);
        count[v]++;
    }
    for (int k = 0; k < SIDES; k++) {
        /* expected 10000 each; allow 5% */
        assert_in_range(count[k], 9500, 10500);
    }
    /* large n, including ones where the rejection zone is big */
    for (int i = 0; i < 10000; i++) {
        uint64_t big = (UINT64_C(1) << 63) + 1;
        assert_true(kn_rng_below(&r, big) < big);
        assert_true(kn_rng_below(&r, UINT64_MAX) < UINT64_MAX);
        assert_true(kn_rng_below(&r, 1000003) < 1000003);
    }
}

static void test_float(void **state)
{
    kn_rng r;
    (void)state;
    kn_rng_seed(&r, 7);
    assert_float_equal(kn_rng_float(&r), 0.7005764821796896, 1e-16);
    assert_float_equal(kn_rng_float(&r), 0.2787512294737843, 1e-16);
    assert_float_equal(kn_rng_float(&r), 0.8396274618764198, 1e-16);
    for (int i = 0; i < 100000; i++) {
        double d = kn_rng_float(&r);
        assert_true(d >= 0.0 && d < 1.0);
    }
}

static void test_state_hex_roundtrip(void **state)
{
    kn_rng r, s;
    char hex[65], hex2[65];
    (void)state;
    kn_rng_seed(&r, 42);
    kn_rng_state_hex(&r, hex);
    assert_string_equal(hex,
        "bdd732262feb6e9528efe333b266f103"
        "47526757130f9f52581ce1ff0e4ae394");
    kn_rng_next(&r);
    kn_rng_next(&r);
    kn_rng_state_hex(&r, hex);
    assert_int_equal(strlen(hex), 64);

    memset(&s, 0, sizeof s);
    assert_int_equal(kn_rng_set_hex(&s, hex), KN_OK);
    assert_memory_equal(&r, &s, sizeof r);
    kn_rng_state_hex(&s, hex2);
    assert_string_equal(hex, hex2);
    /* the restored copy continues the same sequence: the 3rd output of 42 */
    assert_int_equal(kn_rng_next(&s), UINT64_C(0xae17533239e499a1));
    assert_int_equal(kn_rng_next(&r), UINT64_C(0xae17533239e499a1));
    for (int i = 0; i < 50; i++)
        assert_int_equal(kn_rng_next(&r), kn_rng_next(&s));

    /* upper case is accepted */
    assert_int_equal(kn_rng_set_hex(&s,
        "BDD732262FEB6E9528EFE333B266F10347526757130F9F52581CE1FF0E4AE394"),
        KN_OK);
    assert_int_equal(kn_rng_next(&s), UINT64_C(0x15780b2e0c2ec716));
}

static void test_set_hex_rejects(void **state)
{
    kn_rng r, before;
    char hex[66];
    (void)state;
    kn_rng_seed(&r, 9);
    before = r;
    memset(hex, 'a', 64);
    hex[64] = '\0';
    hex[10] = 'g';
    assert_int_equal(kn_rng_set_hex(&r, hex), KN_EINVAL);       /* not hex */
    hex[10] = 'a';
    hex[63] = '\0';
    assert_int_equal(kn_rng_set_hex(&r, hex), KN_EINVAL);       /* 63 digits */
    hex[63] = 'a';
    hex[64] = 'a';
    hex[65] = '\0';
    assert_int_equal(kn_rng_set_hex(&r, hex), KN_EINVAL);       /* 65 digits */
    assert_int_equal(kn_rng_set_hex(&r, ""), KN_EINVAL);
    assert_int_equal(kn_rng_set_hex(&r, NULL), KN_EINVAL);
    memset(hex, '0', 64);
    hex[64] = '\0';
    assert_int_equal(kn_rng_set_hex(&r, hex), KN_EINVAL);       /* zero state */
    assert_memory_equal(&r, &before, sizeof r);                 /* unchanged */
    hex[63] = '1';
    assert_int_equal(kn_rng_set_hex(&r, hex), KN_OK);
    assert_int_equal(r.s[3], 1);
    assert_int_equal(r.s[0] | r.s[1] | r.s[2], 0);
}

static int is_permutation(const int32_t *a, int n)
{
    int seen[64] = { 0 };
    for (int i = 0; i < n; i++) {
        if (a[i] < 0 || a[i] >= n || seen[a[i]])
            return 0;
        seen[a[i]] = 1;
    }
    return 1;
}

static void test_shuffle(void **state)
{
    static const int32_t want[10] = { 2, 3, 8, 5, 6, 4, 1, 9, 7, 0 };
    int32_t a[10], b[10];
    kn_rng r, s;
    (void)state;
    for (int i = 0; i < 10; i++)
        a[i] = b[i] = i;
    kn_rng_seed(&r, 2024);
    kn_rng_shuffle_i32(&r, a, 10);
    assert_memory_equal(a, want, sizeof want);
    assert_true(is_permutation(a, 10));

    /* same as drawing below(i+1) for i = n-1 down to 1 by hand */
    kn_rng_seed(&s, 2024);
    for (int i = 9; i >= 1; i--) {
        int j = (int)kn_rng_below(&s, (uint64_t)i + 1);
        int32_t t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
    assert_memory_equal(a, b, sizeof a);
    assert_memory_equal(&r, &s, sizeof r);

    /* deterministic and always a permutation */
    for (uint64_t seed = 0; seed < 200; seed++) {
        int32_t x[40], y[40];
        for (int i = 0; i < 40; i++)
            x[i] = y[i] = i;
        kn_rng_seed(&r, seed);
        kn_rng_seed(&s, seed);
        kn_rng_shuffle_i32(&r, x, 40);
        kn_rng_shuffle_i32(&s, y, 40);
        assert_memory_equal(x, y, sizeof x);
        assert_true(is_permutation(x, 40));
    }

    /* n = 0 and n = 1 draw nothing */
    kn_rng_seed(&r, 1);
    s = r;
    kn_rng_shuffle_i32(&r, NULL, 0);
    kn_rng_shuffle_i32(&r, a, 1);
    assert_memory_equal(&r, &s, sizeof r);
}

static void test_seed_derive(void **state)
{
    (void)state;
    assert_int_equal(kn_seed_derive(42, 0), UINT64_C(0x989b3f130a063869));
    assert_int_equal(kn_seed_derive(42, 1), UINT64_C(0x290db4bf2570ded7));
    assert_int_equal(kn_seed_derive(42, 2), UINT64_C(0x2a990be63a01b2d5));
    for (uint64_t i = 0; i < 1000; i++) {
        assert_int_not_equal(kn_seed_derive(1, i), kn_seed_derive(1, i + 1));
        assert_int_not_equal(kn_seed_derive(1, i), kn_seed_derive(2, i));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_fixed_outputs),
        cmocka_unit_test(test_below_fixed),
        cmocka_unit_test(test_below_zero_and_one),
        cmocka_unit_test(test_below_range_and_uniform),
        cmocka_unit_test(test_float),
        cmocka_unit_test(test_state_hex_roundtrip),
        cmocka_unit_test(test_set_hex_rejects),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_seed_derive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
