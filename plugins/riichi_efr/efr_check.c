/* plugins/riichi_efr/efr_check.c — the Monte-Carlo cross-check and table 10's anchor
 * (efr_check.h). */
#include "efr_check.h"

#include <math.h>
#include <string.h>

#include "taikai/rng.h"

void efr_mc(const efr_hand *hands, size_t n, const rm_efr_state *s, int sims, uint64_t seed,
            double p[4][4]) {
  memset(p, 0, 16 * sizeof p[0][0]);
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  for (int i = 0; i < sims; i++) {
    rm_efr_state x = *s;
    for (int guard = 0; guard < 1000; guard++)
      if (rm_efr_apply(&x, &hands[tk_rng_below(&rng, (uint32_t)n)])) break;
    uint8_t rank[4];
    tk_riichi_ranks(x.scores, rank);
    for (int seat = 0; seat < 4; seat++) p[seat][rank[seat] - 1] += 1;
  }
  for (int seat = 0; seat < 4; seat++)
    for (int r = 0; r < 4; r++) p[seat][r] /= sims;
}

static double efr_of(const double p[4]) { return p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3]; }

void efr_crosscheck(FILE *f, const rm_efr *m, const efr_hand *hands, size_t n, int sims,
                    uint64_t seed, double *mad) {
  static const int32_t pattern[][4] = {
      {25000, 25000, 25000, 25000}, {35000, 25000, 20000, 20000}, {40000, 30000, 20000, 10000},
      {30000, 30000, 20000, 20000}, {45000, 25000, 15000, 15000}, {28000, 26000, 24000, 22000},
      {20000, 20000, 30000, 30000}, {50000, 20000, 15000, 15000}, {33000, 27000, 22000, 18000},
      {38000, 32000, 18000, 12000}, {25000, 35000, 25000, 15000}, {18000, 22000, 26000, 34000},
      {31000, 29000, 21000, 19000}, {27000, 24000, 26000, 23000}, {60000, 15000, 15000, 10000},
      {5000, 30000, 32000, 33000}};
  const int npat = (int)(sizeof pattern / sizeof pattern[0]);
  double tot = 0, worst = 0;
  int cnt = 0;
  fprintf(f, "cross-check: model EFR against Monte Carlo (%d games each, %zu hands drawn from), "
             "%d score patterns x 4 seats, 0 honba, no sticks\n", sims, n, npat);
  fprintf(f, "  round    mean |model - MC|   max   mean model   mean MC\n");
  for (int round = 0; round < 4; round++) {
    double sum = 0, mx = 0, sm = 0, sc = 0;
    for (int k = 0; k < npat; k++) {
      rm_efr_state s = {.round = (uint8_t)round};
      memcpy(s.scores, pattern[k], sizeof s.scores);
      double p[4][4];
      efr_mc(hands, n, &s, sims, seed ^ tk_mix64((uint64_t)(round * 100 + k)), p);
      for (int seat = 0; seat < 4; seat++) {
        double a = rm_efr_value(m, &s, seat), b = efr_of(p[seat]), d = fabs(a - b);
        sum += d, sm += a, sc += b;
        if (d > mx) mx = d;
      }
    }
    fprintf(f, "  East %d   %.4f              %.3f  %.3f        %.3f\n", round + 1,
            sum / (4 * npat), mx, sm / (4 * npat), sc / (4 * npat));
    tot += sum, cnt += 4 * npat;
    if (mx > worst) worst = mx;
  }
  *mad = tot / cnt;
  fprintf(f, "  all      %.4f              %.3f\n", *mad, worst);
}

/* The value of `seat` after the hand `h` from `s`: its exact rank when the game ends, else the
 * model's EFR at the next boundary; `mc` (may be NULL) receives the exact rank, or the Monte
 * Carlo EFR from the next boundary (`sims` games from `hands`). */
typedef struct mc_src {
  const efr_hand *hands;
  size_t n;
  int sims;
  uint64_t seed;
} mc_src;

static double after(const rm_efr *m, const rm_efr_state *s, const efr_hand *h, int seat,
                    const mc_src *src, double *mc) {
  rm_efr_state x = *s;
  if (rm_efr_apply(&x, h)) {
    uint8_t rank[4];
    tk_riichi_ranks(x.scores, rank);
    if (mc) *mc = rank[seat];
    return rank[seat];
  }
  if (mc) {
    double p[4][4];
    efr_mc(src->hands, src->n, &x, src->sims, src->seed, p);
    *mc = efr_of(p[seat]);
  }
  return rm_efr_value(m, &x, seat);
}

void efr_anchor(FILE *f, const rm_efr *m, const efr_hand *hands, size_t n, int sims,
                uint64_t seed) {
  /* East 4 (dealer seat 3), seat 0 last, 10,000 behind third: a mangan ron off third or a
   * mangan tsumo lifts it, 4 han 30 fu only off third. */
  rm_efr_state s = {.scores = {16000, 26000, 28000, 30000}, .round = 3};
  const int seat = 0, rel = (seat - 3) & 3;
  double p[4][4];
  efr_mc(hands, n, &s, sims, seed, p);
  fprintf(f, "table 10 anchor: East 4, 0 honba, scores %d %d %d %d (dealer seat 3), seat %d "
             "last\n", s.scores[0], s.scores[1], s.scores[2], s.scores[3], seat);
  fprintf(f, "  before the hand: model EFR %.3f, Monte Carlo %.3f\n",
          rm_efr_value(m, &s, seat), efr_of(p[seat]));
  fprintf(f, "  after a win of 30 fu: model / Monte Carlo (game over: the exact rank twice; "
             "else the model at the next hand / Monte Carlo from it)\n"
             "  han   ron off seat 1   ron off seat 2   ron off seat 3 (dealer)   tsumo\n");
  double value[4][4]; /* [han - 1][payer: 0..2 the rons, 3 tsumo] */
  const mc_src src = {hands, n, sims, seed};
  for (int han = 1; han <= 4; han++) {
    double mc[4];
    for (int o = 1; o <= 4; o++) {
      efr_hand h = rm_efr_win(han, 30, rel, o < 4 ? (o - 3) & 3 : rel);
      value[han - 1][o - 1] = after(m, &s, &h, seat, &src, &mc[o - 1]);
    }
    fprintf(f, "  %d     %.3f / %.3f    %.3f / %.3f    %.3f / %.3f             %.3f / %.3f\n",
            han, value[han - 1][0], mc[0], value[han - 1][1], mc[1], value[han - 1][2], mc[2],
            value[han - 1][3], mc[3]);
  }
  /* Penalty(z): the mean value over the logs' hands that the seat does not win. */
  double pen = 0;
  size_t np = 0;
  for (size_t i = 0; i < n; i++) {
    int win = hands[i].kind == EFR_RON || hands[i].kind == EFR_TSUMO;
    if (win && hands[i].winner == rel) continue;
    pen += after(m, &s, &hands[i], seat, NULL, NULL), np++;
  }
  pen = np ? pen / (double)np : 4;
  fprintf(f, "  Penalty(z) over %zu hands the seat does not win: %.3f\n", np, pen);
  /* Score(x) of §2.7 (P(i, tsumo) = P(i, ron off each) = P(i)/4) for table 8's P_bc(>= h),
   * the differences clamped at 0 and the no-win weight 1 - sum. */
  static const struct { const char *tile; double ge[4], paper; } t8[] = {
      {"5m", {.353, .338, .221, .111}, 3.889}, {"7p", {.294, .303, .240, .136}, 3.797},
      {"N", {.328, .285, .161, .079}, 3.93},   {"white", {.173, .168, .149, .063}, 3.94}};
  fprintf(f, "  Score(x) for table 8's P_bc of each discard under this model (paper's table 10):\n");
  for (int d = 0; d < 4; d++) {
    double score = 0, pwin = 0;
    for (int i = 0; i < 4; i++) {
      double pi = t8[d].ge[i] - (i < 3 ? t8[d].ge[i + 1] : 0);
      if (pi < 0) pi = 0;
      pwin += pi;
      score += pi / 4 * (value[i][0] + value[i][1] + value[i][2] + value[i][3]);
    }
    score += (1 - pwin) * pen;
    fprintf(f, "    %-5s  %.3f   (paper %.3f)\n", t8[d].tile, score, t8[d].paper);
  }
}
