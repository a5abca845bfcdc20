/*
 * lua_chunks.c - a build tool: compiles the engine's own Lua modules and
 * writes them as C (build/gen/chunks.c, linked into the program; see
 * repl/chunks.h).
 *
 *   build/gen/lua_chunks lua/kontor/init.lua repl/cli.lua ... > chunks.c
 *
 * Run from the source tree: each path is the one the program finds the
 * file under, relative to its home. It links the same Lua as the program,
 * so the chunks are in the format the program reads. It checks what the
 * program's loader relies on: the file's name is written once in a chunk,
 * and a chunk whose name is replaced loads and carries the new name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "../chunks.h"

struct buf {
    unsigned char *p;
    size_t n, cap;
};

static void buf_add(struct buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) {
            fprintf(stderr, "lua_chunks: out of memory\n");
            exit(1);
        }
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static int writer(lua_State *L, const void *p, size_t n, void *ud) {
    (void)L;
    buf_add(ud, p, n);
    return 0;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    struct buf b = { 0 };
    unsigned char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf_add(&b, tmp, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b.p);
        return NULL;
    }
    buf_add(&b, "", 1);
    *len = b.n - 1;
    return b.p;
}

/* Where the name "@path" is in the chunk: [at, end) holds its length and
 * bytes; fails unless it is there exactly once. */
static int find_name(const struct buf *code, const char *name, size_t *at, size_t *end) {
    unsigned char want[4200];
    size_t len = strlen(name);
    if (len > 4096) return 0;
    size_t k = kn_chunk_dump_size(want, len + 1);
    memcpy(want + k, name, len);
    k += len;
    int found = 0;
    for (size_t i = 0; i + k <= code->n; i++) {
        if (memcmp(code->p + i, want, k) == 0) {
            if (found++) return 0;
            *at = i;
            *end = i + k;
        }
    }
    return found == 1;
}

struct pieces {
    const char *part[3];
    size_t len[3];
    int i;
};

static const char *pieces_reader(lua_State *L, void *ud, size_t *size) {
    (void)L;
    struct pieces *p = ud;
    while (p->i < 3 && p->len[p->i] == 0) p->i++;
    if (p->i == 3) return NULL;
    *size = p->len[p->i];
    return p->part[p->i++];
}

/* The chunk with another name loads, and its main function has that name. */
static int renames(lua_State *L, const struct buf *code, size_t at, size_t end) {
    static const char other[] = "@/a/path/the/loader/puts/here.lua";
    unsigned char name[64];
    size_t k = kn_chunk_dump_size(name, sizeof other);
    memcpy(name + k, other, sizeof other - 1);
    struct pieces p = { { (const char *)code->p, (const char *)name, (const char *)code->p + end },
                        { at, k + sizeof other - 1, code->n - end }, 0 };
    if (lua_load(L, pieces_reader, &p, "=check", "b") != LUA_OK) return 0;
    lua_Debug ar;
    lua_getinfo(L, ">S", &ar);
    return strcmp(ar.source, other) == 0;
}

static void put_bytes(const unsigned char *p, size_t n) {
    size_t col = 0;
    fputs("    \"", stdout);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
            putchar(c);
            col += 1;
        } else {
            printf("\\%03o", c);
            col += 4;
        }
        if (col >= 72 && i + 1 < n) {
            fputs("\"\n    \"", stdout);
            col = 0;
        }
    }
    fputs("\";\n", stdout);
}

int main(int argc, char **argv) {
    lua_State *L = luaL_newstate();
    if (L == NULL) return 1;
    printf("/* Written by repl/gen/lua_chunks.c from the files it names: do not edit. */\n"
           "#include \"chunks.h\"\n\n");
    for (int i = 1; i < argc; i++) {
        if (strpbrk(argv[i], "\"\\?\n") != NULL) {
            fprintf(stderr, "lua_chunks: %s: a path to write in C without escapes is expected\n", argv[i]);
            return 1;
        }
        size_t len;
        unsigned char *text = read_file(argv[i], &len);
        if (text == NULL) {
            fprintf(stderr, "lua_chunks: cannot read %s\n", argv[i]);
            return 1;
        }
        lua_pushfstring(L, "@%s", argv[i]);
        const char *name = lua_tostring(L, -1);
        if (luaL_loadbufferx(L, (const char *)text, len, name, "t") != LUA_OK) {
            fprintf(stderr, "lua_chunks: %s\n", lua_tostring(L, -1));
            return 1;
        }
        struct buf code = { 0 };
        if (lua_dump(L, writer, &code, 0) != 0) {
            fprintf(stderr, "lua_chunks: %s: cannot dump the chunk\n", argv[i]);
            return 1;
        }
        size_t at, end;
        if (!find_name(&code, name, &at, &end) || !renames(L, &code, at, end)) {
            fprintf(stderr, "lua_chunks: %s: the chunk's file name is not where the program's "
                            "loader replaces it (another Lua version?)\n", argv[i]);
            return 1;
        }
        printf("static const unsigned char code%d[] =\n", i);
        put_bytes(code.p, code.n);
        /* a rule script's text, which sandbox.load compares byte for byte */
        if (strncmp(argv[i], "variants/", 9) == 0) {
            printf("static const char src%d[] =\n", i);
            put_bytes(text, len);
            printf("#define SRC%d src%d\n", i, i);
        } else {
            printf("#define SRC%d NULL\n", i);
        }
        lua_settop(L, 0);
        free(code.p);
        printf("#define LEN%d %zuu\n#define HASH%d 0x%016llxULL\n#define AT%d %zuu\n#define END%d %zuu\n\n",
               i, len, i, (unsigned long long)kn_chunk_hash(text, len), i, at, i, end);
        free(text);
    }
    printf("const struct kn_chunk kn_chunks[] = {\n");
    for (int i = 1; i < argc; i++)
        printf("    { \"%s\", LEN%d, HASH%d, SRC%d, code%d, sizeof code%d - 1, AT%d, END%d },\n",
               argv[i], i, i, i, i, i, i, i);
    if (argc < 2) printf("    { \"\", 0, 0, NULL, (const unsigned char *)\"\", 0, 0, 0 },\n");
    printf("};\nconst size_t kn_nchunks = %d;\n", argc - 1);
    lua_close(L);
    return 0;
}
