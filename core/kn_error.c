/*
 * kn_error.c - texts for the return codes of kn_error.h.
 */
#include "kn_error.h"

const char *kn_strerror(int rc)
{
    switch (rc) {
    case KN_OK:     return "success";
    case KN_ENOMEM: return "not enough memory";
    case KN_EEMPTY: return "the pile is empty";
    case KN_ERANGE: return "index or value out of range";
    case KN_EINVAL: return "invalid argument";
    default:        return "unknown error";
    }
}
