/* Errors that name the object: every fallible function fills one of these. */
#ifndef ANIMSMITH_ERROR_H
#define ANIMSMITH_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Broad classes; the CLI maps all of them to exit 2 (operator error). */
typedef enum {
    ANIM_OK = 0,
    ANIM_ERR_IO,          /* cannot read / write a file */
    ANIM_ERR_PARSE,       /* malformed JSON, TOML, GLB framing */
    ANIM_ERR_INVALID,     /* well-formed but violates glTF rules */
    ANIM_ERR_UNSUPPORTED, /* valid but outside what we decode exactly */
    ANIM_ERR_LIMIT,       /* a size or depth limit was exceeded */
    ANIM_ERR_NOMEM,
    ANIM_ERR_USAGE        /* bad argument from the caller */
} anim_error_code;

#define ANIM_ERROR_MESSAGE_MAX 1024

typedef struct anim_error {
    anim_error_code code;
    char message[ANIM_ERROR_MESSAGE_MAX];
} anim_error;

/* Sets code and a printf-formatted message; always returns -1 so callers
 * can write `return anim_error_set(err, ...)`. err may be NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int anim_error_set(anim_error *err, anim_error_code code, const char *fmt, ...);

int anim_error_setv(anim_error *err, anim_error_code code, const char *fmt, va_list ap);

/* Prepends "prefix: " to an existing message (for adding outer context such
 * as the file path while keeping the inner object naming). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void anim_error_prefix(anim_error *err, const char *fmt, ...);

void anim_error_clear(anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
