/* plugins/riichi_mcp/eval.c — `riichi_mcp_eval`: paper 000 table 5 on identical walls. Each
 * agent plays hands 0 .. N-1 of a seed as the self player, dealt and set up exactly as
 * riichi_mcp_records deals and sets up its hands (gen.h: the same wall, winds and opponents),
 * with no random move; a hand counts as a success at h when the self player wins it with at
 * least h han (dora, red fives and ura-dora counted; yakuman as >= 4).
 *
 *   riichi_mcp_eval [-n HANDS] [--seed S] [--opponents policy|tsumogiri] [--mcp FILE]
 *                   [--bcp FILE] [--weights FILE] [-j N] [--out FILE.json]
 *
 * Agents: the one-player policy (its success at every h from one pass), and for each model
 * given, target mode with target h = 1..4 (mct_decide), each scored at its own h. Paired on the
 * hands: a model minus the policy, the per-hand difference of the two success indicators, with a
 * normal interval (n is large). Hand i's outcome for an agent depends on (S, i) only, so the
 * result is the same for every -j: workers (forked) play hands i ≡ w (mod N) into a shared
 * array. The default seed (1001) differs from the generator's default (1), so the walls of the
 * evaluation are not those the models were trained on. */
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
#include "target.h"

enum { MAX_AGENTS = 9, MAX_JOBS = 64 };

typedef struct agent {
  char label[16];
  const mcm_model *m; /* NULL: the policy */
  int target;         /* 1..4; 0 for the policy (scored at every h) */
} agent;

static const double *policy_w;

static int decide_policy(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         rop_choice *out, tk_error *err) {
  (void)ctx;
  return rop_decide(v, l, policy_w, out, err);
}

static int decide_target(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         rop_choice *out, tk_error *err) {
  const agent *a = ctx;
  return mct_decide(v, l, a->m, a->target, out, err);
}

static int usage(const char *msg) {
  fprintf(stderr,
          "riichi_mcp_eval: %s\nusage: riichi_mcp_eval [-n HANDS] [--seed S] "
          "[--opponents policy|tsumogiri] [--mcp FILE] [--bcp FILE] [--weights FILE] [-j N] "
          "[--out FILE.json]\n",
          msg);
  return 2;
}

/* Wilson score interval of k successes in n at 95 %. */
static void wilson(double k, double n, double *lo, double *hi) {
  double z = gsl_cdf_ugaussian_Pinv(0.975), p = k / n, d = 1 + z * z / n;
  double c = (p + z * z / (2 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
  *lo = c - h;
  *hi = c + h;
}

int main(int argc, char **argv) {
  const char *weights = NULL, *opp = "policy", *mcp_path = NULL, *bcp_path = NULL, *out = NULL;
  uint64_t n = 10000, seed = 1001, jobs = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage("paper 000 table 5: success rates of the policy and of MCP / BCP target mode");
      return 0;
    }
    if (i + 1 >= argc) return usage("a flag without its value, or an unknown argument");
    const char *v = argv[++i];
    if (!strcmp(a, "--weights")) weights = v;
    else if (!strcmp(a, "--opponents")) opp = v;
    else if (!strcmp(a, "--mcp")) mcp_path = v;
    else if (!strcmp(a, "--bcp")) bcp_path = v;
    else if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "-n")) {
      if (mcg_parse_u64("riichi_mcp_eval", a, v, &n)) return 2;
    } else if (!strcmp(a, "--seed")) {
      if (mcg_parse_u64("riichi_mcp_eval", a, v, &seed)) return 2;
    } else if (!strcmp(a, "-j")) {
      if (mcg_parse_u64("riichi_mcp_eval", a, v, &jobs)) return 2;
    } else {
      fprintf(stderr, "riichi_mcp_eval: unknown flag '%s'\n", a);
      return 2;
    }
  }
  if (n < 1 || n > 100000000) return usage("-n: the hands must be 1 .. 10^8");
  if (jobs < 1 || jobs > MAX_JOBS) {
    fprintf(stderr, "riichi_mcp_eval: -j: %llu is not in 1..%d\n", (unsigned long long)jobs,
            MAX_JOBS);
    return 2;
  }
  int opponents = mcg_opponents_of(opp);
  if (opponents < 0) {
    fprintf(stderr, "riichi_mcp_eval: --opponents: '%s' is not tsumogiri or policy\n", opp);
    return 2;
  }
  char wpath[4096];
  tk_error err;
  tk_error_clear(&err);
  double *w = NULL;
  if (mcg_load_policy(weights, wpath, sizeof wpath, &w, &err)) {
    fprintf(stderr, "riichi_mcp_eval: %s\n", err.msg);
    return 1;
  }
  policy_w = w;
  static mcm_model models[2];
  agent agents[MAX_AGENTS];
  int na = 0;
  agents[na++] = (agent){"policy", NULL, 0};
  const char *paths[2] = {mcp_path, bcp_path};
  for (int k = 0; k < 2; k++) {
    if (!paths[k]) continue;
    if (mcm_load(paths[k], k == 0 ? MCM_MCP : MCM_BCP, &models[k], &err)) {
      fprintf(stderr, "riichi_mcp_eval: %s\n", err.msg);
      return 1;
    }
    for (int h = 1; h <= 4; h++) {
      agents[na] = (agent){"", &models[k], h};
      snprintf(agents[na].label, sizeof agents[na].label, "%s-%d", k == 0 ? "mcp" : "bcp", h);
      na++;
    }
  }

  /* labels[a * n + i]: agent a's label on hand i (-1 until played). */
  size_t bytes = (size_t)na * n;
  int8_t *labels = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (labels == MAP_FAILED) {
    fprintf(stderr, "riichi_mcp_eval: cannot map %zu bytes: %s\n", bytes, strerror(errno));
    return 1;
  }
  memset(labels, -1, bytes);
  mcg_params p;
  mcg_params_init(&p, seed, opponents, w);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pids[MAX_JOBS];
  for (uint64_t j = 0; j < jobs; j++) {
    pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "riichi_mcp_eval: fork: %s\n", strerror(errno));
      return 1;
    }
    if (pid == 0) {
      for (uint64_t i = j; i < n; i += jobs)
        for (int a = 0; a < na; a++) {
          mcg_result r;
          int rc = agents[a].m ? mcg_evaluate(&p, i, decide_target, &agents[a], &r, &err)
                               : mcg_evaluate(&p, i, decide_policy, NULL, &r, &err);
          if (rc < 0) {
            fprintf(stderr, "riichi_mcp_eval: %s, hand %llu: %s\n", agents[a].label,
                    (unsigned long long)i, err.msg);
            _exit(1);
          }
          labels[(size_t)a * n + i] = (int8_t)rc;
        }
      _exit(0);
    }
    pids[j] = pid;
  }
  int failed = 0;
  for (uint64_t j = 0; j < jobs; j++) {
    int st;
    while (waitpid(pids[j], &st, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st)) failed = 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (failed) {
    fprintf(stderr, "riichi_mcp_eval: a worker failed (above); no result\n");
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;

  /* success[a][h]: hands agent a won with >= h han. */
  double z = gsl_cdf_ugaussian_Pinv(0.975);
  FILE *jf = NULL;
  if (out && !(jf = fopen(out, "w"))) {
    fprintf(stderr, "riichi_mcp_eval: %s: cannot write: %s\n", out, strerror(errno));
    return 1;
  }
  if (jf)
    fprintf(jf, "{\"seed\": %llu, \"hands\": %llu, \"opponents\": \"%s\", \"rows\": [",
            (unsigned long long)seed, (unsigned long long)n, opp);
  printf("hands %llu of seed %llu, opponents %s; %.1f CPU s (%.2f ms a hand and agent), %.1f s\n",
         (unsigned long long)n, (unsigned long long)seed, opp, cpu, 1e3 * cpu / ((double)n * na),
         (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  printf("%-8s %-4s %-26s %-34s\n", "agent", "h", "success (95% Wilson)", "minus the policy (paired)");
  int first = 1;
  for (int h = 1; h <= 4; h++)
    for (int a = 0; a < na; a++) {
      if (agents[a].target && agents[a].target != h) continue;
      double k = 0, sd = 0, sd2 = 0;
      for (uint64_t i = 0; i < n; i++) {
        int s = labels[(size_t)a * n + i] >= h, b = labels[i] >= h;
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
  if (jf) {
    fprintf(jf, "\n]}\n");
    if (fclose(jf)) {
      fprintf(stderr, "riichi_mcp_eval: %s: cannot write: %s\n", out, strerror(errno));
      return 1;
    }
  }
  return 0;
}
