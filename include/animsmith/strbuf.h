/* Growable byte string (git's strbuf idea): output is built here and
 * written at once, so a failure never leaves partial output. */
#ifndef ANIMSMITH_STRBUF_H
#define ANIMSMITH_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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
/* The growing path of anim_strbuf_append. */
void anim_strbuf_append_grow(anim_strbuf *sb, const void *data, size_t len);
void anim_strbuf_puts(anim_strbuf *sb, const char *s);

/* Appends run in line while the bytes fit: a report is millions of short
 * appends, and a call per append was a tenth of lint's time. */
static inline void anim_strbuf_append(anim_strbuf *sb, const void *data, size_t len)
{
    /* cap - len >= 1 whenever data is set (the NUL), so this is
     * len + sb->len + 1 <= cap without overflow. */
    if (sb->data && !sb->failed && len < sb->cap - sb->len) {
        if (len)
            memcpy(sb->data + sb->len, data, len);
        sb->len += len;
        sb->data[sb->len] = '\0';
        return;
    }
    anim_strbuf_append_grow(sb, data, len);
}

static inline void anim_strbuf_putc(anim_strbuf *sb, char c)
{
    if (sb->data && !sb->failed && sb->cap - sb->len > 1) {
        sb->data[sb->len++] = c;
        sb->data[sb->len] = '\0';
        return;
    }
    anim_strbuf_append_grow(sb, &c, 1);
}
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void anim_strbuf_printf(anim_strbuf *sb, const char *fmt, ...);
void anim_strbuf_vprintf(anim_strbuf *sb, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif
#endif
