/* plugins/riichi_mc/rmc.h — the decision of riichi_mc, paper 000's "previous program"
 * (../shared/specs/riichi-agents.md §2.8; docs/riichi-mc.md): the one-player policy plays the
 * opening; from the end of the opening on, every candidate move is valued by Monte Carlo
 * simulations of the rest of the hand over determinisations of the unseen tiles, every
 * simulated seat following the one-player policy and a fold rule driven by the opponent models,
 * each simulated hand valued by the expected final rank (EFR) at its end. Lower EFR is better.
 *
 * Shared by the plugin (riichi_mc.c) and its measuring tool (build/riichi_mc_bench). */
#ifndef RIICHI_MC_RMC_H
#define RIICHI_MC_RMC_H

#include <stddef.h>
#include <stdint.h>

#include "efr.h"
#include "opp.h"
#include "taikai/riichi.h"
#include "taikai/rng.h"

enum { RMC_MAX_CANDS = 48 };

typedef struct rmc_params {
  int playouts;          /* simulated hands per Monte Carlo decision, over all candidates */
  int width;             /* discards kept as candidates: the policy's best `width` ... */
  int safe;              /* ... and, when a seat is in riichi, the `safe` least dangerous ones */
  int fold_shanten;      /* a simulated seat facing a riichi folds at this shanten or worse */
  int playout_filter;    /* 1: simulated seats score only the moves of least shanten */
  int opening;           /* 1: the one-player policy plays until the opening ends (the paper) */
  double opening_dealin; /* opening condition 3: the policy's discard deals in above this */
  double opening_defr;   /* opening condition 4: its ΔEFR is above this */
  int opening_tiles;     /* opening condition 5: this many live tiles or fewer are left */
  int model_dealin;      /* 1: a candidate discard's own deal-in comes from the opponent models
                            (the simulated seats never ron it); 0: from the sampled hands */
  /* The determinisation sampler: "sampler" names it (rsamp.h), "sampler_options" (a JSON object,
   * kept as text) and "sampler_file" (a learned sampler's weights; "" = its default) configure
   * it. `sampler` is what rmc_decide calls: the engine's samplers are set at once, the others
   * by rmc_sampler_open (NULL until then). */
  const tk_riichi_sampler *sampler;
  char sampler_name[32];
  char sampler_options[512];
  char sampler_file[1024];
  /* The opening's move: NULL plays the one-player policy's (the previous program); else this
   * function chooses it from the decision and the policy's choice `policy_action` (an index in
   * l), writing an index of l to *action (paper 000's han-model openings: riichi_mcp's "efr"
   * mode). It returns 0 or a TK_E* code. */
  int (*opening_move)(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                      int policy_action, int *action, tk_error *err);
  void *opening_ctx;
} rmc_params;

/* The defaults (docs/riichi-mc.md says how they were chosen). */
rmc_params rmc_default_params(void);

/* Sets the parameter `key` of riichi_mc's list (playouts, width, safe, fold_shanten,
 * playout_filter, opening, opening_dealin, opening_defr, opening_tiles, model_dealin, sampler)
 * from the JSON value `v` (a json_t *). Returns 0 when set, 1 when `key` is not one of them, -1
 * when the value is wrong (why[0 .. cap) says what it must be). */
#define RMC_PARAM_NAMES                                                                           \
  "playouts, width, safe, fold_shanten, playout_filter, opening, opening_dealin, opening_defr, " \
  "opening_tiles, model_dealin, sampler, sampler_options, sampler_file"
int rmc_param(rmc_params *p, const char *key, const void *v, char *why, size_t cap);

/* Opens the sampler the parameters name (rs_sampler_open with their options and file) into *s
 * (the caller frees it with rs_sampler_close after the last decision) and points p->sampler at
 * it. Returns 0, or an error naming the sampler, option or file (err prefixed with `who`). */
struct rs_sampler;
int rmc_sampler_open(rmc_params *p, const char *who, struct rs_sampler **s, tk_error *err);

/* The generator of a decision's determinisations: seeded by the game's seed and the decision's
 * place in the game (round, honba, the hand's plays, the phase), so that the same game gives the
 * same moves whatever else the process did. */
void rmc_rng_of(uint64_t game_seed, const tk_riichi_view *v, tk_rng *rng);

/* The models a decision uses (borrowed). */
typedef struct rmc_models {
  const double *policy; /* the one-player policy's dense weights (ROF_FEATURES) */
  const rm_efr *efr;
  const rm_opp *opp;
} rmc_models;

/* What decisions cost, summed over calls (for the bench and the tests). */
typedef struct rmc_stats {
  uint64_t decisions;      /* calls */
  uint64_t policy_moves;   /* decided by the policy alone (opening, single candidate) */
  uint64_t mc_moves;       /* decided by simulation */
  uint64_t playouts;       /* simulated hands */
  uint64_t steps;          /* simulated decisions (actions applied in playouts) */
  uint64_t policy_calls;   /* of which the policy decided */
  uint64_t folds;          /* of which the fold rule decided */
} rmc_stats;

/* One candidate of a Monte Carlo decision, for the bench and the tests. */
typedef struct rmc_cand {
  int action;      /* index in the legal list */
  double value;    /* its EFR estimate (lower is better) */
  double dealin;   /* the models' probability that it deals in now (discards), else 0 */
  int playouts;
} rmc_cand;

typedef struct rmc_result {
  int action;      /* index in the legal list to play */
  int by_policy;   /* 1: the policy chose (opening, a single candidate) */
  int ncands;
  rmc_cand cands[RMC_MAX_CANDS];
} rmc_result;

/* The decision of the seat whose view is `v`, legal actions `l`. `opening_over` is the caller's
 * per-hand memory: 0 at the start of each hand, set to 1 here once an opening condition held (the
 * opening never resumes within the hand). `rng` draws the determinisations. Returns 0, or an
 * error (a view the sampler refuses, a malformed hand). */
int rmc_decide(const rmc_params *p, const rmc_models *m, const tk_riichi_view *v,
               const tk_riichi_legal *l, int *opening_over, tk_rng *rng, rmc_result *out,
               rmc_stats *st, tk_error *err);

/* A player's memory across the decisions of one game, as the plugins keep it: the game's seed
 * (the determinisations' generator) and the opening's state in the current hand. */
typedef struct rmc_player {
  uint64_t seed;
  int hand_round, hand_honba, opening_over;
  rmc_stats st;
} rmc_player;

/* At the start of a game. */
void rmc_player_begin(rmc_player *pl, uint64_t game_seed);

/* One decision as the plugins play it: the opening starts again at each new hand, the
 * determinisations come from rmc_rng_of, then rmc_decide. Returns the index in l to play, or -1
 * on an error (err, which may be NULL, says which). */
int rmc_player_act(rmc_player *pl, const rmc_params *p, const rmc_models *m,
                   const tk_riichi_view *v, const tk_riichi_legal *l, tk_error *err);

/* Plays the hand in progress of `g` to its end (the game between hands or over) with every
 * seat following the simulation policy; with `no_ron_tile` != TK_TILE_NONE the reactions to the
 * tile being given now pass on a ron of it. Returns 0, or TK_ESTATE if the hand did not end
 * within the bound of simulated moves (never for a game of the engine). */
int rmc_playout(const rmc_params *p, const rmc_models *m, tk_riichi_game *g, int no_ron_first,
                rmc_stats *st);

/* The simulation policy's action for `seat` in `g` (an index in l). */
int rmc_sim_policy(const rmc_params *p, const rmc_models *m, const tk_riichi_game *g, int seat,
                   const tk_riichi_legal *l, int no_ron, rmc_stats *st);

#endif
