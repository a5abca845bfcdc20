/*
 * rng.h - the deterministic random number generator of Kontor.
 *
 * Algorithm
 *   The generator is xoshiro256** (Blackman and Vigna, 2018): 256 bits of
 *   state s[0..3], period 2^256 - 1. kn_rng_seed() fills the state with four
 *   consecutive outputs of splitmix64 started at the 64-bit seed, so every
 *   seed (0 included) gives a well-mixed, non-zero state.
 *
 *   kn_rng_below(n) is Lemire's "nearly divisionless" method: the 128-bit
 *   product x * n of a 64-bit draw x is taken; its low half decides whether
 *   the draw must be rejected (only when it falls in the 2^64 mod n biased
 *   zone) and its high half is the result. The result is exactly uniform
 *   over 0..n-1. The 128-bit product is computed with unsigned __int128 when
 *   the compiler has it and otherwise from 32-bit halves; both give the same
 *   bits.
 *
 *   kn_rng_float() returns the top 53 bits of a draw times 2^-53: a double
 *   in [0, 1) on the grid k / 2^53.
 *
 *   kn_rng_shuffle_i32() is Fisher-Yates from the end: for i = n-1 down to 1,
 *   j = kn_rng_below(i + 1), swap a[i] and a[j]. It uses exactly n-1 calls
 *   of kn_rng_below (none when n < 2).
 *
 *   kn_seed_derive(seed, i) returns mix(mix(seed) + G * (i + 1)) where mix is
 *   the splitmix64 finaliser (a bijection on 64-bit words) and G the odd
 *   constant 0x9e3779b97f4a7c15. For one seed, different indexes give
 *   different derived seeds.
 *
 * Guarantees
 *   Only fixed-width unsigned integer arithmetic is used (and one exact
 *   conversion to double), so the same seed gives the same sequence of
 *   kn_rng_next, kn_rng_below, kn_rng_float and kn_rng_shuffle_i32 results
 *   on every platform and compiler, now and in later versions of Kontor.
 *   The state can be saved as 64 hex digits (kn_rng_state_hex) and restored
 *   (kn_rng_set_hex); the restored generator continues the same sequence.
 *
 * A kn_rng is plain data: copy it with = to fork the sequence.
 */
#ifndef KN_RNG_H
#define KN_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct kn_rng { uint64_t s[4]; } kn_rng;

/* Sets the state from a seed (any value, 0 included). */
void kn_rng_seed(kn_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t kn_rng_next(kn_rng *r);

/* A uniform integer in 0..n-1; 0 (and no draw) when n == 0. */
uint64_t kn_rng_below(kn_rng *r, uint64_t n);

/* A uniform double in [0, 1), a multiple of 2^-53. */
double kn_rng_float(kn_rng *r);

/* Shuffles a[0..n-1] in place (Fisher-Yates from the end). */
void kn_rng_shuffle_i32(kn_rng *r, int32_t *a, size_t n);

/* Writes the state as 64 lowercase hex digits and a NUL: s[0], s[1], s[2],
 * s[3], each as 16 digits, most significant first. */
void kn_rng_state_hex(const kn_rng *r, char out[65]);

/* Sets the state from 64 hex digits (either case) as written by
 * kn_rng_state_hex. KN_EINVAL, and r unchanged, unless hex is exactly 64 hex
 * digits and not the all-zero state. */
int kn_rng_set_hex(kn_rng *r, const char *hex);

/* A seed for game number `index` of a run started from `seed`. */
uint64_t kn_seed_derive(uint64_t seed, uint64_t index);

#endif
