/*
 * inspect.c - calls that only read the game (sandbox.inspect: R.view,
 * R.board, R.scores, R.estimate ...): what they change of the game is
 * found and put back, and they are refused the changes of piles, counters,
 * RNGs and logs. The armed call itself: sandbox.c.
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
#include "kn_alloc.h"
#include "engine/sandbox.h"

/* ---- calls that read the game (sandbox.inspect) ------------------------ */
/* R.view, R.board, R.scores, R.card_text, R.estimate ... get the game's own
 * `g` but run outside a step: a change they made would be in no step
 * record, and an undo or a reload would give another game (principle 1).
 * sandbox.inspect(name, g, f, ...) runs f(...) as sandbox.call does, and
 * - while it runs, every pile, counter, RNG and log made before the call
 *   refuses to change (kn_may_change: a flag and the object's serial);
 * - g's tables (every table reached from g through keys, values and
 *   metatables, read raw) are walked before the call, their entries kept
 *   (the values anchored in a table, so none is collected), and compared
 *   after it in the same order: one pass, no allocation. When something
 *   differs, an exact comparison says whether it really does (a key added
 *   and removed again may leave another order), the tables that differ
 *   get their entries and metatables back, the call is run once more
 *   under a line hook to find the script's line of the change
 *   (find_change), and it fails with "file:line: <name> cannot change the
 *   game: it set g.x (...)". A rule set's scratch (is_scratch) is put
 *   back without a word.
 * The walk is for the games people play; a quiet game's calls (kontor
 * sim, a bot's copies) pass g = false and get the flag alone. */

struct kn_inspect_state kn_inspect;
uint64_t kn_ud_serial = 1;

static const char *inspect_name = "a view";

#define INSPECT_WHY "(a display function reads the game; a change belongs in a step)"

/* An entry of the walk: a table's head (kt == HEAD: kid its address, vid
 * its metatable's, ka its anchor, parent the entry that led to it and
 * how), or one of its entries (key and value by type and identity, ka and
 * va their anchors, 0 for a number or boolean; via 1: a scratch entry). */
enum { HEAD = -2, VIA_VALUE = 0, VIA_KEY = 1, VIA_META = 2 };
struct ventry {
    uint64_t kid, vid;
    int kt, vt, ka, va, parent, via;
};

struct vqueued { int a, parent, via; };
static struct {
    struct ventry *e;
    size_t n, cap;
    const void **seen;          /* open addressing; NULL: empty */
    size_t seen_cap;
    struct vqueued *queue;      /* tables to walk: their anchors */
    size_t qn, qcap;
    int na;                     /* anchors used */
} vw;

static void *vw_grow(void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = kn_realloc(p, *cap * size, c * size);   /* under the memory cap */
    if (q == NULL) return NULL;
    *cap = c;
    return q;
}

static int ident(lua_State *L, int idx, uint64_t *id) {
    int t = lua_type(L, idx);
    switch (t) {
    case LUA_TNIL: *id = 0; return t;
    case LUA_TBOOLEAN: *id = (uint64_t)lua_toboolean(L, idx); return t;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            lua_Integer i = lua_tointeger(L, idx);
            memcpy(id, &i, sizeof i);
            return t + 16;
        } else {
            lua_Number x = lua_tonumber(L, idx);
            memcpy(id, &x, sizeof x);
            return t;
        }
    case LUA_TLIGHTUSERDATA: *id = (uint64_t)(uintptr_t)lua_touserdata(L, idx); return t;
    default: *id = (uint64_t)(uintptr_t)lua_topointer(L, idx); return t;
    }
}

static int collectable(int t) {
    return t == LUA_TSTRING || t == LUA_TTABLE || t == LUA_TFUNCTION ||
           t == LUA_TUSERDATA || t == LUA_TTHREAD;
}

/* Whether p was seen already; marks it. */
static int seen_mark(const void *p) {
    size_t mask = vw.seen_cap - 1;
    size_t i = (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & mask;
    while (vw.seen[i] != NULL) {
        if (vw.seen[i] == p) return 1;
        i = (i + 1) & mask;
    }
    vw.seen[i] = p;
    return 0;
}

static void vw_nomem(lua_State *L) {
    luaL_error(L, "out of memory (inspecting a view)");
}

/* Anchors the value at idx in A; its anchor. */
static int anchor(lua_State *L, int A, int idx) {
    lua_pushvalue(L, idx);
    lua_rawseti(L, A, ++vw.na);
    return vw.na;
}

/* Queues the table at idx (anchored as `a`) unless seen. */
static void discover(lua_State *L, int idx, int a, int parent, int via) {
    if (seen_mark(lua_topointer(L, idx))) return;
    if ((vw.qn + 1) * 2 > vw.seen_cap) {
        /* rehash the seen set larger */
        size_t old = vw.seen_cap;
        const void **s = vw.seen;
        size_t c = old * 2;
        vw.seen = kn_realloc(NULL, 0, c * sizeof *vw.seen);
        if (vw.seen == NULL) { vw.seen = s; vw_nomem(L); }
        memset(vw.seen, 0, c * sizeof *vw.seen);
        vw.seen_cap = c;
        for (size_t i = 0; i < old; i++) if (s[i]) seen_mark(s[i]);
        kn_free(s, old * sizeof *s);
    }
    struct vqueued *q = vw_grow(vw.queue, &vw.qcap, vw.qn + 1, sizeof *q);
    if (q == NULL) vw_nomem(L);
    vw.queue = q;
    q[vw.qn].a = a;
    q[vw.qn].parent = parent;
    q[vw.qn].via = via;
    vw.qn++;
}

static struct ventry *vw_add(lua_State *L) {
    struct ventry *e = vw_grow(vw.e, &vw.cap, vw.n + 1, sizeof *e);
    if (e == NULL) vw_nomem(L);
    vw.e = e;
    return &vw.e[vw.n++];
}

/* A rule set's scratch: an entry below g's own whose key starts with "_"
 * (card._fx, a memo: not state, docs/api.md). A view may fill it; it is
 * put back after the call without a word, and what it holds is not
 * walked. (g's own "_" fields are the engine's: g._log, g._quiet ...) */
static int is_scratch(lua_State *L, int idx) {
    const char *k = lua_tostring(L, idx);
    return k[0] == '_';
}

/* The walk before the call: every table reached from the one at g, its
 * entries kept in vw.e, every collectable key and value anchored in A. */
static void snapshot(lua_State *L, int g, int A) {
    vw.n = 0;
    vw.qn = 0;
    vw.na = 0;
    if (vw.seen_cap == 0) {
        vw.seen = kn_realloc(NULL, 0, 256 * sizeof *vw.seen);
        if (vw.seen == NULL) vw_nomem(L);
        memset(vw.seen, 0, 256 * sizeof *vw.seen);
        vw.seen_cap = 256;
    } else {
        memset(vw.seen, 0, vw.seen_cap * sizeof *vw.seen);
    }
    luaL_checkstack(L, 6, NULL);
    discover(L, g, anchor(L, A, g), -1, VIA_VALUE);
    for (size_t q = 0; q < vw.qn; q++) {
        lua_rawgeti(L, A, vw.queue[q].a);
        int t = lua_gettop(L);
        int head = (int)vw.n;
        struct ventry *h = vw_add(L);
        h->kt = HEAD;
        h->kid = (uint64_t)(uintptr_t)lua_topointer(L, t);
        h->ka = vw.queue[q].a;
        h->parent = vw.queue[q].parent;
        h->via = vw.queue[q].via;
        h->vid = 0;
        h->va = 0;
        h->vt = LUA_TNIL;
        if (lua_getmetatable(L, t)) {
            int a = anchor(L, A, -1);
            h = &vw.e[head];
            h->vid = (uint64_t)(uintptr_t)lua_topointer(L, -1);
            h->va = a;
            h->vt = LUA_TTABLE;
            discover(L, -1, a, head, VIA_META);
            lua_pop(L, 1);
        }
        lua_pushnil(L);
        while (lua_next(L, t)) {
            struct ventry *e = vw_add(L);
            int i = (int)vw.n - 1;
            e->kt = ident(L, -2, &e->kid);
            e->vt = ident(L, -1, &e->vid);
            e->parent = head;
            e->via = head > 0 && e->kt == LUA_TSTRING && is_scratch(L, -2);
            e->ka = collectable(e->kt) ? anchor(L, A, -2) : 0;
            e->va = collectable(e->vt) ? anchor(L, A, -1) : 0;
            e = &vw.e[i];
            if (e->kt == LUA_TTABLE) discover(L, -2, e->ka, i, VIA_KEY);
            if (e->vt == LUA_TTABLE && !e->via) discover(L, -1, e->va, i, VIA_VALUE);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* The walk after the call, in the same order: whether every entry is as
 * it was (1), or something differs (0). */
static int same_walk(lua_State *L, int A) {
    size_t i = 0;
    luaL_checkstack(L, 6, NULL);
    while (i < vw.n) {
        const struct ventry *h = &vw.e[i++];
        lua_rawgeti(L, A, h->ka);
        int t = lua_gettop(L);
        if (lua_getmetatable(L, t)) {
            int same = h->vt == LUA_TTABLE &&
                       (uint64_t)(uintptr_t)lua_topointer(L, -1) == h->vid;
            lua_pop(L, 1);
            if (!same) { lua_pop(L, 1); return 0; }
        } else if (h->vt != LUA_TNIL) {
            lua_pop(L, 1);
            return 0;
        }
        lua_pushnil(L);
        while (lua_next(L, t)) {
            uint64_t kid, vid;
            if (i >= vw.n || vw.e[i].kt == HEAD || ident(L, -2, &kid) != vw.e[i].kt ||
                kid != vw.e[i].kid || ident(L, -1, &vid) != vw.e[i].vt || vid != vw.e[i].vid) {
                lua_pop(L, 3);
                return 0;
            }
            i++;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (i < vw.n && vw.e[i].kt != HEAD) return 0;
    }
    return 1;
}

/* Pushes the key or value of entry e as it was (which: 0 key, 1 value). */
static void push_old(lua_State *L, int A, const struct ventry *e, int which) {
    int t = which ? e->vt : e->kt, a = which ? e->va : e->ka;
    uint64_t id = which ? e->vid : e->kid;
    if (a) { lua_rawgeti(L, A, a); return; }
    if (t == LUA_TBOOLEAN) lua_pushboolean(L, (int)id);
    else if (t == LUA_TNUMBER + 16) { lua_Integer x; memcpy(&x, &id, sizeof x); lua_pushinteger(L, x); }
    else if (t == LUA_TNUMBER) { lua_Number x; memcpy(&x, &id, sizeof x); lua_pushnumber(L, x); }
    else if (t == LUA_TLIGHTUSERDATA) lua_pushlightuserdata(L, (void *)(uintptr_t)id);
    else lua_pushnil(L);
}

/* The first entry of the table whose head is entry h (the table at t)
 * that differs now: an index of vw.e (h itself: its metatable), -1 when
 * none does, or -2 when a key was added (the key pushed). */
static long table_differs(lua_State *L, int A, size_t h, int t, int *scratch) {
    const struct ventry *hd = &vw.e[h];
    if (lua_getmetatable(L, t)) {
        int same = hd->vt == LUA_TTABLE && (uint64_t)(uintptr_t)lua_topointer(L, -1) == hd->vid;
        lua_pop(L, 1);
        if (!same) return (long)h;
    } else if (hd->vt != LUA_TNIL) {
        return (long)h;
    }
    size_t i = h + 1, old = 0;
    for (; i < vw.n && vw.e[i].kt != HEAD; i++, old++) {
        push_old(L, A, &vw.e[i], 0);
        lua_rawget(L, t);
        push_old(L, A, &vw.e[i], 1);
        int same = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (!same && vw.e[i].via) *scratch = 1;
        else if (!same) return (long)i;
    }
    size_t now = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        now++;
    }
    if (now == old) return -1;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int found = 0;
        for (size_t j = h + 1; j < i && !found; j++) {
            push_old(L, A, &vw.e[j], 0);
            found = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        }
        if (!found && h > 0 && lua_type(L, -1) == LUA_TSTRING && is_scratch(L, -1)) *scratch = 1;
        else if (!found) return -2;  /* the key stays pushed */
    }
    return -1;
}

/* Pushes the key at idx as a step of a path: ".name", "[3]", "[a table key]". */
static void push_step(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int kt = lua_type(L, idx);
    if (kt == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        int name = len > 0 && len <= 40 && !(s[0] >= '0' && s[0] <= '9');
        for (size_t j = 0; j < len && name; j++)
            name = (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
                   (s[j] >= '0' && s[j] <= '9') || s[j] == '_';
        if (name) lua_pushfstring(L, ".%s", s);
        else lua_pushliteral(L, "[a string key]");
    } else if (kt == LUA_TNUMBER || kt == LUA_TBOOLEAN) {
        luaL_tolstring(L, idx, NULL);
        lua_pushfstring(L, "[%s]", lua_tostring(L, -1));
        lua_remove(L, -2);
    } else {
        lua_pushfstring(L, "[a %s key]", luaL_typename(L, idx));
    }
}

/* Pushes the path from g to entry i ("g.hands[1][2]"). */
static void push_path(lua_State *L, int A, long i) {
    long chain[64];
    int n = 0, parts = 1;
    long h = vw.e[i].kt == HEAD ? i : vw.e[i].parent;
    while (h >= 0 && n < 64) {
        chain[n++] = h;
        long p = vw.e[h].parent;
        h = p < 0 ? -1 : (vw.e[p].kt == HEAD ? p : vw.e[p].parent);
    }
    luaL_checkstack(L, n + 8, NULL);
    lua_pushliteral(L, "g");
    if (h >= 0) { lua_pushliteral(L, "..."); parts++; }
    for (int k = n - 1; k >= 0; k--) {
        const struct ventry *hd = &vw.e[chain[k]];
        if (hd->parent < 0) continue;
        if (hd->via == VIA_META) lua_pushliteral(L, "<metatable>");
        else if (hd->via == VIA_KEY) lua_pushliteral(L, "<a table key>");
        else {
            push_old(L, A, &vw.e[hd->parent], 0);
            push_step(L, -1);
            lua_remove(L, -2);
        }
        parts++;
    }
    if (vw.e[i].kt != HEAD) {
        push_old(L, A, &vw.e[i], 0);
        push_step(L, -1);
        lua_remove(L, -2);
        parts++;
    }
    lua_concat(L, parts);
}

/* Puts back the entries and metatable of the table whose head is h (at t). */
static void restore_table(lua_State *L, int A, size_t h, int t) {
    const struct ventry *hd = &vw.e[h];
    lua_newtable(L);                      /* the keys there now */
    int keys = lua_gettop(L);
    lua_Integer nk = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++nk);
    }
    for (lua_Integer j = 1; j <= nk; j++) {
        lua_rawgeti(L, keys, j);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_pop(L, 1);
    for (size_t i = h + 1; i < vw.n && vw.e[i].kt != HEAD; i++) {
        push_old(L, A, &vw.e[i], 0);
        push_old(L, A, &vw.e[i], 1);
        lua_rawset(L, t);
    }
    if (hd->vt == LUA_TTABLE) lua_rawgeti(L, A, hd->va);
    else lua_pushnil(L);
    lua_setmetatable(L, t);
}

static size_t changed_head;           /* put_back: the first table that differed */

/* After a call that changed g: every table back as it was. Pushes the
 * change found first (in the walk's order) as a path ("g.x") and returns
 * 1, or pushes nothing and returns 0 when nothing really differs but a
 * rule set's scratch (is_scratch). */
static int put_back(lua_State *L, int A) {
    int found = 0;
    luaL_checkstack(L, 10, NULL);
    for (size_t h = 0; h < vw.n; h++) {
        if (vw.e[h].kt != HEAD) continue;
        lua_rawgeti(L, A, vw.e[h].ka);
        int t = lua_gettop(L);
        int scratch = 0;
        long d = table_differs(L, A, h, t, &scratch);
        if (d == -1 && !scratch) {
            lua_pop(L, 1);
            continue;
        }
        if (d == -1) {                    /* only its scratch changed */
            restore_table(L, A, h, t);
            lua_pop(L, 1);
            continue;
        }
        if (!found) {
            if (d == -2) {                /* the added key, on top */
                push_path(L, A, (long)h);
                push_step(L, -2);
                lua_concat(L, 2);
                lua_remove(L, -2);
            } else if (d == (long)h) {
                lua_pushliteral(L, "the metatable of ");
                push_path(L, A, d);
                lua_concat(L, 2);
            } else {
                push_path(L, A, d);
            }
            lua_insert(L, t);             /* the path below the table */
            t++;
            found = 1;
            changed_head = h;
        } else if (d == -2) {
            lua_pop(L, 1);
        }
        restore_table(L, A, h, t);
        lua_pop(L, 1);
    }
    return found;
}

/* Whether a chunk is the engine's Lua that a rule script calls: g's
 * methods (lua/kontor/game/context.lua) and the sandbox's own functions
 * (lua/kontor/sandbox.lua: setmetatable, pairs ...). */
static int engine_source(const char *src) {
    static const char *const engine[] = { "kontor/game/context.lua", "kontor/sandbox.lua" };
    size_t n = strlen(src);
    for (size_t i = 0; i < sizeof engine / sizeof engine[0]; i++) {
        size_t m = strlen(engine[i]);
        if (n >= m && strcmp(src + n - m, engine[i]) == 0) return 1;
    }
    return 0;
}

/* "file:line:" of the rule script's code that called a method of g's
 * objects, and the method as the script called it: levels of the engine's
 * g methods (lua/kontor/game/context.lua: g:log, g:chance) are skipped,
 * and the script's call named by the outermost of them. */
static const char *script_level(lua_State *L, const char *what, char *buf, size_t size) {
    lua_Debug ar;
    int level = 1;
    const char *skipped = NULL;
    while (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sn", &ar)) {
        if (!engine_source(ar.source)) break;
        if (ar.name != NULL) skipped = ar.name;
        level++;
    }
    luaL_where(L, level);
    if (skipped != NULL) {
        snprintf(buf, size, "g:%s", skipped);
        return buf;
    }
    return what;
}

void kn_refuse_change(lua_State *L, const void *obj, const char *what) {
    uint64_t serial;
    memcpy(&serial, (const char *)obj - KN_UD_HEAD + sizeof(void *), sizeof serial);
    if (serial >= kn_inspect.from) return;      /* made by the call itself */
    char buf[64];
    what = script_level(L, what, buf, sizeof buf);
    lua_pushfstring(L, "%s cannot change the game: it called %s " INSPECT_WHY,
                    inspect_name, what);
    lua_concat(L, 2);
    lua_error(L);
}

static int last_anchors = 64;        /* the anchor table's size, from the last call */

/* Where a table of g changed: the call is run again (the game is as it
 * was before it) with a line hook that compares the table that differed
 * with what it held at every new line; the line before the one where it
 * first differs made the change. Only after a change was refused. */
static const char watch_key = 'w';
static char watch_last[LUA_IDSIZE + 24], watch_found[LUA_IDSIZE + 24];

static void watch_hook(lua_State *L, lua_Debug *ar) {
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8)) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &watch_key);
    int A = lua_gettop(L);
    lua_rawgeti(L, A, vw.e[changed_head].ka);
    int scratch = 0;
    long d = table_differs(L, A, changed_head, lua_gettop(L), &scratch);
    lua_settop(L, top);
    if (d != -1 && watch_found[0] == 0 && watch_last[0] != 0) {
        memcpy(watch_found, watch_last, sizeof watch_found);
        luaL_error(L, "found");              /* stops the call */
    }
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && !engine_source(ar->source))
        snprintf(watch_last, sizeof watch_last, "%s:%d:", ar->short_src, ar->currentline);
}

/* Runs f (at base, its arguments above it) again under watch_hook;
 * pushes "file:line:" of the change, or "" when it is not seen again. */
static void find_change(lua_State *L, int A, int base) {
    lua_pushvalue(L, A);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watch_key);
    watch_last[0] = watch_found[0] = 0;
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    lua_sethook(L, watch_hook, LUA_MASKLINE, 0);
    kn_inspect.from = kn_ud_serial;
    kn_inspect.on = 1;
    kn_call_at(L, base);
    kn_inspect.on = 0;
    lua_sethook(L, old_hook, old_mask, old_count);
    lua_settop(L, base - 1);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watch_key);
    if (!same_walk(L, A)) {
        if (watch_found[0] == 0 && watch_last[0] != 0)      /* on its last line */
            memcpy(watch_found, watch_last, sizeof watch_found);
        if (put_back(L, A)) lua_pop(L, 1);                   /* as it was, again */
    }
    if (watch_found[0]) lua_pushfstring(L, "%s ", watch_found);
    else lua_pushliteral(L, "");
}

/* sandbox.inspect(name, g, f, ...) -> as sandbox.call(f, ...), with g
 * and all it holds as they were before the call (above); name ("R.board")
 * is what the messages call f. With g false, only the piles, counters,
 * RNGs and logs are watched: for the calls of games played for
 * simulation and search, which are thrown away (the walk of a Sea
 * Merchants `g`, about 130 entries, costs some 100,000 instructions, and
 * a greedy bot asks 1,380 estimates a game). */
int kn_sb_inspect(lua_State *L) {
    luaL_checkstring(L, 1);
    if (lua_type(L, 2) != LUA_TBOOLEAN || lua_toboolean(L, 2))
        luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    if (kn_inspect.on) return kn_call_at(L, 3);   /* inside another: that one watches */
    if (!lua_toboolean(L, 2)) {
        const char *was = inspect_name;
        inspect_name = lua_tostring(L, 1);
        kn_inspect.from = kn_ud_serial;
        kn_inspect.on = 1;
        int n = kn_call_at(L, 3);
        kn_inspect.on = 0;
        inspect_name = was;
        return n;
    }
    lua_createtable(L, last_anchors, 0);
    lua_insert(L, 3);                            /* name, g, anchors, f, ... */
    snapshot(L, 2, 3);
    last_anchors = vw.na;
    /* f and its arguments again, for find_change */
    int nargs = lua_gettop(L) - 4, base = lua_gettop(L) + 1;
    luaL_checkstack(L, nargs + 2, NULL);
    for (int i = 4; i < base; i++) lua_pushvalue(L, i);
    const char *was_name = inspect_name;
    inspect_name = lua_tostring(L, 1);
    kn_inspect.from = kn_ud_serial;
    kn_inspect.on = 1;
    int n = kn_call_at(L, base);
    kn_inspect.on = 0;
    int same = same_walk(L, 3);
    if (same || !put_back(L, 3)) {
        inspect_name = was_name;
        return n;
    }
    lua_copy(L, -1, base);
    lua_settop(L, base);
    lua_insert(L, 4);                            /* name, g, anchors, path, f, ... */
    find_change(L, 3, 5);                        /* name, g, anchors, path, "file:line: " */
    lua_pushfstring(L, "%s%s cannot change the game: it set %s " INSPECT_WHY,
                    lua_tostring(L, 5), inspect_name, lua_tostring(L, 4));
    inspect_name = was_name;
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* sandbox.inspecting() -> the name of the call that reads the game now
 * (sandbox.inspect), or nil: g's own methods that keep a memo (g:text,
 * g:turn_order) keep nothing then, and g:stat and g:skip refuse. */
int kn_sb_inspecting(lua_State *L) {
    if (kn_inspect.on) lua_pushstring(L, inspect_name);
    else lua_pushnil(L);
    return 1;
}

