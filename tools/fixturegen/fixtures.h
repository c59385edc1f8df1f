/* Every example asset: one builder function per file. */
#ifndef ANIMSMITH_FIXTUREGEN_FIXTURES_H
#define ANIMSMITH_FIXTUREGEN_FIXTURES_H

#include "builder.h"

/* Each fills a fresh builder with one document (docs/fixtures.md). */
typedef void (*fg_recipe)(fg_builder *b);

void fg_clip_clean(fg_builder *b);
void fg_clip_dirty(fg_builder *b);
void fg_walk_clean(fg_builder *b);
void fg_walk_dirty(fg_builder *b);

void fg_walk_short_channel(fg_builder *b);
void fg_walk_travel(fg_builder *b);
void fg_walk_frozen_arm(fg_builder *b);
void fg_walk_scaled(fg_builder *b);
void fg_run_ring(fg_builder *b);
void fg_report_comparison_before(fg_builder *b);
void fg_report_comparison_after(fg_builder *b);

#endif
