/*
 * steps.h - a game's step record: the steps taken, in the order taken.
 *
 * A game is a pure function of its rule set, options, seed and steps
 * (docs/architecture.md). A step is the seat that decided and the number
 * of the option it took (1-based, as the rule script counts them), with
 * the marks the record is read back by:
 *   KN_STEP_STOP    its text repeats the seat's previous step as a
 *                   "stop here" (undo and moves merge steps into moves);
 *   KN_STEP_SECRET  it is one of a block of secret steps (an order of
 *                   g:choose_orders, the choices of a g:choose_all);
 *   KN_STEP_FIRST   it begins such a block;
 * and, for a secret step, the rank of its seat in the block's list of
 * seats: a block is read back in that order (kn_steps_order), which makes
 * the record canonical whatever order the steps arrived in.
 * Option texts are not kept: they are made from the steps when asked.
 *
 * Indexes are 0-based. A zeroed kn_steps is empty and safe to free.
 */
#ifndef KN_STEPS_H
#define KN_STEPS_H

#include <stddef.h>
#include <stdint.h>

enum {
    KN_STEP_STOP = 1,
    KN_STEP_SECRET = 2,
    KN_STEP_FIRST = 4
};

/* The most seats a secret block ranks (a rank is 0..KN_STEP_MAX_RANK). */
#define KN_STEP_MAX_RANK 0xffff

typedef struct kn_step {
    int32_t seat;       /* 0: chance */
    int32_t option;     /* 1..the decision's number of options */
    uint16_t flags;     /* KN_STEP_* */
    uint16_t rank;      /* a secret step's place in its block's seats */
} kn_step;

typedef struct kn_steps {
    kn_step *v;
    size_t n, cap;
} kn_steps;

/* Room for `cap` steps (0: none yet). KN_ENOMEM; s is then empty. */
int kn_steps_init(kn_steps *s, size_t cap);
void kn_steps_free(kn_steps *s);
/* Appends a step. KN_ENOMEM (s unchanged), KN_ERANGE for an option < 1. */
int kn_steps_push(kn_steps *s, int32_t seat, int32_t option, uint16_t flags, uint16_t rank);
/* Keeps the first n steps (n > s->n: KN_ERANGE). */
int kn_steps_truncate(kn_steps *s, size_t n);
/* Step i, or NULL past the end. */
const kn_step *kn_steps_at(const kn_steps *s, size_t i);
/* The record's indexes in the order it is read back: each block of secret
 * steps ordered by rank (a seat's own steps in the order taken), the rest
 * as taken. `out` holds s->n indexes. Returns 1 if that differs from the
 * order taken, else 0 (out then holds 0..n-1). */
int kn_steps_order(const kn_steps *s, size_t *out);

#endif
