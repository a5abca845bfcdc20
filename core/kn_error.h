/*
 * kn_error.h - the return codes every core function uses.
 * Zero is success; failures are small negative numbers, so a caller can
 * test `if (rc < 0)` and print kn_strerror(rc).
 */
#ifndef KN_ERROR_H
#define KN_ERROR_H

enum {
    KN_OK = 0,
    KN_ENOMEM = -1,  /* an allocation failed */
    KN_EEMPTY = -2,  /* took from an empty pile */
    KN_ERANGE = -3,  /* index or value out of its allowed range */
    KN_EINVAL = -4   /* malformed argument (bad visibility, bad hex state) */
};

const char *kn_strerror(int rc);

#endif
