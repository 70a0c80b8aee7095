/* harness/stats/ratings.h — Plackett–Luce ratings from finishing orders, fitted by Hunter's MM
 * algorithm, with intervals from resampling whole clusters (walls) of games.
 *
 * A game is a finishing order of seats, each seat an agent (one agent may hold several seats),
 * best first, with tied places marked. Its likelihood under strengths g (Plackett–Luce, ties by
 * Breslow's approximation, as in Cox's partial likelihood): for each group of tied places but the
 * last, prod_{i in group} g_i / (sum_{j in group or below} g_j). The last group chooses nothing
 * (it is all that is left) and contributes 1, so a tie of every seat, or a two-seat draw, carries
 * no information. Two seats without ties: Bradley–Terry.
 * Games are added with a cluster key (the deal: all games on one wall); intervals resample
 * clusters with replacement. Identical games are stored once with a count, so a resample costs
 * one pass over the games' cluster lists plus a fit over the distinct games. */
#ifndef TAIKAI_HARNESS_RATINGS_H
#define TAIKAI_HARNESS_RATINGS_H

#include <stddef.h>
#include <stdint.h>

#include "taikai/common.h"

/* 400 / ln 10: log-strength to the Elo-like scale (a difference D: the stronger ahead of the
 * weaker with probability 1 / (1 + 10^(-D/400))). */
#define TK_ELO_PER_LOG 173.71779276130072

typedef struct tk_pl tk_pl;

/* An empty data set of `nagents` agents (>= 1). Returns NULL when out of memory. */
tk_pl *tk_pl_new(int nagents);
void tk_pl_free(tk_pl *d); /* NULL: nothing */

/* Lowers the number of agents to `nagents` (when the caller learns how many it has only after
 * adding games): every agent index added must be below it. Returns 0 or TK_EINVAL. */
int tk_pl_shrink(tk_pl *d, int nagents);

/* Adds one game: `agent[k]` holds place k (best first, n seats, 1 <= n <= 64);
 * `tie_next[k]` (k < n - 1) is 1 when place k ties with place k + 1 (NULL: no ties). Games with
 * one tie group carry no information but are counted in tk_pl_games. `cluster` groups games that
 * must be resampled together. Returns 0, TK_EINVAL (an agent out of range, n out of range) or
 * TK_ENOMEM. */
int tk_pl_add(tk_pl *d, const int *agent, const unsigned char *tie_next, int n, uint64_t cluster);

/* Games each agent took part in (counted once per game), and games and clusters in all. */
uint64_t tk_pl_agent_games(const tk_pl *d, int agent);
uint64_t tk_pl_games(const tk_pl *d);
uint64_t tk_pl_clusters(tk_pl *d); /* 0 also when out of memory */

/* How a fit is made. */
typedef struct tk_pl_opts {
  double prior;      /* virtual games per agent against a fixed agent of strength 1, half won
                      * (keeps every strength finite); 0: the plain maximum likelihood */
  double tol;        /* stop when no log-strength moves more than this (default 1e-9) */
  int max_iter;      /* default 100000 */
} tk_pl_opts;

/* Fits log-strengths theta[nagents] (natural log; centred on their mean) by MM. Returns 0, or
 * TK_ERANGE with `err` naming the agent when the plain MLE does not exist (prior 0: an agent
 * never ahead of another, or never behind), or TK_ESTATE when it did not converge. */
int tk_pl_fit(tk_pl *d, const tk_pl_opts *o, double *theta, int *iterations, tk_error *err);

/* Resampled fits: `resamples` times, draws as many clusters as there are, with replacement
 * (GSL's MT19937 seeded with `seed`), and maximises the same (penalised) likelihood on them from
 * theta0 (the full fit) by Newton steps, MM where those do not settle. Writes
 * out[r * nagents + a], centred on the mean like theta. Returns 0 or a tk_pl_fit error. */
int tk_pl_resample(tk_pl *d, const tk_pl_opts *o, const double *theta0, int resamples,
                   uint64_t seed, double *out, tk_error *err);

/* Log-likelihood of theta on the data (for tests and diagnostics). */
double tk_pl_loglik(tk_pl *d, const double *theta);

#endif
