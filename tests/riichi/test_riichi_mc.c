/* tests/riichi/test_riichi_mc.c — riichi_mc (plugins/riichi_mc) and the engine pieces it needs:
 * - tk_riichi_settle_ron: hand-checked payments, the dealer's repeat, the end of the game, the
 *   refusals;
 * - the sampler interface: the uniform sampler by name, the viewer's legal actions identical in
 *   every sample, the same rng state giving the same games;
 * - the simulated players: a playout from positions of whole games always ends the hand; the
 *   fold rule, whenever it decides, discards a tile of least deal-in probability under the
 *   opponent models, and a seat that folds never calls;
 * - the decision: candidates hold every win and call option, the chosen one has the least EFR
 *   estimate, the opening plays the policy's move, and the same rng gives the same choice;
 * - the plugin end to end: a duplicate run is the same at -j 1 and -j 2, and bad parameters are
 *   refused naming the field and the value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "riichi_oneplayer/policy.h"
#include "rmc.h"
#include "rmc_walk.h"
#include "rt.h"
#include "taikai/mahjong.h"
#include "unit.h"
#include "riichi_oneplayer/weights_io.h"

static double *W;
static rm_efr *EFR;
static rm_opp *OPP;
static rmc_models MODELS;

static void load_models(void) {
  if (W) return;
  tk_error err = {0};
  if (rop_weights_load(TK_PLUGIN_DIR "/riichi_oneplayer.tkw", &W, NULL, &err) ||
      rm_efr_load(TK_PLUGIN_DIR "/" RM_EFR_DEFAULT_FILE, &EFR, &err) ||
      rm_opp_load(TK_PLUGIN_DIR "/" RM_OPP_DEFAULT_FILE, &OPP, &err)) {
    fprintf(stderr, "test_riichi_mc: %s\n", err.msg);
    exit(1);
  }
  MODELS = (rmc_models){W, EFR, OPP};
}

/* ------------------------------------------------------------ settle_ron */

static void settle_ron(void) {
  rt t;
  rt_init(&t, NULL);
  t.g.honba = 2;
  t.g.sticks = 1;
  t.g.scores[0] = 25000, t.g.scores[1] = 24000, t.g.scores[2] = 26000, t.g.scores[3] = 24000;
  TK_EQ(rt_deal(&t, NULL), 0, "deal");
  tk_riichi_game g = t.g;
  tk_error err = {0};
  TK_EQ(tk_riichi_settle_ron(&g, 1, 0, 8000, &err), 0, "settle");
  TK_EQ(g.scores[0], 25000 - 8000 - 600, "the discarder pays the value and 300 a honba");
  TK_EQ(g.scores[1], 24000 + 8000 + 600 + 1000, "the winner also takes the stick");
  TK_EQ(g.scores[2], 26000, "others unchanged");
  TK_EQ(g.sticks, 0, "sticks taken");
  TK_EQ(g.phase, TK_RIICHI_PHASE_DEAL, "between hands");
  TK_EQ(g.round, 1, "a non-dealer's win passes the deal");
  TK_EQ(g.honba, 0, "honba reset");
  g = t.g;
  TK_EQ(tk_riichi_settle_ron(&g, 0, 3, 12000, &err), 0, "dealer ron");
  TK_EQ(g.round, 0, "the dealer repeats");
  TK_EQ(g.honba, 3, "one more honba");
  /* East 4: a non-dealer's win over 30000 ends the game; the sticks went to the winner */
  rt_init(&t, NULL);
  t.g.round = 3;
  TK_EQ(rt_deal(&t, NULL), 0, "deal East 4");
  g = t.g;
  TK_EQ(tk_riichi_settle_ron(&g, 1, 2, 7700, &err), 0, "settle at East 4");
  TK_EQ(g.phase, TK_RIICHI_PHASE_OVER, "the last hand ends the game");
  /* bust */
  rt_init(&t, NULL);
  t.g.scores[2] = 3000, t.g.scores[1] = 47000;
  TK_EQ(rt_deal(&t, NULL), 0, "deal");
  g = t.g;
  TK_EQ(tk_riichi_settle_ron(&g, 1, 2, 8000, &err), 0, "settle into a bust");
  TK_EQ(g.phase, TK_RIICHI_PHASE_OVER, "below zero ends the game");
  /* refusals leave the game as it was */
  g = t.g;
  TK_EQ(tk_riichi_settle_ron(&g, 1, 1, 8000, &err), TK_EINVAL, "winner = discarder");
  TK_EQ(tk_riichi_settle_ron(&g, 1, 4, 8000, &err), TK_EINVAL, "seat out of range");
  TK_EQ(tk_riichi_settle_ron(&g, 1, 2, 0, &err), TK_EINVAL, "no points");
  TK_EQ(memcmp(&g, &t.g, sizeof g), 0, "unchanged after refusals");
  g.phase = TK_RIICHI_PHASE_DEAL;
  TK_EQ(tk_riichi_settle_ron(&g, 1, 2, 1000, &err), TK_ESTATE, "no hand in progress");
}

/* ------------------------------------------------------------ positions of whole games */


typedef struct samp_ctx {
  int checked, differ;
  int riichi_seats, riichi_tenpai; /* the tenpai sampler: seats in riichi, and dealt tenpai */
} samp_ctx;

/* Every copy of every kind is somewhere: the hands, the melds, the rivers (a called tile once,
 * in its meld), the wall positions not yet drawn, the indicators. */
static void check_tiles(const tk_riichi_game *g, const char *what) {
  int cnt[TK_KINDS] = {0};
  for (int s = 0; s < 4; s++) {
    const tk_riichi_player *p = &g->p[s];
    for (int k = 0; k < TK_KINDS; k++) cnt[k] += p->hand[k];
    for (int m = 0; m < p->nmelds; m++)
      for (int j = 0; j < 4; j++)
        if (p->melds[m].tiles[j] != TK_TILE_NONE) cnt[tk_tile_kind(p->melds[m].tiles[j])]++;
    for (int i = 0; i < p->nriver; i++)
      if (!(p->river[i].flags & TK_RIICHI_CALLED)) cnt[tk_tile_kind(p->river[i].tile)]++;
  }
  for (int i = g->next_draw; i < TK_RIICHI_TILES; i++)
    if (g->wall[i] != TK_TILE_NONE) cnt[tk_tile_kind(g->wall[i])]++;
  for (int k = 0; k < TK_KINDS; k++)
    if (cnt[k] != 4) TK_FAILF("%s: kind %d has %d copies", what, k, cnt[k]);
}

/* A chankan chance (the scripted wall of test_riichi_rules' kakan_and_chankan): seat 1 adds 2p to
 * its pon, seat 2 may rob it. The kan is counted before its replacement tile is drawn, so the
 * samplers must leave that tile in the wall; then passing draws it from the sample. */
static void chankan_view(void) {
  static uint8_t wall[TK_RIICHI_TILES];
  const char *h[4] = {"19m29p19s1234567z", "22p345m678m345s9s4z", "13p456m789m456s77s",
                      "147m369p258s1234z"};
  if (rt_wall(wall, 0, h, "8s9p8s8s2p", "6s", "5z", NULL)) {
    TK_FAILF("bad scripted wall");
    return;
  }
  rt t;
  rt_start(&t, NULL, wall);
  TK_EQ(rt_do(&t, 0, TK_RIICHI_DISCARD, "2p", NULL, NULL), 0, "seat 0 discards 2p");
  TK_EQ(rt_do(&t, 1, TK_RIICHI_PON, "2p", "2p", "2p"), 0, "seat 1 pons");
  rt_pass(&t);
  TK_EQ(rt_do(&t, 1, TK_RIICHI_DISCARD, "4z", NULL, NULL), 0, "seat 1 discards");
  rt_pass(&t);
  rt_tsumogiri(&t, 3);
  TK_EQ(rt_do(&t, 1, TK_RIICHI_KAKAN, "2p", NULL, NULL), 0, "seat 1 adds the kan");
  TK_EQ(rt_can(&t, 2, TK_RIICHI_RON, "2p"), 1, "seat 2 may rob it");
  tk_riichi_view v;
  tk_riichi_view_of(&t.g, 2, &v);
  tk_riichi_legal l;
  tk_riichi_legal_of(&t.g, 2, &l);
  static const char *const names[2] = {"uniform", "tenpai"};
  for (int n = 0; n < 2; n++) {
    const tk_riichi_sampler *u = tk_riichi_sampler_find(names[n]);
    tk_riichi_game out[3];
    tk_rng a;
    tk_rng_seed(&a, 7);
    tk_error err = {0};
    if (u->sample(u->ctx, &v, NULL, &a, 3, out, &err)) {
      TK_FAILF("%s: sampling at a chankan chance: %s", names[n], err.msg);
      continue;
    }
    for (int k = 0; k < 3; k++) {
      check_tiles(&out[k], names[n]);
      tk_riichi_legal ls;
      tk_riichi_legal_of(&out[k], 2, &ls);
      if (memcmp(&ls, &l, sizeof ls)) TK_FAILF("%s sample %d: the viewer's legal actions differ", names[n], k);
      /* everyone passes: seat 1 draws its replacement tile from the sample */
      tk_riichi_action pass = {.type = TK_RIICHI_PASS};
      TK_EQ(tk_riichi_apply(&out[k], 2, &pass, NULL, &err), 0, "seat 2 passes");
      TK_EQ(tk_riichi_phase(&out[k]), TK_RIICHI_PHASE_SELF, "the kan completes");
      TK_EQ(out[k].drawn != TK_TILE_NONE, 1, "the replacement tile is a tile of the sample");
    }
  }
}

static void visit_sampler(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *c) {
  samp_ctx *x = c;
  if (x->checked >= 300 || (x->checked + seat) % 3) {
    x->checked += x->checked < 300;
    return;
  }
  const tk_riichi_sampler *u = tk_riichi_sampler_find("uniform");
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  tk_riichi_game out[4], again[4];
  tk_rng a, b;
  tk_rng_seed(&a, 99 + (uint64_t)x->checked);
  tk_rng_seed(&b, 99 + (uint64_t)x->checked);
  tk_error err = {0};
  TK_EQ(u->sample(u->ctx, &v, NULL, &a, 4, out, &err), 0, "sample");
  TK_EQ(u->sample(u->ctx, &v, NULL, &b, 4, again, &err), 0, "sample again");
  TK_EQ(memcmp(out, again, sizeof out), 0, "the same rng state gives the same games");
  x->differ += memcmp(&out[0], &out[1], sizeof out[0]) != 0;
  for (int k = 0; k < 4; k++) check_tiles(&out[k], "uniform");
  /* the tenpai sampler: the same view, riichi seats tenpai without a wait in their river */
  const tk_riichi_sampler *tp = tk_riichi_sampler_find("tenpai");
  TK_EQ(tp->sample(tp->ctx, &v, NULL, &a, 4, out, &err), 0, "tenpai sample");
  for (int k = 0; k < 4; k++) {
    check_tiles(&out[k], "tenpai");
    tk_riichi_legal ls;
    tk_riichi_legal_of(&out[k], seat, &ls);
    if (memcmp(&ls, l, sizeof ls)) TK_FAILF("tenpai sample %d: the viewer's legal actions differ", k);
    for (int o = 0; o < 4; o++) {
      const tk_riichi_player *p = &out[k].p[o];
      if (o == seat || !p->riichi || p->nmelds != p->nkans) continue;
      if (tk_riichi_phase(g) == TK_RIICHI_PHASE_SELF && o == g->turn) continue; /* 3k+2 tiles */
      x->riichi_seats++;
      if (p->shanten == 0 && p->waits && !(p->waits & p->discarded)) x->riichi_tenpai++;
    }
  }
  for (int k = 0; k < 4; k++) {
    tk_riichi_legal ls;
    tk_riichi_legal_of(&out[k], seat, &ls);
    if (memcmp(&ls, l, sizeof ls)) TK_FAILF("sample %d: the viewer's legal actions differ", k);
    tk_riichi_view vs;
    tk_riichi_view_of(&out[k], seat, &vs);
    if (memcmp(vs.hand, v.hand, sizeof v.hand) || memcmp(vs.seen, v.seen, sizeof v.seen))
      TK_FAILF("sample %d: the viewer's hand or the visible tiles differ", k);
  }
  x->checked++;
}

static void sampler(void) {
  load_models();
  TK_EQ(tk_riichi_sampler_find("uniform") != NULL, 1, "uniform by name");
  TK_EQ(tk_riichi_sampler_find("nope") == NULL, 1, "unknown name");
  TK_EQ(tk_riichi_sampler_find(NULL) == NULL, 1, "NULL name");
  samp_ctx x = {0};
  walk(&MODELS, 3, 5, visit_sampler, &x);
  TK_EQ(x.checked >= 50, 1, "positions sampled");
  TK_EQ(x.differ * 10 >= x.checked / 3, 1, "independent samples differ");
  TK_EQ(x.riichi_seats > 20, 1, "positions with another seat in riichi");
  TK_EQ(x.riichi_tenpai * 10 >= x.riichi_seats * 9, 1, "riichi seats dealt tenpai, no wait in their river");
}

typedef struct fold_ctx {
  int folds, facing, playouts;
} fold_ctx;

static void visit_fold(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *c) {
  fold_ctx *x = c;
  rmc_params p = rmc_default_params();
  rmc_models m = {W, EFR, OPP};
  rmc_stats st = {0};
  int i = rmc_sim_policy(&p, &m, g, seat, l, 0, &st);
  if (i < 0 || i >= l->n) {
    TK_FAILF("action %d of %d", i, l->n);
    return;
  }
  int facing = 0;
  for (int o = 0; o < 4; o++) facing |= o != seat && g->p[o].riichi;
  x->facing += facing;
  if (st.folds) {
    x->folds++;
    TK_EQ(facing && !g->p[seat].riichi, 1, "folds only facing a riichi, never in riichi");
    int t = l->a[i].type;
    if (tk_riichi_phase(g) == TK_RIICHI_PHASE_REACT) {
      if (t != TK_RIICHI_PASS && t != TK_RIICHI_RON) TK_FAILF("a folding seat called (%d)", t);
    } else if (t == TK_RIICHI_DISCARD) {
      tk_riichi_view v;
      tk_riichi_view_of(g, seat, &v);
      rm_opp_threat th[4];
      rm_opp_assess(OPP, &v, th);
      double d = rm_opp_dealin(th, seat, tk_tile_kind(l->a[i].tile), NULL);
      for (int j = 0; j < l->n; j++)
        if (l->a[j].type == TK_RIICHI_DISCARD &&
            rm_opp_dealin(th, seat, tk_tile_kind(l->a[j].tile), NULL) < d - 1e-12)
          TK_FAILF("the fold discarded a tile of deal-in %.4f over another of less", d);
    } else if (t != TK_RIICHI_TSUMO) {
      TK_FAILF("a fold played action type %d", t);
    }
    int sh = tk_riichi_phase(g) == TK_RIICHI_PHASE_SELF ? tk_shanten(g->p[seat].hand)
                                                        : g->p[seat].shanten;
    TK_EQ(sh >= p.fold_shanten, 1, "folds only at fold_shanten or worse");
  }
  /* a playout from here ends the hand */
  if (x->playouts < 200 && (seat + l->n) % 5 == 0) {
    tk_riichi_game h = *g;
    TK_EQ(tk_riichi_apply(&h, seat, &l->a[i], NULL, NULL), 0, "apply");
    TK_EQ(rmc_playout(&p, &m, &h, 0, &st), 0, "the playout ends");
    int ph = tk_riichi_phase(&h);
    TK_EQ(ph == TK_RIICHI_PHASE_DEAL || ph == TK_RIICHI_PHASE_OVER, 1, "between hands");
    double e = rm_efr_game(EFR, &h, seat);
    TK_EQ(e >= 1 && e <= 4, 1, "EFR in [1, 4]");
    x->playouts++;
  }
}

static void fold_rule(void) {
  load_models();
  fold_ctx x = {0};
  walk(&MODELS, 12, 17, visit_fold, &x);
  TK_EQ(x.facing > 50, 1, "decisions facing a riichi");
  TK_EQ(x.folds > 10, 1, "the fold rule decided some");
  TK_EQ(x.playouts >= 100, 1, "playouts checked");
}

/* ------------------------------------------------------------ the decision */

typedef struct dec_ctx {
  int mc, policy, checked, riichi;
} dec_ctx;

static void visit_decide(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *ctx) {
  dec_ctx *x = ctx;
  int riichi_legal = 0;
  for (int i = 0; i < l->n; i++) riichi_legal |= l->a[i].type == TK_RIICHI_RIICHI;
  if (x->checked >= 60 || ((l->n + seat) % 4 && !riichi_legal)) return;
  x->checked++;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  rmc_params p = rmc_default_params();
  p.playouts = 24;
  p.opening = 0;
  rmc_models m = {W, EFR, OPP};
  rmc_stats st = {0};
  rmc_result r, r2;
  tk_rng a, b;
  tk_rng_seed(&a, 3);
  tk_rng_seed(&b, 3);
  int over = 0;
  tk_error err = {0};
  if (rmc_decide(&p, &m, &v, l, &over, &a, &r, &st, &err)) {
    TK_FAILF("decide: %s", err.msg);
    return;
  }
  TK_EQ(rmc_decide(&p, &m, &v, l, &over, &b, &r2, &st, &err), 0, "decide again");
  TK_EQ(r.action, r2.action, "the same rng gives the same choice");
  TK_EQ(r.action >= 0 && r.action < l->n, 1, "a legal action");
  if (r.by_policy) {
    x->policy++;
    return;
  }
  x->mc++;
  int found = 0;
  for (int c = 0; c < r.ncands; c++) {
    found |= r.cands[c].action == r.action;
    if (r.cands[c].value < 1 || r.cands[c].value > 4) TK_FAILF("value %f", r.cands[c].value);
  }
  TK_EQ(found, 1, "the choice is a candidate");
  for (int c = 0; c < r.ncands; c++)
    if (r.cands[c].action != r.action) {
      double chosen = 0;
      for (int d = 0; d < r.ncands; d++)
        if (r.cands[d].action == r.action) chosen = r.cands[d].value;
      if (r.cands[c].value < chosen - 1e-12) TK_FAILF("a candidate of less EFR was not chosen");
    }
  /* the policy's move is a candidate; when riichi is legal, a declaration is */
  rop_choice pc0;
  TK_EQ(rop_decide(&v, l, W, &pc0, &err), 0, "policy");
  int has_pol = 0, riichi_cand = 0;
  for (int c = 0; c < r.ncands; c++) {
    const tk_riichi_action *ca = &l->a[r.cands[c].action];
    has_pol |= ca->type == l->a[pc0.action].type && ca->tile == l->a[pc0.action].tile;
    riichi_cand |= ca->type == TK_RIICHI_RIICHI;
  }
  TK_EQ(has_pol, 1, "the policy's move is a candidate");
  TK_EQ(riichi_cand, riichi_legal, "a riichi declaration is a candidate when one is legal");
  x->riichi += riichi_legal;
  /* every win, call and pass is a candidate */
  for (int i = 0; i < l->n; i++) {
    int t = l->a[i].type;
    if (t == TK_RIICHI_DISCARD || t == TK_RIICHI_RIICHI) continue;
    int in = 0;
    for (int c = 0; c < r.ncands; c++) {
      const tk_riichi_action *ca = &l->a[r.cands[c].action];
      in |= ca->type == t && ca->tile == l->a[i].tile && ca->consumed[0] == l->a[i].consumed[0] &&
            ca->consumed[1] == l->a[i].consumed[1];
    }
    if (!in) TK_FAILF("action type %d is not a candidate", t);
  }
  /* the opening: at the first decision of a hand with no condition met, the policy's move */
  p.opening = 1;
  over = 0;
  tk_rng_seed(&a, 3);
  TK_EQ(rmc_decide(&p, &m, &v, l, &over, &a, &r, &st, &err), 0, "decide with the opening");
  if (r.by_policy) {
    rop_choice pc;
    TK_EQ(rop_decide(&v, l, W, &pc, &err), 0, "policy");
    TK_EQ(r.action, pc.action, "the opening plays the policy's move");
    TK_EQ(over, 0, "the opening goes on");
  } else {
    TK_EQ(over, 1, "the opening ended");
  }
}

static void decide(void) {
  load_models();
  dec_ctx x = {0};
  walk(&MODELS, 4, 23, visit_decide, &x);
  TK_EQ(x.mc >= 10, 1, "Monte Carlo decisions checked");
  TK_EQ(x.riichi >= 3, 1, "decisions where riichi is legal checked");
}

/* ------------------------------------------------------------ the plugin */

static char work[512];

static int sh(const char *fmt, const char *a, const char *b) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, fmt, a, b);
  return system(cmd);
}

static void plugin(void) {
  snprintf(work, sizeof work, "%s", TK_WORK_DIR);
  char cmd[4096], spec[600], out1[600], out2[600], bad[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", work, work);
  TK_EQ(system(cmd), 0, "work folder");
  snprintf(spec, sizeof spec, "%s/mc.json", work);
  snprintf(out1, sizeof out1, "%s/mc1", work);
  snprintf(out2, sizeof out2, "%s/mc2", work);
  FILE *f = fopen(spec, "w");
  fprintf(f, "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 1, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"riichi_mc\", \"label\": \"mc\", \"params\": {\"playouts\": 12}}], "
             "\"rules\": {\"length\": \"east\"}}\n");
  fclose(f);
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 2 --quiet > /dev/null", spec, out1), 0, "run -j 2");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 1 --quiet > /dev/null", spec, out2), 0, "run -j 1");
  snprintf(cmd, sizeof cmd, "cmp -s %s/games.jsonl %s/games.jsonl", out1, out2);
  TK_EQ(system(cmd), 0, "games.jsonl the same at -j 1 and -j 2");
  snprintf(cmd, sizeof cmd, "grep -q '\"efr\"' %s/spec.json && grep -q '\"opp\"' %s/spec.json", out1,
           out1);
  TK_EQ(system(cmd), 0, "spec.json records the model files");
  /* a learned sampler: the same games at -j 1 and -j 2, its weights file recorded */
  f = fopen(spec, "w");
  fprintf(f, "{\"game\": \"riichi\", \"seed\": 12, \"walls\": 1, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"riichi_mc\", \"label\": \"mc\", \"params\": {\"playouts\": 8, "
             "\"sampler\": \"diffusion\", \"model_dealin\": false}}], "
             "\"rules\": {\"length\": \"east\"}}\n");
  fclose(f);
  snprintf(out1, sizeof out1, "%s/df1", work);
  snprintf(out2, sizeof out2, "%s/df2", work);
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 2 --quiet > /dev/null", spec, out1), 0, "diffusion -j 2");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 1 --quiet > /dev/null", spec, out2), 0, "diffusion -j 1");
  snprintf(cmd, sizeof cmd, "cmp -s %s/games.jsonl %s/games.jsonl", out1, out2);
  TK_EQ(system(cmd), 0, "the diffusion sampler's games the same at -j 1 and -j 2");
  snprintf(cmd, sizeof cmd, "grep -q '\"sampler\"' %s/spec.json && grep -q riichi_diffusion.tkw %s/spec.json",
           out1, out1);
  TK_EQ(system(cmd), 0, "spec.json records the sampler's weights file");
  /* bad parameters: the message names the field and the value */
  static const char *const params[][2] = {
      {"{\"playouts\": 0}", "playouts"},
      {"{\"sampler\": \"nope\"}", "known: uniform"},
      {"{\"sampler\": \"uniform\", \"sampler_options\": {\"sweeps\": 3}}",
       "sampler 'uniform' takes no options"},
      {"{\"sampler_file\": \"/nonexistent/x.tkw\"}", "sampler 'tenpai' takes no weights file"},
      {"{\"fold\": 1}", "unknown parameter 'fold'"},
      {"{\"opening\": 1}", "'opening' must be a boolean"},
      {"{\"efr\": \"/nonexistent/efr.tkw\"}", "/nonexistent/efr.tkw"},
  };
  for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
    snprintf(bad, sizeof bad, "%s/bad%zu.json", work, i);
    f = fopen(bad, "w");
    fprintf(f, "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 1, \"format\": \"duplicate\", "
               "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
               "{\"plugin\": \"riichi_mc\", \"label\": \"mc\", \"params\": %s}]}\n",
            params[i][0]);
    fclose(f);
    snprintf(cmd, sizeof cmd, TK_TAIKAI_BIN " run %s --out %s/badrun%zu --quiet > %s/bad.out 2>&1",
             bad, work, i, work);
    if (system(cmd) == 0) TK_FAILF("params %s accepted", params[i][0]);
    snprintf(cmd, sizeof cmd, "grep -qF \"%s\" %s/bad.out", params[i][1], work);
    if (system(cmd)) TK_FAILF("params %s: the message does not say '%s'", params[i][0], params[i][1]);
  }
}

int main(void) {
  CU_TestInfo tests[] = {{"tk_riichi_settle_ron", settle_ron},
                         {"the sampler interface", sampler},
                         {"the samplers at a chankan chance", chankan_view},
                         {"the fold rule and playouts", fold_rule},
                         {"the decision", decide},
                         {"the plugin end to end", plugin},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("riichi_mc", tests);
}
