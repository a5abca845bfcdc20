/*
 * chunks.h - the engine's own Lua modules (lua/kontor/, the .lua files of repl/),
 * compiled at build time and linked into the program (build/gen/chunks.c,
 * written by repl/gen/lua_chunks.c), so that starting the program does not
 * compile them again.
 *
 * A chunk is used only while the file it was compiled from is unchanged:
 * the program's searcher (repl/main.c) finds the file as `require` would,
 * and takes the chunk when the file's length and hash are the ones below;
 * otherwise the text is loaded as before. The chunks keep their debug
 * information (lines, local names); the name of the file in them is
 * replaced when loading by the path the text would have had, so messages
 * and tracebacks read as if the text had been loaded.
 *
 * The shipped rule scripts (variants/) are among them, for sandbox.load
 * (lua/engine/sandbox.c, kn_sandbox_compiled): a rule script may come from
 * anyone, and the hash below is no defence against someone who forges a
 * text to match it, so their chunks also carry the text itself, and a rule
 * script's text gets the chunk only when it is that text, byte for byte.
 */
#ifndef KN_CHUNKS_H
#define KN_CHUNKS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct kn_chunk {
    const char *path;            /* relative to the home: "lua/kontor/rules.lua" */
    size_t src_len;              /* the length of the text it was compiled from */
    uint64_t src_hash;           /* kn_chunk_hash of that text */
    const char *src;             /* the text itself for a rule script of
                                    variants/, NULL for the engine's own */
    const unsigned char *code;   /* lua_dump's output, debug information kept */
    size_t code_len;
    size_t name_at, name_end;    /* code[name_at, name_end): the file name (a
                                    length, then the bytes) that loading replaces */
};

extern const struct kn_chunk kn_chunks[];
extern const size_t kn_nchunks;

/* A hash of a file's text, 8 bytes a step (not for adversaries: whoever
 * can change the engine's files runs what they like anyway). */
static inline uint64_t kn_chunk_hash(const unsigned char *p, size_t n) {
    const uint64_t prime = 0x100000001b3ULL;
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * prime;
        h ^= h >> 31;
    }
    for (; i < n; i++) h = (h ^ p[i]) * prime;
    return h ^ (h >> 29);
}

/* A string's length as lua_dump writes it (ldump.c, dumpSize): 7 bits a
 * byte, most significant first, the last byte marked with 0x80. Writes at
 * most 10 bytes to out; returns how many. */
static inline size_t kn_chunk_dump_size(unsigned char *out, size_t x) {
    unsigned char rev[16];
    size_t n = 0;
    do {
        rev[n++] = (unsigned char)(x & 0x7f);
        x >>= 7;
    } while (x != 0);
    for (size_t i = 0; i < n; i++) out[i] = rev[n - 1 - i];
    out[n - 1] |= 0x80;
    return n;
}

#endif
