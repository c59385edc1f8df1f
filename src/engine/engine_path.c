/* The raw source-transform path grammar (root_motion_source, "Reference/
 * Root"): the node names of the source file from a top-level node down,
 * compared byte for byte. There is no escaping and no Unicode
 * normalization, so anything that could make two spellings look alike or
 * split differently (backslashes, "." and "..", empty segments, controls,
 * invisible format characters, invalid UTF-8) is refused up front rather
 * than matched loosely later. */
#include <stdint.h>
#include <string.h>

#include "animsmith/utf8.h"
#include "engine/engine_internal.h"

/* General category Cf (Unicode 15.1). */
static bool is_format_char(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
        {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
        {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
        {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
        {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
        {0xE0020, 0xE007F},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return true;
    return false;
}

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

const char *engine_path_problem(const char *s, size_t len, anim_arena *arena)
{
    if (len == 0)
        return "the path is empty";
    if (len > ANIM_ENGINE_PATH_MAX_BYTES)
        return "longer than 4096 bytes";
    if (s[0] == '/')
        return "it starts with \"/\"";
    if (s[len - 1] == '/')
        return "it ends with \"/\"";
    size_t segments = 0, seg_start = 0;
    for (size_t i = 0; i <= len;) {
        if (i == len || s[i] == '/') {
            size_t seg = i - seg_start;
            if (seg == 0)
                return "empty segment (\"//\")";
            if (seg > ANIM_ENGINE_PATH_MAX_SEGMENT)
                return "a segment is longer than 1024 bytes";
            if ((seg == 1 && s[seg_start] == '.') ||
                (seg == 2 && s[seg_start] == '.' && s[seg_start + 1] == '.'))
                return seg == 1 ? "\".\" segment" : "\"..\" segment";
            if (++segments > ANIM_ENGINE_PATH_MAX_SEGMENTS)
                return "more than 256 segments";
            i++;
            seg_start = i;
            continue;
        }
        uint32_t cp = 0;
        size_t k = anim_utf8_decode((const unsigned char *)s + i, len - i, &cp);
        if (k == 0)
            return "it is not valid UTF-8";
        if (cp == '\\')
            return "backslash (\"/\" is the only separator)";
        if (is_control(cp) || is_format_char(cp)) {
            const char *kind = is_control(cp) ? "control" : "Unicode format";
            const char *why =
                arena ? anim_arena_printf(arena, "%s character U+%04X", kind, (unsigned)cp) : NULL;
            return why ? why : "control or format character";
        }
        i += k;
    }
    return NULL;
}

bool anim_engine_path_valid(const char *s, size_t len)
{
    return s && engine_path_problem(s, len, NULL) == NULL;
}
