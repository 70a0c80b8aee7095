/* plugins/riichi_mcp/bench.c — build/riichi_mcp_bench: what the efr mode's opening costs, and
 * table 10's case study on constructed positions.
 *
 * Timing: plays east-only games in which every seat follows riichi_mc's simulation policy and, at
 * seat 0's own draws with no win or riichi legal and at most `--turns` own discards made (the
 * opening's part of a hand), times the efr mode's decision (efr_mode.h) at each of plies 1 .. P
 * on the same position, in CPU time of the process. Prints per plies the decisions' CPU time
 * (mean, median, 90th percentile, maximum) and Score evaluations per decision, and how often
 * BCP's other conversion (literal against clamped), and each other penalty (none and the shipped
 * tables), would play another move at plies 1. A
 * measurement, not a test: the figures follow the machine.
 *
 * --table-10: paper 000's table 10 (../shared/specs/riichi-agents.md §2.10) on constructed
 * positions: all-last (East 4), the player last at 16,000 against 26,000 / 28,000 / 30,000 (it
 * needs a mangan), each hand holding 5m, 7-8p, North and a white pair in a souzu-heavy hand,
 * as the paper's text reveals of its figure 6; for the four discards 5m, 7p, N and white:
 * BCP's P(>= h), Score with the chosen penalty, and the one-player policy's score, each with its
 * choice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "efr_mode.h"
#include "bench_util.h"
#include "opts.h"
#include "rmc.h"
#include "target.h"
#include "taikai/mahjong.h"
#include "taikai/weights.h"
#include "riichi_oneplayer/weights_io.h"


enum { MAX_PLIES = 4, MAX_SAMPLES = 100000 };

typedef struct timing {
  int plies_max, turns, decisions, done;
  int differ;            /* positions where BCP's literal conversion plays another move */
  mce_ctx literal;       /* plies 1 with the literal conversion */
  int npen;              /* penalties compared at plies 1 (none and the shipped tables) */
  const char *pen_name[4];
  mce_ctx pen[4];
  int pen_differ[4];     /* positions where that penalty plays another move than --penalty's */
  mce_ctx c[MAX_PLIES + 1];
  double *t[MAX_PLIES + 1];
} timing;

static int time_position(timing *T, const tk_riichi_game *g, const tk_riichi_legal *l) {
  tk_riichi_view v;
  tk_riichi_view_of(g, 0, &v);
  if (v.phase != TK_RIICHI_PHASE_SELF || v.nriver[0] > T->turns) return 0;
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RIICHI) return 0;
  for (int k = 1; k <= T->plies_max; k++) {
    tk_error err = {0};
    int a;
    double t0 = cpu_now();
    if (mce_decide(&T->c[k], &v, l, &a, NULL, &err)) {
      fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
      return -1;
    }
    T->t[k][T->done] = cpu_now() - t0;
    if (k == 1) {
      int b;
      if (mce_decide(&T->literal, &v, l, &b, NULL, &err)) {
        fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
        return -1;
      }
      T->differ += b != a;
      for (int q = 0; q < T->npen; q++) {
        if (mce_decide(&T->pen[q], &v, l, &b, NULL, &err)) {
          fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
          return -1;
        }
        T->pen_differ[q] += b != a;
      }
    }
  }
  T->done++;
  return 0;
}

static int timing_run(timing *T, const rmc_models *m, uint64_t seed) {
  rmc_params p = rmc_default_params();
  rmc_stats st = {0};
  for (uint64_t n = 0; T->done < T->decisions && n < 100000; n++) {
    tk_riichi_game g;
    tk_error err = {0};
    if (tk_riichi_init(&g, NULL, seed, n, NULL, &err)) {
      fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
      return 1;
    }
    while (!tk_riichi_is_over(&g) && T->done < T->decisions) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        if (tk_riichi_deal(&g, NULL, NULL, &err)) return 1;
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      if (s == 0 && l.n > 1 && time_position(T, &g, &l)) return 1;
      int i = l.n == 1 ? 0 : rmc_sim_policy(&p, m, &g, s, &l, 0, &st);
      if (tk_riichi_apply(&g, s, &l.a[i], NULL, &err)) {
        fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
        return 1;
      }
    }
  }
  printf("riichi_mcp_bench: %d opening decisions (seat 0's own draws with at most %d discards "
         "made, no win or riichi legal; seed %llu), CPU time per decision:\n",
         T->done, T->turns, (unsigned long long)seed);
  printf("  plies  mean ms   median   90th pct   max      Score evaluations per decision\n");
  for (int k = 1; k <= T->plies_max; k++) {
    double *x = T->t[k], sum = 0;
    for (int i = 0; i < T->done; i++) sum += x[i];
    qsort(x, (size_t)T->done, sizeof *x, cmp_double);
    int n = T->done;
    printf("  %-5d  %8.2f  %7.2f   %8.2f   %8.2f  %.0f\n", k, 1e3 * sum / (n ? n : 1),
           n ? 1e3 * x[n / 2] : 0, n ? 1e3 * x[(n * 9) / 10] : 0, n ? 1e3 * x[n - 1] : 0,
           (double)T->c[k].st.evals / (n ? n : 1));
  }
  printf("BCP's other conversion (literal vs clamped) plays another move at plies 1 in %d of "
         "the %d positions\n", T->differ, T->done);
  for (int q = 0; q < T->npen; q++)
    printf("the penalty %s plays another move than this run's at plies 1 in %d of the %d "
           "positions\n", T->pen_name[q], T->pen_differ[q], T->done);
  return 0;
}

/* ------------------------------------------------------------ table 10 */

static int parse_hand(const char *s, uint8_t c[TK_KINDS], int *red) {
  tk_tile t[20];
  tk_error err = {0};
  int n = tk_tiles_parse(s, t, 20, &err);
  if (n != 14) return -1;
  memset(c, 0, TK_KINDS);
  *red = 0;
  for (int i = 0; i < n; i++) c[tk_tile_kind(t[i])]++, *red += tk_tile_is_red(t[i]);
  return 0;
}

static void table_10(const mcm_model *bcp, const double *policy, mce_ctx *c, int kind) {
  /* hands of 14 tiles after the draw; each holds 5m, 7p 8p, N and a white pair */
  static const char *const hands[] = {
      "5m78p23467899s455z", "5m78p12334579s455z", "5m78p22355678s455z", "5m78p11345689s455z",
  };
  static const char *const names[4] = {"5m", "7p", "N", "white"};
  const int kinds[4] = {4, 15, 30, 31};
  rm_efr_state z = {.scores = {16000, 26000, 28000, 30000}, .round = 3};
  tk_riichi_view v;
  memset(&v, 0, sizeof v);
  memcpy(v.scores, z.scores, sizeof v.scores);
  v.round = 3, v.seat = 0;
  c->valid = 0;
  /* the paper's own numbers first: table 8's P(>= h) of the four discards, scored here */
  static const double t8[4][5] = {{1, .353, .338, .221, .111}, {1, .294, .303, .240, .136},
                                  {1, .328, .285, .161, .079}, {1, .173, .168, .149, .063}};
  static const double paper[4] = {3.889, 3.797, 3.93, 3.94};
  rs_situation_of(c->efr, c->pen, &z, 0, c->p.fu, &c->sit);
  printf("table 10 with table 8's P(>= h) (the paper's fig. 6 hand), this EFR model and "
         "penalty:\n  discard  Score   the paper's\n");
  for (int d = 0; d < 4; d++) {
    double P[5];
    rs_han_probs(kind == RS_MCP ? RS_BCP_CLAMPED : kind, t8[d], P);
    printf("  %-7s  %.3f   %.3f\n", names[d], rs_score(&c->sit, P), paper[d]);
  }
  printf("table 10 on constructed positions: East 4, scores 16,000 / 26,000 / 28,000 / 30,000, "
         "the player (seat 0, South) last; dora indicator 1m; turn 3; nothing else seen\n");
  for (size_t h = 0; h < sizeof hands / sizeof hands[0]; h++) {
    rof_hand hand;
    memset(&hand, 0, sizeof hand);
    int red;
    if (parse_hand(hands[h], hand.c, &red)) {
      fprintf(stderr, "riichi_mcp_bench: bad constructed hand %s\n", hands[h]);
      return;
    }
    hand.red = (uint8_t)red;
    rof_ctx x;
    memset(&x, 0, sizeof x);
    x.seat_wind = 1, x.round_wind = 0, x.turn = 3, x.riichi_ok = 1, x.ndora = 1, x.dora[0] = 0;
    x.seen[0] = 1;
    /* the situation of this state */
    rs_situation_of(c->efr, c->pen, &z, 0, c->p.fu, &c->sit);
    c->valid = 1, c->seat = 0, c->z = z;
    printf("  hand %s\n    discard  P(>=1)  P(>=2)  P(>=3)  P(>=4)   Score    policy score\n",
           hands[h]);
    int best_s = -1, best_p = -1;
    double bs = 0, bp = 0;
    for (int d = 0; d < 4; d++) {
      rof_hand after = hand;
      after.c[kinds[d]]--;
      rof_ctx xa = x;
      rof_ctx_discard(&xa, kinds[d]);
      uint32_t f[ROF_MAX_ACTIVE];
      tk_error err = {0};
      int nf = rof_features(&after, &xa, f, NULL, &err);
      if (nf < 0) {
        fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
        return;
      }
      double ge[5], P[5];
      mcm_predict_ge(bcp, f, nf, ge);
      double o[5];
      mcm_predict(bcp, f, nf, o);
      rs_han_probs(kind, o, P);
      double s = rs_score(&c->sit, P), ps = rop_score(policy, f, nf);
      printf("    %-7s  %.3f   %.3f   %.3f   %.3f   %.4f   %+.4f\n", names[d], ge[1], ge[2],
             ge[3], ge[4], s, ps);
      if (best_s < 0 || s < bs) best_s = d, bs = s;
      if (best_p < 0 || ps > bp) best_p = d, bp = ps;
    }
    printf("    Score plays %s, the policy %s\n", names[best_s], names[best_p]);
  }
}

int main(int argc, char **argv) {
  int decisions = 40, plies_max = 3, turns = 8, t10 = 0;
  uint64_t seed = 1;
  const char *hpath = NULL, *ppath = NULL, *epath = NULL, *wpath = NULL, *bcp_mode = "clamped",
             *penalty = "human";
  const tk_opt opts[] = {
      {.name = "decisions", .kind = TK_OPT_INT, .dest = &decisions, .value = "N", .min = 1,
       .max = MAX_SAMPLES, .help = "opening decisions to time (default 40)"},
      {.name = "plies", .kind = TK_OPT_INT, .dest = &plies_max, .value = "P", .min = 1,
       .max = MAX_PLIES, .help = "time plies 1 .. P (default 3; 4 is the formula's depth 3)"},
      {.name = "turns", .kind = TK_OPT_INT, .dest = &turns, .value = "T", .min = 0, .max = 30,
       .help = "time positions with at most T own discards made (default 8)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "the games' seed (default 1)"},
      {.name = "penalty", .kind = TK_OPT_STRING, .dest = &penalty, .value = "NAME|FILE",
       .help = "none, self-play, teacher, human (default) or a table file"},
      {.name = "bcp", .kind = TK_OPT_STRING, .dest = &bcp_mode, .value = "clamped|literal",
       .help = "BCP's conversion (default clamped)"},
      {.name = "weights", .kind = TK_OPT_STRING, .dest = &hpath, .value = "FILE",
       .help = "the BCP model (default plugins/riichi_bcp.tkw beside this program)"},
      {.name = "policy", .kind = TK_OPT_STRING, .dest = &wpath, .value = "FILE",
       .help = "the one-player policy (default plugins/riichi_oneplayer.tkw)"},
      {.name = "efr", .kind = TK_OPT_STRING, .dest = &epath, .value = "FILE",
       .help = "the EFR model (default plugins/riichi_efr.tkw)"},
      {.name = "opp", .kind = TK_OPT_STRING, .dest = &ppath, .value = "FILE",
       .help = "the opponent models (default plugins/riichi_opp.tkw)"},
      {.name = "table-10", .kind = TK_OPT_FLAG, .dest = &t10,
       .help = "print table 10's case study on constructed positions instead of timing"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog("riichi_mcp_bench", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) {
    printf("usage: riichi_mcp_bench [options]   time the efr mode's opening (BCP) per plies\n");
    tk_opts_help(stdout, opts);
    return 0;
  }
  if (prc) return 2;
  int kind = !strcmp(bcp_mode, "clamped") ? RS_BCP_CLAMPED
             : !strcmp(bcp_mode, "literal") ? RS_BCP_LITERAL : -1;
  if (kind < 0) {
    fprintf(stderr, "riichi_mcp_bench: --bcp %s: must be clamped or literal\n", bcp_mode);
    return 2;
  }
  char hp[4096], pp[4096], ep[4096], wp[4096], pen[4096];
  int none = !strcmp(penalty, "none");
  int named = none || !strcmp(penalty, "self-play") || !strcmp(penalty, "teacher") ||
              !strcmp(penalty, "human");
  char pname[64];
  snprintf(pname, sizeof pname, "riichi_penalty_%s.tkw", penalty);
  if (locate(hpath, "riichi_bcp.tkw", hp, sizeof hp) ||
      locate(ppath, RM_OPP_DEFAULT_FILE, pp, sizeof pp) ||
      locate(epath, RM_EFR_DEFAULT_FILE, ep, sizeof ep) ||
      locate(wpath, "riichi_oneplayer.tkw", wp, sizeof wp) ||
      locate(named ? NULL : penalty, pname, pen, sizeof pen)) {
    fprintf(stderr, "riichi_mcp_bench: cannot find this program's plugins folder\n");
    return 1;
  }
  tk_error err = {0};
  mcm_model bcp;
  double *policy = NULL;
  rm_efr *efr = NULL;
  rm_opp *opp = NULL;
  rs_penalty table = {0}, others[4] = {{0}};
  if (mcm_load(hp, MCM_BCP, &bcp, &err) || rop_weights_load(wp, &policy, NULL, &err) ||
      rm_efr_load(ep, &efr, &err) || rm_opp_load(pp, &opp, &err) ||
      (!none && rs_penalty_load(pen, &table, &err))) {
    fprintf(stderr, "riichi_mcp_bench: %s\n", err.msg);
    return 1;
  }
  mce_ctx base;
  memset(&base, 0, sizeof base);
  base.p = (mce_params){.kind = kind, .plies = 1, .width = 3, .fu = 30};
  base.han = &bcp, base.efr = efr, base.pen = none ? NULL : &table;
  int rc = 0;
  if (t10) {
    table_10(&bcp, policy, &base, kind);
  } else {
    static timing T;
    T.plies_max = plies_max, T.turns = turns, T.decisions = decisions;
    T.literal = base;
    T.literal.p.kind = kind == RS_BCP_LITERAL ? RS_BCP_CLAMPED : RS_BCP_LITERAL;
    /* the other penalties: none and each shipped table found beside the program */
    static const char *const names[4] = {"none", "self-play", "teacher", "human"};
    for (int q = 0; q < 4; q++) {
      if (!strcmp(names[q], penalty)) continue;
      T.pen[T.npen] = base;
      T.pen[T.npen].pen = NULL;
      if (q > 0) {
        char f[64], path[4096];
        snprintf(f, sizeof f, "riichi_penalty_%s.tkw", names[q]);
        if (locate(NULL, f, path, sizeof path) || rs_penalty_load(path, &others[q], &err)) {
          fprintf(stderr, "riichi_mcp_bench: %s (not compared)\n", err.msg);
          continue;
        }
        T.pen[T.npen].pen = &others[q];
      }
      T.pen_name[T.npen++] = names[q];
    }
    for (int k = 1; k <= plies_max; k++) {
      T.c[k] = base;
      T.c[k].p.plies = k;
      T.t[k] = calloc((size_t)decisions, sizeof(double));
    }
    rmc_models m = {policy, efr, opp};
    rc = timing_run(&T, &m, seed);
    for (int k = 1; k <= plies_max; k++) free(T.t[k]);
  }
  mcm_free(&bcp);
  free(policy);
  rm_efr_free(efr);
  rm_opp_free(opp);
  rs_penalty_free(&table);
  for (int q = 0; q < 4; q++) rs_penalty_free(&others[q]);
  return rc;
}
