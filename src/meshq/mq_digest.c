/* The source mesh's identity: sha256 over its canonical JSON, so a report
 * names the bytes it was measured against, whatever order the request or
 * file wrote them in. */
#include <stdio.h>
#include <string.h>

#include "animsmith/hash.h"
#include "meshq/mq.h"

int anim_mq_mesh_digest(const anim_mq_mesh *mesh, const char *const *bone_names,
                        char out[ANIM_MQ_DIGEST_MAX], anim_error *err)
{
    anim_strbuf sb = {0};
    anim_strbuf_puts(&sb, "{\"points\":[");
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        anim_strbuf_puts(&sb, v ? ",[" : "[");
        for (uint32_t d = 0; d < mesh->dim; d++) {
            if (d)
                anim_strbuf_putc(&sb, ',');
            mq_put_js_number(&sb, mesh->points[(size_t)v * mesh->dim + d]);
        }
        anim_strbuf_putc(&sb, ']');
    }
    anim_strbuf_puts(&sb, "],\"uvs\":[");
    for (size_t i = 0; i < (size_t)mesh->vertex_count * 2; i++) {
        if (i)
            anim_strbuf_putc(&sb, ',');
        mq_put_js_number(&sb, mesh->uvs[i]);
    }
    anim_strbuf_puts(&sb, "],\"triangles\":[");
    for (size_t i = 0; i < (size_t)mesh->triangle_count * 3; i++)
        anim_strbuf_printf(&sb, i ? ",%u" : "%u", mesh->triangles[i]);
    anim_strbuf_printf(&sb, "],\"hull\":%u,\"weights\":", mesh->hull);
    if (!mesh->bind_start) {
        anim_strbuf_puts(&sb, "null");
    } else {
        anim_strbuf_putc(&sb, '[');
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            anim_strbuf_puts(&sb, v ? ",[" : "[");
            for (uint32_t b = mesh->bind_start[v]; b < mesh->bind_start[v + 1]; b++) {
                if (b > mesh->bind_start[v])
                    anim_strbuf_putc(&sb, ',');
                anim_strbuf_puts(&sb, "{\"bone\":");
                mq_put_js_string(&sb, bone_names[mesh->binds[b].bone]);
                anim_strbuf_puts(&sb, ",\"weight\":");
                mq_put_js_number(&sb, mesh->binds[b].weight);
                anim_strbuf_putc(&sb, '}');
            }
            anim_strbuf_putc(&sb, ']');
        }
        anim_strbuf_putc(&sb, ']');
    }
    anim_strbuf_putc(&sb, '}');
    if (sb.failed) {
        anim_strbuf_free(&sb);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory writing the source mesh's digest");
    }
    char hex[65];
    anim_sha256_hex(sb.data, sb.len, hex);
    snprintf(out, ANIM_MQ_DIGEST_MAX, "sha256:%s", hex);
    anim_strbuf_free(&sb);
    return 0;
}
