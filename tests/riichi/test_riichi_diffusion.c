/* tests/riichi/test_riichi_diffusion.c — paper 003's learned sampler and its direct baseline
 * (plugins/riichi_sampler: rs_nn.h, obs.h, diffusion.h, direct.h):
 * - the cosine schedule against its closed form and known values;
 * - the MLP's gradient against finite differences of the loss, in every layer;
 * - the discretisation on hand-made outputs: exact counts, the order of the sorted scores, the
 *   caps by the unseen copies and by the hand size, short hands completed, red flags;
 * - inpainting: the viewer's own row comes out exactly as given;
 * - a sample through the shipped weights: consistent with the view (every kind's copies add up
 *   to 4, the opponents hold 13 - 3 x melds, the viewer's hand untouched) and the same games for
 *   the same rng state; its cost per sample with GSL's CBLAS printed;
 * - the shipped weights load through the sampler registry and their SHA-256 is the documented
 *   one (docs/riichi-samplers.md);
 * - a tiny training run lowers the diffusion loss, and the direct model's loss;
 * - the direct predictor's outputs are distributions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diffusion.h"
#include "direct.h"
#include "rsamp.h"
#include "taikai/sha256.h"
#include "unit.h"

#ifndef RS_WEIGHTS
#error RS_WEIGHTS (the shipped diffusion weights) must be defined
#endif

/* The SHA-256 of the shipped weights, as docs/riichi-samplers.md states it. */
#define SHIPPED_SHA256 "3ef4b243d0f3a6cb03fd615239d57b334581fc78cd1ca43ee73c745b595ce566"
#define HUMAN_SHA256 "8522fb0a598df7ce12dbace2e817c133e6383132ad9cad44d4b701a628f9c814"
#define SAMPLES_SHA256 "b0de14f2f94c76961114c694604cd510e15a71d20fe171f793131a12f5bc1865"
#define DIRECT_SHA256 "9a0f499f96652600f5de1d62f99a9a5983a2a7b3ccf99fec767999935faa74d0"

static void schedule(void) {
  enum { T = 20 };
  double abar[T + 1], beta[T + 1];
  rs_df_schedule(T, abar, beta);
  const double s = 0.008, pi2 = acos(0.0);
  double f0 = cos(s / (1 + s) * pi2) * cos(s / (1 + s) * pi2);
  TK_EQ(abar[0] == 1.0, 1, "alpha_bar(0) = 1");
  for (int t = 1; t < T; t++) {
    double f = cos(((double)t / T + s) / (1 + s) * pi2);
    if (fabs(abar[t] - f * f / f0) > 1e-12)
      TK_FAILF("alpha_bar(%d) = %.15g, closed form %.15g", t, abar[t], f * f / f0);
    if (fabs(beta[t] - (1 - abar[t] / abar[t - 1])) > 1e-12) TK_FAILF("beta(%d)", t);
  }
  /* known values (computed independently, in Python) */
  if (fabs(abar[10] - 0.49384359044063775) > 1e-12) TK_FAILF("alpha_bar(10) = %.17g", abar[10]);
  if (fabs(abar[1] - 0.9920072786842186) > 1e-12) TK_FAILF("alpha_bar(1) = %.17g", abar[1]);
  if (fabs(abar[19] - 0.0060596446214511695) > 1e-12) TK_FAILF("alpha_bar(19) = %.17g", abar[19]);
  /* the last step: f(T) = 0, so beta is clipped at 0.999 */
  if (fabs(beta[T] - 0.999) > 1e-15) TK_FAILF("beta(T) = %.17g, expected the clip 0.999", beta[T]);
  if (fabs(abar[T] - abar[T - 1] * 0.001) > 1e-15) TK_FAILF("alpha_bar(T) = %.17g", abar[T]);
}

/* loss = sum_i w_i out_i, whose derivative by out is w */
static double lin_loss(const rs_mlp *m, const float *x, int rows, const float *w, float *sc) {
  float out[64];
  rs_mlp_forward_from(m, 0, rows, x, out, sc);
  double l = 0;
  for (int i = 0; i < rows * m->n[m->nl]; i++) l += (double)w[i] * out[i];
  return l;
}

static void gradient(void) {
  tk_rng rng;
  tk_rng_seed(&rng, 7);
  const int n[4] = {5, 6, 4, 3};
  rs_mlp m;
  tk_error err;
  TK_EQ(rs_mlp_init(&m, 3, n, &rng, &err), 0, "init");
  for (size_t i = 0; i < m.np; i++) m.p[i] += (float)(0.1 * (tk_rng_double(&rng) - 0.5));
  enum { R = 3 };
  float x[R * 5], w[R * 3], out[R * 3], sc[2 * R * 6];
  for (int i = 0; i < R * 5; i++) x[i] = (float)(2 * tk_rng_double(&rng) - 1);
  for (int i = 0; i < R * 3; i++) w[i] = (float)(2 * tk_rng_double(&rng) - 1);
  rs_mlp_cache c;
  memset(&c, 0, sizeof c);
  float *g = calloc(m.np, sizeof *g);
  TK_EQ(rs_mlp_forward(&m, R, x, out, &c, NULL), 0, "forward");
  rs_mlp_backward(&m, &c, w, g);
  int bad = 0, checked = 0;
  for (size_t i = 0; i < m.np; i++) {
    float keep = m.p[i];
    const float h = 1e-2f;
    m.p[i] = keep + h;
    double lp = lin_loss(&m, x, R, w, sc);
    m.p[i] = keep - h;
    double lm = lin_loss(&m, x, R, w, sc);
    m.p[i] = keep;
    double fd = (lp - lm) / (2 * h);
    checked++;
    if (fabs(fd - g[i]) > 2e-3 + 2e-2 * fabs(fd)) {
      if (bad++ < 5) TK_FAILF("parameter %zu: backward %.6f, finite differences %.6f", i, g[i], fd);
    }
  }
  TK_EQ(checked, (int)m.np, "every parameter checked");
  TK_EQ(bad, 0, "gradient mismatches");
  free(g);
  rs_mlp_cache_free(&c);
  rs_mlp_free(&m);
}

static void set_count(float y[3][RS_X_ROW], int who, int kind, float v) { y[who][kind] = v; }

static int total(const uint8_t h[TK_KINDS]) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) n += h[k];
  return n;
}

static void discretise(void) {
  tk_rng rng;
  tk_rng_seed(&rng, 3);
  float y[3][RS_X_ROW];
  uint8_t unseen[TK_KINDS], hands[3][TK_KINDS], red[3];
  int need[3] = {13, 10, 7};
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = 4;
  /* exact counts: each opponent's values sit on reference points and add up to its hand */
  memset(y, 0, sizeof y);
  set_count(y, 0, 0, 1.0f), set_count(y, 0, 1, 0.75f), set_count(y, 0, 2, 1.0f);
  set_count(y, 0, 3, 0.5f);                             /* 4 + 3 + 4 + 2 = 13 */
  set_count(y, 1, 9, 0.75f), set_count(y, 1, 10, 0.75f), set_count(y, 1, 11, 1.0f); /* 10 */
  set_count(y, 2, 27, 0.75f), set_count(y, 2, 28, 0.5f), set_count(y, 2, 29, 0.5f);  /* 7 */
  int f = rs_df_discretise((const float(*)[RS_X_ROW])y, need, unseen, 7, &rng, hands, red);
  TK_EQ(f, 0, "exact counts: no random fill");
  TK_EQ(hands[0][0], 4, "opp 1 1m");
  TK_EQ(hands[0][1], 3, "opp 1 2m");
  TK_EQ(hands[0][3], 2, "opp 1 4m");
  TK_EQ(hands[1][11], 4, "opp 2 3p");
  TK_EQ(hands[2][28], 2, "opp 3 S");
  TK_EQ(total(hands[2]), 7, "opp 3 size");
  /* the sort: two opponents want the same kind (4 unseen); the one whose value is nearer its
   * reference point is served first and the other gets what is left */
  memset(y, 0, sizeof y);
  int need1[3] = {3, 3, 1};
  set_count(y, 0, 5, 0.74f); /* 3, score 0.01 */
  set_count(y, 1, 5, 0.45f); /* 2, score 0.05 */
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = k == 5 ? 4 : 0;
  unseen[20] = 4; /* where the short hands are filled from */
  f = rs_df_discretise((const float(*)[RS_X_ROW])y, need1, unseen, 7, &rng, hands, red);
  TK_EQ(hands[0][5], 3, "the nearer (opp 1) is served first: 3");
  TK_EQ(hands[1][5], 1, "the other gets the 1 left");
  TK_EQ(hands[1][20], 2, "its hand completed at random from the rest");
  TK_EQ(f, 3, "tiles filled at random (opp 2: 2, opp 3: 1)");
  set_count(y, 0, 5, 0.70f); /* 3, score 0.05 */
  set_count(y, 1, 5, 0.51f); /* 2, score 0.01 */
  f = rs_df_discretise((const float(*)[RS_X_ROW])y, need1, unseen, 7, &rng, hands, red);
  TK_EQ(hands[1][5], 2, "now opp 2 is nearer: 2");
  TK_EQ(hands[0][5], 2, "opp 1 gets the 2 left");
  /* caps: the unseen copies, and the tiles the hand still needs */
  memset(y, 0, sizeof y);
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = 4;
  unseen[30] = 2;
  int need2[3] = {4, 1, 1};
  set_count(y, 0, 30, 1.0f);  /* wants 4, only 2 unseen */
  set_count(y, 0, 31, 0.99f); /* wants 4, hand has room for 2 more */
  set_count(y, 1, 0, 0.25f), set_count(y, 2, 0, 0.25f);
  f = rs_df_discretise((const float(*)[RS_X_ROW])y, need2, unseen, 7, &rng, hands, red);
  TK_EQ(hands[0][30], 2, "capped by the unseen copies");
  TK_EQ(hands[0][31], 2, "capped by the tiles still needed");
  TK_EQ(f, 0, "no fill");
  /* counts once set never change: opp 1's kind 0 set to 0 stays 0 though it is short */
  /* an all-zero output: every hand completed at random, within the unseen tiles */
  memset(y, 0, sizeof y);
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = (uint8_t)(k % 3);
  f = rs_df_discretise((const float(*)[RS_X_ROW])y, need, unseen, 7, &rng, hands, red);
  TK_EQ(f, 30, "all 30 tiles filled at random");
  for (int i = 0; i < 3; i++) TK_EQ(total(hands[i]), need[i], "hand size after the fill");
  for (int k = 0; k < TK_KINDS; k++)
    if (hands[0][k] + hands[1][k] + hands[2][k] > unseen[k]) TK_FAILF("kind %d over its unseen", k);
  /* red flags: >= 0.5 and a five held and the red one unseen */
  memset(y, 0, sizeof y);
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = 4;
  int need3[3] = {1, 1, 1};
  set_count(y, 0, 4, 0.25f), y[0][TK_KINDS + 4] = 0.5f;   /* 5m, red */
  set_count(y, 1, 13, 0.25f), y[1][TK_KINDS + 13] = 0.49f; /* 5p, not red */
  set_count(y, 2, 22, 0.25f), y[2][TK_KINDS + 22] = 0.9f; /* 5s, red not unseen */
  f = rs_df_discretise((const float(*)[RS_X_ROW])y, need3, unseen, 3, &rng, hands, red);
  TK_EQ(red[0], 1, "opp 1: red 5m");
  TK_EQ(red[1], 0, "opp 2: 0.49 is not red");
  TK_EQ(red[2], 0, "opp 3: the red 5s is not unseen");
}

/* A position some turns into a hand: everyone discards its drawn tile, seat 0 calls nothing. */
static void position(tk_riichi_game *g, int turns) {
  tk_error err;
  tk_riichi_init(g, NULL, 99, 5, NULL, &err);
  tk_riichi_deal(g, NULL, NULL, &err);
  for (int i = 0; i < turns && g->phase != TK_RIICHI_PHASE_OVER; i++) {
    int s = g->turn;
    if (g->phase == TK_RIICHI_PHASE_REACT) {
      for (int q = 0; q < 4; q++) {
        tk_riichi_legal l;
        tk_riichi_legal_of(g, q, &l);
        for (int j = 0; j < l.n; j++)
          if (l.a[j].type == TK_RIICHI_PASS) tk_riichi_apply(g, q, &l.a[j], NULL, &err);
      }
      i--;
      continue;
    }
    tk_riichi_legal l;
    tk_riichi_legal_of(g, s, &l);
    int pick = -1;
    for (int j = 0; j < l.n; j++)
      if (l.a[j].type == TK_RIICHI_DISCARD && (pick < 0 || l.a[j].tile == g->drawn)) pick = j;
    if (pick < 0) break;
    tk_riichi_apply(g, s, &l.a[pick], NULL, &err);
  }
}

static void inpainting(void) {
  tk_rng rng;
  tk_rng_seed(&rng, 11);
  int n[4] = {RS_DF_IN, 48, 48, RS_X_DIM};
  rs_mlp m;
  tk_error err;
  TK_EQ(rs_mlp_init(&m, 3, n, &rng, &err), 0, "init");
  rs_diffusion d;
  TK_EQ(rs_df_from_net(&d, &m, 12, &err), 0, "diffusion");
  d.guidance = 2; /* both passes */
  float c[RS_OBS_DIM], own[RS_X_ROW], out[3 * RS_X_DIM];
  for (int i = 0; i < RS_OBS_DIM; i++) c[i] = (float)tk_rng_double(&rng);
  uint8_t hand[TK_KINDS] = {0};
  hand[0] = 3, hand[4] = 1, hand[13] = 2, hand[30] = 4, hand[33] = 4;
  rs_x0_row(hand, 1, own);
  TK_EQ(rs_df_sample_x0(&d, c, own, 3, &rng, out, &err), 0, "sample");
  int bad = 0;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < RS_X_ROW; i++)
      if (out[r * RS_X_DIM + i] != own[i] && bad++ < 3)
        TK_FAILF("sample %d value %d: %g, own %g", r, i, out[r * RS_X_DIM + i], own[i]);
  TK_EQ(bad, 0, "own row kept exactly");
  rs_df_free(&d);
}

static int open_shipped(rs_sampler **s) {
  tk_error err;
  int rc = rs_sampler_open("diffusion", NULL, RS_WEIGHTS, s, &err);
  if (rc) TK_FAILF("open: %s", err.msg);
  return rc;
}

static void consistent_kind_counts(const tk_riichi_game *g, const tk_riichi_view *v) {
  int cnt[TK_KINDS] = {0};
  for (int s = 0; s < 4; s++) {
    const tk_riichi_player *p = &g->p[s];
    for (int k = 0; k < TK_KINDS; k++) cnt[k] += p->hand[k];
    int n = total(p->hand);
    if (s != v->seat && n != 13 - 3 * v->nmelds[s]) TK_FAILF("seat %d holds %d tiles", s, n);
    if (s == v->seat && memcmp(p->hand, v->hand, TK_KINDS)) TK_FAILF("the viewer's hand changed");
  }
  for (int k = 0; k < TK_KINDS; k++)
    if (cnt[k] + v->seen[k] > 4) TK_FAILF("kind %d: %d concealed + %d seen", k, cnt[k], v->seen[k]);
}

static void sample_consistent(void) {
  rs_sampler *s;
  if (open_shipped(&s)) return;
  tk_riichi_game g;
  position(&g, 24);
  int viewer = g.turn;
  tk_riichi_view v;
  tk_riichi_view_of(&g, viewer, &v);
  enum { K = 8 };
  static tk_riichi_game a[K], b[K];
  tk_rng r1, r2;
  tk_rng_seed(&r1, 5), tk_rng_seed(&r2, 5);
  tk_error err;
  TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r1, K, a, &err), 0, "sample");
  TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r2, K, b, &err), 0, "sample again");
  for (int i = 0; i < K; i++) {
    consistent_kind_counts(&a[i], &v);
    tk_riichi_view w;
    tk_riichi_view_of(&a[i], viewer, &w);
    if (memcmp(w.hand, v.hand, TK_KINDS) || memcmp(w.seen, v.seen, TK_KINDS))
      TK_FAILF("sample %d: the viewer's view differs", i);
    if (memcmp(&a[i], &b[i], sizeof a[i])) TK_FAILF("sample %d differs for the same rng state", i);
  }
  /* the opponents' sampled hands pinned: the sampler promises the same samples on every machine
   * and at every optimisation level (GSL's CBLAS, rs_math.h, no FMA contraction), so this
   * fingerprint must hold in the normal and the sanitizer builds alike (it does: -O2 and -O0).
   * It pins the discretised hands, so it changes with the shipped weights, the noise, the
   * sampler's steps or this position (the engine's walls); an error of 1e-6 in rs_cos2pi left
   * it unchanged (the schedule test catches that one). */
  char fp[TK_SHA256_HEX];
  {
    tk_sha256 h;
    tk_sha256_init(&h);
    for (int i = 0; i < K; i++)
      for (int q = 0; q < 4; q++) tk_sha256_update(&h, a[i].p[q].hand, TK_KINDS);
    uint8_t dg[TK_SHA256_BYTES];
    tk_sha256_final(&h, dg);
    tk_sha256_hex(dg, fp);
  }
  if (strcmp(fp, SAMPLES_SHA256)) TK_FAILF("samples' fingerprint %s, expected %s", fp, SAMPLES_SHA256);
  int differ = 0;
  for (int i = 1; i < K; i++) differ += memcmp(a[i].p, a[0].p, sizeof a[0].p) != 0;
  TK_EQ(differ > 0, 1, "the samples are not all the same");
  /* cost per sample, GSL's CBLAS, one core */
  rs_diffusion *d = s->s.ctx;
  for (int pass = 0; pass < 2; pass++) {
    d->guidance = pass ? 1.5 : 1.0;
    enum { N = 40 };
    static tk_riichi_game many[N];
    clock_t c0 = clock();
    TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r1, N, many, &err), 0, "timed sample");
    double ms = 1000.0 * (double)(clock() - c0) / CLOCKS_PER_SEC / N;
    printf("\n  diffusion sample (T = %d, guidance %.1f, GSL CBLAS): %.2f ms CPU each; random "
           "fills so far %llu of %llu samples\n", d->T, d->guidance, ms, d->short_samples,
           d->samples);
  }
  rs_sampler_close(s);
}

/* The autoregressive baseline through the registry: consistent hands, reproducible. */
static void autoregressive(void) {
  rs_sampler *s;
  tk_error err;
  if (rs_sampler_open("autoregressive", NULL, RS_AR_WEIGHTS, &s, &err)) {
    TK_FAILF("open: %s", err.msg);
    return;
  }
  tk_riichi_game g;
  position(&g, 20);
  int viewer = g.turn;
  tk_riichi_view v;
  tk_riichi_view_of(&g, viewer, &v);
  enum { K = 6 };
  static tk_riichi_game a[K], b[K];
  tk_rng r1, r2;
  tk_rng_seed(&r1, 9), tk_rng_seed(&r2, 9);
  TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r1, K, a, &err), 0, "sample");
  TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r2, K, b, &err), 0, "sample again");
  for (int i = 0; i < K; i++) {
    consistent_kind_counts(&a[i], &v);
    if (memcmp(&a[i], &b[i], sizeof a[i])) TK_FAILF("sample %d differs for the same rng state", i);
  }
  clock_t c0 = clock();
  enum { N = 20 };
  static tk_riichi_game many[N];
  TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &r1, N, many, &err), 0, "timed sample");
  printf("\n  autoregressive sample (GSL CBLAS): %.2f ms CPU each\n",
         1000.0 * (double)(clock() - c0) / CLOCKS_PER_SEC / N);
  rs_sampler_close(s);
  TK_EQ(rs_sampler_open("autoregressive", "{\"x\": 1}", RS_AR_WEIGHTS, &s, &err) == TK_EINVAL, 1,
        "options refused");
}

static void shipped(void) {
  char hex[TK_SHA256_HEX];
  tk_error err;
  TK_EQ(tk_sha256_file(RS_WEIGHTS, hex, &err), 0, "hash");
  if (strcmp(hex, SHIPPED_SHA256)) TK_FAILF("sha256 %s, documented %s", hex, SHIPPED_SHA256);
  rs_sampler *s;
  if (open_shipped(&s)) return;
  char hex2[TK_SHA256_HEX];
  tk_sha256_hex(s->file_sha256, hex2);
  if (strcmp(hex2, hex)) TK_FAILF("the sampler records %s", hex2);
  rs_sampler_close(s);
  TK_EQ(rs_sampler_known("diffusion"), 1, "registered");
  /* the Tenhou-trained model loads too */
  if (rs_sampler_open("diffusion", NULL, RS_WEIGHTS_HUMAN, &s, &err)) {
    TK_FAILF("human weights: %s", err.msg);
  } else {
    tk_sha256_hex(s->file_sha256, hex2);
    if (strcmp(hex2, HUMAN_SHA256)) TK_FAILF("human weights: sha256 %s, documented %s", hex2, HUMAN_SHA256);
    rs_sampler_close(s);
  }
  TK_EQ(rs_sampler_open("diffusion", "{\"guidanse\": 2}", RS_WEIGHTS, &s, &err), TK_EINVAL,
        "an unknown option refused");
  TK_EQ(rs_sampler_open("diffusion", "{\"eta\": 2}", RS_WEIGHTS, &s, &err), TK_EINVAL,
        "eta beyond 1 refused");
  TK_EQ(rs_sampler_open("diffusion", "{\"eta\": 0, \"guidance\": 2}", RS_WEIGHTS, &s, &err), 0,
        "eta and guidance accepted");
  if (s) {
    rs_diffusion *d = s->s.ctx;
    TK_EQ(d->eta == 0 && d->guidance == 2, 1, "the options reach the sampler");
    rs_sampler_close(s);
  }
  TK_EQ(rs_sampler_open("diffusion", NULL, "/nonexistent.tkw", &s, &err) != 0, 1,
        "a missing file refused");
  rs_direct dm;
  tk_error_clear(&err);
  if (rs_direct_load(&dm, RS_DIRECT_WEIGHTS, &err)) {
    TK_FAILF("direct: %s", err.msg);
    return;
  }
  tk_riichi_game g;
  position(&g, 30);
  tk_riichi_view v;
  tk_riichi_view_of(&g, g.turn, &v);
  tk_sha256_hex(dm.sha256, hex2);
  if (strcmp(hex2, DIRECT_SHA256)) TK_FAILF("direct weights: sha256 %s, documented %s", hex2, DIRECT_SHA256);
  double sh[3][7], w[3][34];
  TK_EQ(rs_direct_predict(&dm, &v, sh, w), 0, "predict");
  for (int i = 0; i < 3; i++) {
    double z = 0;
    for (int k = 0; k < 7; k++) z += sh[i][k];
    if (fabs(z - 1) > 1e-9) TK_FAILF("opponent %d: shanten probabilities add up to %g", i, z);
    for (int k = 0; k < 34; k++)
      if (!(w[i][k] >= 0 && w[i][k] <= 1)) TK_FAILF("wait %d %d = %g", i, k, w[i][k]);
  }
  rs_direct_free(&dm);
}

/* Synthetic data: x0 is a fixed function of which of 4 observations is shown. */
static void learns(void) {
  tk_rng rng;
  tk_rng_seed(&rng, 21);
  int n[3] = {RS_DF_IN, 32, RS_X_DIM};
  rs_mlp m;
  tk_error err;
  TK_EQ(rs_mlp_init(&m, 2, n, &rng, &err), 0, "init");
  rs_diffusion d;
  TK_EQ(rs_df_from_net(&d, &m, 10, &err), 0, "diffusion");
  rs_adam a;
  TK_EQ(rs_adam_init(&a, &d.net, 3e-3, &err), 0, "adam");
  rs_mlp_cache cache;
  memset(&cache, 0, sizeof cache);
  enum { B = 32 };
  static float in[B * RS_DF_IN], tgt[B * RS_X_DIM], out[B * RS_X_DIM], dout[B * RS_X_DIM];
  double first = 0, last = 0;
  for (int step = 0; step < 300; step++) {
    for (int r = 0; r < B; r++) {
      int which = (int)tk_rng_below(&rng, 4);
      float c[RS_OBS_DIM] = {0}, eps[RS_X_DIM];
      c[which] = 1;
      for (int i = 0; i < RS_X_DIM; i++) {
        tgt[r * RS_X_DIM + i] = ((i * 7 + which * 13) % 5) * 0.5f - 1;
        eps[i] = rs_gauss(&rng);
      }
      rs_df_input(&d, tgt + r * RS_X_DIM, eps, 1 + (int)tk_rng_below(&rng, 10), c,
                  in + r * RS_DF_IN);
    }
    rs_mlp_forward(&d.net, B, in, out, &cache, NULL);
    double loss = 0;
    for (int i = 0; i < B * RS_X_DIM; i++) {
      float e = out[i] - tgt[i];
      loss += e * e;
      dout[i] = 2 * e / (B * RS_X_DIM);
    }
    loss /= B * RS_X_DIM;
    if (step < 10) first += loss / 10;
    if (step >= 290) last += loss / 10;
    rs_mlp_backward(&d.net, &cache, dout, a.g);
    rs_adam_step(&a, &d.net);
  }
  printf("\n  tiny training: loss %.4f -> %.4f\n", first, last);
  TK_EQ(last < 0.5 * first, 1, "the loss falls by half at least");
  rs_mlp_cache_free(&cache);
  rs_adam_free(&a);
  rs_df_free(&d);
  /* the direct model's loss too (and its gradient through rs_direct_loss) */
  int nd[3] = {RS_OBS_DIM, 32, RS_DIRECT_OUT};
  TK_EQ(rs_mlp_init(&m, 2, nd, &rng, &err), 0, "init direct");
  TK_EQ(rs_adam_init(&a, &m, 3e-3, &err), 0, "adam");
  static float cin[B * RS_OBS_DIM], dout2[B * RS_DIRECT_OUT], out2[B * RS_DIRECT_OUT];
  first = last = 0;
  for (int step = 0; step < 200; step++) {
    uint8_t sh[B][3];
    uint64_t w[B][3];
    memset(cin, 0, sizeof cin);
    for (int r = 0; r < B; r++) {
      int which = (int)tk_rng_below(&rng, 4);
      cin[r * RS_OBS_DIM + which] = 1;
      for (int i = 0; i < 3; i++) sh[r][i] = (uint8_t)((which + i) % 7), w[r][i] = 1ull << (which * 3 + i);
    }
    rs_mlp_forward(&m, B, cin, out2, &cache, NULL);
    double loss = 0;
    for (int r = 0; r < B; r++)
      loss += rs_direct_loss(out2 + r * RS_DIRECT_OUT, sh[r], w[r], 1.0f / B, dout2 + r * RS_DIRECT_OUT);
    loss /= B;
    if (step < 10) first += loss / 10;
    if (step >= 190) last += loss / 10;
    rs_mlp_backward(&m, &cache, dout2, a.g);
    rs_adam_step(&a, &m);
  }
  printf("  tiny direct training: loss %.4f -> %.4f\n", first, last);
  TK_EQ(last < 0.3 * first, 1, "the direct loss falls");
  rs_mlp_cache_free(&cache);
  rs_adam_free(&a);
  rs_mlp_free(&m);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"cosine schedule", schedule},
      {"mlp gradient", gradient},
      {"discretisation", discretise},
      {"inpainting", inpainting},
      {"a sample is consistent and reproducible", sample_consistent},
      {"shipped weights", shipped},
      {"autoregressive baseline", autoregressive},
      {"training lowers the loss", learns},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_diffusion", tests);
}
