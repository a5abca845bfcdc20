/*
 * l_pile.c - the kontor.Pile userdata: a kn_pile (core/pile.h) for Lua.
 *
 *   core.pile{ vis = "public"|"owner"|"hidden", owner = seat, pool = name }
 *
 * Lua indexes are 1-based: get(1) is the bottom card, get(#p) the top.
 *
 * The cards live in memory Lua manages, so a pile needs no finalizer
 * (__gc): up to INLINE_CARDS inside the pile's own userdata, more in a
 * block of its own (a plain userdata, the pile's user value UV_CARDS) that
 * doubles as the pile grows (room). Lua's allocator gives both, so the
 * sandbox's memory limit counts them. A finalizer cost the collector a
 * pass over the objects that have one every cycle and a call for each
 * pile that died, and the cards apart from the pile a cache miss more.
 */
#include <stdint.h>
#include <string.h>

#include "binding.h"

/* This type's tag (kn_newudata, kn_checkudata): its address. */
static char pile_tag;
#include "../core/pile.h"
#include "../core/kn_error.h"

static const char *const vis_names[] = { "public", "owner", "hidden", NULL };

#define MAX_SHOWN 20    /* cards listed by __tostring */
#define MAX_POOL_NAME 64
#define INLINE_CARDS 16 /* cards a pile holds inside its userdata */
enum { UV_POOL = 1, UV_CARDS, UV_N = UV_CARDS };

/* The userdata of a new empty pile, on top of the stack, its cards inside. */
static kn_pile *new_pile(lua_State *L, kn_vis vis, int owner)
{
    kn_pile *p = (kn_pile *)kn_newudata(L, sizeof(kn_pile) + INLINE_CARDS * sizeof(int32_t),
                                        UV_N, &pile_tag);
    kn_pile_init(p, vis, owner);
    kn_pile_use(p, (int32_t *)(p + 1), INLINE_CARDS);
    return p;
}

static kn_pile *check_pile(lua_State *L, int arg)
{
    return (kn_pile *)kn_checkudata(L, arg, &pile_tag, KONTOR_PILE);
}

static inline int32_t check_card(lua_State *L, int arg)
{
    lua_Integer c = kn_checkinteger(L, arg);
    if (__builtin_expect(c < INT32_MIN || c > INT32_MAX, 0))
        luaL_argerror(L, arg,
            lua_pushfstring(L, "card %I is outside the int32 range", c));
    return (int32_t)c;
}

/* Watching which seats are shown a card out of a pile they cannot see
 * (core.pile_watch, for kontor.seat: a seat's undo of a move that showed
 * one needs the others' yes). Off but while kontor.seat replays the
 * moves an undo would take back on a copy of the game: then every card
 * taken out of a pile not every seat sees is noted with the seats that
 * could not see it, until it goes into a pile (consumed there); a pile
 * some of them see shows it to those. A card that goes from one hidden
 * pile to another (coin cards gained face down) shows nothing. Seats
 * are bits 1..63 (bit 0 unused); an owner beyond them counts as all,
 * and so does a card past the notes' room. */
#define WATCH_MAX 256
static struct {
    int on;
    uint64_t shown;
    int n;
    struct { int32_t card; uint64_t unseeing; } out[WATCH_MAX];
} watch;

static uint64_t seats_unseeing(const kn_pile *p)
{
    if (p->vis == KN_VIS_PUBLIC)
        return 0;
    if (p->vis == KN_VIS_OWNER && p->owner >= 1 && p->owner <= 63)
        return ~((uint64_t)1 << p->owner);
    return ~(uint64_t)0;
}

static uint64_t seats_seeing(const kn_pile *p)
{
    if (p->vis == KN_VIS_PUBLIC)
        return ~(uint64_t)0;
    if (p->vis == KN_VIS_OWNER)
        return p->owner >= 1 && p->owner <= 63 ? (uint64_t)1 << p->owner : ~(uint64_t)0;
    return 0;
}

/* card leaves p */
__attribute__((noinline, cold)) static void watch_out(const kn_pile *p, int32_t card)
{
    uint64_t unseeing = seats_unseeing(p);
    if (unseeing == 0)
        return;
    if (watch.n == WATCH_MAX) {           /* no room to follow it: shown to all */
        watch.shown = ~(uint64_t)0;
        return;
    }
    watch.out[watch.n].card = card;
    watch.out[watch.n].unseeing = unseeing;
    watch.n++;
}

/* card goes into p */
__attribute__((noinline, cold)) static void watch_in(const kn_pile *p, int32_t card)
{
    for (int i = watch.n - 1; i >= 0; i--) {
        if (watch.out[i].card == card) {
            watch.shown |= watch.out[i].unseeing & seats_seeing(p);
            watch.out[i] = watch.out[--watch.n];
            return;
        }
    }
}

/* core.pile_watch(true): starts watching afresh; core.pile_watch(false)
 * stops and returns the seats shown a card, as bits (seat s: bit s). */
static int l_watch(lua_State *L)
{
    int on = lua_toboolean(L, 1);
    lua_Integer was = (lua_Integer)watch.shown;
    watch.on = on;
    watch.shown = 0;
    watch.n = 0;
    if (on)
        return 0;
    lua_pushinteger(L, was);
    return 1;
}

/* Raises the error for a failed core call (only out of memory is
 * possible where this is used). */
static void check_rc(lua_State *L, int rc)
{
    if (rc < 0)
        luaL_error(L, "%s", kn_strerror(rc));
}

/* Room for `need` cards in the pile p at arg: when it has less, a block
 * twice as large (or more, as need asks) becomes its user value UV_CARDS,
 * its cards moved there. A block too large for the memory left raises
 * Lua's memory error; the pile is then as it was. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void grow(lua_State *L, int arg, kn_pile *p, uint64_t need)
{
    if (need > KN_PILE_MAX)
        check_rc(L, KN_ENOMEM);
    uint64_t cap = p->cap >= INLINE_CARDS ? (uint64_t)p->cap * 2 : INLINE_CARDS * 2;
    while (cap < need)
        cap *= 2;
    if (cap > KN_PILE_MAX)
        cap = KN_PILE_MAX;
    arg = lua_absindex(L, arg);
    int32_t *cards = (int32_t *)lua_newuserdatauv(L, (size_t)cap * sizeof *cards, 0);
    kn_pile_use(p, cards, (uint32_t)cap);
    lua_setiuservalue(L, arg, UV_CARDS);
}

static inline void room(lua_State *L, int arg, kn_pile *p, uint64_t need)
{
    if (__builtin_expect(need > p->cap, 0))
        grow(L, arg, p, need);
}

/* A 1-based index at arg that must lie in 1..n, as a 0-based index. */
static inline uint32_t check_index(lua_State *L, int arg, lua_Integer n)
{
    lua_Integer i = kn_checkinteger(L, arg);
    if (__builtin_expect(i < 1 || i > n, 0)) {
        if (n == 0)
            luaL_argerror(L, arg, lua_pushfstring(L,
                "index %I out of range (the pile is empty)", i));
        luaL_argerror(L, arg, lua_pushfstring(L,
            "index %I out of range 1..%I", i, n));
    }
    return (uint32_t)(i - 1);
}

/* Field `name` of the options table at arg: an integer, or def when nil. */
static lua_Integer opt_int_field(lua_State *L, int arg, const char *name,
                                 lua_Integer def)
{
    int isint;
    lua_Integer v;
    if (lua_getfield(L, arg, name) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    v = lua_tointegerx(L, -1, &isint);
    if (!isint)
        luaL_argerror(L, arg, lua_pushfstring(L,
            "field '%s' must be an integer, got %s", name, luaL_typename(L, -1)));
    lua_pop(L, 1);
    return v;
}

/* The visibility named by the string on top of the stack; the options
 * table is at arg (for the error message). */
static kn_vis to_vis(lua_State *L, int arg)
{
    if (lua_type(L, -1) == LUA_TSTRING) {
        const char *s = lua_tostring(L, -1);
        for (int k = 0; vis_names[k] != NULL; k++)
            if (strcmp(s, vis_names[k]) == 0)
                return (kn_vis)k;
    }
    if (lua_type(L, -1) == LUA_TSTRING)
        lua_pushfstring(L, "'%s'", lua_tostring(L, -1));
    else
        lua_pushstring(L, luaL_typename(L, -1));
    luaL_argerror(L, arg, lua_pushfstring(L,
        "field 'vis' must be 'public', 'owner' or 'hidden', got %s",
        lua_tostring(L, -1)));
    return KN_VIS_PUBLIC;   /* not reached */
}

static int l_new(lua_State *L)
{
    kn_vis vis = KN_VIS_PUBLIC;
    lua_Integer owner = 0;
    int pool = LUA_TNIL;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        if (lua_getfield(L, 1, "vis") != LUA_TNIL)
            vis = to_vis(L, 1);
        lua_pop(L, 1);
        owner = opt_int_field(L, 1, "owner", 0);
        luaL_argcheck(L, owner >= INT32_MIN && owner <= INT32_MAX, 1,
                      "field 'owner' is out of range");
        pool = lua_getfield(L, 1, "pool");              /* kept at 2 */
        luaL_argcheck(L, pool == LUA_TNIL || (pool == LUA_TSTRING && lua_rawlen(L, -1) > 0
                                              && lua_rawlen(L, -1) <= MAX_POOL_NAME), 1,
                      "field 'pool' must be a name (a string of 1 to 64 bytes)");
    }
    new_pile(L, vis, (int)owner);
    if (pool == LUA_TSTRING) {
        lua_pushvalue(L, -2);
        lua_setiuservalue(L, -2, UV_POOL);
    }
    luaL_setmetatable(L, KONTOR_PILE);
    return 1;
}

/* push(card [, n]): n copies of card on top (n >= 0, default 1; n > 1
 * charged n). */
static int l_push(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:push");
    int32_t card = check_card(L, 2);
    if (__builtin_expect(watch.on, 0))
        watch_in(p, card);
    if (lua_type(L, 3) <= LUA_TNIL) {      /* none or nil: one card */
        room(L, 1, p, (uint64_t)p->n + 1);
        p->cards[p->n++] = card;           /* kn_pile_push, room known */
        return 0;
    }
    lua_Integer n = kn_checkinteger(L, 3);
    luaL_argcheck(L, n >= 0, 3, "must not be negative");
    kn_sandbox_charge(L, (double)n);
    if ((lua_Integer)p->n + n > (lua_Integer)KN_PILE_MAX)
        check_rc(L, KN_ENOMEM);
    room(L, 1, p, (uint64_t)p->n + (uint64_t)n);
    for (lua_Integer i = 0; i < n; i++)
        p->cards[p->n++] = card;           /* kn_pile_push, room known */
    return 0;
}

/* push_all(list): list's cards pushed in its order (list[1] first, the
 * last entry on top), the same as push(list[1]), push(list[2]), ... in one
 * call: the set-up of a deck from a list of card ids. The list is plain
 * (its entries read raw, 1..#list by rawlen); every entry is checked
 * before the pile changes, so a bad entry leaves the pile as it was.
 * Charges #list. */
#define PUSH_RUN 16   /* entries read onto the stack, then popped together */
static int l_push_all(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:push_all");
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_Unsigned n = lua_rawlen(L, 2);
    kn_sandbox_charge(L, (double)n);
    if (n == 0)
        return 0;
    if ((lua_Unsigned)p->n + n > (lua_Unsigned)KN_PILE_MAX)
        check_rc(L, KN_ENOMEM);
    room(L, 1, p, (uint64_t)p->n + n);
    int32_t *to = p->cards + p->n;          /* written past n; n moves at the end */
    for (lua_Unsigned i = 1; i <= n; i += PUSH_RUN) {
        int run = n - i + 1 < PUSH_RUN ? (int)(n - i + 1) : PUSH_RUN;
        for (int j = 0; j < run; j++)
            lua_rawgeti(L, 2, (lua_Integer)(i + (lua_Unsigned)j));
        for (int j = 0; j < run; j++) {
            int isint;
            lua_Integer c = lua_tointegerx(L, 3 + j, &isint);
            if (__builtin_expect(!isint || c < INT32_MIN || c > INT32_MAX, 0)) {
                lua_Integer at = (lua_Integer)(i + (lua_Unsigned)j);
                if (!isint)
                    return luaL_argerror(L, 2, lua_pushfstring(L,
                        "entry %I must be a card (a whole number), got %s", at,
                        lua_type(L, 3 + j) == LUA_TNUMBER ? lua_tostring(L, 3 + j) : luaL_typename(L, 3 + j)));
                return luaL_argerror(L, 2, lua_pushfstring(L,
                    "entry %I: card %I is outside the int32 range", at, c));
            }
            to[i - 1 + (lua_Unsigned)j] = (int32_t)c;
        }
        lua_settop(L, 2);
    }
    if (__builtin_expect(watch.on, 0))
        for (lua_Unsigned i = 0; i < n; i++)
            watch_in(p, to[i]);
    p->n += (uint32_t)n;
    return 0;
}

static int l_pop(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:pop");
    if (p->n > 0) {                        /* kn_pile_pop */
        if (__builtin_expect(watch.on, 0))
            watch_out(p, p->cards[p->n - 1]);
        lua_pushinteger(L, p->cards[--p->n]);
    }
    else
        lua_pushnil(L);
    return 1;
}

static int l_top(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    int32_t c;
    if (kn_pile_top(p, &c) == KN_OK)
        lua_pushinteger(L, c);
    else
        lua_pushnil(L);
    return 1;
}

static int l_count(lua_State *L)
{
    lua_pushinteger(L, check_pile(L, 1)->n);
    return 1;
}

static int l_get(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    lua_Integer i = kn_checkinteger(L, 2);
    if (i >= 1 && i <= p->n)
        lua_pushinteger(L, p->cards[i - 1]);
    else
        lua_pushnil(L);
    return 1;
}

static int l_set(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:set");
    uint32_t i = check_index(L, 2, p->n);
    int32_t card = check_card(L, 3);
    if (__builtin_expect(watch.on, 0)) {
        watch_out(p, p->cards[i]);
        watch_in(p, card);
    }
    kn_pile_set(p, i, card);
    return 0;
}

static int l_insert(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:insert");
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    uint32_t i = check_index(L, 2, (lua_Integer)p->n + 1);
    int32_t card = check_card(L, 3);
    room(L, 1, p, (uint64_t)p->n + 1);
    if (__builtin_expect(watch.on, 0))
        watch_in(p, card);
    check_rc(L, kn_pile_insert(p, i, card));
    return 0;
}

static int l_remove(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:remove");
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    int32_t c = 0;
    kn_pile_remove(p, check_index(L, 2, p->n), &c);
    if (__builtin_expect(watch.on, 0))
        watch_out(p, c);
    lua_pushinteger(L, c);
    return 1;
}

static int l_take(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:take");
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    int32_t card = check_card(L, 2);
    int32_t i = kn_pile_find(p, card);
    if (i >= 0) {
        kn_pile_remove(p, (uint32_t)i, NULL);
        if (__builtin_expect(watch.on, 0))
            watch_out(p, card);
    }
    lua_pushboolean(L, i >= 0);
    return 1;
}

static int l_find(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    int32_t i = kn_pile_find(p, check_card(L, 2));
    if (i >= 0)
        lua_pushinteger(L, (lua_Integer)i + 1);
    else
        lua_pushnil(L);
    return 1;
}

static int l_count_of(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    lua_pushinteger(L, kn_pile_count_of(p, check_card(L, 2)));
    return 1;
}

/* counts(n [, into]): a list of n counts, entry c the cards c the pile
 * holds (cards outside 1..n are not counted): a hand whose cards are
 * numbers 1..n counted in one pass. A new list, or `into` (a table the
 * caller keeps, its entries 1..n written raw) returned again: a read that
 * makes no table. Charges the pile's size and n. */
static int l_counts(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    lua_Integer n = kn_checkinteger(L, 2);
    luaL_argcheck(L, n >= 0 && n <= INT32_MAX, 2, "must be 0 or more");
    int into = !lua_isnoneornil(L, 3);
    if (into)
        luaL_checktype(L, 3, LUA_TTABLE);
    kn_sandbox_charge(L, (double)p->n + (double)n);
    uint32_t small[64], *count = small;
    if (n > 64)
        count = (uint32_t *)lua_newuserdatauv(L, (size_t)n * sizeof *count, 0);
    memset(count, 0, (size_t)n * sizeof *count);
    for (uint32_t i = 0; i < p->n; i++) {
        int32_t c = p->cards[i];
        if (c >= 1 && c <= n)
            count[c - 1]++;
    }
    if (into)
        lua_settop(L, 3);
    else
        lua_createtable(L, (int)n, 0);
    for (lua_Integer c = 1; c <= n; c++) {
        lua_pushinteger(L, count[c - 1]);
        lua_rawseti(L, -2, c);
    }
    return 1;
}

static int l_move_to(lua_State *L)
{
    kn_pile *from = check_pile(L, 1);
    kn_may_change(L, from, "pile:move_to");
    kn_pile *to = check_pile(L, 2);
    kn_may_change(L, to, "pile:move_to");
    lua_Integer k = lua_type(L, 3) <= LUA_TNIL ? 1 : kn_checkinteger(L, 3);
    luaL_argcheck(L, k >= 0, 3, "must not be negative");
    kn_sandbox_charge(L, (double)k);
    if (k > from->n)
        return luaL_error(L, "pile has %I card%s, cannot move %I",
                          (lua_Integer)from->n, from->n == 1 ? "" : "s", k);
    if (from == to || k == 0)
        return 0;
    room(L, 2, to, (uint64_t)to->n + (uint64_t)k);
    if (__builtin_expect(watch.on, 0))      /* the cards go straight over */
        watch.shown |= seats_unseeing(from) & seats_seeing(to);
    if (k == 1) {                                   /* kn_pile_move of one card, room known */
        to->cards[to->n++] = from->cards[--from->n];
        return 0;
    }
    check_rc(L, kn_pile_move(from, to, (uint32_t)k));
    return 0;
}

static int l_shuffle(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:shuffle");
    kn_rng *r = kn_check_rng(L, 2);
    kn_may_change(L, r, "pile:shuffle");
    kn_sandbox_charge(L, (double)p->n);
    kn_pile_shuffle(p, r);
    return 0;
}

static int l_cards(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_sandbox_charge(L, (double)p->n);   /* a scan or a shift: n cards */
    lua_createtable(L, (int)(p->n < INT32_MAX ? p->n : INT32_MAX), 0);
    for (uint32_t i = 0; i < p->n; i++) {
        lua_pushinteger(L, p->cards[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int l_clear(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    kn_may_change(L, p, "pile:clear");
    kn_pile_clear(p);
    return 0;
}

static int l_vis(lua_State *L)
{
    lua_pushstring(L, vis_names[check_pile(L, 1)->vis]);
    return 1;
}

/* The pool named at creation (docs/api.md), or nil: a bot imagining the
 * cards its seat cannot see deals them again only among the unseen piles
 * of one pool. */
static int l_pool(lua_State *L)
{
    check_pile(L, 1);
    lua_getiuservalue(L, 1, UV_POOL);
    return 1;
}

static int l_owner(lua_State *L)
{
    lua_pushinteger(L, check_pile(L, 1)->owner);
    return 1;
}

static int l_tostring(lua_State *L)
{
    kn_pile *p = check_pile(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "%s(%s, owner %d, %d card%s", KONTOR_PILE,
                    vis_names[p->vis], p->owner, (int)p->n,
                    p->n == 1 ? "" : "s");
    luaL_addvalue(&b);
    for (uint32_t i = 0; i < p->n && i < MAX_SHOWN; i++) {
        luaL_addstring(&b, i == 0 ? ": " : " ");
        lua_pushfstring(L, "%d", (int)p->cards[i]);
        luaL_addvalue(&b);
    }
    if (p->n > MAX_SHOWN)
        luaL_addstring(&b, " ...");
    luaL_addchar(&b, ')');
    luaL_pushresult(&b);
    return 1;
}

static const luaL_Reg pile_methods[] = {
    {"push", l_push},
    {"push_all", l_push_all},
    {"pop", l_pop},
    {"top", l_top},
    {"count", l_count},
    {"get", l_get},
    {"set", l_set},
    {"insert", l_insert},
    {"remove", l_remove},
    {"take", l_take},
    {"find", l_find},
    {"count_of", l_count_of},
    {"counts", l_counts},
    {"move_to", l_move_to},
    {"shuffle", l_shuffle},
    {"cards", l_cards},
    {"clear", l_clear},
    {"vis", l_vis},
    {"owner", l_owner},
    {"pool", l_pool},
    {NULL, NULL}
};

static const luaL_Reg pile_meta[] = {
    {"__len", l_count},
    {"__tostring", l_tostring},
    {NULL, NULL}
};

/* core.pile_copy(p [, into]): a new pile with p's cards, visibility,
 * owner and pool; or, with `into`, into's cards replaced by p's. The
 * engine's copies of a game for search (lua/kontor/fork.lua): a whole
 * pile in one call. Not in a rule script's kontor table. */
static int l_copy(lua_State *L)
{
    kn_pile *src = check_pile(L, 1);
    if (!lua_isnoneornil(L, 2)) {
        kn_pile *dst = check_pile(L, 2);
        kn_may_change(L, dst, "pile_copy");
        kn_vis vis = dst->vis;
        int owner = dst->owner;
        room(L, 2, dst, src->n);
        check_rc(L, kn_pile_copy(dst, src));
        dst->vis = vis;
        dst->owner = owner;
        return 0;
    }
    kn_pile *p = new_pile(L, src->vis, src->owner);
    lua_getiuservalue(L, 1, UV_POOL);
    lua_setiuservalue(L, -2, UV_POOL);
    luaL_setmetatable(L, KONTOR_PILE);
    room(L, -1, p, src->n);
    check_rc(L, kn_pile_copy(p, src));
    return 1;
}

/* Sorts a[0..n-1] from the smallest up: values within COUNT_RANGE of each
 * other counted, others by a heap sort, in place, no recursion, no call a
 * comparison (glibc's qsort, a merge sort through a comparison function,
 * cost some 700 instructions a card for 117 cards). */
#define COUNT_RANGE 1024      /* a range of values counted rather than sorted */

static void sort_cards(int32_t *a, uint32_t n)
{
    if (n < 2)
        return;
    /* cards of a deck are mostly few values close together: counted, in
     * one pass and one pass back (the same order a sort gives) */
    int32_t lo = a[0], hi = a[0];
    for (uint32_t i = 1; i < n; i++) {
        if (a[i] < lo) lo = a[i];
        if (a[i] > hi) hi = a[i];
    }
    if ((int64_t)hi - lo < COUNT_RANGE) {
        uint32_t count[COUNT_RANGE];
        uint32_t range = (uint32_t)((int64_t)hi - lo) + 1;
        memset(count, 0, range * sizeof *count);
        for (uint32_t i = 0; i < n; i++)
            count[(int64_t)a[i] - lo]++;
        uint32_t at = 0;
        for (uint32_t v = 0; v < range; v++)
            for (uint32_t k = count[v]; k > 0; k--)
                a[at++] = (int32_t)((int64_t)lo + v);
        return;
    }
    for (uint32_t start = n / 2; start-- > 0;) {          /* the heap: the largest on top */
        uint32_t root = start;
        for (;;) {
            uint32_t child = 2 * root + 1;
            if (child >= n) break;
            if (child + 1 < n && a[child + 1] > a[child]) child++;
            if (a[root] >= a[child]) break;
            int32_t t = a[root]; a[root] = a[child]; a[child] = t;
            root = child;
        }
    }
    for (uint32_t end = n - 1; end > 0; end--) {          /* the largest to the end */
        int32_t t = a[0]; a[0] = a[end]; a[end] = t;
        uint32_t root = 0;
        for (;;) {
            uint32_t child = 2 * root + 1;
            if (child >= end) break;
            if (child + 1 < end && a[child + 1] > a[child]) child++;
            if (a[root] >= a[child]) break;
            int32_t u = a[root]; a[root] = a[child]; a[child] = u;
            root = child;
        }
    }
}

/* core.pile_sorted(piles, at) -> a new public pile holding the cards of
 * piles[at[1]], piles[at[2]], ... sorted from the smallest up (bottom to
 * top): the pool of a deal for search (lua/kontor/fork.lua's deal_plan),
 * where gathering the cards in a Lua list and sorting it with table.sort
 * cost some 90,000 instructions a decision. The engine's own, not in a
 * rule script's `kontor` table. */
static int l_sorted(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_Integer k = (lua_Integer)lua_rawlen(L, 2);
    uint64_t total = 0;
    for (lua_Integer i = 1; i <= k; i++) {
        lua_rawgeti(L, 2, i);
        int isint;
        lua_Integer at = lua_tointegerx(L, -1, &isint);
        luaL_argcheck(L, isint, 2, "a list of whole numbers expected");
        lua_pop(L, 1);
        lua_rawgeti(L, 1, at);
        total += check_pile(L, -1)->n;
        lua_pop(L, 1);
    }
    if (total > (uint64_t)KN_PILE_MAX)
        check_rc(L, KN_ENOMEM);
    kn_pile *p = new_pile(L, KN_VIS_PUBLIC, 0);       /* at 3 */
    luaL_setmetatable(L, KONTOR_PILE);
    room(L, 3, p, total);
    for (lua_Integer i = 1; i <= k; i++) {
        lua_rawgeti(L, 2, i);
        lua_rawgeti(L, 1, lua_tointeger(L, -1));
        kn_pile *q = check_pile(L, -1);
        if (q->n > 0)
            memcpy(p->cards + p->n, q->cards, (size_t)q->n * sizeof *q->cards);
        p->n += q->n;
        lua_pop(L, 2);
    }
    sort_cards(p->cards, p->n);
    return 1;
}

/* core.pile_values(piles) -> the card values the piles of the list hold,
 * each once, from the smallest up, in a new list: what the fail-closed
 * check of hidden cards kept outside piles asks R.card_text about
 * (lua/kontor/fork.lua's plain_secrets), where a set of them was made in
 * Lua, card by card. */
static int l_values(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_Integer k = (lua_Integer)lua_rawlen(L, 1);
    uint64_t total = 0;
    for (lua_Integer i = 1; i <= k; i++) {
        lua_rawgeti(L, 1, i);
        total += check_pile(L, -1)->n;
        lua_pop(L, 1);
    }
    if (total > (uint64_t)KN_PILE_MAX)
        check_rc(L, KN_ENOMEM);
    kn_pile *all = new_pile(L, KN_VIS_PUBLIC, 0);     /* at 2: scratch, the GC's */
    room(L, 2, all, total);
    for (lua_Integer i = 1; i <= k; i++) {
        lua_rawgeti(L, 1, i);
        kn_pile *q = check_pile(L, -1);
        if (q->n > 0)
            memcpy(all->cards + all->n, q->cards, (size_t)q->n * sizeof *q->cards);
        all->n += q->n;
        lua_pop(L, 1);
    }
    sort_cards(all->cards, all->n);
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < all->n; i++)
        if (i == 0 || all->cards[i] != all->cards[i - 1])
            all->cards[distinct++] = all->cards[i];
    lua_createtable(L, (int)distinct, 0);
    for (uint32_t i = 0; i < distinct; i++) {
        lua_pushinteger(L, all->cards[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* core.pile_place(level) -> "file:line": where the function `level`
 * levels up (1: pile_place's caller) is, as its short source and current
 * line, or "?" when the stack has no such level. lua/kontor/sandbox.lua
 * notes so where each secret pile was made. The texts are kept (upvalue
 * 1, weak keys: function -> { src = short source, [line] = text }), so a
 * game that makes its piles at the same lines as the last makes no
 * string; and no table a call, as debug.getinfo makes (Sea Merchants 4p,
 * five such piles a game: about 4% of its time). */
static int l_place(lua_State *L)
{
    lua_Integer level = luaL_checkinteger(L, 1);
    lua_Debug ar;
    if (level < 0 || level > INT32_MAX || !lua_getstack(L, (int)level, &ar)) {
        lua_pushliteral(L, "?");
        return 1;
    }
    lua_settop(L, 0);
    lua_getinfo(L, "fl", &ar);                         /* 1: the function */
    int line = ar.currentline;
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TTABLE) {   /* 2: its texts */
        lua_pop(L, 1);
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, 1);
        lua_getinfo(L, ">S", &ar);                     /* pops the copy */
        lua_pushstring(L, ar.short_src);
        lua_setfield(L, 2, "src");
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 2);
        lua_rawset(L, lua_upvalueindex(1));
    }
    if (lua_rawgeti(L, 2, line) == LUA_TSTRING)
        return 1;
    lua_pop(L, 1);
    lua_getfield(L, 2, "src");
    lua_pushfstring(L, "%s:%d", lua_tostring(L, -1), line);
    lua_pushvalue(L, -1);
    lua_rawseti(L, 2, line);
    return 1;
}

static const luaL_Reg pile_funcs[] = {
    {"pile", l_new},
    {"pile_copy", l_copy},
    {"pile_sorted", l_sorted},
    {"pile_values", l_values},
    {"pile_watch", l_watch},
    {NULL, NULL}
};

void kn_open_pile(lua_State *L)
{
    kn_newtype(L, KONTOR_PILE, pile_meta, pile_methods);
    luaL_setfuncs(L, pile_funcs, 0);
    lua_newtable(L);                                   /* pile_place's texts */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, l_place, 1);
    lua_setfield(L, -2, "pile_place");
}
