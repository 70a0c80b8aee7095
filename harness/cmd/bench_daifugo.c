/* harness/cmd/bench_daifugo.c — `taikai bench daifugo`: the daifugo engine's speed on one core.
 * Legal-move generation on positions sampled from random games, and random playouts (the paper's
 * policy: a uniformly random play, a pass only when nothing else is legal) of whole games from
 * dealt positions. Times are CPU seconds of this process (one thread). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "taikai/daifugo.h"

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int tk_bench_daifugo(int argc, char **argv) {
  long playouts = 1000000, positions = 100000;
  for (int i = 1; i < argc; i++) {
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: taikai bench daifugo [--playouts N] [--positions N]\n\n"
             "Generates the legal moves of N positions (default 100000) sampled from random games,\n"
             "20 times over, and plays N random playouts (default 1000000) of whole games from\n"
             "dealt positions (1000 deals, cycled), on one core. Prints generations and playouts\n"
             "per CPU second.\n");
      return 0;
    } else if (!strcmp(argv[i], "--playouts") && val) {
      playouts = atol(val), i++;
    } else if (!strcmp(argv[i], "--positions") && val) {
      positions = atol(val), i++;
    } else {
      fprintf(stderr, "taikai bench daifugo: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (playouts < 1 || positions < 1) {
    fprintf(stderr, "taikai bench daifugo: --playouts and --positions must be positive\n");
    return 2;
  }
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 1;
  enum { DEALS = 1000 };
  tk_daifugo_game *deals = malloc(sizeof *deals * DEALS);
  tk_daifugo_game *pos = malloc(sizeof *pos * (size_t)positions);
  tk_daifugo_legal *l = malloc(sizeof *l);
  tk_daifugo_block *b = malloc(sizeof *b);
  if (!deals || !pos || !l || !b) {
    fprintf(stderr, "taikai bench daifugo: out of memory\n");
    free(deals), free(pos), free(l), free(b);
    return 1;
  }
  for (int i = 0; i < DEALS; i++) {
    tk_daifugo_block_init(b, &rules, 1, (uint64_t)i, NULL);
    deals[i] = b->g;
  }
  /* Positions: every state met in random playouts from the deals. */
  tk_rng r;
  tk_rng_seed(&r, 42);
  long np = 0;
  for (int i = 0; np < positions; i++) {
    tk_daifugo_game g = deals[i % DEALS];
    while (!g.over && np < positions) {
      pos[np++] = g;
      tk_daifugo_game_legal(&g, l);
      int k = l->n > 1 ? 1 + (int)tk_rng_below(&r, (uint32_t)l->n - 1) : 0;
      tk_daifugo_game_play(&g, &l->a[k]);
    }
  }
  long moves = 0;
  double t0 = cpu_now();
  for (int rep = 0; rep < 20; rep++)
    for (long i = 0; i < positions; i++) moves += tk_daifugo_game_legal(&pos[i], l);
  double t1 = cpu_now();
  double gens = 20.0 * (double)positions;
  printf("daifugo: %.0f legal-move generations in %.2f s: %.2f M/s, %.0f ns each (%.1f actions per "
         "position)\n", gens, t1 - t0, gens / (t1 - t0) / 1e6, (t1 - t0) / gens * 1e9,
         (double)moves / gens);
  long plies = 0;
  t0 = cpu_now();
  for (long i = 0; i < playouts; i++) {
    tk_daifugo_game g = deals[i % DEALS];
    tk_daifugo_playout(&g, &r);
    plies += g.nout; /* keeps the playout from being optimised away */
  }
  t1 = cpu_now();
  printf("daifugo: %ld random playouts from dealt positions in %.2f s: %.0f playouts/s per core "
         "(%.2f us each; goal >= 500000/s)\n", playouts, t1 - t0, (double)playouts / (t1 - t0),
         (t1 - t0) / (double)playouts * 1e6);
  /* The length of a playout, counted apart (not timed): actions per game. */
  long acts = 0, n = playouts < 10000 ? playouts : 10000;
  for (long i = 0; i < n; i++) {
    tk_daifugo_game g = deals[i % DEALS];
    tk_daifugo_move m;
    for (; !g.over; acts++) {
      tk_daifugo_random_play(&g, &r, &m);
      tk_daifugo_game_play(&g, &m);
    }
  }
  printf("daifugo: %.1f actions (plays and passes) per playout\n", (double)acts / (double)n);
  if (plies != 5 * playouts) fprintf(stderr, "taikai bench daifugo: a playout did not finish\n");
  free(deals), free(pos), free(l), free(b);
  return plies == 5 * playouts ? 0 : 1;
}
