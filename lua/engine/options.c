/*
 * options.c - the options of a decision, as data: kontor.core.options.
 *
 * A rule script gives each decision a list of options. An option is a
 * string (its text) or a plain list of words and whole numbers, such as
 * { "load", "fish", "on ship", 2 }, whose canonical text the engine builds
 * only when a person, a log, a save or the text parser needs it:
 * the entries joined by a space, except that a run of numbers is joined
 * by commas ({ "play", "fish", "on slots", 1, 4 } reads "play fish on
 * slots 1,4").
 *
 * Everything here reads the script's tables raw (no metamethod runs) and
 * checks every type, so a list a script changes after giving it can give
 * an error, never a hang.
 *
 * kontor.core.options:
 *   check(list, seat, name [, what]) -> n   the boundary check (raises at the caller's caller)
 *   text(option) -> string                  the canonical text
 *   texts(list) -> { string, ... }           the canonical texts of a list
 *   same(a, b) -> boolean                   same canonical text (allocates nothing)
 *   extends(list, option) -> boolean        some option of list extends option's text
 *                                            at a word boundary (' ' or ',')
 *   draw(rng, options, name [, weights]) -> k   g:chance by the RNG (checks as check, and the weights)
 *   expand(family, seat, name, players) -> list   the options of a family (g:choose_from), checked
 *   pick(family, k) -> values               the entries option k of a family takes from its lists
 *   family_draw(family, random) -> values   the entries of option random(n) (the bench's stand-in)
 *   seats(list, players, what) -> n         the seats of g:choose_all and g:choose_orders, checked
 *   allowed(g, cons, seat, name, options [, players [, what]]) -> list [, indices]
 *                                            the options R.constraints allow (checked first, with players)
 *   constant(list) -> constant              kontor.options: a list of options no script can change, checked once
 *   constant_family(family) -> constant     kontor.family: a family alike
 *   plain(v) -> table                       a constant's plain list (the engine's copy), v otherwise
 *   MAX                                     the most options one decision may have
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "binding.h"
#include "engine/engine.h"
#include "rng.h"

/* Options per decision, and entries per option. */
#define KN_MAX_OPTIONS 100000
#define KN_MAX_WORDS 64

/* Reads an option's canonical text one character at a time. */
struct cursor {
    lua_State *L;
    int tbl;                 /* stack index of the list, or 0 for a string */
    lua_Integer i, n;        /* entry being read, entries */
    const char *s;           /* the current piece */
    size_t len, pos;
    int prev_num;            /* the previous entry was a number */
    int sep;                 /* a separator to give before the piece, or 0 */
    char num[32];
};

/* Loads entry c->i of the list as the current piece; 0 if it is neither a
 * string nor an integer. */
static int load_piece(struct cursor *c) {
    lua_State *L = c->L;
    int t = lua_rawgeti(L, c->tbl, c->i);
    int is_num = 0;
    if (t == LUA_TSTRING) {
        c->s = lua_tolstring(L, -1, &c->len);     /* the list keeps it alive */
    } else if (t == LUA_TNUMBER && lua_isinteger(L, -1)) {
        int k = snprintf(c->num, sizeof c->num, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, -1));
        c->s = c->num;
        c->len = (size_t)k;
        is_num = 1;
    } else {
        lua_pop(L, 1);
        return 0;
    }
    lua_pop(L, 1);
    c->sep = c->i > 1 ? ((is_num && c->prev_num) ? ',' : ' ') : 0;
    c->prev_num = is_num;
    c->pos = 0;
    return 1;
}

/* Starts reading the option at stack index idx; 0 if it is not an option. */
static int cursor_open(struct cursor *c, lua_State *L, int idx) {
    memset(c, 0, sizeof *c);
    c->L = L;
    if (lua_type(L, idx) == LUA_TSTRING) {
        c->s = lua_tolstring(L, idx, &c->len);
        return 1;
    }
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    c->tbl = lua_absindex(L, idx);
    c->n = (lua_Integer)lua_rawlen(L, idx);
    if (c->n == 0) return 0;
    c->i = 1;
    return load_piece(c);
}

/* The next character, -1 at the end, -2 on an entry of a wrong type. */
static int cursor_next(struct cursor *c) {
    for (;;) {
        if (c->sep) {
            int s = c->sep;
            c->sep = 0;
            return s;
        }
        if (c->pos < c->len) return (unsigned char)c->s[c->pos++];
        if (!c->tbl || c->i >= c->n) return -1;
        c->i++;
        if (!load_piece(c)) return -2;
    }
}

/* The length of an option's text, or -1 if it is not an option. */
static lua_Integer text_length(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) return (lua_Integer)lua_rawlen(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) return -1;
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx), len = n > 0 ? n - 1 : 0;   /* separators */
    for (lua_Integer i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, idx, i);
        if (t == LUA_TSTRING) {
            len += (lua_Integer)lua_rawlen(L, -1);
        } else if (t == LUA_TNUMBER && lua_isinteger(L, -1)) {
            lua_Integer v = lua_tointeger(L, -1);
            int digits = v < 0 ? 2 : 1;
            while (v <= -10 || v >= 10) { v /= 10; digits++; }
            len += digits;
        } else {
            len = -1;
        }
        lua_pop(L, 1);
        if (len < 0) return -1;
    }
    return len;
}

/* Whether two texts that start with the strings s (length m) and t
 * (length n) can be equal: the shorter must begin the longer, which must go
 * on with a separator there. A quick answer for most pairs of options,
 * whose first words differ. */
static int may_start_alike(const char *s, size_t m, const char *t, size_t n) {
    size_t k = m < n ? m : n;
    if (memcmp(s, t, k) != 0) return 0;
    if (m == n) return 1;
    char next = m > n ? s[k] : t[k];
    return next == ' ' || next == ',';
}

/* The first string of the option at idx (its text's start), or NULL. */
static const char *first_word(lua_State *L, int idx, size_t *len) {
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) return lua_tolstring(L, idx, len);
    if (t != LUA_TTABLE || lua_rawgeti(L, idx, 1) != LUA_TSTRING) {
        if (t == LUA_TTABLE) lua_pop(L, 1);
        return NULL;
    }
    const char *s = lua_tolstring(L, -1, len);   /* the option keeps it alive */
    lua_pop(L, 1);
    return s;
}

/* Two list options (absolute indices a, b) compared entry by entry: 1 if
 * every entry they both have is the same string or whole number, 0 if some
 * entry differs or is not one (the texts must then be compared), -1 if
 * either is not a list. The text of a list whose entries begin another
 * list's is that list's text cut at a word boundary: equal when the lengths
 * are, a word shorter when not. The common case of two steps of one move
 * ({ "play", "fish" } then { "play", "fish", "on slots", 1 }), answered
 * without building or walking any text. */
static int same_entries(lua_State *L, int a, int b, lua_Integer *la, lua_Integer *lb) {
    if (lua_type(L, a) != LUA_TTABLE || lua_type(L, b) != LUA_TTABLE) return -1;
    *la = (lua_Integer)lua_rawlen(L, a);
    *lb = (lua_Integer)lua_rawlen(L, b);
    lua_Integer m = *la < *lb ? *la : *lb;
    if (m == 0) return 0;
    for (lua_Integer i = 1; i <= m; i++) {
        int t = lua_rawgeti(L, a, i);
        lua_rawgeti(L, b, i);
        int same = (t == LUA_TSTRING || (t == LUA_TNUMBER && lua_isinteger(L, -2))) && lua_rawequal(L, -2, -1);
        lua_pop(L, 2);
        if (!same) return 0;
    }
    return 1;
}

/* Whether the option at s is a string that is the first of several
 * entries of the list at t: then t's text is longer (the step "play", then
 * { "play", "fish" }). */
static int word_begins(lua_State *L, int s, int t) {
    if (lua_type(L, s) != LUA_TSTRING || lua_type(L, t) != LUA_TTABLE || lua_rawlen(L, t) < 2) return 0;
    lua_rawgeti(L, t, 1);
    int yes = lua_rawequal(L, s, -1);
    lua_pop(L, 1);
    return yes;
}

static int kn_option_same(lua_State *L, int a, int b) {
    struct cursor x, y;
    if (lua_rawequal(L, a, b)) return 1;
    if (lua_type(L, a) == LUA_TSTRING && lua_type(L, b) == LUA_TSTRING) return 0;
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_Integer na, nb;
    if (same_entries(L, a, b, &na, &nb) == 1) return na == nb;
    if (word_begins(L, a, b) || word_begins(L, b, a)) return 0;
    size_t m, n;
    const char *s = first_word(L, a, &m), *t = first_word(L, b, &n);
    if (s != NULL && t != NULL && !may_start_alike(s, m, t, n)) return 0;
    lua_Integer la = text_length(L, a);
    if (la < 0 || la != text_length(L, b)) return 0;      /* most often: not the same */
    if (!cursor_open(&x, L, a) || !cursor_open(&y, L, b)) return 0;
    for (;;) {
        int p = cursor_next(&x), q = cursor_next(&y);
        if (p != q || p == -2) return 0;
        if (p == -1) return 1;
    }
}

/* Whether the text of the option at `opt` starts with the text of the
 * option at `prefix` and goes on at a word boundary. */
static int option_extends(lua_State *L, int opt, int prefix) {
    struct cursor x, y;
    lua_Integer no, np;
    opt = lua_absindex(L, opt);
    prefix = lua_absindex(L, prefix);
    if (same_entries(L, opt, prefix, &no, &np) == 1) return no > np;   /* see same_entries */
    if (!cursor_open(&x, L, opt) || !cursor_open(&y, L, prefix)) return 0;
    for (;;) {
        int q = cursor_next(&y);
        int p = cursor_next(&x);
        if (q == -1) return p == ' ' || p == ',';
        if (p != q || p < 0) return 0;
    }
}

static int kn_option_extends_any(lua_State *L, int list, lua_Integer n, int opt) {
    list = lua_absindex(L, list);
    opt = lua_absindex(L, opt);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        int yes = option_extends(L, -1, opt);
        lua_pop(L, 1);
        if (yes) return 1;
    }
    return 0;
}

/* The decimal text of v, as LUA_INTEGER_FMT gives it, into out (room for
 * 21 characters); returns its length. */
static size_t integer_text(char *out, lua_Integer v) {
    char digits[24];
    size_t n = 0, len = 0;
    lua_Unsigned u = v < 0 ? 0u - (lua_Unsigned)v : (lua_Unsigned)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0) out[len++] = '-';
    while (n > 0) out[len++] = digits[--n];
    return len;
}

/* The piece of text of the entry at idx, a string or a whole number
 * (checked by the caller); num: room for an integer's text. */
static const char *piece(lua_State *L, int idx, char *num, size_t *len, int *is_num) {
    *is_num = lua_type(L, idx) == LUA_TNUMBER;
    if (*is_num) {
        *len = integer_text(num, lua_tointeger(L, idx));
        return num;
    }
    return lua_tolstring(L, idx, len);
}

#define TEXT_SMALL 256

static void kn_push_text_of(lua_State *L, int first, int n) {
    char small[TEXT_SMALL], num[24];
    size_t len = 0;
    int prev_num = 0;
    first = lua_absindex(L, first);
    for (int i = 0; i < n; i++) {
        size_t m;
        int is_num;
        const char *s = piece(L, first + i, num, &m, &is_num);
        if (len + m + 1 > sizeof small) break;          /* a long text: below */
        if (i > 0) small[len++] = (is_num && prev_num) ? ',' : ' ';
        memcpy(small + len, s, m);
        len += m;
        prev_num = is_num;
        if (i == n - 1) {
            lua_pushlstring(L, small, len);
            return;
        }
    }
    if (n == 0) {
        lua_pushliteral(L, "");
        return;
    }
    luaL_Buffer b;                                       /* pushes: indices stay absolute */
    luaL_buffinit(L, &b);
    prev_num = 0;
    for (int i = 0; i < n; i++) {
        size_t m;
        int is_num;
        const char *s = piece(L, first + i, num, &m, &is_num);
        if (i > 0) luaL_addchar(&b, (is_num && prev_num) ? ',' : ' ');
        luaL_addlstring(&b, s, m);
        prev_num = is_num;
    }
    luaL_pushresult(&b);
}

/* The text of a list of entries read one character at a time: what
 * kn_option_push_text does with a list too long for the stack, or one
 * that is not an option (the error says why). */
static void push_text_slowly(lua_State *L, int idx) {
    struct cursor c;
    if (!cursor_open(&c, L, idx)) luaL_error(L, "an option is a string or a list of words and whole numbers, not %s",
                                             luaL_typename(L, idx));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    /* the buffer may sit on the stack: keep the cursor's indices absolute */
    for (;;) {
        int ch = cursor_next(&c);
        if (ch == -1) break;
        if (ch == -2) luaL_error(L, "option entry %d is not a string or a whole number", (int)c.i);
        luaL_addchar(&b, (char)ch);
    }
    luaL_pushresult(&b);
}

static void kn_option_push_text(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) {
        lua_pushvalue(L, idx);
        return;
    }
    lua_Integer n = t == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, idx) : 0;
    if (n == 0 || n > KN_MAX_WORDS) {
        push_text_slowly(L, idx);
        return;
    }
    luaL_checkstack(L, (int)n + 4, "an option's entries");
    int base = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i++) {
        int et = lua_rawgeti(L, idx, i);
        if (!(et == LUA_TSTRING || (et == LUA_TNUMBER && lua_isinteger(L, -1)))) {
            lua_settop(L, base);
            push_text_slowly(L, idx);                    /* raises, saying which entry */
            return;
        }
    }
    kn_push_text_of(L, base + 1, (int)n);
    lua_replace(L, base + 1);
    lua_settop(L, base + 1);
}

/* Why the option at idx is not one, or NULL. */
static const char *bad_option(lua_State *L, int idx) {
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) return NULL;
    if (t != LUA_TTABLE) return "is not a string or a list of words and whole numbers";
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return "is a table with a metatable (options are plain lists)";
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n == 0) return "is an empty list";
    if (n > KN_MAX_WORDS) return "has more than " "64" " entries";
    int top = lua_gettop(L), ok = 1;
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, (int)n, "option entries");   /* popped once, below */
    for (lua_Integer i = 1; i <= n && ok; i++) {
        int et = lua_rawgeti(L, idx, i);
        ok = et == LUA_TSTRING || (et == LUA_TNUMBER && lua_isinteger(L, -1));
    }
    lua_settop(L, top);
    return ok ? NULL : "has an entry that is not a string or a whole number";
}

/* ---- constant option lists (kontor.options, kontor.family) ------------- */

/* A constant is a full userdata that no rule script can change: its
 * entries live in a plain table kept as its user value (the engine's
 * copy, which the engine reads as it reads a plain list), and the script
 * reads them through the userdata's own metatable, hidden (__metatable
 * false): __index is a table (a read costs what a table's does, no call),
 * __len gives the count, __newindex raises. A table option of a list, and
 * a list of choices of a family, read back as a constant of their own
 * (CONST_WORDS), so nothing the script reads leads to a table it could
 * change. A list or a family is checked once, when it is made, as g:choose
 * and g:choose_from check; they then take it without reading it again. */
enum { CONST_OPTIONS = 1, CONST_FAMILY, CONST_WORDS };

struct kn_const {
    int kind;
    int tables;                  /* some entry is a table (a list option, a family's list) */
    int flat;                    /* a family's choices are its user values too (below) */
    lua_Integer n;               /* entries: options, a family's entries, words */
    lua_Integer count;           /* the options it stands for (a family: the product) */
    /* A family with at most FLAT_CHOICES choices in all keeps them as the
     * userdata's user values 2.., list i's from first[i] + 1 on: the
     * simulation's bot takes an option's choices from the userdata itself
     * (next to its header) instead of from the family's list and each
     * list's own table, which are rarely in the cache by the time a
     * decision comes back (three cache misses a decision, perf). */
    /* Next to the head, so that a decision reads one or two cache lines of
     * the constant: each entry's first user value and its list's size. */
    struct { unsigned short first, size; } ent[KN_MAX_WORDS + 1];
    struct kn_family shape;      /* a family's, as kn_family_check gives it */
};

#define FLAT_CHOICES 512
#define CHECK_RUN 8
#define DRAW_KEPT 64

static const char CONST_TAG = 0;

/* A list's or words' constant is the head of struct kn_const, up to
 * `ent`; only a family's has the rest (the flat choices, the shape). */
#define CONST_HEAD offsetof(struct kn_const, ent)

/* The constant at idx, or NULL. */
static struct kn_const *to_const(lua_State *L, int idx) {
    char *p = (char *)lua_touserdata(L, idx);
    if (p != NULL && lua_rawlen(L, idx) >= KN_UD_HEAD + CONST_HEAD) {
        const void *got;
        memcpy(&got, p, sizeof got);
        if (got == (const void *)&CONST_TAG) return (struct kn_const *)(p + KN_UD_HEAD);
    }
    return NULL;
}

/* If the value at idx is a constant of `kind`, replaces it on the stack by
 * its plain table (the engine's copy) and returns its count of options; 0
 * otherwise. (The constant may go with the slot: read it before.) */
static lua_Integer unwrap_const(lua_State *L, int idx, int kind) {
    struct kn_const *c = to_const(L, idx);
    if (c == NULL || c->kind != kind) return 0;
    lua_Integer count = c->count;
    idx = lua_absindex(L, idx);
    lua_getiuservalue(L, idx, 1);
    lua_replace(L, idx);
    return count;
}

static int const_len(lua_State *L) {
    struct kn_const *c = to_const(L, 1);
    lua_pushinteger(L, c ? c->n : 0);
    return 1;
}

static int const_newindex(lua_State *L) {
    return luaL_error(L, "a constant list (kontor.options, kontor.family) cannot be changed");
}

static const char *const_name(int kind) {
    return kind == CONST_OPTIONS ? "kontor.options" : kind == CONST_FAMILY ? "kontor.family" : "kontor.words";
}

/* What every constant's metatable is made of, kept as upvalues of the
 * two constructors (kontor.options, kontor.family; push_const runs only
 * inside them): the keys, the two metamethods and the kinds' names, so
 * that making a metatable interns no string and looks nothing up. */
enum { UV_INDEX = 1, UV_LEN, UV_NEWINDEX, UV_METATABLE, UV_NAME, UV_LENF, UV_NEWINDEXF, UV_KINDS };
#define UV_COUNT (UV_KINDS + 2)   /* the last of the three kinds' names */

static void push_const_upvalues(lua_State *L) {
    static const char *const keys[] = { "__index", "__len", "__newindex", "__metatable", "__name" };
    for (int i = 0; i < 5; i++) lua_pushstring(L, keys[i]);
    lua_pushcfunction(L, const_len);
    lua_pushcfunction(L, const_newindex);
    for (int kind = CONST_OPTIONS; kind <= CONST_WORDS; kind++) lua_pushstring(L, const_name(kind));
}

/* Sets t[upvalue k] = upvalue v for the table on top. */
static void set_uv(lua_State *L, int k, int v) {
    lua_pushvalue(L, lua_upvalueindex(k));
    lua_pushvalue(L, v);
    lua_rawset(L, -3);
}

/* Pushes a constant of `kind` with n entries over the plain table at
 * `plain` (the engine's copy, made by the caller) and `view` (what its
 * reads give: the same table, or one whose tables are constants). Each
 * has its own metatable, as __index must be its view (a table: a read
 * costs what a table's does, no call); the rest is shared. */
static struct kn_const *push_const(lua_State *L, int kind, lua_Integer n, int plain, int view, int nuv) {
    plain = lua_absindex(L, plain);
    view = lua_absindex(L, view);
    size_t size = kind == CONST_FAMILY ? sizeof(struct kn_const) : CONST_HEAD;
    struct kn_const *c = (struct kn_const *)kn_newudata(L, size, nuv, &CONST_TAG);
    c->kind = kind;
    c->n = n;
    c->count = n;
    c->tables = 0;
    c->flat = 0;
    lua_pushvalue(L, plain);
    lua_setiuservalue(L, -2, 1);
    lua_createtable(L, 0, 5);                       /* its own metatable */
    set_uv(L, UV_INDEX, view);
    set_uv(L, UV_LEN, lua_upvalueindex(UV_LENF));
    set_uv(L, UV_NEWINDEX, lua_upvalueindex(UV_NEWINDEXF));
    lua_pushvalue(L, lua_upvalueindex(UV_METATABLE));
    lua_pushboolean(L, 0);
    lua_rawset(L, -3);
    set_uv(L, UV_NAME, lua_upvalueindex(UV_KINDS + kind - CONST_OPTIONS));
    lua_setmetatable(L, -2);
    return c;
}

/* Raises at the line of the script that called the constructor. */
static int const_fail(lua_State *L, const char *fmt, ...) {
    va_list ap;
    luaL_where(L, 1);
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* Copies the plain list at idx (strings and whole numbers, checked) into
 * a new table and pushes the words constant over it, then the copy. */
static void push_words(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer j = 1; j <= n; j++) {
        lua_rawgeti(L, idx, j);
        lua_rawseti(L, -2, j);
    }
    push_const(L, CONST_WORDS, n, -1, -1, 1);
    lua_insert(L, -2);
}

static const char *bad_family_entry(lua_State *L, int idx, int t, lua_Integer *size);

/* The engine's copy and the script's view of the plain list at 1 (with
 * `check`, each entry checked as an option as it is read; else checked
 * before): strings and whole numbers as they are, each table copied (a
 * words constant in the view). */
static int copy_entries(lua_State *L, lua_Integer n, int check) {
    lua_createtable(L, (int)n, 0);                   /* 2: the engine's copy */
    int tables = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, 1, i);
        if (check) {                                 /* kontor.options: each read once, checked here */
            const char *why = bad_option(L, -1);
            if (why) const_fail(L, "kontor.options: option %I %s", i, why);
        }
        if (t == LUA_TTABLE) {
            if (!tables) {                           /* 3: the script's view, from the first table on */
                lua_createtable(L, (int)n, 0);
                for (lua_Integer j = 1; j < i; j++) {
                    lua_rawgeti(L, 2, j);
                    lua_rawseti(L, -2, j);
                }
                lua_insert(L, 3);
                tables = 1;
            }
            push_words(L, -1);                       /* entry, constant, copy */
            lua_rawseti(L, 2, i);
            lua_rawseti(L, 3, i);
            lua_pop(L, 1);
        } else if (tables) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, 2, i);
            lua_rawseti(L, 3, i);
        } else {
            lua_rawseti(L, 2, i);
        }
    }
    if (!tables)                                    /* one table serves both */
        lua_pushvalue(L, 2);
    return tables;
}

/* Pushes the plain list of the constant list of options at idx for a
 * decision the engine keeps and hands on (the driver, text parser and
 * R.constraints' explanations read it): its own copy, or, when it has
 * list options, a new list with those lists copied, so that no script
 * ever holds a table of the constant's. */
static void push_plain(lua_State *L, int idx) {
    struct kn_const *c = to_const(L, idx);
    idx = lua_absindex(L, idx);
    lua_getiuservalue(L, idx, 1);
    if (c == NULL || !c->tables) return;
    int plain = lua_gettop(L);
    lua_createtable(L, (int)c->n, 0);
    for (lua_Integer i = 1; i <= c->n; i++) {
        if (lua_rawgeti(L, plain, i) == LUA_TTABLE) {
            lua_Integer m = (lua_Integer)lua_rawlen(L, -1);
            lua_createtable(L, (int)m, 0);
            for (lua_Integer j = 1; j <= m; j++) {
                lua_rawgeti(L, -2, j);
                lua_rawseti(L, -2, j);
            }
            lua_replace(L, -2);
        }
        lua_rawseti(L, -2, i);
    }
    lua_replace(L, plain);
}

/* kontor.options(list): the constant list of options `list` stands for,
 * checked now as g:choose checks a list. */
static int opt_constant(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1))
        return const_fail(L, "kontor.options: the options must be a plain list, not %s",
                          lua_type(L, 1) == LUA_TTABLE ? "a table with a metatable" : luaL_typename(L, 1));
    lua_settop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    if (n == 0) return const_fail(L, "kontor.options: no options");
    if (n > KN_MAX_OPTIONS)
        return const_fail(L, "kontor.options: %I options; a decision may have at most %d (split it into steps)",
                          n, KN_MAX_OPTIONS);
    int tables = copy_entries(L, n, 1);
    push_const(L, CONST_OPTIONS, n, 2, 3, 1)->tables = tables;
    return 1;
}

/* kontor.family(family): the constant family, checked now as
 * g:choose_from checks one. */
static int opt_constant_family(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1))
        return const_fail(L, "kontor.family: the family must be a plain list, not %s",
                          lua_type(L, 1) == LUA_TTABLE ? "a table with a metatable" : luaL_typename(L, 1));
    lua_settop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1), count = 1;
    if (n == 0) return const_fail(L, "kontor.family: the family is an empty list");
    if (n > KN_MAX_WORDS) return const_fail(L, "kontor.family: the family has more than 64 entries");
    struct kn_family shape;
    shape.n = (int)n;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_Integer size;
        int t = lua_rawgeti(L, 1, i);
        const char *why = bad_family_entry(L, 2, t, &size);
        lua_settop(L, 1);
        if (why) return const_fail(L, "kontor.family: entry %I of the family %s", i, why);
        shape.size[i] = size;
        if (size > 0) count *= size;
        if (count > KN_MAX_OPTIONS) count = KN_MAX_OPTIONS + 1;
    }
    if (count > KN_MAX_OPTIONS)
        return const_fail(L, "kontor.family: the family stands for more than %d options (split it into steps)",
                          KN_MAX_OPTIONS);
    lua_Integer choices = 0;
    for (lua_Integer i = 1; i <= n; i++) choices += shape.size[i];
    int flat = choices > 0 && choices <= FLAT_CHOICES;
    int tables = copy_entries(L, n, 0);
    struct kn_const *c = push_const(L, CONST_FAMILY, n, 2, 3, flat ? 1 + (int)choices : 1);
    c->tables = tables;
    c->count = count;
    c->shape = shape;
    if (flat) {                                     /* the choices as user values 2.. */
        int uv = 1;
        for (lua_Integer i = 1; i <= n; i++) {
            c->ent[i].first = (unsigned short)uv;
            c->ent[i].size = (unsigned short)shape.size[i];
            if (shape.size[i] == 0) continue;
            lua_rawgeti(L, 2, i);                   /* the engine's copy of list i */
            for (lua_Integer j = 1; j <= shape.size[i]; j++) {
                lua_rawgeti(L, -1, j);
                lua_setiuservalue(L, -3, ++uv);
            }
            lua_pop(L, 1);
        }
        c->flat = 1;
    }
    return 1;
}

static lua_Integer check_who(lua_State *L, int seatidx, int nameidx, lua_Integer players, const char *what);

/* The simulation's bot on a constant family (lua/engine/playout.c): the
 * check of kn_family_check for the constant at idx (seat and name), and
 * its count of options; NULL, and nothing checked, for anything but a
 * flat constant family (kn_family_check then takes it). */
const struct kn_const *kn_family_const(lua_State *L, int idx, int seatidx, int nameidx,
                                       lua_Integer players, const char *what, lua_Integer *count) {
    struct kn_const *c = to_const(L, idx);
    if (c == NULL || c->kind != CONST_FAMILY || !c->flat) return NULL;
    check_who(L, seatidx, nameidx, players, what);
    *count = c->count;
    return c;
}

/* Pushes the choices option k of the flat constant family c (at idx)
 * takes from its lists, in order; returns how many. */
int kn_family_push_choices(lua_State *L, int idx, const struct kn_const *c, lua_Integer k) {
    int uv[KN_MAX_WORDS + 1], lists = 0;
    lua_Integer rest = k - 1;
    for (int i = (int)c->n; i >= 1; i--) {          /* as kn_family_picks: the last list fastest */
        lua_Integer size = c->ent[i].size;
        if (size == 0) continue;
        uv[lists++] = c->ent[i].first + (int)(rest % size) + 1;
        rest /= size;
    }
    luaL_checkstack(L, lists, "a family's choices");
    for (int j = lists - 1; j >= 0; j--) lua_getiuservalue(L, idx, uv[j]);
    return lists;
}

/* Raises a message located at the rule script's line: level 2, the caller
 * of the engine function (g:choose, ...) that called check. */
static int fail(lua_State *L, const char *fmt, ...) {
    va_list ap;
    luaL_where(L, 2);
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* fail, located at `level` (2 as fail; 1 when the g: method itself is the
 * C function that checks, lua/engine/playout.c's bot_method). */
static int fail_at(lua_State *L, int level, const char *fmt, ...) {
    va_list ap;
    luaL_where(L, level);
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* The decision's name and seat, checked as kn_options_check checks them;
 * returns the seat (0 when players is 0: not checked). */
static lua_Integer check_who(lua_State *L, int seatidx, int nameidx, lua_Integer players, const char *what) {
    if (lua_type(L, nameidx) != LUA_TSTRING)
        fail(L, "%s: the decision's name must be a string, not %s", what,
                          luaL_typename(L, nameidx));
    /* the name's text only for a message (a string: no conversion) */
#define name lua_tostring(L, nameidx)
    lua_Integer seat = 0;
    if (players > 0) {
        int isnum = 0;
        /* an integer (the common case): one read; a float with an
         * integral value is a seat too */
        if (lua_isinteger(L, seatidx)) {
            seat = lua_tointegerx(L, seatidx, NULL);
            isnum = 1;
        } else if (lua_type(L, seatidx) == LUA_TNUMBER) {
            seat = lua_tointegerx(L, seatidx, &isnum);
        }
        if (!isnum || seat < 1 || seat > players) {
            if (lua_type(L, seatidx) == LUA_TNUMBER)
                fail(L, "%s: decision '%s' is for seat %s, not a seat 1..%I", what, name,
                                  lua_tostring(L, seatidx), players);
            fail(L, "%s: decision '%s' is for a %s, not a seat 1..%I", what, name,
                              luaL_typename(L, seatidx), players);
        }
    }
#undef name
    return seat;
}

/* The message of a constant of the wrong kind: given to g:choose, a
 * family; to g:choose_from, a list of options. */
static int wrong_const(lua_State *L, const struct kn_const *c, int seatidx, int nameidx, const char *what) {
    const char *seat = lua_type(L, seatidx) == LUA_TNUMBER ? lua_tostring(L, seatidx) : luaL_typename(L, seatidx);
    const char *name = lua_tostring(L, nameidx);
    if (c->kind == CONST_FAMILY)
        return fail(L, "%s: the options of decision '%s' of seat %s are a family (kontor.family): "
                       "g:choose_from takes it", what, name, seat);
    if (c->kind == CONST_OPTIONS)
        return fail(L, "%s: the family of decision '%s' of seat %s is a list of options (kontor.options): "
                       "g:choose takes it", what, name, seat);
    return fail(L, "%s: the options of decision '%s' of seat %s are one option's words, not a list of options",
                what, name, seat);
}

/* check(list, seat, name [, players [, what]]) -> n: the boundary check of
 * g:choose, g:choose_all and g:chance (with players, seat must be one of
 * 1..players). Raises an error located at the rule script's line (level 2:
 * the caller of the engine function that called check). A constant list
 * (kontor.options) was checked when it was made: only the seat and the
 * name are checked (a caller that reads the options takes its plain list,
 * unwrap_const). */
lua_Integer kn_options_check(lua_State *L, int list, int seatidx, int nameidx, lua_Integer players,
                             const char *what) {
    lua_Integer seat;
    return kn_options_check_seat(L, list, seatidx, nameidx, players, what, &seat);
}

/* The check of a plain table of options (not a constant) whose seat and
 * name are checked: n, or raises as kn_options_check_seat, at `level`. */
static lua_Integer check_list(lua_State *L, int list, int seatidx, int nameidx, const char *what, int level) {
#define name lua_tostring(L, nameidx)
#define seat (lua_type(L, seatidx) == LUA_TNUMBER ? lua_tostring(L, seatidx) : luaL_typename(L, seatidx))
    if (lua_getmetatable(L, list))
        return fail_at(L, level, "%s: the options of decision '%s' of seat %s are a table with a metatable "
                          "(options are plain lists)", what, name, seat);
    lua_Integer n = (lua_Integer)lua_rawlen(L, list);
    if (n == 0)
        return fail_at(L, level, "%s: decision '%s' of seat %s has no options", what, name, seat);
    if (n > KN_MAX_OPTIONS)
        return fail_at(L, level, "%s: decision '%s' of seat %s has %I options; a decision may have at most %d "
                          "(split it into steps)", what, name, seat, n, KN_MAX_OPTIONS);
    /* Options are read CHECK_RUN at a time and popped together (a pop
     * is a call of its own): only a run with an option that is not a
     * string is read again, one by one. The callers check near their
     * start, with at most 8 values pushed: a run fits in the LUA_MINSTACK
     * (20) slots Lua gives every C function. */
    if (list < 0) list = lua_absindex(L, list);
    int top = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i += CHECK_RUN) {
        lua_Integer e = n - i < CHECK_RUN ? n : i + CHECK_RUN - 1;   /* the run: i..e */
        int all_strings = 1;
        for (lua_Integer j = i; j <= e; j++) all_strings &= lua_rawgeti(L, list, j) == LUA_TSTRING;
        if (!all_strings) {                                 /* a list option, or not an option */
            for (lua_Integer j = 0; j <= e - i; j++) {
                if (lua_type(L, top + 1 + (int)j) == LUA_TSTRING) continue;
                const char *why = bad_option(L, top + 1 + (int)j);
                if (why)
                    return fail_at(L, level, "%s: option %I of decision '%s' of seat %s %s", what, i + j,
                                      name, seat, why);
            }
        }
        lua_settop(L, top);
    }
#undef seat
#undef name
    return n;
}

/* kn_options_check, giving the seat it checked (players > 0) in *seatp:
 * the caller need not read it again. */
lua_Integer kn_options_check_seat(lua_State *L, int list, int seatidx, int nameidx, lua_Integer players,
                                  const char *what, lua_Integer *seatp) {
    *seatp = check_who(L, seatidx, nameidx, players, what);
    int type = lua_type(L, list);
    if (type == LUA_TUSERDATA) {                           /* a constant: checked when made */
        struct kn_const *c = to_const(L, list);
        if (c && c->kind == CONST_OPTIONS) return c->n;
        if (c) return wrong_const(L, c, seatidx, nameidx, what);
    }
#define name lua_tostring(L, nameidx)
#define seat (lua_type(L, seatidx) == LUA_TNUMBER ? lua_tostring(L, seatidx) : luaL_typename(L, seatidx))
    if (type != LUA_TTABLE)
        return fail(L, "%s: the options of decision '%s' of seat %s must be a list, not %s",
                          what, name, seat, luaL_typename(L, list));
#undef seat
#undef name
    return check_list(L, list, seatidx, nameidx, what, 2);
}

lua_Integer kn_options_check_plain(lua_State *L, int list, int seatidx, int nameidx, const char *what, int level) {
    return check_list(L, list, seatidx, nameidx, what, level);
}

lua_Integer kn_options_const_count(lua_State *L, int idx) {
    const struct kn_const *c = to_const(L, idx);
    return c != NULL && c->kind == CONST_OPTIONS ? c->n : 0;
}

#define SEATS_SEEN 16

/* seats(list, players, what) -> n: the seats of g:choose_all and
 * g:choose_orders, a plain list of n >= 1 distinct seats 1..players. Raises
 * at the rule script's line, as check does (kn_options_seats: at `level`). */
lua_Integer kn_options_seats(lua_State *L, int idx, lua_Integer players, const char *what, int level) {
    if (lua_type(L, idx) != LUA_TTABLE || lua_getmetatable(L, idx))
        return fail_at(L, level, "%s: seats must be a plain list of seats", what);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n == 0)
        return fail_at(L, level, "%s: no seats", what);
    if (n > players)                      /* then some seat is out of range or listed twice */
        n = players + 1;
    lua_Integer seen[SEATS_SEEN];            /* the first seats; any further ones are read again */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        lua_Integer s = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
        if (s < 1 || s > players)
            return fail_at(L, level, "%s: seats[%I] is %s, not a seat 1..%I", what, i,
                        luaL_tolstring(L, -1, NULL), players);
        lua_pop(L, 1);
        for (lua_Integer j = 1; j < i; j++) {   /* a few seats: no table of those seen */
            lua_Integer t = j <= SEATS_SEEN ? seen[j - 1] : (lua_rawgeti(L, idx, j), lua_tointeger(L, -1));
            if (j > SEATS_SEEN)
                lua_pop(L, 1);
            if (t == s)
                return fail_at(L, level, "%s: seat %I is listed twice", what, s);
        }
        if (i <= SEATS_SEEN)
            seen[i - 1] = s;
    }
    return (lua_Integer)lua_rawlen(L, idx);
}

static int opt_seats(lua_State *L) {
    lua_Integer players = luaL_checkinteger(L, 2);
    const char *what = luaL_checkstring(L, 3);
    lua_pushinteger(L, kn_options_seats(L, 1, players, what, 2));
    return 1;
}

static int opt_check(lua_State *L) {
    const char *what = luaL_optstring(L, 5, "g:choose");
    lua_Integer players = luaL_optinteger(L, 4, 0);
    lua_pushinteger(L, kn_options_check(L, 1, 2, 3, players, what));
    if (lua_type(L, 1) != LUA_TUSERDATA) return 1;
    push_plain(L, 1);                                      /* a constant's plain list */
    return 2;
}

/* ---- a family of options (g:choose_from) -------------------------------- */

/* A family is a plain list of entries like an option's, where an entry may
 * also be a plain list of strings and whole numbers: the choices at that
 * place. It stands for every option that takes one choice from each list,
 * the first list varying slowest (the options a script makes with one
 * loop per list, nested in the entries' order), so the same decision given
 * as a family or as that list of options has the same options in the same
 * order, the same texts and the same indices. */

/* Why the entry of a family at (absolute) index idx, of type t, is not
 * one, or NULL; *size: the choices of a list, 0 for a word or a number.
 * Needs room for 16 values on the stack. */
static const char *bad_family_entry(lua_State *L, int idx, int t, lua_Integer *size) {
    *size = 0;
    if (t == LUA_TSTRING || (t == LUA_TNUMBER && lua_isinteger(L, idx))) return NULL;
    if (t != LUA_TTABLE) return "is not a string, a whole number or a plain list of them";
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return "is a table with a metatable (a family's lists are plain lists)";
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n == 0) return "is an empty list (no choice there)";
    int ok = 1;
    for (lua_Integer j = 1; j <= n && ok; j++) {
        int et = lua_rawgeti(L, idx, j);
        ok = et == LUA_TSTRING || (et == LUA_TNUMBER && lua_isinteger(L, -1));
        if (j % 16 == 0) lua_settop(L, idx);
    }
    lua_settop(L, idx);
    if (!ok) return "holds a choice that is not a string or a whole number";
    *size = n;
    return NULL;
}

/* The boundary check of g:choose_from, as kn_options_check's: returns the
 * number of options, or raises at the rule script's line. Fills `shape`
 * (struct kn_family, lua/engine/engine.h) for kn_family_push_option. */
lua_Integer kn_family_check(lua_State *L, int family, int seatidx, int nameidx, lua_Integer players,
                            const char *what, struct kn_family *shape) {
    family = lua_absindex(L, family);
    if (lua_type(L, family) == LUA_TUSERDATA) {            /* a constant: checked when made */
        struct kn_const *c = to_const(L, family);
        if (c) {
            check_who(L, seatidx, nameidx, players, what);
            if (c->kind != CONST_FAMILY) return wrong_const(L, c, seatidx, nameidx, what);
            memcpy(shape->size, c->shape.size, sizeof shape->size[0] * (size_t)(c->shape.n + 1));
            shape->n = c->shape.n;
            return unwrap_const(L, family, CONST_FAMILY);
        }
    }
    if (lua_type(L, family) != LUA_TTABLE || lua_getmetatable(L, family)) {
        /* the seat and name first, then the list, as kn_options_check */
        return kn_options_check(L, family, seatidx, nameidx, players, what);
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, family), count = 1;
    if (lua_type(L, nameidx) != LUA_TSTRING || n == 0)
        return kn_options_check(L, family, seatidx, nameidx, players, what);
#define name lua_tostring(L, nameidx)
    if (players > 0) {
        int isnum = 0;
        lua_Integer seat = lua_tointegerx(L, seatidx, &isnum);
        if (!isnum || lua_type(L, seatidx) != LUA_TNUMBER || seat < 1 || seat > players)
            return kn_options_check(L, family, seatidx, nameidx, players, what);
    }
#define seat (lua_type(L, seatidx) == LUA_TNUMBER ? lua_tostring(L, seatidx) : luaL_typename(L, seatidx))
    if (n > KN_MAX_WORDS)
        return fail(L, "%s: the family of decision '%s' of seat %s has more than 64 entries", what, name, seat);
    shape->n = (int)n;
    int base = lua_gettop(L);
    luaL_checkstack(L, (int)n + 16, "a family's entries");   /* popped once, below */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_Integer size;
        const char *why = bad_family_entry(L, base + (int)i, lua_rawgeti(L, family, i), &size);
        if (why)
            return fail(L, "%s: entry %I of the family of decision '%s' of seat %s %s", what, i, name, seat, why);
        shape->size[i] = size;
        if (size > 0) count *= size;          /* at most (MAX + 1) * 2^31: no overflow */
        if (count > KN_MAX_OPTIONS) count = KN_MAX_OPTIONS + 1;
    }
    lua_settop(L, base);
    if (count > KN_MAX_OPTIONS) {
        /* the true count, for the message */
        lua_Integer all = 1;
        int more = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            lua_Integer size = shape->size[i];
            if (size == 0) continue;
            if (all > LUA_MAXINTEGER / size) more = 1;
            else all *= size;
        }
        if (more)
            return fail(L, "%s: decision '%s' of seat %s has more options than a whole number counts; "
                           "a decision may have at most %d (split it into steps)", what, name, seat,
                        KN_MAX_OPTIONS);
        return fail(L, "%s: decision '%s' of seat %s has %I options; a decision may have at most %d "
                       "(split it into steps)", what, name, seat, all, KN_MAX_OPTIONS);
    }
#undef seat
#undef name
    return count;
}

/* The choice option k takes from each list of the family: pick[i] for
 * each entry i with shape->size[i] > 0 (the last list varies fastest). */
void kn_family_picks(const struct kn_family *shape, lua_Integer k, lua_Integer *pick) {
    lua_Integer rest = k - 1;
    for (int i = shape->n; i >= 1; i--) {
        lua_Integer size = shape->size[i];
        if (size == 0) continue;
        pick[i] = rest % size + 1;
        rest /= size;
    }
}

/* Pushes option k (1..count) of the family at `family`, checked, with the
 * shape its check gave: a new list, entry i the word of entry i or the
 * choice option k takes from its list. */
static void kn_family_push_option(lua_State *L, int family, lua_Integer k, const struct kn_family *shape) {
    lua_Integer pick[KN_MAX_WORDS + 1];
    family = lua_absindex(L, family);
    kn_family_picks(shape, k, pick);
    lua_createtable(L, shape->n, 0);
    for (int i = 1; i <= shape->n; i++) {
        lua_rawgeti(L, family, i);
        if (shape->size[i] > 0) {
            lua_rawgeti(L, -1, pick[i]);
            lua_replace(L, -2);
        }
        lua_rawseti(L, -2, i);
    }
}

/* Pushes the entries of the option at `option` (made by
 * kn_family_push_option) that came from the family's lists; returns how
 * many. */
static int kn_family_push_values(lua_State *L, int option, const struct kn_family *shape) {
    int lists = 0;
    option = lua_absindex(L, option);
    luaL_checkstack(L, shape->n, "a family's choices");
    for (int i = 1; i <= shape->n; i++) {
        if (shape->size[i] == 0) continue;
        lua_rawgeti(L, option, i);
        lists++;
    }
    return lists;
}

/* expand(family, seat, name, players) -> the list of its options, checked
 * as g:choose_from checks (raises at the rule script's line). */
static int opt_expand(lua_State *L) {
    struct kn_family shape;
    lua_Integer players = luaL_checkinteger(L, 4);
    lua_settop(L, 3);
    lua_Integer n = kn_family_check(L, 1, 2, 3, players, "g:choose_from", &shape);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer k = 1; k <= n; k++) {
        kn_family_push_option(L, 1, k, &shape);
        lua_rawseti(L, -2, k);
    }
    return 1;
}

/* pick(family, k) -> the entries option k of a family takes from its
 * lists (the family checked again: any plain value may come here). */
static int opt_pick(lua_State *L) {
    struct kn_family shape;
    unwrap_const(L, 1, CONST_FAMILY);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer k = luaL_checkinteger(L, 2);
    lua_settop(L, 2);
    lua_pushinteger(L, 1);                                   /* 3: a seat, 4: a name */
    lua_pushliteral(L, "pick");
    lua_Integer n = kn_family_check(L, 1, 3, 4, 0, "pick", &shape);
    luaL_argcheck(L, k >= 1 && k <= n, 2, "not an option of the family");
    kn_family_push_option(L, 1, k, &shape);
    return kn_family_push_values(L, -1, &shape);
}

/* family_draw(family, random) -> the entries of option random(n) of a
 * family of n options, the smallest way to answer g:choose_from: the bench's
 * stand-in for the engine (tests/bench/script.lua) asks it, as it asks the
 * engine's piles, so that what it costs is the rule script's. Nothing is
 * checked beyond what reading the family safely needs. */
static int opt_family_draw(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1), count = 1, size[KN_MAX_WORDS + 1];
    luaL_argcheck(L, n <= KN_MAX_WORDS, 1, "a family has at most 64 entries");
    for (lua_Integer i = 1; i <= n; i++) {       /* size 0: a word; a list's length */
        int list = lua_rawgeti(L, 1, i) == LUA_TTABLE;
        size[i] = list ? (lua_Integer)lua_rawlen(L, -1) : 0;
        lua_pop(L, 1);
        if (list) count = size[i] == 0 ? 0 : count * size[i];
        if (count > KN_MAX_OPTIONS) count = KN_MAX_OPTIONS + 1;
    }
    luaL_argcheck(L, count >= 1 && count <= KN_MAX_OPTIONS, 1, "not a family of 1 to 100000 options");
    lua_pushvalue(L, 2);
    lua_pushinteger(L, count);
    lua_call(L, 1, 1);
    lua_Integer k = lua_tointeger(L, -1);
    luaL_argcheck(L, k >= 1 && k <= count, 2, "must return a number 1..n");
    lua_Integer pick[KN_MAX_WORDS + 1], rest = k - 1;
    int lists = 0;
    for (lua_Integer i = n; i >= 1; i--) {
        if (size[i] == 0) continue;
        pick[i] = rest % size[i] + 1;
        rest /= size[i];
        lists++;
    }
    luaL_checkstack(L, lists + 2, "a family's choices");
    for (lua_Integer i = 1; i <= n; i++) {
        if (size[i] == 0) continue;
        if (lua_rawgeti(L, 1, i) != LUA_TTABLE)           /* random() may have changed the family */
            return luaL_error(L, "family_draw: entry %I of the family changed while drawing", i);
        lua_rawgeti(L, -1, pick[i]);
        lua_remove(L, -2);
    }
    return lists;
}

/* draw(rng, options, name [, weights]) -> k: g:chance resolved by the
 * game's RNG. The options are checked as by check; option k is drawn with
 * probability weights[k] / their sum, or uniformly without weights. The
 * weights are whole numbers >= 0, one for each option, not all 0; anything
 * else is an error at the rule script's line. */
static int opt_draw(lua_State *L) {
    struct kn_rng *rng = kn_check_rng(L, 1);
    lua_settop(L, 4);
    lua_pushinteger(L, 0);                                   /* 5: the seat, chance */
    lua_Integer n = kn_options_check(L, 2, 5, 3, 0, "g:chance");
    if (lua_isnil(L, 4)) {
        lua_pushinteger(L, (lua_Integer)kn_rng_below(rng, (uint64_t)n) + 1);
        return 1;
    }
    const char *name = lua_tostring(L, 3);
    if (lua_type(L, 4) != LUA_TTABLE || lua_getmetatable(L, 4))
        return fail(L, "g:chance: the weights of '%s' must be a plain list of whole numbers", name);
    /* The weights are read CHECK_RUN at a time (as kn_options_check reads
     * options) and the first DRAW_KEPT kept, so that the draw reads them
     * again from here, not from the table. */
    uint64_t total = 0, kept[DRAW_KEPT];
    int top = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i += CHECK_RUN) {
        lua_Integer m = n - i + 1 < CHECK_RUN ? n - i + 1 : CHECK_RUN;
        for (lua_Integer j = 0; j < m; j++) lua_rawgeti(L, 4, i + j);
        for (lua_Integer j = 0; j < m; j++) {
            int at = top + 1 + (int)j, isint = 0;
            if (lua_type(L, at) != LUA_TNUMBER)
                return fail(L, "g:chance: weight %I of '%s' is a %s, not a whole number 0..2^48", i + j, name,
                            luaL_typename(L, at));
            lua_Integer w = lua_tointegerx(L, at, &isint);
            if (!isint || w < 0 || w > ((lua_Integer)1 << 48))
                return fail(L, "g:chance: weight %I of '%s' is %s, not a whole number 0..2^48", i + j, name,
                            luaL_tolstring(L, at, NULL));
            if (i + j <= DRAW_KEPT) kept[i + j - 1] = (uint64_t)w;
            total += (uint64_t)w;
        }
        lua_settop(L, top);
    }
    if (total == 0) return fail(L, "g:chance: the weights of '%s' are all 0", name);
    uint64_t r = kn_rng_below(rng, total);
    lua_Integer k = 1;
    for (;; k++) {
        uint64_t w;
        if (k <= DRAW_KEPT) {
            w = kept[k - 1];
        } else {
            lua_rawgeti(L, 4, k);
            w = (uint64_t)lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
        if (r < w) break;
        r -= w;
    }
    lua_pushinteger(L, k);
    return 1;
}

static int opt_text(lua_State *L) {
    luaL_checkany(L, 1);
    unwrap_const(L, 1, CONST_WORDS);                        /* an option read from a constant list */
    kn_option_push_text(L, 1);
    return 1;
}

static int opt_texts(lua_State *L) {
    unwrap_const(L, 1, CONST_OPTIONS);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        kn_option_push_text(L, -1);
        lua_rawseti(L, -3, i);
        lua_pop(L, 1);
    }
    return 1;
}

static int opt_same(lua_State *L) {
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    lua_pushboolean(L, kn_option_same(L, 1, 2));
    return 1;
}

static int opt_extends(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_pushboolean(L, kn_option_extends_any(L, 1, (lua_Integer)lua_rawlen(L, 1), 2));
    return 1;
}

/* allowed(g, constraints, seat, name, options [, players [, what]]) ->
 * list [, indices]: the options that every constraint allows, each
 * constraint called as f(g, seat, name, text, option) and refusing with
 * anything but nil. With `players`, the options are checked first as
 * check(options, seat, name, players, what) checks them (a constant list
 * is taken as it is); without, they were checked by the caller. Returns
 * the options (a constant's plain list) when all are allowed, else the
 * allowed options in order and their indices in `options`; raises, at the
 * rule script's line (the caller of the g: method that called allowed),
 * when none is allowed. A constraint is given an option as the script
 * reads it: a table option of a constant list as its constant words. */
static int opt_allowed(lua_State *L) {
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 7);
    luaL_checkstack(L, 24, "allowed");                     /* 16 slots, and a constraint's call */
    lua_pushvalue(L, 5);                                   /* 8: the options as given */
    if (!lua_isnil(L, 6)) {
        kn_options_check(L, 5, 3, 4, luaL_checkinteger(L, 6), luaL_optstring(L, 7, "g:choose"));
        if (lua_type(L, 5) == LUA_TUSERDATA) {
            push_plain(L, 5);
            lua_replace(L, 5);
        }
    }
    luaL_checktype(L, 5, LUA_TTABLE);
    int constant = !lua_rawequal(L, 5, 8);
    if (constant && lua_getmetatable(L, 8)) {              /* 8: what the script reads */
        lua_getfield(L, -1, "__index");
        lua_replace(L, 8);
        lua_pop(L, 1);
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, 5), ncons = (lua_Integer)lua_rawlen(L, 2), kept = 0;
    lua_pushnil(L);                                        /* 9: the options kept */
    lua_pushnil(L);                                        /* 10: their indices */
    lua_pushnil(L);                                        /* 11: the constraint that refused last */
    lua_pushnil(L);                                        /* 12: its reason */
    lua_pushnil(L);                                        /* 13: the option's text it refused */
    for (lua_Integer i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, 5, i);                      /* 14: the option */
        if (t != LUA_TSTRING) {
            /* checked at the boundary, but a constraint asked before may
             * have changed the list: said at the rule script's line */
            const char *why = bad_option(L, 14);
            if (why) {
                luaL_where(L, 2);
                lua_pushfstring(L, "a constraint changed the options of decision '%s' of seat %s while "
                                   "they were asked: option %I %s", luaL_tolstring(L, 4, NULL),
                                luaL_tolstring(L, 3, NULL), i, why);
                lua_remove(L, -2);                         /* the seat's text */
                lua_remove(L, -2);                         /* the name's text */
                lua_concat(L, 2);
                return lua_error(L);
            }
        }
        kn_option_push_text(L, 14);                        /* 15: its text */
        if (t == LUA_TSTRING || !constant) lua_pushvalue(L, 14);
        else lua_rawgeti(L, 8, i);                         /* 16: the option the script reads */
        int ok = 1;
        for (lua_Integer j = 1; j <= ncons && ok; j++) {
            lua_rawgeti(L, 2, j);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, 3);
            lua_pushvalue(L, 4);
            lua_pushvalue(L, 15);
            lua_pushvalue(L, 16);
            lua_call(L, 5, 1);
            ok = lua_isnil(L, -1);
            if (!ok) {                                     /* kept for the message if none is left */
                lua_replace(L, 12);
                lua_rawgeti(L, 2, j);
                lua_replace(L, 11);
                lua_pushvalue(L, 15);
                lua_replace(L, 13);
            } else {
                lua_pop(L, 1);
            }
        }
        if (!ok && lua_isnil(L, 9)) {                      /* the first refused: keep those before */
            lua_createtable(L, (int)(n - 1), 0);
            lua_createtable(L, (int)(n - 1), 0);
            for (lua_Integer m = 1; m < i; m++) {
                lua_rawgeti(L, 5, m);
                lua_rawseti(L, -3, m);
                lua_pushinteger(L, m);
                lua_rawseti(L, -2, m);
            }
            kept = i - 1;
            lua_replace(L, 10);
            lua_replace(L, 9);
        } else if (ok && !lua_isnil(L, 9)) {
            kept++;
            lua_pushvalue(L, 14);
            lua_rawseti(L, 9, kept);
            lua_pushinteger(L, i);
            lua_rawseti(L, 10, kept);
        }
        lua_settop(L, 13);
    }
    if (lua_isnil(L, 9)) {
        lua_settop(L, 5);
        return 1;
    }
    if (kept == 0) {
        const char *seat = luaL_tolstring(L, 3, NULL);
        const char *name = luaL_tolstring(L, 4, NULL);
        luaL_where(L, 2);
        lua_pushfstring(L, "the constraints of the variants leave seat %s no option at decision '%s'", seat, name);
        /* the last refusal: which constraint, where its check is, and why */
        int told = 0;
        if (lua_isfunction(L, 11)) {
            lua_Debug ar;
            lua_pushvalue(L, 11);
            lua_getinfo(L, ">S", &ar);                     /* (pops the function) */
            if (ar.what[0] != 'C') {
                const char *text = lua_tostring(L, 13);
                const char *why = luaL_tolstring(L, 12, NULL);
                lua_pushfstring(L, " (the last, '%s', refused by %s:%d: %s)", text ? text : "?", ar.short_src,
                                ar.linedefined, why);
                lua_remove(L, -2);                         /* the reason's text */
                told = 1;
            }
        }
        if (!told) lua_pushliteral(L, "");
        lua_concat(L, 3);
        return lua_error(L);
    }
    lua_settop(L, 10);
    return 2;
}

/* The engine's plain list of a constant list of options or family (the
 * constant as it is otherwise). */
static int opt_plain(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    if (to_const(L, 1) != NULL) lua_getiuservalue(L, 1, 1);
    return 1;
}

static const luaL_Reg opt_funcs[] = {
    {"check", opt_check},
    {"seats", opt_seats},
    {"text", opt_text},
    {"texts", opt_texts},
    {"same", opt_same},
    {"extends", opt_extends},
    {"draw", opt_draw},
    {"expand", opt_expand},
    {"pick", opt_pick},
    {"family_draw", opt_family_draw},
    {"allowed", opt_allowed},
    {"plain", opt_plain},
    {NULL, NULL}
};

void kn_open_options(lua_State *L) {
    luaL_newlib(L, opt_funcs);
    push_const_upvalues(L);
    lua_pushcclosure(L, opt_constant, UV_COUNT);
    lua_setfield(L, -2, "constant");
    push_const_upvalues(L);
    lua_pushcclosure(L, opt_constant_family, UV_COUNT);
    lua_setfield(L, -2, "constant_family");
    lua_pushinteger(L, KN_MAX_OPTIONS);
    lua_setfield(L, -2, "MAX");
    lua_setfield(L, -2, "options");
}
