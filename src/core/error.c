/* anim_error: a code plus one message that names the object and index. */
#include "animsmith/error.h"

#include <stdio.h>
#include <string.h>

int anim_error_setv(anim_error *err, anim_error_code code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    }
    return -1;
}

int anim_error_set(anim_error *err, anim_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    anim_error_setv(err, code, fmt, ap);
    va_end(ap);
    return -1;
}

void anim_error_prefix(anim_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    /* Room for both parts; the result is truncated to the message size. */
    char joined[2 * ANIM_ERROR_MESSAGE_MAX + 2];
    snprintf(joined, sizeof joined, "%s: %s", prefix, err->message);
    memcpy(err->message, joined, ANIM_ERROR_MESSAGE_MAX - 1);
    err->message[ANIM_ERROR_MESSAGE_MAX - 1] = '\0';
}

void anim_error_clear(anim_error *err)
{
    if (err) {
        err->code = ANIM_OK;
        err->message[0] = '\0';
    }
}
