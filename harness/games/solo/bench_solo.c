/* harness/games/solo/bench_solo.c — `taikai bench solo`: games per second of a one-player tournament run
 * through the whole referee (workers, pipes, result lines parsed back), no files written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "solo_cmd.h"
#include "output.h"

int tk_bench_solo(int argc, char **argv) {
  uint64_t walls = 20000, jobs = 2;
  const char *agent = "greedy", *isolation = "worker";
  const tk_opt opts[] = {
      {.name = "walls", .kind = TK_OPT_U64, .dest = &walls, .value = "N", .min = 1,
       .max = INT64_MAX, .help = "walls played (default 20000)"},
      {.name = "jobs", .short_name = 'j', .kind = TK_OPT_U64, .dest = &jobs, .value = "N",
       .min = 1, .max = 1024, .help = "worker processes (default 2)"},
      {.name = "agent", .kind = TK_OPT_STRING, .dest = &agent, .value = "PLUGIN",
       .help = "the agent (default greedy)"},
      {.name = "isolation", .kind = TK_OPT_STRING, .dest = &isolation, .value = "KIND",
       .help = "worker (default) or process"},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench solo", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1)
    printf("usage: taikai bench solo [--walls N] [-j N] [--agent PLUGIN] [--isolation KIND]\n\n"
           "Plays N walls (default 20000) of one-player mahjong with one agent (default\n"
           "greedy) in -j worker processes (default 2) and prints games per second and\n"
           "the referee's time per decision. --isolation process calls the agent in a\n"
           "process of its own (the spec's \"isolation\"; default worker): the difference\n"
           "of two runs is the cost of isolation per call.\n");
  if (prc) return prc == 1 ? 0 : 2;
  char text[512];
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 1, \"walls\": %ld, \"agents\": [{\"plugin\": \"%s\", "
           "\"isolation\": \"%s\"}]}",
           (long)walls, agent, isolation);
  tk_error err;
  tk_error_clear(&err);
  tk_spec spec;
  tk_run run;
  if (tk_spec_parse(text, "<bench>", &spec, &err) || tk_run_prepare(&run, &spec, NULL, &err)) {
    fprintf(stderr, "taikai bench solo: %s\n", err.msg);
    return 2;
  }
  double rate = 0;
  tk_run_opts o = {.jobs = (int)jobs, .progress = 0, .rate = &rate};
  json_t *sum = NULL;
  int64_t t0 = tk_now_ns();
  int rc = tk_run_execute(&run, &o, &sum, &err);
  double secs = (double)(tk_now_ns() - t0) / 1e9;
  if (rc) {
    fprintf(stderr, "taikai bench solo: %s\n", err.msg);
    tk_run_free(&run);
    return 1;
  }
  json_t *a = json_array_get(json_object_get(sum, "agents"), 0);
  /* every game of a wall is one decision per turn (18 draws at most) */
  double turns = json_number_value(json_object_get(json_object_get(a, "mean_turns"), "value"));
  (void)turns;
  printf("solo: %s (%s), %ld walls, -j %ld: %.0f games/s (%.2f s); win rate %.2f%%, mean win "
         "turn %.2f\n",
         agent, isolation, (long)walls, (long)jobs, (double)walls / secs, secs,
         100 * json_number_value(json_object_get(json_object_get(a, "win_rate"), "value")),
         json_number_value(json_object_get(json_object_get(a, "mean_win_turn"), "value")));
  json_decref(sum);
  tk_run_free(&run);
  return 0;
}
