/* tests/riichi/test_riichi_opp.c — the opponent models (plugins/riichi_opp): the model file's
 * round trip and refusals, the rules the assessment keeps whatever the weights (a seat in
 * riichi is tenpai, a kind in a seat's own river is not a wait), probabilities in [0, 1] over
 * positions of whole games, rm_opp_dealin's combination, and the features of a view built by
 * hand (discard order, suji, genbutsu, kabe, passed tiles, reference tile, dora, classes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "taikai/rng.h"
#include "taikai/weights.h"
#include "unit.h"

#ifndef TK_WORK_DIR
#define TK_WORK_DIR "work-opp"
#endif

static void path_of(char *buf, size_t cap, const char *name) {
  mkdir(TK_WORK_DIR, 0777);
  snprintf(buf, cap, "%s/%s", TK_WORK_DIR, name);
}

/* A model whose every weight is drawn from [-scale, scale). */
static void random_model(rm_opp *m, uint64_t seed, double scale) {
  tk_rng r;
  tk_rng_seed(&r, seed);
  double v[RM_OPP_NVALUES];
  for (int i = 0; i < RM_OPP_NVALUES; i++)
    v[i] = scale * ((double)tk_rng_below(&r, 1u << 20) / (1 << 20) * 2 - 1);
  v[RM_OPP_OFF_SMEAR] = 1.25;
  rm_opp_from_values(m, v);
}

static uint8_t T(const char *s) {
  tk_error err;
  int t = tk_tile_parse1(s, &err);
  CU_ASSERT_FATAL(t >= 0);
  return (uint8_t)t;
}

/* The view of the hand-checked case (viewer 0, dealer 0, East round, SELF, 16 discards made):
 *   seat 0: 9m S 1p 8s        seat 1 (riichi on its 4th): 4m 9p(tsumogiri) E 7s(declared)
 *   seat 2: 2p 3p 6s 5p       seat 3: N 8m 1s 2s
 * In turn order seat s's i-th discard is the (4i + s)-th; seat 1 declared at 13, so 5p (14) and
 * 2s (15) were passed after it. The viewer holds 8p x4, 2s x3, E, 1m 2m 3m 5m 6m 7m (14 tiles);
 * one dora indicator, 5m (dora 6m). */
static void hand_view(tk_riichi_view *v) {
  memset(v, 0, sizeof *v);
  v->seat = 0, v->dealer = 0, v->phase = TK_RIICHI_PHASE_SELF, v->tiles_left = 50;
  v->ndora = 1, v->dora[0] = T("5m");
  const char *rivers[4][4] = {{"9m", "2z", "1p", "8s"}, {"4m", "9p", "1z", "7s"},
                              {"2p", "3p", "6s", "5p"}, {"4z", "8m", "1s", "2s"}};
  for (int s = 0; s < 4; s++) {
    v->nriver[s] = 4;
    for (int i = 0; i < 4; i++) v->river[s][i].tile = T(rivers[s][i]);
  }
  v->river[1][1].flags = TK_RIICHI_TSUMOGIRI;
  v->river[1][3].flags = TK_RIICHI_DECLARED;
  v->riichi[1] = 1, v->riichi_index[1] = 3;
  const char *hand = "8p8p8p8p2s2s2s1z1m2m3m5m6m7m";
  for (int i = 0; i < 14; i++) {
    char t[3] = {hand[2 * i], hand[2 * i + 1], 0};
    v->tiles[i] = T(t);
    v->hand[tk_tile_kind(v->tiles[i])]++;
  }
  v->nhand = 14;
  for (int s = 0; s < 4; s++)
    for (int i = 0; i < 4; i++) v->seen[tk_tile_kind(v->river[s][i].tile)]++;
  v->seen[tk_tile_kind(v->dora[0])]++;
}

static void test_order(void) {
  tk_riichi_view v;
  hand_view(&v);
  rm_oppf_view pv;
  rm_oppf_view_init(&v, &pv);
  for (int s = 0; s < 4; s++)
    for (int i = 0; i < 4; i++) TK_EQ(pv.order[s][i], 4 * i + s, "no calls: turn order");
  /* seat 1's first discard (1m) pon'd by seat 3: the turn passes to seat 3, skipping seat 2 */
  tk_riichi_view c;
  memset(&c, 0, sizeof c);
  c.dealer = 0;
  c.nriver[0] = 2, c.nriver[1] = 2, c.nriver[2] = 1, c.nriver[3] = 2;
  c.river[1][0].tile = T("1m");
  c.river[1][0].flags = TK_RIICHI_CALLED;
  c.nmelds[3] = 1;
  c.melds[3][0] = (tk_riichi_meld){.type = TK_CALL_PON, .from = 1, .called = T("1m"),
                                   .added = TK_TILE_NONE,
                                   .tiles = {T("1m"), T("1m"), T("1m"), TK_TILE_NONE}};
  rm_oppf_view_init(&c, &pv);
  TK_EQ(pv.order[0][0], 0, "s0 d0");
  TK_EQ(pv.order[1][0], 1, "s1 d0 (called)");
  TK_EQ(pv.order[3][0], 2, "s3 d0 right after its pon");
  TK_EQ(pv.order[0][1], 3, "s0 d1");
  TK_EQ(pv.order[1][1], 4, "s1 d1");
  TK_EQ(pv.order[2][0], 5, "s2 d0");
  TK_EQ(pv.order[3][1], 6, "s3 d1");
  TK_EQ(pv.call_at[3], 1, "seat 3 called the discard at 1");
  TK_EQ(pv.call_at[2], -1, "seat 2 never called");
}

static int kind_of(const char *s) { return tk_tile_kind(T(s)); }

/* The wait features of kind `k` for seat 1 of hand_view. */
static void wait_of(const char *k, float x[RM_OPPF_NW]) {
  tk_riichi_view v;
  hand_view(&v);
  rm_oppf_view pv;
  rm_oppf_view_init(&v, &pv);
  rm_oppf_seat s;
  rm_oppf_seat_init(&v, &pv, 1, &s);
  rm_oppf_wait(&v, &pv, &s, kind_of(k), x);
}

#define FEQ(x, want, what)                                                                 \
  do {                                                                                     \
    if (fabs((double)(x) - (double)(want)) > 1e-6)                                         \
      TK_FAILF("%s: %s = %g, expected %g", (what), #x, (double)(x), (double)(want));        \
    else CU_PASS(what);                                                                    \
  } while (0)

static void test_seat_summary(void) {
  tk_riichi_view v;
  hand_view(&v);
  rm_oppf_view pv;
  rm_oppf_view_init(&v, &pv);
  rm_oppf_seat s;
  rm_oppf_seat_init(&v, &pv, 1, &s);
  uint64_t river = 1ULL << kind_of("4m") | 1ULL << kind_of("9p") | 1ULL << kind_of("1z") |
                   1ULL << kind_of("7s");
  CU_ASSERT_EQUAL(s.river, river);
  uint64_t passed = 1ULL << kind_of("5p") | 1ULL << kind_of("2s");
  CU_ASSERT_EQUAL(s.passed_riichi, passed);
  CU_ASSERT_EQUAL(s.passed_last, passed);
  TK_EQ(s.ref, kind_of("7s"), "the reference tile is the declaration tile");
  TK_EQ(pv.visible[kind_of("8p")], 4, "visible 8p");
  TK_EQ(pv.visible[kind_of("2s")], 4, "visible 2s: 3 held + seat 3's");
  TK_EQ(pv.visible[kind_of("1z")], 2, "visible E");
  CU_ASSERT_EQUAL(pv.dora, 1ULL << kind_of("6m"));
  /* riichi declared on E (place 9) instead: 7s (13) is seat 1's own tsumogiri, not passed */
  tk_riichi_view w = v;
  w.riichi_index[1] = 2;
  w.river[1][2].flags = TK_RIICHI_DECLARED;
  w.river[1][3].flags = TK_RIICHI_TSUMOGIRI;
  rm_oppf_seat_init(&w, &pv, 1, &s);
  CU_ASSERT_EQUAL(s.passed_riichi, 1ULL << kind_of("6s") | 1ULL << kind_of("1s") |
                                       1ULL << kind_of("8s") | passed);
  TK_EQ(s.ref, kind_of("1z"), "the declaration tile E");
  /* seat 2 (not in riichi) since seat 1's riichi, last discard at 10 (5p at 14 is its own) */
  rm_oppf_seat_init(&v, &pv, 2, &s);
  CU_ASSERT_EQUAL(s.passed_riichi, 0);
  CU_ASSERT_EQUAL(s.passed_last, 1ULL << kind_of("2s"));
  float x[RM_OPPF_NT];
  rm_oppf_tenpai(&v, &pv, &s, x);
  FEQ(x[5], 4.0 / 6, "tenpai: 4 discards");
  FEQ(x[22], 1, "tenpai: another seat in riichi");
  FEQ(x[16], 0, "tenpai: no terminal/honor among seat 2's first discards");
  rm_oppf_seat_init(&v, &pv, 3, &s);
  rm_oppf_tenpai(&v, &pv, &s, x);
  FEQ(x[16], 2.0 / 6, "tenpai: N and 1s among seat 3's first discards");
}

static void test_wait_features(void) {
  float x[RM_OPPF_NW];
  wait_of("1m", x); /* 4m in seat 1's river: 1m is suji */
  FEQ(x[10], 1, "1m full suji");
  FEQ(x[1], 1, "1m class 1/9");
  wait_of("7m", x); /* 4m covers 7m's only suji side */
  FEQ(x[10], 1, "7m full suji");
  FEQ(x[22], 0, "7m not dora");
  FEQ(x[23], 1, "7m within 2 of dora 6m");
  wait_of("5m", x); /* neither 2m nor 8m in seat 1's river (8m is seat 3's) */
  FEQ(x[10], 0, "5m not suji");
  FEQ(x[11], 0, "5m not half suji");
  FEQ(x[12], 1, "5m two live sides");
  wait_of("6m", x);
  FEQ(x[22], 1, "6m dora");
  wait_of("6p", x); /* 9p suji above, 8p x4 kabe above, 4p-5p below live */
  FEQ(x[10], 0, "6p not full suji");
  FEQ(x[11], 1, "6p half suji");
  FEQ(x[12], 0.5, "6p one live side");
  FEQ(x[13], 0, "6p not no-chance");
  FEQ(x[14], 1, "6p: 5p and 7p not walled, a closed wait possible");
  wait_of("7p", x); /* 8p x4: no closed wait 6p-8p, no two-sided wait from 8p-9p */
  FEQ(x[14], 0, "7p: no closed wait");
  FEQ(x[12], 0.5, "7p: only 5p-6p live");
  wait_of("1s", x); /* 2s x4 visible: 1s can wait only on 2s-3s: no chance */
  FEQ(x[13], 1, "1s no chance");
  FEQ(x[12], 0, "1s no live side");
  /* with one 2s fewer in the viewer's hand (3 visible), 2s-3s is possible again */
  tk_riichi_view v;
  hand_view(&v);
  v.hand[kind_of("2s")] = 2;
  rm_oppf_view pv;
  rm_oppf_view_init(&v, &pv);
  rm_oppf_seat st;
  rm_oppf_seat_init(&v, &pv, 1, &st);
  rm_oppf_wait(&v, &pv, &st, kind_of("1s"), x);
  FEQ(x[9], 0, "2s: 3 visible, 1s itself 1");
  FEQ(x[13], 0, "1s: 3 visible 2s is no wall");
  FEQ(x[12], 0.5, "1s: 2s-3s live");
  wait_of("5p", x);
  FEQ(x[15], 1, "5p passed after the riichi");
  FEQ(x[16], 1, "5p passed since the last discard");
  wait_of("3p", x);
  FEQ(x[15], 0, "3p discarded before the riichi");
  wait_of("4s", x);
  FEQ(x[17], 1, "4s suji of the declaration tile 7s");
  FEQ(x[18], 0, "4s not within 2 of 7s");
  wait_of("8s", x);
  FEQ(x[18], 1, "8s within 2 of 7s");
  wait_of("1z", x); /* E: the round wind, a value honor for every seat */
  FEQ(x[5], 1, "E value honor");
  FEQ(x[7], 0.5, "E: 2 visible");
  wait_of("2z", x);
  FEQ(x[5], 1, "S: seat 1's own wind");
  wait_of("3z", x);
  FEQ(x[6], 1, "W: another wind for seat 1");
  wait_of("8p", x);
  FEQ(x[9], 1, "8p: 4 visible");
}

static void test_rules(void) {
  tk_riichi_view v;
  hand_view(&v);
  rm_opp m;
  random_model(&m, 7, 1.0);
  for (int i = 0; i < RM_OPPF_NT; i++) m.tenpai[i] = -50; /* the model alone says: never */
  for (int i = 0; i < RM_OPPF_NW; i++) m.wait[0][i] = m.wait[1][i] = 0;
  m.wait[0][0] = m.wait[1][0] = 50; /* ... and every kind a wait */
  rm_opp_prepare(&m);
  rm_opp_threat t[4];
  memset(t, 0x55, sizeof t);
  rm_opp_assess(&m, &v, t);
  FEQ(t[1].tenpai, 1, "seat 1 in riichi is tenpai by rule");
  CU_ASSERT(t[2].tenpai < 1e-9);
  for (int o = 1; o < 4; o++)
    for (int k = 0; k < TK_KINDS; k++) {
      int own = 0;
      for (int i = 0; i < v.nriver[o]; i++) own |= tk_tile_kind(v.river[o][i].tile) == k;
      if (own && t[o].wait[k] != 0) TK_FAILF("seat %d kind %d in its river: wait %g", o, k, t[o].wait[k]);
      if (!own && !(t[o].wait[k] > 0.99)) TK_FAILF("seat %d kind %d: wait %g", o, k, t[o].wait[k]);
    }
  FEQ(t[0].tenpai, 0, "the viewer's entry is zeroed");
  FEQ(t[0].loss, 0, "the viewer's loss is zeroed");
  FEQ(t[0].wait[5], 0, "the viewer's waits are zeroed");
  CU_ASSERT(t[1].loss > 0 && isfinite(t[1].loss));
}

static void test_dealin(void) {
  rm_opp_threat t[4];
  memset(t, 0, sizeof t);
  t[0].tenpai = 1, t[0].wait[3] = 1; /* the viewer's own entry must be ignored */
  t[1].tenpai = 0.5, t[1].wait[3] = 0.4;
  t[2].tenpai = 0.5, t[2].wait[3] = 0.2;
  t[3].tenpai = 0.9, t[3].wait[4] = 0.9;
  double per[4];
  double p = rm_opp_dealin(t, 0, 3, per);
  FEQ(per[0], 0, "viewer");
  FEQ(per[1], 0.2, "seat 1: 0.5 x 0.4");
  FEQ(per[2], 0.1, "seat 2: 0.5 x 0.2");
  FEQ(per[3], 0, "seat 3 does not wait on kind 3");
  FEQ(p, 1 - 0.8 * 0.9, "independent seats");
  FEQ(rm_opp_dealin(t, 1, 3, NULL), 1 - 0 * 0.9, "viewer 1: seat 0 certain");
}

static void write_weights(const char *path, const char *model, uint32_t version, uint32_t n,
                          double smear) {
  double *v = calloc(n, sizeof *v);
  CU_ASSERT_FATAL(v != NULL);
  if (n > RM_OPP_OFF_SMEAR) v[RM_OPP_OFF_SMEAR] = smear;
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", model);
  w.feature_version = version, w.ndims = 1, w.shape[0] = n, w.count = n, w.values = v;
  tk_error err;
  CU_ASSERT_FATAL(tk_weights_save(path, &w, &err) == 0);
  free(v);
}

static void expect_refused(const char *path, const char *field) {
  rm_opp *m = (rm_opp *)1;
  tk_error err;
  tk_error_clear(&err);
  int rc = rm_opp_load(path, &m, &err);
  if (rc == 0) TK_FAILF("%s: loaded, expected a refusal naming %s", path, field);
  CU_ASSERT(m == NULL);
  if (!strstr(err.msg, path) || !strstr(err.msg, field))
    TK_FAILF("the message '%s' should name the file %s and the field %s", err.msg, path, field);
}

static void test_file(void) {
  char path[512];
  path_of(path, sizeof path, "round.tkw");
  rm_opp a;
  random_model(&a, 11, 3.0);
  tk_error err;
  CU_ASSERT_FATAL(rm_opp_save(&a, path, &err) == 0);
  rm_opp *b = NULL;
  CU_ASSERT_FATAL(rm_opp_load(path, &b, &err) == 0);
  CU_ASSERT(memcmp(&a, b, sizeof a) == 0);
  tk_riichi_view v;
  hand_view(&v);
  rm_opp_threat ta[4], tb[4];
  rm_opp_assess(&a, &v, ta);
  rm_opp_assess(b, &v, tb);
  CU_ASSERT(memcmp(ta, tb, sizeof ta) == 0);
  rm_opp_free(b);
  rm_opp_free(NULL);
  path_of(path, sizeof path, "name.tkw");
  write_weights(path, "riichi_efr", RM_OPPF_VERSION, RM_OPP_NVALUES, 1);
  expect_refused(path, "'model'");
  path_of(path, sizeof path, "version.tkw");
  write_weights(path, RM_OPP_MODEL, RM_OPPF_VERSION + 1, RM_OPP_NVALUES, 1);
  expect_refused(path, "'feature_version'");
  path_of(path, sizeof path, "shape.tkw");
  write_weights(path, RM_OPP_MODEL, RM_OPPF_VERSION, RM_OPP_NVALUES - 1, 1);
  expect_refused(path, "'shape[0]'");
  path_of(path, sizeof path, "smear.tkw");
  write_weights(path, RM_OPP_MODEL, RM_OPPF_VERSION, RM_OPP_NVALUES, 0);
  char field[64];
  snprintf(field, sizeof field, "'values[%d]'", RM_OPP_OFF_SMEAR);
  expect_refused(path, field);
  /* one byte flipped: the checksum */
  path_of(path, sizeof path, "flip.tkw");
  CU_ASSERT_FATAL(rm_opp_save(&a, path, &err) == 0);
  FILE *f = fopen(path, "r+b");
  CU_ASSERT_FATAL(f != NULL);
  fseek(f, 100, SEEK_SET);
  int c = fgetc(f);
  fseek(f, 100, SEEK_SET);
  fputc(c ^ 1, f);
  fclose(f);
  expect_refused(path, "'crc32'");
}

/* Random legal play of whole games: at every discard decision, every probability is in
 * [0, 1], a seat in riichi is tenpai (1), its river's kinds have wait 0, the loss is finite. */
static void test_games(void) {
  rm_opp m;
  random_model(&m, 3, 2.0);
  tk_rng r;
  tk_rng_seed(&r, 5);
  long views = 0, riichi = 0;
  for (int game = 0; game < 6; game++) {
    tk_riichi_game g;
    tk_error err;
    CU_ASSERT_FATAL(tk_riichi_init(&g, NULL, 99, (uint64_t)game, NULL, &err) == 0);
    while (!tk_riichi_is_over(&g)) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        CU_ASSERT_FATAL(tk_riichi_deal(&g, NULL, NULL, &err) == 0);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_SELF) {
        tk_riichi_view v;
        tk_riichi_view_of(&g, s, &v);
        rm_opp_threat t[4];
        rm_opp_assess(&m, &v, t);
        views++;
        for (int o = 0; o < 4; o++) {
          if (o == s) continue;
          if (!(t[o].tenpai >= 0 && t[o].tenpai <= 1)) TK_FAILF("tenpai %g", t[o].tenpai);
          if (v.riichi[o]) riichi++;
          if (v.riichi[o] && t[o].tenpai != 1) TK_FAILF("riichi seat %d: tenpai %g", o, t[o].tenpai);
          if (!(t[o].loss > 0 && isfinite(t[o].loss))) TK_FAILF("loss %g", t[o].loss);
          for (int k = 0; k < TK_KINDS; k++) {
            if (!(t[o].wait[k] >= 0 && t[o].wait[k] <= 1)) TK_FAILF("wait %g", t[o].wait[k]);
            if ((g.p[o].discarded >> k & 1) && t[o].wait[k] != 0)
              TK_FAILF("seat %d kind %d in its river: wait %g", o, k, t[o].wait[k]);
          }
        }
      }
      /* prefer riichi when legal, so that riichi seats occur */
      int pick = (int)tk_rng_below(&r, l.n);
      for (int i = 0; i < l.n; i++)
        if (l.a[i].type == TK_RIICHI_RIICHI) pick = i;
      CU_ASSERT_FATAL(tk_riichi_apply(&g, s, &l.a[pick], NULL, &err) == 0);
    }
  }
  CU_ASSERT(views > 1000);
  if (riichi == 0) TK_FAILF("no view with a seat in riichi in %ld views", views);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"discard order", test_order},
      {"seat summary and tenpai features", test_seat_summary},
      {"wait features (suji, kabe, passed, reference, dora, classes)", test_wait_features},
      {"riichi = tenpai, own river = no wait, viewer zeroed", test_rules},
      {"rm_opp_dealin", test_dealin},
      {"model file: round trip and refusals", test_file},
      {"whole games: ranges and rules", test_games},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_opp", tests);
}
