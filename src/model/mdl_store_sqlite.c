/* The SQLite asset store (mdl_store.h): one database file in WAL mode with
 * full synchronous commits, so an acknowledged publication survives a
 * crash of the process or the machine, and a publication that had not
 * committed leaves nothing behind. Every publication is one BEGIN
 * IMMEDIATE transaction: the write lock is taken before the alias head is
 * read, so the comparison and the commit cannot interleave with another
 * publisher, in this process or another. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "model/mdl_receipts.h"
#include "model/mdl_store.h"

#define BUSY_TIMEOUT_MS 30000

typedef struct sqlite_store {
    mdl_store base;
    sqlite3 *db;
} sqlite_store;

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS documents("
    "  name TEXT PRIMARY KEY, saved BLOB NOT NULL);"
    "CREATE TABLE IF NOT EXISTS assets("
    "  id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('Prop', 'Character')));"
    "CREATE TABLE IF NOT EXISTS revisions("
    "  asset INTEGER NOT NULL REFERENCES assets(id), revision INTEGER NOT NULL,"
    "  document TEXT NOT NULL, source BLOB NOT NULL, source_sha256 TEXT NOT NULL,"
    "  glb BLOB NOT NULL, glb_sha256 TEXT NOT NULL, PRIMARY KEY (asset, revision));"
    "CREATE TABLE IF NOT EXISTS aliases("
    "  name TEXT PRIMARY KEY, asset INTEGER NOT NULL REFERENCES assets(id),"
    "  head INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ledger("
    "  document TEXT NOT NULL, request_id TEXT NOT NULL, PRIMARY KEY (document, request_id));";

static int store_fault(sqlite_store *s, anim_model_fault *fault, const char *what)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "store_failed",
                             "asset store: %s: %s", what, sqlite3_errmsg(s->db));
}

static int exec(sqlite_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void rollback(sqlite_store *s)
{
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Prepares sql; NULL after store_fault. */
static sqlite3_stmt *prepare(sqlite_store *s, const char *sql, anim_model_fault *fault)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_fault(s, fault, "prepare");
        return NULL;
    }
    return st;
}

/* The alias's asset, kind and head; 0 found, 1 absent, -1 error. */
static int alias_lookup(sqlite_store *s, const char *alias, uint64_t *asset, char kind[16],
                        uint64_t *head, anim_model_fault *fault)
{
    sqlite3_stmt *st = prepare(s, "SELECT a.asset, s.kind, a.head FROM aliases a "
                                  "JOIN assets s ON s.id = a.asset WHERE a.name = ?1", fault);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, alias, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int out = -1;
    if (rc == SQLITE_ROW) {
        *asset = (uint64_t)sqlite3_column_int64(st, 0);
        snprintf(kind, 16, "%s", (const char *)sqlite3_column_text(st, 1));
        *head = (uint64_t)sqlite3_column_int64(st, 2);
        out = 0;
    } else if (rc == SQLITE_DONE) {
        out = 1;
    } else {
        store_fault(s, fault, "reading the alias");
    }
    sqlite3_finalize(st);
    return out;
}

static int step_done(sqlite_store *s, sqlite3_stmt *st, anim_model_fault *fault, const char *what)
{
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_fault(s, fault, what);
}

static int write_revision(sqlite_store *s, const mdl_publication *p, uint64_t asset,
                          uint64_t revision, mdl_revision *out, anim_model_fault *fault)
{
    sqlite3_stmt *st = prepare(s, "INSERT INTO revisions(asset, revision, document, source, "
                                  "source_sha256, glb, glb_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                               fault);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)asset);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)revision);
    sqlite3_bind_text(st, 3, p->document, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(st, 4, p->source_len ? p->source : "", p->source_len, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, out->source_sha256, 64, SQLITE_STATIC);
    sqlite3_bind_blob64(st, 6, p->glb_len ? p->glb : "", p->glb_len, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, out->glb_sha256, 64, SQLITE_STATIC);
    if (step_done(s, st, fault, "writing the revision") != 0)
        return -1;
    st = prepare(s, "INSERT INTO documents(name, saved) VALUES (?1, ?2) "
                    "ON CONFLICT(name) DO UPDATE SET saved = excluded.saved", fault);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, p->document, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(st, 2, p->saved_len ? p->saved : "", p->saved_len, SQLITE_STATIC);
    if (step_done(s, st, fault, "writing the document") != 0)
        return -1;
    for (size_t i = 0; i < p->ledger_count; i++) {
        st = prepare(s, "INSERT OR IGNORE INTO ledger(document, request_id) VALUES (?1, ?2)",
                     fault);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, p->document, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, p->ledger[i], -1, SQLITE_STATIC);
        if (step_done(s, st, fault, "writing the request-id ledger") != 0)
            return -1;
    }
    return 0;
}

static int sqlite_publish(mdl_store *base, const mdl_publication *p, mdl_revision *out,
                          anim_model_fault *fault)
{
    sqlite_store *s = (sqlite_store *)base;
    memset(out, 0, sizeof *out);
    anim_sha256_hex(p->source_len ? p->source : "", p->source_len, out->source_sha256);
    anim_sha256_hex(p->glb_len ? p->glb : "", p->glb_len, out->glb_sha256);
    snprintf(out->kind, sizeof out->kind, "%s", p->kind);
    if (exec(s, "BEGIN IMMEDIATE") != 0)
        return store_fault(s, fault, "starting the publication");
    uint64_t asset = 0, head = 0;
    char kind[16] = "";
    int found = alias_lookup(s, p->alias, &asset, kind, &head, fault);
    int rc = -1;
    if (found < 0)
        goto out;
    if (found == 1 && !p->expect_absent) {
        mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "alias_conflict",
                          "alias \"%s\" does not exist; publish with \"expected_alias\": null to "
                          "create it", p->alias);
        goto out;
    }
    if (found == 0 && (p->expect_absent || head != p->expected_head)) {
        mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "alias_conflict",
                          "alias \"%s\" is at head %" PRIu64 ", not %s: another publication "
                          "won; read model.revisions and publish again", p->alias, head,
                          p->expect_absent ? "absent" : "the expected head");
        char data[64];
        snprintf(data, sizeof data, "{\"alias_head\":\"%" PRIu64 "\"}", head);
        anim_strbuf_puts(&fault->data, data);
        goto out;
    }
    if (found == 0 && strcmp(kind, p->kind) != 0) {
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "asset_kind",
                          "alias \"%s\" is a %s asset; this document compiles to a %s", p->alias,
                          kind, p->kind);
        goto out;
    }
    sqlite3_stmt *st;
    if (found == 1) {
        st = prepare(s, "INSERT INTO assets(kind) VALUES (?1)", fault);
        if (!st)
            goto out;
        sqlite3_bind_text(st, 1, p->kind, -1, SQLITE_STATIC);
        if (step_done(s, st, fault, "creating the asset") != 0)
            goto out;
        asset = (uint64_t)sqlite3_last_insert_rowid(s->db);
        head = 0;
    }
    uint64_t revision = head + 1;
    if (write_revision(s, p, asset, revision, out, fault) != 0)
        goto out;
    st = prepare(s, found == 1 ? "INSERT INTO aliases(name, asset, head) VALUES (?1, ?2, ?3)"
                               : "UPDATE aliases SET head = ?3 WHERE name = ?1 AND asset = ?2",
                 fault);
    if (!st)
        goto out;
    sqlite3_bind_text(st, 1, p->alias, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)asset);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)revision);
    if (step_done(s, st, fault, "moving the alias") != 0)
        goto out;
    if (exec(s, "COMMIT") != 0) {
        store_fault(s, fault, "committing the publication");
        goto out;
    }
    out->asset = asset;
    out->revision = revision;
    out->alias_head = revision;
    return 0;
out:
    rollback(s);
    return rc;
}

static void read_revision(sqlite3_stmt *st, mdl_revision *r)
{
    memset(r, 0, sizeof *r);
    r->asset = (uint64_t)sqlite3_column_int64(st, 0);
    snprintf(r->kind, sizeof r->kind, "%s", (const char *)sqlite3_column_text(st, 1));
    r->revision = (uint64_t)sqlite3_column_int64(st, 2);
    r->alias_head = (uint64_t)sqlite3_column_int64(st, 3);
    snprintf(r->source_sha256, sizeof r->source_sha256, "%s",
             (const char *)sqlite3_column_text(st, 4));
    snprintf(r->glb_sha256, sizeof r->glb_sha256, "%s", (const char *)sqlite3_column_text(st, 5));
}

static int unknown_alias(anim_model_fault *fault, const char *alias)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "unknown_alias",
                             "alias \"%s\" does not exist in the asset store", alias);
}

/* alias_head of a listed revision: the head the alias had right after it
 * was published, which is the revision itself. */
static int sqlite_revisions(mdl_store *base, const char *alias, mdl_revision **out, size_t *n,
                            anim_model_fault *fault)
{
    sqlite_store *s = (sqlite_store *)base;
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = prepare(s, "SELECT r.asset, s.kind, r.revision, r.revision, "
                                  "r.source_sha256, r.glb_sha256 FROM aliases a "
                                  "JOIN assets s ON s.id = a.asset "
                                  "JOIN revisions r ON r.asset = a.asset AND r.revision <= a.head "
                                  "WHERE a.name = ?1 ORDER BY r.revision",
                               fault);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, alias, -1, SQLITE_STATIC);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            mdl_revision *g = realloc(*out, cap * sizeof *g);
            if (!g) {
                sqlite3_finalize(st);
                free(*out);
                *out = NULL;
                return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                                         "out of memory");
            }
            *out = g;
        }
        read_revision(st, &(*out)[(*n)++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return store_fault(s, fault, "listing revisions");
    }
    if (*n == 0)
        return unknown_alias(fault, alias);
    return 0;
}

static int sqlite_head_source(mdl_store *base, const char *alias, anim_strbuf *source,
                              mdl_revision *rev, anim_model_fault *fault)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_stmt *st = prepare(s, "SELECT r.asset, s.kind, r.revision, a.head, r.source_sha256, "
                                  "r.glb_sha256, r.source FROM aliases a "
                                  "JOIN assets s ON s.id = a.asset "
                                  "JOIN revisions r ON r.asset = a.asset AND r.revision = a.head "
                                  "WHERE a.name = ?1",
                               fault);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, alias, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int out = -1;
    if (rc == SQLITE_ROW) {
        read_revision(st, rev);
        const void *blob = sqlite3_column_blob(st, 6);
        int len = sqlite3_column_bytes(st, 6);
        anim_strbuf_append(source, blob ? blob : "", (size_t)len);
        char sha[65];
        anim_sha256_hex(blob ? blob : "", (size_t)len, sha);
        /* The stored hash is checked on the way out: a damaged row is
         * refused rather than opened. */
        if (strcmp(sha, rev->source_sha256) != 0)
            mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "store_failed",
                              "asset store: alias \"%s\" revision %" PRIu64
                              ": the source does not match its SHA-256",
                              alias, rev->revision);
        else
            out = source->failed ? mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL,
                                                     "out_of_memory", "out of memory")
                                 : 0;
    } else if (rc == SQLITE_DONE) {
        unknown_alias(fault, alias);
    } else {
        store_fault(s, fault, "reading the source");
    }
    sqlite3_finalize(st);
    return out;
}

static int sqlite_ledger(mdl_store *base, const char *document, char ***ids, size_t *n,
                         anim_model_fault *fault)
{
    sqlite_store *s = (sqlite_store *)base;
    *ids = NULL;
    *n = 0;
    /* BINARY collation orders like strcmp, the order the session keeps. */
    sqlite3_stmt *st = prepare(s, "SELECT request_id FROM ledger WHERE document = ?1 "
                                  "ORDER BY request_id COLLATE BINARY", fault);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, document, -1, SQLITE_STATIC);
    size_t cap = 0;
    int rc;
    bool ok = true;
    while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **g = realloc(*ids, cap * sizeof *g);
            ok = g != NULL;
            if (g)
                *ids = g;
        }
        const char *t = (const char *)sqlite3_column_text(st, 0);
        char *copy = ok && t ? malloc(strlen(t) + 1) : NULL;
        ok = ok && copy;
        if (copy) {
            memcpy(copy, t, strlen(t) + 1);
            (*ids)[(*n)++] = copy;
        }
    }
    sqlite3_finalize(st);
    if (ok && rc == SQLITE_DONE)
        return 0;
    for (size_t i = 0; i < *n; i++)
        free((*ids)[i]);
    free(*ids);
    *ids = NULL;
    *n = 0;
    return ok ? store_fault(s, fault, "reading the ledger")
              : mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
}

static void sqlite_close(mdl_store *base)
{
    sqlite_store *s = (sqlite_store *)base;
    if (!s)
        return;
    sqlite3_close(s->db);
    free(s);
}

/* Switches the database to WAL and confirms it (a file system without
 * shared memory answers the old mode, and the store refuses to run without
 * the durability it promises). Two servers opening a new store at once
 * both hold a shared lock while each asks for the exclusive one the switch
 * needs; SQLite answers SQLITE_BUSY at once rather than run the busy
 * handler into that deadlock, so a busy answer is retried, backing off,
 * within the busy timeout. */
static int enter_wal(sqlite_store *s, int *refused)
{
    int waited = 0, pause = 1;
    for (;;) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
        int is_wal = 0;
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(st);
            const char *mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
            is_wal = mode && strcmp(mode, "wal") == 0;
            *refused = mode && !is_wal;
        }
        sqlite3_finalize(st);
        if (is_wal)
            return 0;
        int busy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
        if (!busy || waited >= BUSY_TIMEOUT_MS)
            return -1;
        sqlite3_sleep(pause);
        waited += pause;
        pause = pause < 64 ? pause * 2 : 64;
    }
}

/* Creates the tables inside one write transaction: taking the write lock
 * first (and waiting for it) keeps a second server creating the same new
 * store from upgrading a read that the first one's commit made stale. */
static int create_schema(sqlite_store *s)
{
    if (exec(s, "BEGIN IMMEDIATE") != 0)
        return -1;
    if (exec(s, SCHEMA) != 0 || exec(s, "COMMIT") != 0) {
        rollback(s);
        return -1;
    }
    return 0;
}

static const mdl_store_ops SQLITE_OPS = {
    .publish = sqlite_publish,
    .revisions = sqlite_revisions,
    .head_source = sqlite_head_source,
    .ledger = sqlite_ledger,
    .close = sqlite_close,
};

mdl_store *mdl_store_open_sqlite(const char *path, anim_error *err)
{
    sqlite_store *s = calloc(1, sizeof *s);
    if (!s) {
        anim_error_set(err, ANIM_ERR_NOMEM, "asset store %s: out of memory", path);
        return NULL;
    }
    s->base.ops = &SQLITE_OPS;
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                               SQLITE_OPEN_FULLMUTEX, NULL);
    const char *why = NULL;
    int wal_refused = 0;
    if (rc != SQLITE_OK)
        why = "cannot open";
    else if (sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS) != SQLITE_OK ||
             enter_wal(s, &wal_refused) != 0 || exec(s, "PRAGMA synchronous=FULL") != 0 ||
             exec(s, "PRAGMA foreign_keys=ON") != 0)
        why = "cannot configure";
    else if (create_schema(s) != 0)
        why = "is not an animsmith asset store";
    if (why) {
        anim_error_set(err, ANIM_ERR_IO, "asset store %s: %s: %s", path, why,
                       wal_refused ? "the file system cannot hold its write-ahead log"
                       : s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    return &s->base;
}
