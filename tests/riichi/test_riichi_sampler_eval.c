/* tests/riichi/test_riichi_sampler_eval.c — paper 003's evaluation (plugins/riichi_sampler/
 * rs_eval.h, build/riichi_sampler_eval): the answers of hands of 13 - 3m tiles, predictions
 * counted from samples, known answers for the metrics (a perfect predictor: shanten error 0, ECE
 * 0; constant probabilities: ECE by hand; a known shanten distribution: its error by hand), the
 * Platt fit recovering a and b from synthetic data, and the tool end to end on a log of greedy
 * games: its JSON's fields, the same numbers twice, other numbers with another --seed, its
 * errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "agents.h"
#include "riichi_log.h"
#include "rs_eval.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "unit.h"

static void counts_of(const char *s, uint8_t c[TK_KINDS]) {
  tk_tile t[14];
  memset(c, 0, TK_KINDS);
  int n = tk_tiles_parse(s, t, 14, NULL);
  for (int i = 0; i < n; i++) c[tk_tile_kind(t[i])]++;
}

static int kind(const char *s) { return tk_tile_kind((tk_tile)tk_tile_parse1(s, NULL)); }

/* |got - want| <= tol, else a failure at the caller's line */
#define near(got, want, tol, what)                                                         \
  do {                                                                                     \
    double g_ = (got), w_ = (want), t_ = (tol);                                            \
    if (!(fabs(g_ - w_) <= t_)) TK_FAILF("%s = %.9g, expected %.9g (± %g)", what, g_, w_, t_); \
    else CU_PASS(what);                                                                    \
  } while (0)

/* Hands of 13, 10, 4 and 1 tiles (0 to 3 melds): shanten and waits. */
static void hand_answers(void) {
  static const struct {
    const char *hand, *waits;
    int shanten;
  } cases[] = {
      {"123m456p789s1122z", "1z2z", 0},   /* shanpon on E and S */
      {"1199m2288p3377s1z", "1z", 0},     /* seven pairs */
      {"19m19p19s1234567z", "1m9m1p9p1s9s1z2z3z4z5z6z7z", 0}, /* 13 orphans, 13-sided */
      {"123m456p78s12z", "", 1},          /* 10 tiles, one meld: 1-shanten */
      {"11m23p", "1p4p", 0},              /* 4 tiles, three melds */
      {"5s", "5s", 0},                    /* 1 tile, four melds: tanki */
      {"147m258p369s1357z", "", 6},       /* the worst 13 tiles */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t c[TK_KINDS];
    counts_of(cases[i].hand, c);
    int sh = -9;
    uint64_t w = 0, want = 0;
    TK_EQ(rs_hand_answer(c, &sh, &w), 0, cases[i].hand);
    TK_EQ(sh, cases[i].shanten, cases[i].hand);
    uint8_t wc[TK_KINDS];
    counts_of(cases[i].waits, wc);
    for (int k = 0; k < TK_KINDS; k++) want |= (uint64_t)(wc[k] > 0) << k;
    if (w != want) TK_FAILF("%s: waits %#llx, expected %#llx", cases[i].hand,
                            (unsigned long long)w, (unsigned long long)want);
  }
  uint8_t c[TK_KINDS];
  int sh;
  uint64_t w;
  counts_of("123m456p789s11z", c); /* 11 tiles: not 3k+1 */
  TK_EQ(rs_hand_answer(c, &sh, &w), TK_EINVAL, "11 tiles refused");
}

/* A game with the given concealed hands of seats 0..3 (only the counts matter here). */
static void set_hands(tk_riichi_game *g, const char *const h[4]) {
  memset(g, 0, sizeof *g);
  for (int s = 0; s < 4; s++) counts_of(h[s], g->p[s].hand);
}

/* Samples counted: seat 1 (the viewer 0's next) tenpai in 2 of 4 samples, on 1z2z in one and 1z
 * alone in the other. */
static void counted(void) {
  static tk_riichi_game g[4];
  const char *me = "123m456p789s11z22z";
  const char *a[4][4] = {
      {me, "123m456p789s1122z", "147m258p369s1357z", "5s"},
      {me, "1199m2288p3377s1z", "147m258p369s1357z", "5s"},
      {me, "123m456p789s1357z", "147m258p369s1357z", "5s"},
      {me, "123m456p789s1357z", "147m258p369s1357z", "5s"},
  };
  for (int i = 0; i < 4; i++) set_hands(&g[i], a[i]);
  rs_pred p;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(rs_pred_from_games(g, 4, 0, &p, &err), 0, "counted");
  near(p.shanten[0][0], 0.5, 1e-12, "P(next tenpai)");
  near(p.shanten[0][2], 0.5, 1e-12, "P(next 2-shanten)"); /* 123m456p789s1357z: 2-shanten */
  near(p.wait[0][kind("1z")], 0.5, 1e-12, "P(E a wait of next)");
  near(p.wait[0][kind("2z")], 0.25, 1e-12, "P(S a wait of next)");
  near(p.wait[0][kind("3z")], 0, 0, "P(W a wait of next)");
  near(p.shanten[1][6], 1, 1e-12, "across at 6-shanten");
  near(p.shanten[2][0], 1, 1e-12, "previous (seat 3) tenpai");
  near(p.wait[2][kind("5s")], 1, 1e-12, "previous waits on 5s");
  /* the viewer 2: its next is seat 3, its previous seat 1 */
  TK_EQ(rs_pred_from_games(g, 4, 2, &p, &err), 0, "viewer 2");
  near(p.wait[0][kind("5s")], 1, 1e-12, "viewer 2's next is seat 3");
  near(p.shanten[2][0], 0.5, 1e-12, "viewer 2's previous is seat 1");
  /* the truth, viewer-relative too: viewer 2 sees seat 3 (5s tanki), seat 0, seat 1 */
  rs_truth t;
  TK_EQ(rs_truth_of(&g[2], 2, &t), 0, "truth");
  TK_EQ(t.shanten[0], 0, "viewer 2's next: seat 3, tenpai");
  TK_EQ(t.waits[0], 1ull << kind("5s"), "on 5s");
  TK_EQ(t.shanten[2], 2, "viewer 2's previous: seat 1, 2-shanten");
  TK_EQ(rs_truth_of(&g[0], 0, &t), 0, "truth");
  TK_EQ(t.waits[0], 1ull << kind("1z") | 1ull << kind("2z"), "viewer 0's next: seat 1");
  TK_EQ(t.shanten[1], 6, "viewer 0's across: seat 2");
  /* a sample whose opponent holds a wrong count is refused */
  counts_of("123m", g[3].p[2].hand);
  if (rs_pred_from_games(g, 4, 0, &p, &err) != TK_EINVAL) TK_FAILF("a 3-tile hand accepted");
  else if (!strstr(err.msg, "sample 3") || !strstr(err.msg, "seat 2"))
    TK_FAILF("message: %s", err.msg);
  else CU_PASS("refused");
}

/* The prediction that is the truth. */
static void perfect_of(const rs_truth *t, rs_pred *p) {
  memset(p, 0, sizeof *p);
  for (int o = 0; o < 3; o++) {
    p->shanten[o][t->shanten[o]] = 1;
    for (int k = 0; k < TK_KINDS; k++) p->wait[o][k] = (double)(t->waits[o] >> k & 1);
  }
}

static void perfect(void) {
  rs_eval_acc a;
  memset(&a, 0, sizeof a);
  tk_rng rng;
  tk_rng_seed(&rng, 5);
  for (int i = 0; i < 200; i++) {
    rs_truth t;
    for (int o = 0; o < 3; o++) {
      t.shanten[o] = (int)tk_rng_below(&rng, 7);
      t.waits[o] = t.shanten[o] ? 0 : (tk_rng_next(&rng) & ((1ull << 34) - 1)) | 1;
    }
    rs_pred p;
    perfect_of(&t, &p);
    TK_EQ(rs_eval_add(&a, &p, &t, 1 + i % 20, i & 1), 0, "add");
  }
  rs_eval_summary s;
  TK_EQ(rs_eval_summarize(&a, &s), 0, "summary");
  for (int o = 0; o < 4; o++) {
    near(s.err_mean[o], 0, 0, "shanten error");
    near(s.mse[o], 0, 0, "MSE");
    TK_EQ(s.npos[o], o < 3 ? 200 : 600, "positions counted");
  }
  near(s.raw.ece, 0, 1e-12, "ECE of the truth");
  near(s.raw.brier, 0, 0, "Brier of the truth");
  for (int o = 0; o < 3; o++) near(s.tenpai_pred[o], s.tenpai_true[o], 1e-12, "tenpai rate");
  /* by turn: the predicted distribution is the true one */
  for (int b = 0; b < RS_TURNS; b++)
    for (int c = 0; c < RS_TURN_CLASSES; c++)
      near(a.turn_pred[b][c], a.turn_true[b][c], 1e-9, "by turn");
  TK_EQ(a.turn_n[RS_TURNS - 1], 3 * 30, "turns 18, 19, 20 in the last bucket");
  rs_eval_free(&a);
}

/* Constant probabilities, worked by hand. Two positions; every opponent's truth: shanten 1 in the
 * first position, 0 waiting on 1m and 2m in the second (6 true waits among 204 pairs). */
static void by_hand(void) {
  rs_eval_acc a;
  memset(&a, 0, sizeof a);
  rs_truth t[2];
  for (int o = 0; o < 3; o++) {
    t[0].shanten[o] = 1, t[0].waits[o] = 0;
    t[1].shanten[o] = 0, t[1].waits[o] = 3;
  }
  /* shanten: 1 and 3 with probability 1/2 each; waits: 0.25 on kinds 0..16, 0.65 on 17..33 */
  rs_pred p;
  memset(&p, 0, sizeof p);
  for (int o = 0; o < 3; o++) {
    p.shanten[o][1] = p.shanten[o][3] = 0.5;
    for (int k = 0; k < TK_KINDS; k++) p.wait[o][k] = k < 17 ? 0.25 : 0.65;
  }
  TK_EQ(rs_eval_add(&a, &p, &t[0], 1, 0), 0, "add");
  TK_EQ(rs_eval_add(&a, &p, &t[1], 2, 1), 0, "add");
  rs_eval_summary s;
  TK_EQ(rs_eval_summarize(&a, &s), 0, "summary");
  /* position 1: sqrt(.5 x 0 + .5 x 4) = sqrt 2; position 2: sqrt(.5 x 1 + .5 x 9) = sqrt 5 */
  double e1 = sqrt(2), e2 = sqrt(5), m = (e1 + e2) / 2;
  near(s.err_mean[0], m, 1e-12, "mean shanten error");
  near(s.err_sd[0], sqrt((e1 - m) * (e1 - m) + (e2 - m) * (e2 - m)), 1e-12, "its sd (n-1)");
  near(s.mse[0], 3.5, 1e-12, "MSE: (2 + 5) / 2");
  near(s.err_mean[3], m, 1e-12, "pooled");
  near(s.tenpai_true[0], 0.5, 0, "true tenpai rate");
  near(s.tenpai_pred[0], 0, 0, "predicted tenpai rate");
  /* bin 2 (0.25): 102 pairs, 6 waits (1m, 2m of every opponent in position 2); bin 6 (0.65): 102
   * pairs, no wait. ECE = 102/204 x |0.25 - 6/102| + 102/204 x 0.65 */
  TK_EQ(s.raw.n[2], 102, "pairs at 0.25");
  TK_EQ(s.raw.n[6], 102, "pairs at 0.65");
  near(s.raw.ece, 0.5 * (0.25 - 6.0 / 102) + 0.5 * 0.65, 1e-6, "ECE by hand");
  near(s.raw.freq[2], 6.0 / 102, 1e-12, "frequency in bin 2");
  double brier = (6 * 0.75 * 0.75 + 96 * 0.25 * 0.25 + 102 * 0.65 * 0.65) / 204;
  near(s.raw.brier, brier, 1e-6, "Brier by hand");
  rs_eval_free(&a);
  /* rs_shanten_rms on its own */
  double d[RS_SHANTEN_N] = {0.2, 0.3, 0.5};
  near(rs_shanten_rms(d, 1), sqrt(0.2 + 0.5), 1e-12, "rms of {0: .2, 1: .3, 2: .5} at 1");
}

/* Platt scaling recovers a, b from y ~ Bernoulli(sigmoid(a logit(p) + b)), and the cross-fitted
 * scaling calibrates what was miscalibrated. */
static void platt(void) {
  const double A = 2.0, B = -1.0;
  enum { N = 200000 };
  rs_calib_pair *pr = malloc(N * sizeof *pr);
  double *p = malloc(N * sizeof *p), *q = malloc(N * sizeof *q);
  uint8_t *y = malloc(N);
  tk_rng rng;
  tk_rng_seed(&rng, 11);
  for (int i = 0; i < N; i++) {
    double x = -4 + 8 * tk_rng_double(&rng), pi = 1 / (1 + exp(-x));
    double truth = 1 / (1 + exp(-(A * x + B)));
    y[i] = tk_rng_double(&rng) < truth;
    p[i] = pi;
    pr[i] = (rs_calib_pair){(float)pi, y[i], (uint8_t)(i & 1)};
  }
  double a, b;
  TK_EQ(rs_platt_fit(pr, N, -1, &a, &b), N, "pairs used");
  near(a, A, 0.05, "a");
  near(b, B, 0.05, "b");
  TK_EQ(rs_platt_fit(pr, N, 1, &a, &b), N / 2, "one fold");
  near(a, A, 0.07, "a on the odd fold");
  near(rs_platt_apply(0.5, 2, -1), 1 / (1 + exp(1.0)), 1e-6, "apply");
  near(rs_platt_apply(0, 1, 0), 1e-4, 1e-9, "p clipped");
  /* the raw p are miscalibrated, the scaled ones are not */
  rs_reliability raw, cal;
  rs_reliability_of(p, y, N, &raw);
  for (int i = 0; i < N; i++) q[i] = rs_platt_apply(p[i], a, b);
  rs_reliability_of(q, y, N, &cal);
  if (!(raw.ece > 0.05 && cal.ece < 0.01)) TK_FAILF("ECE raw %g, scaled %g", raw.ece, cal.ece);
  else CU_PASS("calibrated");
  /* cross-fitting in rs_eval_summarize: fold 0 drawn with a = 2, fold 1 with a = 0.5; each
   * fold's pairs are scaled by the other fold's fit */
  rs_eval_acc acc;
  memset(&acc, 0, sizeof acc);
  acc.pairs = pr, acc.npairs = N;
  for (int i = 0; i < N; i++) {
    double x = -4 + 8 * tk_rng_double(&rng), pi = 1 / (1 + exp(-x));
    double truth = 1 / (1 + exp(-((i & 1 ? 0.5 : 2.0) * x + B)));
    y[i] = tk_rng_double(&rng) < truth;
    pr[i] = (rs_calib_pair){(float)pi, y[i], (uint8_t)(i & 1)};
  }
  rs_eval_summary sm;
  TK_EQ(rs_eval_summarize(&acc, &sm), 0, "summary");
  near(sm.platt_a[0], 2.0, 0.07, "fold 0's a");
  near(sm.platt_a[1], 0.5, 0.07, "fold 1's a");
  for (int i = 0; i < N; i++) {
    int f = 1 - pr[i].fold;
    q[i] = rs_platt_apply(pr[i].p, sm.platt_a[f], sm.platt_b[f]);
  }
  rs_reliability_of(q, y, N, &cal);
  near(sm.platt.ece, cal.ece, 1e-12, "ECE of the cross-fitted scaling");
  near(sm.platt.brier, cal.brier, 1e-12, "its Brier score");
  /* no pair: the identity */
  TK_EQ(rs_platt_fit(pr, 0, -1, &a, &b), 0, "none");
  near(a, 1, 0, "identity a");
  free(pr), free(p), free(q), free(y);
}

/* ---------------------------------------------------------------- end to end */

/* Writes `n` games of riichi_greedy to `path` (one file, one game after the other). */
static int write_log(const char *path, int n) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  tk_riichi_log log;
  tk_riichi_sink sink = tk_riichi_log_sink(&log, f, NULL, NULL);
  for (int gi = 0; gi < n; gi++) {
    tk_error err;
    tk_riichi_game g;
    tk_riichi_init(&g, NULL, 77, (uint64_t)gi, &sink, &err);
    tk_agent_instance *inst[4];
    for (int s = 0; s < 4; s++) {
      inst[s] = gr->create("{}", (uint64_t)s, &err);
      tk_riichi_info info;
      memset(&info, 0, sizeof info);
      info.head.seed = (uint64_t)gi * 4 + (uint64_t)s;
      info.head.seat = s;
      gr->begin_game(inst[s], &info);
    }
    while (!tk_riichi_is_over(&g)) {
      if (g.phase == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, &sink, &err);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_view v;
      tk_riichi_legal l;
      tk_riichi_action a;
      tk_riichi_view_of(&g, s, &v);
      tk_riichi_legal_of(&g, s, &l);
      gr->act(inst[s], &v, &l, &a);
      tk_riichi_apply(&g, s, &a, &sink, &err);
    }
    for (int s = 0; s < 4; s++) gr->destroy(inst[s]);
  }
  int bad = log.error;
  return fclose(f) || bad ? -1 : 0;
}

static json_t *entrant(json_t *root, const char *label) {
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(root, "entrants"), i, e) {
    if (!strcmp(json_string_value(json_object_get(e, "label")), label)) return e;
  }
  return NULL;
}

/* The numbers of an entrant that must not depend on anything but the inputs and the seed (the
 * CPU time does). */
static int same_numbers(json_t *x, json_t *y) {
  static const char *const keys[] = {"shanten_error", "tenpai_rate", "shanten_by_turn",
                                     "wait_calibration"};
  for (size_t i = 0; i < 4; i++)
    if (!json_equal(json_object_get(x, keys[i]), json_object_get(y, keys[i]))) return 0;
  return 1;
}

static void tool(void) {
  char cmd[4096], log[600], j1[600], j2[600], j3[600], md[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "work folder");
  snprintf(log, sizeof log, "%s/greedy.jsonl", TK_WORK_DIR);
  TK_EQ(write_log(log, 4), 0, "the log of 4 games");
  snprintf(j1, sizeof j1, "%s/a.json", TK_WORK_DIR);
  snprintf(j2, sizeof j2, "%s/b.json", TK_WORK_DIR);
  snprintf(j3, sizeof j3, "%s/c.json", TK_WORK_DIR);
  snprintf(md, sizeof md, "%s/a.md", TK_WORK_DIR);
  /* --holdout 3: game 2 alone (g % 3 == 2) */
  const char *common = "--sampler uniform --sampler tenpai --holdout 3 --samples 20 -q";
  snprintf(cmd, sizeof cmd, "%s %s %s --json %s --markdown %s > %s/a.txt", TK_EVAL_BIN, log,
           common, j1, md, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, cmd);
  snprintf(cmd, sizeof cmd, "%s %s %s --json %s > /dev/null", TK_EVAL_BIN, log, common, j2);
  TK_EQ(system(cmd), 0, "again");
  snprintf(cmd, sizeof cmd, "%s %s %s --seed 2 --json %s > /dev/null", TK_EVAL_BIN, log, common,
           j3);
  TK_EQ(system(cmd), 0, "--seed 2");
  json_error_t je;
  json_t *a = json_load_file(j1, 0, &je), *b = json_load_file(j2, 0, &je),
         *c = json_load_file(j3, 0, &je);
  if (!a || !b || !c) {
    TK_FAILF("the JSON files do not parse: %s", je.text);
    json_decref(a), json_decref(b), json_decref(c);
    return;
  }
  json_t *counts = json_object_get(a, "counts");
  TK_EQ(json_integer_value(json_object_get(counts, "games_read")), 4, "games read");
  TK_EQ(json_integer_value(json_object_get(counts, "games_evaluated")), 1, "held out: game 2");
  json_int_t npos = json_integer_value(json_object_get(counts, "positions"));
  if (npos < 20) TK_FAILF("only %lld positions", (long long)npos);
  /* every position is an own-turn discard of a held-out game: with --keep 1, all of them */
  TK_EQ(npos, json_integer_value(json_object_get(counts, "own_turn_discards")), "all kept");
  json_t *u = entrant(a, "uniform"), *t = entrant(a, "tenpai");
  if (!u || !t) {
    TK_FAILF("entrants missing");
  } else {
    json_t *all = json_object_get(json_object_get(u, "shanten_error"), "all");
    double m = json_real_value(json_object_get(all, "mean"));
    if (!(m > 0.3 && m < 4)) TK_FAILF("uniform's shanten error %g", m);
    TK_EQ(json_integer_value(json_object_get(all, "n")), 3 * npos, "three opponents each");
    json_t *raw = json_object_get(json_object_get(u, "wait_calibration"), "raw");
    TK_EQ(json_integer_value(json_object_get(raw, "pairs")), 3 * 34 * npos, "pairs");
    TK_EQ(json_array_size(json_object_get(raw, "bins")), 10, "ten bins");
    if (!json_is_real(json_object_get(raw, "ece"))) TK_FAILF("no raw ECE");
    json_t *pl = json_object_get(json_object_get(u, "wait_calibration"), "platt");
    if (!json_is_real(json_object_get(json_object_get(pl, "reliability"), "ece")))
      TK_FAILF("no ECE after Platt");
    TK_EQ(json_array_size(json_object_get(pl, "fits")), 2, "two cross-fits");
    TK_EQ(json_array_size(json_object_get(u, "shanten_by_turn")), RS_TURNS, "turns");
    json_t *sp = json_object_get(u, "speed");
    TK_EQ(json_integer_value(json_object_get(sp, "samples")), 20 * npos, "samples drawn");
    if (!(json_real_value(json_object_get(sp, "samples_per_s")) > 0)) TK_FAILF("no speed");
    /* tenpai deals riichi players tenpai hands: it differs from uniform whenever a riichi is on */
    if (!json_is_object(json_object_get(json_object_get(t, "tenpai_rate"), "next")))
      TK_FAILF("tenpai's tenpai rate missing");
    if (!json_object_get(a, "definitions") || !json_object_get(a, "paper"))
      TK_FAILF("definitions or the paper's figures missing");
    if (!same_numbers(u, entrant(b, "uniform")) || !same_numbers(t, entrant(b, "tenpai")))
      TK_FAILF("two runs with the same seed differ");
    else
      CU_PASS("deterministic");
    if (same_numbers(u, entrant(c, "uniform"))) TK_FAILF("--seed 2 gives the same numbers");
    else CU_PASS("the seed matters");
  }
  json_decref(a), json_decref(b), json_decref(c);
  snprintf(cmd, sizeof cmd, "grep -q 'paper: diffusion' %s && grep -q 'ECE after Platt' %s", md,
           md);
  TK_EQ(system(cmd), 0, "the markdown tables");
  /* --keep and --positions */
  snprintf(cmd, sizeof cmd, "%s %s %s --keep 0.3 --positions 7 --json %s > /dev/null",
           TK_EVAL_BIN, log, common, j2);
  TK_EQ(system(cmd), 0, "--keep 0.3 --positions 7");
  b = json_load_file(j2, 0, &je);
  TK_EQ(json_integer_value(json_object_get(json_object_get(b, "counts"), "positions")), 7,
        "capped");
  json_decref(b);
  /* errors name the flag and the value, and exit non-zero */
  snprintf(cmd, sizeof cmd, "%s %s --sampler nosuch > %s/e.out 2>&1; test $? -eq 2 && "
           "grep -q \"sampler 'nosuch': unknown (known: uniform, tenpai\" %s/e.out",
           TK_EVAL_BIN, log, TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "an unknown sampler");
  snprintf(cmd, sizeof cmd, "%s %s/none.jsonl --sampler uniform > %s/e.out 2>&1; test $? -ne 0 "
           "&& grep -q 'none.jsonl' %s/e.out", TK_EVAL_BIN, TK_WORK_DIR, TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "a missing log");
  snprintf(cmd, sizeof cmd, "%s %s --sampler uniform --sampler-options '{\"x\":1}' > %s/e.out "
           "2>&1; test $? -eq 2 && grep -q 'takes no options' %s/e.out", TK_EVAL_BIN, log,
           TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "options uniform does not take");
  snprintf(cmd, sizeof cmd, "%s %s --sampler-options '{}' --sampler uniform > %s/e.out 2>&1; "
           "test $? -eq 2 && grep -q 'give it after the --sampler' %s/e.out", TK_EVAL_BIN, log,
           TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "--sampler-options before any --sampler");
  snprintf(cmd, sizeof cmd, "%s %s --sampler uniform --samples 0 > %s/e.out 2>&1; test $? -eq 2 "
           "&& grep -q -- '--samples' %s/e.out", TK_EVAL_BIN, log, TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "--samples 0");
  snprintf(cmd, sizeof cmd, "%s --help | grep -q 'samplers: uniform, tenpai'", TK_EVAL_BIN);
  TK_EQ(system(cmd), 0, "--help lists the samplers");
}

int main(void) {
  CU_TestInfo tests[] = {{"hands of 13 - 3m tiles: shanten and waits", hand_answers},
                         {"samples counted into a prediction", counted},
                         {"a perfect predictor", perfect},
                         {"constant probabilities, by hand", by_hand},
                         {"Platt scaling recovers a and b", platt},
                         {"the tool end to end", tool},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("riichi_sampler_eval", tests);
}
