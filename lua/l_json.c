/*
 * l_json.c - kontor.core.json: canonical JSON encoding and strict decoding,
 * built on jansson.
 *
 *   json.encode(value [, opts])  -> string       (opts.indent, opts.newline)
 *   json.decode(text)            -> value | nil, "line L, column C: msg"
 *   json.null                    the JSON null (a light userdata)
 *   json.object                  metatable marking an empty table as {}
 *
 * The encoder's walk over Lua values makes no Lua call that can raise, and
 * every finished jansson tree or dumped string is held by a "box" userdata
 * whose __gc frees it, so no Lua error (even out of memory) can leak one.
 * The normal paths free the box explicitly before returning or raising.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "binding.h"

#define JSON_MAXDEPTH 200
#define JSON_BOX "kontor.json.box"

/* json.null is this address as a light userdata. */
static const char json_null_tag = 0;
/* Registry key of the json.object sentinel table. */
static const char json_object_key = 0;

/* ------------------------------------------------------------------ */
/* the box: owns a jansson tree and a dumped string until freed        */

typedef struct {
    json_t *root;
    char *text;
} JsonBox;

static void box_release(JsonBox *b) {
    if (b->root != NULL) {
        json_decref(b->root);
        b->root = NULL;
    }
    kn_sandbox_free(b->text);
    b->text = NULL;
}

static int box_gc(lua_State *L) {
    box_release((JsonBox *)luaL_checkudata(L, 1, JSON_BOX));
    return 0;
}

static JsonBox *box_new(lua_State *L) {
    JsonBox *b = (JsonBox *)lua_newuserdatauv(L, sizeof(JsonBox), 0);
    b->root = NULL;
    b->text = NULL;
    luaL_setmetatable(L, JSON_BOX);
    return b;
}

/* ------------------------------------------------------------------ */
/* UTF-8 validation (strict: no overlongs, surrogates or > U+10FFFF)   */

static int utf8_valid(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (len - i - 1 < n)
            return 0;
        for (size_t k = 1; k <= n; k++) {
            unsigned cc = s[i + k];
            if ((cc & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += n + 1;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* encoding                                                            */

enum { SEG_KEY, SEG_INDEX, SEG_OTHER };

typedef struct {
    int kind;
    const char *key;      /* SEG_KEY: string key (kept alive on the stack) */
    size_t keylen;
    lua_Integer index;    /* SEG_INDEX */
    const char *other;    /* SEG_OTHER: description of a non-string key */
    const void *table;    /* the table entered at this level, or NULL */
} Seg;

typedef struct {
    lua_State *L;
    Seg seg[JSON_MAXDEPTH + 2];
    int depth;            /* number of segments in use */
    char msg[512];        /* set when encoding fails */
    int precision;        /* digits the document's reals need (see shortest) */
} Enc;

/* The fewest significant digits (1..17) that print d so it reads back as
 * exactly d. A document is written with the largest of these over its reals:
 * every real still round-trips, and 0.1 is written 0.1. */
static int shortest(double d) {
    char buf[40];
    for (int p = 1; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, d);
        if (strtod(buf, NULL) == d) return p;
    }
    return 17;
}

static int is_ident(const char *s, size_t len) {
    if (len == 0 || len > 64)
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return 0;
    }
    return 1;
}

/* Appends src to dst (of size cap, holding *pos bytes), truncating. */
static void put(char *dst, size_t cap, size_t *pos, const char *src, size_t n) {
    if (*pos + 1 >= cap)
        return;
    if (n > cap - 1 - *pos)
        n = cap - 1 - *pos;
    memcpy(dst + *pos, src, n);
    *pos += n;
    dst[*pos] = '\0';
}

static void put_quoted_key(char *dst, size_t cap, size_t *pos,
                           const char *k, size_t len) {
    size_t shown = len > 40 ? 40 : len;
    put(dst, cap, pos, "[\"", 2);
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)k[i];
        char tmp[8];
        if (c == '"' || c == '\\') {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            put(dst, cap, pos, tmp, 2);
        } else if (c < 0x20 || c >= 0x7F) {
            snprintf(tmp, sizeof tmp, "\\x%02X", c);
            put(dst, cap, pos, tmp, 4);
        } else {
            put(dst, cap, pos, (const char *)&k[i], 1);
        }
    }
    if (shown < len)
        put(dst, cap, pos, "...", 3);
    put(dst, cap, pos, "\"]", 2);
}

/* Writes "json.encode: <what> at $.a.b[3]" into e->msg. */
static void enc_fail(Enc *e, const char *what) {
    size_t pos = 0;
    char tmp[64];
    e->msg[0] = '\0';
    put(e->msg, sizeof e->msg, &pos, "json.encode: ", 13);
    put(e->msg, sizeof e->msg, &pos, what, strlen(what));
    put(e->msg, sizeof e->msg, &pos, " at $", 5);
    for (int i = 1; i < e->depth; i++) { /* seg[0] is the root: "$" */
        const Seg *s = &e->seg[i];
        if (e->depth > 17 && i == 7) { /* long path: first 6 ... last 8 */
            put(e->msg, sizeof e->msg, &pos, "...", 3);
            i = e->depth - 9;
            continue;
        }
        if (s->kind == SEG_KEY && is_ident(s->key, s->keylen)) {
            put(e->msg, sizeof e->msg, &pos, ".", 1);
            put(e->msg, sizeof e->msg, &pos, s->key, s->keylen);
        } else if (s->kind == SEG_KEY) {
            put_quoted_key(e->msg, sizeof e->msg, &pos, s->key, s->keylen);
        } else if (s->kind == SEG_INDEX) {
            int n = snprintf(tmp, sizeof tmp, "[%lld]", (long long)s->index);
            put(e->msg, sizeof e->msg, &pos, tmp, (size_t)n);
        } else {
            put(e->msg, sizeof e->msg, &pos, "[", 1);
            put(e->msg, sizeof e->msg, &pos, s->other, strlen(s->other));
            put(e->msg, sizeof e->msg, &pos, "]", 1);
        }
    }
}

/* Describes a non-string table key for a path, e.g. "5", "1.5", "true". */
static const char *key_desc(lua_State *L, int idx, char *buf, size_t cap) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(buf, cap, "%lld", (long long)lua_tointeger(L, idx));
        else
            snprintf(buf, cap, "%.14g", (double)lua_tonumber(L, idx));
        return buf;
    case LUA_TBOOLEAN:
        return lua_toboolean(L, idx) ? "true" : "false";
    default:
        snprintf(buf, cap, "<%s>", luaL_typename(L, idx));
        return buf;
    }
}

static json_t *enc_value(Enc *e, int idx);

static int is_object_marked(lua_State *L, int idx) {
    int marked = 0;
    if (lua_getmetatable(L, idx)) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &json_object_key);
        marked = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    return marked;
}

/* Returns n >= 1 if the table's keys are exactly 1..n, else 0. */
static lua_Integer sequence_length(lua_State *L, int idx) {
    lua_Integer count = 0, max = 0;
    int all_int = 1;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        count++;
        if (all_int && lua_isinteger(L, -1)) {
            lua_Integer k = lua_tointeger(L, -1);
            if (k < 1)
                all_int = 0;
            else if (k > max)
                max = k;
        } else {
            all_int = 0;
        }
    }
    return (all_int && count > 0 && max == count) ? count : 0;
}

static json_t *enc_array(Enc *e, int idx, lua_Integer n) {
    lua_State *L = e->L;
    json_t *arr = json_array();
    if (arr == NULL) {
        enc_fail(e, "out of memory");
        return NULL;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        json_t *v;
        e->seg[e->depth].kind = SEG_INDEX;
        e->seg[e->depth].index = i;
        e->seg[e->depth].table = NULL;
        e->depth++;
        lua_rawgeti(L, idx, i);
        v = enc_value(e, lua_gettop(L));
        lua_pop(L, 1);
        if (v == NULL) {
            json_decref(arr);
            return NULL;
        }
        e->depth--;
        if (json_array_append_new(arr, v) != 0) {
            json_decref(arr);
            enc_fail(e, "out of memory");
            return NULL;
        }
    }
    return arr;
}

static json_t *enc_object(Enc *e, int idx) {
    lua_State *L = e->L;
    json_t *obj = json_object();
    if (obj == NULL) {
        enc_fail(e, "out of memory");
        return NULL;
    }
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        /* key at -2, value at -1 */
        Seg *s = &e->seg[e->depth];
        json_t *v;
        s->table = NULL;
        if (lua_type(L, -2) != LUA_TSTRING) {
            char buf[48];
            s->kind = SEG_OTHER;
            s->other = key_desc(L, -2, buf, sizeof buf);
            e->depth++;
            enc_fail(e, "mixed or non-string keys");
            lua_pop(L, 2);
            json_decref(obj);
            return NULL;
        }
        s->kind = SEG_KEY;
        s->key = lua_tolstring(L, -2, &s->keylen);
        e->depth++;
        if (!utf8_valid((const unsigned char *)s->key, s->keylen)) {
            enc_fail(e, "invalid UTF-8 in key");
            lua_pop(L, 2);
            json_decref(obj);
            return NULL;
        }
        v = enc_value(e, lua_gettop(L));
        if (v == NULL) {
            lua_pop(L, 2);
            json_decref(obj);
            return NULL;
        }
        if (json_object_setn_new_nocheck(obj, s->key, s->keylen, v) != 0) {
            enc_fail(e, "out of memory");
            lua_pop(L, 2);
            json_decref(obj);
            return NULL;
        }
        e->depth--;
        lua_pop(L, 1);
    }
    return obj;
}

static json_t *enc_table(Enc *e, int idx) {
    lua_State *L = e->L;
    const void *p = lua_topointer(L, idx);
    int level = 0; /* tables entered so far on this path */
    lua_Integer n;
    json_t *result;
    for (int i = 0; i < e->depth; i++) {
        if (e->seg[i].table == NULL)
            continue;
        level++;
        if (e->seg[i].table == p) {
            enc_fail(e, "cycle");
            return NULL;
        }
    }
    if (level >= JSON_MAXDEPTH) {
        enc_fail(e, "nesting deeper than 200");
        return NULL;
    }
    if (!lua_checkstack(L, 6)) {
        enc_fail(e, "Lua stack overflow");
        return NULL;
    }
    /* The segment that led here (seg[0] for the root) records the table,
     * so that a cycle shows up as a table already on the path. */
    e->seg[e->depth - 1].table = p;
    n = sequence_length(L, idx);
    if (n > 0) {
        result = enc_array(e, idx, n);
    } else {
        int empty;
        lua_pushnil(L);
        empty = (lua_next(L, idx) == 0);
        if (!empty)
            lua_pop(L, 2);
        if (empty && !is_object_marked(L, idx)) {
            result = json_array();
            if (result == NULL)
                enc_fail(e, "out of memory");
        } else {
            result = enc_object(e, idx);
        }
    }
    if (result != NULL)
        e->seg[e->depth - 1].table = NULL;
    return result;
}

static json_t *enc_value(Enc *e, int idx) {
    lua_State *L = e->L;
    json_t *v = NULL;
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        enc_fail(e, "cannot encode nil");
        return NULL;
    case LUA_TBOOLEAN:
        v = json_boolean(lua_toboolean(L, idx));
        break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            v = json_integer((json_int_t)lua_tointeger(L, idx));
        } else {
            double d = (double)lua_tonumber(L, idx);
            if (isnan(d)) {
                enc_fail(e, "cannot encode NaN");
                return NULL;
            }
            if (isinf(d)) {
                enc_fail(e, d > 0 ? "cannot encode inf" : "cannot encode -inf");
                return NULL;
            }
            int p = shortest(d);
            if (p > e->precision) e->precision = p;
            v = json_real(d);
        }
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (!utf8_valid((const unsigned char *)s, len)) {
            enc_fail(e, "invalid UTF-8 in string");
            return NULL;
        }
        v = json_stringn_nocheck(s, len);
        break;
    }
    case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L, idx) == (void *)&json_null_tag) {
            v = json_null();
            break;
        }
        enc_fail(e, "cannot encode a userdata");
        return NULL;
    case LUA_TTABLE:
        return enc_table(e, idx);
    default: {
        char what[64];
        snprintf(what, sizeof what, "cannot encode a %s", luaL_typename(L, idx));
        enc_fail(e, what);
        return NULL;
    }
    }
    if (v == NULL)
        enc_fail(e, "out of memory");
    return v;
}

static int json_encode(lua_State *L) {
    lua_Integer indent = 0;
    int newline = 0;
    size_t flags;
    JsonBox *box;
    Enc *e;
    luaL_checkany(L, 1);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_getfield(L, 2, "indent");
        if (!lua_isnil(L, -1)) {
            indent = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
            luaL_argcheck(L, indent >= 0 && indent <= JSON_MAX_INDENT, 2,
                          "opts.indent must be an integer from 0 to 31");
        }
        lua_getfield(L, 2, "newline");
        newline = lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    lua_settop(L, 1);
    box = box_new(L);                                   /* index 2 */
    e = (Enc *)lua_newuserdatauv(L, sizeof(Enc), 0);    /* index 3 */
    e->L = L;
    e->depth = 1; /* a root pseudo-segment, never printed */
    e->seg[0].kind = SEG_OTHER;
    e->seg[0].table = NULL;
    e->msg[0] = '\0';
    e->precision = 1;
    lua_pushvalue(L, 1);
    box->root = enc_value(e, lua_gettop(L));
    lua_pop(L, 1);
    if (box->root == NULL) {
        box_release(box);
        return luaL_error(L, "%s", e->msg);
    }
    flags = JSON_ENCODE_ANY | JSON_SORT_KEYS | JSON_REAL_PRECISION(e->precision) |
            JSON_INDENT(indent);
    if (indent == 0)
        flags |= JSON_COMPACT;
    box->text = json_dumps(box->root, flags);
    json_decref(box->root);
    box->root = NULL;
    if (box->text == NULL)
        return luaL_error(L, "json.encode: out of memory");
    lua_pushstring(L, box->text);
    if (newline) {
        lua_pushliteral(L, "\n");
        lua_concat(L, 2);
    }
    box_release(box);
    return 1;
}

/* ------------------------------------------------------------------ */
/* decoding                                                            */

/* For valid JSON text: finds the bracket that opens nesting level
 * JSON_MAXDEPTH + 1 and reports its line and (character) column. */
static int find_too_deep(const char *s, size_t len, int *line, int *col) {
    int depth = 0, in_string = 0, l = 1, c = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch & 0xC0) != 0x80)
            c++;
        if (ch == '\n') {
            l++;
            c = 0;
        } else if (in_string) {
            if (ch == '\\')
                i++, c++;
            else if (ch == '"')
                in_string = 0;
        } else if (ch == '"') {
            in_string = 1;
        } else if (ch == '[' || ch == '{') {
            if (++depth > JSON_MAXDEPTH) {
                *line = l;
                *col = c;
                return 1;
            }
        } else if (ch == ']' || ch == '}') {
            depth--;
        }
    }
    return 0;
}

/* Pushes the Lua value for v; returns 0 if nesting is too deep. */
static int dec_value(lua_State *L, json_t *v, int depth) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *item;
        if (depth >= JSON_MAXDEPTH)
            return 0;
        luaL_checkstack(L, 4, "json.decode: nesting too deep");
        lua_createtable(L, 0, (int)json_object_size(v));
        if (json_object_size(v) == 0) {
            lua_rawgetp(L, LUA_REGISTRYINDEX, &json_object_key);
            lua_setmetatable(L, -2);
        }
        json_object_foreach(v, key, item) {
            lua_pushlstring(L, key, json_object_iter_key_len(
                                        json_object_key_to_iter(key)));
            if (!dec_value(L, item, depth + 1))
                return 0;
            lua_rawset(L, -3);
        }
        return 1;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (depth >= JSON_MAXDEPTH)
            return 0;
        luaL_checkstack(L, 4, "json.decode: nesting too deep");
        lua_createtable(L, n > INT32_MAX ? 0 : (int)n, 0);
        for (size_t i = 0; i < n; i++) {
            if (!dec_value(L, json_array_get(v, i), depth + 1))
                return 0;
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    }
    case JSON_STRING:
        lua_pushlstring(L, json_string_value(v), json_string_length(v));
        return 1;
    case JSON_INTEGER:
        lua_pushinteger(L, (lua_Integer)json_integer_value(v));
        return 1;
    case JSON_REAL:
        lua_pushnumber(L, (lua_Number)json_real_value(v));
        return 1;
    case JSON_TRUE:
        lua_pushboolean(L, 1);
        return 1;
    case JSON_FALSE:
        lua_pushboolean(L, 0);
        return 1;
    case JSON_NULL:
    default:
        lua_pushlightuserdata(L, (void *)&json_null_tag);
        return 1;
    }
}

static int json_decode(lua_State *L) {
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    json_error_t err;
    JsonBox *box;
    int base, line = 0, col = 0;
    lua_settop(L, 1);
    box = box_new(L);
    box->root = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
                           &err);
    if (box->root == NULL) {
        luaL_pushfail(L);
        lua_pushfstring(L, "line %d, column %d: %s", err.line, err.column,
                        err.text);
        return 2;
    }
    base = lua_gettop(L);
    if (!dec_value(L, box->root, 0)) {
        box_release(box);
        lua_settop(L, base);
        find_too_deep(text, len, &line, &col);
        luaL_pushfail(L);
        lua_pushfstring(L, "line %d, column %d: nesting deeper than %d", line,
                        col, JSON_MAXDEPTH);
        return 2;
    }
    box_release(box);
    return 1;
}

/* ------------------------------------------------------------------ */

static const luaL_Reg json_funcs[] = {
    {"encode", json_encode},
    {"decode", json_decode},
    {NULL, NULL}
};

void kn_open_json(lua_State *L) {
    luaL_checkstack(L, 4, NULL);
    /* jansson's trees and texts count against the memory cap (lua/engine/sandbox.c) */
    json_set_alloc_funcs(kn_sandbox_malloc, kn_sandbox_free);
    if (luaL_newmetatable(L, JSON_BOX)) {
        lua_pushcfunction(L, box_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_newlib(L, json_funcs);
    lua_pushlightuserdata(L, (void *)&json_null_tag);
    lua_setfield(L, -2, "null");
    /* json.object: one sentinel table per state, shared with the registry */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &json_object_key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "json.object");
        lua_setfield(L, -2, "__name");
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &json_object_key);
    }
    lua_setfield(L, -2, "object");
    lua_setfield(L, -2, "json");
}
