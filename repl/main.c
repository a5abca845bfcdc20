/*
 * main.c - the `kontor` program.
 *
 * It creates the interpreter (with the sandbox's allocator and hook), makes
 * `kontor.core` requirable, finds the Lua library and the rule sets, and
 * hands the command line to repl/cli.lua, whose return value is the exit
 * status. Everything else (the REPL, sim, run) is Lua.
 */
#define _DEFAULT_SOURCE
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

    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/repl/?.lua;%s/lua/?.lua;%s/lua/?/init.lua;%s", home, home, home,
                    lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);

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
    setlocale(LC_CTYPE, "");   /* libedit needs it for non-ASCII input */
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
