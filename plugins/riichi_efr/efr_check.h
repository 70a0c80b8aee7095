/* plugins/riichi_efr/efr_check.h — the analytic cross-check of the EFR model and table 10's
 * anchor (../shared/specs/riichi-agents.md §2.7).
 *
 * The cross-check plays the rest of a game forward: each next hand's outcome is drawn
 * uniformly from the logs' hands (efr_hand: a score change in seats relative to the dealer, so
 * the draw is conditioned on who deals), the honba and the sticks on the table are paid as the
 * engine pays them, and the engine's end rules for an east-only game of Tenhou's rules (bust
 * below 0, the extension while nobody holds 30,000, agari-yame and tenpai-yame, the
 * extension's last hand) decide when it stops; the final ranks follow tk_riichi_ranks. */
#ifndef RIICHI_EFR_CHECK_H
#define RIICHI_EFR_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "efr_data.h"

/* The final-rank distribution of every seat from `s` (p[seat][rank - 1]) over `sims` games
 * completed with hands drawn uniformly from hands[0 .. n) by the RNG seeded with `seed`. */
void efr_mc(const efr_hand *hands, size_t n, const rm_efr_state *s, int sims, uint64_t seed,
            double p[4][4]);

/* The cross-check on a grid of states (East 1..4, 0 honba, no sticks, a dozen score
 * patterns, every seat): model against Monte Carlo, the mean absolute EFR difference per
 * round and overall, printed to `f`; *mad receives the overall one. */
void efr_crosscheck(FILE *f, const rm_efr *m, const efr_hand *hands, size_t n, int sims,
                    uint64_t seed, double *mad);

/* Table 10's anchor, printed to `f`: the last-placed seat at all-last needing a mangan, its EFR
 * before the hand (model and Monte Carlo), after a 1..4-han 30-fu win (ron off each opponent,
 * tsumo), and the paper's Score of table 8's four discards under this model, beside 3.80–3.94. */
void efr_anchor(FILE *f, const rm_efr *m, const efr_hand *hands, size_t n, int sims,
                uint64_t seed);

#endif
