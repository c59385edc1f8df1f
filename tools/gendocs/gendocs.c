/* animsmith-gendocs OUT_DIR: writes the man page (OUT_DIR/doc/animsmith.1)
 * and the bash, zsh and fish completions (OUT_DIR/completions/) from the
 * CLI's own option table (src/cli/options.c) and the check catalog, at
 * build time, so the documentation cannot drift from what the parsers
 * accept. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/lint.h"
#include "animsmith_version.h"
#include "gendocs.h"
#include "options.h"

static int usage(FILE *out, int code)
{
    fputs("usage: animsmith-gendocs OUT_DIR\n\n"
          "Writes OUT_DIR/doc/animsmith.1 and OUT_DIR/completions/{animsmith.bash,_animsmith,\n"
          "animsmith.fish} from the animsmith option table. Run by the build.\n",
          out);
    return code;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "animsmith-gendocs: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

/* Opens OUT_DIR/sub/name for writing, creating sub. */
static FILE *open_out(const char *dir, const char *sub, const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, sub);
    if (make_dir(path))
        return NULL;
    snprintf(path, size, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "animsmith-gendocs: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

const char *gendocs_version(void)
{
    return ANIMSMITH_VERSION_STRING;
}

const char *gendocs_check_ids(void)
{
    static char ids[2048];
    if (!ids[0])
        for (size_t c = 0; c < anim_check_count(); c++)
            snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", c ? " " : "",
                     anim_check_at(c)->id);
    return ids;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(stdout, 0);
    if (argc != 2 || argv[1][0] == '-' || !argv[1][0])
        return usage(stderr, 2);
    const char *dir = argv[1];
    if (make_dir(dir))
        return 1;
    static const struct {
        const char *sub, *name;
        void (*write)(FILE *out);
    } outputs[] = {
        {"doc", "animsmith.1", gendocs_write_man},
        {"completions", "animsmith.bash", gendocs_write_bash},
        {"completions", "_animsmith", gendocs_write_zsh},
        {"completions", "animsmith.fish", gendocs_write_fish},
    };
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
        char path[4096];
        FILE *f = open_out(dir, outputs[i].sub, outputs[i].name, path, sizeof path);
        if (!f)
            return 1;
        outputs[i].write(f);
        if (ferror(f) | fclose(f)) {
            fprintf(stderr, "animsmith-gendocs: writing %s failed\n", path);
            return 1;
        }
    }
    return 0;
}
