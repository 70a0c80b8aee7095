/* harness/cmd/main.c — `taikai` entry point: dispatches to the subcommands of harness/cmd/cli.c. */
#include "cli.h"

int main(int argc, char **argv) { return tk_cli_main(argc, argv); }
