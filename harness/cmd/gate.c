/* harness/cmd/gate.c — `taikai gate SPEC --candidate L --baseline L --metric M --bounds D0,D1
 * [--raw] [--alpha A] [--beta B] [--batch W] [--max-walls N] [run's options]`, also reached as
 * `taikai run SPEC --sprt ...`: the tournament of SPEC played wall after wall with a sequential
 * probability ratio test (harness/stats/sprt.h) on the per-wall paired difference candidate −
 * baseline of one metric as its stopping rule. The test looks every `batch` walls and stops the
 * run at the first look whose LLR crosses a bound.
 *
 * The per-wall difference of a metric R = Σnum / Σden is the difference of the two agents'
 * linearised per-wall values, R + (num_i − R·den_i) / mean(den), whose mean is exactly
 * R_candidate − R_baseline (the paired difference summary.json reports, on the same walls). An
 * agent whose denominator is still 0 on every wall (points per win before its first win) counts
 * as 0 on each.
 *
 * The output folder is an ordinary run folder (spec.json with walls = the cap, games.jsonl,
 * summary.json, report.md, report.html) plus gate.json: the test's parameters, every look, the
 * decision and the estimate with its anytime-valid interval; report.html is written again
 * with the test's LLR trace. The same command continues an interrupted gate:
 * the looks are re-evaluated on the kept walls (the same walls give the same looks), then play
 * goes on; a gate that had decided decides again without playing. A larger --max-walls extends
 * a gate that ran out of walls. A folder whose gate.json holds another test is refused, naming
 * each field that differs with the folder's value and this command's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "readfile.h"
#include "commands.h"
#include "html.h"
#include "opts.h"
#include "runargs.h"
#include "sprt.h"
#include "tally.h"

enum { EXIT_H1 = 0, EXIT_H0 = 1, EXIT_USAGE = 2, EXIT_NONE = 3, EXIT_FAILED = 4 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai gate SPEC --candidate LABEL --baseline LABEL --metric NAME\n"
          "                   --bounds D0,D1 [--raw] [--alpha A] [--beta B] [--batch W]\n"
          "                   [--max-walls N] [--min-walls N] [--confidence C]\n"
          "                   [-j N] [--seed S] [--out DIR] [--resume] [--records] [--logs]\n"
          "                   [--quiet] [--no-html] [--mpi]\n"
          "       taikai run SPEC --sprt (the same options)\n"
          "\n"
          "Plays the tournament SPEC wall after wall and decides, by a sequential probability\n"
          "ratio test on the per-wall paired difference candidate - baseline of one metric,\n"
          "between H0 (mean difference D0) and H1 (mean difference D1), stopping as soon as the\n"
          "evidence crosses a bound. For a metric where lower is better (mean place), swap the\n"
          "roles or the signs of the bounds accordingly.\n"
          "\n"
          "  --candidate, --baseline  agent labels of SPEC (different agents)\n"
          "  --metric NAME   one of the game's metrics (taikai plugins lists games; e.g. solo's\n"
          "                  points_per_game, riichi's mean_rank, daifugo's paper_points_per_game)\n"
          "  --bounds D0,D1  the hypotheses, D0 < D1: by default in standard deviations of the\n"
          "                  per-wall difference (normalised, as chess engine testing does);\n"
          "                  with --raw in the metric's own units (summary.json's: rates as\n"
          "                  fractions). Non-regression: e.g. -0.1,0.02 (pass unless the\n"
          "                  candidate is weaker); stronger: e.g. 0,0.1\n"
          "  --alpha A       P(accept H1 | H0), default 0.05\n"
          "  --beta B        P(accept H0 | H1), default 0.05\n"
          "  --batch W       walls between looks, default 10\n"
          "  --max-walls N   the cap (default: the spec's walls); the run's spec.json has N walls\n"
          "  --min-walls N   no decision before N walls (default 20; at least 2): the variance\n"
          "                  of a few walls is too uncertain (see docs/referee.md)\n"
          "  --confidence C  level of the reported interval, default 0.95\n"
          "  the rest        as taikai run (-j, --seed, --out, --resume, --records, --logs, --quiet,\n"
          "                  --no-html, --mpi);\n"
          "                  the default output folder is the spec's with \"-gate\" appended\n"
          "\n"
          "Prints each look (walls, mean difference, LLR, bounds) on stderr, the decision and the\n"
          "estimate with an interval valid under sequential stopping on stdout, and writes\n"
          "gate.json beside the run's files; report.html shows the LLR trace between its\n"
          "bounds. The same command continues an interrupted gate.\n"
          "\n"
          "Exit status: 0 H1 accepted (the candidate passes); 1 H0 accepted (it fails); 3 no\n"
          "decision within the cap; 2 bad usage or refused; 4 the run failed or was stopped by\n"
          "the fault policy \"abort\"; 130 / 143 interrupted (run the same command again).\n");
}

typedef struct gate {
  tk_sprt_params p;
  const char *cand_label, *base_label, *metric_name, *cmd;
  uint64_t batch;
  int quiet, bounds_set;
  /* set up by the hook */
  int cand, base;
  const tk_metric *mt;
  uint64_t per_wall, walls;
  tk_tally tally;
  double *na, *da, *nb, *db, *x;
  json_t *looks;
  tk_sprt_look last;
  int decision;
  uint64_t decided_walls;
  char out[4096];
} gate;

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  if (!s || !*s) return -1;
  double v = strtod(s, &end);
  if (errno || *end || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

/* The linearised per-wall values of a ratio (see the file comment) into x (n entries). */
static void linearise(const double *num, const double *den, size_t n, double *x, int add) {
  double sn = 0, sd = 0;
  for (size_t i = 0; i < n; i++) sn += num[i], sd += den[i];
  double r = sd > 0 ? sn / sd : 0, md = sd / (double)n;
  for (size_t i = 0; i < n; i++) {
    double z = md > 0 ? r + (num[i] - r * den[i]) / md : 0;
    x[i] = add ? x[i] - z : z;
  }
}

/* An LLR as gate.json stores it (an infinite one as ±TK_SPRT_LLR_INF). */
static double llr_json(double llr) {
  return isfinite(llr) ? llr : llr > 0 ? TK_SPRT_LLR_INF : -TK_SPRT_LLR_INF;
}

static void look(gate *g) {
  const tk_metric *mt = g->mt;
  size_t n = tk_tally_columns(&g->tally, g->cand, g->base, mt->num, mt->den, g->na, g->da);
  tk_tally_columns(&g->tally, g->base, g->cand, mt->num, mt->den, g->nb, g->db);
  linearise(g->na, g->da, n, g->x, 0);
  linearise(g->nb, g->db, n, g->x, 1); /* x = candidate's - baseline's */
  tk_sprt_eval(&g->p, g->x, n, &g->last);
  json_t *l = json_object();
  json_object_set_new(l, "walls", json_integer((json_int_t)n));
  json_object_set_new(l, "mean", json_real(g->last.mean));
  json_object_set_new(l, "sd", json_real(g->last.sd));
  json_object_set_new(l, "llr", json_real(llr_json(g->last.llr)));
  json_array_append_new(g->looks, l);
  if (!g->quiet)
    fprintf(stderr, "%staikai %s: %zu walls: difference %+.5g (sd %.4g) LLR %+.3f in "
            "(%.3f, %.3f)\n", isatty(STDERR_FILENO) ? "\r\033[K" : "", g->cmd, n, g->last.mean * mt->scale, g->last.sd * mt->scale,
            g->last.llr, g->last.lower, g->last.upper);
}

static int rule(void *ctx, const tk_unit_result *res, char *why, size_t cap) {
  gate *g = ctx;
  if (tk_tally_add(&g->tally, res)) return 0; /* cannot happen: the run's own tally took it */
  if ((res->unit + 1) % g->per_wall) return 0;
  uint64_t walls = (res->unit + 1) / g->per_wall;
  if (walls % g->batch && walls != g->walls) return 0;
  look(g);
  if (g->decision || !g->last.decision) return 0;
  g->decision = g->last.decision;
  g->decided_walls = walls;
  tk_sprt_stop_text(&g->last, why, cap);
  return 1;
}

static json_t *test_json(const gate *g) {
  json_t *t = json_object();
  json_object_set_new(t, "candidate", json_string(g->cand_label));
  json_object_set_new(t, "baseline", json_string(g->base_label));
  json_object_set_new(t, "metric", json_string(g->metric_name));
  json_object_set_new(t, "bounds", json_pack("[f, f]", g->p.d0, g->p.d1));
  json_object_set_new(t, "normalised", json_boolean(g->p.normalised));
  json_object_set_new(t, "alpha", json_real(g->p.alpha));
  json_object_set_new(t, "beta", json_real(g->p.beta));
  json_object_set_new(t, "batch", json_integer((json_int_t)g->batch));
  json_object_set_new(t, "min_walls", json_integer((json_int_t)g->p.min_walls));
  json_object_set_new(t, "confidence", json_real(g->p.confidence));
  return t;
}

/* A field of a test as its option is written: a number as %g, bounds as "D0,D1", a label as
 * it is; "(absent)" when the test has no such field. */
static void field_text(const json_t *v, char *buf, size_t cap) {
  if (!v) {
    snprintf(buf, cap, "(absent)");
  } else if (json_is_array(v)) {
    size_t len = 0, i;
    json_t *x;
    buf[0] = '\0';
    json_array_foreach(v, i, x) {
      char one[64];
      field_text(x, one, sizeof one);
      if (len < cap) len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", one);
    }
  } else if (json_is_number(v)) {
    snprintf(buf, cap, "%g", json_number_value(v));
  } else if (json_is_string(v)) {
    snprintf(buf, cap, "%s", json_string_value(v));
  } else {
    snprintf(buf, cap, "%s", json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null");
  }
}

/* Lists every field in which test `there` (the folder's gate.json; NULL: none recorded) differs
 * from `here` (this command's) into `what` as "FIELD: A there, B here; ...". Returns the number
 * of fields that differ. */
static int test_diff(const json_t *there, const json_t *here, char *what, size_t cap) {
  size_t len = 0;
  int n = 0;
  what[0] = '\0';
  if (!json_is_object(there)) {
    snprintf(what, cap, "its gate.json records no test");
    return 1;
  }
  for (int side = 0; side < 2; side++) { /* this command's fields, then any only the folder has */
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)(side ? there : here), key, v) {
      json_t *a = json_object_get(there, key), *b = json_object_get(here, key);
      if (side && b) continue;
      if (a && b && json_equal(a, b)) continue;
      char sa[128], sb[128];
      field_text(a, sa, sizeof sa);
      field_text(b, sb, sizeof sb);
      if (len < cap)
        len += (size_t)snprintf(what + len, cap - len, "%s%s: %s there, %s here", n ? "; " : "",
                                key, sa, sb);
      n++;
    }
  }
  return n;
}

static int hook(void *ctx, tk_run *r, const char *dir, tk_run_opts *o) {
  gate *g = ctx;
  if (dir) {
    /* a folder holding another gate's test is refused (its looks would be re-read with other
     * bounds: a test chosen after seeing the data) */
    snprintf(g->out, sizeof g->out, "%s", dir);
    char path[4200];
    snprintf(path, sizeof path, "%s/gate.json", dir);
    if (access(path, F_OK)) return 0; /* a new gate, or a plain run's folder being extended */
    tk_error je;
    tk_error_clear(&je);
    json_t *old = tk_json_load_path(path, 0, &je);
    if (!old) {
      fprintf(stderr, "taikai %s: refused: %s (not a gate.json): use another --out folder\n",
              g->cmd, je.msg);
      return 1;
    }
    json_t *mine = test_json(g), *theirs = json_object_get(old, "test");
    char what[1024];
    int differ = test_diff(theirs, mine, what, sizeof what);
    if (differ)
      fprintf(stderr, "taikai %s: refused: %s holds another test (%s): use another --out "
              "folder\n", g->cmd, path, what);
    json_decref(mine);
    json_decref(old);
    return differ;
  }
  if (!r->game || r->game->nseats < 1) return 1;
  g->cand = g->base = -1;
  for (int i = 0; i < r->spec.nagents; i++) {
    if (!strcmp(r->spec.agents[i].label, g->cand_label)) g->cand = i;
    if (!strcmp(r->spec.agents[i].label, g->base_label)) g->base = i;
  }
  const char *which = g->cand < 0 ? g->cand_label : g->base < 0 ? g->base_label : NULL;
  if (which) {
    fprintf(stderr, "taikai %s: refused: no agent labelled '%s' in the spec (agents:", g->cmd,
            which);
    for (int i = 0; i < r->spec.nagents; i++)
      fprintf(stderr, "%s '%s'", i ? "," : "", r->spec.agents[i].label);
    fprintf(stderr, ")\n");
    return 1;
  }
  if (g->cand == g->base) {
    fprintf(stderr, "taikai %s: refused: the candidate and the baseline are the same agent "
            "('%s')\n", g->cmd, g->cand_label);
    return 1;
  }
  g->mt = NULL;
  for (int m = 0; m < r->game->nmetrics; m++)
    if (!strcmp(r->game->metrics[m].name, g->metric_name)) g->mt = &r->game->metrics[m];
  if (!g->mt) {
    fprintf(stderr, "taikai %s: refused: --metric '%s': game '%s' has the metrics", g->cmd,
            g->metric_name, r->game->name);
    for (int m = 0; m < r->game->nmetrics; m++)
      fprintf(stderr, "%s %s", m ? "," : "", r->game->metrics[m].name);
    fprintf(stderr, "\n");
    return 1;
  }
  g->per_wall = r->sched.per_wall;
  g->walls = r->spec.walls;
  g->p.max_walls = (size_t)r->spec.walls;
  char why[256];
  if (tk_sprt_check(&g->p, why, sizeof why)) {
    fprintf(stderr, "taikai %s: refused: %s\n", g->cmd, why);
    return 1;
  }
  if (tk_tally_for_run(&g->tally, r)) {
    fprintf(stderr, "taikai %s: out of memory for %llu walls\n", g->cmd,
            (unsigned long long)r->spec.walls);
    return 1;
  }
  size_t w = (size_t)r->spec.walls;
  g->na = malloc(w * sizeof *g->na);
  g->da = malloc(w * sizeof *g->da);
  g->nb = malloc(w * sizeof *g->nb);
  g->db = malloc(w * sizeof *g->db);
  g->x = malloc(w * sizeof *g->x);
  g->looks = json_array();
  if (!g->na || !g->da || !g->nb || !g->db || !g->x || !g->looks) {
    fprintf(stderr, "taikai %s: out of memory for %llu walls\n", g->cmd,
            (unsigned long long)r->spec.walls);
    return 1;
  }
  o->rule = rule;
  o->rule_ctx = g;
  return 0;
}

static int write_gate_json(const gate *g, int status) {
  json_t *j = json_object();
  json_object_set_new(j, "test", test_json(g));
  const char *d = g->decision > 0 ? "H1" : g->decision < 0 ? "H0" : "none";
  json_object_set_new(j, "decision", json_string(d));
  json_object_set_new(j, "exit_status", json_integer(status));
  json_object_set_new(j, "walls", json_integer((json_int_t)g->last.n));
  json_object_set_new(j, "max_walls", json_integer((json_int_t)g->walls));
  json_object_set_new(j, "llr", json_real(llr_json(g->last.llr)));
  json_object_set_new(j, "llr_bounds", json_pack("[f, f]", g->last.lower, g->last.upper));
  json_t *e = json_object();
  json_object_set_new(e, "value", json_real(g->last.mean));
  json_object_set_new(e, "sd", json_real(g->last.sd));
  if (isfinite(g->last.lo) && isfinite(g->last.hi))
    json_object_set_new(e, "ci", json_pack("[f, f]", g->last.lo, g->last.hi));
  else
    json_object_set_new(e, "ci", json_null());
  json_object_set_new(e, "method", json_string("normal-mixture confidence sequence "
                                               "(anytime-valid)"));
  json_object_set_new(j, "difference", e);
  if (g->p.normalised) {
    json_t *th = json_object();
    json_object_set_new(th, "at_h0", json_real(tk_sprt_expected_walls(&g->p, 0)));
    json_object_set_new(th, "at_h1", json_real(tk_sprt_expected_walls(&g->p, 1)));
    json_object_set_new(j, "expected_walls_wald", th);
  }
  json_object_set(j, "looks", g->looks);
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
  json_decref(j);
  if (!text) return -1;
  tk_error err;
  tk_error_clear(&err);
  size_t n = strlen(text);
  char *t2 = realloc(text, n + 2);
  if (!t2) {
    free(text);
    return -1;
  }
  t2[n] = '\n';
  t2[n + 1] = '\0';
  int rc = tk_write_atomic(g->out, "gate.json", t2, n + 1, &err);
  free(t2);
  if (rc) fprintf(stderr, "taikai %s: %s\n", g->cmd, err.msg);
  return rc;
}

static void gate_free(gate *g) {
  tk_tally_free(&g->tally);
  free(g->na);
  free(g->da);
  free(g->nb);
  free(g->db);
  free(g->x);
  json_decref(g->looks);
}

/* --bounds D0,D1: two numbers. */
static int bounds_option(void *dest, const char *spelling, const char *v, tk_error *err) {
  gate *g = dest;
  char buf[128], *comma;
  (void)spelling;
  snprintf(buf, sizeof buf, "%s", v);
  if (!(comma = strchr(buf, ',')) || (*comma = '\0', parse_double(buf, &g->p.d0)) ||
      parse_double(comma + 1, &g->p.d1))
    return tk_error_set(err, TK_EINVAL, -1, "--bounds expects D0,D1 (two numbers, e.g. "
                        "-0.1,0.02), got '%s'", v);
  g->bounds_set = 1;
  return 0;
}

/* Parses the gate's command line (its own options and run's) into g and a: 0, 1 for --help,
 * 2 on a usage error (printed). */
static int gate_args(int argc, char **argv, const char *cmd, gate *g, tk_run_args *a) {
  uint64_t max_walls = 0, min_walls = 0;
  int raw = 0, have_max = 0, have_min = 0;
  tk_opt t[TK_RUN_NOPTS + 12];
  int n = tk_run_args_table(a, t, TK_RUN_NOPTS);
  const tk_opt own[] = {
      {.name = "candidate", .kind = TK_OPT_STRING, .dest = &g->cand_label, .once = 1,
       .value = "LABEL", .help = "the agent under test"},
      {.name = "baseline", .kind = TK_OPT_STRING, .dest = &g->base_label, .once = 1,
       .value = "LABEL", .help = "the agent it is compared with"},
      {.name = "metric", .kind = TK_OPT_STRING, .dest = &g->metric_name, .once = 1,
       .value = "NAME", .help = "the metric compared"},
      {.name = "bounds", .kind = TK_OPT_CALL, .dest = g, .call = bounds_option, .once = 1,
       .value = "D0,D1", .help = "the differences of H0 and H1"},
      {.name = "raw", .kind = TK_OPT_FLAG, .dest = &raw, .once = 1,
       .help = "bounds in the metric's units"},
      {.name = "alpha", .kind = TK_OPT_DOUBLE, .dest = &g->p.alpha, .once = 1, .value = "A",
       .help = "the error of accepting H1 under H0"},
      {.name = "beta", .kind = TK_OPT_DOUBLE, .dest = &g->p.beta, .once = 1, .value = "B",
       .help = "the error of accepting H0 under H1"},
      {.name = "confidence", .kind = TK_OPT_DOUBLE, .dest = &g->p.confidence, .once = 1,
       .value = "C", .help = "the confidence sequence's level"},
      {.name = "batch", .kind = TK_OPT_U64, .dest = &g->batch, .once = 1, .value = "W",
       .min = 1, .max = 1000000000, .help = "walls between looks"},
      {.name = "max-walls", .kind = TK_OPT_U64, .dest = &max_walls, .given = &have_max,
       .once = 1, .value = "N", .min = 1, .max = 1000000000, .help = "walls at most"},
      {.name = "min-walls", .kind = TK_OPT_U64, .dest = &min_walls, .given = &have_min,
       .once = 1, .value = "N", .min = 1, .max = 1000000000, .help = "walls before any decision"},
      {.name = "sprt", .kind = TK_OPT_FLAG, .once = 1, .help = "`taikai run --sprt`"},
  };
  memcpy(t + n, own, sizeof own);
  t[n + (int)(sizeof own / sizeof own[0])] = (tk_opt){.name = NULL};
  const char *pos[2];
  int npos = 0, rc = tk_opts_parse(cmd, t, argc, argv, pos, 2, &npos);
  if (rc) return rc;
  if (npos > 1) {
    fprintf(stderr, "taikai %s: one spec at a time (got '%s' and '%s')\n", cmd, pos[0], pos[1]);
    return 2;
  }
  a->spec_path = npos ? pos[0] : NULL;
  if (raw) g->p.normalised = 0;
  if (have_min) g->p.min_walls = (size_t)min_walls;
  if (have_max && a->walls && a->walls != max_walls) {
    fprintf(stderr, "taikai %s: --max-walls and --walls disagree\n", cmd);
    return 2;
  }
  if (have_max) a->walls = max_walls;
  return 0;
}

int tk_gate_main(int argc, char **argv, const char *cmd) {
  gate g;
  memset(&g, 0, sizeof g);
  g.cmd = cmd;
  g.p.normalised = 1;
  g.p.alpha = g.p.beta = 0.05;
  g.p.confidence = 0.95;
  g.batch = 10;
  g.p.min_walls = 20;
  tk_run_args a;
  memset(&a, 0, sizeof a);
  int prc = gate_args(argc, argv, cmd, &g, &a);
  if (prc == 1) {
    usage(stdout);
    return 0;
  }
  if (prc) return EXIT_USAGE;
  const char *missing = !a.spec_path ? "SPEC" : !g.cand_label ? "--candidate"
                        : !g.base_label ? "--baseline" : !g.metric_name ? "--metric"
                        : !g.bounds_set ? "--bounds" : NULL;
  if (missing) {
    fprintf(stderr, "taikai %s: %s is required (see taikai gate --help)\n", cmd, missing);
    return EXIT_USAGE;
  }
  /* the default folder: the spec's own with "-gate", so a gate never continues a plain run */
  char outbuf[4200];
  if (!a.out) {
    tk_spec spec;
    tk_error err;
    tk_error_clear(&err);
    if (tk_spec_load(a.spec_path, &spec, &err)) {
      fprintf(stderr, "taikai %s: %s\n", cmd, err.msg);
      return EXIT_USAGE;
    }
    snprintf(outbuf, sizeof outbuf, "%s-gate", spec.output);
    tk_spec_free(&spec);
    a.out = outbuf;
  }
  g.quiet = a.quiet;
  int rc = tk_run_tournament(&a, cmd, hook, &g);
  if (rc == 2) {
    gate_free(&g);
    return EXIT_USAGE;
  }
  if (rc == 1 || rc == 3) {
    gate_free(&g);
    return EXIT_FAILED;
  }
  int status = g.decision > 0 ? EXIT_H1 : g.decision < 0 ? EXIT_H0 : rc ? rc : EXIT_NONE;
  if (g.out[0] && write_gate_json(&g, status)) {
    gate_free(&g);
    return EXIT_FAILED;
  }
  if (g.out[0] && !a.no_html) { /* the run's page again, now with the test's trace */
    tk_error err;
    tk_error_clear(&err);
    if (tk_html_report(g.out, NULL, &err)) {
      fprintf(stderr, "taikai %s: %s\n", cmd, err.msg);
      gate_free(&g);
      return EXIT_FAILED;
    }
  }
  const char *unit = g.p.normalised ? " standard deviations" : "";
  if (rc && !g.decision) {
    printf("\ngate: interrupted after %zu walls with no decision yet; run the same command again "
           "to go on\n", g.last.n);
  } else if (g.decision) {
    printf("\ngate: %s accepted after %llu walls of at most %llu: '%s' %s against '%s' on %s "
           "(bounds %g, %g%s)\n", g.decision > 0 ? "H1" : "H0",
           (unsigned long long)g.decided_walls, (unsigned long long)g.walls, g.cand_label,
           g.decision > 0 ? "PASSES" : "FAILS", g.base_label, g.metric_name, g.p.d0, g.p.d1,
           unit);
  } else {
    printf("\ngate: no decision within %llu walls (LLR %+.3f inside (%.3f, %.3f)); a larger "
           "--max-walls continues the test\n", (unsigned long long)g.walls, g.last.llr,
           g.last.lower, g.last.upper);
  }
  if (g.last.n >= 2)
    printf("gate: difference %s - %s = %+.6g, %g%% interval valid under sequential stopping "
           "[%+.6g, %+.6g]; LLR %+.3f; wrote %s/gate.json\n", g.cand_label, g.base_label,
           g.last.mean * g.mt->scale, 100 * g.p.confidence, g.last.lo * g.mt->scale,
           g.last.hi * g.mt->scale, g.last.llr, g.out);
  gate_free(&g);
  return status;
}

int tk_cmd_gate(int argc, char **argv) { return tk_gate_main(argc, argv, "gate"); }
