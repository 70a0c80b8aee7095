/* plugins/riichi_mcp/eval.c — `riichi_mcp_eval`: paper 000 table 5 on identical walls. Each
 * agent plays hands 0 .. N-1 of a seed as the self player, dealt and set up exactly as
 * riichi_mcp_records deals and sets up its hands (gen.h: the same wall, winds and opponents),
 * with no random move; a hand counts as a success at h when the self player wins it with at
 * least h han (dora, red fives and ura-dora counted; yakuman as >= 4).
 *
 *   riichi_mcp_eval [-n HANDS] [--seed S] [--opponents policy|tsumogiri] [--mcp FILE]
 *                   [--bcp FILE] [--weights FILE] [--targets LIST] [--compare] [-j N]
 *                   [--out FILE.json]
 *
 * Agents: the one-player policy (its success at every h from one pass), and for each model
 * given, target mode with target h = 1..4 (mct_decide; --targets 1,4 keeps those), each scored at
 * its own h. Paired on the
 * hands: a model minus the policy, the per-hand difference of the two success indicators, with a
 * normal interval (n is large). Hand i's outcome for an agent depends on (S, i) only, so the
 * result is the same for every -j: workers (forked) play hands i ≡ w (mod N) into a shared
 * array. The default seed (1001) differs from the generator's default (1), so the walls of the
 * evaluation are not those the models were trained on.
 *
 * How each agent plays, from the same hands: the share of hands with a call, with riichi, and
 * ending tenpai or better without a win. With --compare, at every decision of a model agent that
 * has two candidates or more, the policy is asked too (its answer is not played): the share of
 * those decisions where the two agree, where the model's hand after its move has a higher or a
 * lower shanten than the policy's, and how often each calls. All are sums of whole numbers, so
 * they too are the same for every -j. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "../riichi_oneplayer/weights_io.h"
#include "gen.h"
#include "opts.h"
#include "taikai/proc.h"
#include "target.h"

enum { MAX_AGENTS = 9, MAX_JOBS = 64 };

/* --compare's counters of one agent (summed over the workers). */
enum { CMP_MULTI, CMP_AGREE, CMP_HIGHER, CMP_LOWER, CMP_CALLS, CMP_POLICY_CALLS, CMP_N };

typedef struct agent {
  char label[16];
  const mcm_model *m; /* NULL: the policy */
  int target;         /* 1..4; 0 for the policy (scored at every h) */
  uint64_t *cmp;      /* --compare: this worker's counters for this agent (CMP_N), else NULL */
} agent;

/* How a hand was played (per agent and hand, in the shared map). */
typedef struct played {
  int8_t label, calls, riichi, shanten;
} played;

static const double *policy_w;

static int decide_policy(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         rop_choice *out, tk_error *err) {
  (void)ctx;
  return rop_decide(v, l, policy_w, out, err);
}

/* The candidate of cands[0..n) that choice `ch` plays: its own (action, discard), or for a riichi
 * declaration the discard of the same tile. -1 when none (a win, kyuushu). */
static int cand_of(const tk_riichi_legal *l, const rop_cand *c, int n, const rop_choice *ch) {
  const tk_riichi_action *a = &l->a[ch->action];
  for (int i = 0; i < n; i++) {
    const tk_riichi_action *b = &l->a[c[i].action];
    if (c[i].action == ch->action && c[i].discard == ch->discard) return i;
    if (a->type == TK_RIICHI_RIICHI && b->type == TK_RIICHI_DISCARD && b->tile == a->tile) return i;
  }
  return -1;
}

static int is_call(const tk_riichi_legal *l, const rop_cand *c) {
  int t = l->a[c->action].type;
  return t == TK_RIICHI_CHI || t == TK_RIICHI_PON || t == TK_RIICHI_MINKAN;
}

static int decide_target(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         rop_choice *out, tk_error *err) {
  const agent *a = ctx;
  int rc = mct_decide(v, l, a->m, a->target, out, err);
  if (rc || !a->cmp) return rc;
  static _Thread_local rop_cand c[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, c, ROP_MAX_CANDS);
  if (n < 2) return 0;
  rop_choice pc;
  if ((rc = rop_decide(v, l, policy_w, &pc, err))) return rc;
  int x = cand_of(l, c, n, out), y = cand_of(l, c, n, &pc);
  if (x < 0 || y < 0) return 0; /* a win (both take it) */
  a->cmp[CMP_MULTI]++;
  a->cmp[CMP_CALLS] += is_call(l, &c[x]);
  a->cmp[CMP_POLICY_CALLS] += is_call(l, &c[y]);
  if (x == y) {
    a->cmp[CMP_AGREE]++;
    return 0;
  }
  int sx = tk_shanten(c[x].hand.c), sy = tk_shanten(c[y].hand.c);
  a->cmp[CMP_HIGHER] += sx > sy;
  a->cmp[CMP_LOWER] += sx < sy;
  return 0;
}

/* Prints the usage after "riichi_mcp_eval: MSG" to stderr and returns 2; with msg NULL (--help),
 * the usage alone to stdout, returning 1. */
static int usage(const char *msg) {
  if (msg) fprintf(stderr, "riichi_mcp_eval: %s\n", msg);
  fprintf(msg ? stderr : stdout,
          "usage: riichi_mcp_eval [-n HANDS] [--seed S] "
          "[--opponents policy|tsumogiri] [--mcp FILE] [--bcp FILE] [--weights FILE] "
          "[--targets LIST] [--compare] [-j N] [--out FILE.json]\n"
          "paper 000 table 5: success rates of the policy and of MCP / BCP target mode\n");
  return msg ? 2 : 1;
}

/* Wilson score interval of k successes in n at 95 %. */
static void wilson(double k, double n, double *lo, double *hi) {
  double z = gsl_cdf_ugaussian_Pinv(0.975), p = k / n, d = 1 + z * z / n;
  double c = (p + z * z / (2 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
  *lo = c - h;
  *hi = c + h;
}

/* A worker (a child of tk_proc_spawn): plays hands j, j + jobs, ... with every agent and writes
 * how each went into the shared map. Returns 0, or 1 after printing a failure. */
typedef struct evaluation {
  const mcg_params *p;
  agent *agents;
  int na;
  played *hands;
  uint64_t n, j, jobs;
  uint64_t *cmp; /* --compare's counters, else NULL */
} evaluation;

static int evaluate_main(void *arg) {
  const evaluation *ev = arg;
  agent *agents = ev->agents;
  int na = ev->na;
  uint64_t n = ev->n, j = ev->j;
  tk_error err;
  tk_error_clear(&err);
  if (ev->cmp)
    for (int a = 1; a < na; a++) agents[a].cmp = ev->cmp + ((size_t)j * na + a) * CMP_N;
  for (uint64_t i = j; i < n; i += ev->jobs)
    for (int a = 0; a < na; a++) {
      mcg_result r;
      int rc = agents[a].m ? mcg_evaluate(ev->p, i, decide_target, &agents[a], &r, &err)
                           : mcg_evaluate(ev->p, i, decide_policy, NULL, &r, &err);
      if (rc < 0) {
        fprintf(stderr, "riichi_mcp_eval: %s, hand %llu: %s\n", agents[a].label,
                (unsigned long long)i, err.msg);
        return 1;
      }
      ev->hands[(size_t)a * n + i] = (played){(int8_t)rc, (int8_t)r.calls, (int8_t)r.riichi,
                                              (int8_t)r.shanten};
    }
  return 0;
}

/* The command line. */
typedef struct config {
  const char *weights, *opp, *mcp_path, *bcp_path, *out;
  uint64_t n, seed, jobs;
  int compare, targets; /* targets: bit h-1 set when target h is played */
  int opponents;        /* mcg_opponents_of(opp) */
} config;

/* --targets: a comma-separated list of single digits 1..4, e.g. "1,4". */
static int targets_opt(void *dest, const char *spelling, const char *v, tk_error *err) {
  int *targets = dest;
  size_t len = strlen(v);
  int ok = len % 2 == 1;
  for (size_t q = 0; ok && q < len; q++) ok = q % 2 ? v[q] == ',' : v[q] >= '1' && v[q] <= '4';
  if (!ok)
    return tk_error_set(err, TK_EINVAL, -1, "%s: '%s' is not a list of 1..4 (e.g. 1,4)",
                        spelling, v);
  *targets = 0;
  for (size_t q = 0; q < len; q += 2) *targets |= 1 << (v[q] - '1');
  return 0;
}

/* Parses the command line into c: 0, 1 after --help (printed), 2 on a usage error (printed). */
static int parse_config(int argc, char **argv, config *c) {
  *c = (config){.opp = "policy", .n = 10000, .seed = 1001, .jobs = 1, .targets = 0xf};
  const tk_opt opts[] = {
      {.name = "hands", .short_name = 'n', .kind = TK_OPT_U64, .dest = &c->n, .value = "HANDS",
       .min = 1, .max = 100000000},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &c->seed, .value = "S"},
      {.name = "jobs", .short_name = 'j', .kind = TK_OPT_U64, .dest = &c->jobs, .value = "N",
       .min = 1, .max = MAX_JOBS},
      {.name = "weights", .kind = TK_OPT_STRING, .dest = &c->weights, .value = "FILE"},
      {.name = "opponents", .kind = TK_OPT_STRING, .dest = &c->opp, .value = "policy|tsumogiri"},
      {.name = "mcp", .kind = TK_OPT_STRING, .dest = &c->mcp_path, .value = "FILE"},
      {.name = "bcp", .kind = TK_OPT_STRING, .dest = &c->bcp_path, .value = "FILE"},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &c->out, .value = "FILE.json"},
      {.name = "targets", .kind = TK_OPT_CALL, .dest = &c->targets, .call = targets_opt,
       .value = "LIST"},
      {.name = "compare", .kind = TK_OPT_FLAG, .dest = &c->compare},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog("riichi_mcp_eval", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) return usage(NULL);
  if (prc) return prc;
  c->opponents = mcg_opponents_of(c->opp);
  if (c->opponents < 0) {
    fprintf(stderr, "riichi_mcp_eval: --opponents: '%s' is not tsumogiri or policy\n", c->opp);
    return 2;
  }
  return 0;
}

/* The agents: the policy, then for --mcp and --bcp one per target played, their models loaded
 * into models[0..2). Returns their number, or -1 (printed). */
static int load_agents(const config *c, mcm_model models[2], agent agents[MAX_AGENTS]) {
  tk_error err;
  tk_error_clear(&err);
  int na = 0;
  agents[na++] = (agent){"policy", NULL, 0, NULL};
  const char *paths[2] = {c->mcp_path, c->bcp_path};
  for (int k = 0; k < 2; k++) {
    if (!paths[k]) continue;
    if (mcm_load(paths[k], k == 0 ? MCM_MCP : MCM_BCP, &models[k], &err)) {
      fprintf(stderr, "riichi_mcp_eval: %s\n", err.msg);
      return -1;
    }
    for (int h = 1; h <= 4; h++) {
      if (!(c->targets & 1 << (h - 1))) continue;
      agents[na] = (agent){"", &models[k], h, NULL};
      snprintf(agents[na].label, sizeof agents[na].label, "%s-%d", k == 0 ? "mcp" : "bcp", h);
      na++;
    }
  }
  return na;
}

/* Plays the hands in c->jobs forked workers into `hands` (and cmp with --compare). Returns 0,
 * or 1 (printed). */
static int play_all(const config *c, const mcg_params *p, agent *agents, int na, played *hands,
                    uint64_t *cmp) {
  tk_proc_ending workers[MAX_JOBS];
  for (uint64_t j = 0; j < c->jobs; j++) {
    evaluation ev = {p, agents, na, hands, c->n, j, c->jobs, c->compare ? cmp : NULL};
    tk_proc_opts o = {.fn = evaluate_main, .arg = &ev, .map = {-1, -1, -1}};
    pid_t pid;
    tk_error perr;
    tk_error_clear(&perr);
    if (tk_proc_spawn(&o, &pid, &perr)) {
      fprintf(stderr, "riichi_mcp_eval: %s\n", perr.msg);
      return 1;
    }
    workers[j] = (tk_proc_ending){.pid = pid, .stdin_fd = -1};
  }
  tk_proc_end(workers, (int)c->jobs, -1, 0); /* each runs to its end */
  int failed = 0;
  for (uint64_t j = 0; j < c->jobs; j++)
    if (!WIFEXITED(workers[j].status) || WEXITSTATUS(workers[j].status)) failed = 1;
  if (failed) {
    fprintf(stderr, "riichi_mcp_eval: a worker failed (above); no result\n");
    return 1;
  }
  return 0;
}

/* Prints (and writes to jf, when not NULL) each agent's success at each h, with the paired
 * difference to the policy. */
static void print_success(const config *c, const agent *agents, int na, const played *hands,
                          FILE *jf) {
  uint64_t n = c->n;
  double z = gsl_cdf_ugaussian_Pinv(0.975);
  printf("%-8s %-4s %-26s %-34s\n", "agent", "h", "success (95% Wilson)", "minus the policy (paired)");
  int first = 1;
  for (int h = 1; h <= 4; h++)
    for (int a = 0; a < na; a++) {
      if (agents[a].target && agents[a].target != h) continue;
      double k = 0, sd = 0, sd2 = 0;
      for (uint64_t i = 0; i < n; i++) {
        int s = hands[(size_t)a * n + i].label >= h, b = hands[i].label >= h;
        k += s;
        sd += s - b;
        sd2 += (double)(s - b) * (s - b);
      }
      double lo, hi, rate = k / (double)n;
      wilson(k, (double)n, &lo, &hi);
      double md = sd / (double)n, var = n > 1 ? (sd2 - sd * md) / (double)(n - 1) : 0;
      double half = z * sqrt(var / (double)n);
      if (a == 0)
        printf("%-8s %-4d %.4f [%.4f, %.4f]\n", agents[a].label, h, rate, lo, hi);
      else
        printf("%-8s %-4d %.4f [%.4f, %.4f]   %+.4f [%+.4f, %+.4f]\n", agents[a].label, h, rate,
               lo, hi, md, md - half, md + half);
      if (jf) {
        fprintf(jf, "%s\n  {\"agent\": \"%s\", \"h\": %d, \"successes\": %.0f, \"rate\": %.6f, "
                    "\"ci\": [%.6f, %.6f]",
                first ? "" : ",", agents[a].label, h, k, rate, lo, hi);
        if (a) fprintf(jf, ", \"minus_policy\": %.6f, \"minus_policy_ci\": [%.6f, %.6f]", md,
                       md - half, md + half);
        fprintf(jf, "}");
        first = 0;
      }
    }
}

/* Prints (and writes to jf) how each agent played: shares of the hands, and with --compare the
 * shares of its decisions (cmp: each worker's counters). */
static void print_play(const config *c, const agent *agents, int na, const played *hands,
                       const uint64_t *cmp, FILE *jf) {
  uint64_t n = c->n;
  printf("\n%-8s %-10s %-10s %-22s", "agent", "a call", "riichi", "no win, tenpai at end");
  if (c->compare)
    printf(" %-10s %-18s %-18s %-16s", "decisions", "agree w/ policy", "higher / lower sh.",
           "calls: it / pol.");
  printf("\n");
  for (int a = 0; a < na; a++) {
    double calls = 0, riichi = 0, tenpai = 0, lost = 0;
    for (uint64_t i = 0; i < n; i++) {
      const played *x = &hands[(size_t)a * n + i];
      calls += x->calls > 0;
      riichi += x->riichi > 0;
      lost += x->shanten >= 0;
      tenpai += x->shanten == 0;
    }
    printf("%-8s %-10.4f %-10.4f %-22.4f", agents[a].label, calls / (double)n, riichi / (double)n,
           lost > 0 ? tenpai / lost : 0);
    if (jf)
      fprintf(jf, "%s\n  {\"agent\": \"%s\", \"hands_with_a_call\": %.6f, \"hands_with_riichi\": "
                  "%.6f, \"tenpai_at_end_of_lost\": %.6f",
              a ? "," : "", agents[a].label, calls / (double)n, riichi / (double)n,
              lost > 0 ? tenpai / lost : 0);
    if (c->compare && a) {
      uint64_t k[CMP_N] = {0};
      for (uint64_t j = 0; j < c->jobs; j++)
        for (int q = 0; q < CMP_N; q++) k[q] += cmp[((size_t)j * na + a) * CMP_N + q];
      double d = k[CMP_MULTI] ? (double)k[CMP_MULTI] : 1;
      printf(" %-10llu %-18.4f %.4f / %-9.4f %.4f / %.4f", (unsigned long long)k[CMP_MULTI],
             k[CMP_AGREE] / d, k[CMP_HIGHER] / d, k[CMP_LOWER] / d, k[CMP_CALLS] / d,
             k[CMP_POLICY_CALLS] / d);
      if (jf)
        fprintf(jf, ", \"decisions\": %llu, \"agree\": %.6f, \"higher_shanten\": %.6f, "
                    "\"lower_shanten\": %.6f, \"calls\": %.6f, \"policy_calls\": %.6f",
                (unsigned long long)k[CMP_MULTI], k[CMP_AGREE] / d, k[CMP_HIGHER] / d,
                k[CMP_LOWER] / d, k[CMP_CALLS] / d, k[CMP_POLICY_CALLS] / d);
    }
    printf("\n");
    if (jf) fprintf(jf, "}");
  }
}

int main(int argc, char **argv) {
  config c;
  int prc = parse_config(argc, argv, &c);
  if (prc) return prc == 1 ? 0 : 2;
  uint64_t n = c.n;
  char wpath[4096];
  tk_error err;
  tk_error_clear(&err);
  double *w = NULL;
  if (mcg_load_policy(c.weights, wpath, sizeof wpath, &w, &err)) {
    fprintf(stderr, "riichi_mcp_eval: %s\n", err.msg);
    return 1;
  }
  policy_w = w;
  static mcm_model models[2];
  agent agents[MAX_AGENTS];
  int na = load_agents(&c, models, agents);
  if (na < 0) return 1;

  /* hands[a * n + i]: how agent a played hand i (label -1 until played); then each worker's
   * --compare counters, CMP_N per agent. */
  size_t bytes = (size_t)na * n * sizeof(played) + (size_t)c.jobs * na * CMP_N * sizeof(uint64_t);
  played *hands = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (hands == MAP_FAILED) {
    fprintf(stderr, "riichi_mcp_eval: cannot map %zu bytes: %s\n", bytes, strerror(errno));
    return 1;
  }
  for (size_t i = 0; i < (size_t)na * n; i++) hands[i].label = -1;
  uint64_t *cmp = (uint64_t *)(hands + (size_t)na * n); /* mmap: zeroed, 8-aligned */
  mcg_params p;
  mcg_params_init(&p, c.seed, c.opponents, w);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (play_all(&c, &p, agents, na, hands, cmp)) return 1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  FILE *jf = NULL;
  if (c.out && !(jf = fopen(c.out, "w"))) {
    fprintf(stderr, "riichi_mcp_eval: %s: cannot write: %s\n", c.out, strerror(errno));
    return 1;
  }
  if (jf)
    fprintf(jf, "{\"seed\": %llu, \"hands\": %llu, \"opponents\": \"%s\", \"rows\": [",
            (unsigned long long)c.seed, (unsigned long long)n, c.opp);
  printf("hands %llu of seed %llu, opponents %s; %.1f CPU s (%.2f ms a hand and agent), %.1f s\n",
         (unsigned long long)n, (unsigned long long)c.seed, c.opp, cpu,
         1e3 * cpu / ((double)n * na),
         (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  print_success(&c, agents, na, hands, jf);
  if (jf) fprintf(jf, "\n], \"play\": [");
  print_play(&c, agents, na, hands, cmp, jf);
  if (jf) {
    fprintf(jf, "\n]}\n");
    if (fclose(jf)) {
      fprintf(stderr, "riichi_mcp_eval: %s: cannot write: %s\n", c.out, strerror(errno));
      return 1;
    }
  }
  return 0;
}
