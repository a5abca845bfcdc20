/*
 * l_fs.c - kontor.core.fs: the few file operations the engine needs.
 *
 *   fs.read(path)               -> string | nil, "path: reason"
 *   fs.read(path, max, true)    -> its first max bytes at most (a file of
 *                                  any size; the lab's check of an output)
 *   fs.write_atomic(path, data) -> true   | nil, "path: step failed: reason"
 *   fs.atomic(path)             -> writer | nil, message: the same, written
 *                                  in pieces: w:write(s), w:commit(), w:abort()
 *   fs.random_seed()            -> a fresh seed from the system, 1..2^53-1
 *   fs.exists(path)             -> boolean
 *   fs.mkdir(path)              -> true | nil, message: the folder and its
 *                                  parents as needed (mkdir -p, no shell)
 *   fs.list(dir)                -> sorted list of names | nil, message
 *   fs.dirname(path), fs.basename(path) -> string
 *   fs.realpath(path)           -> string | nil, message
 *   fs.mtime(path)              -> integer seconds | nil, message
 *   fs.read_line(file, max)     -> line, bytes | nil: the next line of a Lua
 *                                  file handle, at most max + 1 bytes of it kept
 *
 * Open descriptors and directory streams are held by a small "handle"
 * userdata whose __gc closes them, so a Lua error (out of memory) raised
 * while one is open cannot leak it.
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "binding.h"

#define FS_HANDLE "kontor.fs.handle"
#define FS_WRITER "kontor.fs.writer"
#define FS_READ_MAX ((size_t)64 * 1024 * 1024)

typedef struct {
    int fd;
    DIR *dir;
} FsHandle;

static void handle_close(FsHandle *h) {
    if (h->fd >= 0) {
        close(h->fd);
        h->fd = -1;
    }
    if (h->dir != NULL) {
        closedir(h->dir);
        h->dir = NULL;
    }
}

static int handle_gc(lua_State *L) {
    handle_close((FsHandle *)luaL_checkudata(L, 1, FS_HANDLE));
    return 0;
}

static FsHandle *handle_new(lua_State *L) {
    FsHandle *h = (FsHandle *)lua_newuserdatauv(L, sizeof(FsHandle), 0);
    h->fd = -1;
    h->dir = NULL;
    luaL_setmetatable(L, FS_HANDLE);
    return h;
}

/* A path argument: a string without zero bytes. */
static const char *check_path(lua_State *L, int arg) {
    size_t len;
    const char *p = luaL_checklstring(L, arg, &len);
    luaL_argcheck(L, strlen(p) == len, arg, "path contains a zero byte");
    return p;
}

/* nil, "path: strerror(err)" */
static int fail_errno(lua_State *L, const char *path, int err) {
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: %s", path, strerror(err));
    return 2;
}

/* ------------------------------------------------------------------ */

/* nil, "path: file too large (over N bytes)" */
static int fail_size(lua_State *L, const char *path, size_t max) {
    luaL_pushfail(L);
    if (max % (1024 * 1024) == 0)
        lua_pushfstring(L, "%s: file too large (over %d MiB)", path, (int)(max / (1024 * 1024)));
    else
        lua_pushfstring(L, "%s: file too large (over %I bytes)", path, (lua_Integer)max);
    return 2;
}

/* read(path [, max [, head]]): the whole of a regular file of at most max
 * bytes (default and limit 64 MiB); with head, the first max bytes of one
 * of any size. Anything else (a device such as /dev/stdin
 * or /dev/zero, a FIFO, a directory) is refused after an open that cannot
 * block (O_NONBLOCK) and before any read. */
static int fs_read(lua_State *L) {
    const char *path = check_path(L, 1);
    lua_Integer imax = luaL_optinteger(L, 2, (lua_Integer)FS_READ_MAX);
    size_t max;
    FsHandle *h;
    struct stat st;
    luaL_Buffer b;
    size_t total = 0;
    int head = lua_toboolean(L, 3);
    luaL_argcheck(L, imax >= 0 && imax <= (lua_Integer)FS_READ_MAX, 2, "size limit out of range");
    max = (size_t)imax;
    lua_settop(L, 2);
    h = handle_new(L);
    do {
        h->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    } while (h->fd < 0 && errno == EINTR);
    if (h->fd < 0)
        return fail_errno(L, path, errno);
    if (fstat(h->fd, &st) != 0) {
        int err = errno;
        handle_close(h);
        return fail_errno(L, path, err);
    }
    if (S_ISDIR(st.st_mode)) {
        handle_close(h);
        return fail_errno(L, path, EISDIR);
    }
    if (!S_ISREG(st.st_mode)) {
        handle_close(h);
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: not a regular file", path);
        return 2;
    }
    if (head && st.st_size > (off_t)max)
        st.st_size = (off_t)max;          /* its head only: read max bytes */
    else if (st.st_size > (off_t)max) {
        handle_close(h);
        return fail_size(L, path, max);
    }
    luaL_buffinitsize(L, &b, (size_t)st.st_size + 1);
    for (;;) {
        /* The whole file in one read, then a 1-byte probe for EOF (so the
         * buffer does not grow); bigger reads only if the file grew. */
        size_t size = (size_t)st.st_size;
        size_t room = total < size ? size - total + 1
                    : total == size ? 1 : LUAL_BUFFERSIZE;
        char *p = luaL_prepbuffsize(&b, room);
        ssize_t n = read(h->fd, p, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            handle_close(h);
            luaL_pushresult(&b);
            return fail_errno(L, path, err);
        }
        if (n == 0)
            break;
        if (head && total + (size_t)n > max)
            n = (ssize_t)(max - total);   /* the probe byte of a head: not kept */
        luaL_addsize(&b, (size_t)n);
        total += (size_t)n;
        if (head && total == max)
            break;
        if (total > max) { /* the file grew while being read */
            handle_close(h);
            luaL_pushresult(&b);
            return fail_size(L, path, max);
        }
    }
    handle_close(h);
    luaL_pushresult(&b);
    return 1;
}

/* ------------------------------------------------------------------ */
/* write_atomic                                                        */

/* Writes all of data, retrying partial writes and EINTR. 0 or errno. */
static int write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static int fsync_retry(int fd) {
    while (fsync(fd) != 0) {
        if (errno != EINTR)
            return errno;
    }
    return 0;
}

/* Length of the directory part of path (without the final slashes) and
 * start of the last component; dirlen is 0 for a path without a slash. */
static void split_path(const char *path, size_t len, size_t *dirlen,
                       size_t *base) {
    size_t i = len;
    while (i > 0 && path[i - 1] != '/')
        i--;
    *base = i;
    while (i > 1 && path[i - 1] == '/')
        i--;
    *dirlen = i;
}

/* Removes the temp files that saves of `name` in `dir` left when their
 * process was killed (".NAME.tmp.PID.N" whose PID is gone): a kill can
 * stop a save between creating its temp file and renaming it. Best effort:
 * an entry that cannot be read or removed is left alone. */
static void remove_stale_temps(const char *dir, const char *name, size_t nlen) {
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, name, nlen) != 0 || strncmp(n + 1 + nlen, ".tmp.", 5) != 0)
            continue;
        char *end;
        long pid = strtol(n + 1 + nlen + 5, &end, 10);
        if (pid <= 0 || *end != '.' || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;   /* that save may still be running */
        char full[PATH_MAX];
        if (snprintf(full, sizeof full, "%s/%s", dir, n) < (int)sizeof full)
            unlink(full);
    }
    closedir(d);
}

/* Creates the temp file of `path` beside it (after removing the stale
 * temps of killed processes) and writes its name into tmp (cap bytes) and
 * the folder into dir. Returns the descriptor, or -1 with *err set. */
static int create_temp(const char *path, size_t base, char *tmp, size_t cap,
                       const char *dir, int *err) {
    static unsigned long counter = 0;
    int fd = -1;
    remove_stale_temps(dir, path + base, strlen(path) - base);
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmp, cap, "%.*s.%s.tmp.%ld.%lu", (int)base, path, path + base,
                 (long)getpid(), ++counter);
        do {
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        } while (fd < 0 && errno == EINTR);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0)
        *err = errno;
    return fd;
}

/* fsync, close and rename the temp file onto path, then sync the folder.
 * Closes fd whatever happens and removes tmp unless it was renamed.
 * Returns NULL, or the step that failed with *err set. */
static const char *finish_temp(int fd, const char *tmp, const char *path,
                               const char *dir, int *err) {
    const char *step = NULL;
    int dfd = -1, renamed = 0;
    if ((*err = fsync_retry(fd)) != 0) {
        step = "fsync";
        goto done;
    }
    {
        int rc = close(fd);
        fd = -1;
        if (rc != 0 && errno != EINTR) {
            *err = errno;
            step = "close";
            goto done;
        }
    }
    if (rename(tmp, path) != 0) {
        *err = errno;
        step = "rename";
        goto done;
    }
    renamed = 1;
    do {
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } while (dfd < 0 && errno == EINTR);
    if (dfd < 0) {
        *err = errno;
        step = "open directory";
        goto done;
    }
    *err = fsync_retry(dfd);
    /* Some file systems cannot sync a directory; the data is in place. */
    if (*err == EINVAL || *err == ENOTSUP)
        *err = 0;
    if (*err != 0)
        step = "fsync directory";
done:
    if (fd >= 0)
        close(fd);
    if (dfd >= 0)
        close(dfd);
    if (step != NULL && !renamed)
        unlink(tmp);
    return step;
}

/* The folder of path into a new userdata (on the stack): "." if none.
 * Returns NULL (and pushes nothing) when path names no file. */
static char *push_dir(lua_State *L, const char *path, size_t *base) {
    size_t plen = strlen(path), dirlen;
    char *dir;
    split_path(path, plen, &dirlen, base);
    if (*base == plen)
        return NULL;
    dir = (char *)lua_newuserdatauv(L, dirlen + 2, 0);
    if (dirlen == 0) {
        strcpy(dir, ".");
    } else {
        memcpy(dir, path, dirlen);
        dir[dirlen] = '\0';
    }
    return dir;
}

static int fail_step(lua_State *L, const char *path, const char *step, int err) {
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: %s failed: %s", path, step, strerror(err));
    return 2;
}

/* The file could not be made in its folder (the temporary file the
 * atomic write starts with is the program's business, not the user's). */
static int fail_create(lua_State *L, const char *path, const char *dir, int err) {
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: cannot create a file in the folder %s: %s", path, dir, strerror(err));
    return 2;
}

static int fs_write_atomic(lua_State *L) {
    size_t dlen, base, cap;
    const char *path = check_path(L, 1);
    const char *data = luaL_checklstring(L, 2, &dlen);
    const char *step;
    char *tmp, *dir;
    int fd, err = 0;
    /* All Lua allocation happens before any file exists, so no error can
     * be raised while a temp file or descriptor is live. */
    cap = strlen(path) + 64;
    tmp = (char *)lua_newuserdatauv(L, cap, 0);
    dir = push_dir(L, path, &base);
    if (dir == NULL) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: not a file name", path);
        return 2;
    }
    fd = create_temp(path, base, tmp, cap, dir, &err);
    if (fd < 0)
        return fail_create(L, path, dir, err);
    if ((err = write_all(fd, data, dlen)) != 0) {
        close(fd);
        unlink(tmp);
        return fail_step(L, path, "write", err);
    }
    step = finish_temp(fd, tmp, path, dir, &err);
    if (step != NULL)
        return fail_step(L, path, step, err);
    lua_pushboolean(L, 1);
    return 1;
}

/* ------------------------------------------------------------------ */
/* atomic: a file written in pieces, in place only when committed       */

/* The writer's user values: 1 the path, 2 the temp name (a buffer
 * userdata, filled before the file exists), 3 the folder. */
typedef struct {
    int fd;      /* the temp file, -1 once committed or aborted */
    int err;     /* the first write error, 0 if none */
} FsWriter;

static FsWriter *check_writer(lua_State *L) {
    return (FsWriter *)luaL_checkudata(L, 1, FS_WRITER);
}

static const char *writer_str(lua_State *L, int n) {
    lua_getiuservalue(L, 1, n);
    const char *s = n == 2 ? (const char *)lua_touserdata(L, -1) : lua_tostring(L, -1);
    lua_pop(L, 1);   /* still referenced by the writer */
    return s;
}

/* Closes and removes the temp file unless it is committed. */
static void writer_drop(lua_State *L, FsWriter *w) {
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
        unlink(writer_str(L, 2));
    }
}

static int fs_atomic(lua_State *L) {
    size_t base, cap;
    const char *path = check_path(L, 1);
    char *tmp, *dir;
    int err = 0;
    FsWriter *w;
    lua_settop(L, 1);
    w = (FsWriter *)lua_newuserdatauv(L, sizeof(FsWriter), 3);   /* 2 */
    w->fd = -1;
    w->err = 0;
    luaL_setmetatable(L, FS_WRITER);
    cap = strlen(path) + 64;
    tmp = (char *)lua_newuserdatauv(L, cap, 0);                  /* 3 */
    dir = push_dir(L, path, &base);                               /* 4 */
    if (dir == NULL) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: not a file name", path);
        return 2;
    }
    lua_pushstring(L, dir);
    lua_setiuservalue(L, 2, 3);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, 2, 1);
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 2, 2);
    /* No Lua allocation from here on: __gc can always remove the file. */
    {
        int fd = create_temp(path, base, tmp, cap, dir, &err);
        if (fd < 0)
            return fail_create(L, path, dir, err);
        w->fd = fd;
    }
    lua_settop(L, 2);
    return 1;
}

/* w:write(s, ...) -> w | nil, message. After a failure the writer keeps
 * the first error and writes nothing more. */
static int writer_write(lua_State *L) {
    FsWriter *w = check_writer(L);
    int n = lua_gettop(L);
    for (int i = 2; i <= n; i++)
        luaL_checkstring(L, i);
    if (w->fd < 0 && w->err == 0)
        return luaL_error(L, "write to a finished file");
    for (int i = 2; i <= n && w->err == 0; i++) {
        size_t len;
        const char *s = lua_tolstring(L, i, &len);
        w->err = write_all(w->fd, s, len);
    }
    if (w->err != 0)
        return fail_step(L, writer_str(L, 1), "write", w->err);
    lua_settop(L, 1);
    return 1;
}

/* w:commit() -> true | nil, message: the file is in place, whole, or the
 * old one is; no temp file is left either way. */
static int writer_commit(lua_State *L) {
    FsWriter *w = check_writer(L);
    const char *path = writer_str(L, 1);
    const char *step;
    int err = w->err, fd = w->fd;
    if (fd < 0 && err == 0)
        return luaL_error(L, "commit of a finished file");
    w->fd = -1;
    if (err != 0) {
        if (fd >= 0) {
            close(fd);
            unlink(writer_str(L, 2));
        }
        return fail_step(L, path, "write", err);
    }
    step = finish_temp(fd, writer_str(L, 2), path, writer_str(L, 3), &err);
    if (step != NULL)
        return fail_step(L, path, step, err);
    lua_pushboolean(L, 1);
    return 1;
}

/* w:abort(): the temp file is removed; the old file stays. */
static int writer_abort(lua_State *L) {
    writer_drop(L, check_writer(L));
    return 0;
}

static int writer_gc(lua_State *L) {
    writer_drop(L, check_writer(L));
    return 0;
}

static const luaL_Reg writer_methods[] = {
    {"write", writer_write},
    {"commit", writer_commit},
    {"abort", writer_abort},
    {NULL, NULL}
};

/* random_seed(): 53 random bits from the system (getrandom), never 0: a
 * whole number that JSON and JavaScript keep exactly. */
static int fs_random_seed(lua_State *L) {
    unsigned long long v = 0;
    size_t got = 0;
    while (got < sizeof v) {
        ssize_t n = getrandom((char *)&v + got, sizeof v - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return luaL_error(L, "cannot draw a seed from the system: %s", strerror(errno));
        got += (size_t)n;
    }
    v &= (1ULL << 53) - 1;
    if (v == 0)
        v = 1;
    lua_pushinteger(L, (lua_Integer)v);
    return 1;
}

/* ------------------------------------------------------------------ */

static int fs_exists(lua_State *L) {
    struct stat st;
    lua_pushboolean(L, stat(check_path(L, 1), &st) == 0);
    return 1;
}

/* Makes one folder; an existing folder is fine. 0 or an errno. */
static int mkdir_one(const char *dir) {
    struct stat st;
    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno == EEXIST) {
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        return ENOTDIR;
    }
    return errno;
}

/* mkdir(path) -> true | nil, "path: why": the folder and its parents as
 * needed (as `mkdir -p`, without a shell); an existing folder is fine. */
static int fs_mkdir(lua_State *L) {
    size_t len;
    const char *path = check_path(L, 1);
    char *buf;
    int err = 0;
    len = strlen(path);
    if (len == 0)
        return fail_errno(L, path, ENOENT);
    buf = (char *)lua_newuserdatauv(L, len + 1, 0);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len && err == 0; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            if (buf[i - 1] == '/')
                continue;                 /* "a//b" */
            buf[i] = '\0';
            err = mkdir_one(buf);
            if (i < len)
                buf[i] = '/';
        }
    }
    if (err != 0)
        return fail_errno(L, path, err);
    lua_pushboolean(L, 1);
    return 1;
}

typedef struct {
    const char *s;
    size_t len;
} Name;

static int name_cmp(const void *a, const void *b) {
    const Name *x = (const Name *)a, *y = (const Name *)b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    if (c != 0)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

static int fs_list(lua_State *L) {
    const char *path = check_path(L, 1);
    FsHandle *h;
    struct dirent *ent;
    lua_Integer n = 0;
    Name *names;
    lua_settop(L, 1);
    h = handle_new(L);                   /* 2 */
    h->dir = opendir(path);
    if (h->dir == NULL)
        return fail_errno(L, path, errno);
    lua_newtable(L);                     /* 3: unsorted names */
    for (;;) {
        errno = 0;
        ent = readdir(h->dir);
        if (ent == NULL)
            break;
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        lua_pushstring(L, ent->d_name);
        lua_rawseti(L, 3, ++n);
    }
    if (errno != 0) {
        int err = errno;
        handle_close(h);
        return fail_errno(L, path, err);
    }
    handle_close(h);
    names = (Name *)lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(Name), 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 3, i);
        names[i - 1].s = lua_tolstring(L, -1, &names[i - 1].len);
        lua_pop(L, 1); /* still referenced by table 3 */
    }
    qsort(names, (size_t)n, sizeof(Name), name_cmp);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_pushlstring(L, names[i - 1].s, names[i - 1].len);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

/* dirname("a/b/c") = "a/b", dirname("c") = ".", dirname("/c") = "/" */
static int fs_dirname(lua_State *L) {
    size_t len, i;
    const char *p = luaL_checklstring(L, 1, &len);
    i = len;
    while (i > 1 && p[i - 1] == '/') /* trailing slashes */
        i--;
    while (i > 0 && p[i - 1] != '/') /* last component */
        i--;
    if (i == 0) {
        lua_pushstring(L, len > 0 && p[0] == '/' ? "/" : ".");
        return 1;
    }
    while (i > 1 && p[i - 1] == '/') /* slashes before it */
        i--;
    lua_pushlstring(L, p, i);
    return 1;
}

/* basename("a/b/c.json") = "c.json", basename("a/b/") = "b" */
static int fs_basename(lua_State *L) {
    size_t len, end, start;
    const char *p = luaL_checklstring(L, 1, &len);
    end = len;
    while (end > 1 && p[end - 1] == '/')
        end--;
    if (end == 1 && p[0] == '/') {
        lua_pushliteral(L, "/");
        return 1;
    }
    start = end;
    while (start > 0 && p[start - 1] != '/')
        start--;
    lua_pushlstring(L, p + start, end - start);
    return 1;
}

static int fs_realpath(lua_State *L) {
    const char *path = check_path(L, 1);
    char buf[PATH_MAX];
    if (realpath(path, buf) == NULL)
        return fail_errno(L, path, errno);
    lua_pushstring(L, buf);
    return 1;
}

static int fs_mtime(lua_State *L) {
    const char *path = check_path(L, 1);
    struct stat st;
    if (stat(path, &st) != 0)
        return fail_errno(L, path, errno);
    lua_pushinteger(L, (lua_Integer)st.st_mtime);
    return 1;
}

/* stat(path) -> { type = "file"|"directory"|"other", size = n }, following
 * links; or nil and "path: reason". It opens nothing. */
static int fs_stat(lua_State *L) {
    const char *path = check_path(L, 1);
    struct stat st;
    if (stat(path, &st) != 0)
        return fail_errno(L, path, errno);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "directory" : "other");
    lua_setfield(L, -2, "type");
    lua_pushinteger(L, (lua_Integer)st.st_size);
    lua_setfield(L, -2, "size");
    return 1;
}

/* hash(s): FNV-1a, 64 bits, as 16 hex digits: tells whether a file
 * changed (not a defence against someone forging one). */
static int fs_hash(lua_State *L) {
    size_t len;
    const unsigned char *p = (const unsigned char *)luaL_checklstring(L, 1, &len);
    unsigned long long h = 0xcbf29ce484222325ULL;
    char hex[17];
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    snprintf(hex, sizeof hex, "%016llx", h);
    lua_pushlstring(L, hex, 16);
    return 1;
}

/* fs.read_line(file, max) -> line, bytes | nil: the next line of the Lua
 * file handle `file` (its "\n" left out) and its length in bytes. Only
 * its first max + 1 bytes are kept and the rest counted, so a line of
 * hundreds of MiB costs no memory (kontor serve's requests: a line over
 * its limit is one error, not the end of the session). nil at the end of
 * the file with nothing read; a read error raises. The bytes are read in
 * chunks with the file locked, and the lock released before each chunk
 * goes into Lua's buffer (whose memory error would otherwise leave it
 * held). A pipe's line is taken as its bytes come: no read waits for
 * more than the line. */
static int fs_read_line(lua_State *L) {
    luaL_Stream *s = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    lua_Integer max = luaL_checkinteger(L, 2);
    luaL_argcheck(L, s->closef != NULL, 1, "a closed file");
    luaL_argcheck(L, max >= 0 && max < ((lua_Integer)1 << 40), 2, "a length 0..2^40 expected");
    FILE *f = s->f;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_Integer total = 0;
    int c = 0;
    char chunk[4096];
    for (;;) {
        size_t n = 0;
        flockfile(f);
        while (n < sizeof chunk && (c = getc_unlocked(f)) != EOF && c != '\n')
            chunk[n++] = (char)c;
        funlockfile(f);
        if (total <= max) {
            lua_Integer room = max + 1 - total;
            luaL_addlstring(&b, chunk, (lua_Integer)n < room ? n : (size_t)room);
        }
        total += (lua_Integer)n;
        if (n < sizeof chunk) break;                    /* a "\n" or the end */
    }
    if (c == EOF && ferror(f)) return luaL_error(L, "read_line: %s", strerror(errno));
    if (c == EOF && total == 0) {
        lua_pushnil(L);
        return 1;
    }
    luaL_pushresult(&b);
    lua_pushinteger(L, total);
    return 2;
}

static const luaL_Reg fs_funcs[] = {
    {"stat", fs_stat},
    {"hash", fs_hash},
    {"read", fs_read},
    {"write_atomic", fs_write_atomic},
    {"atomic", fs_atomic},
    {"random_seed", fs_random_seed},
    {"exists", fs_exists},
    {"mkdir", fs_mkdir},
    {"list", fs_list},
    {"dirname", fs_dirname},
    {"basename", fs_basename},
    {"realpath", fs_realpath},
    {"mtime", fs_mtime},
    {"read_line", fs_read_line},
    {NULL, NULL}
};

void kn_open_fs(lua_State *L) {
    luaL_checkstack(L, 3, NULL);
    if (luaL_newmetatable(L, FS_HANDLE)) {
        lua_pushcfunction(L, handle_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    if (luaL_newmetatable(L, FS_WRITER)) {
        lua_pushcfunction(L, writer_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, writer_gc);
        lua_setfield(L, -2, "__close");
        luaL_newlib(L, writer_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlib(L, fs_funcs);
    lua_setfield(L, -2, "fs");
}
