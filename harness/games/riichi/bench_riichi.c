/* harness/games/riichi/bench_riichi.c — `taikai bench riichi`: four-player riichi games played in-process by
 * the baseline agents (linked statically), each decision going through the same path as in a
 * tournament: the seat's view, its legal actions, the agent's act(), tk_riichi_apply (which
 * checks the action against the legal ones). Reports games and actions (agent decisions) per
 * second on one core. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "riichi_cmd.h"
#include "game.h"
#include "opts.h"
#include "watch.h"
#include "taikai/agent.h"
#include "taikai/riichi.h"

const tk_agent_descriptor *taikai_agent_entry_riichi_tsumogiri(void);
const tk_agent_descriptor *taikai_agent_entry_riichi_random(void);
const tk_agent_descriptor *taikai_agent_entry_riichi_greedy(void);

static const tk_agent_descriptor *find_agent(const char *name) {
  if (!strcmp(name, "tsumogiri") || !strcmp(name, "riichi_tsumogiri"))
    return taikai_agent_entry_riichi_tsumogiri();
  if (!strcmp(name, "random") || !strcmp(name, "riichi_random"))
    return taikai_agent_entry_riichi_random();
  if (!strcmp(name, "greedy") || !strcmp(name, "riichi_greedy"))
    return taikai_agent_entry_riichi_greedy();
  return NULL;
}

/* Plays `games` east-only games with four copies of `d`; returns 0 or a negative code. */
static int run(const tk_agent_descriptor *d, long games, double *secs, long *actions, long *hands) {
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *inst[4];
  for (int s = 0; s < 4; s++)
    if (!(inst[s] = d->create("{}", (uint64_t)s, &err))) {
      fprintf(stderr, "taikai bench riichi: %s\n", err.msg);
      return TK_EINVAL;
    }
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_action a;
  tk_riichi_game g;
  *actions = *hands = 0;
  int rc = 0;
  int64_t t0 = tk_now_ns();
  for (long i = 0; i < games && !rc; i++) {
    tk_riichi_init(&g, NULL, 1, (uint64_t)i, NULL, NULL);
    for (int s = 0; s < 4; s++) {
      tk_riichi_info info;
      memset(&info, 0, sizeof info);
      info.head.seed = (uint64_t)i * 4 + (uint64_t)s;
      info.head.wall = (uint64_t)i;
      info.head.seat = s;
      d->begin_game(inst[s], &info);
    }
    while (!tk_riichi_is_over(&g)) {
      if (g.phase == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, NULL);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_view_of(&g, s, &v);
      tk_riichi_legal_of(&g, s, &l);
      if ((rc = d->act(inst[s], &v, &l, &a)) || (rc = tk_riichi_apply(&g, s, &a, NULL, &err))) break;
      (*actions)++;
    }
    *hands += g.hands;
  }
  *secs = (double)(tk_now_ns() - t0) / 1e9;
  for (int s = 0; s < 4; s++) d->destroy(inst[s]);
  if (rc) fprintf(stderr, "taikai bench riichi: %s (%s)\n", tk_strerror(rc), err.msg);
  return rc;
}

int tk_bench_riichi(int argc, char **argv) {
  uint64_t ngames = 20000;
  const char *only = NULL;
  const tk_opt opts[] = {
      {.name = "games", .kind = TK_OPT_U64, .dest = &ngames, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "games per agent (default 20000)"},
      {.name = "agent", .kind = TK_OPT_STRING, .dest = &only, .value = "NAME",
       .help = "tsumogiri, greedy or random"},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench riichi", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1)
    printf("usage: taikai bench riichi [--games N] [--agent tsumogiri|greedy|random]\n\n"
           "Plays N east-only games (default 20000) of four copies of each baseline agent\n"
           "(default: tsumogiri, then greedy) in this process, one core, and prints games and\n"
           "actions (agent decisions) per second.\n");
  if (prc) return prc == 1 ? 0 : 2;
  long games = (long)ngames;
  if (only && !find_agent(only)) {
    fprintf(stderr, "taikai bench riichi: unknown agent '%s' (tsumogiri, greedy, random)\n", only);
    return 2;
  }
  tk_shanten_init();
  const char *names[] = {"tsumogiri", "greedy", NULL};
  for (int k = 0; names[k] || (only && k == 0); k++) {
    const char *name = only ? only : names[k];
    double secs;
    long actions, hands;
    if (run(find_agent(name), games, &secs, &actions, &hands)) return 1;
    printf("riichi: %-9s %ld games, %ld hands, %ld actions in %.2f s: %.0f games/s, %.0f actions/s "
           "(%.1f actions/game)\n",
           name, games, hands, actions, secs, games / secs, actions / secs, (double)actions / games);
    if (only) break;
  }
  return 0;
}
