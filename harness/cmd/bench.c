/* harness/cmd/bench.c — `taikai bench NAME`: dispatch of the speed benchmarks (the
 * shared ones here, then each game's own, tk_game.benches). Speed goals live
 * here, never in timed tests; figures are recorded in README.md. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "game.h"

const tk_bench tk_benches[] = {
    {"shanten", "shanten of random 14- and 13-tile hands (ns per hand)", tk_bench_shanten},
    {"score", "scoring of random complete hands (hands per second)", tk_bench_score},
    {"pool", "worker pool: the parent's CPU per unit, the units' CPU spread, projected speed-up",
     tk_bench_pool},
    {NULL, NULL, NULL},
};

static void usage(FILE *f) {
  fprintf(f, "usage: taikai bench NAME [options]\n\nbenchmarks:\n");
  for (const tk_bench *b = tk_benches; b->name; b++) fprintf(f, "  %-10s %s\n", b->name, b->summary);
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    for (const tk_game_command *b = (*g)->benches; b && b->name; b++)
      fprintf(f, "  %-10s %s\n", b->name, b->summary);
  fprintf(f, "\n`taikai bench NAME --help` lists each one's options.\n");
}

int tk_cmd_bench(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(stdout);
    return 0;
  }
  for (const tk_bench *b = tk_benches; b->name; b++)
    if (!strcmp(argv[1], b->name)) return b->run(argc - 1, argv + 1);
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    for (const tk_game_command *b = (*g)->benches; b && b->name; b++)
      if (!strcmp(argv[1], b->name)) return b->main(argc - 1, argv + 1);
  fprintf(stderr, "taikai bench: unknown benchmark '%s' (see taikai bench --help)\n", argv[1]);
  return 2;
}
