/* tests/riichi/rmc_walk.h — positions of whole games for the tests of riichi_mc and the efr
 * mode: games played with riichi_mc's simulation policy (fold rule included), a callback at
 * every decision with more than one legal action. Included by one test file each (static). */
#ifndef TESTS_RIICHI_RMC_WALK_H
#define TESTS_RIICHI_RMC_WALK_H

#include "rmc.h"
#include "unit.h"

typedef void (*visit_fn)(const tk_riichi_game *g, int seat, const tk_riichi_legal *l, void *ctx);

/* Plays `games` games of tournament `seed` with the models `m`, calling `visit` at every
 * decision with more than one legal action; a game that does not end is a failure. */
static void walk(const rmc_models *m, int games, uint64_t seed, visit_fn visit, void *ctx) {
  rmc_params p = rmc_default_params();
  rmc_stats st = {0};
  for (int n = 0; n < games; n++) {
    tk_riichi_game g;
    tk_error err = {0};
    if (tk_riichi_init(&g, NULL, seed, (uint64_t)n, NULL, &err)) {
      TK_FAILF("init: %s", err.msg);
      return;
    }
    for (int guard = 0; !tk_riichi_is_over(&g) && guard < 100000; guard++) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, &err);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      if (l.n > 1) visit(&g, s, &l, ctx);
      int i = l.n == 1 ? 0 : rmc_sim_policy(&p, m, &g, s, &l, 0, &st);
      if (tk_riichi_apply(&g, s, &l.a[i], NULL, &err)) {
        TK_FAILF("game %d: the simulation policy's action was refused: %s", n, err.msg);
        return;
      }
    }
    TK_EQ(tk_riichi_is_over(&g), 1, "the game ends");
  }
}

#endif
