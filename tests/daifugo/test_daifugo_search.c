/* tests/daifugo/test_daifugo_search.c — daifugo_search: its opponent-hand estimation
 * (plugins/daifugo_search/estimate.h) on games whose five players all play the learned playout
 * policy (the default AP weights, α 0.6), so that the model of the opponents is the truth (the
 * true hands replay the history to the real game, the truth is likelier than the prior's
 * worlds, the weighted pool puts the hidden cards with their holders more often than the prior
 * and than a model that knows nothing of the players); the plugin (linked statically): its
 * parameter errors, the solvers deciding before the search, a decision replaying from its seed;
 * and a short tournament through the `taikai` binary, the same bytes with 1 and 2 workers. */
#include <math.h>

#include "daifugo_mcl/setup.h"
#include "dt.h"
#include "e2e_util.h"
#include "estimate.h"
#include "exchange.h"
#include "taikai/agent.h"

const tk_agent_descriptor *taikai_agent_entry_daifugo_search(void);
#define AP_FILE TK_MCL_DIR "/daifugo_mcl_ap.tkw"

static dmcl_policy POL;
static tk_weights WTS;

/* A play decision met in self-play of the policy, with the true hands at that moment. */
typedef struct position {
  tk_daifugo_view v;
  uint64_t truth[5];
  tk_daifugo_game game; /* the real game at that moment */
} position;

enum { NPOS = 200 };
static position *POS;
static int npos;

/* Plays seeded blocks of 3 games (two with an exchange, whose cards go by the referee's
 * fallback) with every play drawn from POL, keeping every 7th play decision of a player with
 * more than one legal action once at least 6 plays are recorded. */
static void sample_positions(void) {
  POS = calloc(NPOS, sizeof *POS);
  tk_daifugo_block *b = malloc(sizeof *b);
  tk_daifugo_legal *l = malloc(sizeof *l);
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 3;
  tk_rng r;
  tk_rng_seed(&r, 41);
  int seen = 0;
  for (uint64_t blk = 0; npos < NPOS && blk < 1000; blk++) {
    tk_daifugo_block_init(b, &rules, 2026, blk, NULL);
    while (!tk_daifugo_is_over(b) && npos < NPOS) {
      int who = tk_daifugo_to_act(b);
      tk_daifugo_legal_of(b, who, l);
      tk_daifugo_move m;
      if (l->decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
        m = tk_daifugo_fallback(l);
      } else {
        tk_daifugo_view_of(b, who, &POS[npos].v);
        if (l->n > 2 && POS[npos].v.nhist >= 6 && ++seen % 7 == 0) {
          memcpy(POS[npos].truth, b->g.hand, sizeof POS[npos].truth);
          POS[npos].game = b->g;
          npos++;
        }
        dmcl_policy_move(&POL, &b->g, &r, &m);
      }
      if (tk_daifugo_apply(b, who, &m, NULL)) TK_FAILF("block %llu: a move refused",
                                                       (unsigned long long)blk);
    }
  }
  free(b);
  free(l);
}

static const dse_params EST = {.worlds = 64, .beta = 1.0, .floor = 0.1, .passes = 1};

static void truth_replays(void) {
  int bad = 0, empty = 0, other = 0;
  for (int i = 0; i < npos; i++) {
    double ll;
    int obs;
    tk_daifugo_game end;
    if (dse_replay(&EST, &POL, &POS[i].v, POS[i].truth, 20, &ll, &obs, &end) || !isfinite(ll) ||
        ll > 0) {
      bad++;
      continue;
    }
    empty += obs == 0;
    const tk_daifugo_game *t = &POS[i].game;
    if (memcmp(end.hand, t->hand, sizeof end.hand) || end.top.kind != t->top.kind ||
        end.top.cards != t->top.cards || end.passed != t->passed || end.out != t->out ||
        end.turn != t->turn || end.owner != t->owner || end.lock != t->lock ||
        end.rev != t->rev || end.npass != t->npass || end.nout != t->nout ||
        memcmp(end.order, t->order, t->nout))
      other++;
  }
  TK_EQ(other, 0, "positions whose replay differs from the real game");
  TK_EQ(npos, NPOS, "positions sampled");
  TK_EQ(bad, 0, "positions whose true hands do not replay to a finite log-likelihood <= 0");
  TK_EQ(empty, 0, "positions with no opponent action scored");
  /* A history naming a player who does not exist replays in no world. */
  tk_daifugo_view v = POS[0].v;
  v.hist[v.nhist - 1].player = 7;
  double ll;
  TK_EQ(dse_loglik(&EST, &POL, &v, POS[0].truth, 20, &ll, NULL), -1, "a history naming player 7");
}

/* The pool of `v`'s play decision as daifugo_search builds it: from the decision's deal plan. */
static int pool_build(dse_pool *pool, const dse_params *e, const dmc_params *p,
                      const dmcl_policy *pol, const tk_daifugo_view *v, tk_rng *r) {
  dmc_plan pl;
  if (dmc_plan_play(p, v, &pl)) return -1;
  return dse_pool_build(pool, e, p->sennichite, pol, v, &pl, r);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The truth against the prior's worlds: above their median in most positions (a likelihood
 * that carried no information would be above it in about half). */
static void truth_is_likelier(void) {
  dmc_params p = dmc_default_params();
  dse_pool pool;
  CU_ASSERT_FATAL(dse_pool_init(&pool, EST.worlds) == 0);
  tk_rng r;
  tk_rng_seed(&r, 5);
  int above = 0;
  for (int i = 0; i < npos; i++) {
    double ll, sorted[64];
    dse_loglik(&EST, &POL, &POS[i].v, POS[i].truth, 20, &ll, NULL);
    CU_ASSERT_FATAL(pool_build(&pool, &EST, &p, &POL, &POS[i].v, &r) == 0);
    memcpy(sorted, pool.logl, sizeof sorted);
    qsort(sorted, 64, sizeof sorted[0], cmp_double);
    above += ll > (sorted[31] + sorted[32]) / 2;
  }
  printf("\n  the truth above the prior worlds' median log-likelihood in %d of %d positions\n",
         above, npos);
  if (above < npos * 3 / 4) TK_FAILF("the truth above the median in only %d of %d", above, npos);
  dse_pool_free(&pool);
}

/* Expected share of the hidden cards (those neither ours nor played) that the pool puts with
 * their true holder, each world counted by its weight. */
static double placed_right(const dse_pool *pool, const position *pos) {
  uint64_t hidden = TK_DAIFUGO_DECK & ~pos->v.played & ~pos->v.hand;
  int n = __builtin_popcountll(hidden);
  double acc = 0, prev = 0;
  for (int w = 0; w < pool->n; w++) {
    int right = 0;
    for (int q = 0; q < 5; q++)
      if (q != pos->v.player) right += __builtin_popcountll(pool->hand[w][q] & pos->truth[q]);
    acc += (pool->cum[w] - prev) * right / n;
    prev = pool->cum[w];
  }
  return acc;
}

static void pool_places_cards_better(void) {
  dmc_params p = dmc_default_params();
  dse_pool pool;
  CU_ASSERT_FATAL(dse_pool_init(&pool, EST.worlds) == 0);
  dse_params prior = EST;
  prior.beta = 0;
  double with = 0, without = 0;
  int better = 0;
  for (int i = 0; i < npos; i++) {
    tk_rng r;
    tk_rng_seed(&r, 100 + (uint64_t)i); /* the same 64 worlds, weighted or not */
    pool_build(&pool, &prior, &p, &POL, &POS[i].v, &r);
    CU_ASSERT(fabs(pool.ess - pool.n) < 1e-9);
    double a = placed_right(&pool, &POS[i]);
    tk_rng_seed(&r, 100 + (uint64_t)i);
    pool_build(&pool, &EST, &p, &POL, &POS[i].v, &r);
    CU_ASSERT(pool.ess >= 1 && pool.ess <= pool.n);
    double b = placed_right(&pool, &POS[i]);
    without += a, with += b, better += b > a;
  }
  /* The same worlds weighted by a model that knows nothing of the players (every candidate
   * alike): what the legal lists alone tell. The players follow POL, so POL must do better. */
  dmcl_policy flat = POL;
  flat.alpha = 1;
  double blind = 0;
  for (int i = 0; i < npos; i++) {
    tk_rng r;
    tk_rng_seed(&r, 100 + (uint64_t)i);
    pool_build(&pool, &EST, &p, &flat, &POS[i].v, &r);
    blind += placed_right(&pool, &POS[i]);
  }
  printf("  hidden cards with their holder: %.4f of them weighted by the policy, %.4f by a "
         "uniform model, %.4f by the prior alone; the policy's weights better than the prior in "
         "%d of %d positions\n", with / npos, blind / npos, without / npos, better, npos);
  if (!(with > blind && blind > without))
    TK_FAILF("the pool places %.4f (policy), %.4f (uniform model), %.4f (prior)", with / npos,
             blind / npos, without / npos);
  dse_pool_free(&pool);
}

/* ------------------------------------------------------------ the plugin */

/* The view of g->turn's play decision in a game set up from hands (no history, no exchange). */
static void view_of(const tk_daifugo_game *g, tk_daifugo_view *v, tk_daifugo_legal *l) {
  memset(v, 0, sizeof *v);
  int p = g->turn;
  v->player = (uint8_t)p;
  v->decision = TK_DAIFUGO_DECIDE_PLAY;
  v->turn = g->turn, v->owner = g->owner, v->passed = g->passed, v->out = g->out;
  v->nout = g->nout, v->rev = g->rev, v->lock = g->lock, v->npass = g->npass;
  for (int q = 0; q < 5; q++) {
    v->count[q] = (uint8_t)__builtin_popcountll(g->hand[q]);
    v->seat_of[q] = g->seat_of[q];
    v->cls[q] = TK_DAIFUGO_NOBODY;
    v->order[q] = q < g->nout ? g->order[q] : TK_DAIFUGO_NOBODY;
  }
  v->hand = g->hand[p];
  v->played = g->played;
  v->top = g->top;
  tk_daifugo_game_legal(g, l);
}

/* The plugin's move for `v` with `params` (the weights file added) and `seed`, in notation. */
static const char *decide(const char *params, uint64_t seed, const tk_daifugo_view *v,
                          const tk_daifugo_legal *l) {
  static char out[64];
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_search();
  char full[1024];
  snprintf(full, sizeof full, "{\"weights\": \"%s\", \"exchange_weights\": \"%s\"%s%s}", AP_FILE,
           TK_SEARCH_DIR "/daifugo_search_exchange.tkw", *params ? ", " : "", params);
  tk_error err = {0};
  tk_agent_instance *a = d->create(full, seed, &err);
  if (!a) {
    TK_FAILF("create %s: %s", full, err.msg);
    return "-";
  }
  tk_daifugo_move m;
  int rc = d->act(a, v, l, &m);
  d->destroy(a);
  if (rc) return "error";
  tk_daifugo_move_str(&m, out, sizeof out);
  return out;
}

static void plugin_params(void) {
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_search();
  static const struct {
    const char *params, *want;
  } bad[] = {
      {"{\"worlds\": -1}", "worlds must be an integer from 0 to 65536, got -1"},
      {"{\"beta\": 2}", "beta must be a number from 0 to 1, got 2"},
      {"{\"floor\": \"x\"}", "floor must be a number from 0 to 1, got \"x\""},
      {"{\"mate\": 1}", "mate must be true or false, got 1"},
      {"{\"endgame_nodes\": 0}", "endgame_nodes must be an integer from 1 to 100000000, got 0"},
      {"{\"alpha\": 3}", "alpha must be a number from 0 to 1, got 3"},
      {"{\"playouts\": 0}", "playouts"},
      {"{\"wrolds\": 5}", "wrolds"},
      {"{\"weights\": \"/nonexistent/w.tkw\"}", "/nonexistent/w.tkw"},
      {"{\"exchange\": \"greedy\"}", "exchange must be \"learned\" or \"mc\", got \"greedy\""},
      {"{\"weights\": \"" AP_FILE "\", \"exchange_weights\": \"/nonexistent/x.tkw\"}",
       "exchange_weights: "},
      {"{\"weights\": \"" AP_FILE "\", \"exchange_weights\": \"" AP_FILE "\"}",
       "exchange_weights: "}, /* another model's file */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tk_error err = {0};
    tk_agent_instance *a = d->create(bad[i].params, 1, &err);
    if (a) {
      TK_FAILF("%s: accepted", bad[i].params);
      d->destroy(a);
    } else if (!strstr(err.msg, bad[i].want) || !strstr(err.msg, "daifugo_search")) {
      TK_FAILF("%s: message '%s' (expected daifugo_search and '%s')", bad[i].params, err.msg,
               bad[i].want);
    }
  }
}

/* With one playout the search is all but blind; the solvers are not. Over ten seeds the mate
 * and the only winning move of a two-player ending are always played with the solvers on, and
 * not always with them off (which shows the positions test the solvers, not the search). */
static void solvers_decide(void) {
  tk_daifugo_game g;
  tk_daifugo_view v;
  tk_daifugo_legal *l = malloc(sizeof *l);
  /* A mate (test_daifugo_solve's): the 2 first (unbeatable: the joker is ours), then the
   * joker and the pair; 13 candidates. */
  dt_game(&g, "H2 JK C4 D4", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  view_of(&g, &v, l);
  int off_differs = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    const char *m = decide("\"playouts\": 1, \"worlds\": 0, \"win_shortcut\": false", seed,
                           &v, l);
    if (strcmp(m, "H2") && strncmp(m, "H2 JK[", 6))
      TK_FAILF("seed %llu: the mate's first move is H2, played %s", (unsigned long long)seed, m);
    /* (daifugo_mcl's one-play shortcut finds this one too: H2 leaves one play, JK C4 D4) */
    m = decide("\"playouts\": 1, \"worlds\": 0, \"mate\": false, \"win_shortcut\": false",
               seed, &v, l);
    off_differs += strcmp(m, "H2") && strncmp(m, "H2 JK[", 6);
  }
  if (!off_differs) TK_FAILF("without the mate test and the shortcut one playout also played H2 "
                             "ten times");
  /* Two players left: over the opponent's 7, only the 9 wins (solve.h's tests check why). */
  uint64_t h0 = dt_cards("S4 S2 C9"), h1 = dt_cards("SK SA C7");
  uint64_t hand[5] = {h0, h1, TK_DAIFUGO_DECK & ~h0 & ~h1, 0, 0};
  uint8_t seats[5] = {0, 1, 2, 3, 4};
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, hand, seats, 1, 20, 1, NULL), 0);
  /* players 2, 3, 4 out, their cards played */
  g.played = hand[2];
  g.hand[2] = 0;
  g.out = 1u << 2 | 1u << 3 | 1u << 4;
  g.order[0] = 2, g.order[1] = 3, g.order[2] = 4, g.nout = 3;
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 1, "C7"), 0);
  view_of(&g, &v, l);
  off_differs = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    const char *m = decide("\"playouts\": 1, \"worlds\": 0, \"mate\": false", seed, &v, l);
    if (strcmp(m, "C9")) TK_FAILF("seed %llu: the winning move is C9, played %s",
                                  (unsigned long long)seed, m);
    m = decide("\"playouts\": 1, \"worlds\": 0, \"mate\": false, \"endgame\": false", seed,
               &v, l);
    off_differs += strcmp(m, "C9") != 0;
  }
  if (!off_differs) TK_FAILF("without the solver one playout also played C9 ten times");
  free(l);
}

/* The same seed, the same decisions: the pool and the search draw only from the agent's
 * generator, and nothing of one instance's decisions leaks into another's. */
static void decisions_replay(void) {
  tk_daifugo_legal *l = malloc(sizeof *l);
  for (int i = 0; i < 12; i++) {
    const tk_daifugo_view *v = &POS[i * 13].v;
    tk_daifugo_game g = POS[i * 13].game;
    tk_daifugo_game_legal(&g, l);
    char a[64], b[64];
    snprintf(a, sizeof a, "%s", decide("\"playouts\": 200", 7, v, l));
    snprintf(b, sizeof b, "%s", decide("\"playouts\": 200", 7, v, l));
    if (strcmp(a, b)) TK_FAILF("position %d: seed 7 played %s, then %s", i * 13, a, b);
    else CU_PASS("the same move");
  }
  free(l);
}

/* The play decisions' budget is 5,000 playouts unless "playouts" says otherwise: on the same
 * positions and seed the defaults play what "playouts": 5000 plays, and somewhere not what 1,500
 * plays (the budgets' searches part ways). */
static void default_budget(void) {
  tk_daifugo_legal *l = malloc(sizeof *l);
  int differs = 0;
  for (int i = 0; i < 12; i++) {
    const tk_daifugo_view *v = &POS[i * 13].v;
    tk_daifugo_game g = POS[i * 13].game;
    tk_daifugo_game_legal(&g, l);
    char d[64], a[64], b[64];
    snprintf(d, sizeof d, "%s", decide("", 11, v, l));
    snprintf(a, sizeof a, "%s", decide("\"playouts\": 5000", 11, v, l));
    snprintf(b, sizeof b, "%s", decide("\"playouts\": 1500", 11, v, l));
    if (strcmp(d, a)) TK_FAILF("position %d: the defaults played %s, 5,000 playouts %s", i * 13, d, a);
    else CU_PASS("the defaults play 5,000 playouts' move");
    differs += strcmp(d, b) != 0;
  }
  printf("  the defaults and 1,500 playouts part in %d of 12 positions\n", differs);
  CU_ASSERT(differs > 0);
  free(l);
}

/* The exchange decisions of seeded blocks: with "exchange" learned the plugin gives the card of
 * dsx_choose on the shipped weights; with "mc" it searches (and gives another card somewhere:
 * the MC exchange agrees with the policy about 7 times in 10). */
static void learned_exchange(void) {
  dsx_model xm;
  tk_error err = {0};
  if (dsx_load(TK_SEARCH_DIR "/daifugo_search_exchange.tkw", &xm, &err)) {
    TK_FAILF("%s", err.msg);
    return;
  }
  tk_daifugo_block *b = malloc(sizeof *b);
  tk_daifugo_legal *l = malloc(sizeof *l);
  tk_daifugo_view *v = malloc(sizeof *v);
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 3;
  int n = 0, same = 0, mc_differs = 0;
  for (uint64_t blk = 0; blk < 6; blk++) {
    tk_daifugo_block_init(b, &rules, 77, blk, NULL);
    while (!tk_daifugo_is_over(b)) {
      int who = tk_daifugo_to_act(b);
      tk_daifugo_legal_of(b, who, l);
      tk_daifugo_move m = tk_daifugo_fallback(l);
      if (l->decision == TK_DAIFUGO_DECIDE_EXCHANGE && l->n > 1) {
        tk_daifugo_view_of(b, who, v);
        char want[64], got[64], mc[64];
        tk_daifugo_move_str(&l->a[dsx_choose(&xm, v, l)], want, sizeof want);
        snprintf(got, sizeof got, "%s", decide("", 3, v, l));
        snprintf(mc, sizeof mc, "%s",
                 decide("\"exchange\": \"mc\", \"exchange_playouts\": 300", 3, v, l));
        n++, same += !strcmp(want, got), mc_differs += strcmp(want, mc) != 0;
        m = l->a[dsx_choose(&xm, v, l)];
      }
      tk_daifugo_apply(b, who, &m, NULL);
    }
  }
  free(b), free(l), free(v);
  TK_EQ(same, n, "exchange decisions where the plugin gave the policy's card");
  if (n < 10 || !mc_differs)
    TK_FAILF("%d exchange decisions, %d where the MC exchange differs from the policy", n,
             mc_differs);
}

/* A short duplicate tournament through the binary (small budgets): every unit played, and the
 * games the same bytes with one worker and with two. */
static void tournament(void) {
  char spec[1024], a[1 << 16], b[1 << 16];
  for (int j = 1; j <= 2; j++) {
    snprintf(spec, sizeof spec,
             "{\"game\": \"daifugo\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"daifugo_search\", \"label\": \"search\", \"params\": "
             "{\"playouts\": 60, \"exchange_playouts\": 60, \"worlds\": 32}}], "
             "\"rules\": {\"block_games\": 4}, \"output\": \"%s\"}\n",
             W(j == 1 ? "run1" : "run2"));
    write_file(W("search.json"), spec);
    /* the first run keeps the decisions too, for the model fit below */
    const char *args[] = {"run", W("search.json"), "-j", j == 1 ? "1" : "2", "--quiet",
                          j == 1 ? "--records" : NULL, NULL};
    int rc = taikai(args);
    if (rc) TK_FAILF("taikai run -j %d: exit %d: %s", j, rc, err_buf);
  }
  json_t *lines[8];
  int n = load_lines(W("run1/games.jsonl"), lines, 8);
  TK_EQ(n, 5, "units of one duplicate wall");
  for (int i = 0; i < n; i++) json_decref(lines[i]);
  slurp(W("run1/games.jsonl"), a, sizeof a);
  slurp(W("run2/games.jsonl"), b, sizeof b);
  if (!a[0] || strcmp(a, b)) TK_FAILF("games.jsonl differs between -j 1 and -j 2");
  slurp(W("run1/spec.json"), a, sizeof a);
  if (!strstr(a, "daifugo_search_exchange.tkw") || !strstr(a, "\"exchange\""))
    TK_FAILF("spec.json does not record the exchange weights file: %.600s", a);
}

/* Runs daifugo_search_model_fit with `args`; its stdout in out_buf, stderr in err_buf. */
static int model_fit(const char *args) { return run_program(TK_FIT_BIN, args); }

/* The value after `label` in `text` as a double, or NAN. */
static double value_after(const char *text, const char *label) {
  const char *p = strstr(text, label);
  return p ? strtod(p + strlen(label), NULL) : NAN;
}

/* daifugo_search_model_fit on the records of the tournament above: the search's recorded plays
 * (60 playouts of the learned policy) are better predicted by the policy's ranks than by the
 * uniform choice, and the best alpha is below 1; bad input exits 2 naming it. */
static void fit_tool(void) {
  char args[2048];
  snprintf(args, sizeof args, "--agent search '%s'", W("run1/records.tkr"));
  int rc = model_fit(args);
  if (rc) {
    TK_FAILF("exit %d: %s", rc, err_buf);
    return;
  }
  double uniform = value_after(out_buf, "(uniform choice: ");
  const char *b = strstr(out_buf, "best: alpha ");
  double best_alpha = NAN, best_floor = NAN, best_ll = NAN;
  if (!b || sscanf(b, "best: alpha %lf, floor %lf: %lf", &best_alpha, &best_floor, &best_ll) != 3)
    TK_FAILF("no line 'best: alpha A, floor F: LL': %s", out_buf);
  long n = strtol(out_buf, NULL, 10);
  printf("\n  %ld decisions; uniform %.4f, best %.4f (alpha %.1f) per decision\n", n, uniform,
         best_ll, best_alpha);
  if (n < 50 || !(best_ll > uniform + 0.05) || !(best_alpha < 1.0))
    TK_FAILF("the policy's ranks predict no better than the uniform choice: %s", out_buf);
  static const struct {
    const char *args, *want;
  } bad[] = {
      {"--agent nobody REC", "no agent labelled 'nobody'"},
      {"/nonexistent.tkr", "/nonexistent.tkr"},
      {"--weights /nonexistent.tkw REC", "/nonexistent.tkw"},
      {"", "no records file given"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char a[2048];
    const char *r = strstr(bad[i].args, "REC");
    if (r)
      snprintf(a, sizeof a, "%.*s'%s'", (int)(r - bad[i].args), bad[i].args,
               W("run1/records.tkr"));
    else snprintf(a, sizeof a, "%s", bad[i].args);
    rc = model_fit(a);
    if (rc != 2 || !strstr(err_buf, bad[i].want))
      TK_FAILF("%s: exit %d, stderr '%s' (expected 2 and '%s')", bad[i].args, rc, err_buf,
               bad[i].want);
  }
}

/* For every sampled decision and several alpha and floor, the probabilities the model gives the
 * legal actions sum to 1 (ties share their ranks; the pass on a new table gets the floor's share
 * only, the n candidates the rest). */
static void model_sums_to_one(void) {
  static const double AF[][2] = {{0.6, 0.1}, {0.3, 0.0}, {0.9, 0.3}, {1.0, 0.2}, {0.0, 0.05}};
  tk_daifugo_legal *l = malloc(sizeof *l);
  int bad = 0;
  for (int i = 0; i < npos; i++) {
    tk_daifugo_game g = POS[i].game;
    tk_daifugo_game_legal(&g, l);
    for (size_t c = 0; c < sizeof AF / sizeof *AF; c++) {
      double sum = 0;
      int lead = g.top.kind == TK_DAIFUGO_PASS && l->n > 1;
      for (int k = 0; k < l->n; k++) {
        dse_rank rk;
        dse_action_rank(&POL, &g, l, k, &rk);
        sum += dse_rank_prob(&rk, AF[c][0], AF[c][1]);
      }
      /* the pass of a new table is no candidate: its floor share is what is missing from 1 */
      double want = lead ? 1.0 + AF[c][1] / (l->n - 1) : 1.0;
      if (fabs(sum - want) > 1e-9 && bad++ < 3)
        TK_FAILF("position %d, alpha %.1f floor %.2f: the %d actions sum to %.12f, not %.12f", i,
                 AF[c][0], AF[c][1], l->n, sum, want);
    }
  }
  free(l);
  TK_EQ(bad, 0, "decisions whose probabilities do not sum to 1");
}

/* The playout policy with `finish` set goes out whenever a play empties the hand; without it, the
 * learned ranking (never trained on such positions) often declines. Positions: each sampled
 * game with the mover's hand cut down to one of its legal plays (which then empties it). */
static void policy_finishes(void) {
  tk_daifugo_legal *l = malloc(sizeof *l);
  dmcl_policy fin = POL;
  fin.finish = 1;
  int n = 0, declined = 0, bad = 0;
  for (int i = 0; i < npos; i++) {
    tk_daifugo_game g = POS[i].game;
    tk_daifugo_game_legal(&g, l);
    int k = l->n - 1; /* the list's last play */
    if (k < 1 || l->a[k].kind == TK_DAIFUGO_PASS) continue;
    tk_daifugo_move out = l->a[k];
    g.hand[g.turn] = out.cards; /* the cards left elsewhere do not matter to the draw */
    for (uint64_t s = 0; s < 20; s++) {
      tk_rng r;
      tk_rng_seed(&r, s);
      tk_daifugo_move m;
      dmcl_policy_move(&fin, &g, &r, &m);
      if (m.kind == TK_DAIFUGO_PASS || m.cards != out.cards) bad++;
      tk_rng_seed(&r, s);
      dmcl_policy_move(&POL, &g, &r, &m);
      declined += m.kind == TK_DAIFUGO_PASS || m.cards != out.cards;
      n++;
    }
  }
  free(l);
  printf("\n  %d draws where a play empties the hand: the policy without finish declines %d, "
         "with it %d\n", n, declined, bad);
  TK_EQ(bad, 0, "draws where the finishing policy did not go out");
  if (n < 100 || declined == 0)
    TK_FAILF("%d draws, %d declined without finish: the test shows nothing", n, declined);
}

int main(void) {
  tk_error err = {0};
  if (e2e_begin(TK_WORK_DIR "-search")) return 1;
  if (dmcl_setup("test", "{\"weights\": \"" AP_FILE "\"}",
                 "daifugo_mcl_ap.tkw", (const void *)main, &POL, &WTS, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  sample_positions();
  CU_TestInfo tests[] = {
      {"the true hands replay the history", truth_replays},
      {"the truth is likelier than the prior's worlds", truth_is_likelier},
      {"the weighted pool places the hidden cards better than the prior", pool_places_cards_better},
      {"the model's probabilities of a decision's actions sum to 1", model_sums_to_one},
      {"playout_finish: the playout policy goes out whenever it can", policy_finishes},
      {"plugin: parameter errors name the field and the value", plugin_params},
      {"plugin: the mate test and the two-player solver decide before the search", solvers_decide},
      {"plugin: a decision replays from its seed", decisions_replay},
      {"plugin: 5,000 playouts a play decision by default", default_budget},
      {"plugin: the learned exchange gives the policy's card", learned_exchange},
      {"a short tournament through taikai, the same bytes with 1 and 2 workers", tournament},
      {"daifugo_search_model_fit on that tournament's records", fit_tool},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("daifugo_search", tests);
  dmcl_setup_free(&POL, &WTS);
  free(POS);
  return rc;
}
