/*
 * rng.c - xoshiro256** seeded by splitmix64 (see rng.h).
 */
#include "rng.h"
#include "kn_error.h"

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15)

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The splitmix64 output function: a bijection on 64-bit words. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
    *x += GOLDEN;
    return mix64(*x);
}

void kn_rng_seed(kn_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    /* splitmix64 never yields four zero words in a row, but keep the
     * invariant explicit: xoshiro must not start from the zero state. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1;
}

uint64_t kn_rng_next(kn_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* The 128-bit product a * b as (*hi, returned low half). */
static uint64_t mul128(uint64_t a, uint64_t b, uint64_t *hi)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)a * b;
    *hi = (uint64_t)(m >> 64);
    return (uint64_t)m;
#else
    uint64_t al = a & 0xffffffffu, ah = a >> 32;
    uint64_t bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (mid << 32) | (ll & 0xffffffffu);
#endif
}

uint64_t kn_rng_below(kn_rng *r, uint64_t n)
{
    uint64_t hi, lo;
    if (n == 0)
        return 0;
    lo = mul128(kn_rng_next(r), n, &hi);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n;   /* 2^64 mod n */
        while (lo < threshold)
            lo = mul128(kn_rng_next(r), n, &hi);
    }
    return hi;
}

double kn_rng_float(kn_rng *r)
{
    return (double)(kn_rng_next(r) >> 11) * 0x1.0p-53;
}

void kn_rng_shuffle_i32(kn_rng *r, int32_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)kn_rng_below(r, i);   /* 0..i-1, swap with i-1 */
        int32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

void kn_rng_state_hex(const kn_rng *r, char out[65])
{
    static const char digits[] = "0123456789abcdef";
    char *p = out;
    for (int i = 0; i < 4; i++)
        for (int shift = 60; shift >= 0; shift -= 4)
            *p++ = digits[(r->s[i] >> shift) & 0xf];
    *p = '\0';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int kn_rng_set_hex(kn_rng *r, const char *hex)
{
    uint64_t s[4] = { 0, 0, 0, 0 };
    if (hex == NULL)
        return KN_EINVAL;
    for (int i = 0; i < 64; i++) {
        int v = hexval(hex[i]);   /* stops at the NUL of a short string */
        if (v < 0)
            return KN_EINVAL;
        s[i / 16] = (s[i / 16] << 4) | (uint64_t)v;
    }
    if (hex[64] != '\0' || (s[0] | s[1] | s[2] | s[3]) == 0)
        return KN_EINVAL;
    for (int i = 0; i < 4; i++)
        r->s[i] = s[i];
    return KN_OK;
}

uint64_t kn_seed_derive(uint64_t seed, uint64_t index)
{
    return mix64(mix64(seed) + GOLDEN * (index + 1));
}
