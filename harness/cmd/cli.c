/* harness/cmd/cli.c — `taikai COMMAND ...`: the command table (the shared commands, then each
 * game's own, tk_game.commands), --help and --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "game.h"

#ifndef TAIKAI_VERSION
#define TAIKAI_VERSION "0.1.0"
#endif

const tk_command tk_commands[] = {
    {"hand", "shanten, waits, effective tiles and the score of a mahjong hand", tk_cmd_hand},
    {"bench", "speed benchmarks (taikai bench --help)", tk_cmd_bench},
    {"run", "play a tournament from a JSON spec (taikai run --help)", tk_cmd_run},
    {"merge", "join the shards of `taikai run --shard K/N` into one run (taikai merge --help)",
     tk_cmd_merge},
    {"verify", "check a run folder by playing a sample of its units again (taikai verify --help)",
     tk_cmd_verify},
    {"plugins", "list the agent plugins taikai can load", tk_cmd_plugins},
    {"report", "a run's results beside a published table (taikai report --help)", tk_cmd_report},
    {"ratings", "Plackett-Luce ratings of the agents of one game's runs (taikai ratings --help)",
     tk_cmd_ratings},
    {"gate", "is a candidate stronger, or not weaker? a sequential test (taikai gate --help)",
     tk_cmd_gate},
    {"replay", "check game logs of `taikai run --logs` against their engine (taikai replay --help)",
     tk_cmd_replay},
    {"records", "what the decision records of `taikai run --records` hold (taikai records --help)",
     tk_cmd_records},
    {"schema", "the JSON Schema of a tournament spec, every game's rules in it", tk_cmd_schema},
    {NULL, NULL, NULL},
};

static void usage(FILE *f) {
  fprintf(f, "usage: taikai COMMAND [ARGS...]\n\ncommands:\n");
  for (const tk_command *c = tk_commands; c->name; c++) fprintf(f, "  %-9s %s\n", c->name, c->summary);
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    for (const tk_game_command *c = (*g)->commands; c && c->name; c++)
      fprintf(f, "  %-9s %s\n", c->name, c->summary);
  fprintf(f, "\n`taikai COMMAND --help` describes each command. taikai %s\n", TAIKAI_VERSION);
}

int tk_cli_main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("taikai %s\n", TAIKAI_VERSION);
    return 0;
  }
  for (const tk_command *c = tk_commands; c->name; c++)
    if (!strcmp(argv[1], c->name)) return c->main(argc - 1, argv + 1);
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    for (const tk_game_command *c = (*g)->commands; c && c->name; c++)
      if (!strcmp(argv[1], c->name)) return c->main(argc - 1, argv + 1);
  fprintf(stderr, "taikai: unknown command '%s' (see taikai --help)\n", argv[1]);
  return 2;
}
