/* harness/games/solo/bench_solve.c — `taikai bench solve`: time per decision of the one-player search
 * (taikai/solve.h) by shanten, 0 to 6, on a fixed seeded set of 14-tile hands dealt from shuffled
 * sets; which mode answered (exact, or the direct fallback once the state cap fired), and a digest
 * of every answer's bits, so that a faster build can show it answers the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static int number(const char *flag, const char *v, long lo, long hi, long *out) {
  char *end;
  long x = strtol(v, &end, 10);
  if (!*v || *end || x < lo || x > hi) {
    fprintf(stderr, "taikai bench solve: %s '%s' is not a whole number from %ld to %ld\n", flag, v, lo, hi);
    return 2;
  }
  *out = x;
  return 0;
}

int tk_bench_solve(int argc, char **argv) {
  long positions = 5, draws = 17, max_states = 0, seed = 1, max_shanten = MAX_SHANTEN, detours = 1;
  tk_solve_opts o = {.objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE};
  for (int i = 1; i < argc; i++) {
    const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int rc = 0;
    if (!strcmp(f, "-h") || !strcmp(f, "--help")) {
      fputs(usage, stdout);
      return 0;
    } else if (!v) {
      fprintf(stderr, "taikai bench solve: unknown or incomplete option '%s' (see --help)\n", f);
      return 2;
    } else if (!strcmp(f, "--positions")) rc = number(f, v, 1, 10000, &positions);
    else if (!strcmp(f, "--draws")) rc = number(f, v, 0, TK_SOLVE_MAX_DRAWS, &draws);
    else if (!strcmp(f, "--max-states")) rc = number(f, v, 1, 100000000, &max_states);
    else if (!strcmp(f, "--seed")) rc = number(f, v, 0, 2147483647, &seed);
    else if (!strcmp(f, "--max-shanten")) rc = number(f, v, 0, MAX_SHANTEN, &max_shanten);
    else if (!strcmp(f, "--detours")) rc = number(f, v, 0, 2 * TK_SOLVE_MAX_DRAWS + 1, &detours);
    else if (!strcmp(f, "--objective")) {
      if (!strcmp(v, "win")) o.objective = TK_SOLVE_WIN;
      else if (!strcmp(v, "points")) o.objective = TK_SOLVE_POINTS;
      else rc = 1;
    } else if (!strcmp(f, "--discards")) {
      if (!strcmp(v, "all")) o.keep_shanten = 0;
      else if (!strcmp(v, "keep")) o.keep_shanten = 1;
      else rc = 1;
    } else if (!strcmp(f, "--mode")) {
      if (!strcmp(v, "exact")) o.first_mode = TK_SOLVE_EXACT;
      else if (!strcmp(v, "forward")) o.first_mode = TK_SOLVE_FORWARD;
      else if (!strcmp(v, "direct")) o.first_mode = TK_SOLVE_DIRECT;
      else if (!strcmp(v, "detour")) o.first_mode = TK_SOLVE_DETOUR;
      else rc = 1;
    } else {
      fprintf(stderr, "taikai bench solve: unknown option '%s' (see --help)\n", f);
      return 2;
    }
    if (rc == 1) fprintf(stderr, "taikai bench solve: %s: '%s' is not one of the choices (see --help)\n", f, v);
    if (rc) return 2;
    i++;
  }
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
