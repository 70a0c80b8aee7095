/* harness/games/daifugo/bench_daifugo_mc.c — `taikai bench daifugo-mc`: the speed of the daifugo Monte
 * Carlo decision (plugins/daifugo_mc/dmc.h) on one core, with the plain playout policy
 * (daifugo_mc) and with the learned one (daifugo_mcl, plugins/daifugo_mcl/policy.h). A fixed set
 * of positions, sampled from seeded blocks of random play: play decisions where no shortcut fires,
 * and the daifugo's and the fugo's exchange decisions. Times are CPU seconds of this process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daifugo_cmd.h"
#include "opts.h"
#include "daifugo_mcl/policy.h"
#include "dmc.h"
#include "estimate.h"
#include "loader.h"
#include "taikai/daifugo.h"
#include "taikai/weights.h"

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct position {
  tk_daifugo_view v;
  tk_daifugo_legal l;
} position;

/* Fills `play` and `ex` with positions met in blocks of 3 games (so games 2 and 3 have an
 * exchange) of players drawing uniformly among their actions (the pass excluded on a new
 * table): play decisions where dmc_decide runs playouts, every exchange decision of the daifugo
 * and the fugo. Deterministic. Returns 0, or -1 if the blocks ran dry (they do not). */
static int sample(position *play, int nplay, position *ex, int nex, const dmc_params *p,
                  dmc_stats *st) {
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 3;
  tk_daifugo_block *b = malloc(sizeof *b);
  position *tmp = malloc(sizeof *tmp);
  if (!b || !tmp) {
    free(b), free(tmp);
    return -1;
  }
  tk_rng r, probe;
  tk_rng_seed(&r, 2015);
  int np = 0, ne = 0;
  for (uint64_t blk = 0; blk < 100000 && (np < nplay || ne < nex); blk++) {
    tk_daifugo_block_init(b, &rules, 7, blk, NULL);
    while (!tk_daifugo_is_over(b)) {
      int who = tk_daifugo_to_act(b);
      tk_daifugo_view_of(b, who, &tmp->v);
      tk_daifugo_legal_of(b, who, &tmp->l);
      int ex_dec = tmp->l.decision == TK_DAIFUGO_DECIDE_EXCHANGE;
      if (ex_dec && ne < nex) {
        ex[ne++] = *tmp;
      } else if (!ex_dec && np < nplay && tk_rng_below(&r, 8) == 0) {
        /* Keep it if the decision runs playouts (no shortcut): probed with 1 playout. */
        dmc_params one = *p;
        one.playouts = 1;
        tk_rng_seed(&probe, 1);
        if (dmc_decide(&one, &tmp->v, &tmp->l, NULL, NULL, &probe, st) >= 0 && st->playouts > 0)
          play[np++] = *tmp;
      }
      const tk_daifugo_legal *l = &tmp->l;
      int lo = !ex_dec && l->lead && l->n > 1; /* the pass excluded on a new table */
      int k = lo + (int)tk_rng_below(&r, (uint32_t)(l->n - lo));
      tk_daifugo_apply(b, who, &l->a[k], NULL);
    }
  }
  free(b), free(tmp);
  return np == nplay && ne == nex ? 0 : -1;
}

/* FNV-1a over `n` bytes, continuing from `h`. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * UINT64_C(0x100000001b3);
  return h;
}

/* daifugo_search's world source (search.c's prepare_pool): the pool, once the shortcuts have
 * not settled the decision and something was seen. */
typedef struct bench_pool {
  dse_pool *pool;
  const dse_params *e;
  const dmc_params *p;
  const dmcl_policy *pol;
} bench_pool;

static int bench_prepare(void *ctx, const tk_daifugo_view *v, const dmc_plan *prior, tk_rng *r) {
  bench_pool *bp = ctx;
  if (v->nhist == 0 || bp->e->beta <= 0) return -1;
  return dse_pool_build(bp->pool, bp->e, bp->p->sennichite, bp->pol, v, prior, r);
}

static void bench_deal(void *ctx, tk_rng *r, uint64_t hand[5]) {
  dse_pool_deal(((bench_pool *)ctx)->pool, r, hand);
}

/* Times dmc_decide on `n` positions and prints one line; returns 0, or 1 if a decision failed.
 * The line ends with a digest of every decision (the choice, each candidate's visits and mean's
 * bits): a change meant to make the search faster without changing it must leave it as it was. */
static int time_set(const char *who, const char *what, const position *pos, int n,
                    const dmc_params *p, dmc_policy_fn policy, void *ctx, dse_pool *pool,
                    const dse_params *e, dmc_stats *st) {
  tk_rng r;
  tk_rng_seed(&r, 11);
  long playouts = 0;
  int bad = 0;
  uint64_t digest = UINT64_C(0xcbf29ce484222325);
  double t = 0;
  for (int i = 0; i < n; i++) {
    double t0 = cpu_now();
    /* daifugo_search's decision (search.c): the weighted pool, then the search over it */
    bench_pool bp = {pool, e, p, ctx};
    dmc_dealer dealer = {bench_prepare, bench_deal, &bp};
    int k = dmc_decide_dealt(p, &pos[i].v, &pos[i].l, policy, ctx, pool ? &dealer : NULL, &r, st);
    t += cpu_now() - t0;
    if (k < 0) bad++;
    playouts += st->playouts;
    digest = fnv(digest, &k, sizeof k);
    for (int j = 0; j < st->ncand; j++) {
      digest = fnv(digest, &st->visits[j], sizeof st->visits[j]);
      digest = fnv(digest, &st->mean[j], sizeof st->mean[j]);
    }
  }
  printf("%s: %-8s %4d decisions, %8ld playouts in %6.2f s: %7.2f ms per decision, "
         "%.0f playouts/s per core, digest %016llx\n", who, what, n, playouts, t, t / n * 1e3,
         t > 0 ? (double)playouts / t : 0.0, (unsigned long long)digest);
  if (bad) fprintf(stderr, "taikai bench daifugo-mc: %s: %d %s decisions failed\n", who, bad, what);
  return bad ? 1 : 0;
}

/* Times daifugo_mcl's decision (AP weights from `path`, else daifugo_mcl_ap.tkw in the plugin
 * folders) on the same positions; returns 0, or 1 if the weights cannot be loaded or a decision
 * failed. */
static int time_mcl(const char *path, double alpha, int worlds, const position *play, int nplay,
                    const position *ex, int nex, const dmc_params *p, dmc_stats *st) {
  char found[TK_PATH_MAX];
  if (!path) {
    const char *dirs[16];
    int n = tk_plugin_dirs(dirs, 16);
    for (int i = 0; i < n && !path; i++) {
      snprintf(found, sizeof found, "%s/daifugo_mcl_ap.tkw", dirs[i]);
      if (access(found, R_OK) == 0) path = found;
    }
    if (!path) {
      fprintf(stderr, "taikai bench daifugo-mc: daifugo_mcl_ap.tkw is in no plugin folder; give "
                      "--mcl-weights FILE\n");
      return 1;
    }
  }
  const uint32_t shape[2] = {DMCL_BP, DMCL_CP};
  tk_weights w;
  tk_error err;
  tk_error_clear(&err);
  if (tk_weights_load(path, DMCL_MODEL_AP, DMCL_FEATURE_VERSION, 2, shape, &w, &err)) {
    fprintf(stderr, "taikai bench daifugo-mc: %s\n", err.msg);
    return 1;
  }
  dmcl_policy pol = {.alpha = alpha};
  if (dmcl_model_init(&pol.md, DMCL_AP, 0, w.values)) {
    fprintf(stderr, "taikai bench daifugo-mc: %s: a weight is not a finite number, or out of "
                    "memory\n", path);
    tk_weights_free(&w);
    return 1;
  }
  printf("daifugo-mcl: AP weights %s, alpha %g (goal: at most 10 ms per 1,500-playout "
         "decision)\n", path, alpha);
  int rc = time_set("daifugo-mcl", "play", play, nplay, p, dmcl_policy_move, &pol, NULL, NULL,
                    st) |
           time_set("daifugo-mcl", "exchange", ex, nex, p, dmcl_policy_move, &pol, NULL, NULL,
                    st);
  dse_pool pool;
  if (worlds > 0 && dse_pool_init(&pool, worlds) == 0) {
    const dse_params e = {.worlds = worlds, .beta = 1, .floor = 0.1, .passes = 1};
    printf("daifugo-search: daifugo_mcl's decision over a pool of %d worlds weighted by the "
           "opponents' actions (goal: at most 50 ms a decision)\n", worlds);
    rc |= time_set("daifugo-search", "play", play, nplay, p, dmcl_policy_move, &pol, &pool, &e,
                   st);
    dse_pool_free(&pool);
  }
  dmcl_model_free(&pol.md);
  tk_weights_free(&w);
  return rc;
}

int tk_bench_daifugo_mc(int argc, char **argv) {
  int nplay = 200, nex = 40;
  dmc_params p = dmc_default_params();
  const char *mcl_weights = NULL;
  double alpha = 0.6;
  int playouts = 0, have_playouts = 0, worlds = 256;
  const tk_opt opts[] = {
      {.name = "positions", .kind = TK_OPT_INT, .dest = &nplay, .value = "N", .min = 1,
       .max = 100000, .help = "play decisions (default 200)"},
      {.name = "exchanges", .kind = TK_OPT_INT, .dest = &nex, .value = "N", .min = 1,
       .max = 100000, .help = "exchange decisions (default 40)"},
      {.name = "playouts", .kind = TK_OPT_INT, .dest = &playouts, .given = &have_playouts,
       .value = "N", .min = 1, .max = DMC_MAX_PLAYOUTS, .help = "playouts per decision"},
      {.name = "mcl-weights", .kind = TK_OPT_STRING, .dest = &mcl_weights, .value = "FILE",
       .help = "daifugo_mcl's AP weights"},
      {.name = "alpha", .kind = TK_OPT_DOUBLE, .dest = &alpha, .value = "A",
       .help = "daifugo_mcl's alpha (default 0.6)"},
      {.name = "worlds", .kind = TK_OPT_INT, .dest = &worlds, .value = "N", .min = 0,
       .max = 65536, .help = "daifugo_search's pool of worlds (default 256; 0 skips it)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse("bench daifugo-mc", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1)
    printf("usage: taikai bench daifugo-mc [--positions N] [--exchanges N] [--playouts N]\n\n"
           "Times the daifugo Monte Carlo decision (daifugo_mc's, the plain playout policy)\n"
           "on one core: N play decisions where no shortcut fires (default 200) and N\n"
           "exchange decisions of the daifugo and the fugo (default 40), sampled from seeded\n"
           "blocks of random play, each with N playouts (default 1500; the exchange budget\n"
           "too). Prints CPU ms per decision and playouts per CPU second; the goal is at most\n"
           "5 ms per 1,500-playout decision. Then the same with daifugo_mcl's learned\n"
           "playouts (goal 10 ms): --mcl-weights FILE, an AP weights file (default\n"
           "daifugo_mcl_ap.tkw in the plugin folders), --alpha A (default 0.6). Then\n"
           "daifugo_search's play decisions: the pool of --worlds N worlds (default 256; 0\n"
           "skips them) weighted by the opponents' actions, and the same search over it\n"
           "(goal 50 ms).\n");
  if (prc) return prc == 1 ? 0 : 2;
  if (have_playouts) p.playouts = p.exchange_playouts = playouts;
  position *play = malloc(sizeof *play * (size_t)nplay), *ex = malloc(sizeof *ex * (size_t)nex);
  dmc_stats *st = malloc(sizeof *st);
  int rc = 1;
  if (!play || !ex || !st) {
    fprintf(stderr, "taikai bench daifugo-mc: out of memory\n");
  } else if (sample(play, nplay, ex, nex, &p, st)) {
    fprintf(stderr, "taikai bench daifugo-mc: could not sample the positions\n");
  } else {
    printf("daifugo-mc: %d playouts per decision (goal: at most 5 ms per 1,500-playout "
           "decision)\n", p.playouts);
    rc = time_set("daifugo-mc", "play", play, nplay, &p, NULL, NULL, NULL, NULL, st) |
         time_set("daifugo-mc", "exchange", ex, nex, &p, NULL, NULL, NULL, NULL, st);
    rc |= time_mcl(mcl_weights, alpha, worlds, play, nplay, ex, nex, &p, st);
  }
  free(play), free(ex), free(st);
  return rc;
}
