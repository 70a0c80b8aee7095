/* harness/cmd/bench_mahjong.c — `taikai bench shanten` and `taikai bench score`: the kernel's
 * speed on fixed seeded hand sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "opts.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the calling thread: on a shared machine, time spent preempted is not counted. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct bench_opts {
  long hands;
  uint64_t seed;
  int help;
} bench_opts;

/* Parses `taikai bench WHAT`'s options into o: 0 (o->help set after --help, printed), or 2 on
 * a usage error (printed). */
static int parse_opts(int argc, char **argv, bench_opts *o, const char *what, long def_hands) {
  uint64_t hands = (uint64_t)def_hands;
  o->seed = 1;
  o->help = 0;
  const tk_opt opts[] = {
      {.name = "hands", .kind = TK_OPT_U64, .dest = &hands, .value = "N", .min = 1,
       .max = 100000000, .help = "hands in the fixed set"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &o->seed, .value = "S",
       .help = "seed of the set (default 1)"},
      {.name = NULL},
  };
  char cmd[32];
  snprintf(cmd, sizeof cmd, "bench %s", what);
  int prc = tk_opts_parse(cmd, opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) {
    printf("usage: taikai bench %s [--hands N] [--seed S]\n  --hands N  hands in the fixed set (default %ld)\n"
           "  --seed S   seed of the set (default 1)\n", what, def_hands);
    o->help = 1;
    return 0;
  }
  o->hands = (long)hands;
  return prc;
}

/* n random tiles from a fresh 136-tile set, as counts. */
static void random_hand(tk_rng *r, int n, uint8_t *c) {
  uint8_t set[136];
  for (int i = 0; i < 136; i++) set[i] = (uint8_t)(i / 4);
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < n; i++) {
    int j = i + (int)tk_rng_below(r, (uint32_t)(136 - i));
    uint8_t t = set[j];
    set[j] = set[i];
    set[i] = t;
    c[t]++;
  }
}

int tk_bench_shanten(int argc, char **argv) {
  bench_opts o;
  int rc = parse_opts(argc, argv, &o, "shanten", 1000000);
  if (rc || o.help) return rc;
  tk_shanten_init();
  for (int size = 14; size >= 13; size--) {
    uint8_t *hands = malloc((size_t)o.hands * TK_KINDS);
    if (!hands) {
      fprintf(stderr, "taikai bench shanten: out of memory for %ld hands\n", o.hands);
      return 1;
    }
    tk_rng r;
    tk_rng_seed(&r, o.seed);
    for (long i = 0; i < o.hands; i++) random_hand(&r, size, hands + i * TK_KINDS);
    /* all forms (tk_shanten) and the standard form alone (tk_shanten_standard), timed
     * alternately on the same set, in thread CPU time */
    long sum = 0, sum_std = 0;
    double best = 1e9, best_std = 1e9;
    for (int rep = 0; rep < 3; rep++) {
      double t0 = cpu_now();
      sum = 0;
      for (long i = 0; i < o.hands; i++) sum += tk_shanten(hands + i * TK_KINDS);
      double dt = cpu_now() - t0;
      if (dt < best) best = dt;
      t0 = cpu_now();
      sum_std = 0;
      for (long i = 0; i < o.hands; i++) sum_std += tk_shanten_standard(hands + i * TK_KINDS);
      dt = cpu_now() - t0;
      if (dt < best_std) best_std = dt;
    }
    printf("shanten %d tiles: %ld hands, %.1f ns/hand CPU (best of 3), %.2f M hands/s, mean shanten %.4f\n", size,
           o.hands, best * 1e9 / o.hands, o.hands / best / 1e6, (double)sum / o.hands);
    printf("shanten %d tiles, standard form only: %.1f ns/hand CPU (best of 3), %.2f M hands/s, mean %.4f\n", size,
           best_std * 1e9 / o.hands, o.hands / best_std / 1e6, (double)sum_std / o.hands);
    free(hands);
  }
  return 0;
}

/* A random complete hand: random melds and a pair from the 136-tile set, up to `calls` of
 * the melds called; a random winning tile among the concealed ones; random situation. */
typedef struct bench_hand {
  uint8_t c[TK_KINDS];
  tk_call calls[4];
  int ncalls;
  int win;
  tk_win_ctx ctx;
} bench_hand;

static void random_complete(tk_rng *r, bench_hand *h) {
  for (;;) {
    memset(h, 0, sizeof *h);
    uint8_t all[TK_KINDS] = {0};
    int ok = 1;
    int ncalls = tk_rng_below(r, 3) == 0 ? (int)tk_rng_below(r, 4) + 1 : 0;
    for (int m = 0; m < 4 && ok; m++) {
      int seq = tk_rng_below(r, 3) != 0;
      int k;
      if (seq) {
        int s = (int)tk_rng_below(r, 3), n = (int)tk_rng_below(r, 7);
        k = 9 * s + n;
        for (int j = 0; j < 3; j++) ok &= ++all[k + j] <= 4;
      } else {
        k = (int)tk_rng_below(r, TK_KINDS);
        all[k] += 3;
        ok &= all[k] <= 4;
      }
      if (m < ncalls) {
        h->calls[h->ncalls].kind = (uint8_t)k;
        h->calls[h->ncalls].type = (uint8_t)(seq ? TK_CALL_CHI : TK_CALL_PON);
        h->ncalls++;
      } else if (seq) {
        for (int j = 0; j < 3; j++) h->c[k + j]++;
      } else {
        h->c[k] += 3;
      }
    }
    int p = (int)tk_rng_below(r, TK_KINDS);
    all[p] += 2;
    h->c[p] += 2;
    if (!ok || all[p] > 4) continue;
    int n = 14 - 3 * h->ncalls, pick = (int)tk_rng_below(r, (uint32_t)n);
    for (int k = 0; k < TK_KINDS; k++) {
      if (pick < h->c[k]) {
        h->win = k;
        break;
      }
      pick -= h->c[k];
    }
    h->ctx.ron = (uint8_t)tk_rng_below(r, 2);
    h->ctx.seat_wind = (uint8_t)tk_rng_below(r, 4);
    h->ctx.round_wind = (uint8_t)tk_rng_below(r, 2);
    h->ctx.riichi = h->ncalls == 0 && tk_rng_below(r, 2);
    h->ctx.ndora = 1;
    h->ctx.dora[0] = (uint8_t)tk_rng_below(r, TK_KINDS);
    h->ctx.win_tile = (uint8_t)h->win;
    return;
  }
}

int tk_bench_score(int argc, char **argv) {
  bench_opts o;
  int rc = parse_opts(argc, argv, &o, "score", 200000);
  if (rc || o.help) return rc;
  tk_shanten_init();
  bench_hand *hs = malloc((size_t)o.hands * sizeof *hs);
  if (!hs) {
    fprintf(stderr, "taikai bench score: out of memory for %ld hands\n", o.hands);
    return 1;
  }
  tk_rng r;
  tk_rng_seed(&r, o.seed);
  for (long i = 0; i < o.hands; i++) random_complete(&r, &hs[i]);
  double best = 1e9;
  long wins = 0, points = 0;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now();
    wins = points = 0;
    for (long i = 0; i < o.hands; i++) {
      tk_score s;
      if (tk_score_counts(hs[i].c, hs[i].win, 0, hs[i].calls, hs[i].ncalls, &hs[i].ctx, &s, NULL) == 0) {
        wins++;
        points += s.total;
      }
    }
    double dt = now() - t0;
    if (dt < best) best = dt;
  }
  printf("score: %ld complete hands (%ld with a yaku, mean %.0f points), %.0f ns/hand (best of 3), %.2f M hands/s\n",
         o.hands, wins, wins ? (double)points / wins : 0.0, best * 1e9 / o.hands, o.hands / best / 1e6);
  free(hs);
  return 0;
}
