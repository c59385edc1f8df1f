/* Directory operands of lint and measure: a directory stands for every
 * asset file under it, recursively, in byte-wise path order, so a run over
 * a folder is reproducible on every machine. Symlinks are followed, but a
 * directory is entered at most once (by device and inode), so a link back
 * up the tree cannot loop. Names starting with '.' (.git, editor and build
 * scratch) are not searched. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/path.h"
#include "args.h"
#include "cli.h"

/* The extensions a directory search picks up (ASCII case-insensitive).
 * A new input format is one more line here. */
static const char *const asset_extensions[] = {
    ".glb",
    ".gltf",
    ".fbx",
    NULL,
};

static bool is_asset_name(const char *name)
{
    for (size_t e = 0; asset_extensions[e]; e++)
        if (anim_path_has_extension(name, asset_extensions[e]))
            return true;
    return false;
}

/* Directories already entered, an open-addressing set of (dev, ino). */
typedef struct {
    struct {
        dev_t dev;
        ino_t ino;
        bool used;
    } *slots;
    size_t cap, count;
} dir_set;

static size_t slot_of(const dir_set *s, dev_t dev, ino_t ino)
{
    uint64_t h = ((uint64_t)dev * 0x9e3779b97f4a7c15u) ^ ((uint64_t)ino * 0xff51afd7ed558ccdu);
    size_t i = (size_t)(h ^ (h >> 29)) & (s->cap - 1);
    while (s->slots[i].used && !(s->slots[i].dev == dev && s->slots[i].ino == ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* 1 when newly added, 0 when already there, -1 out of memory. */
static int dir_set_add(dir_set *s, dev_t dev, ino_t ino)
{
    if ((s->count + 1) * 2 > s->cap) {
        dir_set grown = {NULL, s->cap ? s->cap * 2 : 64, 0};
        grown.slots = calloc(grown.cap, sizeof *grown.slots);
        if (!grown.slots)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].used) {
                size_t j = slot_of(&grown, s->slots[i].dev, s->slots[i].ino);
                grown.slots[j] = s->slots[i];
                grown.count++;
            }
        free(s->slots);
        *s = grown;
    }
    size_t i = slot_of(s, dev, ino);
    if (s->slots[i].used)
        return 0;
    s->slots[i].used = true;
    s->slots[i].dev = dev;
    s->slots[i].ino = ino;
    s->count++;
    return 1;
}

static char *join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] == '/';
    char *p = malloc(dl + nl + 2);
    if (p) {
        memcpy(p, dir, dl);
        if (!slash)
            p[dl++] = '/';
        memcpy(p + dl, name, nl + 1);
    }
    return p;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (dot names left out), sorted byte-wise, so the walk --
 * and which spelling of a directory reached twice is kept -- does not
 * depend on the file system's listing order. 0 or 2 (printed). */
static int list_dir(const char *dir, cli_list *names)
{
    DIR *d = opendir(dir);
    if (!d)
        return cli_operator_error("cannot read directory %s: %s", dir, strerror(errno));
    int rc = 0;
    struct dirent *ent;
    while (rc == 0 && (ent = readdir(d)))
        if (ent->d_name[0] != '.' && cli_list_add(names, ent->d_name))
            rc = cli_operator_error("out of memory");
    closedir(d);
    if (rc == 0 && names->count > 1) /* an empty directory has no array to sort */
        qsort(names->items, names->count, sizeof *names->items, by_bytes);
    return rc;
}

/* Adds the assets under dir (already entered) to files; 0 or 2 (printed). */
static int walk(const char *dir, dir_set *seen, cli_list *files)
{
    cli_list names = {NULL, 0, 0};
    int rc = list_dir(dir, &names);
    for (size_t i = 0; rc == 0 && i < names.count; i++) {
        const char *name = names.items[i];
        char *path = join(dir, name);
        struct stat st;
        if (!path) {
            rc = cli_operator_error("out of memory");
        } else if (stat(path, &st) != 0) {
            /* A dangling link or a file gone since the listing: an asset
             * name is still handed to the loader, which names the failure. */
            if (is_asset_name(name) && cli_list_add(files, path))
                rc = cli_operator_error("out of memory");
        } else if (S_ISDIR(st.st_mode)) {
            int added = dir_set_add(seen, st.st_dev, st.st_ino);
            if (added < 0)
                rc = cli_operator_error("out of memory");
            else if (added)
                rc = walk(path, seen, files);
        } else if (S_ISREG(st.st_mode) && is_asset_name(name) && cli_list_add(files, path)) {
            rc = cli_operator_error("out of memory");
        }
        free(path);
    }
    cli_list_free(&names);
    return rc;
}

int cli_expand_inputs(const cli_list *operands, cli_list *files)
{
    dir_set seen = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < operands->count; i++) {
        const char *op = operands->items[i];
        struct stat st;
        if (stat(op, &st) != 0 || !S_ISDIR(st.st_mode)) {
            /* Files (and unreadable names) are the loader's to judge. */
            if (cli_list_add(files, op))
                rc = cli_operator_error("out of memory");
            continue;
        }
        size_t first = files->count;
        if (dir_set_add(&seen, st.st_dev, st.st_ino) < 0)
            rc = cli_operator_error("out of memory");
        else
            rc = walk(op, &seen, files);
        if (rc == 0 && files->count == first) {
            char wanted[64] = "";
            for (size_t e = 0; asset_extensions[e]; e++)
                snprintf(wanted + strlen(wanted), sizeof wanted - strlen(wanted), "%s%s",
                         e == 0 ? "" : asset_extensions[e + 1] ? ", " : " or ",
                         asset_extensions[e]);
            rc = cli_operator_error("%s: no %s file in this directory or below", op, wanted);
        }
        if (rc == 0)
            qsort(files->items + first, files->count - first, sizeof *files->items, by_bytes);
        /* The same directory named twice is searched twice, as a file
         * named twice is linted twice: operands are taken as given. */
        free(seen.slots);
        seen = (dir_set){NULL, 0, 0};
    }
    free(seen.slots);
    return rc;
}
