/* The persistence self-check: with ANIMSMITH_MODEL_SELFCHECK=1 in the
 * environment (the test suite sets it), every document version a batch
 * produces is encoded, decoded and encoded again, and every open document
 * is saved and reopened after each committed edit; any difference aborts
 * the process with a message, so every document any test builds is also a
 * round-trip test of the saved formats. Off, it costs one getenv. */
#ifndef ANIMSMITH_MDL_SELFCHECK_H
#define ANIMSMITH_MDL_SELFCHECK_H

#include "model/mdl_doc.h"
#include "model/mdl_session.h"

void mdl_selfcheck_doc(const mdl_doc *d);
void mdl_selfcheck_session(const mdl_session *s);

#endif
