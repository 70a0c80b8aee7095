/* plugins/daifugo_search/search.c — daifugo agent "daifugo_search" (docs/daifugo-search.md):
 * daifugo_mcl's Monte Carlo decision (UCB1 over the candidates, the learned playout policy of
 * paper 001) with what the UECda champions add to it:
 *   - opponent-hand estimation (estimate.h; off by default, "worlds"): the playouts' worlds
 *     drawn from a pool weighted by the likelihood of the opponents' observed plays and passes
 *     under the playout policy;
 *   - a mate test before the search: a sequence of our plays no holding of the unseen cards can
 *     interrupt is played at once (solve.h);
 *   - an exact solver of two-player endings, where the unseen cards are the one opponent's hand
 *     (solve.h): a proven win is played at once; a lost or unsolved position goes to the search.
 *
 * Parameters: those of daifugo_mcl (plugins/daifugo_mcl/mcl.c: "playouts", "c", …, "alpha",
 * "learner", "weights", "hidden", "playout_pass"), but for the play decisions' budget,
 *   "playouts"      5,000 by default, not daifugo_mcl's 1,500: the champion's largest budget,
 *                   about 25 ms of CPU a decision, and stronger than 1,500 in duplicate
 *                   against daifugo_mcl (reports/daifugo-search.md, "What each part is worth");
 * and
 *   "worlds"        worlds in the estimation pool, 0..65536 [0]; 0 deals every playout's world
 *                   afresh from the prior, as daifugo_mcl does (the default: against
 *                   daifugo_mcl and daifugo_mc no pool size was measured stronger than none,
 *                   reports/daifugo-search.md); 256 is the estimation as built;
 *   "beta"          the likelihood's exponent, 0..1 [1]; 0 weighs every world the same, so
 *                   the playouts' worlds are dealt afresh from the prior, as with "worlds" 0;
 *   "floor"         the uniform share mixed into each observed action's probability, 0..1 [0.1];
 *   "pass_evidence" the opponents' passes count as evidence, not only their plays [true];
 *   "mate"          the mate test before the search [true];
 *   "mate_nodes"    its budget: our decisions expanded, 1..65536 [256];
 *   "endgame"       the exact two-player solver before the search [true];
 *   "endgame_nodes" its budget: positions searched, 1..10^8 [200000]; a position it cannot
 *                   settle within it goes to the search;
 *   "exchange"      "learned": the daifugo's and the fugo's cards chosen by the learned exchange
 *                   policy (exchange.h) [learned]; "mc": by daifugo_mcl's Monte Carlo exchange
 *                   ("exchange_playouts" playouts);
 *   "exchange_weights" its weights file ("" = daifugo_search_exchange.tkw beside this plugin;
 *                   the referee records its SHA-256 with the run as the file "exchange");
 *   "scaled_budget" a play decision's playouts grow with its candidates k, as the champion's:
 *                   min("playouts", ceil(700 k^0.8)) (k 2: 1,219; 5: 2,536; 10: 4,411; 12 and
 *                   more: 5,000 with the default "playouts"); false: "playouts" at every
 *                   decision [false];
 *   "playout_finish" in the playouts (play and exchange), a play that empties the mover's hand
 *                   is made whenever it is legal instead of being drawn by rank (daifugo_mcl's
 *                   policy was not trained on such positions) [false].
 * Randomness: re-seeded from tk_daifugo_info.head.seed by begin_game (once per block). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dmc.h"
#include "estimate.h"
#include "exchange.h"
#include "solve.h"
#include "daifugo_mcl/policy.h"
#include "daifugo_mcl/setup.h"
#include "taikai/agent.h"
#include "taikai/weights.h"

#define WHO "daifugo_search"
#define DEFAULT_WEIGHTS "daifugo_mcl_ap.tkw"
enum { MAX_WORLDS = 65536 };
/* The play decisions' default budget: one number for the parser and the descriptor's defaults. */
#define PLAY_PLAYOUTS 5000
#define STR_(x) #x
#define STR(x) STR_(x)

/* The solvers' parameters. */
typedef struct solve_params {
  int mate, mate_nodes;
  int endgame;
  long endgame_nodes;
  int scaled; /* "scaled_budget" (not a solver's, but parsed with them) */
  int finish; /* "playout_finish" (the playout policy's, parsed here too) */
  int learned_exchange;                  /* "exchange": 1 learned, 0 mc */
  char exchange_path[4096];              /* "exchange_weights", resolved */
} solve_params;

typedef struct agent {
  dmc_params p;
  solve_params sp;
  dsol_two *two; /* the two-player solver's table (NULL when "endgame" is false) */
  dsx_model xm;  /* the learned exchange's weights (when sp.learned_exchange) */
  dmcl_policy pol;
  tk_weights w;
  dse_params e;
  dse_pool pool;
  tk_rng rng;
  long pools, unreplayed; /* pools built after a play; of them, those in which no world
                             replayed the history (the estimation then is the prior's) */
  dmc_stats st; /* the last decision's (too large for the stack of every call) */
} agent;

/* Every name the agent reads: dmc's are checked by dmc_params_parse_for, these besides. */
static const char *const extra[] = {"alpha", "learner", "weights", "hidden", "playout_pass",
                                    "worlds", "beta", "floor", "pass_evidence", "mate",
                                    "mate_nodes", "endgame", "endgame_nodes", "scaled_budget",
                                    "exchange", "exchange_weights", "playout_finish", NULL};

static const char *shown(const json_t *v, char *buf, size_t cap) {
  char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  snprintf(buf, cap, "%s", t ? t : "?");
  free(t);
  return buf;
}

/* A number in [lo, hi] for `name`, if present. */
static int unit_number(json_t *o, const char *name, double lo, double hi, double *out,
                       tk_error *err) {
  json_t *v = json_object_get(o, name);
  if (!v) return 0;
  double x = json_number_value(v);
  char got[48];
  if (!json_is_number(v) || !(x >= lo && x <= hi))
    return tk_error_set(err, TK_EINVAL, -1, WHO ": params: %s must be a number from %g to %g, "
                        "got %s", name, lo, hi, shown(v, got, sizeof got));
  *out = x;
  return 0;
}

/* A boolean for `name`, if present. */
static int flag(json_t *o, const char *name, int *out, tk_error *err) {
  json_t *v = json_object_get(o, name);
  if (!v) return 0;
  char got[48];
  if (!json_is_boolean(v))
    return tk_error_set(err, TK_EINVAL, -1, WHO ": params: %s must be true or false, got %s",
                        name, shown(v, got, sizeof got));
  *out = json_is_true(v);
  return 0;
}

/* An integer in [lo, hi] for `name`, if present. */
static int integer(json_t *o, const char *name, long lo, long hi, long *out, tk_error *err) {
  json_t *v = json_object_get(o, name);
  if (!v) return 0;
  char got[48];
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
    return tk_error_set(err, TK_EINVAL, -1, WHO ": params: %s must be an integer from %ld to "
                        "%ld, got %s", name, lo, hi, shown(v, got, sizeof got));
  *out = (long)json_integer_value(v);
  return 0;
}

/* Parses what dmc_params_parse_for does not (and "playouts" again: its default here is
 * PLAY_PLAYOUTS) over `p`, which that function has filled. */
static int own_params(const char *params_json, dmc_params *p, dse_params *e, solve_params *sp,
                      tk_error *err) {
  *e = (dse_params){.worlds = 0, .beta = 1.0, .floor = 0.1, .passes = 1};
  *sp = (solve_params){.mate = 1, .mate_nodes = DSOL_MATE_NODES, .endgame = 1,
                       .endgame_nodes = 200000, .learned_exchange = 1};
  json_error_t jerr;
  json_t *o = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!o) return tk_error_set(err, TK_EPARSE, jerr.position, WHO ": params: %s", jerr.text);
  char got[48];
  if (!json_object_get(o, "playouts")) p->playouts = PLAY_PLAYOUTS;
  long worlds = e->worlds, mate_nodes = sp->mate_nodes;
  int rc = integer(o, "worlds", 0, MAX_WORLDS, &worlds, err);
  if (!rc) rc = unit_number(o, "beta", 0, 1, &e->beta, err);
  if (!rc) rc = unit_number(o, "floor", 0, 1, &e->floor, err);
  if (!rc) rc = flag(o, "pass_evidence", &e->passes, err);
  if (!rc) rc = flag(o, "mate", &sp->mate, err);
  if (!rc) rc = integer(o, "mate_nodes", 1, 65536, &mate_nodes, err);
  if (!rc) rc = flag(o, "endgame", &sp->endgame, err);
  if (!rc) rc = integer(o, "endgame_nodes", 1, 100000000, &sp->endgame_nodes, err);
  if (!rc) rc = flag(o, "scaled_budget", &sp->scaled, err);
  if (!rc) rc = flag(o, "playout_finish", &sp->finish, err);
  json_t *v;
  if (!rc && (v = json_object_get(o, "exchange"))) {
    const char *x = json_string_value(v);
    if (x && !strcmp(x, "learned")) sp->learned_exchange = 1;
    else if (x && !strcmp(x, "mc")) sp->learned_exchange = 0;
    else rc = tk_error_set(err, TK_EINVAL, -1, WHO ": params: exchange must be \"learned\" or "
                           "\"mc\", got %s", shown(v, got, sizeof got));
  }
  if (!rc && (v = json_object_get(o, "exchange_weights"))) {
    if (!json_is_string(v))
      rc = tk_error_set(err, TK_EINVAL, -1, WHO ": params: exchange_weights must be a path (a "
                        "string), got %s", shown(v, got, sizeof got));
    else snprintf(sp->exchange_path, sizeof sp->exchange_path, "%s", json_string_value(v));
  }
  e->worlds = (int)worlds;
  sp->mate_nodes = (int)mate_nodes;
  json_decref(o);
  return rc;
}

static void destroy(tk_agent_instance *self);

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  dmc_params p;
  dse_params e;
  solve_params sp;
  if (dmc_params_parse_for(WHO, params_json, extra, &p, err) ||
      own_params(params_json, &p, &e, &sp, err))
    return NULL;
  agent *a = calloc(1, sizeof *a);
  if (!a || (e.worlds > 0 && dse_pool_init(&a->pool, e.worlds)) ||
      (sp.endgame && !(a->two = dsol_two_new(16, NULL)))) {
    if (a) dse_pool_free(&a->pool);
    free(a);
    tk_error_set(err, TK_ENOMEM, -1, WHO ": out of memory");
    return NULL;
  }
  if (dmcl_setup(WHO, params_json, DEFAULT_WEIGHTS, (const void *)create, &a->pol, &a->w, err)) {
    dse_pool_free(&a->pool);
    dsol_two_free(a->two);
    free(a);
    return NULL;
  }
  a->p = p;
  a->e = e;
  a->sp = sp;
  a->pol.finish = sp.finish;
  if (sp.learned_exchange) {
    int rc = a->sp.exchange_path[0] ? 0 : tk_weights_beside((const void *)create,
                                                           DSX_DEFAULT_WEIGHTS, a->sp.exchange_path,
                                                           sizeof a->sp.exchange_path);
    if (rc) {
      tk_error_set(err, TK_ENOTFOUND, -1, WHO ": cannot locate %s beside the plugin",
                   DSX_DEFAULT_WEIGHTS);
    } else if ((rc = dsx_load(a->sp.exchange_path, &a->xm, err))) {
      char msg[sizeof err->msg];
      snprintf(msg, sizeof msg, "%s", err->msg);
      tk_error_clear(err); /* tk_error_set keeps a first error */
      tk_error_set(err, rc, -1, WHO ": exchange_weights: %s", msg);
    }
    if (rc) {
      destroy(a);
      return NULL;
    }
  }
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  /* A view whose history cannot be replayed (a server or a bridge that fills it otherwise than
   * the engine) silently turns the estimation off: say so once. */
  if (a->unreplayed)
    fprintf(stderr, WHO ": in %ld of %ld decisions no world replayed the view's history; they "
            "were searched with the prior's worlds\n", a->unreplayed, a->pools);
  dse_pool_free(&a->pool);
  dsol_two_free(a->two);
  dmcl_setup_free(&a->pol, &a->w);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  agent *a = self;
  dmc_begin_game(&a->p, &a->rng, info);
  return 0;
}

/* The solvers before the search: the index into `l` of a move proven to take us out before the
 * others (a mate) or, with two players left, to go out first against any defence; else -1.
 * Draws nothing from the agent's generator: the game they read is the view's with the hidden
 * cards dealt by a fixed generator (the mate test reads only their number per player; with two
 * players left there is one deal). */
static int solved(agent *a, const tk_daifugo_view *v, const tk_daifugo_legal *l) {
  if (l->decision != TK_DAIFUGO_DECIDE_PLAY || l->n < 2 || (!a->sp.mate && !a->sp.endgame))
    return -1;
  tk_rng fixed;
  tk_rng_seed(&fixed, 0);
  tk_daifugo_game g;
  if (tk_daifugo_determinize(v, &fixed, a->p.sennichite, &g)) return -1;
  tk_daifugo_move m;
  int k = -1;
  if (a->sp.mate) {
    uint64_t unseen = TK_DAIFUGO_DECK & ~v->played & ~v->hand;
    if (dsol_mate(&g, v->player, unseen, a->sp.mate_nodes, &m, NULL) == 1)
      k = tk_daifugo_legal_find(l, &m);
  }
  if (k < 0 && a->sp.endgame && v->nout == 3 &&
      dsol_two_solve(a->two, &g, v->player, a->sp.endgame_nodes, &m, NULL) == 1)
    k = tk_daifugo_legal_find(l, &m);
  return k;
}

/* The estimation's world source (a dmc_dealer's prepare): the pool, built from the decision's
 * deal plan once dmc's shortcuts have not settled the decision. With nothing observed yet (no
 * play this game) or beta 0 every world weighs the same: the playouts keep the plan's fresh
 * worlds. */
static int prepare_pool(void *ctx, const tk_daifugo_view *v, const dmc_plan *prior, tk_rng *r) {
  agent *a = ctx;
  if (v->nhist == 0 || a->e.beta <= 0 ||
      dse_pool_build(&a->pool, &a->e, a->p.sennichite, &a->pol, v, prior, r))
    return -1;
  a->pools++;
  a->unreplayed += a->pool.replayed == 0;
  return 0;
}

static void deal_pool(void *ctx, tk_rng *r, uint64_t hand[5]) {
  dse_pool_deal(&((agent *)ctx)->pool, r, hand);
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_daifugo_view *v = view;
  const tk_daifugo_legal *l = legal;
  int k = solved(a, v, l);
  if (k < 0 && a->sp.learned_exchange && l->decision == TK_DAIFUGO_DECIDE_EXCHANGE)
    k = dsx_choose(&a->xm, v, l); /* -1 for a decision it does not know: the search takes it */
  if (k >= 0) {
    *(tk_daifugo_move *)action = l->a[k];
    return 0;
  }
  dmc_params p = a->p;
  if (a->sp.scaled && l->decision == TK_DAIFUGO_DECIDE_PLAY) {
    int cands = l->n - (l->lead ? 1 : 0); /* the pass is no candidate on a new table */
    double want = ceil(700.0 * pow(cands, 0.8));
    if (want < p.playouts) p.playouts = (int)want;
  }
  dmc_dealer dealer = {prepare_pool, deal_pool, a};
  k = dmc_decide_dealt(&p, v, l, dmcl_policy_move, &a->pol, a->e.worlds > 0 ? &dealer : NULL,
                       &a->rng, &a->st);
  if (k < 0) return l->n == 0 ? TK_ESTATE : TK_EINVAL;
  *(tk_daifugo_move *)action = l->a[k];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const char *file(tk_agent_instance *self, int i, const char **role) {
  agent *a = self;
  if (i == 0 && a->sp.learned_exchange) {
    *role = "exchange";
    return a->sp.exchange_path;
  }
  return NULL;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = WHO,
    .version = "0.4.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: Monte Carlo with learned playouts, a mate test, an exact "
                   "two-player solver and a learned exchange; opponent-hand estimation as an "
                   "option (past paper 001)",
    .params_json = "{\"playouts\": " STR(PLAY_PLAYOUTS) ", \"c\": 4.0, \"exchange_playouts\": 1500, "
                   "\"win_shortcut\": true, \"bias\": true, \"bias_self\": \"skip_share\", "
                   "\"bias_order\": \"normal\", \"bias_overflow\": \"cap\", "
                   "\"exchange_pair\": \"top2\", \"alpha\": 0.6, \"learner\": \"ap\", "
                   "\"weights\": \"\", \"hidden\": 16, \"playout_pass\": true, \"worlds\": 0, "
                   "\"beta\": 1.0, \"floor\": 0.1, \"pass_evidence\": true, \"mate\": true, "
                   "\"mate_nodes\": 256, \"endgame\": true, \"endgame_nodes\": 200000, "
                   "\"scaled_budget\": false, \"exchange\": \"learned\", "
                   "\"exchange_weights\": \"\", \"playout_finish\": false}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
    .file = file,
};

TK_AGENT_ENTRY(daifugo_search) { return &descriptor; }
