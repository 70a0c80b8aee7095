/* harness/cmd/cli.h — top-level command-line dispatch. */
#ifndef TAIKAI_HARNESS_CLI_H
#define TAIKAI_HARNESS_CLI_H
int tk_cli_main(int argc, char **argv);
#endif
