/* tests/daifugo/test_daifugo_search.c — daifugo_search's opponent-hand estimation
 * (plugins/daifugo_search/estimate.h) on games whose five players all play the learned playout
 * policy (the default AP weights, α 0.6), so that the model of the opponents is the truth:
 * the true hands replay the history, the truth is likelier than the prior's worlds, and the
 * weighted pool puts the hidden cards with their holders more often than the prior does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daifugo_mcl/setup.h"
#include "dt.h"
#include "estimate.h"
#include "unit.h"

static dmcl_policy POL;
static tk_weights W;

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
    CU_ASSERT_FATAL(dse_pool_build(&pool, &EST, &p, &POL, &POS[i].v, &r) == 0);
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
    dse_pool_build(&pool, &prior, &p, &POL, &POS[i].v, &r);
    CU_ASSERT(fabs(pool.ess - pool.n) < 1e-9);
    double a = placed_right(&pool, &POS[i]);
    tk_rng_seed(&r, 100 + (uint64_t)i);
    dse_pool_build(&pool, &EST, &p, &POL, &POS[i].v, &r);
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
    dse_pool_build(&pool, &EST, &p, &flat, &POS[i].v, &r);
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

int main(void) {
  tk_error err = {0};
  if (dmcl_setup("test", "{\"weights\": \"" TK_MCL_DIR "/daifugo_mcl_ap.tkw\"}",
                 "daifugo_mcl_ap.tkw", (const void *)main, &POL, &W, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  sample_positions();
  CU_TestInfo tests[] = {
      {"the true hands replay the history", truth_replays},
      {"the truth is likelier than the prior's worlds", truth_is_likelier},
      {"the weighted pool places the hidden cards better than the prior", pool_places_cards_better},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("daifugo_search", tests);
  dmcl_setup_free(&POL, &W);
  free(POS);
  return rc;
}
