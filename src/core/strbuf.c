/* anim_strbuf: output is assembled in memory and written once. */
#include "animsmith/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void anim_strbuf_free(anim_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
}

void anim_strbuf_reset(anim_strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

bool anim_strbuf_reserve(anim_strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (extra > SIZE_MAX - sb->len - 1) {
        sb->failed = true;
        return false;
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void anim_strbuf_append_grow(anim_strbuf *sb, const void *data, size_t len)
{
    if (!anim_strbuf_reserve(sb, len))
        return;
    if (len)
        memcpy(sb->data + sb->len, data, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void anim_strbuf_puts(anim_strbuf *sb, const char *s)
{
    anim_strbuf_append(sb, s, strlen(s));
}

void anim_strbuf_vprintf(anim_strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        sb->failed = true;
        return;
    }
    if (!anim_strbuf_reserve(sb, (size_t)n))
        return;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void anim_strbuf_printf(anim_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    anim_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}
