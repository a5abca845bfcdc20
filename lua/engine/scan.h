/*
 * scan.h - the source scan: rule-script text the loader refuses before
 * Lua's compiler sees it (lua/engine/scan.c).
 */
#ifndef KONTOR_SCAN_H
#define KONTOR_SCAN_H

#include <stddef.h>

#define KN_MAX_SOURCE ((size_t)1 << 20)    /* bytes of one rule script */
#define KN_MAX_LINE ((size_t)64 << 10)     /* bytes of one source line */
#define KN_MAX_CHAIN 200                   /* t.x.y[z]... links in a row */
#define KN_MAX_CONSTANTS 255               /* per function using ~ & | << >> */

/* NULL if the text may be compiled; else why not, with the line it is
 * about in *line (0: the whole text). The message is static: copy it
 * before the next call. */
const char *kn_check_source(const char *src, size_t len, size_t *line);

#endif
