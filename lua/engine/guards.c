/*
 * guards.c - the library functions a rule script may call that loop in C
 * (pattern matching, passes over a string's bytes, table.concat, move,
 * insert, remove and sort, coroutine.close, string.format's addresses),
 * charged to the armed call's work counter or refused, and pairs and next
 * in a fixed order. The limits and the armed call: sandbox.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "engine/sandbox.h"

#define MAX_PATTERN_WORK 1e8                /* est. matcher steps per call */
#define MAX_CLOSE_DEPTH 100                 /* coroutine.close in __close */

/* ---- C functions that loop ---------------------------------------------- */
/* No hook watches C code: a library function looping in C (a backtracking
 * pattern, string.rep of an empty string, table.move over 2^40 indices)
 * would run until the call returns. While a call is armed these wrappers
 * charge the work to the call's work counter or refuse it; unarmed (the
 * engine's own code) they only forward. They replace the functions in the
 * real string, table and utf8 libraries (and tonumber), so method calls
 * ("s"):find(...) through the shared string metatable are covered too;
 * every function of the allow list (lua/kontor/sandbox.lua) is either
 * guarded here or bounded otherwise (docs/security.md lists each). The piles, counters and RNGs
 * charge through kn_sandbox_charge. The charges depend only on the
 * arguments, so the work limit is deterministic. */

static void charge(lua_State *L, double work) {
    if (!kn_lim.armed || work <= 0) return;
    if (kn_lim.killed || work >= (double)kn_lim.left) {
        if (!kn_lim.killed) kn_lim.why = WHY_WORK;
        kn_limit_error(L);
    }
    kn_lim.left -= (long)work;
}

void kn_sandbox_charge(lua_State *L, double work) {
    charge(L, work);
}

/* Calls the library function (upvalue 1) with the guard's arguments.
 * Called from C, it has no name of its own: its "bad argument #2 to '?'
 * (...)" is raised again by luaL_argerror from the guard, which has the
 * caller's name for it (and counts self in a method call), as Lua would. */
static int forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0) != LUA_OK) {
        static const char head[] = "bad argument #", mid[] = " to '?' (";
        size_t len;
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (msg != NULL && strncmp(msg, head, sizeof head - 1) == 0 && msg[len - 1] == ')') {
            char *end;
            long arg = strtol(msg + sizeof head - 1, &end, 10);
            if (arg > 0 && arg < 256 && strncmp(end, mid, sizeof mid - 1) == 0) {
                const char *extra = end + sizeof mid - 1;
                lua_pushlstring(L, extra, (size_t)(msg + len - 1 - extra));
                return luaL_argerror(L, (int)arg, lua_tostring(L, -1));
            }
        }
        return lua_error(L);
    }
    return lua_gettop(L);
}

/* ---- pattern matching ----
 * Lua's matcher (lstrlib.c) backtracks and runs in C: its worst case is
 * counted here from the lengths and the pattern, before it runs, and
 * charged (or refused). The count is an upper bound, not a guess: for one
 * start position, the matcher visits item k of the pattern once per way
 * the quantifiers before it (q of * + -, r of ?) can split the subject, at
 * most C(n + q, q) * 2^r ways for n bytes; a visit costs the item's
 * length + 1 steps (finding its end, matching one byte), n + 1 times that
 * for a quantified item (the expansion loop), n + 1 for %b and a back
 * reference %1-%9 (a scan, a comparison of up to n bytes), and 1 + the
 * captures open for a ')'. find and match try up to n + 1 start positions
 * (1 when anchored by ^), gmatch and gsub up to 2 (n + 1) (an empty match
 * tries its position twice). One exception keeps s:gsub("%s+", " ") linear:
 * a quantified item that ends the pattern (but for ')') ends the match at
 * its first visit, so its expansion loop runs once per match, over bytes
 * the match then takes: n + 1 steps per byte of the item in all, counted
 * once (`tail`), not per start. */

#define STEPS_PER_UNIT 16                  /* matcher steps per work unit */
#define BYTES_PER_UNIT 256                 /* bytes compared per work unit */
#define BYTES_PER_UNIT_COPY 16             /* bytes read or written, one by one */

/* The end of the class that starts at p[i] (after a '['), as classEnd
 * finds it; lp if it has none (Lua raises "malformed pattern"). */
static size_t class_end(const char *p, size_t i, size_t lp) {
    if (i < lp && p[i] == '^') i++;
    do {
        if (i >= lp) return lp;
        i += p[i] == '%' ? 2 : 1;
    } while (i < lp && p[i] != ']');
    return i < lp ? i + 1 : lp;
}

/* Only ')' from i to the end of the pattern. */
static int only_closes(const char *p, size_t i, size_t lp) {
    for (; i < lp; i++)
        if (p[i] != ')') return 0;
    return 1;
}

/* Steps for one start position of pattern p (anchor already skipped) on
 * a subject of n bytes; *tail: the steps of an ending quantifier's
 * expansion, for all start positions together. */
static double match_steps(const char *p, size_t lp, double n, double *tail) {
    double ways = 1, steps = 0;
    int q = 0, captures = 0;
    size_t i = 0;
    *tail = 0;
    while (i < lp && steps < 1e300) {
        size_t item = i;
        char c = p[i];
        if (c == '(') {
            captures++;
            steps += ways;
            i++;
            continue;
        }
        if (c == ')') {
            steps += ways * (1 + captures);
            i++;
            continue;
        }
        if (c == '%' && i + 1 < lp && (p[i + 1] == 'b' || (p[i + 1] >= '0' && p[i + 1] <= '9'))) {
            steps += ways * (n + 1);                     /* %bxy, %1: a scan */
            i += p[i + 1] == 'b' ? 4 : 2;
            continue;
        }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'f') {  /* %f[set]: one byte */
            i = i + 2 < lp && p[i + 2] == '[' ? class_end(p, i + 3, lp) : i + 2;
            steps += ways * 2 * (double)(i - item + 1);  /* the bytes before and at */
            continue;
        }
        if (c == '%') i += 2;
        else if (c == '[') i = class_end(p, i + 1, lp);
        else i++;
        if (i > lp) i = lp;
        double visit = (double)(i - item + 1);
        if (i < lp && (p[i] == '*' || p[i] == '+' || p[i] == '-')) {
            i++;
            if (only_closes(p, i, lp)) {      /* the match ends here */
                *tail = (n + 1) * visit;
                steps += ways * visit;
                continue;
            }
            steps += ways * (n + 1) * visit;
            q++;
            ways = ways * (n + q) / q;
        } else if (i < lp && p[i] == '?') {
            i++;
            steps += ways * visit;
            ways *= 2;
        } else {
            steps += ways * visit;
        }
    }
    return steps;
}

/* The subject's length from the start position: the init argument at
 * `init` (0: none), as str_find_aux reads it. */
static double subject_from(lua_State *L, size_t ls, int init) {
    lua_Integer i = init ? luaL_optinteger(L, init, 1) : 1;
    if (i < 0) i = (lua_Integer)ls + i + 1 < 1 ? 1 : (lua_Integer)ls + i + 1;
    else if (i == 0) i = 1;
    return i > (lua_Integer)ls + 1 ? 0 : (double)ls - (double)(i - 1);
}

/* Nothing special in p: find compares bytes (lmemfind) instead. */
static int no_specials(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++)
        if (p[i] != '\0' && strchr("^$*+?.([%-", p[i]) != NULL) return 0;
    return 1;
}

static void refuse_pattern(lua_State *L, size_t ls, double steps) {
    luaL_error(L, "pattern too complex for a subject of %I bytes "
               "(about %f matching steps; the limit is %f)",
               (lua_Integer)ls, (lua_Number)steps, (lua_Number)MAX_PATTERN_WORK);
}

/* Charges steps of matching (or refuses them). */
static void charge_steps(lua_State *L, size_t ls, double steps) {
    if (steps > MAX_PATTERN_WORK) refuse_pattern(L, ls, steps);
    charge(L, steps / STEPS_PER_UNIT);
}

enum { PAT_FIND, PAT_MATCH, PAT_GMATCH, PAT_GSUB };

/* string.find, match, gmatch, gsub: upvalue 2 says which. */
static int guard_pattern(lua_State *L) {
    if (kn_lim.armed && lua_isstring(L, 1) && lua_isstring(L, 2)) {
        int which = (int)lua_tointeger(L, lua_upvalueindex(2));
        size_t ls, lp;
        lua_tolstring(L, 1, &ls);
        const char *p = lua_tolstring(L, 2, &lp);
        double n = subject_from(L, ls, which == PAT_GSUB ? 0 : 3);
        charge(L, (double)lp / BYTES_PER_UNIT_COPY);   /* reading the pattern, here */
        if (which == PAT_FIND && (lua_toboolean(L, 4) || no_specials(p, lp))) {
            /* lmemfind: a byte search, then up to lp bytes compared at each
             * of the n - lp + 1 places. */
            double places = n - (double)lp + 1;
            if (lp > 0 && places > 0) charge(L, places * (double)lp / BYTES_PER_UNIT);
            return forward(L);
        }
        int anchored = which != PAT_GMATCH && lp > 0 && p[0] == '^';
        double tail;
        double one = match_steps(p + anchored, lp - (size_t)anchored, n, &tail);
        double starts = anchored ? 1 : (which >= PAT_GMATCH ? 2 : 1) * (n + 1);
        double steps = starts * one + tail;
        if (which == PAT_GSUB) {
            /* Each match adds its replacement: a string is read whole,
             * two steps a byte (each %1 a capture: 38 ns a unit at one
             * step a byte), a table or function is one look-up. */
            size_t lr = 0;
            if (lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER)
                lua_tolstring(L, 3, &lr);
            double matches = anchored ? 1 : n + 1;
            lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
            if (max_s >= 0 && (double)max_s < matches) matches = (double)max_s;
            steps += matches * (2 * (double)lr + 1);
        }
        charge_steps(L, ls, steps);
    }
    return forward(L);
}

/* string.rep(s, n, sep): a result of zero bytes takes n empty copies. */
static int guard_rep(lua_State *L) {
    int isnum;
    lua_Integer n = lua_tointegerx(L, 2, &isnum);
    if (kn_lim.armed && lua_type(L, 1) == LUA_TSTRING && isnum) {
        size_t l, lsep = 0;
        lua_tolstring(L, 1, &l);
        if (lua_type(L, 3) == LUA_TSTRING) lua_tolstring(L, 3, &lsep);
        if (n > 0 && l + lsep == 0) {
            lua_pushliteral(L, "");
            return 1;
        }
        /* The bytes written; a result over the memory cap fails at once
         * (its buffer is allocated first), with the memory error. */
        double bytes = (double)n * (double)(l + lsep);
        if (n > 0 && bytes <= (double)kn_sandbox_cap()) charge(L, bytes / BYTES_PER_UNIT_COPY);
    }
    return forward(L);
}

/* string.sub(s, i, j): the bytes copied, from i and j as str_sub reads
 * them (a few bytes cost nothing; a copy of 200 MiB took 0.140 s). */
static int guard_sub(lua_State *L) {
    int isi, isj = 1;
    lua_Integer i = lua_tointegerx(L, 2, &isi), j = -1;
    if (!lua_isnoneornil(L, 3)) j = lua_tointegerx(L, 3, &isj);
    if (kn_lim.armed && lua_type(L, 1) == LUA_TSTRING && isi && isj) {
        lua_Integer l = (lua_Integer)lua_rawlen(L, 1);
        if (i < 0) i = i < -l ? 1 : l + i + 1;
        else if (i == 0) i = 1;
        if (j > l) j = l;
        else if (j < 0) j = j < -l ? 0 : l + j + 1;
        if (i <= j) charge(L, ((double)j - (double)i + 1) / BYTES_PER_UNIT_COPY);
    }
    return forward(L);
}

/* ---- addresses ----
 * tostring and string.format's %s show a table, function, thread or
 * userdata without __tostring as "table: 0x55d0c2a4b1e0": its address,
 * which ASLR makes a new number in every process. A rule script that logs
 * one, or decides by one (a key of tostring(t), sorted), is no longer a
 * function of its seed and moves (principle 1). While armed they show the
 * name alone (the __name of its metatable, if a string, else its type),
 * and %p, which prints nothing else, is refused. */

/* Whether tostring would show the value at idx by its address. */
static int shows_address(lua_State *L, int idx) {
    switch (lua_type(L, idx)) {
    case LUA_TTABLE: case LUA_TFUNCTION: case LUA_TUSERDATA:
    case LUA_TTHREAD: case LUA_TLIGHTUSERDATA:
        break;
    default:
        return 0;
    }
    if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) return 1;
    lua_pop(L, 1);
    return 0;
}

/* Pushes the name the value at idx is shown by instead of its address. */
static void push_name(lua_State *L, int idx) {
    int t = luaL_getmetafield(L, idx, "__name");    /* pushes nothing if nil */
    if (t == LUA_TSTRING) return;
    if (t != LUA_TNIL) lua_pop(L, 1);
    lua_pushstring(L, luaL_typename(L, idx));
}

/* tostring(v): the library's (luaL_tolstring), but the name alone for a
 * value shown by its address while armed. */
static int guard_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    if (kn_lim.armed && shows_address(L, 1)) push_name(L, 1);
    else luaL_tolstring(L, 1, NULL);
    return 1;
}

static void refuse_address(lua_State *L) {
    luaL_where(L, 1);
    lua_pushliteral(L, "bad argument #1 to 'format' (%p is not allowed in rule scripts: "
                       "an address differs from run to run)");
    lua_concat(L, 2);
    lua_error(L);
}

/* string.format(f, ...): the bytes of f and of the string arguments / 8
 * (%q writes up to 4 bytes a byte), and each conversion by its kind: a
 * number printed with %f takes a digit for each power of ten (7.2 us for
 * %f of 1e308, 123 ns for %.2f of 3.14), %e and %g a digit for each of
 * the precision (2.5 us for %.99e), the others 16 units (249 ns for
 * %99d). A value %s would show by its address is replaced by its name;
 * %p is refused (above, "addresses"). */
static int guard_format(lua_State *L) {
    size_t lf;
    const char *f = lua_tolstring(L, 1, &lf);
    if (kn_lim.armed && f != NULL) {
        double units = 0, bytes = 0;
        int top = lua_gettop(L), arg = 1;
        for (int k = 1; k <= top; k++)
            if (lua_type(L, k) == LUA_TSTRING) bytes += (double)lua_rawlen(L, k);
        charge(L, bytes / 8);                   /* before f is read here */
        for (size_t i = 0; i < lf; i++) {
            if (f[i] != '%') continue;
            if (++i < lf && f[i] == '%') continue;
            while (i < lf && strchr("-+ #0", f[i]) != NULL) i++;
            while (i < lf && f[i] >= '0' && f[i] <= '9') i++;
            double precision = 6;
            if (i < lf && f[i] == '.') {
                precision = 0;
                while (++i < lf && f[i] >= '0' && f[i] <= '9') precision = precision * 10 + (f[i] - '0');
            }
            if (i >= lf) break;
            arg++;
            char c = f[i];
            if (c == 'f' || c == 'F') {
                double x = fabs((double)lua_tonumber(L, arg));
                units += 1 + (x >= 10 && x <= HUGE_VAL / 2 ? log10(x) : 0) + precision / 8;
            } else if (strchr("eEgGaA", c) != NULL) {
                units += 1 + precision;
            } else if (c == 'p') {
                refuse_address(L);
            } else if (c == 's' && arg <= top && shows_address(L, arg)) {
                push_name(L, arg);
                lua_replace(L, arg);
                units += 16;
            } else {
                units += 16;
            }
        }
        charge(L, units);
    }
    return forward(L);
}

/* Functions that read each byte of some string arguments once (and write
 * at most a few bytes for each): upvalue 2 is divisor * 256 + mask, where
 * bit k of mask is argument k, and bit 0 all arguments. They charge the
 * bytes / divisor: a pass over a string near the memory cap would take
 * longer than a step's time. */
static int guard_bytes(lua_State *L) {
    if (kn_lim.armed) {
        lua_Integer extra = lua_tointeger(L, lua_upvalueindex(2));
        int mask = (int)(extra & 255), top = lua_gettop(L);
        double bytes = 0;
        for (int k = 1; k <= top; k++) {
            if (!((mask & 1) || (k < 8 && (mask >> k) & 1))) continue;
            if (lua_type(L, k) == LUA_TSTRING) bytes += (double)lua_rawlen(L, k);
        }
        charge(L, bytes / (double)(extra >> 8));
    }
    return forward(L);
}

/* string.pack(f, ...): as guard_bytes (upvalue 2), and "cN" writes N
 * bytes, the string given and then one byte of padding at a time (0.16 s
 * for 200 MB): N / 16 more. */
static int guard_pack(lua_State *L) {
    size_t lf;
    const char *f = lua_tolstring(L, 1, &lf);
    if (kn_lim.armed && f != NULL) {
        double padding = 0;
        for (size_t i = 0; i < lf; i++) {
            if (f[i] != 'c') continue;
            double size = 0;
            while (i + 1 < lf && f[i + 1] >= '0' && f[i + 1] <= '9' && size < 1e12)
                size = size * 10 + (f[++i] - '0');
            padding += size;
        }
        charge(L, padding / BYTES_PER_UNIT_COPY);
    }
    return guard_bytes(L);
}

/* Refuses a table whose # calls a __len metamethod: the library would
 * call it again and a script could answer 2^40 the second time. */
static lua_Integer plain_len(lua_State *L, int idx) {
    if (lua_getmetatable(L, idx)) {
        int has = lua_getfield(L, -1, "__len") != LUA_TNIL;
        lua_pop(L, 2);
        if (has) luaL_error(L, "tables with a __len metamethod cannot be used here in rule scripts");
    }
    return (lua_Integer)lua_rawlen(L, idx);
}

/* table.concat(t, sep, i, j), table.unpack(t, i, j): j - i + 1 elements.
 * The range is passed on explicitly, computed once. */
static int guard_range(lua_State *L) {
    if (kn_lim.armed && lua_type(L, 1) == LUA_TTABLE) {
        int first = (int)lua_tointeger(L, lua_upvalueindex(2));  /* index of i */
        lua_settop(L, first + 1);
        lua_Integer i = luaL_optinteger(L, first, 1);
        lua_Integer j = lua_isnoneornil(L, first + 1) ? plain_len(L, 1)
                                                       : luaL_checkinteger(L, first + 1);
        lua_pushinteger(L, i);
        lua_replace(L, first);
        lua_pushinteger(L, j);
        lua_replace(L, first + 1);
        if (j >= i) charge(L, (double)j - (double)i + 1);
    }
    return forward(L);
}

/* table.move(a1, f, e, t, a2): e - f + 1 elements. */
static int guard_move(lua_State *L) {
    int isf, ise;
    lua_Integer f = lua_tointegerx(L, 2, &isf), e = lua_tointegerx(L, 3, &ise);
    if (kn_lim.armed && isf && ise && e >= f) {
        charge(L, (double)e - (double)f + 1);
    }
    return forward(L);
}

/* The units a comparison of string s with another may take. Lua compares
 * strings with strcoll (l_strcmp), BYTES_PER_UNIT bytes a unit, but calls
 * it once for each stretch between zero bytes: 6.4 ns a zero byte
 * (1,024 strings of 64 KiB of zeros took 4.7 s to sort), a unit each. */
static double compare_units(const char *s, size_t len) {
    double zeros = 0;
    const char *end = s + len, *z = memchr(s, '\0', len);
    while (z != NULL) {
        zeros++;
        z = memchr(z + 1, '\0', (size_t)(end - z - 1));
    }
    return (double)len / BYTES_PER_UNIT + zeros;
}

/* A long string is read here to count its zero bytes: charged, so that
 * the same long string a million times over is not read for nothing. */
#define SCANNED_FROM 1024

/* The most units a comparison of the strings among t[1..n] (raw) may
 * take: table.sort without a comparison function. */
static double most_compare_units(lua_State *L, lua_Integer n) {
    double most = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, 1, i) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            if (len >= SCANNED_FROM) charge(L, (double)len / BYTES_PER_UNIT);
            double u = compare_units(s, len);
            if (u > most) most = u;
        }
        lua_pop(L, 1);
    }
    return most;
}

/* ---- table.sort in a fixed order ----
 * Lua's table.sort takes a random pivot (from clock() and time()) once a
 * partition comes out lopsided. A comparison function can make every one
 * come out so (McIlroy's adversary), and then the order of equal elements,
 * and the comparisons the function is called with, differ from run to
 * run: a 3,000-element sort gave three orders in three runs, a source of
 * chance outside the game's RNG. While armed, table.sort is this merge
 * sort instead: stable (equal elements keep their order), at most n log2 n
 * comparisons whatever the function answers, the table read and written
 * raw (no __index or __newindex runs; __len is refused already). */

/* Whether the value at a is less than the one at b: comp(a, b) with the
 * comparison function at 2, or a < b. */
static int sort_less(lua_State *L, int a, int b, int has_comp) {
    if (!has_comp) return lua_compare(L, a, b, LUA_OPLT);
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/* Merges the runs src[lo..mid] and src[mid + 1..hi] into dst[lo..hi]
 * (src and dst: stack indexes of tables); of two equal elements the left
 * run's comes first. */
static void merge_runs(lua_State *L, int src, int dst, lua_Integer lo, lua_Integer mid,
                       lua_Integer hi, int has_comp) {
    lua_Integer i = lo, j = mid + 1, k = lo;
    while (i <= mid && j <= hi) {
        lua_rawgeti(L, src, i);
        lua_rawgeti(L, src, j);
        if (sort_less(L, -1, -2, has_comp)) {   /* the right one first */
            lua_rawseti(L, dst, k++);
            lua_pop(L, 1);
            j++;
        } else {
            lua_pop(L, 1);
            lua_rawseti(L, dst, k++);
            i++;
        }
    }
    for (; i <= mid; i++) {
        lua_rawgeti(L, src, i);
        lua_rawseti(L, dst, k++);
    }
    for (; j <= hi; j++) {
        lua_rawgeti(L, src, j);
        lua_rawseti(L, dst, k++);
    }
}

/* table.sort(t [, comp]) of the n elements of table t, bottom up: runs of
 * 1, 2, 4 ... merged between two tables of n. */
static int merge_sort(lua_State *L, lua_Integer n) {
    if (n < 2) return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    int has_comp = !lua_isnoneornil(L, 2);
    if (has_comp) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_createtable(L, (int)n, 0);                  /* 3 */
    lua_createtable(L, (int)n, 0);                  /* 4 */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    int src = 3, dst = 4;
    for (lua_Integer width = 1; width < n; width *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * width) {
            lua_Integer mid = lo + width - 1, hi = lo + 2 * width - 1;
            merge_runs(L, src, dst, lo, mid < n ? mid : n, hi < n ? hi : n, has_comp);
        }
        int t = src;
        src = dst;
        dst = t;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, src, i);
        lua_rawseti(L, 1, i);
    }
    return 0;
}

/* table.insert, table.remove (shift up to #t elements), table.sort
 * (about n log n comparisons, each of up to the longest string's bytes,
 * and a unit a zero byte, without a comparison function). */
static int guard_shift(lua_State *L) {
    if (kn_lim.armed && lua_type(L, 1) == LUA_TTABLE) {
        lua_Integer len = plain_len(L, 1);
        double n = (double)len;
        int sort = (int)lua_tointeger(L, lua_upvalueindex(2));
        if (!sort) {
            charge(L, n);
        } else {
            charge(L, n);                       /* the scan for strings */
            double cmp = lua_isnoneornil(L, 2) ? 1 + most_compare_units(L, len) : 1;
            charge(L, n * (1 + log2(n + 1)) * cmp);
            return merge_sort(L, len);
        }
    }
    return forward(L);
}

/* coroutine.close runs the coroutine's pending __close handlers and returns
 * their error: a limit or a finish raised there is raised again. */
static int guard_close(lua_State *L) {
    /* Lua 5.4.4 does not count a close inside a __close handler against
     * its C-stack limit: 10000 nested closes overflow the C stack. */
    static int depth = 0;
    lua_State *co = lua_tothread(L, 1);
    if (kn_lim.armed && depth >= MAX_CLOSE_DEPTH) {
        return luaL_error(L, "coroutine.close: nested more than %d deep", MAX_CLOSE_DEPTH);
    }
    if (kn_lim.armed && co != NULL && kn_is_game_thread(L, 1))
        return luaL_error(L, "the game's own thread cannot be closed by a rule script");
    lua_State *was_running = kn_lim.running;
    if (kn_lim.armed && co != NULL) {   /* the __close handlers run on co */
        kn_lim.running = co;
        kn_hook_if_over(co);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    depth++;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    depth--;
    if (kn_lim.armed) kn_lim.running = was_running;
    if (status != LUA_OK) return lua_error(L);
    int n = lua_gettop(L);
    if (kn_lim.armed && (kn_lim.killed || kn_lim.expired)) kn_limit_error(L);
    if (kn_lim.finishing) return kn_sb_finish(L);
    return n;
}

/* ---- pairs and next in a fixed order ------------------------------------ */

/* The sandbox's pairs and next (lua/kontor/sandbox.lua) visit keys
 * booleans first (false, true), then numbers ascending, then strings
 * (docs/security.md, "Determinism and pairs"). The keys are gathered
 * here, in C, and sorted only when they do not come in order already (a
 * list's 1..n do: its array part comes first); the sort is the
 * sandbox's table.sort (upvalue 1, charged as table.sort is), with the
 * Lua comparison of mixed keys (upvalue 2). The walk is charged a unit a
 * key, 256 at a time. */

enum { KEY_NONE, KEY_BOOLEAN, KEY_NUMBER, KEY_STRING, KEY_MIXED };

#define KEYS_PER_CHARGE 256

/* Pushes the list of the keys of the table at 1, in order; returns how
 * many. A key that is not a boolean, a number or a string raises
 * "<fname>: a table key has no fixed order ..." at the script's line
 * (level 2: the sandbox's pairs or next called this, the script them). */
static lua_Integer ordered_keys(lua_State *L, const char *fname) {
    lua_createtable(L, 8, 0);                        /* 2: the keys */
    int keys = lua_gettop(L), kind = KEY_NONE, ascending = 1;
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);                               /* the value */
        int t = lua_type(L, -1);
        int k = t == LUA_TBOOLEAN ? KEY_BOOLEAN : t == LUA_TNUMBER ? KEY_NUMBER
              : t == LUA_TSTRING ? KEY_STRING : KEY_NONE;
        if (k == KEY_NONE) {
            luaL_where(L, 2);
            lua_pushfstring(L, "%s: a %s key has no fixed order (keys must be booleans, numbers or strings)",
                            fname, lua_typename(L, t));
            lua_concat(L, 2);
            return lua_error(L);
        }
        if (kind == KEY_NONE) {
            kind = k;
        } else if (k != kind) {
            kind = KEY_MIXED;
        } else if (ascending && kind != KEY_BOOLEAN) {
            if (k == KEY_STRING && lua_rawlen(L, -1) > 16) {   /* strcoll: see compare_units */
                size_t len;
                const char *s = lua_tolstring(L, -1, &len);
                charge(L, compare_units(s, len));
            }
            lua_rawgeti(L, keys, n);                 /* the key before: ascending if it is less */
            ascending = lua_compare(L, -1, -2, LUA_OPLT);
            lua_pop(L, 1);
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
        if (n % KEYS_PER_CHARGE == 0) charge(L, KEYS_PER_CHARGE);
    }
    charge(L, (double)(n % KEYS_PER_CHARGE));
    if (n > 1 && !(ascending && (kind == KEY_NUMBER || kind == KEY_STRING))) {
        /* numbers or strings alone sort by sort's own `<`, as the comparison
         * of upvalue 2 orders them */
        int with_less = kind == KEY_MIXED || kind == KEY_BOOLEAN;
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, keys);
        if (with_less) lua_pushvalue(L, lua_upvalueindex(2));
        lua_call(L, 1 + with_less, 0);
    }
    return n;
}

/* The iterator of ordered_pairs: upvalues the table, its keys in order
 * and the place reached. */
static int ordered_step(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3)) + 1;
    if (lua_rawgeti(L, lua_upvalueindex(2), i) == LUA_TNIL) return 0;
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushvalue(L, -1);
    lua_rawget(L, lua_upvalueindex(1));
    return 2;
}

/* pairs(t) for a table t (the sandbox's pairs checked the rest) ->
 * iterator, t, nil. */
static int ordered_pairs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    ordered_keys(L, "pairs");
    lua_pushvalue(L, 1);
    lua_insert(L, 2);                                /* t keys */
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, ordered_step, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* keys(t, fname) -> the list of t's keys in order, and their number. */
static int ordered_list(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *fname = luaL_checkstring(L, 2);
    lua_settop(L, 2);
    lua_pushinteger(L, ordered_keys(L, fname));
    return 2;
}

/* sandbox.ordered(sort, less) -> pairs, keys: the C side of the sandbox's
 * pairs and next, with its table.sort and its comparison of mixed keys. */
int kn_sb_ordered(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, ordered_pairs, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, ordered_list, 2);
    return 2;
}

/* Replaces lib[name] by the guard, with the original (and `extra`) as its
 * upvalues. */
static void guard(lua_State *L, const char *lib, const char *name, lua_CFunction g,
                  int extra) {
    if (lua_getglobal(L, lib) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    if (lua_getfield(L, -1, name) == LUA_TFUNCTION) {
        lua_pushinteger(L, extra);
        lua_pushcclosure(L, g, 2);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pop(L, 2);
    }
}

void kn_open_guards(lua_State *L) {
    guard(L, "string", "find", guard_pattern, PAT_FIND);
    guard(L, "string", "match", guard_pattern, PAT_MATCH);
    guard(L, "string", "gmatch", guard_pattern, PAT_GMATCH);
    guard(L, "string", "gsub", guard_pattern, PAT_GSUB);
    guard(L, "string", "rep", guard_rep, 0);
    guard(L, "table", "concat", guard_range, 3);
    guard(L, "table", "unpack", guard_range, 2);
    guard(L, "table", "move", guard_move, 0);
    guard(L, "table", "insert", guard_shift, 0);
    guard(L, "table", "remove", guard_shift, 0);
    guard(L, "table", "sort", guard_shift, 1);
    guard(L, "coroutine", "close", guard_close, 0);
    /* A pass over the bytes: divisor * 256 + mask (bit k: argument k,
     * bit 0: all), from the times in docs/security.md. */
    guard(L, "string", "sub", guard_sub, 0);
    guard(L, "string", "upper", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "lower", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "reverse", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "format", guard_format, 0);
    guard(L, "string", "pack", guard_pack, 2 * 256 + 1);
    guard(L, "string", "packsize", guard_bytes, 2 * 256 + 2);
    guard(L, "string", "unpack", guard_bytes, 2 * 256 + 2);
    guard(L, "utf8", "len", guard_bytes, 16 * 256 + 2);
    guard(L, "utf8", "offset", guard_bytes, 16 * 256 + 2);
    guard(L, "utf8", "codes", guard_bytes, 16 * 256 + 2);
    guard(L, "_G", "tonumber", guard_bytes, 16 * 256 + 2);
    guard(L, "_G", "tostring", guard_tostring, 0);
}

