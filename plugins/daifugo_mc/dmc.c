/* plugins/daifugo_mc/dmc.c — the daifugo Monte Carlo decision (dmc.h). Not written yet: every
 * decision returns -1. */
#include "dmc.h"

int dmc_decide(const dmc_params *p, const tk_daifugo_view *v, const tk_daifugo_legal *l,
               dmc_policy_fn policy, void *ctx, tk_rng *r, dmc_stats *st) {
  (void)p, (void)v, (void)l, (void)policy, (void)ctx, (void)r, (void)st;
  return -1;
}

int dmc_one_play(uint64_t hand) { (void)hand; return 0; }
