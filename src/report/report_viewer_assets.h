/* The viewer's CSS and JS, embedded at build time from src/report/viewer
 * (cmake/embed_viewer.cmake): the scripts joined in file-name order. */
#ifndef ANIMSMITH_REPORT_VIEWER_ASSETS_H
#define ANIMSMITH_REPORT_VIEWER_ASSETS_H

#include <stddef.h>

extern const char anim_report_viewer_css[];
extern const size_t anim_report_viewer_css_len;
extern const char anim_report_viewer_js[];
extern const size_t anim_report_viewer_js_len;

#endif
