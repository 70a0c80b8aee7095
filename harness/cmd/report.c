/* harness/cmd/report.c — `taikai report SUMMARY --reference REF [--pairs L,...] [--notes FILE]
 * [--out FILE] [--strict] [--html FILE | --no-html]`: a run's results held against a published
 * table, as Markdown, and the run's report.html with the published values beside ours.
 *
 * REF is a JSON file holding the published numbers in summary.json's units (rates as
 * fractions), e.g. arenas/solo/table-5-1.reference.json:
 *   {"title": "...", "source": "...", "games": 10000,
 *    "metrics": ["win_rate", "points_per_game", ...],
 *    "rows": [{"label": "greedy", "win_rate": 0.1891, "points_per_game": 739.0, ...}, ...]}
 * "label" matches an agent of the run; "name" (optional) is shown instead of the label; a row's
 * metric may be null (not published). "games" (optional) is the reference's games per agent:
 * with it, each published rate gets its own Wilson interval and the report says whether it
 * overlaps ours. Metric titles, scales and decimals are the game's (harness/games/). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "chain.h"
#include "readfile.h"
#include "taikai/file.h"
#include "commands.h"
#include "opts.h"
#include "html.h"
#include "game.h"
#include "sprt.h"
#include "stats.h"
#include "summary.h"

enum { MAX_METRICS = 16, MAX_PAIRS = 16 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai report SUMMARY --reference REF [--pairs LABEL[,LABEL...]] [--notes FILE]\n"
          "                     [--out FILE] [--strict] [--html FILE | --no-html]\n"
          "       taikai report SUMMARY [--pairs LABEL] [--html FILE]\n"
          "\n"
          "Writes a Markdown report that holds a run's results (SUMMARY: the summary.json of\n"
          "`taikai run`) against a published table (REF: JSON with the table's numbers, see\n"
          "arenas/solo/table-5-1.reference.json): for every agent and metric of REF, our value\n"
          "with its confidence interval beside the published one, and whether the published\n"
          "value lies inside our interval (for rates, when REF gives its number of games,\n"
          "whether the two intervals overlap).\n"
          "\n"
          "  --reference REF   the published table (the Markdown report needs it)\n"
          "  --pairs L,...     also list the paired differences (other agent - L, on the same\n"
          "                    walls, from SUMMARY) for each agent label L\n"
          "  --notes FILE      Markdown appended as the report's discussion\n"
          "  --out FILE        write the report there (default: stdout)\n"
          "  --html FILE       also write the run's report.html there, with the published values\n"
          "                    charted beside ours (default: report.html in SUMMARY's folder)\n"
          "  --no-html         no report.html\n"
          "  --strict          exit status 1 when a check of REF does not hold (fails, is not\n"
          "                    decided by the intervals, or cannot be evaluated: an agent\n"
          "                    missing, a value undefined), or when SUMMARY is an\n"
          "                    incomplete run (one the sequential test stopped is not);\n"
          "                    each reason is printed (for CI)\n"
          "\n"
          "Without --reference only report.html is written (the run's page, as taikai run\n"
          "writes it; --pairs L: the paired differences against L): a way to rebuild it.\n"
          "\n"
          "REF may also list \"checks\": the shapes a reproduction must show (which agent is\n"
          "top on a metric, which is above or below another agent or a number, a trend along\n"
          "a list of agents, agreement with a published value); the report gives each a\n"
          "verdict with the evidence (intervals and paired differences on the same walls):\n"
          "holds or fails only when the intervals say so, \"not decided\" when they overlap.\n"
          "See the top of harness/cmd/report.c for the kinds.\n"
          "\n"
          "Exit status: 0 written; 1 with --strict, a check did not hold, or\n"
          "the run is incomplete (the report is written); 2 bad usage or input (the message\n"
          "names the file, field and value).\n");
}

typedef struct report {
  const char *summary_path, *ref_path;
  json_t *summary, *ref;
  const tk_game *game;
  const tk_metric *metrics[MAX_METRICS];
  const char *metric_names[MAX_METRICS];
  int nmetrics;
  double conf;
  double ref_games; /* 0: unknown */
} report;

static json_t *find_agent(json_t *summary, const char *label) {
  size_t i;
  json_t *a;
  json_array_foreach(json_object_get(summary, "agents"), i, a) {
    const char *l = json_string_value(json_object_get(a, "label"));
    if (l && !strcmp(l, label)) return a;
  }
  return NULL;
}

static const tk_metric *find_metric(const tk_game *g, const char *name) {
  for (int m = 0; m < g->nmetrics; m++)
    if (!strcmp(g->metrics[m].name, name)) return &g->metrics[m];
  return NULL;
}

/* {"value": v, "ci": [lo, hi]} -> 0, or -1 if absent or null. */
static int estimate_of(json_t *o, double *v, double *lo, double *hi) {
  json_t *val = json_object_get(o, "value"), *ci = json_object_get(o, "ci");
  if (!json_is_number(val)) return -1;
  *v = json_number_value(val);
  *lo = json_number_value(json_array_get(ci, 0));
  *hi = json_number_value(json_array_get(ci, 1));
  if (!json_is_number(json_array_get(ci, 0)) || !json_is_number(json_array_get(ci, 1))) *lo = *hi = NAN;
  return 0;
}

static int fail(const char *fmt, const char *a, const char *b, const char *c) {
  fprintf(stderr, "taikai report: ");
  fprintf(stderr, fmt, a, b, c);
  fputc('\n', stderr);
  return 2;
}

static char *dump(json_t *v) {
  char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  return s ? s : strdup("?");
}

/* Checks REF against the summary's game; fills r->metrics. Returns 0 or an exit status. */
static int load_reference(report *r) {
  tk_error je;
  tk_error_clear(&je);
  r->ref = tk_json_load_path(r->ref_path, 0, &je);
  if (!r->ref) return fail("%s%s%s", je.msg, "", "");
  if (!json_is_object(r->ref)) return fail("%s: expected a JSON object%s%s", r->ref_path, "", "");
  json_t *ms = json_object_get(r->ref, "metrics");
  if (!json_is_array(ms) || !json_array_size(ms) || json_array_size(ms) > MAX_METRICS) {
    char *s = dump(ms ? ms : json_null());
    int rc = fail("%s: field 'metrics': expected an array of 1 to 16 metric names, got %s", r->ref_path, s, "");
    free(s);
    return rc;
  }
  size_t i;
  json_t *m;
  json_array_foreach(ms, i, m) {
    const char *name = json_string_value(m);
    const tk_metric *mt = name ? find_metric(r->game, name) : NULL;
    if (!mt) {
      char *s = dump(m);
      char known[512] = "";
      for (int k = 0; k < r->game->nmetrics; k++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
                 r->game->metrics[k].name);
      fprintf(stderr, "taikai report: %s: field 'metrics[%zu]': %s is not a metric of game '%s' "
              "(metrics: %s)\n", r->ref_path, i, s, r->game->name, known);
      free(s);
      return 2;
    }
    r->metrics[r->nmetrics] = mt;
    r->metric_names[r->nmetrics++] = name;
  }
  json_t *games = json_object_get(r->ref, "games");
  if (games) {
    if (!json_is_number(games) || json_number_value(games) < 1) {
      char *s = dump(games);
      int rc = fail("%s: field 'games': expected a number of games >= 1, got %s", r->ref_path, s, "");
      free(s);
      return rc;
    }
    r->ref_games = json_number_value(games);
  }
  json_t *rows = json_object_get(r->ref, "rows");
  if (!json_is_array(rows) || !json_array_size(rows))
    return fail("%s: field 'rows': expected a non-empty array of {\"label\": ..., metric: value}%s%s",
                r->ref_path, "", "");
  json_t *row;
  json_array_foreach(rows, i, row) {
    const char *label = json_string_value(json_object_get(row, "label"));
    char field[64];
    snprintf(field, sizeof field, "rows[%zu].label", i);
    if (!label) return fail("%s: field '%s': expected an agent label%s", r->ref_path, field, "");
    for (int k = 0; k < r->nmetrics; k++) {
      json_t *v = json_object_get(row, r->metric_names[k]);
      if (v && !json_is_null(v) && !json_is_number(v)) {
        char *s = dump(v);
        snprintf(field, sizeof field, "rows[%zu].%s", i, r->metric_names[k]);
        int rc = fail("%s: field '%s': expected a number or null, got %s", r->ref_path, field, s);
        free(s);
        return rc;
      }
    }
  }
  return 0;
}

static void fmt_num(double v, const tk_metric *mt, char *buf, size_t cap) {
  if (!isfinite(v)) {
    snprintf(buf, cap, "–");
    return;
  }
  snprintf(buf, cap, "%.*f", mt->decimals, v * mt->scale);
  if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)) memmove(buf, buf + 1, strlen(buf)); /* -0.00 */
}

static void write_table(report *r, FILE *out) {
  json_t *rows = json_object_get(r->ref, "rows");
  fprintf(out, "| agent |");
  for (int k = 0; k < r->nmetrics; k++)
    fprintf(out, " %s: ours [%g%% CI] | published |", r->metrics[k]->title, r->conf * 100);
  fprintf(out, "\n|---|");
  for (int k = 0; k < r->nmetrics; k++) fprintf(out, "---|---|");
  fprintf(out, "\n");
  size_t i;
  json_t *row;
  int inside = 0, total = 0, overlap = 0, rates = 0;
  json_array_foreach(rows, i, row) {
    const char *label = json_string_value(json_object_get(row, "label"));
    const char *name = json_string_value(json_object_get(row, "name"));
    json_t *agent = find_agent(r->summary, label);
    fprintf(out, "| %s |", name ? name : label);
    for (int k = 0; k < r->nmetrics; k++) {
      const tk_metric *mt = r->metrics[k];
      double v = NAN, lo = NAN, hi = NAN;
      json_t *pv = json_object_get(row, r->metric_names[k]);
      double pub = json_is_number(pv) ? json_number_value(pv) : NAN;
      char a[32], b[32], c[32], p[32];
      if (agent && !estimate_of(json_object_get(agent, r->metric_names[k]), &v, &lo, &hi)) {
        fmt_num(v, mt, a, sizeof a);
        fmt_num(lo, mt, b, sizeof b);
        fmt_num(hi, mt, c, sizeof c);
        fprintf(out, " %s [%s, %s] |", a, b, c);
      } else {
        fprintf(out, " – |");
      }
      fmt_num(pub, mt, p, sizeof p);
      if (!isfinite(pub) || !isfinite(v) || !isfinite(lo)) {
        fprintf(out, " %s |", p);
        continue;
      }
      total++;
      int in = pub >= lo && pub <= hi;
      inside += in;
      /* a published rate with its own binomial interval (the reference's number of games) */
      tk_estimate e;
      if (mt->proportion && r->ref_games > 0 && pub >= 0 && pub <= 1 &&
          !tk_stats_wilson(pub * r->ref_games, r->ref_games, r->conf, &e)) {
        int ov = e.lo <= hi && lo <= e.hi;
        rates++;
        overlap += ov;
        char el[32], eh[32];
        fmt_num(e.lo, mt, el, sizeof el);
        fmt_num(e.hi, mt, eh, sizeof eh);
        fprintf(out, " %s [%s, %s] %s |", p, el, eh, in ? "inside" : ov ? "overlap" : "**apart**");
      } else {
        fprintf(out, " %s %s |", p, in ? "inside" : "**outside**");
      }
    }
    fprintf(out, "\n");
  }
  fprintf(out,
          "\n%d of %d published values lie inside our %g%% interval", inside, total, r->conf * 100);
  if (rates)
    fprintf(out, "; %d of %d published rates have an interval (Wilson, %g games) that overlaps ours",
            overlap, rates, r->ref_games);
  fprintf(out, ".\n");
  /* agents of the run the reference does not list */
  size_t j;
  json_t *a;
  int extra = 0;
  json_array_foreach(json_object_get(r->summary, "agents"), j, a) {
    const char *label = json_string_value(json_object_get(a, "label"));
    int listed = 0;
    json_array_foreach(rows, i, row) {
      const char *l = json_string_value(json_object_get(row, "label"));
      if (l && label && !strcmp(l, label)) listed = 1;
    }
    if (!listed) fprintf(out, "%s`%s`", extra++ ? ", " : "\nIn the run but not in the table: ", label);
  }
  if (extra) fprintf(out, ".\n");
}

/* The paired difference other - base for one metric, from summary.json's "paired" list (which
 * holds each pair once, as a - b). Returns 0 or -1. */
static int paired(json_t *summary, const char *other, const char *base, const char *metric,
                  double *v, double *lo, double *hi, double *p) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(summary, "paired"), i, x) {
    const char *a = json_string_value(json_object_get(x, "a"));
    const char *b = json_string_value(json_object_get(x, "b"));
    if (!a || !b) continue;
    int sign = !strcmp(a, other) && !strcmp(b, base) ? 1 : !strcmp(a, base) && !strcmp(b, other) ? -1 : 0;
    if (!sign) continue;
    json_t *m = json_object_get(x, metric);
    if (estimate_of(m, v, lo, hi)) return -1;
    *p = json_number_value(json_object_get(m, "p"));
    if (sign < 0) {
      double t = *lo;
      *v = -*v;
      *lo = -*hi;
      *hi = -t;
    }
    return 0;
  }
  return -1;
}

static void write_pairs(report *r, char **bases, int nbases, FILE *out) {
  for (int b = 0; b < nbases; b++) {
    fprintf(out, "\n### Paired differences: agent − %s (same walls, %g%% CI, p-value of no difference)\n\n",
            bases[b], r->conf * 100);
    fprintf(out, "| agent |");
    for (int k = 0; k < r->nmetrics; k++) fprintf(out, " Δ %s | p |", r->metrics[k]->title);
    fprintf(out, "\n|---|");
    for (int k = 0; k < r->nmetrics; k++) fprintf(out, "---|---|");
    fprintf(out, "\n");
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(r->summary, "agents"), i, a) {
      const char *label = json_string_value(json_object_get(a, "label"));
      if (!label || !strcmp(label, bases[b])) continue;
      fprintf(out, "| %s |", label);
      for (int k = 0; k < r->nmetrics; k++) {
        const tk_metric *mt = r->metrics[k];
        double v, lo, hi, p;
        if (paired(r->summary, label, bases[b], r->metric_names[k], &v, &lo, &hi, &p)) {
          fprintf(out, " – | – |");
          continue;
        }
        char s1[32], s2[32], s3[32];
        fmt_num(v, mt, s1, sizeof s1);
        fmt_num(lo, mt, s2, sizeof s2);
        fmt_num(hi, mt, s3, sizeof s3);
        /* bold when the interval excludes 0 */
        const char *mark = isfinite(lo) && (lo > 0 || hi < 0) ? "**" : "";
        char pv[32];
        if (!isfinite(p)) snprintf(pv, sizeof pv, "–");
        else if (p < 1e-4) snprintf(pv, sizeof pv, "< 0.0001");
        else snprintf(pv, sizeof pv, "%.4f", p);
        fprintf(out, " %s%s%s%s [%s, %s] | %s |", mark,
                s1[0] == '-' || strspn(s1, "0.") == strlen(s1) ? "" : "+", s1, mark, s2, s3, pv);
      }
      fprintf(out, "\n");
    }
  }
}


/* ------------------------------------------------------------------ checks
 *
 * REF's optional "checks": the shapes a reproduction must show, each
 *   {"text": "...", "kind": K, "metric": M, ...}
 * with kinds (the run's intervals and paired differences on the same walls), each verdict
 * "holds" or "fails" only when the intervals say so, and "not decided" when they do not:
 *   "top"       "label" has the highest value of M among "among" (default: every row): holds
 *               when its paired interval against every other agent lies above 0, fails when
 *               another agent's lies significantly above it;
 *   "above" / "below"  "label" is above / below "than": holds when the paired interval
 *               excludes 0 that way, fails when it excludes 0 the other way; with "value"
 *               instead of "than", our interval wholly above / below that number (in summary
 *               units) holds, wholly on the other side fails;
 *   "monotone"  along "labels", M moves in "direction" ("increasing" | "decreasing"): fails
 *               when a pair i < j's paired interval excludes 0 the wrong way, holds when none
 *               does and the last minus the first excludes 0 the right way;
 *   "any_above" some agent of "labels" is above "than": holds when one's paired interval lies
 *               above 0, fails when every one lies below 0;
 *   "agrees"    "label"'s interval holds the published value or, for a rate with "games",
 *               overlaps the published rate's interval (holds or fails).
 * A check whose agents, values or intervals are missing is "not evaluated" with the reason.
 * --strict fails on anything but "holds", and on an incomplete run. */

typedef struct est {
  double v, lo, hi, p;
  int ok;
} est;

static est ours(const report *r, const char *label, const char *metric) {
  est e = {NAN, NAN, NAN, NAN, 0};
  json_t *a = label ? find_agent(r->summary, label) : NULL;
  if (a && !estimate_of(json_object_get(a, metric), &e.v, &e.lo, &e.hi)) e.ok = 1;
  return e;
}

static est diff(const report *r, const char *a, const char *b, const char *metric) {
  est e = {NAN, NAN, NAN, NAN, 0};
  if (a && b && !paired(r->summary, a, b, metric, &e.v, &e.lo, &e.hi, &e.p)) e.ok = isfinite(e.lo);
  return e;
}

/* Appends printf-style text to buf. */
static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n >= cap - 1) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, cap - n, fmt, ap);
  va_end(ap);
}

/* Why `label`'s `metric` (`interval`: with an interval) cannot be used, into ev; returns -1
 * (a check that cannot be evaluated). */
static int no_value(const report *r, const char *label, const char *metric, char *ev, size_t cap) {
  json_t *a = label ? find_agent(r->summary, label) : NULL;
  ev[0] = '\0';
  if (!a) add(ev, cap, "agent '%s' is not in the run", label ? label : "?");
  else add(ev, cap, "%s has no value of %s (no data, e.g. no wins)", label, metric);
  return -1;
}

/* The same for the paired difference a - b. */
static int no_diff(const report *r, const char *a, const char *b, const char *metric, char *ev,
                   size_t cap) {
  if (!ours(r, a, metric).ok) return no_value(r, a, metric, ev, cap);
  if (!ours(r, b, metric).ok) return no_value(r, b, metric, ev, cap);
  ev[0] = '\0';
  add(ev, cap, "no interval for %s − %s on %s (no walls in common, or no variation and no "
      "range)", a, b, metric);
  return -1;
}

static json_t *published_row(const report *r, const char *label) {
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(r->ref, "rows"), i, row) {
    const char *l = json_string_value(json_object_get(row, "label"));
    if (l && label && !strcmp(l, label)) return row;
  }
  return NULL;
}

static void add_diff(char *buf, size_t cap, const tk_metric *mt, const char *a, const char *b, est d) {
  char v[32], lo[32], hi[32];
  fmt_num(d.v, mt, v, sizeof v);
  fmt_num(d.lo, mt, lo, sizeof lo);
  fmt_num(d.hi, mt, hi, sizeof hi);
  add(buf, cap, "%s − %s = %s%s [%s, %s]", a, b, d.v > 0 ? "+" : "", v, lo, hi);
}

/* The labels of a check field (array of strings), or every row's label. */
static int labels_of(const report *r, json_t *arr, const char **out, int cap) {
  int n = 0;
  size_t i;
  json_t *x;
  if (!arr) arr = json_object_get(r->ref, "rows");
  json_array_foreach(arr, i, x) {
    const char *l = json_is_string(x) ? json_string_value(x) : json_string_value(json_object_get(x, "label"));
    if (l && n < cap) out[n++] = l;
  }
  return n;
}

enum { CHECK_FAILS = 0, CHECK_HOLDS = 1, CHECK_UNDECIDED = 2 };

/* The verdict of an interval [lo, hi] on "above 0": holds, fails or not decided. */
static int sign_verdict(double lo, double hi) {
  return lo > 0 ? CHECK_HOLDS : hi < 0 ? CHECK_FAILS : CHECK_UNDECIDED;
}

/* Evaluates one check: CHECK_HOLDS, CHECK_FAILS, CHECK_UNDECIDED (the intervals decide
 * neither way), or -1 when it cannot be evaluated (an agent missing from the run, a value or
 * interval undefined); ev gets the evidence, or the reason it cannot be. */
static int eval_check(const report *r, json_t *c, const tk_metric *mt, const char *metric,
                      char *ev, size_t cap) {
  const char *kind = json_string_value(json_object_get(c, "kind"));
  const char *label = json_string_value(json_object_get(c, "label"));
  const char *than = json_string_value(json_object_get(c, "than"));
  const char *ls[64];
  char v[32], lo[32], hi[32];
  ev[0] = '\0';
  if (!strcmp(kind, "top")) {
    int n = labels_of(r, json_object_get(c, "among"), ls, 64);
    est me = ours(r, label, metric);
    if (!me.ok) return no_value(r, label, metric, ev, cap);
    const char *best = NULL;
    double bv = -INFINITY;
    for (int i = 0; i < n; i++) {
      if (!strcmp(ls[i], label)) continue;
      est e = ours(r, ls[i], metric);
      if (!e.ok) return no_value(r, ls[i], metric, ev, cap);
      if (!diff(r, label, ls[i], metric).ok) return no_diff(r, label, ls[i], metric, ev, cap);
      if (e.v > bv) bv = e.v, best = ls[i];
    }
    if (!best) {
      add(ev, cap, "no other agent to compare with");
      return -1;
    }
    int sig = 1, below = 0; /* above every other agent significantly; below one */
    for (int i = 0; i < n; i++) {
      if (!strcmp(ls[i], label)) continue;
      est d = diff(r, label, ls[i], metric);
      if (!(d.lo > 0)) sig = 0;
      if (d.hi < 0) below = 1;
    }
    fmt_num(me.v, mt, v, sizeof v);
    add(ev, cap, "%s %s; %s: ", label, v, me.v > bv ? "next" : "highest");
    add_diff(ev, cap, mt, label, best, diff(r, label, best, metric));
    add(ev, cap, sig ? " (above every other agent significantly)"
                     : below ? " (another agent significantly above)"
                             : " (within noise of the highest)");
    return sig ? CHECK_HOLDS : below ? CHECK_FAILS : CHECK_UNDECIDED;
  }
  if ((!strcmp(kind, "above") || !strcmp(kind, "below")) && !than) {
    /* against a fixed value: our interval lies wholly above (below) it */
    double x = json_number_value(json_object_get(c, "value"));
    est me = ours(r, label, metric);
    if (!me.ok || !isfinite(me.lo)) return no_value(r, label, metric, ev, cap);
    fmt_num(me.v, mt, v, sizeof v);
    fmt_num(me.lo, mt, lo, sizeof lo);
    fmt_num(me.hi, mt, hi, sizeof hi);
    char xs[32];
    fmt_num(x, mt, xs, sizeof xs);
    add(ev, cap, "%s %s [%s, %s] against %s", label, v, lo, hi, xs);
    return kind[0] == 'a' ? sign_verdict(me.lo - x, me.hi - x) : sign_verdict(x - me.hi, x - me.lo);
  }
  if (!strcmp(kind, "above") || !strcmp(kind, "below")) {
    est d = diff(r, label, than, metric);
    if (!d.ok) return no_diff(r, label, than, metric, ev, cap);
    add_diff(ev, cap, mt, label, than, d);
    return kind[0] == 'a' ? sign_verdict(d.lo, d.hi) : sign_verdict(-d.hi, -d.lo);
  }
  if (!strcmp(kind, "monotone")) {
    int n = labels_of(r, json_object_get(c, "labels"), ls, 64);
    const char *dir = json_string_value(json_object_get(c, "direction"));
    int up = dir && !strcmp(dir, "increasing");
    int inversions = 0, violations = 0;
    for (int i = 0; i < n; i++)
      if (!ours(r, ls[i], metric).ok) return no_value(r, ls[i], metric, ev, cap);
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        if (!diff(r, ls[j], ls[i], metric).ok) return no_diff(r, ls[j], ls[i], metric, ev, cap);
    for (int i = 0; i + 1 < n; i++) {
      est a = ours(r, ls[i], metric), b = ours(r, ls[i + 1], metric);
      if (up ? b.v < a.v : b.v > a.v) inversions++;
    }
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        est d = diff(r, ls[j], ls[i], metric); /* later - earlier */
        if (up ? d.hi < 0 : d.lo > 0) {
          if (violations++ < 3) {
            add(ev, cap, "%s", violations > 1 ? "; " : "against the trend: ");
            add_diff(ev, cap, mt, ls[j], ls[i], d);
          }
        }
      }
    char first[32], last[32];
    fmt_num(ours(r, ls[0], metric).v, mt, first, sizeof first);
    fmt_num(ours(r, ls[n - 1], metric).v, mt, last, sizeof last);
    est span = diff(r, ls[n - 1], ls[0], metric); /* last - first */
    add(ev, cap, "%s%s %s → %s %s; %d of %d steps against the trend in point estimates, "
        "%d significant pairs against it; ", ev[0] ? "; " : "", ls[0], first, ls[n - 1], last,
        inversions, n - 1, violations);
    add_diff(ev, cap, mt, ls[n - 1], ls[0], span);
    if (violations) return CHECK_FAILS;
    return (up ? span.lo > 0 : span.hi < 0) ? CHECK_HOLDS : CHECK_UNDECIDED;
  }
  if (!strcmp(kind, "any_above")) {
    int n = labels_of(r, json_object_get(c, "labels"), ls, 64);
    int holds = 0, sig = 0, below = 0;
    for (int i = 0; i < n; i++)
      if (!diff(r, ls[i], than, metric).ok) return no_diff(r, ls[i], than, metric, ev, cap);
    for (int i = 0; i < n; i++) {
      est d = diff(r, ls[i], than, metric);
      if (d.hi < 0) below++;
      if (d.v > 0) {
        add(ev, cap, "%s", holds++ ? "; " : "");
        add_diff(ev, cap, mt, ls[i], than, d);
        if (d.lo > 0) sig++;
      }
    }
    if (!holds) {
      est best = diff(r, ls[0], than, metric);
      const char *bl = ls[0];
      for (int i = 1; i < n; i++) {
        est d = diff(r, ls[i], than, metric);
        if (d.v > best.v) best = d, bl = ls[i];
      }
      add(ev, cap, "closest: ");
      add_diff(ev, cap, mt, bl, than, best);
    } else {
      add(ev, cap, " (%d of them significant)", sig);
    }
    return sig ? CHECK_HOLDS : below == n ? CHECK_FAILS : CHECK_UNDECIDED;
  }
  if (!strcmp(kind, "agrees")) {
    est me = ours(r, label, metric);
    json_t *row = published_row(r, label);
    json_t *pv = json_object_get(row, metric);
    if (!me.ok || !isfinite(me.lo)) return no_value(r, label, metric, ev, cap);
    if (!json_is_number(pv)) {
      add(ev, cap, "the reference publishes no %s for %s", metric, label);
      return -1;
    }
    double pub = json_number_value(pv);
    fmt_num(me.v, mt, v, sizeof v);
    fmt_num(me.lo, mt, lo, sizeof lo);
    fmt_num(me.hi, mt, hi, sizeof hi);
    char pb[32];
    fmt_num(pub, mt, pb, sizeof pb);
    add(ev, cap, "ours %s [%s, %s], published %s", v, lo, hi, pb);
    tk_estimate e;
    if (mt->proportion && r->ref_games > 0 && pub >= 0 && pub <= 1 &&
        !tk_stats_wilson(pub * r->ref_games, r->ref_games, r->conf, &e)) {
      char el[32], eh[32];
      fmt_num(e.lo, mt, el, sizeof el);
      fmt_num(e.hi, mt, eh, sizeof eh);
      add(ev, cap, " [%s, %s]", el, eh);
      return e.lo <= me.hi && me.lo <= e.hi ? CHECK_HOLDS : CHECK_FAILS;
    }
    return pub >= me.lo && pub <= me.hi ? CHECK_HOLDS : CHECK_FAILS;
  }
  add(ev, cap, "unknown kind");
  return -1;
}

/* Validates REF's checks (field names in errors). Returns 0 or an exit status. */
static int load_checks(const report *r) {
  json_t *cs = json_object_get(r->ref, "checks");
  if (!cs) return 0;
  if (!json_is_array(cs)) return fail("%s: field 'checks': expected an array%s%s", r->ref_path, "", "");
  static const char *const kinds[] = {"top", "above", "below", "monotone", "any_above", "agrees"};
  size_t i;
  json_t *c;
  json_array_foreach(cs, i, c) {
    char field[64];
    const char *kind = json_string_value(json_object_get(c, "kind"));
    const char *metric = json_string_value(json_object_get(c, "metric"));
    int known = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) known |= kind && !strcmp(kind, kinds[k]);
    snprintf(field, sizeof field, "checks[%zu].kind", i);
    if (!known) {
      char *v = dump(json_object_get(c, "kind") ? json_object_get(c, "kind") : json_null());
      fprintf(stderr, "taikai report: %s: field '%s': expected one of top, above, below, monotone, "
              "any_above, agrees, got %s\n", r->ref_path, field, v);
      free(v);
      return 2;
    }
    snprintf(field, sizeof field, "checks[%zu].metric", i);
    if (!metric || !find_metric(r->game, metric))
      return fail("%s: field '%s': expected a metric of the game, got %s", r->ref_path, field,
                  metric ? metric : "nothing");
    int need_label = strcmp(kind, "monotone") && strcmp(kind, "any_above");
    int need_than = !strcmp(kind, "above") || !strcmp(kind, "below") || !strcmp(kind, "any_above");
    int need_labels = !need_label;
    snprintf(field, sizeof field, "checks[%zu]", i);
    if (need_label && !json_is_string(json_object_get(c, "label")))
      return fail("%s: field '%s.label': expected an agent label%s", r->ref_path, field, "");
    int against_value = strcmp(kind, "any_above") && !json_object_get(c, "than");
    if (need_than && against_value && !json_is_number(json_object_get(c, "value")))
      return fail("%s: field '%s.than': expected an agent label (or 'value': a number)%s",
                  r->ref_path, field, "");
    if (need_than && !against_value && !json_is_string(json_object_get(c, "than")))
      return fail("%s: field '%s.than': expected an agent label%s", r->ref_path, field, "");
    if (need_labels && json_array_size(json_object_get(c, "labels")) < 2)
      return fail("%s: field '%s.labels': expected an array of at least 2 agent labels%s",
                  r->ref_path, field, "");
  }
  return 0;
}

/* Writes the checks section; counts the checks that fail or are not decided, and those not
 * evaluated. */
static void write_checks(const report *r, FILE *out, int *failed, int *unevaluated) {
  json_t *cs = json_object_get(r->ref, "checks");
  *failed = *unevaluated = 0;
  if (!json_array_size(cs)) return;
  fprintf(out, "\n## What must hold\n\n| claim | verdict | evidence |\n|---|---|---|\n");
  size_t i;
  json_t *c;
  json_array_foreach(cs, i, c) {
    const char *metric = json_string_value(json_object_get(c, "metric"));
    const tk_metric *mt = find_metric(r->game, metric);
    char ev[1024];
    int v = eval_check(r, c, mt, metric, ev, sizeof ev);
    const char *text = json_string_value(json_object_get(c, "text"));
    fprintf(out, "| %s | %s | %s |\n", text ? text : json_string_value(json_object_get(c, "kind")),
            v == CHECK_HOLDS ? "holds" : v == CHECK_FAILS ? "**fails**"
            : v == CHECK_UNDECIDED ? "**not decided**" : "**not evaluated**", ev);
    if (v == CHECK_FAILS || v == CHECK_UNDECIDED) (*failed)++;
    if (v < 0) {
      (*unevaluated)++;
      fprintf(stderr, "taikai report: %s: check %zu (%s) not evaluated: %s\n", r->ref_path, i,
              text ? text : "", ev);
    }
  }
}

/* The lines of the summary's folder checked against its games.chain: a line changed after the
 * run is refused (exit 2), a folder without a chain is reported as unchecked. Returns 0 or 2. */
/* The folder of a summary.json path ("." for a bare name, "/" at the root). */
static void summary_dir(const char *summary_path, char *dir, size_t cap) {
  snprintf(dir, cap, "%s", summary_path);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, cap, ".");
  else if (slash == dir) snprintf(dir, cap, "/");
  else *slash = '\0';
}

static int check_chain(const char *summary_path) {
  char dir[4096];
  summary_dir(summary_path, dir, sizeof dir);
  char games[4200], gz[4200];
  snprintf(games, sizeof games, "%s/games.jsonl", dir);
  snprintf(gz, sizeof gz, "%s/games.jsonl.gz", dir);
  if (tk_file_check(games, TK_FILE_ANY_SIZE, NULL) == TK_ENOTFOUND &&
      tk_file_check(gz, TK_FILE_ANY_SIZE, NULL) == TK_ENOTFOUND)
    return 0; /* a summary alone: nothing to check it against */
  return tk_chain_vouch(dir, "taikai report");
}

/* Says on stderr whether and when `taikai verify` checked the run (its folder's verify.json). */
static void print_verified(const char *summary_path) {
  char path[4200];
  snprintf(path, sizeof path, "%s", summary_path);
  char *slash = strrchr(path, '/');
  snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
           "verify.json");
  tk_error e;
  tk_error_clear(&e);
  json_t *v = tk_json_load_path(path, 0, &e);
  if (!json_is_object(v)) { /* none: nothing to say (stdout may be the Markdown) */
    if (v || e.code != TK_ENOTFOUND) fprintf(stderr, "taikai report: %s: not a verify.json\n", path);
    json_decref(v);
    return;
  }
  const char *date = json_string_value(json_object_get(v, "verified"));
  const char *result = json_string_value(json_object_get(v, "result"));
  fprintf(stderr, "taikai report: verified %s by taikai %s: %lld of %lld units played again: %s%s\n", date ? date : "?",
         json_string_value(json_object_get(v, "taikai_version")) ? json_string_value(json_object_get(v, "taikai_version")) : "?",
         (long long)json_integer_value(json_object_get(v, "units_checked")),
         (long long)json_integer_value(json_object_get(v, "units_in_folder")),
         result && !strcmp(result, "same") ? "the same" : "SOME DIFFER",
         json_is_true(json_object_get(v, "ignore_hashes")) ? " (--ignore-hashes)" : "");
  json_decref(v);
}

/* The run's report.html (at `html_path`, or in the summary's folder, which holds the run's
 * games.jsonl and gate.json). Returns 0 or 2 (printed). */
static int write_html(const char *summary_path, const char *html_path, const char *ref_path,
                      const char *base) {
  char dir[4096];
  summary_dir(summary_path, dir, sizeof dir);
  tk_html_opts ho = {.out = html_path, .reference = ref_path, .summary = summary_path,
                     .base = base};
  tk_error err;
  tk_error_clear(&err);
  if (tk_html_report(dir, &ho, &err)) {
    fprintf(stderr, "taikai report: %s\n", err.msg);
    return 2;
  }
  return 0;
}

/* Warns (stderr) of the reference's rows that name agents the run does not have. */
static void warn_missing_rows(const report *r) {
  size_t i;
  json_t *row;
  int missing = 0;
  json_array_foreach(json_object_get(r->ref, "rows"), i, row) {
    const char *label = json_string_value(json_object_get(row, "label"));
    if (find_agent(r->summary, label)) continue;
    if (!missing++)
      fprintf(stderr, "taikai report: warning: %s: rows name agents that %s does not have "
              "(shown as –):", r->ref_path, r->summary_path);
    fprintf(stderr, " %s", label);
  }
  if (missing) fputc('\n', stderr);
}

/* The report's title, the command that wrote it, the run's line (`decided`: why a sequential
 * test stopped it, or "") and the published numbers' source. */
static void write_header(const report *r, FILE *out, const char *pairs, const char *notes,
                         const char *out_path, const char *decided) {
  const char *title = json_string_value(json_object_get(r->ref, "title"));
  const char *source = json_string_value(json_object_get(r->ref, "source"));
  fprintf(out, "# %s\n\n", title ? title : "Results against a published table");
  fprintf(out, "<!-- generated by: taikai report %s --reference %s", r->summary_path, r->ref_path);
  if (pairs) fprintf(out, " --pairs %s", pairs);
  if (notes) fprintf(out, " --notes %s", notes);
  if (out_path) fprintf(out, " --out %s", out_path);
  fprintf(out, " -->\n\n");
  const json_t *s = r->summary;
  json_t *iv = json_object_get(s, "intervals");
  char state[300] = "";
  if (decided[0]) snprintf(state, sizeof state, " (%s)", decided);
  else if (json_is_false(json_object_get(s, "complete")))
    snprintf(state, sizeof state, " (**incomplete run**)");
  char words[128];
  tk_summary_units_words(r->game, (json_t *)s, words, sizeof words);
  fprintf(out, "Run: game `%s`, format `%s`, seed %lld, %lld walls, %lld units%s%s; taikai %s. "
          "Intervals: rates %s, means %s, paired %s.\n",
          r->game->name, json_string_value(json_object_get(s, "format")),
          (long long)json_integer_value(json_object_get(s, "seed")),
          (long long)json_integer_value(json_object_get(s, "walls")),
          (long long)json_integer_value(json_object_get(s, "units")), words,
          state, json_string_value(json_object_get(s, "taikai_version")),
          json_string_value(json_object_get(iv, "rates")) ? json_string_value(json_object_get(iv, "rates")) : "?",
          json_string_value(json_object_get(iv, "means")) ? json_string_value(json_object_get(iv, "means")) : "?",
          json_string_value(json_object_get(iv, "paired")) ? json_string_value(json_object_get(iv, "paired")) : "?");
  if (source) {
    size_t n = strlen(source);
    fprintf(out, "Published numbers: %s%s\n", source, n && source[n - 1] == '.' ? "" : ".");
  }
}

int tk_cmd_report(int argc, char **argv) {
  report r;
  memset(&r, 0, sizeof r);
  const char *notes = NULL, *out_path = NULL, *pairs = NULL, *html_path = NULL;
  int strict = 0, no_html = 0;
  const tk_opt opts[] = {
      {.name = "reference", .kind = TK_OPT_STRING, .dest = &r.ref_path, .once = 1,
       .value = "REF", .help = "the published table (the Markdown report needs it)"},
      {.name = "notes", .kind = TK_OPT_STRING, .dest = &notes, .once = 1, .value = "FILE",
       .help = "Markdown appended as the report's discussion"},
      {.name = "out", .short_name = 'o', .kind = TK_OPT_STRING, .dest = &out_path, .once = 1,
       .value = "FILE", .help = "write the report there (default: stdout)"},
      {.name = "pairs", .kind = TK_OPT_STRING, .dest = &pairs, .once = 1, .value = "L,...",
       .help = "also list the paired differences (other agent - L)"},
      {.name = "html", .kind = TK_OPT_STRING, .dest = &html_path, .once = 1, .value = "FILE",
       .help = "also write the run's report.html there"},
      {.name = "strict", .kind = TK_OPT_FLAG, .dest = &strict, .help = "exit status 1 when a check of REF does not hold"},
      {.name = "no-html", .kind = TK_OPT_FLAG, .dest = &no_html, .help = "no report.html"},
      {.name = NULL},
  };
  const char *pos[2];
  int npos = 0, prc = tk_opts_parse("report", opts, argc, argv, pos, 2, &npos);
  if (prc == 1) usage(stdout);
  if (prc) return prc == 1 ? 0 : 2;
  if (npos > 1) return fail("one summary at a time (got '%s' and '%s')%s", pos[0], pos[1], "");
  r.summary_path = npos ? pos[0] : NULL;
  if (!r.summary_path) {
    usage(stderr);
    return 2;
  }
  if (no_html && html_path) return fail("--html and --no-html together%s%s%s", "", "", "");
  if (check_chain(r.summary_path)) return 2;
  print_verified(r.summary_path);
  if (!r.ref_path) { /* the run's page alone */
    if (no_html || notes || out_path || strict)
      return fail("%s needs --reference (without it, only report.html is written)%s%s",
                  no_html ? "--no-html" : notes ? "--notes" : out_path ? "--out" : "--strict", "", "");
    char *base = pairs ? strdup(pairs) : NULL;
    if (base && strchr(base, ',')) *strchr(base, ',') = '\0';
    int rc = write_html(r.summary_path, html_path, NULL, base);
    free(base);
    return rc;
  }
  tk_error je;
  tk_error_clear(&je);
  r.summary = tk_json_load_path(r.summary_path, 0, &je);
  if (!r.summary) return fail("%s: cannot read a summary.json (%s)%s", r.summary_path, je.msg, "");
  const char *game = json_string_value(json_object_get(r.summary, "game"));
  r.game = game ? tk_game_find(game) : NULL;
  if (!r.game || !json_is_array(json_object_get(r.summary, "agents"))) {
    json_decref(r.summary);
    return fail("%s: not a summary.json of taikai run (no known 'game' and 'agents')%s%s",
                r.summary_path, "", "");
  }
  /* a run that did not play every unit (stopped, or still going); one the sequential test
   * stopped played what the test needed and is not incomplete */
  long long units = (long long)json_integer_value(json_object_get(r.summary, "units"));
  long long units_total = (long long)json_integer_value(json_object_get(r.summary, "units_total"));
  int incomplete = !json_is_true(json_object_get(r.summary, "complete"));
  char decided[256] = "";
  if (incomplete &&
      tk_sprt_stop_describe(json_string_value(json_object_get(r.summary, "stopped")),
                            (unsigned long long)json_integer_value(json_object_get(r.summary, "walls")),
                            decided, sizeof decided))
    incomplete = 0;
  r.conf = json_number_value(json_object_get(r.summary, "confidence"));
  if (!(r.conf > 0 && r.conf < 1)) r.conf = 0.95;
  int rc = load_reference(&r);
  if (!rc) rc = load_checks(&r);
  int failed = 0, unevaluated = 0;
  char *bases[MAX_PAIRS];
  int nbases = 0;
  char *pairs_buf = pairs ? strdup(pairs) : NULL;
  if (!rc && pairs_buf) {
    for (char *t = strtok(pairs_buf, ","); t && !rc; t = strtok(NULL, ",")) {
      if (!find_agent(r.summary, t))
        rc = fail("--pairs: no agent labelled '%s' in %s%s", t, r.summary_path, "");
      else if (nbases == MAX_PAIRS)
        rc = fail("--pairs: at most 16 labels%s%s%s", "", "", "");
      else
        bases[nbases++] = t;
    }
  }
  if (!rc) warn_missing_rows(&r);
  FILE *nf = NULL;
  tk_error ne;
  tk_error_clear(&ne);
  if (!rc && notes && tk_file_fopen(notes, "r", TK_JSON_FILE_MAX, &nf, &ne))
    rc = fail("--notes: cannot read %s (%s)%s", notes, ne.msg, "");
  FILE *out = stdout;
  char tmp[4096];
  if (!rc && out_path) {
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    if (!(out = fopen(tmp, "w"))) rc = fail("--out: cannot write %s: %s%s", tmp, strerror(errno), "");
  }
  if (!rc) {
    write_header(&r, out, pairs, notes, out_path, decided);
    fprintf(out, "\n## Ours beside the published table\n\n");
    write_table(&r, out);
    write_checks(&r, out, &failed, &unevaluated);
    if (nbases) {
      fprintf(out, "\n## Paired differences\n");
      write_pairs(&r, bases, nbases, out);
    }
    if (nf) {
      fprintf(out, "\n");
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, nf)) > 0) fwrite(buf, 1, n, out);
    }
    if (out != stdout) {
      if (fclose(out) || rename(tmp, out_path))
        rc = fail("--out: cannot write %s: %s%s", out_path, strerror(errno), "");
    }
  }
  if (!rc && !no_html) rc = write_html(r.summary_path, html_path, r.ref_path, nbases ? bases[0] : NULL);
  if (nf) fclose(nf);
  free(pairs_buf);
  json_decref(r.summary);
  json_decref(r.ref);
  if (!rc && failed)
    fprintf(stderr, "taikai report: %d check%s of %s fail%s or %s not decided\n", failed,
            failed > 1 ? "s" : "", r.ref_path, failed > 1 ? "" : "s", failed > 1 ? "are" : "is");
  if (!rc && unevaluated)
    fprintf(stderr, "taikai report: %d check%s of %s could not be evaluated\n", unevaluated,
            unevaluated > 1 ? "s" : "", r.ref_path);
  if (!rc && incomplete)
    fprintf(stderr, "taikai report: %s is an incomplete run: %lld of %lld units played\n",
            r.summary_path, units, units_total);
  if (!rc && strict && (failed || unevaluated || incomplete)) rc = 1;
  return rc;
}
