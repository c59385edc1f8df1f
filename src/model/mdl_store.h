/* The asset store behind model.publish, model.revisions and model.open by
 * alias: a narrow interface (five calls) so that a second backend (a
 * shared PostgreSQL database, docs/model-store.md) replaces one file.
 *
 * What it keeps: documents (the saved bytes of a published document, by
 * name), assets (`Prop` or `Character`), asset revisions (the source
 * snapshot and the compiled GLB, with their SHA-256, written in one
 * transaction), aliases (name -> asset and head revision) and the
 * request-id ledger of published documents. A publication compares the
 * alias head it expects (or the declared absence of the alias) inside the
 * transaction that commits, so of two racing publishers exactly one wins
 * and the other gets a typed conflict. */
#ifndef ANIMSMITH_MDL_STORE_H
#define ANIMSMITH_MDL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/model.h"
#include "animsmith/strbuf.h"

#define MDL_ALIAS_MAX 128

/* What one revision is, as replies report it. */
typedef struct mdl_revision {
    uint64_t asset;
    char kind[16];            /* "Prop" or "Character" */
    uint64_t revision;        /* 1, 2, ... per asset */
    uint64_t alias_head;      /* the alias's head after it: the revision */
    char source_sha256[65];
    char glb_sha256[65];
} mdl_revision;

typedef struct mdl_publication {
    const char *alias;
    bool expect_absent;       /* the alias must not exist yet */
    uint64_t expected_head;   /* else its head must be this */
    const char *kind;
    const char *document;     /* name, with its saved bytes */
    const void *saved;
    size_t saved_len;
    const void *source;       /* snapshot bytes */
    size_t source_len;
    const void *glb;
    size_t glb_len;
    char **ledger;            /* the document's consumed request ids */
    size_t ledger_count;
} mdl_publication;

typedef struct mdl_store mdl_store;

typedef struct mdl_store_ops {
    /* Commits one revision, or refuses: alias_conflict (the head moved or
     * the alias exists or is absent against expectation), asset_kind (a
     * Prop alias given a Character or the reverse), store_failed. */
    int (*publish)(mdl_store *st, const mdl_publication *p, mdl_revision *out,
                   anim_model_fault *fault);
    /* An alias's revisions, oldest first (malloc'd; *n 0 and -1 with
     * unknown_alias when it does not exist). */
    int (*revisions)(mdl_store *st, const char *alias, mdl_revision **out, size_t *n,
                     anim_model_fault *fault);
    /* The source snapshot of the alias's head revision. */
    int (*head_source)(mdl_store *st, const char *alias, anim_strbuf *source, mdl_revision *rev,
                       anim_model_fault *fault);
    /* The request ids recorded for a document name, sorted byte-wise
     * (malloc'd strings in a malloc'd array). */
    int (*ledger)(mdl_store *st, const char *document, char ***ids, size_t *n,
                  anim_model_fault *fault);
    void (*close)(mdl_store *st);
} mdl_store_ops;

struct mdl_store {
    const mdl_store_ops *ops;
};

/* Opens (creating) a SQLite store in WAL mode; NULL with err set. */
mdl_store *mdl_store_open_sqlite(const char *path, anim_error *err);

#endif
