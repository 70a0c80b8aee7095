/* plugins/daifugo_mc/dmc.h — the daifugo Monte Carlo core shared by the `daifugo_mc` and
 * `daifugo_mcl` plugins (paper 001 §2.2; docs/daifugo-agents.md): candidates, the two shortcuts,
 * a budget of N playouts per decision shared by UCB1 at the root, hidden cards dealt per playout
 * with the exchange bias, playouts until our player goes out, reward by place, and the exchange
 * decided by the same machinery. A static library (`tk_daifugo_mc`) compiled with hidden
 * visibility into each plugin. No allocation: every decision works on the stack. */
#ifndef TAIKAI_PLUGINS_DMC_H
#define TAIKAI_PLUGINS_DMC_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"

#if defined(__GNUC__)
#define DMC_HIDDEN __attribute__((visibility("hidden")))
#else
#define DMC_HIDDEN
#endif

/* A playout policy: writes g->turn's move (one of tk_daifugo_game_legal(g)'s actions; the pass
 * allowed) for a game that is not over. NULL means the paper's plain policy
 * (tk_daifugo_random_play: uniform over non-pass plays, pass only when forced). */
typedef void (*dmc_policy_fn)(void *ctx, const tk_daifugo_game *g, tk_rng *r,
                              tk_daifugo_move *out);

/* When we are ourselves one of the previous game's ranks 1..3 ("bias_self"): skip our share
 * only (the others' shares are dealt from the strongest cards), or skip the bias entirely. */
enum { DMC_SELF_SKIP_SHARE = 0, DMC_SELF_SKIP_ALL = 1 };
/* The order that defines the "strongest" unseen cards ("bias_order"): the exchange's (joker,
 * then 2 > A > … > 3 whatever the revolution), or the current one (3 strongest in revolution;
 * the joker first either way). */
enum { DMC_ORDER_NORMAL = 0, DMC_ORDER_CURRENT = 1 };
/* A share larger than the opponent's card count ("bias_overflow"): cap it (the surplus strong
 * cards join the random deal), or spill the surplus to the next ranked opponents with room. */
enum { DMC_OVERFLOW_CAP = 0, DMC_OVERFLOW_SPILL = 1 };
/* How the daifugo's two returned cards are chosen ("exchange_pair"): the two best means of one
 * evaluation of the two-card decision (the second call re-runs that evaluation from the same
 * generator state), or a fresh evaluation for the second card given the first. */
enum { DMC_PAIR_TOP2 = 0, DMC_PAIR_SEQUENTIAL = 1 };

enum { DMC_MAX_PLAYOUTS = 10000000 };

/* Every parameter of the core; the JSON name is in quotes, the default in brackets. */
typedef struct dmc_params {
  int playouts;          /* "playouts": N per play decision, 1..10^7 [1500] */
  double c;              /* "c": UCB1's balance on scores -2..+2, >= 0 [4] */
  int exchange_playouts; /* "exchange_playouts": N per exchange decision, 1..10^7 [1500] */
  int win_shortcut;      /* "win_shortcut": play a candidate that wins at once for sure [true] */
  int bias;              /* "bias": deal the strongest unseen cards 3/2/1 to ranks 1/2/3 [true] */
  int bias_self;         /* "bias_self": DMC_SELF_* "skip_share" [skip_share] | "skip_all" */
  int bias_order;        /* "bias_order": DMC_ORDER_* "normal" [normal] | "current" */
  int bias_overflow;     /* "bias_overflow": DMC_OVERFLOW_* "cap" [cap] | "spill" */
  int exchange_pair;     /* "exchange_pair": DMC_PAIR_* "top2" [top2] | "sequential" */
  int sennichite;        /* not a JSON parameter: the rules' pass count ending a game, set by the
                            plugin from tk_daifugo_info (2..255) [20] */
} dmc_params;

/* What a decision did, written by dmc_decide when `st` is not NULL (entries of the arrays beyond
 * ncand are left as they were). */
typedef struct dmc_stats {
  int playouts;      /* playouts run (0 when a shortcut fired) */
  int shortcut;      /* 0 none, 1 a single candidate, 2 a candidate that wins at once for sure */
  int ncand;         /* candidates evaluated, 0 when a shortcut fired; the daifugo's second
                        exchange call leaves out the card already given */
  uint16_t cand[TK_DAIFUGO_MAX_LEGAL];  /* candidate k's index into l->a */
  int32_t visits[TK_DAIFUGO_MAX_LEGAL]; /* playouts of candidate k */
  double mean[TK_DAIFUGO_MAX_LEGAL];    /* mean score (-2..+2) of candidate k; 0 if unvisited */
} dmc_stats;

/* The defaults above. */
DMC_HIDDEN dmc_params dmc_default_params(void);

/* Parses the JSON object text `params_json` (NULL = "{}") over the defaults into `*p`: the names
 * above, each checked. Unknown names are refused unless `extra` lists them (a NULL-terminated
 * list of names the caller parses itself, e.g. mcl's "alpha"; may be NULL). Returns 0, or
 * TK_EPARSE / TK_EINVAL with `err` naming the agent `who`, the field and the value. */
DMC_HIDDEN int dmc_params_parse_for(const char *who, const char *params_json,
                                    const char *const *extra, dmc_params *p, tk_error *err);
/* dmc_params_parse_for("daifugo_mc", params_json, NULL, p, err). */
DMC_HIDDEN int dmc_params_parse(const char *params_json, dmc_params *p, tk_error *err);

/* The decision for view `v` with legal actions `l` (a play or an exchange decision with
 * l->n >= 1): returns the index into l->a of the chosen action, or -1 if `v`/`l` describe no
 * decision we can take (l->n == 0, a view inconsistent with its counts, an exchange decision of
 * anyone but the daifugo or the fugo). Fills `st` if not NULL. `policy`
 * (NULL = the paper's plain policy) plays every move of every playout after our candidate,
 * ours included, with `ctx` passed through. Deterministic given the state of `r`, which it
 * advances (except the daifugo's first exchange call under DMC_PAIR_TOP2, which leaves `r`
 * as it found it so that the second call re-runs the same evaluation). */
DMC_HIDDEN int dmc_decide(const dmc_params *p, const tk_daifugo_view *v, const tk_daifugo_legal *l,
                          dmc_policy_fn policy, void *ctx, tk_rng *r, dmc_stats *st);

/* A source of the hidden cards of a play decision's playouts: writes the five hands of one
 * playout (our hand as the view has it, every other player's count respected, the union with
 * the played cards the deck). */
typedef void (*dmc_deal_fn)(void *ctx, tk_rng *r, uint64_t hand[5]);

/* The deal plan of a play decision, fixed for the decision: our hand, the cards we gave in the
 * exchange (unless played) with their receiver, the strongest other hidden cards by the exchange
 * bias, the rest at random, each player's count respected. Filled by dmc_plan_play; read only
 * by dmc_plan_deal. */
typedef struct dmc_plan {
  int me;
  uint64_t fixed[5];  /* cards known to be with each player: our hand, our gifts' receiver's */
  int need[5];        /* hidden cards each other player still receives */
  int npool;          /* the strongest hidden cards, cards[0..npool-1] */
  int nslot;          /* of which cards[0..nslot-1] (after the shuffle) go to slot_of[] */
  uint8_t slot_of[6]; /* the player of each slot */
  int n;              /* hidden cards, cards[0..n-1] */
  uint8_t cards[TK_DAIFUGO_CARDS];
} dmc_plan;

/* The deal plan of `v`'s play decision under `p`'s bias. Returns 0, or -1 for a view of no play
 * decision or inconsistent counts. */
DMC_HIDDEN int dmc_plan_play(const dmc_params *p, const tk_daifugo_view *v, dmc_plan *pl);

/* Deals one playout's hands from the plan (draws from `r`). */
DMC_HIDDEN void dmc_plan_deal(const dmc_plan *pl, tk_rng *r, uint64_t hand[5]);

/* Another source of a play decision's worlds. `prepare` is called once per play decision that
 * runs playouts (after the shortcuts, so never for a decision they settle), with the decision's
 * deal plan as the prior; it returns 0 to deal every playout of the decision by `deal`, or -1 to
 * keep the plan. Both receive `ctx`. */
typedef struct dmc_dealer {
  int (*prepare)(void *ctx, const tk_daifugo_view *v, const dmc_plan *prior, tk_rng *r);
  dmc_deal_fn deal;
  void *ctx;
} dmc_dealer;

/* dmc_decide with the hands of the play decisions' playouts from `dealer`; `dealer` NULL is
 * dmc_decide exactly (the same draws from `r`). The exchange's playouts keep the plan. */
DMC_HIDDEN int dmc_decide_dealt(const dmc_params *p, const tk_daifugo_view *v,
                                const tk_daifugo_legal *l, dmc_policy_fn policy, void *ctx,
                                const dmc_dealer *dealer, tk_rng *r, dmc_stats *st);

/* Deals the game one playout of a play decision starts from: tk_daifugo_determinize's game for
 * `v` (the table, turns, passes as the view has them) with every hand dealt as dmc_decide deals
 * it: our hand; the cards we gave in the exchange, unless played, with their receiver; the
 * strongest other hidden cards by the exchange bias of `p`; the rest at random, each player's
 * count respected. Returns 0, or -1 for a view of no play decision or inconsistent counts. */
DMC_HIDDEN int dmc_deal(const dmc_params *p, const tk_daifugo_view *v, tk_rng *r,
                        tk_daifugo_game *out);

/* What an agent built on this core does at begin_game: re-seeds `r` from the block's seed (once
 * per block) and takes the rules' sennichite count into `p` (when it is 2..255). */
DMC_HIDDEN void dmc_begin_game(dmc_params *p, tk_rng *r, const tk_daifugo_info *in);

/* 1 if the cards of `hand` (the joker bit included) make one play on a new table: a single, a
 * group of 2..5 of one rank, or a sequence of 3+ of one suit (the joker filling one cell). */
DMC_HIDDEN int dmc_one_play(uint64_t hand);

#endif
