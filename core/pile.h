/*
 * pile.h - an ordered pile of card ids.
 *
 * cards[0] is the bottom and cards[n-1] the top. Indexes are 0-based.
 * A pile holds at most KN_PILE_MAX cards, so every index fits an int32_t.
 * The array grows by doubling; an operation allocates only when the
 * capacity is too small. Functions return KN_OK or a negative code from
 * kn_error.h and leave the pile unchanged when they fail.
 *
 * A zeroed kn_pile is an empty public pile owned by seat 0; kn_pile_free
 * returns a pile to that state, so freeing twice is harmless.
 *
 * The cards may instead live in memory the caller gives (kn_pile_use): a
 * binding keeps them inside the object of its language, whose collector
 * frees them with it. Such a pile never grows by itself: an operation that
 * needs more room returns KN_ENOMEM and changes nothing, and the caller
 * gives it a larger block first (kn_pile_use again).
 */
#ifndef KN_PILE_H
#define KN_PILE_H

#include <stdint.h>
#include "rng.h"

typedef enum { KN_VIS_PUBLIC, KN_VIS_OWNER, KN_VIS_HIDDEN } kn_vis;

typedef struct kn_pile {
    int32_t *cards;
    uint32_t n, cap;
    kn_vis vis;
    int owner;
    int borrowed;         /* cards is the caller's memory (kn_pile_use) */
} kn_pile;

#define KN_PILE_MAX ((uint32_t)INT32_MAX)

/* An empty pile. KN_EINVAL for a vis outside the enum. */
int kn_pile_init(kn_pile *p, kn_vis vis, int owner);
/* From now on p keeps its cards in `cards`, room for cap cards, the
 * caller's memory (which must outlive p's use of it): p's cards are copied
 * there and its own array, if any, freed. KN_EINVAL (nothing changes) if
 * cap is below the cards p holds. */
int kn_pile_use(kn_pile *p, int32_t *cards, uint32_t cap);
/* Frees the array (not the caller's: kn_pile_use); p becomes an empty
 * public pile of seat 0. */
void kn_pile_free(kn_pile *p);
/* Makes room for cap cards. KN_ENOMEM if that fails or cap > KN_PILE_MAX,
 * or the cards are the caller's (kn_pile_use) and fewer than cap fit. */
int kn_pile_reserve(kn_pile *p, uint32_t cap);

int kn_pile_push(kn_pile *p, int32_t card);               /* KN_ENOMEM */
int kn_pile_pop(kn_pile *p, int32_t *out);                /* KN_EEMPTY */
int kn_pile_top(const kn_pile *p, int32_t *out);          /* KN_EEMPTY */
int kn_pile_get(const kn_pile *p, uint32_t i, int32_t *out); /* KN_ERANGE */
int kn_pile_set(kn_pile *p, uint32_t i, int32_t card);    /* KN_ERANGE */
/* Inserts at pos 0..n (n = on top); KN_ERANGE, KN_ENOMEM. */
int kn_pile_insert(kn_pile *p, uint32_t pos, int32_t card);
/* Removes the card at pos 0..n-1 into *out; KN_ERANGE. */
int kn_pile_remove(kn_pile *p, uint32_t pos, int32_t *out);
/* The index of the lowest copy of card, or -1. */
int32_t kn_pile_find(const kn_pile *p, int32_t card);
uint32_t kn_pile_count_of(const kn_pile *p, int32_t card);
/* Moves the top k cards of from onto to, one at a time, so their order
 * reverses. KN_EEMPTY (nothing moved) if from has fewer than k cards;
 * KN_ENOMEM (nothing moved). from == to is allowed and changes nothing. */
int kn_pile_move(kn_pile *from, kn_pile *to, uint32_t k);
/* kn_rng_shuffle_i32 on the cards. */
int kn_pile_shuffle(kn_pile *p, kn_rng *r);
/* Makes dst (an initialised pile) equal to src: cards, vis and owner. */
int kn_pile_copy(kn_pile *dst, const kn_pile *src);
/* Removes every card; keeps the capacity. */
void kn_pile_clear(kn_pile *p);
/* 1 if seat may see the cards: public yes, owner only its owner, hidden no. */
int kn_pile_visible_to(const kn_pile *p, int seat);

#endif
