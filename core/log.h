/*
 * log.h - an append-only event log of text lines.
 *
 * All lines live in one growing byte buffer, each followed by a NUL, with an
 * array of start offsets. Lines may contain any bytes (embedded NULs too);
 * their length is kept. A zeroed kn_log is an empty log; kn_log_free returns
 * a log to that state. Indexes are 0-based.
 */
#ifndef KN_LOG_H
#define KN_LOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct kn_log {
    char *buf;          /* the lines, each followed by '\0' */
    size_t len, cap;    /* bytes used / allocated in buf */
    size_t *off;        /* off[i] = start of line i in buf */
    uint32_t n, ocap;   /* lines / allocated offsets */
} kn_log;

void kn_log_init(kn_log *g);
void kn_log_free(kn_log *g);
/* Appends text[0..len-1] as one line. KN_ENOMEM (log unchanged). */
int kn_log_add(kn_log *g, const char *text, size_t len);
uint32_t kn_log_count(const kn_log *g);
/* Line i (NUL-terminated) and its length in *len (len may be NULL); NULL if
 * i >= count. The pointer is valid until the next add, truncate or free. */
const char *kn_log_get(const kn_log *g, uint32_t i, size_t *len);
/* Keeps the first n lines. KN_ERANGE if n > count. */
int kn_log_truncate(kn_log *g, uint32_t n);
/* Removes every line; keeps the memory. */
void kn_log_clear(kn_log *g);

#endif
