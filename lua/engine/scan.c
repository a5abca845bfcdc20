/*
 * scan.c - the source scan: rule-script text refused before the compiler.
 *
 * Lua's compiler runs in C, out of the watchdog's reach, and Lua 5.4.4
 * has bugs that legal source text reaches (docs/security.md, "Lua 5.4.4's
 * known bugs"). So sandbox.load (lua/engine/sandbox.c) refuses, before
 * luaL_loadbufferx sees it:
 * - text over 1 MiB, or with a line over 64 KiB;
 * - a long chain of indexing steps (t.x.x... or t[1][1]...): the error
 *   message for a failing step recurses once per link in C (ldebug.c,
 *   getobjname), which overflows the C stack;
 * - a function with more than 255 constants that uses a bitwise operator:
 *   5.4.4 miscompiles a bitwise operation on a constant there (1 ~ (2 or
 *   3) gives a wrong value);
 * - a to-be-closed variable (local x <close>): rule scripts have no
 *   to-be-closed values at all (5.4.4's bugs in closing them: a break out
 *   of their block, lua_settop, nested coroutine.close);
 * - local _ENV <const>: 5.4.4 can compile the uses of such an _ENV wrongly.
 * The scan is a small lexer: it skips strings and comments, counts the
 * links of each chain, and the distinct names, strings and numbers of each
 * function (locals are counted too: an over-estimate), and follows the
 * names of each local statement to their attributes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/scan.h"

#define SCAN_DEPTH 256    /* nesting tracked; deeper fails in the parser */
#define SET_SIZE 512      /* > 2 * (KN_MAX_CONSTANTS + 1) */

typedef struct {
    uint32_t off[SET_SIZE], len[SET_SIZE];
    int count, bitwise, blocks;
    size_t line;
} ScanFunc;

static ScanFunc scan_funcs[SCAN_DEPTH];

static int is_name_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(int c) {
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static int word_is_n(const char *w, size_t n, const char *kw, size_t kn) {
    return n == kn && memcmp(w, kw, n) == 0;
}

/* A word against a string literal: its length is known at compile time
 * (the scanner meets tens of thousands of words in a rule set). */
#define word_is(w, n, lit) word_is_n((w), (n), "" lit, sizeof(lit) - 1)

static int is_keyword(const char *w, size_t n) {
    /* by the first letter: the scan meets tens of thousands of words.
     * (true, false and nil are counted as names: constants in Lua too) */
    switch (w[0]) {
    case 'a': return word_is(w, n, "and");
    case 'b': return word_is(w, n, "break");
    case 'd': return word_is(w, n, "do");
    case 'e': return word_is(w, n, "end") || word_is(w, n, "else") || word_is(w, n, "elseif");
    case 'f': return word_is(w, n, "function") || word_is(w, n, "for");
    case 'g': return word_is(w, n, "goto");
    case 'i': return word_is(w, n, "if") || word_is(w, n, "in");
    case 'l': return word_is(w, n, "local");
    case 'n': return word_is(w, n, "not");
    case 'o': return word_is(w, n, "or");
    case 'r': return word_is(w, n, "return") || word_is(w, n, "repeat");
    case 't': return word_is(w, n, "then");
    case 'u': return word_is(w, n, "until");
    case 'w': return word_is(w, n, "while");
    default: return 0;
    }
}

/* Adds a constant-like token to the set of function f (until it is full). */
static void add_constant(ScanFunc *f, const char *src, size_t off, size_t n) {
    if (f->count > KN_MAX_CONSTANTS) return;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)src[off + i]) * 16777619u;
    for (uint32_t k = h % SET_SIZE;; k = (k + 1) % SET_SIZE) {
        if (f->len[k] == 0) {
            f->off[k] = (uint32_t)off;
            f->len[k] = (uint32_t)n;
            f->count++;
            return;
        }
        if (f->len[k] == n && memcmp(src + f->off[k], src + off, n) == 0) return;
    }
}

/* Skips a long bracket [==[ ... ]==] starting at i (src[i] == '['); returns
 * the index after it, or 0 if this is no long bracket. */
static size_t skip_long(const char *src, size_t len, size_t i, size_t *line) {
    size_t j = i + 1, level = 0;
    while (j < len && src[j] == '=') { j++; level++; }
    if (j >= len || src[j] != '[') return 0;
    for (j++; j < len; j++) {
        if (src[j] == '\n') (*line)++;
        if (src[j] == ']') {
            size_t k = j + 1, l = 0;
            while (k < len && src[k] == '=') { k++; l++; }
            if (l == level && k < len && src[k] == ']') return k + 1;
        }
    }
    return len;
}

enum { P_OTHER, P_NAME, P_CLOSE, P_DOT };

/* The attribute `attr` of the local `name`: NULL if a rule script may use
 * it (Lua itself refuses the unknown ones). */
static const char *attribute_refused(const char *attr, size_t n, const char *name,
                                     size_t name_len) {
    if (word_is(attr, n, "close"))
        return "to-be-closed variables (<close>) are not allowed in rule scripts";
    if (word_is(attr, n, "const") && word_is(name, name_len, "_ENV"))
        return "_ENV cannot be <const> in rule scripts (Lua 5.4.4 may compile its uses wrongly)";
    return NULL;
}

/* Where the scan is in a local statement: local NAME [<ATTR>] {, ...} */
enum { L_NONE, L_NAME, L_AFTER, L_ATTR, L_SHUT };

static const char *scan_source(const char *src, size_t len, char *buf, size_t bufsize,
                               size_t *at) {
    int nf = 0, chain = 0, prev = P_OTHER, sp = 0, untracked = 0, loc = L_NONE;
    size_t var = 0, var_len = 0;   /* the name a local statement declares */
    int stack[SCAN_DEPTH];
    size_t line = 1, i = 0;
    memset(&scan_funcs[0], 0, sizeof scan_funcs[0]);
    scan_funcs[0].line = 1;
    scan_funcs[0].blocks = 1;
#define FUNC (&scan_funcs[nf])
#define LINK() do { if (++chain > KN_MAX_CHAIN) { \
        snprintf(buf, bufsize, "a chain of more than %d indexing steps " \
                 "(t.x.y[z]...; split it with locals)", KN_MAX_CHAIN); \
        *at = line; return buf; } } while (0)
    while (i < len) {
        unsigned char c = (unsigned char)src[i];
        if (c == '\n') { line++; i++; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { i++; continue; }
        if (c == '-' && i + 1 < len && src[i + 1] == '-') {           /* comment */
            size_t e = i + 2 < len && src[i + 2] == '[' ? skip_long(src, len, i + 2, &line) : 0;
            if (e) { i = e; continue; }
            while (i < len && src[i] != '\n') i++;
            continue;
        }
        int was = loc;
        loc = L_NONE;
        if (c == '"' || c == '\'') {                                 /* string */
            size_t s0 = i++;
            while (i < len && (unsigned char)src[i] != c) {
                if (src[i] == '\\' && i + 1 < len) i++;
                if (src[i] == '\n') line++;
                i++;
            }
            i++;
            add_constant(FUNC, src, s0, (i > len ? len : i) - s0);
            prev = P_CLOSE;   /* ("s"):f() and ("s").x: a chain may follow */
            chain = 0;
            continue;
        }
        if (c == '[') {
            size_t e = skip_long(src, len, i, &line);
            if (e) {                                                /* long string */
                add_constant(FUNC, src, i, e - i);
                i = e;
                prev = P_CLOSE;
                chain = 0;
                continue;
            }
            if (sp < SCAN_DEPTH) stack[sp++] = prev == P_NAME || prev == P_CLOSE ? chain + 1 : -1;
            else untracked = 1;
            chain = 0;
            prev = P_OTHER;
            i++;
            continue;
        }
        if (c == ']' || c == ')') {
            int outer = sp > 0 ? stack[--sp] : -1;
            if (outer >= 0 && !untracked) {
                chain = outer;
                if (chain > KN_MAX_CHAIN) { chain = KN_MAX_CHAIN; LINK(); }
                prev = P_CLOSE;
            } else {
                chain = 0;
                prev = c == ')' ? P_CLOSE : P_OTHER;
            }
            i++;
            continue;
        }
        if (c == '(') {
            if (sp < SCAN_DEPTH) stack[sp++] = prev == P_NAME || prev == P_CLOSE ? chain : -1;
            else untracked = 1;
            chain = 0;
            prev = P_OTHER;
            i++;
            continue;
        }
        if ((c == '.' || c == ':') && !(i + 1 < len && src[i + 1] == c)
            && !(c == '.' && i + 1 < len && src[i + 1] >= '0' && src[i + 1] <= '9')) {
            if (prev == P_NAME || prev == P_CLOSE) LINK();
            else chain = 0;
            prev = P_DOT;
            i++;
            continue;
        }
        if ((c >= '0' && c <= '9') || c == '.') {
            if (c == '.' && i + 1 < len && src[i + 1] == '.') {       /* .. or ... */
                i += i + 2 < len && src[i + 2] == '.' ? 3 : 2;
                chain = 0;
                prev = P_OTHER;
                continue;
            }
            size_t s0 = i;
            while (i < len) {
                char d = src[i];
                if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && i + 1 < len
                    && (src[i + 1] == '+' || src[i + 1] == '-')) i += 2;
                else if (is_name_char((unsigned char)d) || d == '.') i++;
                else break;
            }
            add_constant(FUNC, src, s0, i - s0);
            chain = 0;
            prev = P_OTHER;
            continue;
        }
        if (is_name_start(c)) {
            size_t s0 = i;
            while (i < len && is_name_char((unsigned char)src[i])) i++;
            const char *w = src + s0;
            size_t n = i - s0;
            if (!is_keyword(w, n)) {
                if (was == L_NAME) {
                    var = s0;
                    var_len = n;
                    loc = L_AFTER;
                } else if (was == L_ATTR) {
                    const char *why = attribute_refused(w, n, src + var, var_len);
                    if (why != NULL) {
                        *at = line;
                        return why;
                    }
                    loc = L_SHUT;
                }
                add_constant(FUNC, src, s0, n);
                if (prev != P_DOT) chain = 0;
                prev = P_NAME;
                continue;
            }
            chain = 0;
            prev = P_OTHER;
            if (word_is(w, n, "local")) loc = L_NAME;
            if (word_is(w, n, "function")) {
                if (nf + 1 < SCAN_DEPTH) {
                    nf++;
                    memset(FUNC, 0, sizeof *FUNC);
                    FUNC->line = line;
                    FUNC->blocks = 1;
                } else {
                    FUNC->blocks++;
                }
            } else if (word_is(w, n, "if") || word_is(w, n, "do") || word_is(w, n, "repeat")) {
                FUNC->blocks++;
            } else if (word_is(w, n, "end") || word_is(w, n, "until")) {
                if (--FUNC->blocks <= 0 && nf > 0) {
                    if (FUNC->count > KN_MAX_CONSTANTS && FUNC->bitwise) break;
                    nf--;
                }
            }
            continue;
        }
        int two = i + 1 < len && (src[i + 1] == c || src[i + 1] == '=');
        if (c == '<' && was == L_AFTER && !two) loc = L_ATTR;
        else if (c == '>' && was == L_SHUT) loc = L_AFTER;
        else if (c == ',' && was == L_AFTER) loc = L_NAME;
        if (c == '&' || c == '|' || (c == '~' && !(i + 1 < len && src[i + 1] == '='))
            || ((c == '<' || c == '>') && i + 1 < len && src[i + 1] == c)) {
            FUNC->bitwise = 1;
            i += (c == '<' || c == '>') ? 2 : 1;
        } else {
            i++;
            if (i < len && (src[i] == '=' || (c == '/' && src[i] == '/'))) i++;
        }
        chain = 0;
        prev = P_OTHER;
    }
#undef LINK
    if (FUNC->count > KN_MAX_CONSTANTS && FUNC->bitwise) {
        snprintf(buf, bufsize, "a function with more than %d constants uses "
                 "bitwise operators (Lua 5.4.4 may compile them wrongly): split it",
                 KN_MAX_CONSTANTS);
        *at = FUNC->line;
        return buf;
    }
#undef FUNC
    return NULL;
}

const char *kn_check_source(const char *src, size_t len, size_t *at) {
    static char buf[160];
    *at = 0;
    if (len > KN_MAX_SOURCE) {
        snprintf(buf, sizeof buf, "source too large (%zu bytes; the limit is %zu)", len,
                 KN_MAX_SOURCE);
        return buf;
    }
    size_t line = 1, start = 0;
    while (start <= len) {
        const char *nl = len > start ? memchr(src + start, '\n', len - start) : NULL;
        size_t end = nl ? (size_t)(nl - src) : len;
        if (end - start > KN_MAX_LINE) {
            snprintf(buf, sizeof buf, "line %zu too long (%zu bytes; the limit is %zu)",
                     line, end - start, KN_MAX_LINE);
            return buf;
        }
        line++;
        start = end + 1;
    }
    return scan_source(src, len, buf, sizeof buf, at);
}

