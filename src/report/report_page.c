/* The HTML document around the data: one file with its stylesheet, its
 * viewer script and its data inline. A Content-Security-Policy forbids
 * every request (scripts and styles run only from the page itself), so
 * the report cannot reach the network even if something in it tried. */
#include <string.h>

#include "report/report_internal.h"
#include "report/report_viewer_assets.h"

const char report_evidence_notice[] =
    "Pose playback and illustrative blending are omitted in this evidence-only report. No "
    "sampled positions or local transforms are embedded.";

/* The embedded JSON with <, > and & escaped, so no byte sequence in a
 * name can close the script element or open a comment. They can only
 * occur inside JSON strings, where \u escapes mean the same. */
static void append_script_json(anim_strbuf *out, const anim_strbuf *json)
{
    size_t start = 0;
    for (size_t i = 0; i < json->len; i++) {
        const char *esc = NULL;
        switch (json->data[i]) {
        case '<':
            esc = "\\u003c";
            break;
        case '>':
            esc = "\\u003e";
            break;
        case '&':
            esc = "\\u0026";
            break;
        default:
            continue;
        }
        anim_strbuf_append(out, json->data + start, i - start);
        anim_strbuf_puts(out, esc);
        start = i + 1;
    }
    anim_strbuf_append(out, json->data + start, json->len - start);
}

static void render(const report_page *page, anim_strbuf *out)
{
    anim_strbuf_puts(out,
                     "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"animsmith\">\n<title>");
    anim_strbuf_puts(out, page->comparison ? "animsmith comparison: " : "animsmith report: ");
    report_xml_escape(out, page->title);
    anim_strbuf_puts(out, "</title>\n<style>\n");
    anim_strbuf_append(out, anim_report_viewer_css, anim_report_viewer_css_len);
    anim_strbuf_puts(out, "</style>\n</head>\n<body class=\"");
    anim_strbuf_puts(out, page->comparison ? "form-comparison" : "form-single");
    if (page->evidence_only)
        anim_strbuf_puts(out, " evidence-only");
    anim_strbuf_puts(out, "\">\n<header class=\"running-title\"><h1>");
    anim_strbuf_puts(out, page->comparison ? "Before/after comparison: " : "Clip report: ");
    report_xml_escape(out, page->title);
    anim_strbuf_puts(out,
                     "</h1>\n<p class=\"hint\">Drag to orbit, use the wheel to zoom, and click a "
                     "finding to jump to its frame.</p></header>\n"
                     "<main id=\"report\">\n<section id=\"viewer\" aria-label=\"Pose playback\">"
                     "<noscript><p class=\"notice\">The pose view and the finding links need "
                     "JavaScript; the findings are in the embedded data and the charts "
                     "below.</p></noscript></section>\n"
                     "<section id=\"findings\" aria-label=\"Findings, coverage gaps and "
                     "prediction facets\"></section>\n"
                     "<section id=\"charts\" aria-label=\"Charts\">\n");
    if (page->charts && page->charts->len)
        anim_strbuf_append(out, page->charts->data, page->charts->len);
    anim_strbuf_puts(out, "</section>\n</main>\n"
                          "<script type=\"application/json\" id=\"animsmith-report-data\">");
    append_script_json(out, page->data);
    anim_strbuf_puts(out, "</script>\n<script>\n(function () {\n\"use strict\";\n");
    anim_strbuf_append(out, anim_report_viewer_js, anim_report_viewer_js_len);
    anim_strbuf_puts(out, "})();\n</script>\n</body>\n</html>\n");
}

int report_page_render(const report_page *page, anim_strbuf *out, anim_error *err)
{
    if (page->data->failed || (page->charts && page->charts->failed))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    anim_strbuf html = ANIM_STRBUF_INIT;
    render(page, &html);
    if (!html.failed)
        anim_strbuf_append(out, html.data, html.len);
    bool failed = html.failed || out->failed;
    anim_strbuf_free(&html);
    return failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}
