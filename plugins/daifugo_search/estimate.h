/* plugins/daifugo_search/estimate.h — opponent-hand estimation for daifugo_search: the hidden
 * cards of a play decision as a weighted pool of worlds.
 *
 * A world is one deal of the hidden cards consistent with the view, drawn from the decision's
 * deal plan (dmc_plan_deal: our hand, our exchange gifts with their receiver, the strongest
 * unseen cards biased to the previous game's ranks 1..3, the rest at random). Its weight is
 * the likelihood of what the opponents were seen doing this game — every play of the view's
 * history and every pass between them — under the learned playout policy (policy.h),
 * tempered: w = L^beta. The game so far is replayed from the world's hands at the start of
 * play (each player's cards now plus those it played), with the passes put back between the
 * recorded plays (between two accepted plays there are only passes, so the replay is the real
 * game, but for one case the record cannot tell apart: a player whose play every other player
 * passed may play over it or pass and lead; the replay takes the second). The proposal is the
 * prior, so drawing from the pool by weight is importance resampling of the posterior under
 * that model of the opponents.
 *
 * Each action's probability is floored: p' = (1 - floor) p + floor / k over its k candidates, so
 * that one action the model finds unlikely does not remove a world by itself. A world in which
 * an observed play is not legal (it cannot happen with the plan's worlds, whose hands contain
 * every card a player later played) gets weight 0. */
#ifndef DAIFUGO_SEARCH_ESTIMATE_H
#define DAIFUGO_SEARCH_ESTIMATE_H

#include <stdint.h>

#include "dmc.h"
#include "daifugo_mcl/policy.h"

typedef struct dse_params {
  int worlds;      /* worlds in the pool; 0: no estimation (dmc's own deal per playout) */
  double beta;     /* the likelihood's exponent, 0..1 (0: every world equal) */
  double floor;    /* the mixture with the uniform choice, 0..1 */
  int passes;      /* 1: the opponents' passes are evidence too; 0: plays only */
} dse_params;

typedef struct dse_pool {
  int cap;              /* worlds allocated */
  int n;                /* worlds in the pool now */
  uint64_t (*hand)[5];  /* world i's five hands */
  double *logl;         /* world i's log-likelihood (-INFINITY: impossible) */
  double *cum;          /* cumulative normalized weights; cum[n - 1] == 1 */
  double ess;           /* the weights' effective sample size, (sum w)^2 / sum w^2 */
  int replayed;         /* worlds whose history replayed (finite log-likelihood) */
  int observed;         /* opponents' actions scored in each world (the same in every world) */
} dse_pool;

/* Where action `i` of g->turn's legal list `l` stands among the playout policy's candidates
 * (the same as dmcl_policy_move's: the pass left out on a new table, or whenever something else
 * is legal under no_pass): not a candidate, or ranked by h with `above` candidates scoring
 * higher and `tied` (itself included) the same. */
typedef struct dse_rank {
  int n;          /* candidates */
  int candidate;  /* 0: the action is not among them (its probability is the floor's alone) */
  int above, tied;
} dse_rank;

/* Fills *out (the scorer's h computed whatever pol->alpha); returns out->candidate. */
int dse_action_rank(const dmcl_policy *pol, const tk_daifugo_game *g, const tk_daifugo_legal *l,
                    int i, dse_rank *out);

/* The probability that the policy with exponent `alpha` draws the action of rank `rk`, tied
 * candidates sharing their ranks' probabilities (the draw breaks ties at random), mixed with
 * the uniform choice: (1 - floor) p + floor / n. What each observed action contributes to a
 * world's likelihood, with alpha the playout policy's. */
double dse_rank_prob(const dse_rank *rk, double alpha, double floor);

/* Allocates room for `cap` worlds (cap >= 1). Returns 0, or -1 when out of memory (`pool` is
 * then empty: dse_pool_free is safe on it). */
int dse_pool_init(dse_pool *pool, int cap);
void dse_pool_free(dse_pool *pool);

/* The log-likelihood of the opponents' observed actions in the view `v` of our play decision,
 * were the hands now `hand` (a world: hand[v->player] == v->hand, counts as the view's), under
 * policy `pol` with the floor and the choice of evidence of `e`. *observed (may be NULL)
 * receives the number of actions scored. Returns 0, or -1 if the history cannot be replayed in
 * that world (a recorded play not legal there, or the turns not reaching the recorded player). */
int dse_loglik(const dse_params *e, const dmcl_policy *pol, const tk_daifugo_view *v,
               const uint64_t hand[5], int sennichite, double *logl, int *observed);

/* dse_loglik, leaving in `end` (if not NULL) the game as replayed up to our decision (the table,
 * the passes, the turn, the places as the real game has them, when the reading of the passes
 * that replays is the real one). */
int dse_replay(const dse_params *e, const dmcl_policy *pol, const tk_daifugo_view *v,
               const uint64_t hand[5], int sennichite, double *logl, int *observed,
               tk_daifugo_game *end);

/* Fills the pool with e->worlds (at most pool->cap) worlds drawn from `prior` (the deal plan of
 * `v`'s play decision, dmc_plan_play), weighted; `sennichite` is the rules' pass count. Returns
 * 0, or -1 when the pool holds no world (e->worlds or pool->cap 0). If no world can replay the
 * history (never with the plan's worlds) every world gets the same weight. */
int dse_pool_build(dse_pool *pool, const dse_params *e, int sennichite, const dmcl_policy *pol,
                   const tk_daifugo_view *v, const dmc_plan *prior, tk_rng *r);

/* Draws one world by weight (one draw from `r`): a dmc_deal_fn, `ctx` the pool. */
void dse_pool_deal(void *ctx, tk_rng *r, uint64_t hand[5]);

#endif
