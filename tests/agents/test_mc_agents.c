/* tests/agents/test_mc_agents.c — the mc, komatsu and alpha agents (plugins linked in with
 * TAIKAI_AGENT_STATIC): alpha = 1 makes exactly komatsu's decisions; the same seed gives the
 * same decisions whether an instance is fresh or reused (begin_game re-seeds); mc and komatsu
 * find the obvious discard of a hand-made position; bad parameters are refused. */
#include <stdio.h>
#include <string.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "taikai/solo.h"
#include "unit.h"

const tk_agent_descriptor *taikai_agent_entry_mc(void);
const tk_agent_descriptor *taikai_agent_entry_komatsu(void);
const tk_agent_descriptor *taikai_agent_entry_alpha(void);

static tk_agent_instance *make(const tk_agent_descriptor *d, const char *params, uint64_t seed) {
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *a = d->create(params, seed, &err);
  if (!a) TK_FAILF("create %s %s: %s", d->name, params, err.msg);
  return a;
}

/* Plays wall `w` of seed `seed` to the end; writes the discards (kinds) and returns their
 * number, or -1 on an agent error. */
static int play(const tk_agent_descriptor *d, tk_agent_instance *a, uint64_t seed, uint64_t w,
                uint8_t *discards, tk_solo_result *res) {
  uint8_t wall[TK_SOLO_WALL_TILES];
  tk_solo_wall(seed, w, wall);
  tk_solo_game g;
  tk_solo_init(&g, wall, NULL, NULL);
  tk_solo_info info;
  memset(&info, 0, sizeof info);
  info.head.seed = tk_mix64(seed * 1000003u + w);
  info.head.wall = w;
  info.draws = g.draws;
  info.dora_indicator = g.dora_indicator;
  if (d->begin_game(a, &info)) return -1;
  int n = 0;
  while (!tk_solo_is_over(&g)) {
    tk_solo_view v;
    tk_solo_legal l;
    tk_solo_view_of(&g, &v);
    tk_solo_legal_of(&g, &l);
    tk_solo_action act = {TK_TILE_NONE};
    if (d->act(a, &v, &l, &act) || !(l.mask >> act.discard & 1)) return -1;
    discards[n++] = act.discard;
    tk_solo_discard_fast(&g, act.discard);
  }
  tk_solo_result_of(&g, res);
  if (d->end_game) d->end_game(a, res);
  return n;
}

/* alpha = 1 and komatsu: the same discards on every wall (both seeded alike). */
static void test_alpha1_is_komatsu(void) {
  const tk_agent_descriptor *K = taikai_agent_entry_komatsu(), *A = taikai_agent_entry_alpha();
  tk_agent_instance *k = make(K, "{\"playouts\": 300}", 1);
  tk_agent_instance *a = make(A, "{\"alpha\": 1.0, \"playouts\": 300}", 1);
  int games = 0, decisions = 0, wins = 0, diffs = 0;
  for (uint64_t w = 0; w < 40 && k && a; w++) {
    uint8_t dk[TK_SOLO_MAX_DRAWS], da[TK_SOLO_MAX_DRAWS];
    tk_solo_result rk, ra;
    int nk = play(K, k, 77, w, dk, &rk), na = play(A, a, 77, w, da, &ra);
    if (nk < 0 || na < 0 || nk != na || memcmp(dk, da, (size_t)nk) || rk.points != ra.points) {
      if (diffs++ < 3) TK_FAILF("wall %llu: komatsu and alpha=1 differ", (unsigned long long)w);
      continue;
    }
    games++, decisions += nk, wins += rk.won;
  }
  printf("\n    %d games, %d decisions, %d wins: identical\n", games, decisions, wins);
  CU_ASSERT_EQUAL(diffs, 0);
  K->destroy(k);
  A->destroy(a);
}

/* alpha < 1 does play differently somewhere (the parameter is used). */
static void test_alpha_matters(void) {
  const tk_agent_descriptor *A = taikai_agent_entry_alpha();
  tk_agent_instance *a1 = make(A, "{\"alpha\": 1, \"playouts\": 200}", 1);
  tk_agent_instance *a0 = make(A, "{\"alpha\": 0.0, \"playouts\": 200}", 1);
  int differ = 0;
  for (uint64_t w = 0; w < 10 && a1 && a0; w++) {
    uint8_t d1[TK_SOLO_MAX_DRAWS], d0[TK_SOLO_MAX_DRAWS];
    tk_solo_result r1, r0;
    int n1 = play(A, a1, 5, w, d1, &r1), n0 = play(A, a0, 5, w, d0, &r0);
    differ += n1 != n0 || memcmp(d1, d0, (size_t)(n1 < n0 ? n1 : n0));
  }
  CU_ASSERT(differ > 0);
  A->destroy(a1);
  A->destroy(a0);
}

/* Same seed, same decisions: a fresh instance, and one that played other games first. */
static void check_replay(const tk_agent_descriptor *d, const char *params) {
  tk_agent_instance *fresh = make(d, params, 3), *used = make(d, params, 99);
  if (!fresh || !used) return;
  uint8_t x[TK_SOLO_MAX_DRAWS], y[TK_SOLO_MAX_DRAWS];
  tk_solo_result rx, ry;
  for (uint64_t w = 10; w < 13; w++) play(d, used, 8, w, y, &ry); /* other games first */
  int bad = 0;
  for (uint64_t w = 0; w < 6; w++) {
    tk_agent_instance *f = make(d, params, 3 + w);
    int nx = play(d, f, 8, w, x, &rx), ny = play(d, used, 8, w, y, &ry);
    if (nx < 0 || nx != ny || memcmp(x, y, (size_t)nx) || rx.points != ry.points) bad++;
    d->destroy(f);
  }
  if (bad) TK_FAILF("%s %s: %d of 6 games replayed differently", d->name, params, bad);
  CU_ASSERT_EQUAL(bad, 0);
  d->destroy(fresh);
  d->destroy(used);
}

static void test_determinism(void) {
  check_replay(taikai_agent_entry_mc(), "{\"playouts\": 30}");
  check_replay(taikai_agent_entry_mc(), "{\"playouts\": 30, \"tie_break\": \"random\"}");
  check_replay(taikai_agent_entry_komatsu(), "{\"playouts\": 100}");
  check_replay(taikai_agent_entry_alpha(), "{\"alpha\": 0.4, \"playouts\": 100}");
  check_replay(taikai_agent_entry_alpha(), "{\"playouts\": 100, \"tie_break\": \"random\"}");
  check_replay(taikai_agent_entry_mc(), "{\"playouts\": 30, \"sample_from\": \"not_held\"}");
  check_replay(taikai_agent_entry_alpha(), "{\"playouts\": 100, \"sample_from\": \"not_held\"}");
  check_replay(taikai_agent_entry_komatsu(), "{\"playouts\": 100, \"extra_draws\": 1}");
}

/* A view of the 14 tiles `tiles` at turn `turn` (no discards known beyond their number: the
 * unseen counts are 4 - held - the indicator). */
static void make_view(const char *tiles, int turn, int indicator, tk_solo_view *v,
                      tk_solo_legal *l) {
  memset(v, 0, sizeof *v);
  tk_tile t[14];
  int n = tk_tiles_parse(tiles, t, 14, NULL);
  CU_ASSERT_EQUAL(n, 14);
  for (int i = 0; i < n; i++) v->hand[t[i]]++;
  for (int k = 0; k < TK_KINDS; k++) v->unseen[k] = (uint8_t)(4 - v->hand[k] - (k == indicator));
  v->turn = (uint8_t)turn;
  v->ndiscards = (uint8_t)(turn - 1);
  v->draws = TK_SOLO_MAX_DRAWS;
  v->drawn = t[13];
  v->dora_indicator = (uint8_t)indicator;
  memset(l, 0, sizeof *l);
  for (int k = 0; k < TK_KINDS; k++)
    if (v->hand[k]) l->mask |= 1ull << k, l->kinds[l->n++] = (uint8_t)k;
}

static int choose(const tk_agent_descriptor *d, const char *params, const tk_solo_view *v,
                  const tk_solo_legal *l) {
  tk_agent_instance *a = make(d, params, 5);
  if (!a) return -1;
  tk_solo_info info = {.head.seed = 42, .draws = v->draws, .dora_indicator = v->dora_indicator};
  d->begin_game(a, &info);
  tk_solo_action act = {TK_TILE_NONE};
  int rc = d->act(a, v, l, &act);
  d->destroy(a);
  return rc ? -1 : act.discard;
}

/* 123m 456m 789m 11p 23p + Chun: discarding Chun is the only tenpai (1p-4p, ittsu, pinfu);
 * every other discard breaks a finished shape. */
static void test_obvious_discard(void) {
  tk_solo_view v;
  tk_solo_legal l;
  make_view("123456789m1123p7z", 12, TK_SOUTH, &v, &l);
  TK_EQ(choose(taikai_agent_entry_mc(), "{\"playouts\": 1000}", &v, &l), TK_CHUN, "mc");
  TK_EQ(choose(taikai_agent_entry_komatsu(), "{\"playouts\": 300}", &v, &l), TK_CHUN, "komatsu");
  TK_EQ(choose(taikai_agent_entry_alpha(), "{\"playouts\": 300, \"alpha\": 0.5}", &v, &l), TK_CHUN,
        "alpha");
  /* 1 draw left: only the tenpai discard can still win */
  make_view("123456789m1123p7z", 17, TK_SOUTH, &v, &l);
  TK_EQ(choose(taikai_agent_entry_mc(), "{\"playouts\": 500}", &v, &l), TK_CHUN, "mc, last draw");
}

/* 234m 567m 55p 678s 11s + 9s with one draw left: only discarding 9s keeps tenpai (5p or 1s),
 * so only 9s can be rewarded. */
static void test_komatsu_last_draw(void) {
  tk_solo_view v;
  tk_solo_legal l;
  make_view("234567m55p678s119s", 17, TK_SOUTH, &v, &l);
  TK_EQ(choose(taikai_agent_entry_komatsu(), "{\"playouts\": 200}", &v, &l), TK_1S + 8, "komatsu");
}

/* 123456789m 11p 5s 7s 9s at the last draw, dora indicator 5s (dora 6s), and all four 6s
 * already discarded: keeping 57s waits on 6s (ittsu tsumo + dora, 11,600) but no 6s is left;
 * keeping 79s waits on 8s (5,800). Sampling the unseen tiles, only 8s can come: discard 5s.
 * Sampling every tile not held (the discards forgotten), 6s looks as likely as 8s and pays
 * double: discard 9s. */
static void test_sample_from(void) {
  tk_solo_view v;
  tk_solo_legal l;
  make_view("123456789m11p579s", 17, TK_1S + 4, &v, &l);
  v.unseen[TK_1S + 5] = 0; /* four 6s discarded (and 4 other discards) */
  for (int i = 0; i < 4; i++) v.discards[i] = TK_1S + 5;
  const tk_agent_descriptor *D[3] = {taikai_agent_entry_mc(), taikai_agent_entry_komatsu(),
                                     taikai_agent_entry_alpha()};
  for (int i = 0; i < 3; i++) {
    const char *p1 = i == 2 ? "{\"playouts\": 2000, \"alpha\": 1}" : "{\"playouts\": 2000}";
    const char *p2 = i == 2 ? "{\"playouts\": 2000, \"alpha\": 1, \"sample_from\": \"not_held\"}"
                            : "{\"playouts\": 2000, \"sample_from\": \"not_held\"}";
    TK_EQ(choose(D[i], p1, &v, &l), TK_1S + 4, D[i]->name);
    TK_EQ(choose(D[i], p2, &v, &l), TK_1S + 8, D[i]->name);
  }
}

/* The last discard (turn 18: no draw left) of 234m 567m 55p 678s 11s + 9s: the game ends after
 * it, so by default no playout runs, every value is 0 and the tie-break discards the lowest kind
 * (2m). With "extra_draws": 1 each playout imagines one draw, as at turn 17, and only discarding
 * 9s keeps a hand that one tile completes. */
static void test_extra_draws(void) {
  tk_solo_view v;
  tk_solo_legal l;
  make_view("234567m55p678s119s", 18, TK_SOUTH, &v, &l);
  const tk_agent_descriptor *D[3] = {taikai_agent_entry_mc(), taikai_agent_entry_komatsu(),
                                     taikai_agent_entry_alpha()};
  for (int i = 0; i < 3; i++) {
    TK_EQ(choose(D[i], "{\"playouts\": 300}", &v, &l), TK_1M + 1, D[i]->name);
    TK_EQ(choose(D[i], "{\"playouts\": 300, \"extra_draws\": 1}", &v, &l), TK_1S + 8,
          D[i]->name);
  }
}

static void test_bad_params(void) {
  static const struct {
    int agent; /* 0 mc, 1 komatsu, 2 alpha */
    const char *params;
  } BAD[] = {
      {0, "{\"playouts\": 0}"},       {0, "{\"playouts\": 1.5}"},  {0, "{\"alpha\": 0.5}"},
      {1, "{\"alpha\": 1}"},          {1, "{\"tie_break\": 3}"},   {2, "{\"alpha\": 1.5}"},
      {2, "{\"alpha\": -0.1}"},       {2, "{\"alpha\": 0.1234}"},  {2, "{\"alpha\": \"x\"}"},
      {2, "{\"tie_break\": \"last\"}"}, {2, "[1]"},                {2, "{"},
      {2, "{\"prefer_points\": 1}"}, {1, "{\"prefer_points\": true}"}, {0, "{\"prefer_points\": true}"},
      {0, "{\"sample_from\": \"wall\"}"}, {1, "{\"sample_from\": 1}"}, {2, "{\"sample_from\": null}"},
      {0, "{\"extra_draws\": -1}"}, {1, "{\"extra_draws\": 5}"}, {2, "{\"extra_draws\": 1.5}"},
      {2, "{\"extra_draws\": \"1\"}"},
  };
  const tk_agent_descriptor *D[3] = {taikai_agent_entry_mc(), taikai_agent_entry_komatsu(),
                                     taikai_agent_entry_alpha()};
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    tk_error err;
    tk_error_clear(&err);
    tk_agent_instance *a = D[BAD[i].agent]->create(BAD[i].params, 1, &err);
    if (a) {
      TK_FAILF("%s accepted %s", D[BAD[i].agent]->name, BAD[i].params);
      D[BAD[i].agent]->destroy(a);
    } else if (!err.msg[0] || !strstr(err.msg, D[BAD[i].agent]->name)) {
      TK_FAILF("%s %s: message '%s' does not name the agent", D[BAD[i].agent]->name,
               BAD[i].params, err.msg);
    }
  }
  /* a refused value is quoted back */
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *bad = D[1]->create("{\"extra_draws\": 5}", 1, &err);
  CU_ASSERT_PTR_NULL(bad);
  if (!strstr(err.msg, "extra_draws must be an integer from 0 to 4, got 5"))
    TK_FAILF("komatsu extra_draws 5: message '%s'", err.msg);
  /* and the defaults, declared in params_json, are accepted as they are */
  for (int i = 0; i < 3; i++) {
    tk_agent_instance *a = make(D[i], D[i]->params_json, 1);
    CU_ASSERT_PTR_NOT_NULL(a);
    if (a) D[i]->destroy(a);
  }
  tk_agent_instance *a = make(D[2], "{\"alpha\": 0.7}", 1); /* 0.7 * 1000 is not exact in binary */
  CU_ASSERT_PTR_NOT_NULL(a);
  if (a) D[2]->destroy(a);
}

int main(void) {
  tk_shanten_init();
  CU_TestInfo tests[] = {
      {"alpha = 1 plays exactly as komatsu", test_alpha1_is_komatsu},
      {"alpha < 1 plays differently", test_alpha_matters},
      {"same seed, same decisions (fresh or reused instance)", test_determinism},
      {"the obvious discard", test_obvious_discard},
      {"komatsu at the last draw keeps tenpai", test_komatsu_last_draw},
      {"sample_from: unseen tiles or every tile not held", test_sample_from},
      {"extra_draws: playouts imagine more draws than are left", test_extra_draws},
      {"bad parameters are refused, naming the agent", test_bad_params},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("mc_agents", tests);
}
