/* plugins/daifugo_search/estimate.c — the weighted pool of worlds (estimate.h). */
#include "estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int dse_pool_init(dse_pool *pool, int cap) {
  memset(pool, 0, sizeof *pool);
  if (cap < 1) return -1;
  pool->hand = malloc(sizeof pool->hand[0] * (size_t)cap);
  pool->logl = malloc(sizeof pool->logl[0] * (size_t)cap);
  pool->cum = malloc(sizeof pool->cum[0] * (size_t)cap);
  if (!pool->hand || !pool->logl || !pool->cum) {
    dse_pool_free(pool);
    return -1;
  }
  pool->cap = cap;
  return 0;
}

void dse_pool_free(dse_pool *pool) {
  free(pool->hand);
  free(pool->logl);
  free(pool->cum);
  memset(pool, 0, sizeof *pool);
}

int dse_action_rank(const dmcl_policy *pol, const tk_daifugo_game *g, const tk_daifugo_legal *l,
                    int i, dse_rank *out) {
  int first = (g->top.kind == TK_DAIFUGO_PASS || pol->no_pass) && l->n > 1 ? 1 : 0;
  out->n = l->n - first;
  out->above = 0;
  out->tied = 1;
  if (i < first) return out->candidate = 0;
  out->candidate = 1;
  if (out->n <= 1) return 1;
  dmcl_pos pos;
  if (pol->md.learner == DMCL_AP) dmcl_pos_of_game_core(g, &pos);
  else dmcl_pos_of_game(g, &pos);
  dmcl_scorer s;
  dmcl_scorer_init(&s, &pol->md, &pos);
  double key[TK_DAIFUGO_MAX_LEGAL];
  dmcl_scorer_keys(&s, l->a + first, out->n, key);
  double mine = key[i - first];
  int above = 0, tied = 0;
  for (int j = 0; j < out->n; j++) above += key[j] > mine, tied += key[j] == mine;
  out->above = above;
  out->tied = tied;
  return 1;
}

double dse_rank_prob(const dse_rank *rk, double alpha, double floor) {
  int n = rk->n;
  if (n <= 1 && rk->candidate) return 1.0;
  double p = 0.0;
  if (!rk->candidate) {
    p = 0.0;
  } else if (alpha >= 1) {
    p = 1.0 / n;
  } else {
    for (int k = rk->above; k < rk->above + rk->tied; k++) p += dmcl_rank_prob(alpha, n, k + 1);
    p /= rk->tied;
  }
  return (1.0 - floor) * p + floor / n;
}

/* P(the playout policy `pol` draws action `i` of g->turn's legal list `l`), floored (estimate.h:
 * dse_action_rank, dse_rank_prob); with alpha 1 the ranks are not computed. */
static double action_prob(const dse_params *e, const dmcl_policy *pol, const tk_daifugo_game *g,
                          const tk_daifugo_legal *l, int i) {
  dse_rank rk;
  if (pol->alpha >= 1) {
    int first = (g->top.kind == TK_DAIFUGO_PASS || pol->no_pass) && l->n > 1 ? 1 : 0;
    rk.n = l->n - first, rk.above = 0, rk.tied = 1, rk.candidate = i >= first;
  } else {
    dse_action_rank(pol, g, l, i, &rk);
  }
  return dse_rank_prob(&rk, pol->alpha, e->floor);
}

/* One replay of a view's history in one world. */
typedef struct replay {
  const dse_params *e;
  const dmcl_policy *pol;
  const tk_daifugo_view *v;
  int steps;              /* actions replayed so far, over every branch */
  int max_steps;
  tk_daifugo_game *end;   /* where the replayed game is left (may be NULL) */
  tk_daifugo_legal l;     /* scratch, not kept across a recursive call */
} replay;

static const tk_daifugo_move PASS = {.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};

/* g->turn passes; an opponent's pass that was not forced is evidence. */
static void replay_pass(replay *rp, tk_daifugo_game *g, double *ll, int *obs) {
  if (rp->e->passes && g->turn != rp->v->player && tk_daifugo_game_can_play(g)) {
    tk_daifugo_game_legal(g, &rp->l);
    *ll += log(action_prob(rp->e, rp->pol, g, &rp->l, 0));
    ++*obs;
  }
  tk_daifugo_game_play(g, &PASS);
  rp->steps++;
}

/* 1 if `g` is at the decision `v` shows: our turn, the same table and passes. */
static int at_view(const tk_daifugo_game *g, const tk_daifugo_view *v) {
  return g->turn == v->player && g->top.kind == v->top.kind && g->top.cards == v->top.cards &&
         g->passed == v->passed && g->npass == v->npass;
}

/* Plays recorded entry `i`, action `k` of rp->l (g->turn's list, just made); an opponent's play
 * is evidence. */
static void play_recorded(replay *rp, tk_daifugo_game *g, int i, int k, double *ll, int *obs) {
  if (rp->v->hist[i].player != rp->v->player) {
    *ll += log(action_prob(rp->e, rp->pol, g, &rp->l, k));
    ++*obs;
  }
  tk_daifugo_game_play(g, &rp->l.a[k]);
  rp->steps++;
}

/* Replays the history from entry `i` in `g` (a copy), adding to *ll and *obs. Between two
 * recorded plays there are only passes, each player still in passing at most once before the
 * table clears (and once more on the new table, when its owner went out). The record does not
 * say who passed, only who played next, and at a player's turn its recorded play may be legal
 * at once and yet have come after a pass and a cleared table: after the others passed, the turn
 * comes back to the owner with its own play still on the table (tndhms), or the table clears
 * to the next player when the owner is out. Both readings are tried, the likelier first: a
 * lead after the owner's pass, the play at once for anyone else; the other when the rest of
 * the history does not replay. Returns 0, or -1 when no reading replays. */
static int replay_from(replay *rp, tk_daifugo_game g, int i, double *ll, int *obs) {
  const tk_daifugo_view *v = rp->v;
  int me = v->player;
  for (; i <= v->nhist; i++) {
    int q = i < v->nhist ? v->hist[i].player : me;
    int k = -1;
    for (int guard = 0;; guard++) {
      if (g.over || guard > 10 || rp->steps > rp->max_steps) return -1;
      /* Our decision now: the passes go on until the game is where the view shows it. */
      if (g.turn != q || (i == v->nhist && !at_view(&g, v))) {
        replay_pass(rp, &g, ll, obs);
        continue;
      }
      if (i == v->nhist) break;
      tk_daifugo_game_legal(&g, &rp->l);
      k = tk_daifugo_legal_find(&rp->l, &v->hist[i].m);
      if (k < 0) { /* not legal now: q passed first */
        replay_pass(rp, &g, ll, obs);
        continue;
      }
      if (g.top.kind == TK_DAIFUGO_PASS) break; /* a lead: nothing else it can be */
      double ll2 = *ll;
      int obs2 = *obs;
      tk_daifugo_game a = g;
      if (g.owner == q) { /* the pass and the lead first */
        replay_pass(rp, &a, &ll2, &obs2);
        if (!replay_from(rp, a, i, &ll2, &obs2)) return *ll = ll2, *obs = obs2, 0;
        tk_daifugo_game_legal(&g, &rp->l); /* the scratch list was reused */
        break;
      }
      play_recorded(rp, &a, i, k, &ll2, &obs2);
      if (!replay_from(rp, a, i + 1, &ll2, &obs2)) return *ll = ll2, *obs = obs2, 0;
      replay_pass(rp, &g, ll, obs); /* the play at once did not replay: q passed first */
    }
    if (i == v->nhist) break;
    play_recorded(rp, &g, i, k, ll, obs);
  }
  if (rp->end) *rp->end = g;
  return 0;
}

int dse_loglik(const dse_params *e, const dmcl_policy *pol, const tk_daifugo_view *v,
               const uint64_t hand[5], int sennichite, double *logl, int *observed) {
  return dse_replay(e, pol, v, hand, sennichite, logl, observed, NULL);
}

int dse_replay(const dse_params *e, const dmcl_policy *pol, const tk_daifugo_view *v,
               const uint64_t hand[5], int sennichite, double *logl, int *observed,
               tk_daifugo_game *end) {
  *logl = 0.0;
  if (observed) *observed = 0;
  if (v->nhist == 0 && !end) return 0; /* nothing seen yet: every world as likely */
  uint64_t start[5];
  memcpy(start, hand, sizeof start);
  for (int i = 0; i < v->nhist; i++) {
    if (v->hist[i].player >= 5) return -1;
    start[v->hist[i].player] |= v->hist[i].m.cards;
  }
  /* The first play of a game is its leader's (nobody passes on a new table); with none yet, we
   * lead. */
  int leader = v->nhist ? v->hist[0].player : v->player;
  tk_daifugo_game g;
  if (tk_daifugo_game_setup(&g, start, v->seat_of, leader, sennichite, 0, NULL))
    return -1;
  static _Thread_local replay rp; /* the legal list's 8 KB off the stack */
  rp.e = e, rp.pol = pol, rp.v = v, rp.steps = 0, rp.end = end;
  /* Each recorded play and the passes before it, a few times over for the branches. */
  rp.max_steps = 64 * (v->nhist + 1);
  double ll = 0.0;
  int obs = 0;
  if (replay_from(&rp, g, 0, &ll, &obs)) return -1;
  *logl = ll;
  if (observed) *observed = obs;
  return 0;
}

int dse_pool_build(dse_pool *pool, const dse_params *e, int sennichite, const dmcl_policy *pol,
                   const tk_daifugo_view *v, const dmc_plan *prior, tk_rng *r) {
  pool->n = 0;
  pool->ess = 0;
  pool->observed = 0;
  pool->replayed = 0;
  int n = e->worlds < pool->cap ? e->worlds : pool->cap;
  double top = -INFINITY;
  for (int i = 0; i < n; i++) {
    dmc_plan_deal(prior, r, pool->hand[i]);
    double ll = 0.0;
    if (e->beta > 0 &&
        dse_loglik(e, pol, v, pool->hand[i], sennichite, &ll, i == 0 ? &pool->observed : NULL))
      ll = -INFINITY;
    pool->logl[i] = ll;
    pool->replayed += ll > -INFINITY;
    if (ll > top) top = ll;
  }
  pool->n = n;
  if (n == 0) return -1;
  double sum = 0.0, sq = 0.0;
  for (int i = 0; i < n; i++) {
    /* No world replays the history: every world the same (the prior alone). */
    double w = top == -INFINITY ? 1.0 : exp(e->beta * (pool->logl[i] - top));
    sum += w;
    sq += w * w;
    pool->cum[i] = sum;
  }
  for (int i = 0; i < n; i++) pool->cum[i] /= sum;
  pool->cum[n - 1] = 1.0;
  pool->ess = sum * sum / sq;
  return 0;
}

void dse_pool_deal(void *ctx, tk_rng *r, uint64_t hand[5]) {
  const dse_pool *pool = ctx;
  double u = tk_rng_double(r);
  int lo = 0, hi = pool->n - 1; /* the first world whose cumulative weight exceeds u */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (pool->cum[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  memcpy(hand, pool->hand[lo], sizeof pool->hand[lo]);
}
