/* Growable byte string (git's strbuf idea): output is built here and
 * written at once, so a failure never leaves partial output. */
#ifndef ANIMSMITH_STRBUF_H
#define ANIMSMITH_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct anim_strbuf {
    char *data;    /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    bool failed;   /* sticky: set when an allocation failed */
} anim_strbuf;

#define ANIM_STRBUF_INIT {NULL, 0, 0, false}

void anim_strbuf_free(anim_strbuf *sb);
void anim_strbuf_reset(anim_strbuf *sb);
bool anim_strbuf_reserve(anim_strbuf *sb, size_t extra);
void anim_strbuf_append(anim_strbuf *sb, const void *data, size_t len);
void anim_strbuf_puts(anim_strbuf *sb, const char *s);
void anim_strbuf_putc(anim_strbuf *sb, char c);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void anim_strbuf_printf(anim_strbuf *sb, const char *fmt, ...);
void anim_strbuf_vprintf(anim_strbuf *sb, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif
#endif
