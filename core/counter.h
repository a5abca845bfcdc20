/*
 * counter.h - n bounded int64 values sharing one minimum and maximum.
 *
 * Use INT64_MIN / INT64_MAX for "no bound". Indexes are 0-based. A change
 * that would leave the bounds (or overflow int64) returns KN_ERANGE and
 * changes nothing. A zeroed kn_counter is empty (n = 0) and safe to free;
 * kn_counter_free returns a counter to that state.
 */
#ifndef KN_COUNTER_H
#define KN_COUNTER_H

#include <stdint.h>

typedef struct kn_counter {
    int64_t *v;
    uint32_t n;
    int borrowed;         /* v is the caller's memory (kn_counter_init_in) */
    int64_t min, max;
} kn_counter;

/* n values, all `initial`. KN_EINVAL if min > max, KN_ERANGE if initial is
 * outside min..max, KN_ENOMEM. On failure c is left empty. */
int kn_counter_init(kn_counter *c, uint32_t n, int64_t min, int64_t max,
                    int64_t initial);
/* As kn_counter_init, the n values in the caller's memory v (room for n
 * int64_t, which must outlive c): no allocation, and kn_counter_free
 * frees nothing of it. A binding keeps the values inside the object of
 * its language, whose collector then frees them with it. */
int kn_counter_init_in(kn_counter *c, int64_t *v, uint32_t n, int64_t min,
                       int64_t max, int64_t initial);
void kn_counter_free(kn_counter *c);
int kn_counter_get(const kn_counter *c, uint32_t i, int64_t *out); /* KN_ERANGE */
/* KN_ERANGE if i >= n or v outside min..max. */
int kn_counter_set(kn_counter *c, uint32_t i, int64_t v);
/* Adds delta to value i and stores the result in *out (may be NULL).
 * KN_ERANGE if i >= n, the sum overflows, or it leaves min..max. */
int kn_counter_add(kn_counter *c, uint32_t i, int64_t delta, int64_t *out);
/* The total of all n values in *out. KN_ERANGE if it overflows int64. */
int kn_counter_sum(const kn_counter *c, int64_t *out);

#endif
