/* generate: scaffolding, replaced by the generators' dispatcher. */
#include "cli.h"

int cmd_generate(int argc, char **argv, const cli_globals *globals)
{
    (void)argc;
    (void)argv;
    (void)globals;
    return cli_operator_error("generate: not built yet");
}
