/* tests/riichi/test_riichi_mcp.c — the MCP/BCP example generator and trainer
 * (plugins/riichi_mcp/): labels of scripted hands worked out by hand, the exclusions, the
 * example file (round trip, torn tail), the generator's bytes across -j and resume, the trainer
 * on synthetic examples of a known model, bad files refused by name, the fast feature
 * extraction against the reference, and the generator's bytes against the reference code's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../plugins/riichi_oneplayer/weights_io.h"
#include "../../plugins/riichi_oneplayer/policy.h"
#include "gen.h"
#include "target.h"
#include "model.h"
#include "rt.h"
#include "taikai/rng.h"
#include "taikai/sha256.h"
#include "taikai/weights.h"
#include "unit.h"

static double *W;

static const double *weights(void) {
  if (!W) {
    tk_error err;
    tk_error_clear(&err);
    if (rop_weights_load(TK_OP_WEIGHTS, &W, NULL, &err)) TK_FAILF("weights: %s", err.msg);
  }
  return W;
}

/* Plays the scripted hand: the dealer (seat 0, the self player) holds `hand`, the live draws are
 * `live`, dora and ura indicators 9p (dora 1p, held by nobody's winning hand here). */
static int scripted(const char *hand, const char *live, int round_wind, int turn, int force_kind,
                    mcx_example *e, mcg_result *r) {
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {hand, NULL, NULL, NULL};
  if (rt_wall(w, 0, h, live, NULL, "9p", "9p")) return -100;
  mcg_params p;
  mcg_params_init(&p, 1, MCX_OPP_TSUMOGIRI, weights());
  p.wall = w;
  p.seat_wind = 0;
  p.round_wind = round_wind;
  p.turn = turn;
  p.force_kind = force_kind;
  tk_error err;
  tk_error_clear(&err);
  int rc = mcg_play(&p, 0, e, r, &err);
  if (rc < 0) TK_FAILF("mcg_play: %s", err.msg);
  return rc;
}

/* 123m 456p 789s 1z1z 2z2z + 3z drawn, East round: the random move (forced) discards 3z, which
 * allows riichi, so riichi is declared on the first discard: double riichi. Seat 1 draws 1z and
 * throws it: ron, with double riichi 2 + ippatsu 1 + East as seat wind 1 + East as round wind
 * 1 = 5 han (no dora: indicator 9p, ura 9p), label 4. */
static void test_label_east(void) {
  static mcx_example e;
  mcg_result r;
  TK_EQ(scripted("123m456p789s1122z", "3z1z", 0, 1, TK_WEST, &e, &r), MCG_EXAMPLE, "example");
  TK_EQ(r.han, 5, "han: double riichi 2, ippatsu 1, double East 2");
  TK_EQ(e.label, 4, "label >= 4");
  TK_EQ(r.random_phase, TK_RIICHI_PHASE_SELF, "the random move is at the first draw");
  TK_EQ((int)e.hand, 0, "hand index");
}

/* 123m 456p 789s 55s 66s + 3z: the same riichi, seat 1 throws 5s: double riichi 2 + ippatsu 1 =
 * 3 han (no tanyao: terminals; no pinfu: a shanpon wait), label 3. */
static void test_label_three(void) {
  static mcx_example e;
  mcg_result r;
  TK_EQ(scripted("123m456p789s5566s", "3z5s", 1, 1, TK_WEST, &e, &r), MCG_EXAMPLE, "example");
  TK_EQ(r.han, 3, "han: double riichi 2, ippatsu 1");
  TK_EQ(e.label, 3, "label 3");
}

/* The example's features are those the policy scores for the move: the candidate "discard 3z"
 * of the same position, built independently from the engine's view of the scripted deal. */
static void test_features_after_move(void) {
  static mcx_example e;
  mcg_result r;
  TK_EQ(scripted("123m456p789s5566s", "3z5s", 1, 1, TK_WEST, &e, &r), MCG_EXAMPLE, "example");
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {"123m456p789s5566s", NULL, NULL, NULL};
  if (rt_wall(w, 0, h, "3z5s", NULL, "9p", "9p")) { TK_FAILF("wall"); return; }
  static tk_riichi_game g;
  if (tk_riichi_init(&g, NULL, 1, 0, NULL, NULL)) { TK_FAILF("init"); return; }
  g.round = 4; /* South round, as the scripted set-up */
  if (tk_riichi_deal(&g, w, NULL, NULL)) { TK_FAILF("deal"); return; }
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_view_of(&g, 0, &v);
  tk_riichi_legal_of(&g, 0, &l);
  static rop_cand c[ROP_MAX_CANDS];
  int n = rop_candidates(&v, &l, c, ROP_MAX_CANDS), at = -1;
  for (int i = 0; i < n; i++)
    if (l.a[c[i].action].type == TK_RIICHI_DISCARD && tk_tile_kind(l.a[c[i].action].tile) == TK_WEST)
      at = i;
  if (at < 0) { TK_FAILF("no 3z candidate"); return; }
  uint32_t f[ROF_MAX_ACTIVE];
  int nf = rof_features(&c[at].hand, &c[at].ctx, f, NULL, NULL);
  TK_EQ(e.n, nf, "active features");
  for (int i = 0; i < nf && i < e.n; i++)
    if (e.f[i] != f[i]) {
      TK_FAILF("feature %d: example %u, candidate %u", i, e.f[i], f[i]);
      break;
    }
}

/* Exclusions: a win legal at the random decision (here tenhou), riichi already declared at it,
 * and a hand over before it. */
static void test_exclusions(void) {
  static mcx_example e;
  mcg_result r;
  TK_EQ(scripted("123m456p789s1122z", "1z", 0, 1, -1, &e, &r), MCG_NONE, "tenhou");
  TK_EQ(r.why, MCG_WHY_WIN, "why: a win legal");
  /* turn 2: the policy declares riichi with 3z at the first draw (the only tenpai discard);
   * nobody wins on 9m; at the second draw the self player is in riichi. */
  TK_EQ(scripted("123m456p789s5566s", "3z999m9m1m", 1, 2, -1, &e, &r), MCG_NONE, "riichi");
  TK_EQ(r.why, MCG_WHY_RIICHI, "why: in riichi");
  /* turn 5: the same riichi, then seat 1 throws 5s: ron before the fifth turn. */
  TK_EQ(scripted("123m456p789s5566s", "3z5s", 1, 5, -1, &e, &r), MCG_NONE, "ended");
  TK_EQ(r.why, MCG_WHY_ENDED, "why: the hand ended first");
}

static void test_label_map(void) {
  TK_EQ(mcg_label(0, 0), 0, "no han");
  TK_EQ(mcg_label(1, 0), 1, "1");
  TK_EQ(mcg_label(3, 0), 3, "3");
  TK_EQ(mcg_label(4, 0), 4, "4");
  TK_EQ(mcg_label(13, 0), 4, "13");
  TK_EQ(mcg_label(0, 1), 4, "yakuman");
}

/* The set-up's distribution over many hands: seat wind 1/4, round wind 4/9, 4/9, 1/9. */
static void test_setup_distribution(void) {
  mcg_params p;
  mcg_params_init(&p, 3, MCX_OPP_TSUMOGIRI, weights());
  int seat[4] = {0}, round[4] = {0}, turn_lo = 99, turn_hi = 0;
  static mcx_example e;
  tk_error err;
  const int N = 400;
  for (int i = 0; i < N; i++) {
    mcg_result r;
    tk_error_clear(&err);
    if (mcg_play(&p, (uint64_t)i, &e, &r, &err) < 0) {
      TK_FAILF("hand %d: %s", i, err.msg);
      return;
    }
    seat[r.seat_wind]++;
    round[r.round_wind]++;
    if (r.turn < turn_lo) turn_lo = r.turn;
    if (r.turn > turn_hi) turn_hi = r.turn;
  }
  for (int s = 0; s < 4; s++)
    if (fabs(seat[s] - N / 4.0) > 4 * sqrt(N * 0.25 * 0.75)) TK_FAILF("seat wind %d: %d", s, seat[s]);
  if (fabs(round[0] - N * 4 / 9.0) > 4 * sqrt(N * 4 / 9.0 * 5 / 9.0)) TK_FAILF("East %d", round[0]);
  if (fabs(round[2] - N / 9.0) > 4 * sqrt(N / 9.0 * 8 / 9.0)) TK_FAILF("West %d", round[2]);
  TK_EQ(round[3], 0, "no North round");
  TK_EQ(turn_lo, 1, "turns from 1");
  TK_EQ(turn_hi, 18, "turns to 18");
}

/* The file: a record round trip, and a torn tail reported with the file name. */
static void test_file(void) {
  const char *path = TK_WORK_DIR "/io.bin";
  mcx_header h = {ROF_FEATURE_VERSION, MCX_OPP_POLICY, 18, 77, {1, 2, 3}};
  uint8_t hb[MCX_HEADER_BYTES], rb[MCX_RECORD_MAX];
  mcx_header_encode(&h, hb);
  FILE *f = fopen(path, "wb");
  if (!f) { TK_FAILF("cannot write %s", path); return; }
  fwrite(hb, 1, sizeof hb, f);
  static mcx_example a, b;
  a.hand = 5; a.label = 2; a.n = 3; a.f[0] = 0; a.f[1] = 300; a.f[2] = ROF_FEATURES - 1;
  size_t la = mcx_record_encode(&a, UINT64_MAX, rb);
  fwrite(rb, 1, la, f);
  b.hand = 9; b.label = 4; b.n = 1; b.f[0] = 123456;
  size_t lb = mcx_record_encode(&b, 5, rb);
  fwrite(rb, 1, lb - 1, f); /* torn: the last checksum byte missing */
  fclose(f);
  mcx_reader r;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(mcx_open(&r, path, &err), 0, "open");
  static mcx_example e;
  TK_EQ(mcx_next(&r, &e, &err), 1, "first record");
  TK_EQ((int)e.hand, 5, "hand");
  TK_EQ(e.label, 2, "label");
  TK_EQ(e.n, 3, "n");
  TK_EQ((long)e.f[2], (long)ROF_FEATURES - 1, "last index");
  TK_EQ((long)r.h.seed, 77L, "seed");
  TK_EQ(mcx_next(&r, &e, &err), TK_EPARSE, "torn second record");
  if (!strstr(err.msg, path) || !strstr(err.msg, "record 1")) TK_FAILF("message: %s", err.msg);
  mcx_close(&r);
}

/* Synthetic examples of a known MCP model over 12 features (3 active of 12 per example): after
 * 200,000 examples MCP's probabilities are within 0.03 of the truth on every pattern checked,
 * and the log loss went down. BCP cannot represent the tails of a softmax over three features
 * exactly, so it learns from examples with one active feature (a saturated model: any class
 * distribution per feature is representable), where its tails must come within 0.03. */
static void test_synthetic(void) {
  double wt[12][5];
  tk_rng rng;
  tk_rng_seed(&rng, 42);
  for (int j = 0; j < 12; j++)
    for (int k = 0; k < 5; k++) wt[j][k] = 2 * tk_rng_double(&rng) - 1;
  mcm_model mc, bc;
  if (mcm_init(&mc, MCM_MCP, 12, 0.1, 1e-6, 0) || mcm_init(&bc, MCM_BCP, 12, 0.1, 1e-6, 0)) {
    TK_FAILF("init");
    return;
  }
  uint32_t f[3];
  double early = 0, late = 0;
  for (int it = 0; it < 200000; it++) {
    /* three distinct ascending features */
    f[0] = tk_rng_below(&rng, 10);
    f[1] = f[0] + 1 + tk_rng_below(&rng, (uint32_t)(10 - f[0]));
    f[2] = f[1] + 1 + tk_rng_below(&rng, (uint32_t)(11 - f[1]));
    double z[5], mx = -1e9, s = 0, p[5];
    for (int k = 0; k < 5; k++) {
      z[k] = wt[f[0]][k] + wt[f[1]][k] + wt[f[2]][k];
      if (z[k] > mx) mx = z[k];
    }
    for (int k = 0; k < 5; k++) s += p[k] = exp(z[k] - mx);
    double u = tk_rng_double(&rng) * s;
    int y = 0;
    while (y < 4 && u >= p[y]) u -= p[y++];
    double l = mcm_loss(&mc, f, 3, y);
    if (it < 2000) early += l;
    if (it >= 198000) late += l;
    mcm_update(&mc, f, 3, y);
    /* one active feature, same model */
    uint32_t o = tk_rng_below(&rng, 12);
    s = 0;
    for (int k = 0; k < 5; k++) s += p[k] = exp(wt[o][k]);
    u = tk_rng_double(&rng) * s;
    y = 0;
    while (y < 4 && u >= p[y]) u -= p[y++];
    mcm_update(&bc, &o, 1, y);
  }
  if (!(late < early)) TK_FAILF("log loss: first 2000 %.1f, last 2000 %.1f", early, late);
  mcm_finalize(&mc);
  double worst = 0, worst_ge = 0;
  for (uint32_t a = 0; a < 10; a++) {
    uint32_t g[3] = {a, a + 1, a + 2};
    double z[5], mx = -1e9, s = 0, p[5], q[5];
    for (int k = 0; k < 5; k++) {
      z[k] = wt[g[0]][k] + wt[g[1]][k] + wt[g[2]][k];
      if (z[k] > mx) mx = z[k];
    }
    for (int k = 0; k < 5; k++) s += p[k] = exp(z[k] - mx);
    for (int k = 0; k < 5; k++) p[k] /= s;
    mcm_predict(&mc, g, 3, q);
    for (int k = 4; k >= 0; k--)
      if (fabs(q[k] - p[k]) > worst) worst = fabs(q[k] - p[k]);
  }
  for (uint32_t o = 0; o < 12; o++) {
    double p[5], r[5], s = 0, tail = 0;
    for (int k = 0; k < 5; k++) s += p[k] = exp(wt[o][k]);
    mcm_predict(&bc, &o, 1, r);
    for (int k = 4; k >= 1; k--) {
      tail += p[k] / s;
      if (fabs(r[k] - tail) > worst_ge) worst_ge = fabs(r[k] - tail);
    }
  }
  if (worst > 0.03) TK_FAILF("MCP: worst class error %.4f", worst);
  if (worst_ge > 0.03) TK_FAILF("BCP: worst tail error %.4f", worst_ge);
  mcm_free(&mc);
  mcm_free(&bc);
}

/* Lazy L2 equals eager L2: with a large per-example strength, a feature seen at steps 1 and 50
 * ends with the weight of shrinking it at every step in between. */
static void test_lazy_l2(void) {
  mcm_model m;
  if (mcm_init(&m, MCM_BCP, 4, 0.5, 1e-6, 0.01)) { TK_FAILF("init"); return; }
  uint32_t a = 0, b = 1;
  mcm_update(&m, &a, 1, 4);
  double w0 = m.w[0 * m.K + 0];
  double eta = 0.5 / (1e-6 + sqrt((double)m.G[0]));
  for (int i = 0; i < 48; i++) mcm_update(&m, &b, 1, 0);
  mcm_finalize(&m);
  double want = w0 * pow(1 + eta * 0.01, -48);
  if (fabs(m.w[0] - want) > 1e-12 * fabs(want) + 1e-15)
    TK_FAILF("lazy shrink: %.17g, eager %.17g", m.w[0], want);
  mcm_free(&m);
}

static int sh(const char *cmd) {
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static long fsize(const char *p) {
  struct stat st;
  return stat(p, &st) ? -1 : (long)st.st_size;
}

/* End to end: the same bytes for -j 1, -j 3 and a torn run resumed with -j 2; the trainer
 * writes weights and refuses a torn file and a foreign file, naming them. */
static void test_binaries(void) {
  const char *R = TK_RECORDS_BIN " --weights " TK_OP_WEIGHTS " --seed 11 --opponents policy";
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd %s && rm -f a.bin b.bin c.bin && %s --out a.bin -n 60 -j 1 >/dev/null"
           " && %s --out b.bin -n 60 -j 3 >/dev/null && %s --out c.bin -n 25 -j 2 >/dev/null"
           " && head -c -5 c.bin > t.bin && mv t.bin c.bin"
           " && %s --out c.bin -n 60 -j 2 >/dev/null 2>c.err && cmp a.bin b.bin && cmp a.bin c.bin"
           " && grep -q 'c.bin: record 24' c.err", TK_WORK_DIR, R, R, R, R);
  TK_EQ(sh(cmd), 0, "byte-identical across -j and resume");
  snprintf(cmd, sizeof cmd, "cd %s && %s --out a.bin -n 60 --seed 12 2>e.txt >/dev/null; "
           "test $? -ne 0 && grep -q 'a.bin: header field seed' e.txt", TK_WORK_DIR,
           TK_RECORDS_BIN " --weights " TK_OP_WEIGHTS " --opponents policy");
  TK_EQ(sh(cmd), 0, "a resume with another seed is refused");
  snprintf(cmd, sizeof cmd, "cd %s && rm -f w.tkw* && %s a.bin --model bcp --out w.tkw "
           "--snapshots 20,40,1000 >tr.txt && test -s w.tkw && test -s w.tkw.20 && test -s w.tkw.40"
           " && test ! -e w.tkw.1000 && grep -q 'snapshot w.tkw.40: held-out' tr.txt"
           " && grep -q 'sha256' tr.txt", TK_WORK_DIR, TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "train, with snapshots at 20 and 40 examples (not 1000: there are 53)");
  /* the weights load in the sparse format, as the model and the dense shape [4, D] say, with
   * as many entries as the trainer's line reports */
  tk_weights_sparse wt;
  tk_error err;
  tk_error_clear(&err);
  long reported = -1;
  FILE *tr = fopen(TK_WORK_DIR "/tr.txt", "r");
  char line[512];
  while (tr && fgets(line, sizeof line, tr))
    if (!strncmp(line, "weights ", 8)) {
      const char *q = strstr(line, ": ");
      if (q) reported = strtol(q + 2, NULL, 10);
    }
  if (tr) fclose(tr);
  const uint32_t shape[2] = {4, ROF_FEATURES + 1};
  TK_EQ(tk_weights_sparse_load(TK_WORK_DIR "/w.tkw", "riichi_bcp", ROF_FEATURE_VERSION, 2, shape,
                               &wt, &err), 0, err.msg);
  if (!err.code) {
    TK_EQ(wt.format, TK_WEIGHTS_FORMAT_SPARSE, "format");
    TK_EQ((long)wt.nnz, reported, "entries, as the trainer reported");
  }
  /* the same training again gives the same bytes; --format 1 writes the older f64 rows: the same
   * entries, whose float32 rounding is what format 2 holds; the log loss of both is printed */
  snprintf(cmd, sizeof cmd, "cd %s && rm -f wb.tkw* w1.tkw* && %s a.bin --model bcp --out wb.tkw"
           " --snapshots 20,40,1000 >tr2.txt && cmp w.tkw wb.tkw && cmp w.tkw.40 wb.tkw.40"
           " && %s a.bin --model bcp --out w1.tkw --format 1 --snapshots 20,40,1000 >tr1.txt && grep -q 'as saved (float32)' tr2.txt && grep -q 'as saved (double)' tr1.txt",
           TK_WORK_DIR, TK_TRAIN_BIN, TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "deterministic bytes; format 1 on request");
  tk_weights_sparse w1;
  TK_EQ(tk_weights_sparse_load(TK_WORK_DIR "/w1.tkw", "riichi_bcp", ROF_FEATURE_VERSION, 2, shape,
                               &w1, &err), 0, err.msg);
  if (!err.code) {
    TK_EQ(w1.format, TK_WEIGHTS_FORMAT, "format of --format 1");
    TK_EQ((long)w1.nnz, (long)wt.nnz, "entries in both formats");
    size_t differ = 0, rounded = 0;
    for (size_t i = 0; i < w1.nnz && w1.nnz == wt.nnz; i++) {
      differ += w1.index[i] != wt.index[i] || (double)(float)w1.values[i] != wt.values[i];
      rounded += w1.values[i] != wt.values[i];
    }
    TK_EQ((long)differ, 0L, "entries whose index or float32 rounding differ");
    if (!rounded) TK_FAILF("no weight changed by the float32 rounding: format 1 was not f64");
    if (fsize(TK_WORK_DIR "/w.tkw") * 2 >= fsize(TK_WORK_DIR "/w1.tkw"))
      TK_FAILF("format 2 %ld bytes, format 1 %ld", fsize(TK_WORK_DIR "/w.tkw"),
               fsize(TK_WORK_DIR "/w1.tkw"));
    tk_weights_sparse_free(&w1);
  }
  if (!err.code || wt.index) tk_weights_sparse_free(&wt);
  snprintf(cmd, sizeof cmd, "cd %s && %s a.bin --model bcp --out wf.tkw --format 3 2>e.txt "
           ">/dev/null; test $? -eq 2 && grep -q \"format: '3' is not one of 1, 2\" e.txt", TK_WORK_DIR,
           TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "--format 3 refused");
  snprintf(cmd, sizeof cmd, "cd %s && head -c -3 a.bin > torn.bin && %s torn.bin --model mcp "
           "--out w2.tkw 2>e.txt >/dev/null; test $? -ne 0 && grep -q 'torn.bin: record 59' e.txt"
           " && test ! -e w2.tkw", TK_WORK_DIR, TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "a torn file is refused by name");
  snprintf(cmd, sizeof cmd, "cd %s && %s w.tkw --model mcp --out w3.tkw 2>e.txt >/dev/null; "
           "test $? -ne 0 && grep -q 'w.tkw: header: bad magic' e.txt", TK_WORK_DIR, TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "a foreign file is refused by name");
  if (fsize(TK_WORK_DIR "/a.bin") <= MCX_HEADER_BYTES) TK_FAILF("a.bin is empty");
}

/* Target mode: a win is taken; when riichi is legal it is declared (the scripted tenpai, only 3z
 * allows it); the weights the binaries test wrote (w.tkw, BCP) load, and the model name is
 * checked. Over every self decision of a few generated hands, the chosen candidate's
 * P(>= target) is the largest among the candidates that compete. Runs after test_binaries. */
static void test_target(void) {
  mcm_model m;
  tk_error err;
  tk_error_clear(&err);
  if (mcm_load(TK_WORK_DIR "/w.tkw", MCM_MCP, &m, &err) == 0) {
    TK_FAILF("a BCP file read as MCP was accepted");
    mcm_free(&m);
  }
  if (!strstr(err.msg, "w.tkw") || !strstr(err.msg, "model")) TK_FAILF("refusal: %s", err.msg);
  tk_error_clear(&err);
  if (mcm_load(TK_WORK_DIR "/w.tkw", MCM_BCP, &m, &err)) {
    TK_FAILF("load: %s", err.msg);
    return;
  }
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {"123m456p789s5566s", NULL, NULL, NULL};
  if (rt_wall(w, 0, h, "3z", NULL, "9p", "9p")) { TK_FAILF("wall"); mcm_free(&m); return; }
  static tk_riichi_game g;
  tk_riichi_init(&g, NULL, 1, 0, NULL, NULL);
  tk_riichi_deal(&g, w, NULL, NULL);
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_view_of(&g, 0, &v);
  tk_riichi_legal_of(&g, 0, &l);
  rop_choice ch;
  for (int t = 1; t <= 4; t++) {
    TK_EQ(mct_decide(&v, &l, &m, t, &ch, &err), 0, "decide");
    TK_EQ(l.a[ch.action].type, TK_RIICHI_RIICHI, "riichi declared");
    TK_EQ(tk_tile_kind(l.a[ch.action].tile), TK_WEST, "with 3z");
  }
  TK_EQ(mct_decide(&v, &l, &m, 5, &ch, &err), TK_EINVAL, "target 5 refused");
  /* the best candidate, on whole games of the one-player policy with target-mode checks */
  static rop_cand c[ROP_MAX_CANDS];
  int checked = 0;
  for (uint64_t game = 0; game < 3; game++) {
    tk_riichi_init(&g, NULL, 5, game, NULL, NULL);
    tk_riichi_deal(&g, NULL, NULL, NULL);
    while (g.phase == TK_RIICHI_PHASE_SELF || g.phase == TK_RIICHI_PHASE_REACT) {
      int seat = tk_riichi_to_act(&g);
      tk_riichi_legal_of(&g, seat, &l);
      tk_riichi_view_of(&g, seat, &v);
      int target = 1 + (int)(checked % 4);
      if (mct_decide(&v, &l, &m, target, &ch, &err)) { TK_FAILF("%s", err.msg); break; }
      int type = l.a[ch.action].type, n = rop_candidates(&v, &l, c, ROP_MAX_CANDS);
      if (type != TK_RIICHI_TSUMO && type != TK_RIICHI_RON && type != TK_RIICHI_RIICHI) {
        for (int i = 0; i < n; i++) {
          uint32_t f[ROF_MAX_ACTIVE];
          double ge[5];
          int nf = rof_features(&c[i].hand, &c[i].ctx, f, NULL, NULL);
          mcm_predict_ge(&m, f, nf, ge);
          if (ge[target] > ch.score + 1e-12) {
            TK_FAILF("game %d: candidate %d has P(>=%d) %.6f above the choice's %.6f", (int)game,
                     i, target, ge[target], ch.score);
            break;
          }
        }
        checked++;
      }
      tk_riichi_action a = l.a[ch.action];
      if (tk_riichi_apply(&g, seat, &a, NULL, &err)) { TK_FAILF("apply: %s", err.msg); break; }
    }
  }
  if (checked < 20) TK_FAILF("only %d decisions checked", checked);
  mcm_free(&m);
}

/* mcm_load reads the older [nnz, 2] rows too (w1.tkw, test_binaries' --format 1): entry
 * k * D + j lands at row k of feature j with its f64 value, and nothing else is nonzero. */
static void test_load_rows(void) {
  mcm_model m;
  tk_error err;
  tk_error_clear(&err);
  const uint32_t shape[2] = {4, ROF_FEATURES + 1};
  tk_weights_sparse rows;
  if (tk_weights_sparse_load(TK_WORK_DIR "/w1.tkw", "riichi_bcp", ROF_FEATURE_VERSION, 2, shape,
                             &rows, &err)) {
    TK_FAILF("rows: %s", err.msg);
    return;
  }
  if (mcm_load(TK_WORK_DIR "/w1.tkw", MCM_BCP, &m, &err)) {
    TK_FAILF("load: %s", err.msg);
    tk_weights_sparse_free(&rows);
    return;
  }
  size_t differ = 0, nonzero = 0;
  for (size_t i = 0; i < rows.nnz; i++) {
    size_t k = (size_t)(rows.index[i] / m.D), j = (size_t)(rows.index[i] % m.D);
    differ += m.w[j * (size_t)m.K + k] != rows.values[i];
  }
  for (size_t i = 0; i < (size_t)m.K * m.D; i++) nonzero += m.w[i] != 0;
  TK_EQ((long)differ, 0L, "weights differing from their rows");
  TK_EQ((long)nonzero, (long)rows.nnz, "nonzero weights: the rows' only");
  if (rows.nnz < 100) TK_FAILF("only %zu rows", rows.nnz);
  mcm_free(&m);
  tk_weights_sparse_free(&rows);
}

static int decide_fallback(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                           rop_choice *out, tk_error *err) {
  (void)ctx, (void)v, (void)err;
  memset(out, 0, sizeof *out);
  out->action = tk_riichi_fallback(l);
  return 0;
}

static int decide_bad(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                      rop_choice *out, tk_error *err) {
  (void)ctx, (void)v, (void)err;
  memset(out, 0, sizeof *out);
  out->action = l->n;
  return 0;
}

static const double *eval_w;
static int decide_policy(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         rop_choice *out, tk_error *err) {
  (void)ctx;
  return rop_decide(v, l, eval_w, out, err);
}

/* The evaluation of table 5 (mcg_evaluate): hand i is set up as the generator sets it up (its
 * winds and training turn: the set-up draws are made alike); a self player that only discards
 * its draw and never wins (tsumogiri) scores 0 on every hand; the policy's outcome of a hand
 * does not depend on the hands played before it; a self player that answers out of range is an
 * error naming the hand. */
static void test_evaluate(void) {
  double *w = NULL;
  tk_error err;
  tk_error_clear(&err);
  if (rop_weights_load(TK_OP_WEIGHTS, &w, NULL, &err)) {
    TK_FAILF("%s", err.msg);
    return;
  }
  eval_w = w;
  mcg_params p;
  mcg_params_init(&p, 21, MCX_OPP_TSUMOGIRI, w);
  int won = 0, labels[40];
  static mcx_example e;
  for (uint64_t i = 0; i < 40; i++) {
    mcg_result a, b;
    TK_EQ(mcg_evaluate(&p, i, decide_fallback, NULL, &a, &err), 0, "tsumogiri self never wins");
    mcg_play(&p, i, &e, &b, &err);
    if (a.seat_wind != b.seat_wind || a.round_wind != b.round_wind || a.turn != b.turn)
      TK_FAILF("hand %d: set-up (%d, %d, %d) against the generator's (%d, %d, %d)", (int)i,
               a.seat_wind, a.round_wind, a.turn, b.seat_wind, b.round_wind, b.turn);
    labels[i] = mcg_evaluate(&p, i, decide_policy, NULL, &a, &err);
    if (labels[i] < 0 || labels[i] > 4) TK_FAILF("hand %d: label %d (%s)", (int)i, labels[i], err.msg);
    if (labels[i] > 0) {
      won++;
      TK_EQ(labels[i], mcg_label(a.han, a.yakuman), "label of the win's han");
    }
  }
  /* against tsumogiri the policy wins most hands it finishes (the paper: 64 % at h = 1) */
  if (won < 10) TK_FAILF("the policy won only %d of 40 hands against tsumogiri", won);
  for (int i = 39; i >= 0; i -= 3)
    TK_EQ(mcg_evaluate(&p, (uint64_t)i, decide_policy, NULL, NULL, &err), labels[i],
          "the same hand, played again out of order");
  TK_EQ(mcg_evaluate(&p, 3, decide_bad, NULL, NULL, &err), TK_ESTATE, "out-of-range answer");
  if (!strstr(err.msg, "hand 3")) TK_FAILF("message: %s", err.msg);
  free(w);
}

/* The extraction's memos and cheaper calls against the reference (rof_reference_mode: every
 * value computed from scratch, the library sort): every decision of every seat in whole games
 * of the one-player policy with the default weights, each candidate's features and components
 * identical, its score identical to the bit, and rop_decide's choice and score identical. */
static int same_double(double a, double b) { return !memcmp(&a, &b, sizeof a); }

static void test_fast_equals_reference(void) {
  const double *w = weights();
  if (!w) return;
  static rop_cand cands[ROP_MAX_CANDS];
  uint32_t fa[ROF_MAX_ACTIVE], fb[ROF_MAX_ACTIVE];
  long decisions = 0, candidates = 0, problems = 0;
  for (uint64_t game = 0; game < 5 && problems < 5; game++) {
    tk_riichi_game g;
    tk_riichi_init(&g, NULL, 31, game, NULL, NULL);
    int steps = 0;
    while (!tk_riichi_is_over(&g) && steps++ < 5000 && problems < 5) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, NULL);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_view v;
      tk_riichi_legal_of(&g, s, &l);
      tk_riichi_view_of(&g, s, &v);
      int n = rop_candidates(&v, &l, cands, ROP_MAX_CANDS);
      for (int i = 0; i < n; i++) {
        rof_comp ca, cb;
        rof_reference_mode(1);
        int nb = rof_features(&cands[i].hand, &cands[i].ctx, fb, &cb, NULL);
        rof_reference_mode(0);
        int na = rof_features(&cands[i].hand, &cands[i].ctx, fa, &ca, NULL);
        candidates++;
        if (na != nb || (na > 0 && memcmp(fa, fb, (size_t)na * sizeof *fa)) ||
            memcmp(&ca, &cb, sizeof ca)) {
          if (problems++ < 5)
            TK_FAILF("game %d step %d candidate %d: %d features (reference %d) or components differ",
                     (int)game, steps, i, na, nb);
          continue;
        }
        double sa = rop_score(w, fa, na), sb = rop_score(w, fb, nb);
        if (!same_double(sa, sb) && problems++ < 5)
          TK_FAILF("game %d step %d candidate %d: score %.17g, reference %.17g", (int)game, steps,
                   i, sa, sb);
      }
      rop_choice a, b;
      rof_reference_mode(1);
      int rb = rop_decide(&v, &l, w, &b, NULL);
      rof_reference_mode(0);
      int ra = rop_decide(&v, &l, w, &a, NULL);
      decisions++;
      if (ra || rb || a.action != b.action || a.discard != b.discard || a.ncands != b.ncands ||
          !same_double(a.score, b.score)) {
        if (problems++ < 5)
          TK_FAILF("game %d step %d: decided %d (discard %d, score %.17g), reference %d (%d, %.17g)",
                   (int)game, steps, a.action, a.discard, a.score, b.action, b.discard, b.score);
        a.action = ra || a.action < 0 ? tk_riichi_fallback(&l) : a.action;
      }
      tk_riichi_apply(&g, s, &l.a[a.action], NULL, NULL);
    }
  }
  TK_EQ(problems, 0, "differences from the reference extraction");
  TK_EQ(decisions > 1500, 1, "decisions compared");
  TK_EQ(candidates > 10000, 1, "candidates compared");
  printf("\n    %ld decisions, %ld candidates: identical to the reference\n", decisions, candidates);
}

/* riichi_mcp_records writes the bytes it wrote before the extraction was made faster: the
 * SHA-256 of two files, computed with the plain extraction (the code before its memos) and the
 * default weights riichi_oneplayer.tkw (a retrained weights file changes them). */
static void test_records_unchanged(void) {
  static const struct {
    const char *args, *sha;
  } runs[] = {
      {"--seed 11 --opponents policy -n 60 -j 1",
       "f92762e9864764b04037db946676620afb6ea39b25592d41460974970a2f9fb8"},
      {"--seed 5 --opponents tsumogiri -n 150 -j 2",
       "8f1a03d6e79c2ea44a067c4e438326467e0f6dc9b62807542e084b9b19dc9c99"},
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    char cmd[2048], hex[TK_SHA256_HEX];
    snprintf(cmd, sizeof cmd, "cd %s && rm -f same.bin && %s --weights %s %s --out same.bin >/dev/null",
             TK_WORK_DIR, TK_RECORDS_BIN, TK_OP_WEIGHTS, runs[i].args);
    TK_EQ(sh(cmd), 0, runs[i].args);
    tk_error err;
    tk_error_clear(&err);
    if (tk_sha256_file(TK_WORK_DIR "/same.bin", hex, &err)) {
      TK_FAILF("%s", err.msg);
      continue;
    }
    if (strcmp(hex, runs[i].sha)) TK_FAILF("%s: sha256 %s, want %s", runs[i].args, hex, runs[i].sha);
  }
}

/* The plugins and the evaluation program end to end: riichi_bcp with the trained w.tkw plays a
 * tournament against three tsumogiri copies, byte-identical for -j 1 and -j 2, without faults;
 * riichi_mcp refuses the BCP file, a target out of range and an unknown field, naming the value;
 * riichi_mcp_eval gives the same JSON for -j 1 and -j 3. Runs after test_binaries. */
static void test_plugins(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "cd %s && rm -rf r1 r2 && printf '%%s' '{\"game\": \"riichi\", \"seed\": 3, "
           "\"walls\": 2, \"format\": \"duplicate\", \"agents\": [{\"plugin\": "
           "\"riichi_bcp\", \"label\": \"bcp\", \"params\": {\"target\": 2, "
           "\"weights\": \"%s/w.tkw\"}}, {\"plugin\": \"riichi_tsumogiri\"}], "
           "\"rules\": {\"length\": \"east\"}}' > bcp.json"
           " && %s run bcp.json --out r1 -j 1 --quiet >/dev/null && %s run bcp.json --out r2 -j 2"
           " --quiet >/dev/null && cmp r1/games.jsonl r2/games.jsonl"
           " && grep -q '\"faults\": 0' r1/summary.json && ! grep -q '\"faults\": [1-9]'"
           " r1/summary.json",
           TK_WORK_DIR, TK_WORK_DIR, TK_TAIKAI_BIN, TK_TAIKAI_BIN);
  TK_EQ(sh(cmd), 0, "riichi_bcp in a tournament, the same bytes for -j 1 and -j 2");
  struct {
    const char *params, *want;
  } bad[] = {
      {"{\"weights\": \"" TK_WORK_DIR "/w.tkw\"}", "model"},
      {"{\"weights\": \"" TK_WORK_DIR "/m.tkw\", \"target\": 7}", "\"target\" = 7"},
      {"{\"weights\": \"" TK_WORK_DIR "/m.tkw\", \"target\": \"2\"}", "got \"2\""},
      {"{\"weights\": \"" TK_WORK_DIR "/m.tkw\", \"targte\": 1}", "unknown parameter"},
  };
  snprintf(cmd, sizeof cmd, "cd %s && %s a.bin --model mcp --out m.tkw >/dev/null", TK_WORK_DIR,
           TK_TRAIN_BIN);
  TK_EQ(sh(cmd), 0, "an MCP model for the refusals");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf rb && printf '%%s' '{\"game\": \"riichi\", \"seed\": 3, "
             "\"walls\": 1, \"format\": \"duplicate\", \"agents\": [{\"plugin\": "
             "\"riichi_mcp\", \"params\": %s}, {\"plugin\": \"riichi_tsumogiri\"}]}' "
             "> bad.json && %s run bad.json --out rb --quiet >/dev/null 2>bad.err; "
             "test $? -ne 0 && grep -qF '%s' bad.err",
             TK_WORK_DIR, bad[i].params, TK_TAIKAI_BIN, bad[i].want);
    TK_EQ(sh(cmd), 0, bad[i].params);
  }
  snprintf(cmd, sizeof cmd,
           "cd %s && %s --weights %s --opponents tsumogiri -n 24 --bcp w.tkw -j 1 --out e1.json"
           " >/dev/null && %s --weights %s --opponents tsumogiri -n 24 --bcp w.tkw -j 3 --out "
           "e3.json >/dev/null && cmp e1.json e3.json && grep -q '\"agent\": \"bcp-4\"' e1.json"
           " && grep -q '\"agent\": \"policy\", \"h\": 4' e1.json",
           TK_WORK_DIR, TK_EVAL_BIN, TK_OP_WEIGHTS, TK_EVAL_BIN, TK_OP_WEIGHTS);
  TK_EQ(sh(cmd), 0, "riichi_mcp_eval: the same JSON for -j 1 and -j 3");
  /* --compare only watches: the success rows are those of the run without it, the counters are
   * the same for any -j, and --targets keeps the targets asked for. */
  snprintf(cmd, sizeof cmd,
           "cd %s && %s --weights %s --opponents tsumogiri -n 24 --bcp w.tkw --compare -j 1 "
           "--out c1.json >/dev/null && %s --weights %s --opponents tsumogiri -n 24 --bcp w.tkw "
           "--compare -j 3 --out c3.json >/dev/null && cmp c1.json c3.json && "
           "sed -n '/\"rows\"/,/\"play\"/p' e1.json > r_e.txt && "
           "sed -n '/\"rows\"/,/\"play\"/p' c1.json > r_c.txt && cmp r_e.txt r_c.txt && "
           "grep -q '\"agent\": \"bcp-2\", \"hands_with_a_call\": [0-9.]*, "
           "\"hands_with_riichi\": [0-9.]*, \"tenpai_at_end_of_lost\": [0-9.]*, \"decisions\": "
           "[1-9]' c1.json && ! grep -q '\"agent\": \"policy\", \"h.*\"agree\"' c1.json",
           TK_WORK_DIR, TK_EVAL_BIN, TK_OP_WEIGHTS, TK_EVAL_BIN, TK_OP_WEIGHTS);
  TK_EQ(sh(cmd), 0, "riichi_mcp_eval --compare: the rows unchanged, the same for -j 1 and -j 3");
  snprintf(cmd, sizeof cmd,
           "cd %s && %s --weights %s --opponents tsumogiri -n 4 --bcp w.tkw --targets 4,2 "
           "--out t.json >/dev/null && grep -c '\"agent\": \"bcp-[24]\", \"h\"' t.json | "
           "grep -qx 2 && ! grep -q 'bcp-[13]' t.json && ! %s --weights %s -n 4 --bcp w.tkw "
           "--targets 1,,2 2>t.err >/dev/null && grep -q \"'1,,2'\" t.err",
           TK_WORK_DIR, TK_EVAL_BIN, TK_OP_WEIGHTS, TK_EVAL_BIN, TK_OP_WEIGHTS);
  TK_EQ(sh(cmd), 0, "riichi_mcp_eval --targets keeps those targets and refuses a bad list");
  snprintf(cmd, sizeof cmd, "cd %s && %s --weights %s --mcp w.tkw -n 5 2>e.txt >/dev/null; "
           "test $? -ne 0 && grep -q 'w.tkw' e.txt", TK_WORK_DIR, TK_EVAL_BIN, TK_OP_WEIGHTS);
  TK_EQ(sh(cmd), 0, "riichi_mcp_eval refuses a BCP file given as MCP, by name");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"label: 5 han is class 4", test_label_east},
      {"label: 3 han is class 3", test_label_three},
      {"features of the hand after the move", test_features_after_move},
      {"exclusions: win legal, in riichi, hand over", test_exclusions},
      {"label classes", test_label_map},
      {"set-up distribution", test_setup_distribution},
      {"example file round trip and torn tail", test_file},
      {"trainer on a known model", test_synthetic},
      {"lazy L2 equals eager", test_lazy_l2},
      {"binaries: -j, resume, refusals", test_binaries},
      {"target mode", test_target},
      {"weights rows loaded", test_load_rows},
      {"evaluation on the generator's hands", test_evaluate},
      {"plugins and riichi_mcp_eval end to end", test_plugins},
      {"fast extraction equals the reference", test_fast_equals_reference},
      {"riichi_mcp_records bytes unchanged", test_records_unchanged},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("riichi_mcp", tests);
  free(W);
  return rc;
}
