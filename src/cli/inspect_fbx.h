/* inspect's FBX section (text and JSON). */
#ifndef ANIMSMITH_CLI_INSPECT_FBX_H
#define ANIMSMITH_CLI_INSPECT_FBX_H

#include "animsmith/fbx.h"
#include "animsmith/json_write.h"
#include "animsmith/strbuf.h"

void cli_inspect_fbx_text(const anim_fbx_facts *facts, anim_strbuf *out);
void cli_inspect_fbx_json(anim_json_writer *w, const anim_fbx_facts *facts);

#endif
