/* tests/test_solve.c — the one-player expectimax (taikai/solve.h): hand-checked answers, equality
 * with a brute force that enumerates every tile copy drawn and every tile discarded (no memo, no
 * pruning, completeness by tk_is_complete) on small cases, and properties (values in range,
 * monotone in draws, a complete hand is 1, the best choice is the argmax, the fallbacks are
 * lower bounds of the exact value); and stored answers (tests/data/solve_reference.txt), which every
 * faster version of the search must reproduce bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/rng.h"
#include "taikai/solo.h"
#include "taikai/solve.h"
#include "unit.h"

static void counts_of(const char *s, uint8_t *c) {
  tk_tile t[20];
  int n = tk_tiles_parse(s, t, 20, NULL);
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < n; i++) c[tk_tile_kind(t[i])]++;
}

static tk_solver *solver;

static void solve(const uint8_t *h, const uint8_t *seen, int draws, int objective, int dora,
                  long max_states, tk_solve_result *r) {
  tk_solve_opts o = {.draws = draws, .objective = objective, .dora_indicator = dora,
                     .max_states = max_states};
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_solve(solver, h, seen, &o, r, &e);
  if (rc) TK_FAILF("tk_solve: %s", e.msg);
}

/* ---- the brute force: the model of solve.h, enumerated copy by copy */

/* The scorer check_against_bf gives both the solver and the brute force (NULL: solo points). */
static tk_solve_score_fn bf_score;
static void *bf_score_ctx;

typedef struct bf {
  uint8_t root[TK_KINDS], unseen[TK_KINDS];
  int objective, dora, closed;
  int direct; /* the direct mode's policy: a draw that does not lower the shanten is thrown
                 back; otherwise only discards keeping the lowered shanten */
  int budget; /* >= 0: the detour mode's policy with that many detours (solve.h), whose use is
                 counted here from its definition: the tiles beyond the decision's counts plus
                 the shanten, minus the decision hand's shanten s0 */
  int s0;
  long leaves;
} bf;

static int bf_used(const bf *b, const uint8_t *h, int shanten) {
  int D = 0;
  for (int k = 0; k < TK_KINDS; k++) D += h[k] > b->root[k] ? h[k] - b->root[k] : 0;
  return D + shanten - b->s0;
}

static int bf_better(const bf *b, double p1, double e1, double p2, double e2) {
  /* the tie rule of solve.h */
  double mp = fmax(fmax(p1, p2), 1), me = fmax(fmax(e1, e2), 1);
  int pa = p1 - p2 > TK_SOLVE_TIE_EPS * mp, pb = p2 - p1 > TK_SOLVE_TIE_EPS * mp;
  int ea = e1 - e2 > TK_SOLVE_TIE_EPS * me, eb = e2 - e1 > TK_SOLVE_TIE_EPS * me;
  if (b->objective == TK_SOLVE_POINTS) return ea || (!eb && pa);
  (void)pb;
  return pa;
}

static void bf_value(bf *b, uint8_t *h, int t, double *p, double *e) {
  *p = *e = 0;
  if (t == 0) return;
  uint8_t wall[136];
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int copies = b->unseen[k] - (h[k] > b->root[k] ? h[k] - b->root[k] : 0);
    for (int i = 0; i < copies; i++) wall[n++] = (uint8_t)k;
  }
  double P = 0, E = 0;
  for (int i = 0; i < n; i++) {
    int k = wall[i];
    h[k]++;
    if (tk_is_complete(h)) {
      b->leaves++;
      P += 1;
      if (b->objective == TK_SOLVE_POINTS)
        E += bf_score ? bf_score(bf_score_ctx, h, k)
                      : b->closed ? tk_solo_score(h, k, b->dora, NULL) : 0;
    } else {
      double bp = 0, be = 0;
      int before = 0, after = 0, free13 = 0, free14 = 0;
      if (b->direct || b->budget >= 0) {
        h[k]--;
        before = tk_shanten(h);
        free13 = b->budget >= 0 && bf_used(b, h, before) < b->budget;
        h[k]++;
        after = tk_shanten(h);
        free14 = b->budget >= 0 && bf_used(b, h, after) < b->budget;
      }
      /* every tile of the hand, copies one by one */
      for (int d = 0; d < TK_KINDS; d++)
        for (int j = 0; j < h[d]; j++) {
          h[d]--;
          int skip = 0;
          if (b->direct) skip = after >= before ? d != k : tk_shanten(h) > after;
          if (b->budget >= 0)
            skip = after >= before && !free13 ? d != k : !free14 && tk_shanten(h) > after;
          if (skip) {
            h[d]++;
            continue;
          }
          double vp, ve;
          bf_value(b, h, t - 1, &vp, &ve);
          h[d]++;
          if (bf_better(b, vp, ve, bp, be)) {
            bp = vp;
            be = ve;
          }
        }
      P += bp;
      E += be;
    }
    h[k]--;
  }
  if (n) {
    *p = P / n;
    *e = E / n;
  }
}

/* The detour mode's budget in check_against_bf. */
static int bf_detours;

/* Compares the solver with the brute force on hand h (3k+2 tiles) for one objective. */
static void check_against_bf(const uint8_t *h0, const uint8_t *seen, int draws, int objective,
                             int dora, int mode, const char *what) {
  tk_solve_result r;
  tk_solve_opts o = {.draws = draws, .objective = objective, .dora_indicator = dora,
                     .first_mode = mode, .score = bf_score, .score_ctx = bf_score_ctx,
                     .detours = bf_detours};
  tk_error err;
  tk_error_clear(&err);
  if (tk_solve(solver, h0, seen, &o, &r, &err)) TK_FAILF("tk_solve: %s", err.msg);
  TK_EQ(r.mode, mode, what);
  bf b = {.objective = objective, .dora = dora, .closed = tk_counts_total(h0) >= 13,
          .direct = mode == TK_SOLVE_DIRECT, .budget = mode == TK_SOLVE_DETOUR ? bf_detours : -1,
          .s0 = tk_shanten(h0)};
  memcpy(b.root, h0, TK_KINDS);
  for (int k = 0; k < TK_KINDS; k++) b.unseen[k] = (uint8_t)(4 - h0[k] - seen[k]);
  uint8_t h[TK_KINDS];
  memcpy(h, h0, TK_KINDS);
  int i = 0;
  for (int d = 0; d < TK_KINDS; d++) {
    if (!h[d]) continue;
    h[d]--;
    double p, e;
    bf_value(&b, h, draws, &p, &e);
    h[d]++;
    if (i >= r.n || r.c[i].discard != d) {
      TK_FAILF("%s: choice %d is not kind %d", what, i, d);
      return;
    }
    if (fabs(p - r.c[i].win) > 1e-9 || fabs(e - r.c[i].points) > 1e-9 * fmax(1, e))
      TK_FAILF("%s: discard %s, %d draws: solver (%.12f, %.6f), brute force (%.12f, %.6f)", what,
               tk_tile_str((tk_tile)d), draws, r.c[i].win, r.c[i].points, p, e);
    else CU_PASS("equal");
    i++;
  }
}

/* A random hand of n tiles from the kinds of `pool` (npool kinds), and `seen` leaving unseen
 * only `open` of those kinds (random copies), every other kind fully seen. */
static void random_case(tk_rng *r, int n, const int *pool, int npool, int open, uint8_t *h,
                        uint8_t *seen) {
  memset(h, 0, TK_KINDS);
  for (int i = 0; i < n;) {
    int k = pool[tk_rng_below(r, (uint32_t)npool)];
    if (h[k] < 4) {
      h[k]++;
      i++;
    }
  }
  for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - h[k]);
  for (int j = 0; j < open; j++) {
    int k = pool[tk_rng_below(r, (uint32_t)npool)];
    int left = 4 - h[k];
    seen[k] = (uint8_t)(left ? tk_rng_below(r, (uint32_t)left + 1) : 0);
    if (seen[k] == left && left) seen[k]--; /* at least one copy unseen */
  }
}

/* 200 random small hands with melds (5 and 8 tiles: 3 and 2 melds called, 1-4 draws), drawn
 * from `seed`, each checked against the brute force for `objective` in the exact and the direct
 * mode. */
static void small_open_cases(uint64_t seed, int objective, const char *name) {
  tk_rng r;
  tk_rng_seed(&r, seed);
  static const int POOL[] = {0, 1, 2, 3, 4, 5, 6, 27, 31};
  char what[96];
  for (int it = 0; it < 200; it++) {
    int n = it % 2 ? 5 : 8;
    int draws = 1 + (int)tk_rng_below(&r, n == 5 ? 4 : 3);
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    random_case(&r, n, POOL, 9, 3 + (int)tk_rng_below(&r, 3), h, seen);
    if (tk_is_complete(h)) continue;
    snprintf(what, sizeof what, "%s case %d (%d tiles, %d draws)", name, it, n, draws);
    check_against_bf(h, seen, draws, objective, TK_TILE_NONE, TK_SOLVE_EXACT, what);
    check_against_bf(h, seen, draws, objective, TK_TILE_NONE, TK_SOLVE_DIRECT, what);
    bf_detours = 1 + it % 2;
    check_against_bf(h, seen, draws, objective, TK_TILE_NONE, TK_SOLVE_DETOUR, what);
    bf_detours = 0;
  }
}

static void test_brute_force_small(void) { small_open_cases(15, TK_SOLVE_WIN, "small"); }

static void test_brute_force_closed(void) {
  tk_rng r;
  tk_rng_seed(&r, 1515);
  static const int POOL[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 31, 32};
  char what[96];
  for (int it = 0; it < 40; it++) {
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    random_case(&r, 14, POOL, 12, 4 + (int)tk_rng_below(&r, 2), h, seen);
    if (tk_shanten(h) > 1 || tk_is_complete(h)) {
      it--;
      continue;
    }
    int dora = (int)tk_rng_below(&r, TK_KINDS);
    int draws = 1 + (int)tk_rng_below(&r, 2);
    snprintf(what, sizeof what, "closed case %d win", it);
    check_against_bf(h, seen, draws, TK_SOLVE_WIN, dora, TK_SOLVE_EXACT, what);
    snprintf(what, sizeof what, "closed case %d points", it);
    check_against_bf(h, seen, draws, TK_SOLVE_POINTS, dora, TK_SOLVE_EXACT, what);
    snprintf(what, sizeof what, "closed case %d points, direct", it);
    check_against_bf(h, seen, draws, TK_SOLVE_POINTS, dora, TK_SOLVE_DIRECT, what);
    bf_detours = it % 3;
    snprintf(what, sizeof what, "closed case %d, %d detours", it, bf_detours);
    check_against_bf(h, seen, draws, it % 2 ? TK_SOLVE_WIN : TK_SOLVE_POINTS, dora, TK_SOLVE_DETOUR, what);
    bf_detours = 0;
  }
}

/* The detour mode between the direct mode and the exact optimum, on 60 random closed hands
 * (2-shanten at most, 2-3 draws, some tiles seen): each discard's value rises with the budget
 * (a larger budget allows every line of play a smaller one does), equals the direct mode's with
 * no detour and the exact mode's once the budget covers every move (draws + 1: the root discard
 * may use one); and the cap lowers the budget one detour at a time, then falls back to the
 * direct mode. */
static void test_detour_ladder(void) {
  /* test_known's 14-tile hand, discarding the 2z for a 5z tanki (2 of 5): the direct mode (no
     detour) throws a drawn 2z back, 2/5 + 3/5 * 2/5 = 16/25; one detour lets it keep the 2z for
     the 2z tanki (3 of 5), 2/5 + 3/5 * 3/5 = 19/25, the exact value */
  {
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    counts_of("123m456p789s1112z5z", h);
    for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - h[k]);
    seen[28] = 0;
    seen[31] = 1;
    for (int dt = 0; dt <= 1; dt++) {
      tk_solve_opts o = {.draws = 2, .objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE,
                         .first_mode = TK_SOLVE_DETOUR, .detours = dt};
      tk_solve_result res;
      tk_error e;
      tk_error_clear(&e);
      if (tk_solve(solver, h, seen, &o, &res, &e)) TK_FAILF("tk_solve: %s", e.msg);
      for (int c = 0; c < res.n; c++)
        if (res.c[c].discard == 28) CU_ASSERT_DOUBLE_EQUAL(res.c[c].win, dt ? 19.0 / 25 : 16.0 / 25, 1e-12);
    }
  }
  tk_rng r;
  tk_rng_seed(&r, 1516);
  static const int POOL[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 27, 31};
  int rose = 0;
  for (int it = 0; it < 60; it++) {
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    random_case(&r, 14, POOL, 15, 8 + (int)tk_rng_below(&r, 4), h, seen);
    if (tk_shanten(h) > 2 || tk_is_complete(h)) {
      it--;
      continue;
    }
    int draws = 2 + (int)tk_rng_below(&r, 2), objective = it % 2 ? TK_SOLVE_WIN : TK_SOLVE_POINTS;
    tk_solve_result res[5];
    for (int m = 0; m < 5; m++) {
      /* direct, detours 0, 1, 2, then exact */
      tk_solve_opts o = {.draws = draws, .objective = objective, .dora_indicator = TK_TILE_NONE,
                         .max_states = 10000000, .first_mode = m == 0 ? TK_SOLVE_DIRECT : m == 4 ? TK_SOLVE_EXACT : TK_SOLVE_DETOUR,
                         .detours = m == 4 ? 0 : m - 1};
      tk_error e;
      tk_error_clear(&e);
      if (tk_solve(solver, h, seen, &o, &res[m], &e)) {
        TK_FAILF("tk_solve: %s", e.msg);
        return;
      }
      TK_EQ(res[m].mode, o.first_mode, "no cap fired");
    }
    /* the exact optimum, as a detour mode with a budget past every move */
    tk_solve_opts o = {.draws = draws, .objective = objective, .dora_indicator = TK_TILE_NONE,
                       .max_states = 10000000, .first_mode = TK_SOLVE_DETOUR, .detours = 2 * draws + 1};
    tk_solve_result full;
    tk_error e;
    tk_error_clear(&e);
    if (tk_solve(solver, h, seen, &o, &full, &e)) {
      TK_FAILF("tk_solve: %s", e.msg);
      return;
    }
    for (int c = 0; c < res[0].n; c++) {
      double tol = 1e-12;
      if (fabs(res[0].c[c].win - res[1].c[c].win) > tol || fabs(res[0].c[c].points - res[1].c[c].points) > 1e-9)
        TK_FAILF("case %d discard %d: no detour %.15f, direct %.15f", it, res[0].c[c].discard, res[1].c[c].win, res[0].c[c].win);
      if (fabs(full.c[c].win - res[4].c[c].win) > tol || fabs(full.c[c].points - res[4].c[c].points) > 1e-9)
        TK_FAILF("case %d discard %d: %d detours %.15f, exact %.15f", it, res[0].c[c].discard, 2 * draws + 1,
                 full.c[c].win, res[4].c[c].win);
      for (int m = 1; m < 4; m++) {
        double a = objective == TK_SOLVE_WIN ? res[m].c[c].win : res[m].c[c].points;
        double b = objective == TK_SOLVE_WIN ? res[m + 1].c[c].win : res[m + 1].c[c].points;
        if (a > b + 1e-9 * fmax(1, b)) TK_FAILF("case %d discard %d: step %d falls, %.12f > %.12f", it, res[0].c[c].discard, m, a, b);
        rose += b > a + 1e-9 * fmax(1, b);
      }
    }
  }
  if (rose < 20) TK_FAILF("the budget raised a value only %d times: the cases do not exercise it", rose);
  /* keep_shanten: on 20 random 14-tile hands, direct and detour modes, exactly the discards
     keeping the shanten, each with the value it has among all the discards (to rounding: the
     memo may meet a symmetry class through another hand first) */
  for (int it = 0; it < 20; it++) {
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    random_case(&r, 14, POOL, 15, 10, h, seen);
    if (tk_is_complete(h)) {
      it--;
      continue;
    }
    int s0 = tk_shanten(h);
    tk_solve_opts o = {.draws = 6, .objective = it % 2 ? TK_SOLVE_WIN : TK_SOLVE_POINTS,
                       .dora_indicator = TK_TILE_NONE, .first_mode = it % 4 < 2 ? TK_SOLVE_DIRECT : TK_SOLVE_DETOUR,
                       .detours = 1, .max_states = 10000000};
    tk_solve_result all, kept;
    tk_error e;
    tk_error_clear(&e);
    if (tk_solve(solver, h, seen, &o, &all, &e)) TK_FAILF("tk_solve: %s", e.msg);
    o.keep_shanten = 1;
    if (tk_solve(solver, h, seen, &o, &kept, &e)) TK_FAILF("tk_solve: %s", e.msg);
    int j = 0;
    for (int c = 0; c < all.n; c++) {
      if (all.c[c].shanten > s0) continue;
      if (j >= kept.n || kept.c[j].discard != all.c[c].discard) {
        TK_FAILF("keep_shanten case %d: discard %d missing", it, all.c[c].discard);
        break;
      }
      if (fabs(kept.c[j].win - all.c[c].win) > 1e-12 || fabs(kept.c[j].points - all.c[c].points) > 1e-9)
        TK_FAILF("keep_shanten case %d: discard %d valued %.15f, among all %.15f", it, all.c[c].discard,
                 kept.c[j].win, all.c[c].win);
      j++;
    }
    TK_EQ(kept.n, j, "only the discards keeping the shanten");
  }
  /* the cap, on a 3-shanten hand with 12 draws: capped at the draw nodes of its 2-detour graph
     (which has discard nodes besides), the search answers with 1 detour and says so; capped at 1
     node, the direct mode answers */
  uint8_t h[TK_KINDS];
  counts_of("234m46m89p258s155z", h);
  tk_solve_opts o = {.draws = 12, .objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE,
                     .first_mode = TK_SOLVE_DETOUR, .detours = 2, .max_states = 10000000};
  tk_solve_result a, b;
  tk_error e;
  tk_error_clear(&e);
  if (tk_solve(solver, h, NULL, &o, &a, &e)) TK_FAILF("tk_solve: %s", e.msg);
  TK_EQ(a.mode, TK_SOLVE_DETOUR, "uncapped");
  TK_EQ(a.detours, 2, "uncapped budget");
  o.max_states = a.states; /* the draw nodes of two detours: the graph has more nodes than that */
  if (tk_solve(solver, h, NULL, &o, &b, &e)) TK_FAILF("tk_solve: %s", e.msg);
  TK_EQ(b.mode, TK_SOLVE_DETOUR, "one detour fewer");
  TK_EQ(b.detours, 1, "the budget lowered");
  o.max_states = 1;
  if (tk_solve(solver, h, NULL, &o, &b, &e)) TK_FAILF("tk_solve: %s", e.msg);
  TK_EQ(b.mode, TK_SOLVE_DIRECT, "down to the direct mode");
  o.detours = 2 * TK_SOLVE_MAX_DRAWS + 2;
  TK_EQ(tk_solve(solver, h, NULL, &o, &b, &e), TK_EINVAL, "a budget past the draws' bound");
  if (!strstr(e.msg, "detours")) TK_FAILF("the refusal does not name the detours: %s", e.msg);
}

/* A scorer that is no ruleset: it depends on the whole hand and the winning kind, and scores some
 * complete hands 0 (as a hand without a yaku). ctx counts the calls. */
static double odd_score(void *ctx, const uint8_t h[TK_KINDS], int k) {
  ++*(long *)ctx;
  if (k % 3 == 1 && !h[27]) return 0;
  double v = 1000 + 100 * k;
  for (int i = 0; i < TK_KINDS; i++) v += (i % 5 + 1) * h[i] * h[i];
  return v;
}

/* Open hands (5 and 8 tiles: 3 and 2 melds called) under a scorer of the caller's own, which
 * the solo points refuse; the exact and the direct mode against the brute force. */
static void test_brute_force_scorer(void) {
  long calls = 0;
  bf_score = odd_score;
  bf_score_ctx = &calls;
  small_open_cases(16, TK_SOLVE_POINTS, "scorer");
  bf_score = NULL;
  bf_score_ctx = NULL;
  if (calls < 100) TK_FAILF("the scorer was called %ld times: the cases did not reach wins", calls);
  /* The same open hand without a scorer is refused (the solo points are closed hands only). */
  uint8_t h[TK_KINDS] = {0};
  h[0] = h[1] = h[2] = h[27] = h[28] = 1;
  tk_solve_opts o = {.draws = 2, .objective = TK_SOLVE_POINTS, .dora_indicator = TK_TILE_NONE};
  tk_solve_result res;
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &res, &e), TK_EINVAL, "solo points of an open hand");
  if (!strstr(e.msg, "scorer")) TK_FAILF("the refusal does not name the scorer: %s", e.msg);
}

/* 123m456p789s111z2z tanki on 2z; only 2z (3 copies) and 5z (2 copies) unseen, W = 5.
 * One draw: 3/5. Two draws: a 5z first (2/5) is best thrown back (keeping the 2z wait, 3 of 5;
 * switching to a 5z wait leaves 1 of 4), so 3/5 + 2/5 * 3/5 = 21/25. The win is seat and round
 * East, menzen tsumo: 3 han; fu 20 + 2 tsumo + 8 closed honor triplet + 2 tanki = 32 -> 40;
 * ceil100(6 * 40 * 2^5 = 7680) = 7700 points. */
static void test_known(void) {
  uint8_t h[TK_KINDS], seen[TK_KINDS];
  counts_of("123m456p789s1112z", h);
  for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - h[k]);
  seen[28] = 0; /* 2z: 4 - 1 held = 3 unseen */
  seen[31] = 2; /* 5z: 2 unseen */
  tk_solve_result r;
  solve(h, seen, 1, TK_SOLVE_WIN, TK_TILE_NONE, 0, &r);
  TK_EQ(r.n, 1, "one choice for 13 tiles");
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].win, 0.6, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].points, 0, 0); /* not computed for the win objective */
  solve(h, seen, 1, TK_SOLVE_POINTS, TK_TILE_NONE, 0, &r);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].win, 0.6, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].points, 0.6 * 7700, 1e-9);
  solve(h, seen, 2, TK_SOLVE_WIN, TK_TILE_NONE, 0, &r);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].win, 21.0 / 25, 1e-12);
  solve(h, seen, 2, TK_SOLVE_POINTS, TK_TILE_NONE, 0, &r);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].win, 21.0 / 25, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].points, 21.0 / 25 * 7700, 1e-9);
  /* the same solver, dora 1m (indicator 9m; one 1m held): 4 han 40 fu = 15,360 -> 12,000 */
  solve(h, seen, 1, TK_SOLVE_POINTS, TK_9M, 0, &r);
  CU_ASSERT_DOUBLE_EQUAL(r.c[0].points, 0.6 * 12000, 1e-9);
  /* 14 tiles with a 5z drawn (held 1, seen 1, 2 unseen). Discard the 5z: the 2z wait of the
   * 13-tile case above, 21/25. Discard the 2z: a 5z tanki, 2 of 5; a 2z drawn
   * then is best kept (the hand holds one 2z, as at the decision, so the model's wall holds the
   * 3 unseen: 3 of 5): 2/5 + 3/5 * 3/5 = 19/25. Discard a 1z (11z 2z 5z, 1-shanten): a 2z first
   * (3/5), then 11z 22z waits on 2 of 4; a 5z first (2/5), then 11z 55z waits on 1 of 4:
   * 3/5 * 1/2 + 2/5 * 1/4 = 2/5. */
  counts_of("123m456p789s1112z5z", h);
  seen[31] = 1;
  solve(h, seen, 2, TK_SOLVE_WIN, TK_TILE_NONE, 0, &r);
  TK_EQ(r.c[r.best].discard, 31, "throw the 5z back");
  int found = 0;
  for (int i = 0; i < r.n; i++) {
    if (r.c[i].discard == 31) {
      found++;
      CU_ASSERT_DOUBLE_EQUAL(r.c[i].win, 21.0 / 25, 1e-12);
    }
    if (r.c[i].discard == 28) {
      found++;
      CU_ASSERT_DOUBLE_EQUAL(r.c[i].win, 19.0 / 25, 1e-12);
    }
    if (r.c[i].discard == 27) {
      found++;
      CU_ASSERT_DOUBLE_EQUAL(r.c[i].win, 2.0 / 5, 1e-12);
    }
    if (r.c[i].discard == 0) {
      found++;
      CU_ASSERT_DOUBLE_EQUAL(r.c[i].win, 0, 0);
    } /* 23m waits on 1m 4m, all seen */
  }
  TK_EQ(found, 4, "choices checked");
  /* no draw left: nothing can be completed */
  solve(h, seen, 0, TK_SOLVE_WIN, TK_TILE_NONE, 0, &r);
  for (int i = 0; i < r.n; i++) CU_ASSERT_DOUBLE_EQUAL(r.c[i].win, 0, 0);
}

static void test_complete_is_one(void) {
  uint8_t h[TK_KINDS];
  counts_of("123m456p789s11122z", h);
  tk_solve_result r;
  for (int d = 0; d <= 3; d++) {
    solve(h, NULL, d, TK_SOLVE_POINTS, TK_TILE_NONE, 0, &r);
    TK_EQ(r.n, 1, "complete: one choice");
    CU_ASSERT_DOUBLE_EQUAL(r.c[0].win, 1, 0);
    TK_EQ((long)r.c[0].points, 7700, "complete hand's points, best winning tile");
  }
}

/* Random 14-tile hands near tenpai from the whole set: range, monotone win probability in the
 * draws left, argmax, and the fallbacks below the exact value. */
static void test_properties(void) {
  tk_rng r;
  tk_rng_seed(&r, 151515);
  int checked = 0;
  for (int it = 0; checked < 20 && it < 100000; it++) {
    uint8_t set[136], h[TK_KINDS] = {0};
    for (int i = 0; i < 136; i++) set[i] = (uint8_t)(i / 4);
    for (int i = 0; i < 14; i++) {
      int j = i + (int)tk_rng_below(&r, (uint32_t)(136 - i));
      uint8_t x = set[j];
      set[j] = set[i];
      set[i] = x;
      h[x]++;
    }
    int sh = tk_shanten(h);
    if (sh < 0 || sh > 1) continue;
    checked++;
    double prev[14] = {0};
    for (int d = 0; d <= 3; d++) {
      tk_solve_result res;
      solve(h, NULL, d, TK_SOLVE_WIN, TK_TILE_NONE, 0, &res);
      TK_EQ(res.mode, TK_SOLVE_EXACT, "exact at low shanten");
      for (int i = 0; i < res.n; i++) {
        const tk_solve_choice *c = &res.c[i];
        if (!(c->win >= 0 && c->win <= 1)) TK_FAILF("win %.17g out of [0, 1]", c->win);
        if (!(c->points >= 0 && c->points <= 48000 * c->win + 1e-6))
          TK_FAILF("points %.6f out of [0, 48000 win]", c->points);
        if (c->win < prev[i] - 1e-12)
          TK_FAILF("win of discard %d fell from %.12f to %.12f with %d draws", c->discard, prev[i],
                   c->win, d);
        prev[i] = c->win;
        if (c->win > res.c[res.best].win + 1e-12) TK_FAILF("best is not the argmax");
      }
      if (d == 3) {
        /* the fallbacks are policies of the model: never above the optimum */
        tk_solve_result fw, di;
        solve(h, NULL, d, TK_SOLVE_WIN, TK_TILE_NONE, 1, &fw);
        if (fw.mode == TK_SOLVE_EXACT) TK_FAILF("a cap of one state did not make the search fall back");
        for (int i = 0; i < res.n; i++)
          if (fw.c[i].win > res.c[i].win + 1e-12) TK_FAILF("forward above exact");
        solve(h, NULL, d, TK_SOLVE_POINTS, TK_TILE_NONE, 1, &di);
        if (di.mode < TK_SOLVE_FORWARD) TK_FAILF("fallback did not fire");
      }
    }
  }
  TK_EQ(checked, 20, "hands checked");
}

static void test_refused(void) {
  uint8_t h[TK_KINDS];
  counts_of("123m456p789s111z", h); /* 12 tiles */
  tk_solve_opts o = {.draws = 3, .objective = TK_SOLVE_WIN};
  tk_solve_result r;
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &r, &e), TK_EINVAL, "12 tiles");
  counts_of("123m456p789s", h); /* 9 tiles */
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &r, &e), TK_EINVAL, "9 tiles");
  counts_of("123m456p78s", h); /* 8 tiles: melds, no points */
  o.objective = TK_SOLVE_POINTS;
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &r, &e), TK_EINVAL, "points with melds");
  o.objective = TK_SOLVE_WIN;
  o.draws = TK_SOLVE_MAX_DRAWS + 1;
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &r, &e), TK_EINVAL, "too many draws");
  /* past the direct mode's own cap: refused, not answered */
  counts_of("123m456p789s1134z", h);
  o = (tk_solve_opts){.draws = 3, .objective = TK_SOLVE_WIN, .max_states = 1, .max_direct_states = 1};
  tk_error_clear(&e);
  TK_EQ(tk_solve(solver, h, NULL, &o, &r, &e), TK_ERANGE, "direct cap");
  if (!strstr(e.msg, "direct mode")) TK_FAILF("message '%s' does not name the direct mode", e.msg);
}


/* ---- stored answers
 *
 * tests/data/solve_reference.txt holds decisions on seeded random deals (both objectives, the
 * exact and the direct modes, 14-, 13- and 11-tile hands, tiles seen or not) with every choice's
 * win and points as the bits of the doubles. The search's speed-ups must not change an answer:
 * the test solves each line's input again and asserts the same bits. A line:
 *   <34 held counts> <34 seen counts> <objective> <first mode> <draws> <dora> <max states> |
 *   <mode> <best> <n> then n times <discard> <shanten> <win bits> <points bits>
 * Setting TK_SOLVE_WRITE_REFERENCE=<file> writes the file from the current search instead (only
 * to be done when the model itself changes, never to make the test pass). */

typedef struct ref_config {
  int tiles, objective, mode, draws, max_states, lo, hi, per; /* shanten lo..hi, `per` each */
} ref_config;

static const ref_config REF_CONFIGS[] = {
    {14, TK_SOLVE_WIN, TK_SOLVE_DIRECT, 17, 0, 0, 3, 3},
    {14, TK_SOLVE_POINTS, TK_SOLVE_DIRECT, 12, 0, 0, 3, 2},
    {14, TK_SOLVE_WIN, TK_SOLVE_EXACT, 4, 30000, 0, 2, 3},
    {14, TK_SOLVE_POINTS, TK_SOLVE_EXACT, 3, 30000, 0, 1, 2},
    {14, TK_SOLVE_WIN, TK_SOLVE_FORWARD, 5, 30000, 0, 1, 2},
    {13, TK_SOLVE_WIN, TK_SOLVE_DIRECT, 12, 0, 0, 2, 2},
    {13, TK_SOLVE_POINTS, TK_SOLVE_DIRECT, 10, 0, 1, 2, 1},
    {11, TK_SOLVE_WIN, TK_SOLVE_DIRECT, 12, 0, 0, 2, 2},
};

static uint64_t bits_of(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

static void write_reference(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    TK_FAILF("cannot write %s", path);
    return;
  }
  tk_rng r;
  tk_rng_seed(&r, 20261124);
  for (size_t ci = 0; ci < sizeof REF_CONFIGS / sizeof *REF_CONFIGS; ci++) {
    const ref_config *c = &REF_CONFIGS[ci];
    for (int target = c->lo; target <= c->hi; target++)
      for (int got = 0; got < c->per;) {
        uint8_t set[136], h[TK_KINDS] = {0}, seen[TK_KINDS] = {0};
        for (int i = 0; i < 136; i++) set[i] = (uint8_t)(i / 4);
        int nseen = (int)tk_rng_below(&r, 25);
        for (int i = 0; i < c->tiles + nseen; i++) {
          int j = i + (int)tk_rng_below(&r, (uint32_t)(136 - i));
          uint8_t x = set[j];
          set[j] = set[i];
          set[i] = x;
          if (i < c->tiles) h[x]++;
          else seen[x]++;
        }
        if (tk_shanten(h) != target) continue;
        got++;
        int dora = (int)tk_rng_below(&r, TK_KINDS);
        tk_solve_opts o = {.draws = c->draws, .objective = c->objective, .dora_indicator = dora,
                           .max_states = c->max_states, .first_mode = c->mode};
        tk_solve_result res;
        tk_error e;
        tk_error_clear(&e);
        if (tk_solve(solver, h, seen, &o, &res, &e)) {
          TK_FAILF("tk_solve: %s", e.msg);
          continue;
        }
        for (int k = 0; k < TK_KINDS; k++) fputc('0' + h[k], f);
        fputc(' ', f);
        for (int k = 0; k < TK_KINDS; k++) fputc('0' + seen[k], f);
        fprintf(f, " %d %d %d %d %d | %d %d %d", c->objective, c->mode, c->draws, dora, c->max_states,
                res.mode, res.best, res.n);
        for (int i = 0; i < res.n; i++)
          fprintf(f, " %d %d %016llx %016llx", res.c[i].discard, res.c[i].shanten,
                  (unsigned long long)bits_of(res.c[i].win), (unsigned long long)bits_of(res.c[i].points));
        fputc('\n', f);
      }
  }
  fclose(f);
  CU_PASS("written");
}

static void test_reference(void) {
  const char *out = getenv("TK_SOLVE_WRITE_REFERENCE");
  if (out && *out) {
    write_reference(out);
    return;
  }
  const char *path = TK_TEST_DATA "/solve_reference.txt";
  FILE *f = fopen(path, "r");
  if (!f) {
    TK_FAILF("cannot read %s", path);
    return;
  }
  char line[4096];
  int lines = 0, choices = 0;
  while (fgets(line, sizeof line, f)) {
    lines++;
    char hs[40], ss[40];
    int obj, mode, draws, dora, max_states, rmode, rbest, rn, pos;
    if (sscanf(line, "%34s %34s %d %d %d %d %d | %d %d %d%n", hs, ss, &obj, &mode, &draws, &dora,
               &max_states, &rmode, &rbest, &rn, &pos) != 10 ||
        strlen(hs) != TK_KINDS || strlen(ss) != TK_KINDS || rn < 1 || rn > 14) {
      TK_FAILF("%s line %d: not a reference line", path, lines);
      continue;
    }
    uint8_t h[TK_KINDS], seen[TK_KINDS];
    for (int k = 0; k < TK_KINDS; k++) {
      h[k] = (uint8_t)(hs[k] - '0');
      seen[k] = (uint8_t)(ss[k] - '0');
    }
    tk_solve_opts o = {.draws = draws, .objective = obj, .dora_indicator = dora,
                       .max_states = max_states, .first_mode = mode};
    tk_solve_result res;
    tk_error e;
    tk_error_clear(&e);
    if (tk_solve(solver, h, seen, &o, &res, &e)) {
      TK_FAILF("%s line %d: tk_solve: %s", path, lines, e.msg);
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "%s line %d", path, lines);
    TK_EQ(res.mode, rmode, what);
    TK_EQ(res.best, rbest, what);
    TK_EQ(res.n, rn, what);
    const char *p = line + pos;
    for (int i = 0; i < rn && i < res.n; i++) {
      int d, sh, used;
      unsigned long long wb, pb;
      if (sscanf(p, " %d %d %llx %llx%n", &d, &sh, &wb, &pb, &used) != 4) {
        TK_FAILF("%s: choice %d unreadable", what, i);
        break;
      }
      p += used;
      choices++;
      if (res.c[i].discard != d || res.c[i].shanten != sh || bits_of(res.c[i].win) != wb ||
          bits_of(res.c[i].points) != pb)
        TK_FAILF("%s: choice %d: got discard %d shanten %d win %.17g points %.17g, stored discard %d "
                 "shanten %d win %016llx points %016llx",
                 what, i, res.c[i].discard, res.c[i].shanten, res.c[i].win, res.c[i].points, d, sh, wb, pb);
      else CU_PASS("same bits");
    }
  }
  fclose(f);
  if (lines < 50) TK_FAILF("%s: %d lines, expected the full set", path, lines);
  printf(" (%d decisions, %d choices) ", lines, choices);
}

static CU_TestInfo tests[] = {
    {"hand-checked answers", test_known},
    {"a complete hand is won", test_complete_is_one},
    {"brute force, small hands with melds, exact and direct", test_brute_force_small},
    {"brute force, closed hands, both objectives, exact and direct", test_brute_force_closed},
    {"brute force, open hands under a scorer of the caller's", test_brute_force_scorer},
    {"the detour mode: between direct and exact, its cap; keep_shanten", test_detour_ladder},
    {"properties on random hands", test_properties},
    {"bad input refused", test_refused},
    {"stored answers reproduced bit for bit", test_reference},
    CU_TEST_INFO_NULL,
};

int main(void) {
  solver = tk_solver_new();
  int rc = tk_unit_run("solve", tests);
  tk_solver_free(solver);
  return rc;
}
