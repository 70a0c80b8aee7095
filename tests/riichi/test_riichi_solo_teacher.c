/* tests/riichi/test_riichi_solo_teacher.c — the one-player policy's teacher (plugins/
 * riichi_solo_teacher): hand-checked positions and an end-to-end run.
 * - a tenpai hand's one discard that keeps tenpai is taken (any other breaks it);
 * - a 1-shanten hand with a partial too many (a ryanmen and two kanchans) throws from a
 *   kanchan and keeps the ryanmen, and its choice is the search's own best;
 * - riichi is declared when legal, a tsumo taken;
 * - a pon of a yakuhai pair that makes the hand tenpai is called; a chi that leaves the hand
 *   with no way to a yaku is not, though it would lower the shanten;
 * - bad parameters are refused with the field and the value;
 * - `taikai run` of four teachers, seated, with records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/riichi.h"
#include "taikai/solve.h"
#include "unit.h"

const tk_agent_descriptor *taikai_agent_entry_riichi_solo_teacher(void);

static const tk_agent_descriptor *D;
static tk_agent_instance *A;

/* A view of seat 0 (East, dealer, East round) holding `tiles`, `left` live tiles to draw. */
static void view_of(tk_riichi_view *v, const char *tiles, int phase, int left) {
  memset(v, 0, sizeof *v);
  tk_tile t[14];
  tk_error e;
  tk_error_clear(&e);
  int n = tk_tiles_parse(tiles, t, 14, &e);
  CU_ASSERT_FATAL(n > 0);
  v->seat = 0;
  v->phase = (uint8_t)phase;
  v->tiles_left = (uint8_t)left;
  v->nhand = (uint8_t)n;
  v->drawn = TK_TILE_NONE;
  v->last_tile = TK_TILE_NONE;
  for (int i = 0; i < n; i++) {
    v->tiles[i] = t[i];
    v->hand[tk_tile_kind(t[i])]++;
  }
  for (int s = 0; s < 4; s++) v->pao[s] = 0xff;
  v->no_calls = 1;
  for (int s = 0; s < 4; s++) v->scores[s] = 25000;
}

/* The legal list of an own turn: one DISCARD per tile of the hand (and RIICHI for each when
 * `riichi`, TSUMO when `tsumo`). */
static void self_legal(const tk_riichi_view *v, tk_riichi_legal *l, int riichi, int tsumo) {
  memset(l, 0, sizeof *l);
  for (int i = 0; i < v->nhand; i++) {
    if (i && v->tiles[i] == v->tiles[i - 1]) continue;
    l->a[l->n].type = TK_RIICHI_DISCARD;
    l->a[l->n++].tile = v->tiles[i];
    if (riichi) {
      l->a[l->n].type = TK_RIICHI_RIICHI;
      l->a[l->n++].tile = v->tiles[i];
    }
  }
  if (tsumo) {
    l->a[l->n].type = TK_RIICHI_TSUMO;
    l->a[l->n++].tile = v->tiles[v->nhand - 1];
  }
}

static tk_riichi_action play(const tk_riichi_view *v, const tk_riichi_legal *l) {
  tk_riichi_action a;
  memset(&a, 0xee, sizeof a);
  TK_EQ(D->act(A, v, l, &a), 0, "act");
  return a;
}

static uint8_t T(const char *s) { return (uint8_t)tk_tile_parse1(s, NULL); }

static void test_tenpai_discard(void) {
  /* 123m 456p 789s 55s 34m + 1p: only 1p keeps tenpai (waits 2m 5m) */
  tk_riichi_view v;
  tk_riichi_legal l;
  view_of(&v, "12334m456p1p55789s", TK_RIICHI_PHASE_SELF, 40);
  self_legal(&v, &l, 0, 0);
  tk_riichi_action a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_DISCARD, "type");
  TK_EQ(a.tile, T("1p"), "the discard keeping tenpai");
  /* the same with riichi legal: riichi with that discard */
  self_legal(&v, &l, 1, 0);
  a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_RIICHI, "riichi declared");
  TK_EQ(a.tile, T("1p"), "riichi's discard");
  /* a tsumo is taken */
  view_of(&v, "123m456p789s55s345m", TK_RIICHI_PHASE_SELF, 40);
  self_legal(&v, &l, 0, 1);
  a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_TSUMO, "tsumo");
}

static void test_one_shanten(void) {
  /* 123m 456m 77p 13p 34s 57s: 1-shanten with three partials for two places; the ryanmen 34s
   * (8 tiles: 2s 5s) beats either kanchan (4 tiles), so the discard is from 13p or 57s */
  tk_riichi_view v;
  tk_riichi_legal l;
  view_of(&v, "123456m1377p3457s", TK_RIICHI_PHASE_SELF, 40);
  self_legal(&v, &l, 0, 0);
  tk_riichi_action a = play(&v, &l);
  int k = tk_tile_kind(a.tile);
  TK_EQ(a.type, TK_RIICHI_DISCARD, "type");
  if (k != tk_tile_kind(T("1p")) && k != tk_tile_kind(T("3p")) && k != tk_tile_kind(T("5s")) &&
      k != tk_tile_kind(T("7s")))
    TK_FAILF("discarded %s: expected one of 1p 3p 5s 7s (keeping the ryanmen 34s)",
             tk_tile_str(a.tile));
  /* and it is the search's best at 10 draws (40 tiles / 4), exact */
  tk_solver *s = tk_solver_new();
  tk_solve_opts o = {.draws = 10, .objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE};
  tk_solve_result r;
  CU_ASSERT_EQUAL_FATAL(tk_solve(s, v.hand, v.seen, &o, &r, NULL), 0);
  TK_EQ(k, r.c[r.best].discard, "the search's best discard");
  tk_solver_free(s);
}

static void test_calls(void) {
  /* 123m 456p 78s 11s 77z 9m, Chun discarded by seat 3: pon makes the hand tenpai (6s 9s after
   * throwing 9m) with a yaku (chun); passing stays 1-shanten */
  tk_riichi_view v;
  tk_riichi_legal l;
  view_of(&v, "1239m456p1178s77z", TK_RIICHI_PHASE_REACT, 40);
  v.actor = 3;
  v.last_tile = T("7z");
  memset(&l, 0, sizeof l);
  l.a[0].type = TK_RIICHI_PON;
  l.a[0].tile = T("7z");
  l.a[0].consumed[0] = l.a[0].consumed[1] = T("7z");
  l.a[1].type = TK_RIICHI_PASS;
  l.n = 2;
  tk_riichi_action a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_PON, "pon of the yakuhai pair");
  /* 123m 456p 89s 19m 123z + 7s from seat 3: chi 789s would lower the shanten but leaves no way
   * to a yaku (terminals, honors and all three suits, no yakuhai triplet): pass */
  view_of(&v, "1239m456p89s123z", TK_RIICHI_PHASE_REACT, 40);
  v.actor = 3;
  v.last_tile = T("7s");
  memset(&l, 0, sizeof l);
  l.a[0].type = TK_RIICHI_CHI;
  l.a[0].tile = T("7s");
  l.a[0].consumed[0] = T("8s");
  l.a[0].consumed[1] = T("9s");
  l.a[1].type = TK_RIICHI_PASS;
  l.n = 2;
  a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_PASS, "no chi without a yaku");
  /* a chi on an all-simples hand (tanyao possible) that makes it tenpai is taken:
   * 234m 6m 456p 88p 24s 67s + 3s: chi 234s, throw 6m, tenpai on 5s 8s; passing stays
   * 1-shanten */
  view_of(&v, "2346m45688p2467s", TK_RIICHI_PHASE_REACT, 40);
  v.actor = 3;
  v.last_tile = T("3s");
  memset(&l, 0, sizeof l);
  l.a[0].type = TK_RIICHI_CHI;
  l.a[0].tile = T("3s");
  l.a[0].consumed[0] = T("2s");
  l.a[0].consumed[1] = T("4s");
  l.a[1].type = TK_RIICHI_PASS;
  l.n = 2;
  a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_CHI, "chi to a tanyao tenpai");
}

/* 19m 234p 456p 789s 111z, East seat and round, one copy of 1m and of 9m seen elsewhere (the 9m
 * as the dora indicator, so 1m is dora): discarding 1m or 9m leaves mirror-image tanki waits, each
 * on 2 unseen copies, so their win probabilities are equal and the win objective breaks the tie
 * to the lower kind (1m). The points objective keeps the dora: the 1m tanki wins with the dora
 * pair, riichi, tsumo and double East, 6 han (haneman, 18,000 to the dealer), against 4 han
 * 40 fu (mangan, 12,000) on 9m. */
static void test_points(void) {
  tk_error e;
  tk_error_clear(&e);
  tk_agent_instance *P = D->create("{\"objective\": \"points\"}", 1, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(P);
  tk_riichi_view v;
  tk_riichi_legal l;
  view_of(&v, "19m234p456p789s111z", TK_RIICHI_PHASE_SELF, 8);
  v.ndora = 1;
  v.dora[0] = T("9m");
  v.seen[tk_tile_kind(T("9m"))] = 1;
  v.seen[tk_tile_kind(T("1m"))] = 1;
  self_legal(&v, &l, 1, 0);
  tk_riichi_action a = play(&v, &l);
  TK_EQ(a.type, TK_RIICHI_RIICHI, "win objective: riichi");
  TK_EQ(a.tile, T("1m"), "win objective: the tie to the lower kind");
  memset(&a, 0xee, sizeof a);
  TK_EQ(D->act(P, &v, &l, &a), 0, "act");
  TK_EQ(a.type, TK_RIICHI_RIICHI, "points objective: riichi");
  TK_EQ(a.tile, T("9m"), "points objective: the dora tanki kept");
  /* Without the dora, the points objective has the same tie (both tanki pay 12,000) */
  v.dora[0] = T("5p");
  v.seen[tk_tile_kind(T("9m"))] = 1;
  memset(&a, 0xee, sizeof a);
  TK_EQ(D->act(P, &v, &l, &a), 0, "act");
  TK_EQ(a.tile, T("1m"), "points objective, no dora on either: the tie to the lower kind");
  D->destroy(P);
}

static void test_params(void) {
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_PTR_NULL(D->create("{\"max_states\": 0}", 1, &e));
  if (!strstr(e.msg, "max_states") || !strstr(e.msg, "= 0")) TK_FAILF("%s", e.msg);
  tk_error_clear(&e);
  CU_ASSERT_PTR_NULL(D->create("{\"greedy_form\": 2}", 1, &e));
  if (!strstr(e.msg, "unknown field \"greedy_form\" = 2")) TK_FAILF("%s", e.msg);
  tk_error_clear(&e);
  CU_ASSERT_PTR_NULL(D->create("{\"direct_from\": \"2\"}", 1, &e));
  if (!strstr(e.msg, "direct_from") || !strstr(e.msg, "\"2\"")) TK_FAILF("%s", e.msg);
  tk_error_clear(&e);
  CU_ASSERT_PTR_NULL(D->create("{\"objective\": \"point\"}", 1, &e));
  if (!strstr(e.msg, "\"objective\" = \"point\"") || !strstr(e.msg, "\"points\""))
    TK_FAILF("%s", e.msg);
}

static void test_run(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "rm -rf '%s' && mkdir -p '%s' && printf '%%s' '{\"game\": \"riichi\", \"seed\": 9, "
           "\"walls\": 2, \"format\": \"seated\", \"agents\": [{\"plugin\": \"riichi_solo_teacher\", "
           "\"label\": \"t0\"}, {\"plugin\": \"riichi_solo_teacher\", \"label\": \"t1\"}, "
           "{\"plugin\": \"riichi_greedy\", \"label\": \"g\"}, {\"plugin\": \"riichi_solo_teacher\", "
           "\"label\": \"t3\"}], \"rules\": {\"length\": \"east\"}}' > '%s/spec.json' && "
           "TAIKAI_PLUGIN_PATH='%s' '%s' run '%s/spec.json' --out '%s/run' --records -j 2 --quiet "
           "> '%s/out.txt' 2>&1 && '%s' records '%s/run/records.tkr' > '%s/records.txt' 2>&1",
           TK_WORK_DIR, TK_WORK_DIR, TK_WORK_DIR, TK_PLUGIN_DIR, TK_TAIKAI_BIN, TK_WORK_DIR,
           TK_WORK_DIR, TK_WORK_DIR, TK_TAIKAI_BIN, TK_WORK_DIR, TK_WORK_DIR);
  int rc = system(cmd);
  TK_EQ(rc, 0, "taikai run of the teacher, then taikai records");
  char path[1024], buf[8192] = {0};
  snprintf(path, sizeof path, "%s/records.txt", TK_WORK_DIR);
  FILE *f = fopen(path, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  if (!strstr(buf, "units 2,") || !strstr(buf, "t0") || !strstr(buf, "t3"))
    TK_FAILF("records: %s", buf);
  snprintf(path, sizeof path, "%s/run/games.jsonl", TK_WORK_DIR);
  f = fopen(path, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  if (strstr(buf, "\"kind\"")) TK_FAILF("a fault in the run: %s", buf);
}

int main(void) {
  D = taikai_agent_entry_riichi_solo_teacher();
  tk_error e;
  tk_error_clear(&e);
  A = D->create(D->params_json, 1, &e);
  if (!A) {
    fprintf(stderr, "create: %s\n", e.msg);
    return 1;
  }
  CU_TestInfo tests[] = {
      {"tenpai_discard", test_tenpai_discard},
      {"one_shanten", test_one_shanten},
      {"calls", test_calls},
      {"points objective", test_points},
      {"params", test_params},
      {"run", test_run},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("riichi_solo_teacher", tests);
  D->destroy(A);
  return rc;
}
