/* tests/daifugo/test_daifugo_exchange.c — daifugo_search's learned exchange policy
 * (plugins/daifugo_search/exchange.h): features of hand-checked hands, choices under tiny
 * hand-made weights, the daifugo's two calls in seeded blocks, the weights file's refusals, and
 * the trainer build/daifugo_search_exchange_train end to end on a tiny budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "exchange.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"
#include "taikai/weights.h"
#include "unit.h"

static uint64_t cards(const char *text) {
  uint64_t s = 0;
  tk_error err = {0};
  if (tk_daifugo_cards_parse(text, &s, &err)) TK_FAILF("cards '%s': %s", text, err.msg);
  return s;
}

/* An exchange view and its legal list for `hand` in role `cls` (0 daifugo, 1 fugo) with
 * `to_give` cards still to give. */
static void exchange_of(uint64_t hand, int cls, int to_give, tk_daifugo_view *v,
                        tk_daifugo_legal *l) {
  memset(v, 0, sizeof *v);
  v->player = 2;
  v->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  v->to_give = (uint8_t)to_give;
  for (int p = 0; p < 5; p++) v->cls[p] = (uint8_t)((p + 5 - 2 + cls) % 5);
  v->hand = hand;
  memset(l, 0, sizeof *l);
  l->player = 2;
  l->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  for (uint64_t h = hand; h; h &= h - 1) {
    tk_daifugo_move *m = &l->a[l->n++];
    m->kind = TK_DAIFUGO_GIVE, m->cards = h & -h, m->n = 1, m->jcell = TK_DAIFUGO_NOCELL;
  }
}

/* The value of feature f in the features of giving `card` from `hand` (0 if not active). */
static double feature(uint64_t hand, const char *card, int f) {
  int idx[DSX_MAX_ACTIVE];
  double val[DSX_MAX_ACTIVE];
  int n = dsx_features(hand, cards(card), idx, val);
  if (n > DSX_MAX_ACTIVE) TK_FAILF("%d features", n);
  for (int i = 0; i < n; i++) {
    if (i && idx[i] <= idx[i - 1]) TK_FAILF("%s: indexes not increasing", card);
    if (idx[i] == f) return val[i];
  }
  return 0;
}

/* S3 S4 S5 S6 (a run of 4), H7 D7 (a pair), C9, CJ CQ (a run of 2: CT is missing), DA, JK;
 * its singles are C9 CJ CQ DA. Every value below is worked out by hand. */
static void features_by_hand(void) {
  uint64_t h = cards("S3 S4 S5 S6 H7 D7 C9 CJ CQ DA JK");
  /* S3: column 1, alone in it, a run of 4 kept as a run of 3 (S4 S5 S6); singles unchanged
     (S3 was in a run); the joker stays; ♠3; no column below it. */
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_COL + 0), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_COL_N + 0), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_N + 0), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_RUN + 3), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_SHORTENS_SEQ), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_BREAKS_SEQ), 0);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_SINGLES), 0);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_N_JOKER + 0), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_S3), 1);
  CU_ASSERT_EQUAL(feature(h, "S3", DSX_F_ORDER + 0), 1);
  /* S5: the run of 4 split into S3 S4 and S6: broken, and S3 S4 S6 become singles (+3). */
  CU_ASSERT_EQUAL(feature(h, "S5", DSX_F_BREAKS_SEQ), 1);
  CU_ASSERT_EQUAL(feature(h, "S5", DSX_F_SINGLES), 3);
  CU_ASSERT_EQUAL(feature(h, "S5", DSX_F_ORDER + 2), 1);
  /* H7: column 5 with two cards: breaks the pair, D7 becomes a single (+1); 4 columns below. */
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_COL + 4), 1);
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_COL_N + 4 * 4 + 1), 1);
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_N + 1), 1);
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_N_JOKER + 1), 1);
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_SINGLES), 1);
  CU_ASSERT_EQUAL(feature(h, "H7", DSX_F_ORDER + 3), 1);
  /* CJ: a run of 2 (CJ CQ; C9 is not next to it); singles: CJ was one, CQ stays one: -1. */
  CU_ASSERT_EQUAL(feature(h, "CJ", DSX_F_RUN + 1), 1);
  CU_ASSERT_EQUAL(feature(h, "CJ", DSX_F_SINGLES), -1);
  /* The joker: its column, no singles change, the order's last bucket, nothing else. */
  CU_ASSERT_EQUAL(feature(h, "JK", DSX_F_COL + 13), 1);
  CU_ASSERT_EQUAL(feature(h, "JK", DSX_F_ORDER + 3), 1);
  CU_ASSERT_EQUAL(feature(h, "JK", DSX_F_SINGLES), 0);
  CU_ASSERT_EQUAL(feature(h, "JK", DSX_F_N + 0), 0);
  /* ♦3 is flagged, and a hand without the joker leaves N_JOKER off. */
  uint64_t g = cards("D3 H3 C5");
  CU_ASSERT_EQUAL(feature(g, "D3", DSX_F_D3), 1);
  CU_ASSERT_EQUAL(feature(g, "D3", DSX_F_N_JOKER + 1), 0);
  CU_ASSERT_EQUAL(feature(g, "D3", DSX_F_SINGLES), 1);
}

/* Weights only on the column, falling with it: the weakest card, exactly the referee's
 * fallback (its suit order breaks the ties among a column), in every role, on the exchange
 * decisions of seeded blocks. */
static void column_weight_gives_the_weakest(void) {
  static dsx_model m;
  memset(&m, 0, sizeof m);
  for (int r = 0; r < DSX_ROLES; r++)
    for (int c = 0; c < 14; c++) m.w[r * DSX_FEATURES + DSX_F_COL + c] = -c;
  static tk_daifugo_block b;
  static tk_daifugo_legal l;
  static tk_daifugo_view v;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 20;
  tk_rng r;
  tk_rng_seed(&r, 5);
  int checked = 0;
  for (uint64_t blk = 0; blk < 3; blk++) {
    tk_daifugo_block_init(&b, &rules, 77, blk, NULL);
    while (!tk_daifugo_is_over(&b)) {
      int who = tk_daifugo_to_act(&b);
      tk_daifugo_legal_of(&b, who, &l);
      tk_daifugo_move mv;
      if (l.decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
        tk_daifugo_view_of(&b, who, &v);
        int k = dsx_choose(&m, &v, &l);
        tk_daifugo_move fb = tk_daifugo_fallback(&l);
        if (k < 0 || l.a[k].cards != fb.cards)
          TK_FAILF("block %llu game %u: chose %d, the fallback gives %llx",
                   (unsigned long long)blk, v.game, k, (unsigned long long)fb.cards);
        checked++;
        mv = fb;
      } else {
        tk_daifugo_random_play(&b.g, &r, &mv);
      }
      if (tk_daifugo_apply(&b, who, &mv, NULL)) TK_FAILF("a move refused");
    }
  }
  TK_EQ(checked, 3 * 19 * 3, "exchange decisions checked");
  /* Equal scores everywhere: the ties go to the weaker card too. */
  memset(&m, 0, sizeof m);
  exchange_of(cards("SA H5 C5 D2 JK"), 1, 1, &v, &l);
  int k = dsx_choose(&m, &v, &l);
  CU_ASSERT(k >= 0 && l.a[k].cards == cards("C5"));
}

/* A penalty on breaking a pair (n = 2) over the column's weights: the weakest card that is no
 * pair's. */
static void pair_penalty_avoids_the_pair(void) {
  static dsx_model m;
  memset(&m, 0, sizeof m);
  for (int c = 0; c < 14; c++) m.w[DSX_ROLE_FUGO * DSX_FEATURES + DSX_F_COL + c] = -c;
  tk_daifugo_view v;
  static tk_daifugo_legal l;
  exchange_of(cards("S3 H3 D4 C4 S9 HK"), 1, 1, &v, &l);
  int k = dsx_choose(&m, &v, &l);
  CU_ASSERT(k >= 0 && l.a[k].cards == cards("H3")); /* without the penalty: the weaker 3 */
  m.w[DSX_ROLE_FUGO * DSX_FEATURES + DSX_F_N + 1] = -100;
  k = dsx_choose(&m, &v, &l);
  if (k < 0 || l.a[k].cards != cards("S9"))
    TK_FAILF("with the pair penalty: chose %llx, expected S9",
             k < 0 ? 0ULL : (unsigned long long)l.a[k].cards);
  /* The daifugo's rows are their own: the fugo's penalty does not move them. */
  exchange_of(cards("S3 H3 D4 C4 S9 HK"), 0, 2, &v, &l);
  k = dsx_choose(&m, &v, &l); /* all zero: the tie goes to the weaker 3, ♥ before ♠ */
  CU_ASSERT(k >= 0 && l.a[k].cards == cards("H3"));
}

/* Random weights (seeded) choose for every exchange decision of seeded blocks: each choice is
 * one of the legal actions, the daifugo's two calls give two different cards (the block
 * accepts both), and a view of no giver is refused. */
static void daifugo_gives_two_different_cards(void) {
  static dsx_model m;
  tk_rng r;
  tk_rng_seed(&r, 11);
  for (int i = 0; i < DSX_ROLES * DSX_FEATURES; i++) m.w[i] = tk_rng_double(&r) * 2 - 1;
  static tk_daifugo_block b;
  static tk_daifugo_legal l;
  static tk_daifugo_view v;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 30;
  int pairs = 0;
  for (uint64_t blk = 0; blk < 4; blk++) {
    tk_daifugo_block_init(&b, &rules, 123, blk, NULL);
    while (!tk_daifugo_is_over(&b)) {
      int who = tk_daifugo_to_act(&b);
      tk_daifugo_legal_of(&b, who, &l);
      tk_daifugo_move mv;
      if (l.decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
        tk_daifugo_view_of(&b, who, &v);
        int k = dsx_choose(&m, &v, &l);
        if (k < 0 || k >= l.n) {
          TK_FAILF("block %llu game %u: index %d of %d", (unsigned long long)blk, v.game, k, l.n);
          return;
        }
        mv = l.a[k];
        if (v.cls[who] == 0 && v.to_give == 1) {
          if (mv.cards & v.given) TK_FAILF("the daifugo gives the same card twice");
          pairs++;
        }
      } else {
        tk_daifugo_random_play(&b.g, &r, &mv);
      }
      if (tk_daifugo_apply(&b, who, &mv, NULL)) {
        TK_FAILF("block %llu: a move refused", (unsigned long long)blk);
        return;
      }
      if (l.decision == TK_DAIFUGO_DECIDE_EXCHANGE && v.cls[who] == 0 && v.to_give == 1)
        TK_EQ(__builtin_popcountll(b.given[who]), 2, "the daifugo's gifts");
    }
  }
  TK_EQ(pairs, 4 * 29, "daifugo pairs");
  /* No class (a block's first game) or the hinmin: no decision of this policy. */
  exchange_of(cards("S3 H5"), 3, 1, &v, &l);
  CU_ASSERT_EQUAL(dsx_choose(&m, &v, &l), -1);
  exchange_of(cards("S3 H5"), 1, 1, &v, &l);
  l.decision = TK_DAIFUGO_DECIDE_PLAY;
  CU_ASSERT_EQUAL(dsx_choose(&m, &v, &l), -1);
}

/* ------------------------------------------------------------ files */

static char WORK[1024];

static const char *W(const char *name) {
  static char buf[4][1200];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", WORK, name);
  return buf[k];
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) ? -1 : (long)st.st_size;
}

static int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int x = fgetc(fa), y = fgetc(fb);
    if (x != y) same = 0;
    if (x == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* Loads `path` expecting a refusal whose message names the file and holds `field`. */
static void refused(const char *path, const char *field) {
  static dsx_model m;
  m.w[0] = 42;
  tk_error err = {0};
  int rc = dsx_load(path, &m, &err);
  if (rc == 0) TK_FAILF("%s loaded; expected a refusal naming %s", path, field);
  else if (!strstr(err.msg, path) || !strstr(err.msg, field))
    TK_FAILF("the message does not name %s and %s: %s", path, field, err.msg);
  CU_ASSERT_EQUAL(m.w[0], 42); /* untouched */
}

static void weights_file(void) {
  static dsx_model m, back;
  for (int i = 0; i < DSX_ROLES * DSX_FEATURES; i++) m.w[i] = (double)i / 7 - 3;
  tk_error err = {0};
  if (dsx_save(W("w.tkw"), &m, &err)) TK_FAILF("save: %s", err.msg);
  if (dsx_load(W("w.tkw"), &back, &err)) TK_FAILF("load: %s", err.msg);
  CU_ASSERT(memcmp(&m, &back, sizeof m) == 0);
  /* another model's name */
  tk_weights w = {.feature_version = DSX_FEATURE_VERSION, .ndims = 2,
                  .shape = {DSX_ROLES, DSX_FEATURES}, .count = DSX_ROLES * DSX_FEATURES,
                  .values = m.w};
  snprintf(w.model, sizeof w.model, "daifugo_mcl_ap");
  if (tk_weights_save(W("model.tkw"), &w, &err)) TK_FAILF("save: %s", err.msg);
  refused(W("model.tkw"), "'model'");
  /* a bad shape: one feature short */
  snprintf(w.model, sizeof w.model, DSX_MODEL);
  w.shape[1] = DSX_FEATURES - 1, w.count = DSX_ROLES * (DSX_FEATURES - 1);
  if (tk_weights_save(W("shape.tkw"), &w, &err)) TK_FAILF("save: %s", err.msg);
  refused(W("shape.tkw"), "'shape[1]'");
  /* another feature version */
  w.shape[1] = DSX_FEATURES, w.count = DSX_ROLES * DSX_FEATURES;
  w.feature_version = DSX_FEATURE_VERSION + 1;
  if (tk_weights_save(W("version.tkw"), &w, &err)) TK_FAILF("save: %s", err.msg);
  refused(W("version.tkw"), "'feature_version'");
  /* truncated: the good file less its last 100 bytes */
  long n = file_size(W("w.tkw"));
  char cmd[3000];
  snprintf(cmd, sizeof cmd, "head -c %ld '%s' > '%s'", n - 100, W("w.tkw"), W("short.tkw"));
  if (system(cmd)) TK_FAILF("%s failed", cmd);
  refused(W("short.tkw"), "bytes");
}

/* The shipped weights load, the build's copy beside the plugins is the same file, and they are
 * no fallback in disguise: on 200 random hands they give the lowest card in some, far from all
 * (zero weights would give it every time). */
static void shipped_weights(void) {
  static dsx_model m;
  tk_error err = {0};
  const char *src = TK_SEARCH_DIR "/" DSX_DEFAULT_WEIGHTS;
  const char *built = TK_PLUGIN_DIR "/" DSX_DEFAULT_WEIGHTS;
  if (dsx_load(src, &m, &err)) {
    TK_FAILF("%s", err.msg);
    return;
  }
  if (!same_bytes(src, built)) TK_FAILF("%s is not a copy of %s", built, src);
  tk_daifugo_view v;
  static tk_daifugo_legal l;
  tk_rng r;
  tk_rng_seed(&r, 9);
  int lowest = 0;
  for (int i = 0; i < 200; i++) {
    uint64_t hand = 0;
    while (__builtin_popcountll(hand) < 11) {
      int bit = (int)tk_rng_below(&r, 64);
      if (TK_DAIFUGO_DECK >> bit & 1) hand |= UINT64_C(1) << bit;
    }
    exchange_of(hand, i % 2, 1, &v, &l);
    int k = dsx_choose(&m, &v, &l);
    if (k < 0) TK_FAILF("hand %llx: no choice", (unsigned long long)hand);
    else lowest += l.a[k].cards == tk_daifugo_fallback(&l).cards;
  }
  if (lowest < 40 || lowest > 180) TK_FAILF("the lowest card in %d of 200 hands", lowest);
}

/* ------------------------------------------------------------ the trainer */

static char out_buf[1 << 15], err_buf[1 << 14];

static void slurp(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
  buf[n] = 0;
  if (f) fclose(f);
}

static int tool(const char *args) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' %s > '%s' 2> '%s'", TK_EXCH_BIN, args, W("tool.out"),
           W("tool.err"));
  int status = system(cmd);
  slurp(W("tool.out"), out_buf, sizeof out_buf);
  slurp(W("tool.err"), err_buf, sizeof err_buf);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define MCL "--mcl-weights '" TK_MCL_DIR "/daifugo_mcl_ap.tkw'"

/* Generation with 50 playouts, training, evaluation; the same bytes from the same commands;
 * usage errors exit 2 and a damaged positions file exits 1 naming the line and the field. */
static void trainer_end_to_end(void) {
  char args[3000];
  for (int k = 0; k < 2; k++) {
    snprintf(args, sizeof args, "generate --out '%s' --positions 40 --playouts 50 --seed 3 " MCL,
             W(k ? "b.pos" : "a.pos"));
    int rc = tool(args);
    if (rc) {
      TK_FAILF("generate: exit %d: %s", rc, err_buf);
      return;
    }
  }
  if (!strstr(out_buf, "positions written")) TK_FAILF("generate's summary: %s", out_buf);
  if (!same_bytes(W("a.pos"), W("b.pos"))) TK_FAILF("generate: the same command, other bytes");
  for (int k = 0; k < 2; k++) {
    snprintf(args, sizeof args, "train --in '%s' --out '%s' --epochs 5 --seed 4", W("a.pos"),
             W(k ? "b.tkw" : "a.tkw"));
    int rc = tool(args);
    if (rc) {
      TK_FAILF("train: exit %d: %s", rc, err_buf);
      return;
    }
  }
  if (!strstr(out_buf, "epoch   5") || !strstr(out_buf, "held-out agree"))
    TK_FAILF("train's epochs: %s", out_buf);
  if (!same_bytes(W("a.tkw"), W("b.tkw"))) TK_FAILF("train: the same command, other bytes");
  static dsx_model m;
  tk_error err = {0};
  if (dsx_load(W("a.tkw"), &m, &err)) TK_FAILF("the trained weights: %s", err.msg);
  snprintf(args, sizeof args, "eval --in '%s' --weights '%s' --playouts 50 " MCL, W("a.pos"),
           W("a.tkw"));
  int rc = tool(args);
  if (rc || !strstr(out_buf, "the weights (dsx_choose)") || !strstr(out_buf, "50 playouts") ||
      !strstr(out_buf, "fallback"))
    TK_FAILF("eval: exit %d: %s %s", rc, out_buf, err_buf);
  /* usage */
  TK_EQ(tool("--help"), 0, "--help");
  if (!strstr(out_buf, "usage:")) TK_FAILF("--help: %s", out_buf);
  TK_EQ(tool("train --in x"), 2, "train without --out");
  if (!strstr(err_buf, "--out")) TK_FAILF("train without --out: %s", err_buf);
  TK_EQ(tool("generate --out x --playouts 0"), 2, "--playouts 0");
  TK_EQ(tool("bake"), 2, "an unknown command");
  snprintf(args, sizeof args, "train --in '%s' --out '%s'", W("none.pos"), W("c.tkw"));
  TK_EQ(tool(args), 2, "a positions file that does not exist");
  /* damaged: the third line's teacher card is not in its hand */
  char text[1 << 14];
  slurp(W("a.pos"), text, sizeof text);
  char *line = strchr(strchr(strchr(text, '\n') + 1, '\n') + 1, '\n');
  if (!line) {
    TK_FAILF("fewer than 3 lines: %s", text);
    return;
  }
  FILE *f = fopen(W("bad.pos"), "w");
  fprintf(f, "%.*s\n1 0 0 2 0 1 2 3 4 0 1 2 3 4 11 11 11 10 10 6 0 0 8 2 2:0.5 4:0.25\n",
          (int)(line - text), text);
  fclose(f);
  snprintf(args, sizeof args, "train --in '%s' --out '%s'", W("bad.pos"), W("c.tkw"));
  TK_EQ(tool(args), 1, "a damaged positions file");
  if (!strstr(err_buf, "bad.pos:4") || !strstr(err_buf, "field teacher"))
    TK_FAILF("the message does not name the line and the field: %s", err_buf);
}

int main(void) {
  snprintf(WORK, sizeof WORK, "%s/exchange", TK_WORK_DIR);
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", WORK, WORK);
  if (system(cmd)) return 1;
  CU_TestInfo tests[] = {
      {"features of a hand-checked hand", features_by_hand},
      {"weights on the column alone give the weakest card", column_weight_gives_the_weakest},
      {"a penalty on breaking a pair avoids the pair", pair_penalty_avoids_the_pair},
      {"the daifugo gives two different legal cards", daifugo_gives_two_different_cards},
      {"the weights file and its refusals", weights_file},
      {"the shipped weights", shipped_weights},
      {"the trainer end to end", trainer_end_to_end},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_exchange", tests);
}
