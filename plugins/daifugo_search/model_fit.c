/* plugins/daifugo_search/model_fit.c — `daifugo_search_model_fit`: how well daifugo_search's
 * model of the opponents (estimate.h: the learned playout policy's rank distribution with
 * exponent α, mixed with the uniform choice by `floor`) predicts the plays of real players.
 *
 *   daifugo_search_model_fit [--agent LABEL]... [--weights PATH] RECORDS...
 *
 * Reads the play decisions of the agents labelled LABEL (every agent when none is named) in the
 * records files (`taikai run --records`: each decision's view, legal actions and the action
 * chosen) and scores each recorded action as estimate.c scores an opponent's action in a world:
 * the decision's candidates ranked by the scorer's h under the weights (daifugo_mcl's AP weights
 * by default), the action's probability dse_rank_prob(rank, α, floor). A decision the player
 * could not choose (one legal action) is left out, as the estimation leaves out forced passes;
 * so is one where a play empties the hand (daifugo_mcl plays it at once; the estimation
 * scores it like any other). Prints, for a grid of α and floor, the mean log-likelihood per
 * decision (higher is better), the best pair, and where the chosen action ranked.
 *
 * Exit status: 0; 1 for a damaged file; 2 for a usage error or a file that cannot be opened. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"
#include "daifugo_mcl/features.h"
#include "daifugo_mcl/policy.h"
#include "daifugo_mcl/setup.h"
#include "daifugo_mcl/tools.h"
#include "opts.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"
#include "taikai/weights.h"

#define NAME "daifugo_search_model_fit"
enum { MAX_FILES = 64, MAX_AGENTS = 16, NALPHA = 11, NFLOOR = 7, NRANK = 6 };
static const double ALPHA[NALPHA] = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
static const double FLOOR[NFLOOR] = {0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5};

typedef struct fit {
  dmcl_policy pol;
  double ll[NALPHA][NFLOOR];
  long n;                 /* decisions scored */
  long rank[NRANK];       /* the chosen action's rank 1..NRANK-1, then NRANK or lower */
  long pass, not_candidate;
  double cands;           /* candidates, summed */
} fit;

static int one(void *ctx, const char *path, uint64_t unit, const tk_daifugo_view *v,
               const tk_daifugo_legal *l, int why, int first, int teacher) {
  fit *f = ctx;
  if (why != DMCL_KEEP) return 0;
  /* The view's game: the mover's hand, the table, the counts (what the scorer reads; the other
   * hands are dealt by a fixed generator and not read). */
  tk_rng fixed;
  tk_rng_seed(&fixed, 0);
  tk_daifugo_game g;
  if (tk_daifugo_determinize(v, &fixed, 20, &g)) {
    fprintf(stderr, NAME ": %s: unit %llu: a view the engine refuses\n", path,
            (unsigned long long)unit);
    return 1;
  }
  static tk_daifugo_legal gl;
  tk_daifugo_game_legal(&g, &gl);
  int i = tk_daifugo_legal_find(&gl, &l->a[first + teacher]);
  if (i < 0) {
    fprintf(stderr, NAME ": %s: unit %llu: the recorded action is not legal in the view's game\n",
            path, (unsigned long long)unit);
    return 1;
  }
  dse_rank rk;
  dse_action_rank(&f->pol, &g, &gl, i, &rk);
  for (int a = 0; a < NALPHA; a++)
    for (int b = 0; b < NFLOOR; b++) f->ll[a][b] += log(dse_rank_prob(&rk, ALPHA[a], FLOOR[b]));
  f->n++;
  f->cands += rk.n;
  f->pass += gl.a[i].kind == TK_DAIFUGO_PASS;
  if (!rk.candidate) f->not_candidate++;
  else f->rank[rk.above < NRANK - 1 ? rk.above : NRANK - 1]++;
  return 0;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: " NAME " [--agent LABEL]... [--weights PATH] RECORDS...\n"
          "How well daifugo_search's opponent model (the playout policy's ranks with exponent\n"
          "alpha, mixed with the uniform choice by floor) predicts the recorded play decisions\n"
          "of the named agents (every agent by default) in records files of `taikai run\n"
          "--records`: the mean log-likelihood per decision over a grid of alpha and floor.\n"
          "--weights: the policy's weights (default: daifugo_mcl_ap.tkw beside this program's\n"
          "plugins, build/plugins/).\n");
}

int main(int argc, char **argv) {
  const char *files[MAX_FILES];
  const char *labels[MAX_AGENTS];
  int nfiles = 0;
  const char *weights = NULL;
  dmcl_list agents = {labels, 0, MAX_AGENTS};
  const tk_opt table[] = {
      {.name = "agent", .kind = TK_OPT_CALL, .dest = &agents, .call = dmcl_append_opt,
       .value = "LABEL", .help = "an agent whose decisions are scored (repeatable; default all)"},
      {.name = "weights", .kind = TK_OPT_STRING, .dest = &weights, .once = 1, .value = "PATH",
       .help = "the playout policy's weights"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(NAME, table, argc, argv, files, MAX_FILES, &nfiles);
  if (!prc && nfiles > MAX_FILES) {
    fprintf(stderr, NAME ": at most %d records files\n", MAX_FILES);
    prc = 2;
  }
  if (!prc && nfiles == 0) {
    fprintf(stderr, NAME ": no records file given\n");
    prc = 2;
  }
  if (prc == 1) usage(stdout);
  if (prc == 2) usage(stderr);
  if (prc) return prc == 1 ? 0 : 2;

  static fit f;
  tk_weights w;
  tk_error err = {0};
  if (dmcl_setup_program(NAME, weights, "daifugo_mcl_ap.tkw", "--weights", &f.pol, &w, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  for (int k = 0; k < nfiles; k++) {
    int rc = dmcl_each_play(NAME, files[k], labels, agents.n, 0, one, &f);
    if (rc) {
      dmcl_setup_free(&f.pol, &w);
      return rc;
    }
  }
  dmcl_setup_free(&f.pol, &w);
  if (f.n == 0) {
    fprintf(stderr, NAME ": no play decision with a choice in the records\n");
    return 1;
  }
  printf("%ld decisions scored (a choice, no play that empties the hand): %.2f candidates on "
         "average, the pass chosen in %.1f %%\n", f.n, f.cands / (double)f.n,
         100.0 * (double)f.pass / (double)f.n);
  printf("the chosen action's rank by h:");
  for (int r = 0; r < NRANK; r++)
    printf(" %s%d %.1f %%", r == NRANK - 1 ? ">=" : "", r + 1,
           100.0 * (double)f.rank[r] / (double)f.n);
  printf("; not a candidate %.1f %%\n", 100.0 * (double)f.not_candidate / (double)f.n);
  printf("\nmean log-likelihood per decision (uniform choice: %.4f)\n\n| alpha |",
         f.ll[NALPHA - 1][0] / (double)f.n);
  for (int b = 0; b < NFLOOR; b++) printf(" floor %.2f |", FLOOR[b]);
  printf("\n|---|");
  for (int b = 0; b < NFLOOR; b++) printf("---|");
  printf("\n");
  int ba = 0, bb = 0;
  for (int a = 0; a < NALPHA; a++) {
    printf("| %.1f |", ALPHA[a]);
    for (int b = 0; b < NFLOOR; b++) {
      printf(" %.4f |", f.ll[a][b] / (double)f.n);
      if (f.ll[a][b] > f.ll[ba][bb]) ba = a, bb = b;
    }
    printf("\n");
  }
  printf("\nbest: alpha %.1f, floor %.2f: %.4f per decision\n", ALPHA[ba], FLOOR[bb],
         f.ll[ba][bb] / (double)f.n);
  return 0;
}
