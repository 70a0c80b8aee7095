/* tests/daifugo/test_daifugo_soak.c — blocks of games between random players with every invariant
 * checked after every action: the 53 cards accounted for (hands and played cards a partition of
 * the deck), hand sizes against the view's counts, the player to act holding cards with a
 * non-empty legal list, the finishing order a permutation (classes a permutation after each game),
 * points summing to 15 (server) and 0 (paper) per game; every 16th decision its legal list has
 * no duplicate, every 64th an illegal action is refused with the block unchanged.
 * Players mix policies: uniform over every legal action (pass included), uniform over plays (the
 * paper's playout policy), the referee's fallback; in every 8th block all five pass nine times
 * in ten, so that games end by sennichite.
 *
 * ctest runs 20,000 games; `test_daifugo_soak --games N` runs N. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dt.h"
#include "unit.h"

static long games = 20000;
static tk_daifugo_block B, SAVE;
static tk_daifugo_legal L;

static int dup_free(const tk_daifugo_legal *l) {
  for (int i = 0; i < l->n; i++)
    for (int j = 0; j < i; j++)
      if (l->a[i].kind == l->a[j].kind && l->a[i].cards == l->a[j].cards &&
          l->a[i].jcell == l->a[j].jcell)
        return 0;
  return 1;
}

static void soak(void) {
  tk_rng r;
  tk_rng_seed(&r, 2026);
  long played = 0, actions = 0, failures = 0, revs = 0, senn = 0, passes = 0, exch = 0;
  long blocks = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  while (played < games && failures < 5) {
    rules.block_games = blocks % 4 == 3 ? 7 : 100;
    rules.seat_period = blocks % 4 == 3 ? 1 : 3;
    if ((long)rules.block_games > games - played) rules.block_games = (uint32_t)(games - played);
    tk_error err;
    tk_error_clear(&err);
    if (tk_daifugo_block_init(&B, &rules, 77, (uint64_t)blocks, &err)) {
      TK_FAILF("init: %s", err.msg);
      return;
    }
    int policy[5];
    for (int p = 0; p < 5; p++) policy[p] = blocks % 8 == 5 ? 3 : (int)tk_rng_below(&r, 3);
    uint32_t game = 0;
    while (!tk_daifugo_is_over(&B) && failures < 5) {
      char ctx[96];
      snprintf(ctx, sizeof ctx, "block %ld game %u action %ld", blocks, B.game, actions);
      int p = tk_daifugo_to_act(&B);
      if (p < 0 || p >= 5) {
        TK_FAILF("%s: to_act %d", ctx, p);
        failures++;
        break;
      }
      int n = tk_daifugo_legal_of(&B, p, &L);
      if (n < 1) TK_FAILF("%s: empty legal list", ctx), failures++;
      if (B.phase == TK_DAIFUGO_PHASE_PLAY) failures += dt_check_game(&B.g, ctx);
      else exch++;
      tk_daifugo_view v;
      tk_daifugo_view_of(&B, p, &v);
      if (v.hand != B.g.hand[p] || v.decision != L.decision) TK_FAILF("%s: view", ctx), failures++;
      for (int q = 0; q < 5; q++)
        if (v.count[q] != __builtin_popcountll(B.g.hand[q])) TK_FAILF("%s: count of %d", ctx, q), failures++;
      if (actions % 16 == 0 && !dup_free(&L)) TK_FAILF("%s: a duplicate legal action", ctx), failures++;
      if (actions % 64 == 0) {
        /* A single of a card the player does not hold is refused, the block unchanged. */
        tk_daifugo_move bad;
        memset(&bad, 0, sizeof bad);
        uint64_t not_held = TK_DAIFUGO_REAL & ~B.g.hand[p];
        bad.kind = L.decision == TK_DAIFUGO_DECIDE_EXCHANGE ? TK_DAIFUGO_GIVE : TK_DAIFUGO_SINGLE;
        bad.cards = not_held & -not_held;
        bad.n = 1;
        bad.rank = (uint8_t)(__builtin_ctzll(bad.cards) & 15);
        bad.suits = (uint8_t)(1 << (__builtin_ctzll(bad.cards) >> 4));
        bad.jcell = TK_DAIFUGO_NOCELL;
        memcpy(&SAVE, &B, sizeof B);
        if (tk_daifugo_apply(&B, p, &bad, NULL) != TK_EILLEGAL || memcmp(&SAVE, &B, sizeof B))
          TK_FAILF("%s: a card not held was not refused cleanly", ctx), failures++;
      }
      int k;
      if (L.decision == TK_DAIFUGO_DECIDE_EXCHANGE || policy[p] == 0)
        k = (int)tk_rng_below(&r, (uint32_t)n);
      else if (policy[p] == 3) /* pass nine times in ten: sennichite happens */
        k = n == 1 || tk_rng_below(&r, 10) ? 0 : 1 + (int)tk_rng_below(&r, (uint32_t)n - 1);
      else if (policy[p] == 1)
        k = n > 1 ? 1 + (int)tk_rng_below(&r, (uint32_t)n - 1) : 0;
      else {
        tk_daifugo_move fb = tk_daifugo_fallback(&L);
        for (k = 0; k < n && memcmp(&L.a[k], &fb, sizeof fb); k++) continue;
      }
      passes += L.a[k].kind == TK_DAIFUGO_PASS;
      if (tk_daifugo_apply(&B, p, &L.a[k], &err)) {
        TK_FAILF("%s: a legal action refused: %s", ctx, err.msg);
        failures++;
        break;
      }
      actions++;
      if (B.game != game || tk_daifugo_is_over(&B)) {
        /* A game ended: its places and the classes are permutations. */
        unsigned seen = 0, cls = 0;
        for (int q = 0; q < 5; q++) seen |= 1u << B.places[game][q], cls |= 1u << B.cls[q];
        if (seen != 31 || cls != 31) TK_FAILF("%s: places not a permutation", ctx), failures++;
        game = B.game;
        played++;
      }
    }
    int sum = 0, psum = 0, g5 = 0;
    for (int q = 0; q < 5; q++) {
      sum += B.totals.points[q], psum += B.totals.paper_points[q], revs += B.totals.revolutions[q];
      for (int k = 0; k < 5; k++) g5 += B.totals.places[q][k];
    }
    senn += B.totals.sennichite;
    if (sum != 15 * B.totals.games || psum != 0 || g5 != 5 * B.totals.games)
      TK_FAILF("block %ld: points %d, paper %d over %d games", blocks, sum, psum, B.totals.games), failures++;
    blocks++;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("\nsoak: %ld games in %ld blocks, %ld actions (%ld exchange, %ld passes), %ld revolutions, "
         "%ld sennichite, %.2f s\n", played, blocks, actions, exch, passes, revs, senn, secs);
  if (played < games) TK_FAILF("stopped after %ld games", played);
  if (!senn || !revs) TK_FAILF("the soak never saw a sennichite (%ld) or revolution (%ld)", senn, revs);
  TK_EQ(failures, 0, "invariant failures over the soak");
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--games") && i + 1 < argc) {
      games = atol(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [--games N]\n", argv[0]);
      return 2;
    }
  }
  if (games < 1) {
    fprintf(stderr, "%s: --games must be >= 1\n", argv[0]);
    return 2;
  }
  CU_TestInfo tests[] = {
      {"random blocks, every invariant after every action", soak},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_soak", tests);
}
