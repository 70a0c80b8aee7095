/* plugins/riichi_mc/bench.c — build/riichi_mc_bench: what a riichi_mc decision costs.
 *
 * Plays east-only games in which every seat follows riichi_mc's simulation policy (playout.c)
 * and, at every decision of seat 0 with more than one candidate, asks riichi_mc's Monte Carlo
 * (the opening skipped, so that every decision is a simulated one) and times it in CPU time of
 * the process. Prints the decisions' CPU time (mean, median, 90th percentile, maximum), the
 * simulated hands per second and per decision, and the simulated moves per hand, of which the
 * policy and the fold rule decided. A measurement, not a test: the figures follow the machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "opts.h"
#include "rmc.h"
#include "rsamp.h"
#include "taikai/weights.h"
#include "riichi_oneplayer/weights_io.h"


static const char *const ACT[] = {"discard", "riichi", "tsumo", "ankan", "kakan", "kyuushu",
                                  "ron",     "pon",    "minkan", "chi",  "pass"};

static void print_decision(const tk_riichi_view *v, const tk_riichi_legal *l, const rmc_result *r) {
  char hand[64];
  tk_tiles_format(v->tiles, v->nhand, hand, sizeof hand);
  printf("hand %s round %d honba %d scores %d %d %d %d tiles left %d riichi %d%d%d%d\n", hand,
         v->round, v->honba, v->scores[0], v->scores[1], v->scores[2], v->scores[3],
         v->tiles_left, v->riichi[0], v->riichi[1], v->riichi[2], v->riichi[3]);
  for (int c = 0; c < r->ncands; c++) {
    const tk_riichi_action *a = &l->a[r->cands[c].action];
    const char *tile = a->type == TK_RIICHI_PASS ? "" : tk_tile_str(a->tile);
    printf("  %s %-7s %-4s EFR %.4f  deal-in %.4f  (%d playouts)\n",
           r->cands[c].action == r->action ? "*" : " ", ACT[a->type], tile, r->cands[c].value,
           r->cands[c].dealin, r->cands[c].playouts);
  }
}

int main(int argc, char **argv) {
  int decisions = 50, playouts = -1, fold = -1, filter = -1, show = 0, show_riichi = 0;
  uint64_t seed = 1;
  const char *wpath = NULL, *epath = NULL, *opath = NULL, *sampler = NULL;
  const char *soptions = NULL, *sfile = NULL;
  int fixed = 0;
  const tk_opt opts[] = {
      {.name = "decisions", .kind = TK_OPT_INT, .dest = &decisions, .value = "N", .min = 1,
       .max = 1000000, .help = "Monte Carlo decisions to time (default 50)"},
      {.name = "playouts", .kind = TK_OPT_INT, .dest = &playouts, .value = "P", .min = 1,
       .max = 1000000, .help = "simulated hands per decision (default: riichi_mc's)"},
      {.name = "fold-shanten", .kind = TK_OPT_INT, .dest = &fold, .value = "S", .min = 0, .max = 9,
       .help = "the fold rule's shanten (default: riichi_mc's)"},
      {.name = "playout-filter", .kind = TK_OPT_INT, .dest = &filter, .value = "0|1", .min = 0,
       .max = 1, .help = "simulated seats score only the moves of least shanten (default: "
       "riichi_mc's)"},
      {.name = "show", .kind = TK_OPT_INT, .dest = &show, .value = "N", .min = 0, .max = 1000000,
       .help = "print the first N decisions: the hand, each candidate's value and deal-in"},
      {.name = "sampler", .kind = TK_OPT_STRING, .dest = &sampler, .value = "NAME",
       .help = "the determinisation sampler (default: riichi_mc's)"},
      {.name = "sampler-options", .kind = TK_OPT_STRING, .dest = &soptions, .value = "JSON",
       .help = "the sampler's options, a JSON object (riichi_mc's \"sampler_options\")"},
      {.name = "sampler-file", .kind = TK_OPT_STRING, .dest = &sfile, .value = "FILE",
       .help = "a learned sampler's weights (riichi_mc's \"sampler_file\")"},
      {.name = "fixed-positions", .kind = TK_OPT_FLAG, .dest = &fixed,
       .help = "seat 0 plays the simulation policy's move, not riichi_mc's: every sampler and "
       "playout count is timed on the same decisions (for equal-CPU settings)"},
      {.name = "show-riichi", .kind = TK_OPT_FLAG, .dest = &show_riichi,
       .help = "--show prints only the decisions where riichi can be declared"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S", .help = "games' seed (1)"},
      {.name = "weights", .kind = TK_OPT_STRING, .dest = &wpath, .value = "FILE",
       .help = "the policy (default plugins/riichi_oneplayer.tkw beside this program)"},
      {.name = "efr", .kind = TK_OPT_STRING, .dest = &epath, .value = "FILE",
       .help = "the EFR model (default plugins/riichi_efr.tkw)"},
      {.name = "opp", .kind = TK_OPT_STRING, .dest = &opath, .value = "FILE",
       .help = "the opponent models (default plugins/riichi_opp.tkw)"},
      {0}};
  int prc = tk_opts_parse_prog("riichi_mc_bench", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) {
    printf("usage: riichi_mc_bench [options]\n\nTimes riichi_mc's Monte Carlo decisions (CPU time "
           "of this process) in games played by its simulation policy.\n\n");
    tk_opts_help(stdout, opts);
    return 0;
  }
  if (prc) return 2;
  char wp[4096], ep[4096], op[4096];
  tk_error err = {0};
  double *w = NULL;
  rm_efr *efr = NULL;
  rm_opp *opp = NULL;
  if (locate(wpath, "riichi_oneplayer.tkw", wp, sizeof wp) ||
      locate(epath, RM_EFR_DEFAULT_FILE, ep, sizeof ep) ||
      locate(opath, RM_OPP_DEFAULT_FILE, op, sizeof op)) {
    fprintf(stderr, "riichi_mc_bench: cannot locate the model files beside the program\n");
    return 1;
  }
  if (rop_weights_load(wp, &w, NULL, &err) || rm_efr_load(ep, &efr, &err) ||
      rm_opp_load(op, &opp, &err)) {
    fprintf(stderr, "riichi_mc_bench: %s\n", err.msg);
    return 1;
  }
  rmc_params p = rmc_default_params();
  p.opening = 0;
  if (playouts > 0) p.playouts = playouts;
  if (fold >= 0) p.fold_shanten = fold;
  if (filter >= 0) p.playout_filter = filter;
  rs_sampler *opened = NULL;
  if ((soptions || sfile) && !sampler) {
    fprintf(stderr, "riichi_mc_bench: --sampler-options and --sampler-file need --sampler\n");
    return 2;
  }
  if (sampler) {
    if (!rs_sampler_known(sampler)) {
      fprintf(stderr, "riichi_mc_bench: --sampler: '%s' is not a sampler (known: %s)\n", sampler,
              rs_sampler_names());
      return 2;
    }
    snprintf(p.sampler_name, sizeof p.sampler_name, "%s", sampler);
    snprintf(p.sampler_options, sizeof p.sampler_options, "%s", soptions ? soptions : "");
    snprintf(p.sampler_file, sizeof p.sampler_file, "%s", sfile ? sfile : "");
    if (rmc_sampler_open(&p, "riichi_mc_bench", &opened, &err)) {
      fprintf(stderr, "%s\n", err.msg);
      return 2;
    }
  }
  rmc_params full = p, fast = p;
  full.playout_filter = 0;
  fast.playout_filter = 1;
  long agree = 0, compared = 0;
  rmc_models m = {w, efr, opp};
  rmc_stats st = {0}, sim = {0};
  double *ms = calloc((size_t)decisions, sizeof *ms);
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  int done = 0, games = 0;
  while (done < decisions) {
    tk_riichi_game g;
    if (tk_riichi_init(&g, NULL, seed, (uint64_t)games++, NULL, &err)) break;
    while (!tk_riichi_is_over(&g) && done < decisions) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, &err);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      int i = l.n == 1 ? 0 : rmc_sim_policy(&p, &m, &g, s, &l, 0, &sim);
      if (l.n > 1) { /* the filtered policy against the whole one, on the games' own decisions */
        rmc_stats x = {0};
        int a = rmc_sim_policy(&full, &m, &g, s, &l, 0, &x), b = rmc_sim_policy(&fast, &m, &g, s, &l, 0, &x);
        if (!x.folds) agree += a == b, compared++;
      }
      if (s == 0 && l.n > 1 && tk_riichi_phase(&g) == TK_RIICHI_PHASE_SELF) {
        tk_riichi_view v;
        tk_riichi_view_of(&g, 0, &v);
        rmc_result r;
        int over = 0;
        uint64_t before = st.mc_moves;
        double t0 = cpu_now();
        if (rmc_decide(&p, &m, &v, &l, &over, &rng, &r, &st, &err)) {
          fprintf(stderr, "riichi_mc_bench: %s\n", err.msg);
          return 1;
        }
        double t = cpu_now() - t0;
        if (st.mc_moves > before) {
          int riichi = 0;
          for (int j = 0; j < l.n; j++) riichi |= l.a[j].type == TK_RIICHI_RIICHI;
          if (show > 0 && (riichi || !show_riichi)) show--, print_decision(&v, &l, &r);
          ms[done++] = t * 1000;
        }
        if (!fixed) i = r.action;
      }
      tk_riichi_apply(&g, s, &l.a[i], NULL, NULL);
    }
  }
  double total = 0;
  for (int i = 0; i < done; i++) total += ms[i];
  qsort(ms, (size_t)done, sizeof *ms, cmp_double);
  printf("riichi_mc_bench: %d Monte Carlo decisions (seat 0 of %d games, seed %llu), %d playouts "
         "a decision, fold at shanten >= %d\n",
         done, games, (unsigned long long)seed, p.playouts, p.fold_shanten);
  if (!done) return 1;
  printf("  CPU per decision: mean %.1f ms, median %.1f, 90th percentile %.1f, max %.1f\n",
         total / done, ms[done / 2], ms[(int)(done * 0.9)], ms[done - 1]);
  printf("  simulated hands: %.0f per second, %.0f per decision; %.1f simulated moves per hand, "
         "%.1f by the policy, %.2f by the fold rule\n",
         st.playouts / (total / 1000), (double)st.playouts / done, (double)st.steps / st.playouts,
         (double)st.policy_calls / st.playouts, (double)st.folds / st.playouts);
  printf("  the least-shanten filter plays the whole policy's move in %.1f%% of %ld decisions of "
         "these games (the fold rule's excluded)\n", 100.0 * agree / (compared ? compared : 1), compared);
  free(ms);
  rs_sampler_close(opened);
  free(w);
  rm_efr_free(efr);
  rm_opp_free(opp);
  return 0;
}
