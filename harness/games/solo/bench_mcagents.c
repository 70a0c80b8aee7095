/* harness/games/solo/bench_mcagents.c — `taikai bench mcagents`: speed of the one-player Monte Carlo agents
 * (plugins mc, komatsu, alpha), loaded as plugins and played in this process on a
 * fixed seeded set of walls: CPU seconds per game, decisions per game, playouts per second.
 *
 * Playouts are counted by the agents' documented rules, from the views they were given: mc
 * runs N per held kind at every decision with a draw left; komatsu and alpha run N per
 * decision when the draws left reach the hand's shanten + 1 (otherwise no hand is reachable
 * and they skip the playouts). A komatsu/alpha playout is one exact best-hand search; an mc
 * playout is one random game to the end. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"
#include "solo_cmd.h"
#include "game.h"
#include "loader.h"
#include "taikai/mahjong.h"
#include "taikai/solo.h"

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct bench_agent {
  const char *plugin, *label, *params; /* params without "playouts" */
} bench_agent;

static const bench_agent AGENTS[] = {
    {"greedy", "greedy", ""},
    {"mc", "mc", ""},
    {"komatsu", "komatsu", ""},
    {"alpha", "alpha 0.8", "\"alpha\": 0.8, "},
    {"alpha", "alpha 0.3", "\"alpha\": 0.3, "},
};

static int run_agent(const bench_agent *ba, long walls, long playouts, uint64_t seed) {
  tk_error err;
  tk_error_clear(&err);
  char path[TK_PATH_MAX];
  tk_plugin p;
  memset(&p, 0, sizeof p);
  if (tk_plugin_find(ba->plugin, NULL, path, sizeof path, &err) ||
      tk_plugin_open(&p, path, "solo", &err)) {
    fprintf(stderr, "taikai bench mcagents: %s\n", err.msg);
    return 1;
  }
  char params[256];
  if (!strcmp(ba->plugin, "greedy")) snprintf(params, sizeof params, "{}");
  else snprintf(params, sizeof params, "{%s\"playouts\": %ld}", ba->params, playouts);
  tk_agent_instance *inst = p.desc->create(params, seed, &err);
  if (!inst) {
    fprintf(stderr, "taikai bench mcagents: %s: %s\n", ba->label, err.msg);
    tk_plugin_close(&p);
    return 1;
  }
  int is_mc = !strcmp(ba->plugin, "mc"), is_greedy = !strcmp(ba->plugin, "greedy");
  long decisions = 0, wins = 0, points = 0;
  double nplayouts = 0;
  double t0 = cpu_seconds();
  for (long w = 0; w < walls; w++) {
    uint8_t wall[TK_SOLO_WALL_TILES];
    tk_solo_wall(seed, (uint64_t)w, wall);
    tk_solo_game g;
    tk_solo_init(&g, wall, NULL, NULL);
    tk_solo_info info;
    memset(&info, 0, sizeof info);
    info.head.seed = tk_game_seed(seed, (uint64_t)w, 0, 0);
    info.head.wall = (uint64_t)w;
    info.draws = g.draws;
    info.dora_indicator = g.dora_indicator;
    p.desc->begin_game(inst, &info);
    while (!tk_solo_is_over(&g)) {
      tk_solo_view v;
      tk_solo_legal l;
      tk_solo_view_of(&g, &v);
      tk_solo_legal_of(&g, &l);
      tk_solo_action a = {TK_TILE_NONE};
      if (p.desc->act(inst, &v, &l, &a) < 0 || !(l.mask >> a.discard & 1)) {
        fprintf(stderr, "taikai bench mcagents: %s: bad action on wall %ld\n", ba->label, w);
        p.desc->destroy(inst);
        tk_plugin_close(&p);
        return 1;
      }
      decisions++;
      int d = v.draws - v.turn;
      if (!is_greedy && d > 0 && l.n > 1) {
        if (is_mc) nplayouts += (double)l.n * (double)playouts;
        else if (d >= tk_shanten(v.hand) + 1) nplayouts += (double)playouts;
      }
      tk_solo_discard_fast(&g, a.discard);
    }
    tk_solo_result r;
    tk_solo_result_of(&g, &r);
    if (p.desc->end_game) p.desc->end_game(inst, &r);
    wins += r.won;
    points += r.points;
  }
  double secs = cpu_seconds() - t0;
  printf("%-10s %6ld %9.4f %9.1f %12.0f %10.2f %8.1f%% %9.0f\n", ba->label, walls,
         secs / (double)walls, (double)decisions / (double)walls,
         nplayouts > 0 ? nplayouts / secs : 0.0, nplayouts > 0 ? secs * 1e6 / nplayouts : 0.0,
         100.0 * (double)wins / (double)walls, (double)points / (double)walls);
  fflush(stdout);
  p.desc->destroy(inst);
  tk_plugin_close(&p);
  return 0;
}

int tk_bench_mcagents(int argc, char **argv) {
  uint64_t nwalls = 20, nplayouts = 1000;
  const char *only = NULL;
  const tk_opt opts[] = {
      {.name = "walls", .kind = TK_OPT_U64, .dest = &nwalls, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "walls 0..N-1 (default 20)"},
      {.name = "playouts", .kind = TK_OPT_U64, .dest = &nplayouts, .value = "N", .min = 1,
       .max = 10000000, .help = "playouts per decision (default 1000)"},
      {.name = "agent", .kind = TK_OPT_STRING, .dest = &only, .value = "LABEL",
       .help = "only that agent"},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench mcagents", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1)
    printf("usage: taikai bench mcagents [--walls N] [--playouts N] [--agent LABEL]\n\n"
           "Plays walls 0..N-1 of seed 20150101 (default 20) with greedy, mc, komatsu,\n"
           "alpha 0.8 and alpha 0.3 (playouts default 1000; --agent runs one of them) in\n"
           "this process, and prints per agent: CPU seconds per game, decisions per game,\n"
           "playouts per CPU second, microseconds per playout, win rate, points per game.\n");
  if (prc) return prc == 1 ? 0 : 2;
  long walls = (long)nwalls, playouts = (long)nplayouts;
  tk_shanten_init();
  printf("%-10s %6s %9s %9s %12s %10s %9s %9s\n", "agent", "walls", "cpu-s/game", "dec/game",
         "playouts/s", "us/playout", "win", "pts/game");
  int found = 0;
  for (size_t i = 0; i < sizeof AGENTS / sizeof AGENTS[0]; i++) {
    if (only && strcmp(only, AGENTS[i].label)) continue;
    found = 1;
    if (run_agent(&AGENTS[i], walls, playouts, 20150101)) return 1;
  }
  if (!found) {
    fprintf(stderr, "taikai bench mcagents: no agent labelled '%s'\n", only);
    return 2;
  }
  return 0;
}
