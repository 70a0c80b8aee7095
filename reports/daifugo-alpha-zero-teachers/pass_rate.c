/* reports/daifugo-alpha-zero-teachers/pass_rate.c — how often a daifugo_mcl ranking played at
 * alpha 0 (its argmax) passes when a play is legal over a table, in self-play of that ranking
 * (all five players) from 2,000 random deals (seed 5). A diagnostic of this report, not built by
 * CMake; notes.md has the command that builds and runs it. Arguments: weights files (a name with
 * "_nn" is read as the NN with 16 hidden units, others as AP). */
#include <stdio.h>
#include <string.h>
#include "daifugo_mcl/policy.h"
#include "taikai/weights.h"
int main(int argc, char **argv) {
  for (int f = 1; f < argc; f++) {
    int nn = strstr(argv[f], "_nn") != NULL;
    uint32_t shape[2] = {DMCL_BP, DMCL_CP};
    if (nn) shape[0] = 16, shape[1] = DMCL_NN_ROW;
    tk_weights w; tk_error err; tk_error_clear(&err);
    if (tk_weights_load(argv[f], nn ? DMCL_MODEL_NN : DMCL_MODEL_AP, DMCL_FEATURE_VERSION, 2, shape, &w, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    dmcl_policy pol = {.alpha = 0};
    if (dmcl_model_init(&pol.md, nn ? DMCL_NN : DMCL_AP, 16, w.values)) { fprintf(stderr, "%s: no model\n", argv[f]); return 1; }
    tk_rng r; tk_rng_seed(&r, 5);
    long opp = 0, passes = 0, games = 0;
    static tk_daifugo_legal L;
    for (int game = 0; game < 2000; game++) {
      uint64_t hand[5] = {0}; int c[53];
      for (int i = 0; i < 53; i++) c[i] = i;
      for (int i = 52; i > 0; i--) { int j = (int)tk_rng_below(&r, (uint32_t)i + 1), t = c[i]; c[i] = c[j], c[j] = t; }
      for (int i = 0; i < 53; i++) hand[i % 5] |= c[i] == 52 ? TK_DAIFUGO_JOKER : TK_DAIFUGO_CARD(c[i] / 13, 1 + c[i] % 13);
      const uint8_t seats[5] = {0, 1, 2, 3, 4};
      tk_daifugo_game g;
      tk_daifugo_game_setup(&g, hand, seats, game % 5, 20, (uint64_t)game, NULL);
      int steps = 0;
      while (!g.over && steps++ < 3000) {
        tk_daifugo_move m;
        tk_daifugo_game_legal(&g, &L);
        dmcl_policy_move(&pol, &g, &r, &m);
        if (g.top.kind != TK_DAIFUGO_PASS && L.n > 1) { opp++; passes += m.kind == TK_DAIFUGO_PASS; }
        tk_daifugo_game_play(&g, &m);
      }
      games += g.over;
    }
    printf("%-40s games %ld, decisions with a play legal over a table %ld, passed %.3f\n", argv[f], games, opp, (double)passes / opp);
    dmcl_model_free(&pol.md);
    tk_weights_free(&w);
  }
  return 0;
}
