/* harness/games/kuhn/bench.c — `taikai bench kuhn`: hands dealt (tk_kuhn_deal) and played to the
 * end through the engine with uniformly random legal moves, per CPU second of this process. Its
 * own checks: every hand's chips sum to zero and are ±1 or ±2 (exit 1 otherwise). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "taikai/kuhn.h"
#include "taikai/rng.h"

int tk_kuhn_bench(int argc, char **argv);

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int tk_kuhn_bench(int argc, char **argv) {
  unsigned long long hands = 10000000, seed = 1;
  for (int i = 1; i < argc; i++) {
    unsigned long long *dst = !strcmp(argv[i], "--hands") ? &hands
                              : !strcmp(argv[i], "--seed") ? &seed
                                                           : NULL;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: taikai bench kuhn [--hands N] [--seed S]\n\n"
             "Deals N hands (default 10000000) of seed S (default 1) and plays each with\n"
             "uniformly random legal moves through the engine; prints hands per CPU second.\n");
      return 0;
    }
    if (!dst || i + 1 >= argc) {
      fprintf(stderr, "taikai bench kuhn: %s '%s' (see taikai bench kuhn --help)\n",
              dst ? "missing value after" : "unknown option", argv[i]);
      return 2;
    }
    char *end;
    errno = 0;
    *dst = strtoull(argv[++i], &end, 10);
    if (errno || *end || !argv[i][0] || argv[i][0] == '-' || (dst == &hands && *dst == 0)) {
      fprintf(stderr, "taikai bench kuhn: %s: expected a %s integer, got '%s'\n", argv[i - 1],
              dst == &hands ? "positive" : "non-negative", argv[i]);
      return 2;
    }
  }
  tk_rng r;
  tk_rng_seed(&r, seed ^ 0x6b75686eULL); /* the players' draws, apart from the deals' */
  long long chips0 = 0;
  unsigned long long bad = 0;
  double t0 = cpu_seconds();
  for (unsigned long long h = 0; h < hands; h++) {
    uint8_t cards[2];
    tk_kuhn_game g;
    tk_kuhn_deal(seed, h, cards);
    tk_kuhn_init(&g, cards, NULL);
    for (int seat; (seat = tk_kuhn_to_act(&g)) >= 0;) {
      tk_kuhn_legal l;
      tk_kuhn_legal_of(&g, &l);
      tk_kuhn_action a = {l.a[tk_rng_below(&r, l.n)]};
      if (tk_kuhn_apply(&g, seat, &a, NULL)) bad++;
    }
    int c = g.chips[0];
    if (c + g.chips[1] != 0 || c == 0 || c < -2 || c > 2) bad++;
    chips0 += c;
  }
  double t = cpu_seconds() - t0;
  printf("kuhn: %llu hands in %.3f CPU s: %.0f hands per CPU second (%.1f ns a hand); "
         "player 0's mean chips %+.4f\n",
         hands, t, t > 0 ? (double)hands / t : 0.0, t > 0 ? 1e9 * t / (double)hands : 0.0,
         (double)chips0 / (double)hands);
  if (bad) {
    fprintf(stderr, "taikai bench kuhn: %llu hands broke the engine's contract\n", bad);
    return 1;
  }
  return 0;
}
