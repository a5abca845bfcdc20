/*
 * l_term.c - kontor.core.term: line editing for the REPL, over libedit's
 * readline compatibility API.
 *
 *   term.readline(prompt)     -> line (without the newline) | nil at EOF
 *                                | "", true after Ctrl-C at the prompt
 *   term.add_history(line)
 *   term.load_history(path)   -> true | nil, message  (a missing file is fine;
 *                                 the history keeps the last 1000 lines)
 *   term.save_history(path)   -> true | nil, message
 *   term.isatty(fd)           -> boolean              (fd 0, 1 or 2)
 *   term.pending()            -> boolean: stdin's terminal holds input not
 *                                read yet (typed ahead; false when stdin
 *                                is no terminal)
 *   term.discard()            -> boolean: drops the input stdin's terminal
 *                                holds (typed before a screen showed); true
 *                                when it held more than line ends
 *   term.prepare()            a session at the terminal begins: stdin's
 *                             terminal in the mode kept between lines
 *                             (nothing when stdin is no terminal); its
 *                             own modes come back at exit
 *   term.set_completer(fn)    fn(text, line_before_cursor) -> {candidates}
 *                             (a single candidate ending in ( . : or " gets
 *                             no space after it)
 *
 * libedit is used only when stdin is a terminal; otherwise readline reads
 * a plain line from stdin (no prompt, no escape codes), so that
 * `kontor < cmds.txt` works; a line ends at "\n", "\r\n" or a lone "\r".
 *
 * The terminal, whatever state it was left in: a terminal sends "\r" for
 * Enter, and one that does not turn it into "\n" (stty -icrnl, or raw)
 * would show "^M" for every Enter typed while the program works or when
 * libedit does not edit (stdout not a terminal), give lines ending in
 * "\r", and make Ctrl-D no end of input; a terminal without ONLCR prints
 * a staircase. So the terminal is set to turn Enter into a line end and
 * "\n" into a new line. libedit is initialised in line mode (canonical,
 * echo: it edits only where the terminal echoes then); between lines,
 * where it edits (stdout a terminal too), the terminal stays in libedit's
 * own mode (no echo, no canonical input), as libedit shows the prompt
 * before it takes the terminal: what is typed ahead, while a bot thinks or
 * as the prompt shows, waits as typed for libedit to read and show once,
 * where the terminal would have echoed it too and taken a Ctrl-D for a
 * line end. The terminal's own settings come back at exit (and on
 * SIGTERM, SIGHUP).
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "binding.h"

#define TERM_LINE "kontor.term.line"

/* Registry key of the completer function. */
static const char completer_key = 0;
/* The thread running term.readline, for the completion callback. */
static lua_State *completer_L = NULL;

/* Candidates returned by the completer, handed to the generator. */
static struct {
    char **items;
    size_t n, cap, next;
} cands;

static void cands_clear(void) {
    for (size_t i = 0; i < cands.n; i++)
        free(cands.items[i]);
    free(cands.items);
    cands.items = NULL;
    cands.n = cands.cap = cands.next = 0;
}

static int cands_add(const char *s, size_t len) {
    char *copy;
    if (cands.n == cands.cap) {
        size_t cap = cands.cap ? cands.cap * 2 : 16;
        char **items = (char **)realloc(cands.items, cap * sizeof(char *));
        if (items == NULL)
            return 0;
        cands.items = items;
        cands.cap = cap;
    }
    copy = (char *)malloc(len + 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, s, len);
    copy[len] = '\0';
    cands.items[cands.n++] = copy;
    return 1;
}

/* rl_completion_matches generator: hands over the candidates one by one
 * (readline frees what it gets). */
static char *cand_generator(const char *text, int state) {
    (void)text;
    if (state == 0)
        cands.next = 0;
    if (cands.next < cands.n) {
        char *s = cands.items[cands.next];
        cands.items[cands.next++] = NULL;
        return s;
    }
    return NULL;
}

typedef struct {
    const char *text;
    const char *line;
    size_t linelen;
} CompleteArgs;

/* Runs under lua_pcall: calls the completer, copies its string results. */
static int complete_call(lua_State *L) {
    const CompleteArgs *a = (const CompleteArgs *)lua_touserdata(L, 1);
    lua_Unsigned n;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &completer_key);
    if (!lua_isfunction(L, -1))
        return 0;
    lua_pushstring(L, a->text);
    lua_pushlstring(L, a->line, a->linelen);
    lua_call(L, 2, 1);
    if (!lua_istable(L, -1))
        return 0;
    n = lua_rawlen(L, -1);
    for (lua_Unsigned i = 1; i <= n; i++) {
        if (lua_rawgeti(L, -1, (lua_Integer)i) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            if (!cands_add(s, len))
                break;
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* Byte length of the first `chars` characters of the UTF-8 string s. */
static size_t utf8_prefix(const char *s, int chars) {
    size_t i = 0;
    while (s[i] != '\0' && chars > 0) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        chars--;
    }
    return i;
}

static char **attempted_completion(const char *text, int start, int end) {
    lua_State *L = completer_L;
    CompleteArgs a;
    int top, status;
    char **matches = NULL;
    (void)start;
    rl_attempted_completion_over = 1; /* no fallback to file names */
    cands_clear();
    if (L == NULL || !lua_checkstack(L, 4))
        return NULL;
    a.text = text;
    a.line = rl_line_buffer != NULL ? rl_line_buffer : "";
    a.linelen = utf8_prefix(a.line, end); /* end counts characters */
    top = lua_gettop(L);
    lua_pushcfunction(L, complete_call);
    lua_pushlightuserdata(L, &a);
    status = lua_pcall(L, 1, 0, 0);
    lua_settop(L, top);
    if (status == LUA_OK && cands.n > 0) {
        /* After a single match that opens something ("g:options(",
         * "string."), no space: the user goes on typing. */
        char last = '\0';
        if (cands.n == 1 && cands.items[0][0] != '\0')
            last = cands.items[0][strlen(cands.items[0]) - 1];
        rl_completion_append_character =
            (last == '(' || last == '.' || last == ':' || last == '"') ? '\0' : ' ';
        matches = rl_completion_matches(text, cand_generator);
    }
    cands_clear();
    return matches;
}

/* ------------------------------------------------------------------ */

static int line_gc(lua_State *L) {
    char **p = (char **)luaL_checkudata(L, 1, TERM_LINE);
    free(*p);
    *p = NULL;
    return 0;
}

/* ---- the terminal's modes (see the top) ----------------------------- */

static struct termios tty_saved;
static int rl_ready = 0;
static volatile sig_atomic_t tty_have_saved = 0;

static void tty_restore(void) {
    if (tty_have_saved)
        tcsetattr(STDIN_FILENO, TCSADRAIN, &tty_saved);
}

/* SIGTERM, SIGHUP: the terminal as it was, then the signal's default. */
static void tty_restore_and_die(int sig) {
    tty_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Sets stdin's terminal to line mode (TTY_LINE: Enter is a line end,
 * "\n" prints as a new line, canonical input with echo) or to the mode
 * libedit edits in (TTY_KEYS: the same without canonical input and echo,
 * each key as typed; Ctrl-C still a signal). */
enum { TTY_LINE, TTY_KEYS };

static void tty_mode(int mode) {
    struct termios t, want;
    if (tcgetattr(STDIN_FILENO, &t) != 0)
        return;
    if (!tty_have_saved) {
        tty_saved = t;
        tty_have_saved = 1;
        atexit(tty_restore);
        for (int i = 0; i < 2; i++) {
            int sig = i == 0 ? SIGTERM : SIGHUP;
            struct sigaction old;
            if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
                signal(sig, tty_restore_and_die);
        }
    }
    want = t;
    want.c_iflag |= ICRNL;
    want.c_iflag &= ~(tcflag_t)(INLCR | IGNCR);
    want.c_oflag |= OPOST | ONLCR;
    want.c_lflag |= ISIG;
    if (mode == TTY_LINE) {
        want.c_lflag |= ICANON | ECHO;
    } else {
        want.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        want.c_cc[VMIN] = 1;
        want.c_cc[VTIME] = 0;
    }
    if (memcmp(&want, &t, sizeof t) != 0)
        tcsetattr(STDIN_FILENO, TCSANOW, &want);
}

/* libedit, initialised once, in line mode (it edits only where the
 * terminal echoes then): before any history call, which would initialise
 * it otherwise (and a second rl_initialize would drop the history). */
static void rl_ready_once(void) {
    if (rl_ready)
        return;
    rl_ready = 1;
    if (isatty(STDIN_FILENO))
        tty_mode(TTY_LINE);
    rl_initialize();
}

/* The mode between lines: where libedit edits (stdout a terminal too),
 * its own, so that what is typed ahead (while a bot thinks) waits as it
 * was typed, unechoed, for libedit to read and show at the next prompt (a
 * line end or a Ctrl-D the terminal took as one would show twice or get
 * lost); else line mode, libedit reading lines as they come. */
static void tty_between(void) {
    tty_mode(isatty(STDOUT_FILENO) ? TTY_KEYS : TTY_LINE);
}

/* Reads one line from stdin without line editing: it ends at "\n",
 * "\r\n" or a lone "\r" (a file from another system, a terminal
 * program's paste). */
static int read_plain_line(lua_State *L) {
    luaL_Buffer b;
    int c = EOF;
    size_t n = 0;
    luaL_buffinit(L, &b);
    for (;;) {
        char *p = luaL_prepbuffer(&b);
        size_t i = 0;
        while (i < LUAL_BUFFERSIZE && (c = getc(stdin)) != EOF && c != '\n' && c != '\r')
            p[i++] = (char)c;
        luaL_addsize(&b, i);
        n += i;
        if (i < LUAL_BUFFERSIZE)
            break;
    }
    if (c == EOF && n == 0) {
        luaL_pushresult(&b);
        clearerr(stdin);
        luaL_pushfail(L);
        return 1;
    }
    if (c == '\r') {   /* "\r\n" is one line end */
        int next = getc(stdin);
        if (next != '\n' && next != EOF)
            ungetc(next, stdin);
    }
    luaL_pushresult(&b);
    return 1;
}

/* Ctrl-C at the prompt: the read is interrupted (no SA_RESTART), libedit
 * gives up the line, and term.readline returns "", true. */
static volatile sig_atomic_t got_sigint = 0;

static void on_prompt_sigint(int sig) {
    (void)sig;
    got_sigint = 1;
}

static int term_readline(lua_State *L) {
    const char *prompt = luaL_optstring(L, 1, "");
    char **box;
    struct sigaction sa, old;
    if (!isatty(STDIN_FILENO))
        return read_plain_line(L);
    box = (char **)lua_newuserdatauv(L, sizeof(char *), 0);
    *box = NULL;
    luaL_setmetatable(L, TERM_LINE);
    fflush(stdout);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prompt_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    got_sigint = 0;
    sigaction(SIGINT, &sa, &old);
    completer_L = L;
    /* libedit decides once, at its first line, whether it edits: only
     * where the terminal is in line mode then. Where it edits, it shows
     * the prompt before it takes the terminal: a line typed as the prompt
     * shows would be echoed twice, a Ctrl-D taken for a line end (lost),
     * were the terminal not in libedit's mode already (tty_between). */
    rl_ready_once();
    tty_between();
    *box = readline(prompt);
    tty_between();
    completer_L = NULL;
    sigaction(SIGINT, &old, NULL);
    if (*box == NULL && got_sigint) {
        got_sigint = 0;
        lua_pushliteral(L, "");
        lua_pushboolean(L, 1);
        return 2;
    }
    if (*box == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushstring(L, *box);
    free(*box);
    *box = NULL;
    return 1;
}

static int term_add_history(lua_State *L) {
    const char *line = luaL_checkstring(L, 1);
    rl_ready_once();
    add_history(line);
    return 0;
}

static int history_result(lua_State *L, const char *path, int err) {
    if (err == 0) {
        lua_pushboolean(L, 1);
        return 1;
    }
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: %s", path, strerror(err));
    return 2;
}

static int term_load_history(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    int err;
    rl_ready_once();
    stifle_history(1000);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return history_result(L, path, 0);
    errno = 0;
    err = read_history(path);
    if (err != 0 && errno == ENOENT)
        err = 0;
    return history_result(L, path, err);
}

static int term_save_history(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    rl_ready_once();
    errno = 0;
    return history_result(L, path, write_history(path));
}

static int term_isatty(lua_State *L) {
    lua_Integer fd = luaL_checkinteger(L, 1);
    luaL_argcheck(L, fd >= 0 && fd <= 2, 1, "fd must be 0, 1 or 2");
    lua_pushboolean(L, isatty((int)fd));
    return 1;
}

/* term.columns(): the width of the terminal on stdout in columns, or nil
 * when stdout is no terminal or does not say (a pseudo-terminal never
 * sized). Asked at each use: the window may have been resized since. */
static int term_columns(lua_State *L) {
    struct winsize ws;
    if (ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)ws.ws_col);
    return 1;
}

/* term.pending(): input waits on the terminal. libedit reads a byte at a
 * time, so what follows the last line (the "\n" of a terminal that sends
 * "\r\n" for Enter, a second Enter typed fast) is still the terminal's:
 * a screen that waits for Enter tells it from an Enter pressed there. */
static int term_pending(lua_State *L) {
    struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
    lua_pushboolean(L, isatty(STDIN_FILENO) && poll(&p, 1, 0) == 1 && (p.revents & POLLIN));
    return 1;
}

/* term.discard(): what was typed before a screen that waits for Enter
 * showed is not an Enter pressed there: a hot-seat hand-over drops it, so
 * Enter pressed again and again with a move cannot pass the next seat's
 * screen and show their hand to the mover. Reads at most 1 MiB (a paste
 * that never ends stops there). */
static int term_discard(lua_State *L) {
    int other = 0;
    size_t total = 0;
    if (isatty(STDIN_FILENO)) {
        char buf[256];
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        while (total < ((size_t)1 << 20) && poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n <= 0) break;
            for (ssize_t i = 0; i < n; i++)
                if (buf[i] != '\r' && buf[i] != '\n') other = 1;
            total += (size_t)n;
        }
    }
    lua_pushboolean(L, other);
    return 1;
}

static int term_prepare(lua_State *L) {
    (void)L;
    if (isatty(STDIN_FILENO))
        tty_between();
    return 0;
}

/* term.line_mode(): stdin's terminal in line mode (canonical input with
 * echo) until the next prompt: for Lua typed at the REPL, whose io.read
 * must echo what is typed as any program's would. */
static int term_line_mode(lua_State *L) {
    (void)L;
    if (isatty(STDIN_FILENO) && tty_have_saved)
        tty_mode(TTY_LINE);
    return 0;
}

static int term_set_completer(lua_State *L) {
    if (lua_isnoneornil(L, 1)) {
        lua_pushnil(L);
        rl_attempted_completion_function = NULL;
    } else {
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_pushvalue(L, 1);
        rl_attempted_completion_function = attempted_completion;
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &completer_key);
    return 0;
}

static const luaL_Reg term_funcs[] = {
    {"readline", term_readline},
    {"add_history", term_add_history},
    {"load_history", term_load_history},
    {"save_history", term_save_history},
    {"isatty", term_isatty},
    {"columns", term_columns},
    {"pending", term_pending},
    {"discard", term_discard},
    {"prepare", term_prepare},
    {"line_mode", term_line_mode},
    {"set_completer", term_set_completer},
    {NULL, NULL}
};

void kn_open_term(lua_State *L) {
    luaL_checkstack(L, 3, NULL);
    if (luaL_newmetatable(L, TERM_LINE)) {
        lua_pushcfunction(L, line_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    rl_readline_name = "kontor";
    rl_catch_signals = 0; /* SIGINT at the prompt is ours (term_readline) */
    luaL_newlib(L, term_funcs);
    lua_setfield(L, -2, "term");
}
