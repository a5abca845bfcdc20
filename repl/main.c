/*
 * main.c - the `kontor` program.
 *
 * It creates the interpreter (with the sandbox's allocator and hook), makes
 * `kontor.core` requirable, finds the Lua library and the rule sets, and
 * hands the command line to repl/cli.lua, whose return value is the exit
 * status. Everything else (the REPL, sim, run) is Lua.
 */
#define _DEFAULT_SOURCE
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lualib.h>

#include "../lua/binding.h"
#include "../lua/engine/sandbox.h"
#include "chunks.h"

lua_State *kn_newstate(void);

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder holding lua/kontor/ and variants/: $KONTOR_HOME, else the
 * source tree the binary was built in (build/kontor, build/asan/kontor),
 * else PREFIX/share/kontor next to PREFIX/bin/kontor. */
static int find_home(char *out, size_t size) {
    const char *env = getenv("KONTOR_HOME");
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return 1;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return 0;
    *slash = '\0';
    static const char *const ups[] = { "/..", "/../..", "/../share/kontor" };
    for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s%s/repl/cli.lua", exe, ups[i]);
        if (is_file(probe)) {
            char home[PATH_MAX + 32];
            snprintf(home, sizeof home, "%s%s", exe, ups[i]);
            if (realpath(home, out) == NULL) return 0;
            (void)size;
            return 1;
        }
    }
    return 0;
}

/* ---- the engine's modules, compiled at build time (chunks.h) ---------- */

static const struct kn_chunk *chunk_for(const char *rel) {
    for (size_t i = 0; i < kn_nchunks; i++)
        if (strcmp(kn_chunks[i].path, rel) == 0) return &kn_chunks[i];
    return NULL;
}

/* Whether the file holds exactly the text the chunk was compiled from. */
static int same_text(const char *path, const struct kn_chunk *c) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    struct stat st;
    int same = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == c->src_len) {
        unsigned char *text = malloc(c->src_len + 1);
        same = text != NULL && fread(text, 1, c->src_len, f) == c->src_len &&
               kn_chunk_hash(text, c->src_len) == c->src_hash;
        free(text);
    }
    fclose(f);
    return same;
}

struct chunk_pieces {
    const char *part[5];
    size_t len[5];
    int i;
};

static const char *chunk_reader(lua_State *L, void *ud, size_t *size) {
    (void)L;
    struct chunk_pieces *p = ud;
    while (p->i < 5 && p->len[p->i] == 0) p->i++;
    if (p->i == 5) return NULL;
    *size = p->len[p->i];
    return p->part[p->i++];
}

/* Loads chunk c (binary only) under the name "@FILE" in place of the
 * one it was compiled with: the same name the text would have had. */
static int load_chunk(lua_State *L, const struct kn_chunk *c, const char *file) {
    size_t flen = strlen(file);
    unsigned char size[16];
    size_t n = kn_chunk_dump_size(size, flen + 2);  /* "@" FILE, plus one */
    struct chunk_pieces p = {
        { (const char *)c->code, (const char *)size, "@", file, (const char *)c->code + c->name_end },
        { c->name_at, n, 1, flen, c->code_len - c->name_end },
        0,
    };
    return lua_load(L, chunk_reader, &p, file, "b");
}

/* kn_sandbox_compiled's loader: a rule script of variants/ whose text is
 * the one it was compiled from, byte for byte, is loaded from its chunk,
 * under the name of the file it was read from. Rule scripts come from
 * anyone: a hash alone would hand the shipped chunk to a text forged to
 * match it (kn_chunk_hash is not made against forgers), so the texts are
 * compared whole. */
static int compiled_rules(lua_State *L, const char *src, size_t len, const char *file) {
    for (size_t i = 0; i < kn_nchunks; i++) {
        const struct kn_chunk *c = &kn_chunks[i];
        if (c->src == NULL || c->src_len != len || memcmp(c->src, src, len) != 0) continue;
        if (load_chunk(L, c, file) == LUA_OK) return LUA_OK;
        lua_pop(L, 1);   /* its message: the text is compiled instead */
        return LUA_ERRSYNTAX;
    }
    return LUA_ERRSYNTAX;
}

/* package.searchers[2], before the one for Lua files: finds the module's
 * file as that searcher would (package.searchpath over package.path), and
 * if it is one of the engine's own, unchanged since the build, loads its
 * chunk. Otherwise nothing, and the next searcher loads the text.
 * Upvalues: the home, package, the original package.searchpath. */
static int chunk_searcher(lua_State *L) {
    luaL_checkstring(L, 1);
    size_t hlen;
    const char *home = lua_tolstring(L, lua_upvalueindex(1), &hlen);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_pushvalue(L, 1);
    if (lua_getfield(L, lua_upvalueindex(2), "path") != LUA_TSTRING) return 0;
    lua_call(L, 2, 1);
    const char *file = lua_tostring(L, 2);
    if (file == NULL || strncmp(file, home, hlen) != 0 || file[hlen] != '/') return 0;
    const struct kn_chunk *c = chunk_for(file + hlen + 1);
    if (c == NULL || !same_text(file, c)) return 0;
    if (load_chunk(L, c, file) != LUA_OK) return 0;  /* the text, then */
    lua_pushvalue(L, 2);
    return 2;
}

static void add_chunk_searcher(lua_State *L, const char *home) {
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchers");
    for (lua_Integer i = luaL_len(L, -1); i >= 2; i--) {
        lua_rawgeti(L, -1, i);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushstring(L, home);
    lua_pushvalue(L, -3);
    lua_getfield(L, -1, "searchpath");
    lua_pushcclosure(L, chunk_searcher, 3);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 2);
}

static int traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
    return 1;
}

/* Runs require("cli").main(home, args) and returns its status: the
 * program's own Lua (repl/) comes first on the path, then the engine's. */
static int pmain(lua_State *L) {
    int argc = (int)lua_tointeger(L, 1);
    char **argv = (char **)lua_touserdata(L, 2);
    const char *home = lua_tostring(L, 3);

    luaL_openlibs(L);
    kn_preload_core(L);
    kn_sandbox_compiled(compiled_rules);

    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/repl/?.lua;%s/lua/?.lua;%s/lua/?/init.lua;%s", home, home, home,
                    lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
    add_chunk_searcher(L, home);

    lua_getglobal(L, "require");
    lua_pushliteral(L, "cli");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_pushstring(L, home);
    lua_createtable(L, argc, 1);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_pushstring(L, argv[0]);
    lua_rawseti(L, -2, 0);
    lua_call(L, 2, 1);
    return 1;
}

int main(int argc, char **argv) {
    signal(SIGXFSZ, SIG_IGN);  /* a full file gives EFBIG, not death */
    /* libedit needs a UTF-8 locale for non-ASCII input: in the C locale
     * it drops "é" from a line typed ("undo é" would undo). What the
     * program prints is UTF-8 anyway (kontor.text). */
    const char *ctype = setlocale(LC_CTYPE, "");
    if (ctype == NULL || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    char home[PATH_MAX];
    if (!find_home(home, sizeof home)) {
        fprintf(stderr, "kontor: cannot find the Lua library "
                        "(set KONTOR_HOME to the folder holding lua/ and variants/)\n");
        return 2;
    }
    lua_State *L = kn_newstate();
    if (L == NULL) {
        fprintf(stderr, "kontor: cannot create the Lua interpreter\n");
        return 1;
    }
    lua_pushcfunction(L, traceback);
    lua_pushcfunction(L, pmain);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    lua_pushstring(L, home);
    int status = lua_pcall(L, 3, 1, 1);
    int code;
    if (status != LUA_OK) {
        fprintf(stderr, "kontor: %s\n", lua_tostring(L, -1));
        code = 1;
    } else {
        code = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    }
    fflush(stdout);
    lua_close(L);
    return code;
}
