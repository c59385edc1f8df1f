/* generate import-advice: scaffolding, replaced by the advice generator. */
#include "cli.h"

int cmd_generate_import_advice(int argc, char **argv, const cli_globals *globals)
{
    (void)argc;
    (void)argv;
    (void)globals;
    return cli_operator_error("generate import-advice: not built yet");
}
