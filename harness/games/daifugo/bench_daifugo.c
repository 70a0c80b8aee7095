/* harness/games/daifugo/bench_daifugo.c — `taikai bench daifugo`: the daifugo engine's speed on one core.
 * Legal-move generation on positions sampled from random games; random playouts (the paper's
 * policy: a uniformly random play, a pass only when nothing else is legal) of whole games from
 * dealt positions; the determinisation of mid-game views; and the work of one Monte Carlo
 * decision of the paper's size (1,500 times: determinise the view, play a candidate, play out),
 * against the goal of 5 ms. Times are CPU seconds of this process (one thread). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daifugo_cmd.h"
#include "opts.h"
#include "taikai/daifugo.h"

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum { VIEWS = 1000, MC_PLAYOUTS = 1500 };

/* Mid-game views: blocks of 10 games (exchanges included) between players drawing uniformly
 * among their plays (the pass only when forced; a uniformly random card in the exchange); every
 * third play decision whose player holds 4 to 8 cards. Returns the number collected. */
static int mid_game_views(tk_daifugo_view *v, tk_daifugo_legal *l, tk_daifugo_block *b) {
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 10;
  tk_rng r;
  tk_rng_seed(&r, 7);
  int n = 0, seen = 0;
  for (uint64_t blk = 0; n < VIEWS && blk < 10000; blk++) {
    tk_daifugo_block_init(b, &rules, 7, blk, NULL);
    while (n < VIEWS && !tk_daifugo_is_over(b)) {
      int p = tk_daifugo_to_act(b);
      tk_daifugo_legal_of(b, p, l);
      if (l->decision == TK_DAIFUGO_DECIDE_PLAY) {
        int cards = __builtin_popcountll(b->g.hand[p]);
        if (cards >= 4 && cards <= 8 && seen++ % 3 == 0) tk_daifugo_view_of(b, p, &v[n++]);
      }
      int plays = l->decision == TK_DAIFUGO_DECIDE_PLAY ? l->n - 1 : 0;
      int k = plays ? 1 + (int)tk_rng_below(&r, (uint32_t)plays)
                    : l->decision == TK_DAIFUGO_DECIDE_PLAY ? 0 : (int)tk_rng_below(&r, l->n);
      tk_daifugo_apply(b, p, &l->a[k], NULL);
    }
  }
  return n;
}

/* The determinisation, and the Monte Carlo decision equivalent (see --help). */
static int bench_decisions(long decisions, tk_daifugo_legal *l, tk_daifugo_block *b) {
  tk_daifugo_view *v = malloc(sizeof *v * VIEWS);
  if (!v) {
    fprintf(stderr, "taikai bench daifugo: out of memory\n");
    return 1;
  }
  int nv = mid_game_views(v, l, b);
  if (nv < VIEWS) {
    fprintf(stderr, "taikai bench daifugo: only %d mid-game views\n", nv);
    free(v);
    return 1;
  }
  tk_rng r;
  tk_rng_seed(&r, 99);
  tk_daifugo_game g;
  long fails = 0, keep = 0;
  double t0 = cpu_now();
  for (int rep = 0; rep < 100; rep++)
    for (int i = 0; i < nv; i++) fails += tk_daifugo_determinize(&v[i], &r, 20, &g) != 0, keep += g.nout;
  double t1 = cpu_now();
  double n = 100.0 * nv;
  printf("daifugo: %.0f determinizations of mid-game views in %.2f s: %.0f ns each\n", n, t1 - t0,
         (t1 - t0) / n * 1e9);
  long places = 0;
  t0 = cpu_now();
  for (long d = 0; d < decisions; d++) {
    const tk_daifugo_view *view = &v[d % nv];
    tk_daifugo_game tmpl;
    fails += tk_daifugo_determinize(view, &r, 20, &tmpl) != 0;
    tk_daifugo_game_legal(&tmpl, l);
    int first = l->lead ? 1 : 0, cands = l->n - first; /* the pass is no lead */
    for (int k = 0; k < MC_PLAYOUTS; k++) {
      fails += tk_daifugo_determinize(view, &r, 20, &g) != 0;
      tk_daifugo_game_play(&g, &l->a[first + k % cands]);
      tk_daifugo_playout(&g, &r);
      places += tk_daifugo_place_of(&g, view->player);
    }
  }
  t1 = cpu_now();
  printf("daifugo: %ld Monte Carlo decisions on mid-game views (%d x determinize, a candidate, a "
         "playout) in %.2f s: %.2f ms each (goal <= 5 ms), %.2f us per playout\n", decisions,
         MC_PLAYOUTS, t1 - t0, (t1 - t0) / (double)decisions * 1e3,
         (t1 - t0) / ((double)decisions * MC_PLAYOUTS) * 1e6);
  free(v);
  if (fails) fprintf(stderr, "taikai bench daifugo: %ld determinizations failed\n", fails);
  return fails || places < 0 || keep < 0 ? 1 : 0; /* uses the results */
}

int tk_bench_daifugo(int argc, char **argv) {
  uint64_t nplayouts = 1000000, npositions = 100000, ndecisions = 200;
  const tk_opt opts[] = {
      {.name = "playouts", .kind = TK_OPT_U64, .dest = &nplayouts, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "random playouts (default 1000000)"},
      {.name = "positions", .kind = TK_OPT_U64, .dest = &npositions, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "positions (default 100000)"},
      {.name = "decisions", .kind = TK_OPT_U64, .dest = &ndecisions, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "Monte Carlo decisions (default 200)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench daifugo", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1)
    printf("usage: taikai bench daifugo [--playouts N] [--positions N] [--decisions N]\n\n"
           "On one core, in CPU seconds:\n"
           "- the legal moves of N positions (default 100000) sampled from random games, 20 times;\n"
           "- N random playouts (default 1000000) of whole games from dealt positions (1000\n"
           "  deals, cycled): playouts per second, against the goal of 500000; then up to\n"
           "  100000 of the same games step by step (tk_daifugo_random_play and\n"
           "  tk_daifugo_game_play for every action, as an agent's own loop plays them);\n"
           "- the determinisation (tk_daifugo_determinize) of 1000 mid-game views (the player\n"
           "  to act holding 4 to 8 cards), 100 times each;\n"
           "- N Monte Carlo decisions (default 200) on those views, each 1500 times: determinise,\n"
           "  play a candidate (the legal plays in turn), play out (tk_daifugo_playout): time per\n"
           "  decision, against the goal of 5 ms.\n");
  if (prc) return prc == 1 ? 0 : 2;
  long playouts = (long)nplayouts, positions = (long)npositions, decisions = (long)ndecisions;
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
  /* The same games step by step, as an agent with its own loop plays them
   * (tk_daifugo_random_play and tk_daifugo_game_play for every action, passes included). */
  long acts = 0, n = playouts < 100000 ? playouts : 100000;
  t0 = cpu_now();
  for (long i = 0; i < n; i++) {
    tk_daifugo_game g = deals[i % DEALS];
    tk_daifugo_move m;
    for (; !g.over; acts++) {
      tk_daifugo_random_play(&g, &r, &m);
      tk_daifugo_game_play(&g, &m);
    }
  }
  t1 = cpu_now();
  printf("daifugo: %ld games step by step (random_play + game_play, %.1f actions each: plays and "
         "passes) in %.2f s: %.2f us each\n", n, (double)acts / (double)n, t1 - t0,
         (t1 - t0) / (double)n * 1e6);
  int rc = plies == 5 * playouts ? 0 : 1;
  if (rc) fprintf(stderr, "taikai bench daifugo: a playout did not finish\n");
  if (!rc) rc = bench_decisions(decisions, l, b);
  free(deals), free(pos), free(l), free(b);
  return rc;
}
