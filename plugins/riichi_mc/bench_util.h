/* plugins/riichi_mc/bench_util.h — what the riichi measuring tools share (build/riichi_mc_bench,
 * build/riichi_mcp_bench): the process's CPU clock, a comparison for qsort, and the models'
 * default files beside the program. Static: each tool includes it once. */
#ifndef RIICHI_MC_BENCH_UTIL_H
#define RIICHI_MC_BENCH_UTIL_H

#include <stdio.h>
#include <time.h>

#include "taikai/weights.h"

/* CPU seconds of the process so far. */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* `given`, else plugins/NAME beside this program (the build folder's layout). Returns 0, or -1
 * when the program's folder cannot be found. */
static int locate(const char *given, const char *name, char *out, size_t cap) {
  if (given) {
    snprintf(out, cap, "%s", given);
    return 0;
  }
  char self[4096];
  if (tk_weights_beside((const void *)locate, "plugins", self, sizeof self)) return -1;
  snprintf(out, cap, "%s/%s", self, name);
  return 0;
}

#endif
