/* `--help` for every libFuzzer target. libFuzzer itself only knows
 * `-help=1` and passes arguments starting with "--" through, so without this
 * `fuzz_gltf --help` would start an endless fuzzing session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    for (int i = 1; i < *argc; i++) {
        const char *a = (*argv)[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            const char *name = strrchr((*argv)[0], '/');
            name = name ? name + 1 : (*argv)[0];
            printf("usage: %s [libFuzzer flags] [CORPUS_DIR...] [INPUT_FILE...]\n"
                   "\n"
                   "A libFuzzer target of animsmith (see fuzz/README.md). Common flags:\n"
                   "  -runs=N             stop after N inputs\n"
                   "  -max_total_time=S   stop after S seconds\n"
                   "  -help=1             libFuzzer's own list of flags\n"
                   "  -h, --help          print this help and exit\n",
                   name);
            exit(0);
        }
    }
    return 0;
}
