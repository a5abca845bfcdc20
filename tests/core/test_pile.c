/*
 * test_pile.c - unit tests for core/pile.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "pile.h"
#include "kn_error.h"

/* Asserts that p holds exactly want[0..n-1], bottom first. */
static void check_cards(const kn_pile *p, const int32_t *want, uint32_t n)
{
    assert_int_equal(p->n, n);
    for (uint32_t i = 0; i < n; i++) {
        int32_t c = -999;
        assert_int_equal(kn_pile_get(p, i, &c), KN_OK);
        assert_int_equal(c, want[i]);
    }
}

static void test_init_free(void **state)
{
    kn_pile p;
    (void)state;
    assert_int_equal(kn_pile_init(&p, KN_VIS_OWNER, 3), KN_OK);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.vis, KN_VIS_OWNER);
    assert_int_equal(p.owner, 3);
    assert_int_equal(kn_pile_init(&p, (kn_vis)7, 0), KN_EINVAL);
    assert_int_equal(kn_pile_push(&p, 1), KN_OK);
    kn_pile_free(&p);
    assert_null(p.cards);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.cap, 0);
    kn_pile_free(&p);                      /* twice is harmless */
}

static void test_push_pop_top(void **state)
{
    kn_pile p;
    int32_t c = 0;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    assert_int_equal(kn_pile_pop(&p, &c), KN_EEMPTY);
    assert_int_equal(kn_pile_top(&p, &c), KN_EEMPTY);
    for (int32_t i = 1; i <= 100; i++)
        assert_int_equal(kn_pile_push(&p, i * 10), KN_OK);
    assert_int_equal(p.n, 100);
    assert_true(p.cap >= 100);
    assert_int_equal(kn_pile_top(&p, &c), KN_OK);
    assert_int_equal(c, 1000);
    assert_int_equal(p.n, 100);
    for (int32_t i = 100; i >= 1; i--) {
        assert_int_equal(kn_pile_pop(&p, &c), KN_OK);
        assert_int_equal(c, i * 10);
    }
    assert_int_equal(kn_pile_pop(&p, &c), KN_EEMPTY);
    assert_int_equal(c, 10);               /* untouched on error */
    /* extreme values survive */
    kn_pile_push(&p, INT32_MIN);
    kn_pile_push(&p, INT32_MAX);
    assert_int_equal(kn_pile_pop(&p, &c), KN_OK);
    assert_int_equal(c, INT32_MAX);
    assert_int_equal(kn_pile_pop(&p, &c), KN_OK);
    assert_int_equal(c, INT32_MIN);
    kn_pile_free(&p);
}

static void test_reserve_no_realloc(void **state)
{
    kn_pile p;
    int32_t *before;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    assert_int_equal(kn_pile_reserve(&p, 50), KN_OK);
    assert_true(p.cap >= 50);
    before = p.cards;
    for (int32_t i = 0; i < 50; i++)
        kn_pile_push(&p, i);
    assert_ptr_equal(p.cards, before);     /* capacity sufficed */
    assert_int_equal(kn_pile_reserve(&p, 10), KN_OK);
    assert_ptr_equal(p.cards, before);
    assert_int_equal(kn_pile_reserve(&p, KN_PILE_MAX + (uint32_t)1), KN_ENOMEM);
    assert_int_equal(p.n, 50);
    kn_pile_free(&p);
}

static void test_get_set(void **state)
{
    static const int32_t want[3] = { 1, 20, 3 };
    kn_pile p;
    int32_t c = 77;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    kn_pile_push(&p, 1);
    kn_pile_push(&p, 2);
    kn_pile_push(&p, 3);
    assert_int_equal(kn_pile_set(&p, 1, 20), KN_OK);
    check_cards(&p, want, 3);
    assert_int_equal(kn_pile_get(&p, 3, &c), KN_ERANGE);
    assert_int_equal(c, 77);
    assert_int_equal(kn_pile_set(&p, 3, 9), KN_ERANGE);
    check_cards(&p, want, 3);
    kn_pile_free(&p);
}

static void test_insert_remove(void **state)
{
    kn_pile p;
    int32_t c = 0;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    assert_int_equal(kn_pile_insert(&p, 1, 5), KN_ERANGE);  /* pos > n */
    assert_int_equal(kn_pile_insert(&p, 0, 5), KN_OK);      /* 5 */
    assert_int_equal(kn_pile_insert(&p, 0, 4), KN_OK);      /* 4 5 */
    assert_int_equal(kn_pile_insert(&p, 2, 7), KN_OK);      /* 4 5 7 */
    assert_int_equal(kn_pile_insert(&p, 2, 6), KN_OK);      /* 4 5 6 7 */
    {
        static const int32_t want[4] = { 4, 5, 6, 7 };
        check_cards(&p, want, 4);
    }
    assert_int_equal(kn_pile_insert(&p, 5, 9), KN_ERANGE);
    assert_int_equal(kn_pile_remove(&p, 4, &c), KN_ERANGE);
    assert_int_equal(kn_pile_remove(&p, 1, &c), KN_OK);     /* 4 6 7 */
    assert_int_equal(c, 5);
    assert_int_equal(kn_pile_remove(&p, 2, &c), KN_OK);     /* 4 6 */
    assert_int_equal(c, 7);
    assert_int_equal(kn_pile_remove(&p, 0, &c), KN_OK);     /* 6 */
    assert_int_equal(c, 4);
    {
        static const int32_t want[1] = { 6 };
        check_cards(&p, want, 1);
    }
    assert_int_equal(kn_pile_remove(&p, 0, NULL), KN_OK);
    assert_int_equal(kn_pile_remove(&p, 0, &c), KN_ERANGE);
    kn_pile_free(&p);
}

static void test_find_count_of(void **state)
{
    static const int32_t cards[6] = { 3, 1, 4, 1, 5, 9 };
    kn_pile p;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    assert_int_equal(kn_pile_find(&p, 1), -1);
    for (int i = 0; i < 6; i++)
        kn_pile_push(&p, cards[i]);
    assert_int_equal(kn_pile_find(&p, 1), 1);   /* the lowest copy */
    assert_int_equal(kn_pile_find(&p, 9), 5);
    assert_int_equal(kn_pile_find(&p, 2), -1);
    assert_int_equal(kn_pile_count_of(&p, 1), 2);
    assert_int_equal(kn_pile_count_of(&p, 3), 1);
    assert_int_equal(kn_pile_count_of(&p, 8), 0);
    kn_pile_free(&p);
}

static void test_move(void **state)
{
    kn_pile a, b;
    (void)state;
    kn_pile_init(&a, KN_VIS_HIDDEN, 0);
    kn_pile_init(&b, KN_VIS_OWNER, 1);
    for (int32_t i = 1; i <= 5; i++)
        kn_pile_push(&a, i);                        /* a: 1 2 3 4 5 */
    kn_pile_push(&b, 100);                          /* b: 100 */
    assert_int_equal(kn_pile_move(&a, &b, 3), KN_OK);
    {
        static const int32_t wa[2] = { 1, 2 };
        static const int32_t wb[4] = { 100, 5, 4, 3 };  /* order reversed */
        check_cards(&a, wa, 2);
        check_cards(&b, wb, 4);
    }
    /* too few: nothing moves */
    assert_int_equal(kn_pile_move(&a, &b, 3), KN_EEMPTY);
    {
        static const int32_t wa[2] = { 1, 2 };
        static const int32_t wb[4] = { 100, 5, 4, 3 };
        check_cards(&a, wa, 2);
        check_cards(&b, wb, 4);
    }
    assert_int_equal(kn_pile_move(&a, &b, 0), KN_OK);
    assert_int_equal(kn_pile_move(&b, &b, 2), KN_OK);  /* onto itself */
    assert_int_equal(kn_pile_move(&b, &b, 5), KN_EEMPTY);
    assert_int_equal(kn_pile_move(&a, &b, 2), KN_OK);
    {
        static const int32_t wb[6] = { 100, 5, 4, 3, 2, 1 };
        check_cards(&b, wb, 6);
    }
    assert_int_equal(a.n, 0);
    assert_int_equal(kn_pile_move(&a, &b, 1), KN_EEMPTY);
    /* the piles keep their own visibility */
    assert_int_equal(a.vis, KN_VIS_HIDDEN);
    assert_int_equal(b.vis, KN_VIS_OWNER);
    kn_pile_free(&a);
    kn_pile_free(&b);
}

static void test_shuffle(void **state)
{
    kn_pile p, q;
    kn_rng r, s;
    int32_t arr[20];
    int seen[20] = { 0 };
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    for (int32_t i = 0; i < 20; i++) {
        kn_pile_push(&p, i);
        arr[i] = i;
    }
    kn_rng_seed(&r, 77);
    kn_rng_seed(&s, 77);
    assert_int_equal(kn_pile_shuffle(&p, &r), KN_OK);
    kn_rng_shuffle_i32(&s, arr, 20);
    check_cards(&p, arr, 20);                 /* same as the rng's shuffle */
    for (uint32_t i = 0; i < p.n; i++)
        seen[p.cards[i]]++;
    for (int i = 0; i < 20; i++)
        assert_int_equal(seen[i], 1);
    /* a copy shuffled with the same seed comes out the same */
    kn_pile_init(&q, KN_VIS_PUBLIC, 0);
    for (int32_t i = 0; i < 20; i++)
        kn_pile_push(&q, i);
    kn_rng_seed(&s, 77);
    kn_pile_shuffle(&q, &s);
    assert_memory_equal(p.cards, q.cards, 20 * sizeof(int32_t));
    kn_pile_free(&p);
    kn_pile_free(&q);
}

static void test_copy_clear(void **state)
{
    static const int32_t want[3] = { 7, 8, 9 };
    kn_pile a, b;
    (void)state;
    kn_pile_init(&a, KN_VIS_OWNER, 2);
    kn_pile_init(&b, KN_VIS_PUBLIC, 0);
    kn_pile_push(&b, 1);
    for (int32_t i = 7; i <= 9; i++)
        kn_pile_push(&a, i);
    assert_int_equal(kn_pile_copy(&b, &a), KN_OK);
    check_cards(&b, want, 3);
    assert_int_equal(b.vis, KN_VIS_OWNER);
    assert_int_equal(b.owner, 2);
    assert_ptr_not_equal(a.cards, b.cards);
    kn_pile_set(&b, 0, 70);                   /* independent storage */
    check_cards(&a, want, 3);
    assert_int_equal(kn_pile_copy(&a, &a), KN_OK);
    check_cards(&a, want, 3);
    kn_pile_clear(&a);
    assert_int_equal(a.n, 0);
    assert_true(a.cap >= 3);
    assert_int_equal(kn_pile_top(&a, NULL), KN_EEMPTY);
    /* copying an empty pile */
    assert_int_equal(kn_pile_copy(&b, &a), KN_OK);
    assert_int_equal(b.n, 0);
    kn_pile_free(&a);
    kn_pile_free(&b);
}

static void test_visibility(void **state)
{
    kn_pile p;
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 1);
    assert_true(kn_pile_visible_to(&p, 1));
    assert_true(kn_pile_visible_to(&p, 2));
    assert_true(kn_pile_visible_to(&p, 0));
    kn_pile_init(&p, KN_VIS_OWNER, 2);
    assert_false(kn_pile_visible_to(&p, 1));
    assert_true(kn_pile_visible_to(&p, 2));
    assert_false(kn_pile_visible_to(&p, 3));
    kn_pile_init(&p, KN_VIS_HIDDEN, 2);
    assert_false(kn_pile_visible_to(&p, 1));
    assert_false(kn_pile_visible_to(&p, 2));
    kn_pile_free(&p);
}

/* kn_pile_use: the cards in the caller's memory; the pile never grows
 * by itself then, and kn_pile_free leaves that memory alone. */
static void test_use(void **state)
{
    kn_pile p;
    int32_t small[4], big[8];
    const int32_t want[] = { 1, 2, 3, 4, 5 };
    (void)state;
    kn_pile_init(&p, KN_VIS_PUBLIC, 0);
    assert_int_equal(kn_pile_push(&p, 1), KN_OK);  /* its own array first */
    assert_int_equal(kn_pile_use(&p, small, 4), KN_OK);
    assert_ptr_equal(p.cards, small);
    for (int32_t c = 2; c <= 4; c++)
        assert_int_equal(kn_pile_push(&p, c), KN_OK);
    check_cards(&p, want, 4);
    assert_int_equal(kn_pile_push(&p, 5), KN_ENOMEM);      /* full: unchanged */
    assert_int_equal(kn_pile_insert(&p, 0, 5), KN_ENOMEM);
    assert_int_equal(kn_pile_reserve(&p, 5), KN_ENOMEM);
    check_cards(&p, want, 4);
    assert_int_equal(kn_pile_use(&p, big, 3), KN_EINVAL);  /* too small: unchanged */
    assert_ptr_equal(p.cards, small);
    assert_int_equal(kn_pile_use(&p, big, 8), KN_OK);
    assert_int_equal(kn_pile_push(&p, 5), KN_OK);
    check_cards(&p, want, 5);
    assert_int_equal(p.cap, 8);
    kn_pile_free(&p);                       /* frees nothing of big */
    assert_null(p.cards);
    assert_int_equal(p.cap, 0);
    assert_int_equal(kn_pile_push(&p, 1), KN_OK);    /* its own array again */
    kn_pile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_free),
        cmocka_unit_test(test_push_pop_top),
        cmocka_unit_test(test_reserve_no_realloc),
        cmocka_unit_test(test_get_set),
        cmocka_unit_test(test_insert_remove),
        cmocka_unit_test(test_find_count_of),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_copy_clear),
        cmocka_unit_test(test_visibility),
        cmocka_unit_test(test_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
