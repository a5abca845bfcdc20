/*
 * fixed_time.c - a time() that gives the same second every call, for
 * measuring: Lua seeds its string hashes from the clock and from
 * addresses, so callgrind's count of one run differs from the next by
 * about 0.5%. Preloaded into a run with the addresses fixed (setarch -R),
 * every run of the same command counts the same (docs/performance.md,
 * "Counting without noise"). FIXED_TIME chooses the second (another seed).
 *
 *   cc -shared -fPIC -O2 -o build/fixed_time.so tests/bench/fixed_time.c
 *   FIXED_TIME=1 setarch -R env LD_PRELOAD=build/fixed_time.so valgrind --tool=callgrind ...
 */
#include <stdlib.h>
#include <time.h>

time_t time(time_t *t) {
    const char *s = getenv("FIXED_TIME");
    time_t v = s ? (time_t)atol(s) : 1000000000;
    if (t) *t = v;
    return v;
}
