/* Regression tests for defects found in review of src/io and src/core. */
#define _DEFAULT_SOURCE 1 /* syscall(2) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "animsmith/atomic_write.h"
#include "animsmith/error.h"

/* The library is linked statically, so this definition replaces libc's
 * umask for it: the test can see whether the writer ever changes the
 * process-wide umask (which races with every other thread creating files;
 * lint and measure run files on several threads). */
static int umask_changes;

mode_t umask(mode_t mask)
{
    mode_t old = (mode_t)syscall(SYS_umask, mask);
    if (mask != old)
        umask_changes++;
    return old;
}

static void temp_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/animsmith-io-review-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void atomic_write_leaves_umask_alone(void **state)
{
    (void)state;
    char dir[64], path[128];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.json", dir);
    mode_t old = (mode_t)syscall(SYS_umask, 022);
    umask_changes = 0;
    anim_error err = {0};
    assert_int_equal(anim_write_file_atomic(path, "{}\n", 3, &err), 0);
    assert_int_equal(umask_changes, 0);

    /* Still the mode fopen would give: 0666 minus the umask. */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    /* Replacing an existing file, and no temporary left behind. */
    assert_int_equal(anim_write_file_atomic(path, "[]\n", 3, &err), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[8] = {0};
    assert_int_equal(fread(buf, 1, sizeof buf, f), 3);
    fclose(f);
    assert_string_equal(buf, "[]\n");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s | grep -v '^out.json$')\"", dir);
    assert_int_equal(system(cmd), 0);

    syscall(SYS_umask, old);
    unlink(path);
    rmdir(dir);
}

static void atomic_write_reports_missing_directory(void **state)
{
    (void)state;
    anim_error err = {0};
    assert_int_equal(anim_write_file_atomic("/nonexistent-animsmith-dir/x.json", "x", 1, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent-animsmith-dir/x.json"));
    assert_non_null(strstr(err.message, "temporary file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atomic_write_leaves_umask_alone),
        cmocka_unit_test(atomic_write_reports_missing_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
