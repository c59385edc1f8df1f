/* Runtime-node selectors ([runtime_nodes] selectors): an exact name
 * or `*` glob resolves against the *named* source nodes in source (glTF
 * node index) order, and a resolved node is reported by its source path,
 * `#0(pelvis)/#3(weapon_socket)`, so an inherited factor can be traced to
 * the ancestor that carries it. Private to the checks layer.
 *
 * Every glTF node is a bone, so the node and bone namespaces
 * coincide in the document: a "node" here is addressed by its bone index
 * and its source index is anim_bone.node. */
#ifndef ANIMSMITH_CHECKS_NODE_SELECTOR_H
#define ANIMSMITH_CHECKS_NODE_SELECTOR_H

#include <stdint.h>

#include "animsmith/doc.h"
#include "animsmith/strbuf.h"

/* Writes to out (capacity doc->node_count) the bone indices of the named
 * nodes whose name matches selector by the glob rule, in
 * ascending source node index order, and returns how many matched. Nodes
 * without an authored name (shown as `node{i}`) never match. */
uint32_t node_selector_match(const anim_doc *doc, const char *selector, uint32_t *out);

/* Appends the source path of bone b: components `#{source index}({name})`
 * (`<unnamed>` for a node without a name) from the source root down to the
 * node, joined by `/`. Names are raw; output layers escape them. */
void node_selector_path(const anim_doc *doc, uint32_t bone, anim_strbuf *out);

#endif
