/* tests/riichi/test_riichi_score.c — paper 000's Score(x) and Penalty(z) (plugins/riichi_score),
 * the efr mode's opening and search (plugins/riichi_mcp/efr_mode.h), and riichi_mcp / riichi_bcp
 * in efr mode end to end:
 * - rm_efr_win: Tenhou's points of 30-fu wins, dealer and not, ron and tsumo, and limit hands;
 * - the penalty table: equal outcomes merged with their counts, the file's round trip, refusals
 *   naming the row, the column and the value; Penalty(z) by hand on small tables (the seat's own
 *   wins left out, the game's end valued by the exact rank), the "none" penalty;
 * - Score: BCP's literal and clamped conversion on table 8's 7p (P(>= 2) > P(>= 1)), Score by
 *   hand, and table 10's decision: under the shipped EFR and the human penalty, table 8's BCP
 *   values make 7p the least Score of the four discards, as in the paper;
 * - the opening hook of riichi_mc's decision: called exactly while the opening lasts, its move
 *   played;
 * - efr_mode at plies 1: the least Score over the candidates; at plies >= 2: one of the `width`
 *   best discards by Score, the same choice twice, wins inside the tree reached;
 * - the plugins: a run in efr mode the same at -j 1 and -j 2, the penalty file's hash in
 *   spec.json, and parameters of the wrong mode or value refused naming the field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efr_mode.h"
#include "riichi_oneplayer/policy.h"
#include "riichi_oneplayer/weights_io.h"
#include "rmc.h"
#include "rmc_walk.h"
#include "score.h"
#include "target.h"
#include "taikai/weights.h"
#include "unit.h"

/* TK_EQ with a formatted context */
#define EQ(actual, expected, ...)                                                                 \
  do {                                                                                            \
    long long a_ = (long long)(actual), e_ = (long long)(expected);                               \
    if (a_ != e_) {                                                                               \
      char m_[2048];                                                                             \
      snprintf(m_, sizeof m_, __VA_ARGS__);                                                       \
      TK_FAILF("%s: %s = %lld, expected %lld", m_, #actual, a_, e_);                             \
    } else {                                                                                      \
      CU_PASS(#actual);                                                                           \
    }                                                                                             \
  } while (0)

static double *W;
static rm_efr *EFR;
static rm_opp *OPP;
static rmc_models MODELS;
static mcm_model BCP;
static rs_penalty HUMAN;

static void load_models(void) {
  if (W) return;
  tk_error err = {0};
  if (rop_weights_load(TK_PLUGIN_DIR "/riichi_oneplayer.tkw", &W, NULL, &err) ||
      rm_efr_load(TK_PLUGIN_DIR "/" RM_EFR_DEFAULT_FILE, &EFR, &err) ||
      rm_opp_load(TK_PLUGIN_DIR "/" RM_OPP_DEFAULT_FILE, &OPP, &err) ||
      mcm_load(TK_PLUGIN_DIR "/riichi_bcp.tkw", MCM_BCP, &BCP, &err) ||
      rs_penalty_load(TK_PLUGIN_DIR "/riichi_penalty_human.tkw", &HUMAN, &err)) {
    fprintf(stderr, "test_riichi_score: %s\n", err.msg);
    exit(1);
  }
  MODELS = (rmc_models){W, EFR, OPP};
}

/* ------------------------------------------------------------ points */

static void win_points(void) {
  /* 30 fu, 1..4 han: non-dealer ron 1000 2000 3900 7700, dealer ron 1500 2900 5800 11600;
   * non-dealer tsumo 300/500 500/1000 1000/2000 2000/3900, dealer tsumo 500 1000 2000 3900 all */
  static const int32_t ron[4] = {1000, 2000, 3900, 7700}, dron[4] = {1500, 2900, 5800, 11600};
  static const int32_t child[4] = {300, 500, 1000, 2000}, dealer[4] = {500, 1000, 2000, 3900};
  for (int han = 1; han <= 4; han++) {
    efr_hand h = rm_efr_win(han, 30, 2, 1);
    EQ(h.kind, EFR_RON, "ron");
    EQ(h.d[2], ron[han - 1], "non-dealer ron, han %d", han);
    EQ(h.d[1], -ron[han - 1], "its payer");
    EQ(h.d[0] + h.d[3], 0, "others pay nothing");
    EQ(h.renchan, 0, "the deal passes");
    h = rm_efr_win(han, 30, 0, 3);
    EQ(h.d[0], dron[han - 1], "dealer ron, han %d", han);
    EQ(h.renchan && h.yame, 1, "the dealer repeats");
    h = rm_efr_win(han, 30, 1, 1);
    EQ(h.kind == EFR_TSUMO && h.payer == 0xff, 1, "tsumo");
    EQ(h.d[0], -dealer[han - 1], "the dealer pays, han %d", han);
    EQ(h.d[2], -child[han - 1], "a non-dealer pays, han %d", han);
    EQ(h.d[1], dealer[han - 1] + 2 * child[han - 1], "the winner takes all");
    h = rm_efr_win(han, 30, 0, 0);
    EQ(h.d[0], 3 * dealer[han - 1], "dealer tsumo, han %d", han);
    EQ(h.d[3], -dealer[han - 1], "each pays");
  }
  EQ(rm_efr_win(5, 30, 1, 2).d[1], 8000, "mangan");
  EQ(rm_efr_win(4, 40, 1, 2).d[1], 8000, "4 han 40 fu is a mangan");
  EQ(rm_efr_win(6, 30, 0, 2).d[0], 18000, "dealer haneman");
  EQ(rm_efr_win(13, 0, 1, 3).d[1], 32000, "yakuman");
  EQ(rm_efr_win(3, 70, 1, 1).d[0], -4000, "3 han 70 fu tsumo: mangan, the dealer pays 4000");
}

/* ------------------------------------------------------------ the penalty table */

static efr_hand draw_all_noten(void) {
  efr_hand h;
  memset(&h, 0, sizeof h);
  h.kind = EFR_DRAW;
  return h;
}

static void penalty_table(void) {
  efr_hand hs[5];
  hs[0] = rm_efr_win(2, 30, 1, 1); /* seat 1 tsumo */
  hs[1] = rm_efr_win(3, 30, 2, 0); /* seat 2 rons the dealer */
  hs[2] = hs[0];
  hs[2].round = 3, hs[2].game = 9; /* the same outcome elsewhere */
  hs[3] = draw_all_noten();
  hs[4] = rm_efr_win(1, 30, 0, 3);
  rs_penalty p;
  tk_error err = {0};
  EQ(rs_penalty_build(hs, 5, &p, &err), 0, "build");
  EQ(p.n, 4, "two equal outcomes merged");
  EQ(p.total, 5, "five hands");
  EQ(p.count[0], 2, "the repeated one counted twice");
  rs_penalty_stats s;
  rs_penalty_stats_of(&p, 0, &s);
  EQ(s.hands, 4, "the dealer does not win 4 of the 5");
  EQ(fabs(s.opp_tsumo - 0.5) < 1e-12 && fabs(s.dealin - 0.25) < 1e-12 &&
            fabs(s.draw - 0.25) < 1e-12,
        1, "the dealer's outcomes: tsumo 2/4, its deal-in 1/4, draw 1/4 (got %.3f %.3f %.3f)",
        s.opp_tsumo, s.dealin, s.draw);
  rs_penalty_stats_of(&p, 3, &s);
  EQ(s.hands, 5, "seat 3 wins none");
  EQ(fabs(s.dealin - 0.2) < 1e-12 && fabs(s.opp_ron_other - 0.2) < 1e-12, 1,
        "seat 3: deals into the dealer once, sees one ron between others");
  /* the file's round trip */
  char path[600];
  snprintf(path, sizeof path, "%s/pen.tkw", TK_WORK_DIR);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "mkdir -p %s", TK_WORK_DIR);
  EQ(system(cmd), 0, "work folder");
  EQ(rs_penalty_save(path, &p, &err), 0, "save: %s", err.msg);
  rs_penalty q;
  EQ(rs_penalty_load(path, &q, &err), 0, "load: %s", err.msg);
  EQ(q.n == p.n && q.total == p.total, 1, "the same size");
  for (size_t i = 0; i < p.n && i < q.n; i++) {
    EQ(memcmp(q.h[i].d, p.h[i].d, sizeof q.h[i].d), 0, "row %zu's changes", i);
    EQ(q.h[i].kind == p.h[i].kind && q.h[i].winner == p.h[i].winner &&
              q.h[i].payer == p.h[i].payer && q.count[i] == p.count[i],
          1, "row %zu", i);
  }
  rs_penalty_free(&q);
  /* refusals: a bad kind, a fractional count, a payer out of range, another model */
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", RS_PENALTY_MODEL);
  w.feature_version = RS_PENALTY_VERSION;
  w.ndims = 2;
  w.shape[0] = 2, w.shape[1] = RS_PENALTY_COLS;
  w.count = 2 * RS_PENALTY_COLS;
  double v[2 * RS_PENALTY_COLS] = {-1000, 1000, 0, 0, EFR_RON, 1, 0, 0, 0, 0, 3,
                                   0,     0,    0, 0, EFR_DRAW, 0, 0, 0, 0, 0, 1};
  static const struct { int at; double value; const char *says; } bad[] = {
      {4, 7, "row 0, column kind = 7"},
      {RS_PENALTY_COLS + 10, 0.5, "row 1, column count = 0.5"},
      {6, 9, "row 0, column payer = 9"},
      {RS_PENALTY_COLS + 2, 1e9, "row 1, column d2 = 1e+09"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double c[2 * RS_PENALTY_COLS];
    memcpy(c, v, sizeof c);
    c[bad[i].at] = bad[i].value;
    w.values = c;
    tk_error_clear(&err);
    EQ(tk_weights_save(path, &w, &err), 0, "save a bad table");
    int rc = rs_penalty_load(path, &q, &err);
    EQ(rc, TK_EPARSE, "refused: %s", bad[i].says);
    if (!strstr(err.msg, bad[i].says) || !strstr(err.msg, path))
      TK_FAILF("the message '%s' does not name the file and '%s'", err.msg, bad[i].says);
  }
  tk_error_clear(&err);
  snprintf(w.model, sizeof w.model, "riichi_efr");
  w.values = v;
  EQ(tk_weights_save(path, &w, &err), 0, "save another model");
  EQ(rs_penalty_load(path, &q, &err) != 0, 1, "another model's file is refused");
  /* Penalty(z) by hand: at East 4 the last seat's value is the mean over what it does not win */
  load_models();
  rm_efr_state z = {.scores = {16000, 26000, 28000, 30000}, .round = 3};
  /* seat 0 is the dealer's +1 (dealer seat 3) */
  double want = 0;
  int n = 0;
  for (int i = 0; i < 5; i++) {
    int win = hs[i].kind == EFR_RON || hs[i].kind == EFR_TSUMO;
    if (win && hs[i].winner == 1) continue;
    want += rm_efr_after(EFR, &z, &hs[i], 0), n++;
  }
  want /= n;
  double got = rs_penalty_value(&p, EFR, &z, 0);
  EQ(n, 3, "seat 0 wins the two tsumo hands");
  EQ(fabs(got - want) < 1e-12, 1, "Penalty(z) %.6f, by hand %.6f", got, want);
  /* all-last, nobody tenpai: the game ends, the last seat is 4th, the top 1st */
  EQ(rs_penalty_value(NULL, EFR, &z, 0), 4.0, "the none penalty of the last seat");
  EQ(rs_penalty_value(NULL, EFR, &z, 3), 1.0, "the none penalty of the top seat");
  rs_penalty_free(&p);
}

/* ------------------------------------------------------------ Score */

static void score(void) {
  load_models();
  /* table 8's 7p: P_bc(>=1..4) = .294 .303 .240 .136 */
  const double ge[5] = {1, .294, .303, .240, .136};
  double P[5];
  rs_han_probs(RS_BCP_LITERAL, ge, P);
  EQ(fabs(P[1] + 0.009) < 1e-12, 1, "literal P(1) = .294 - .303 = -0.009 (got %.4f)", P[1]);
  EQ(fabs(P[0] - 0.706) < 1e-12 && fabs(P[4] - 0.136) < 1e-12, 1, "P(0) = 1 - .294, P(4) = .136");
  double sum = P[0] + P[1] + P[2] + P[3] + P[4];
  EQ(fabs(sum - 1) < 1e-12, 1, "literal sums to 1");
  rs_han_probs(RS_BCP_CLAMPED, ge, P);
  EQ(P[1], 0.0, "clamped P(1) = 0");
  double s2 = 0.706 + 0.063 + 0.104 + 0.136;
  EQ(fabs(P[0] - 0.706 / s2) < 1e-12 && fabs(P[2] - 0.063 / s2) < 1e-12, 1,
        "clamped renormalised");
  /* Score by hand */
  rs_situation s;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) s.win[i][j] = 1 + 0.1 * i + 0.01 * j;
  s.penalty = 3.5;
  const double Q[5] = {0.6, 0.1, 0.1, 0.1, 0.1};
  double want = 0.6 * 3.5;
  for (int i = 0; i < 4; i++) want += 0.1 * (1 + 0.1 * i + 0.015);
  EQ(fabs(rs_score(&s, Q) - want) < 1e-12, 1, "Score %.6f, by hand %.6f", rs_score(&s, Q), want);
  /* Table 10: all-last, the last seat needs a mangan: BCP + EFR plays 7p */
  rm_efr_state z = {.scores = {16000, 26000, 28000, 30000}, .round = 3};
  rs_situation_of(EFR, &HUMAN, &z, 0, 30, &s);
  EQ(s.win[3][2] < s.win[0][2], 1, "a 4-han ron off third is worth more than a 1-han one");
  static const struct { const char *tile; double ge[5]; } t8[] = {
      {"5m", {1, .353, .338, .221, .111}},
      {"7p", {1, .294, .303, .240, .136}},
      {"N", {1, .328, .285, .161, .079}},
      {"white", {1, .173, .168, .149, .063}}};
  double v[4];
  for (int d = 0; d < 4; d++) {
    rs_han_probs(RS_BCP_CLAMPED, t8[d].ge, P);
    v[d] = rs_score(&s, P);
  }
  int best = 0;
  for (int d = 1; d < 4; d++)
    if (v[d] < v[best]) best = d;
  EQ(best, 1, "table 10: 7p has the least Score (5m %.3f, 7p %.3f, N %.3f, white %.3f)", v[0],
        v[1], v[2], v[3]);
  EQ(v[3] > v[1] && v[3] > v[0], 1, "white, the least likely to win big, is worse than 5m, 7p");
}

/* ------------------------------------------------------------ whole games */


/* the opening hook: plays the last legal action, counts its calls */
typedef struct hook_ctx {
  int calls, checked, opening, after;
} hook_ctx;

static int last_action(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l, int pa,
                       int *action, tk_error *err) {
  (void)v, (void)pa, (void)err;
  ((hook_ctx *)ctx)->calls++;
  *action = l->n - 1;
  return 0;
}

static void visit_hook(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *c) {
  hook_ctx *x = c;
  if (x->checked >= 80 || seat != 0) return;
  x->checked++;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  rmc_params p = rmc_default_params();
  p.playouts = 8;
  p.opening_move = last_action;
  p.opening_ctx = x;
  rmc_models m = {W, EFR, OPP};
  rmc_stats st = {0};
  rmc_result r;
  tk_rng rng;
  tk_rng_seed(&rng, 5);
  tk_error err = {0};
  int over = 0, before = x->calls;
  EQ(rmc_decide(&p, &m, &v, l, &over, &rng, &r, &st, &err), 0, "decide: %s", err.msg);
  if (!over) {
    x->opening++;
    EQ(x->calls, before + 1, "the hook decides while the opening lasts");
    EQ(r.action, l->n - 1, "its move is played");
  } else {
    x->after++;
    EQ(x->calls, before, "the hook is not called once the opening is over");
  }
}

static void opening_hook(void) {
  load_models();
  hook_ctx x = {0};
  walk(&MODELS, 3, 31, visit_hook, &x);
  EQ(x.opening >= 10 && x.after >= 10, 1, "decisions in and after the opening checked (%d, %d)",
        x.opening, x.after);
}

typedef struct mode_ctx {
  int checked, searched;
  mce_ctx c1, c2, c3;
} mode_ctx;

static void visit_mode(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *c) {
  mode_ctx *x = c;
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON ||
        l->a[i].type == TK_RIICHI_RIICHI)
      return;
  if (x->checked >= 40 || (l->n + seat) % 3) return;
  x->checked++;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  tk_error err = {0};
  int a1;
  double v1;
  EQ(mce_decide(&x->c1, &v, l, &a1, &v1, &err), 0, "plies 1: %s", err.msg);
  /* the least Score over every candidate, the first of equals */
  static rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(&v, l, cands, ROP_MAX_CANDS), best = -1;
  double bv = 0;
  double score[ROP_MAX_CANDS];
  for (int i = 0; i < n; i++) {
    score[i] = mce_score_hand(&x->c1, &cands[i].hand, &cands[i].ctx, &err);
    if (best < 0 || score[i] < bv) best = i, bv = score[i];
  }
  EQ(best >= 0 && a1 == cands[best].action, 1, "plies 1 plays the least Score");
  EQ(fabs(v1 - bv) < 1e-12, 1, "its value is that Score");
  EQ(v1 >= 1 && v1 <= 4, 1, "an expected rank (%.3f)", v1);
  if (v.phase != TK_RIICHI_PHASE_SELF) return;
  x->searched++;
  int a2, a3;
  double v2, v3;
  EQ(mce_decide(&x->c2, &v, l, &a2, &v2, &err), 0, "plies 2: %s", err.msg);
  EQ(mce_decide(&x->c2, &v, l, &a3, &v3, &err), 0, "again");
  EQ(a2 == a3 && v2 == v3, 1, "the same choice and value twice");
  EQ(l->a[a2].type, TK_RIICHI_DISCARD, "the search plays a discard");
  /* among the 3 best discards by Score */
  int rank = 0;
  double mine = INFINITY;
  for (int i = 0; i < n; i++)
    if (cands[i].action == a2) mine = score[i] < mine ? score[i] : mine;
  for (int i = 0; i < n; i++)
    if (l->a[cands[i].action].type == TK_RIICHI_DISCARD && score[i] < mine) rank++;
  EQ(rank < 3, 1, "the search's discard is one of the 3 best by Score (rank %d)", rank);
  EQ(v2 >= 1 && v2 <= 4, 1, "an expected rank (%.3f)", v2);
  if (x->searched <= 6) { /* plies 3 (two draws deep: 1-shanten hands reach wins) */
    EQ(mce_decide(&x->c3, &v, l, &a3, &v3, &err), 0, "plies 3: %s", err.msg);
    EQ(l->a[a3].type, TK_RIICHI_DISCARD, "plies 3 plays a discard");
    EQ(v3 >= 1 && v3 <= 4, 1, "an expected rank (%.3f)", v3);
  }
}

static void efr_mode(void) {
  load_models();
  mode_ctx x;
  memset(&x, 0, sizeof x);
  x.c1.p = (mce_params){.kind = RS_BCP_CLAMPED, .plies = 1, .width = 3, .fu = 30};
  x.c1.han = &BCP, x.c1.efr = EFR, x.c1.pen = &HUMAN;
  x.c2 = x.c1;
  x.c2.p.plies = 2;
  x.c3 = x.c1;
  x.c3.p.plies = 3;
  walk(&MODELS, 3, 41, visit_mode, &x);
  EQ(x.checked >= 20 && x.searched >= 10, 1, "positions checked (%d, %d searched)", x.checked,
        x.searched);
  EQ(x.c2.st.searches >= 10 && x.c2.st.evals > x.c2.st.searches * 14, 1,
        "the search evaluates more than the root (%llu evals in %llu searches)",
        (unsigned long long)x.c2.st.evals, (unsigned long long)x.c2.st.searches);
  EQ(x.c2.st.wins + x.c3.st.wins > 0, 1, "wins inside the tree are valued (%llu)",
     (unsigned long long)(x.c2.st.wins + x.c3.st.wins));
  EQ(x.c3.st.evals > 10 * x.c2.st.evals / (x.c2.st.searches ? x.c2.st.searches : 1), 1,
     "plies 3 evaluates far more than plies 2 per search");
}

/* ------------------------------------------------------------ the plugins */

static int run(const char *cmd) { return system(cmd); }

static void plugins(void) {
  char cmd[4096], spec[600], bad[600];
  snprintf(cmd, sizeof cmd, "mkdir -p %s", TK_WORK_DIR);
  EQ(run(cmd), 0, "work folder");
  snprintf(spec, sizeof spec, "%s/efr.json", TK_WORK_DIR);
  FILE *f = fopen(spec, "w");
  fprintf(f, "{\"game\": \"riichi\", \"seed\": 12, \"walls\": 1, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"riichi_bcp\", \"label\": \"bcp\", \"params\": {\"mode\": \"efr\", "
             "\"playouts\": 8, \"plies\": 2}}, "
             "{\"plugin\": \"riichi_mcp\", \"label\": \"mcp\", \"params\": {\"mode\": \"efr\", "
             "\"playouts\": 8, \"penalty\": \"none\"}}], "
             "\"rules\": {\"length\": \"east\"}}\n");
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "rm -rf %s/r1 %s/r2 && " TK_TAIKAI_BIN " run %s --out %s/r1 -j 2 --quiet > /dev/null && "
           TK_TAIKAI_BIN " run %s --out %s/r2 -j 1 --quiet > /dev/null && "
           "cmp -s %s/r1/games.jsonl %s/r2/games.jsonl",
           TK_WORK_DIR, TK_WORK_DIR, spec, TK_WORK_DIR, spec, TK_WORK_DIR, TK_WORK_DIR, TK_WORK_DIR);
  EQ(run(cmd), 0, "efr mode: the same games at -j 1 and -j 2");
  snprintf(cmd, sizeof cmd, "grep -q 'riichi_penalty_human.tkw' %s/r1/spec.json && "
           "grep -q '\"penalty\"' %s/r1/spec.json", TK_WORK_DIR, TK_WORK_DIR);
  EQ(run(cmd), 0, "spec.json records the penalty table");
  static const char *const params[][3] = {
      {"riichi_bcp", "{\"penalty\": \"self-play\"}", "applies to the efr mode only"},
      {"riichi_bcp", "{\"mode\": \"efr\", \"target\": 3}", "applies to the target mode only"},
      {"riichi_bcp", "{\"mode\": \"efr\", \"penalty\": \"people\"}", "\"penalty\" = \"people\""},
      {"riichi_bcp", "{\"mode\": \"efr\", \"bcp\": \"round\"}", "\"bcp\" = \"round\""},
      {"riichi_mcp", "{\"mode\": \"efr\", \"bcp\": \"literal\"}", "applies to riichi_bcp only"},
      {"riichi_bcp", "{\"mode\": \"efr\", \"plies\": 9}", "\"plies\" = 9"},
      {"riichi_bcp", "{\"mode\": \"fast\"}", "\"mode\" = \"fast\""},
      {"riichi_bcp", "{\"mode\": \"efr\", \"penalty_file\": \"/nonexistent/p.tkw\"}",
       "/nonexistent/p.tkw"},
      {"riichi_bcp", "{\"mode\": \"efr\", \"playouts\": 0}", "playouts"},
  };
  for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
    snprintf(bad, sizeof bad, "%s/bad%zu.json", TK_WORK_DIR, i);
    f = fopen(bad, "w");
    fprintf(f, "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 1, \"format\": \"duplicate\", "
               "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
               "{\"plugin\": \"%s\", \"label\": \"x\", \"params\": %s}]}\n",
            params[i][0], params[i][1]);
    fclose(f);
    snprintf(cmd, sizeof cmd, TK_TAIKAI_BIN " run %s --out %s/badrun%zu --quiet > %s/bad.out 2>&1",
             bad, TK_WORK_DIR, i, TK_WORK_DIR);
    if (run(cmd) == 0) TK_FAILF("params %s accepted", params[i][1]);
    snprintf(cmd, sizeof cmd, "grep -qF '%s' %s/bad.out", params[i][2], TK_WORK_DIR);
    if (run(cmd)) TK_FAILF("params %s: the message does not say '%s'", params[i][1], params[i][2]);
  }
}

int main(void) {
  CU_TestInfo tests[] = {{"rm_efr_win's points", win_points},
                         {"the penalty table", penalty_table},
                         {"Score and table 10", score},
                         {"riichi_mc's opening hook", opening_hook},
                         {"the efr mode's opening and search", efr_mode},
                         {"the plugins in efr mode", plugins},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("riichi_score", tests);
}
