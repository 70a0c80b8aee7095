/* harness/games/solo/bench_solve.c — `taikai bench solve`: time per decision of the one-player search
 * (taikai/solve.h) by shanten, 0 to 6, on a fixed seeded set of 14-tile hands dealt from shuffled
 * sets; which mode answered (exact, or the direct fallback once the state cap fired), and a digest
 * of every answer's bits, so that a faster build can show it answers the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"
#include "solo_cmd.h"
#include "taikai/rng.h"
#include "taikai/solve.h"

enum { MAX_SHANTEN = 6 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the process: on a shared machine, less sensitive to the other jobs than the wall
 * clock (cache and memory contention still count). */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

static const char usage[] =
    "usage: taikai bench solve [--positions N] [--draws D] [--objective win|points]\n"
    "                          [--mode exact|forward|direct|detour] [--detours N]\n"
    "                          [--max-states M] [--seed S] [--max-shanten S]\n"
    "                          [--discards all|keep]\n"
    "  --positions N  hands per shanten 0..6 (default 5)\n"
    "  --max-shanten S  time only the shanten 0..S (default 6; the hand set is the same)\n"
    "  --draws D      draws left after the decision (default 17: a solo game's first discard)\n"
    "  --objective    win (default) or points\n"
    "  --mode         the mode tried first (default exact; past the state cap, the direct mode,\n"
    "                 or from detour, one detour fewer down to one, then direct)\n"
    "  --detours N    the detour mode's budget (default 1; solve.h)\n"
    "  --discards     all: every discard valued (default); keep: only those keeping the\n"
    "                 shanten, as the published calculators show by default\n"
    "  --max-states M the cap (default the library's)\n"
    "  --seed S       seed of the hand set (default 1)\n";

/* The choices' indices are the enums' values (tk_solve_objective, tk_solve_mode). */
static const char *const OBJECTIVES[] = {"win", "points", NULL};
static const char *const MODES[] = {"exact", "forward", "direct", "detour", NULL};
static const char *const DISCARDS[] = {"all", "keep", NULL};

int tk_bench_solve(int argc, char **argv) {
  uint64_t u_positions = 5, u_draws = 17, u_max_states = 0, u_seed = 1,
           u_max_shanten = MAX_SHANTEN, u_detours = 1;
  tk_solve_opts o = {.objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE};
  const tk_opt opts[] = {
      {.name = "positions", .kind = TK_OPT_U64, .dest = &u_positions, .min = 1, .max = 10000},
      {.name = "draws", .kind = TK_OPT_U64, .dest = &u_draws, .max = TK_SOLVE_MAX_DRAWS},
      {.name = "max-states", .kind = TK_OPT_U64, .dest = &u_max_states, .min = 1,
       .max = 100000000},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &u_seed, .max = 2147483647},
      {.name = "max-shanten", .kind = TK_OPT_U64, .dest = &u_max_shanten, .max = MAX_SHANTEN},
      {.name = "detours", .kind = TK_OPT_U64, .dest = &u_detours, .max = 2 * TK_SOLVE_MAX_DRAWS + 1},
      {.name = "objective", .kind = TK_OPT_CHOICE, .dest = &o.objective, .choices = OBJECTIVES},
      {.name = "discards", .kind = TK_OPT_CHOICE, .dest = &o.keep_shanten, .choices = DISCARDS},
      {.name = "mode", .kind = TK_OPT_CHOICE, .dest = &o.first_mode, .choices = MODES},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench solve", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) fputs(usage, stdout);
  if (prc) return prc == 1 ? 0 : 2;
  long positions = (long)u_positions, draws = (long)u_draws, max_states = (long)u_max_states,
       seed = (long)u_seed, max_shanten = (long)u_max_shanten, detours = (long)u_detours;
  o.draws = (int)draws;
  o.max_states = max_states;
  o.detours = (int)detours;
  /* the fixed set: 14-tile hands of fresh shuffles, the first `positions` of each shanten */
  uint8_t(*set)[TK_KINDS] = calloc((size_t)positions * (MAX_SHANTEN + 1), TK_KINDS);
  tk_solver *s = tk_solver_new();
  if (!set || !s) {
    fprintf(stderr, "taikai bench solve: out of memory\n");
    free(set);
    tk_solver_free(s);
    return 1;
  }
  long have[MAX_SHANTEN + 1] = {0}, filled = 0;
  tk_rng r;
  tk_rng_seed(&r, (uint64_t)seed);
  for (long tries = 0; filled < positions * (MAX_SHANTEN + 1) && tries < 100000000; tries++) {
    uint8_t tiles[136], h[TK_KINDS] = {0};
    for (int i = 0; i < 136; i++) tiles[i] = (uint8_t)(i / 4);
    for (int i = 0; i < 14; i++) {
      int j = i + (int)tk_rng_below(&r, (uint32_t)(136 - i));
      uint8_t x = tiles[j];
      tiles[j] = tiles[i];
      tiles[i] = x;
      h[x]++;
    }
    int sh = tk_shanten(h);
    if (sh < 0 || sh > MAX_SHANTEN || have[sh] == positions) continue;
    memcpy(set[sh * positions + have[sh]++], h, TK_KINDS);
    filled++;
  }
  {
    /* the shanten tables the search uses, built on first use, are built here, not in the first
       timed decision */
    int after[TK_KINDS];
    tk_shanten_discards(set[0], after);
  }
  printf("solve: %ld hands per shanten, %ld draws left, objective %s, first mode %s, cap %ld states, %s\n",
         positions, draws, o.objective == TK_SOLVE_WIN ? "win" : "points", tk_solve_mode_name(o.first_mode),
         max_states ? max_states : (long)TK_SOLVE_DEFAULT_STATES,
         o.keep_shanten ? "the discards keeping the shanten valued" : "every discard valued");
  printf("%-8s %6s %10s %10s %10s %10s %9s %8s %12s %10s  %-16s\n", "shanten", "hands", "mean ms", "median ms",
         "max ms", "cpu ms", "uncapped", "over cap", "mean states", "mean win", "digest");
  for (int sh = 0; sh <= max_shanten; sh++) {
    if (!have[sh]) continue;
    double t[10000], sum = 0, win = 0, cpu = 0;
    uint64_t digest = 0xcbf29ce484222325ULL; /* FNV-1a over every answer's bits */
    long exact = 0, states = 0, over = 0;
    for (long i = 0; i < have[sh]; i++) {
      tk_solve_result res;
      tk_error e;
      tk_error_clear(&e);
      double t0 = now(), c0 = cpu_now();
      int rc = tk_solve(s, set[sh * positions + i], NULL, &o, &res, &e);
      t[i] = now() - t0;
      cpu += cpu_now() - c0;
      if (rc == TK_ERANGE) {
        /* past the direct mode's own cap: no answer (the teacher plays greedy's choice then);
           counted, timed, and marked in the digest */
        sum += t[i];
        over++;
        digest = fnv(digest, &rc, sizeof rc);
        continue;
      }
      if (rc < 0) {
        fprintf(stderr, "taikai bench solve: %s\n", e.msg);
        free(set);
        tk_solver_free(s);
        return 1;
      }
      sum += t[i];
      digest = fnv(digest, &res.n, sizeof res.n);
      digest = fnv(digest, &res.best, sizeof res.best);
      digest = fnv(digest, &res.mode, sizeof res.mode);
      for (int c = 0; c < res.n; c++) {
        digest = fnv(digest, &res.c[c].discard, 1);
        digest = fnv(digest, &res.c[c].shanten, 1);
        digest = fnv(digest, &res.c[c].win, sizeof(double));
        digest = fnv(digest, &res.c[c].points, sizeof(double));
      }
      exact += res.mode == o.first_mode && (res.mode != TK_SOLVE_DETOUR || res.detours == o.detours);
      states += res.states;
      win += res.c[res.best].win;
    }
    for (long i = 1; i < have[sh]; i++)
      for (long j = i; j > 0 && t[j - 1] > t[j]; j--) {
        double x = t[j];
        t[j] = t[j - 1];
        t[j - 1] = x;
      }
    long answered = have[sh] - over;
    printf("%-8d %6ld %10.3f %10.3f %10.3f %10.3f %6ld/%-2ld %8ld %12.0f %10.4f  %016llx\n", sh, have[sh],
           sum / have[sh] * 1e3, t[have[sh] / 2] * 1e3, t[have[sh] - 1] * 1e3, cpu / have[sh] * 1e3, exact, have[sh],
           over, answered ? (double)states / answered : 0, answered ? win / answered : 0, (unsigned long long)digest);
    fflush(stdout);
  }
  printf("(\"uncapped\" counts the decisions answered by the first mode (and budget); the others hit the state\n"
         " cap and were answered by a cheaper one, a lower bound, or went past the direct mode's own cap of %ld states\n"
         " (\"over cap\": no answer; the times include them, the states and win do not). \"cpu ms\": the mean\n"
         " CPU time of the process per decision.\n"
         " \"digest\": FNV-1a of every choice's discard, shanten and\n"
         " the bits of its win and points, with the best index and the mode: equal digests, equal answers)\n",
         (long)TK_SOLVE_DEFAULT_DIRECT_STATES);
  free(set);
  tk_solver_free(s);
  return 0;
}
