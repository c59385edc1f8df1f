/* Every example asset: one builder function per file. */
#ifndef ANIMSMITH_FIXTUREGEN_FIXTURES_H
#define ANIMSMITH_FIXTUREGEN_FIXTURES_H

#include "builder.h"
#include "fbx_writer.h"

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

/* FBX assets: a recipe fills a fresh FBX record tree for the given file
 * version; the table pairs each file with its recipe and encoding. */
typedef void (*fg_fbx_recipe)(fbxw_doc *d, uint32_t version);
typedef struct fg_fbx_asset {
    const char *file;
    fg_fbx_recipe recipe;
    fbxw_format format;
} fg_fbx_asset;
extern const fg_fbx_asset fg_fbx_assets[];
extern const size_t fg_fbx_asset_count;

void fg_fbx_mixamo_walk(fbxw_doc *d, uint32_t version);
void fg_fbx_zup_metres(fbxw_doc *d, uint32_t version);
void fg_fbx_segment_scale(fbxw_doc *d, uint32_t version);

/* The static prop (fbx_assets_static.c), in a table of its own. */
extern const fg_fbx_asset fg_fbx_static_assets[];
extern const size_t fg_fbx_static_asset_count;
void fg_fbx_static_prop(fbxw_doc *d, uint32_t version);

/* The engine-prediction rigs (fbx_engine_assets.c), in a table of their own. */
extern const fg_fbx_asset fg_fbx_engine_assets[];
extern const size_t fg_fbx_engine_asset_count;
void fg_fbx_unity_root(fbxw_doc *d, uint32_t version);
void fg_fbx_unreal_boundary(fbxw_doc *d, uint32_t version);

#endif
