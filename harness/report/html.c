/* harness/report/html.c — report.html (html.h): the results table, the sequential test of a gate
 * (its LLR trace between its bounds), our values beside a published table, forest plots of the
 * paired differences, the rank distribution of multi-seat games and each agent's metric against
 * the walls played. Everything shown comes from the folder's summary.json, gate.json and
 * games.jsonl and from the reference file; every string from them is escaped (spec labels and
 * plugin names are untrusted). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

#include "readfile.h"
#include "taikai/file.h"
#include "game.h"
#include "html.h"
#include "line.h"
#include "readfile.h"
#include "sprt.h"
#include "stats.h"
#include "svg.h"

enum { MAX_HEADLINE = 3, CONVERGENCE_POINTS = 150 };

typedef struct page {
  FILE *f;
  const char *dir;
  json_t *sum, *gate, *ref;
  const tk_game *g;
  const char *base;
  double conf;
  int nagents;
} page;

static const tk_metric *metric_of(const tk_game *g, const char *name) {
  for (int m = 0; name && m < g->nmetrics; m++)
    if (!strcmp(g->metrics[m].name, name)) return &g->metrics[m];
  return NULL;
}

static json_t *agent_of(json_t *sum, const char *label) {
  size_t i;
  json_t *a;
  json_array_foreach(json_object_get(sum, "agents"), i, a) {
    const char *l = json_string_value(json_object_get(a, "label"));
    if (l && label && !strcmp(l, label)) return a;
  }
  return NULL;
}

/* {"value": v, "ci": [lo, hi]}: 0 with v (lo, hi NAN without an interval), or -1 if no value. */
static int estimate_of(json_t *o, double *v, double *lo, double *hi) {
  json_t *val = json_object_get(o, "value"), *ci = json_object_get(o, "ci");
  *v = *lo = *hi = NAN;
  if (!json_is_number(val)) return -1;
  *v = json_number_value(val);
  if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
    *lo = json_number_value(json_array_get(ci, 0));
    *hi = json_number_value(json_array_get(ci, 1));
  }
  return 0;
}

/* other − base for one metric from summary.json's "paired" (each pair held once, as a − b). */
static int paired_of(json_t *sum, const char *other, const char *base, const char *metric,
                     double *v, double *lo, double *hi) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(sum, "paired"), i, x) {
    const char *a = json_string_value(json_object_get(x, "a"));
    const char *b = json_string_value(json_object_get(x, "b"));
    if (!a || !b) continue;
    int sign = !strcmp(a, other) && !strcmp(b, base) ? 1 : !strcmp(a, base) && !strcmp(b, other) ? -1 : 0;
    if (!sign) continue;
    if (estimate_of(json_object_get(x, metric), v, lo, hi)) return -1;
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

/* A value in the metric's display units ("–" when not finite; never "-0.00"). */
static void fmt(double v, const tk_metric *mt, char *buf, size_t cap) {
  if (!isfinite(v)) {
    snprintf(buf, cap, "–");
    return;
  }
  snprintf(buf, cap, "%.*f", mt->decimals, v * mt->scale);
  if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)) memmove(buf, buf + 1, strlen(buf));
}

static void esc(page *p, const char *s) { tk_html_escape(p->f, s); }

static const char *label_at(page *p, size_t i) {
  return json_string_value(json_object_get(json_array_get(json_object_get(p->sum, "agents"), i), "label"));
}

/* ------------------------------------------------------------------ the page's parts */

const char tk_html_css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0}"
    "th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}"
    "th:first-child,td:first-child,td.l,th.l{text-align:left}th{background:#f0f0f0}"
    ".scroll{overflow-x:auto}.ci{color:#777;font-size:11px}.note{color:#555;font-size:13px}"
    ".bad{color:#b00;font-weight:bold}.good{color:#070;font-weight:bold}"
    "svg{display:block;margin:8px 0}"
    "svg .ct{font-size:14px;font-weight:bold}svg .tick{font-size:11px;fill:#444}"
    "svg .lab{font-size:12px}svg .al{font-size:12px;fill:#222}svg .seg{font-size:11px;fill:#fff}"
    "svg .ax{stroke:#444;stroke-width:1}svg .grid{stroke:#e4e4e4;stroke-width:1}"
    "svg .zero{stroke:#888;stroke-dasharray:4 3}svg .bound{stroke:#b00;stroke-dasharray:6 3}"
    "svg .ci{stroke:#1f77b4;stroke-width:2}svg .pt{fill:#1f77b4}"
    "svg .pci{stroke:#d62728;stroke-width:2}svg .pub{fill:#fff;stroke:#d62728;stroke-width:1.5}"
    "svg .ln{fill:none;stroke-width:1.6}svg .val{font-size:10px;fill:#333}"
    "svg .infl{font-size:12px;font-weight:bold;fill:#222}";

static void facts(page *p) {
  json_t *s = p->sum, *iv = json_object_get(s, "intervals");
  FILE *f = p->f;
  fputs("<p class=\"note\">Game <b>", f);
  esc(p, p->g->name);
  fputs("</b>, format ", f);
  esc(p, json_string_value(json_object_get(s, "format")));
  fprintf(f, ", seed %lld, %lld walls, %lld of %lld units played", 
          (long long)json_integer_value(json_object_get(s, "seed")),
          (long long)json_integer_value(json_object_get(s, "walls")),
          (long long)json_integer_value(json_object_get(s, "units")),
          (long long)json_integer_value(json_object_get(s, "units_total")));
  char decided[160];
  if (!json_is_true(json_object_get(s, "complete")) &&
      tk_sprt_stop_describe(json_string_value(json_object_get(s, "stopped")),
                            (unsigned long long)json_integer_value(json_object_get(s, "walls")),
                            decided, sizeof decided)) {
    fprintf(f, ", %s", decided); /* the run played what its test needed: not incomplete */
  } else if (!json_is_true(json_object_get(s, "complete"))) {
    fputs(" <span class=\"bad\">(incomplete run", f);
    const char *why = json_string_value(json_object_get(s, "stopped"));
    if (why) {
      fputs(": ", f);
      esc(p, why);
    }
    fputs(")</span>", f);
  }
  fputs("; taikai ", f);
  esc(p, json_string_value(json_object_get(s, "taikai_version")));
  fprintf(f, ". Intervals at %g%%: rates ", p->conf * 100);
  esc(p, json_string_value(json_object_get(iv, "rates")));
  fputs(", means ", f);
  esc(p, json_string_value(json_object_get(iv, "means")));
  fputs(", paired differences ", f);
  esc(p, json_string_value(json_object_get(iv, "paired")));
  fputs("; walls are the independent unit.</p>\n", f);
}

static void results_table(page *p) {
  FILE *f = p->f;
  const tk_game *g = p->g;
  fprintf(f, "<h2>Results</h2>\n<div class=\"scroll\"><table>\n<tr><th>agent</th><th class=\"l\">plugin</th>"
          "<th>games</th><th>faults</th>");
  for (int m = 0; m < g->nmetrics; m++) {
    fputs("<th>", f);
    esc(p, g->metrics[m].title);
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  size_t i;
  json_t *a;
  json_array_foreach(json_object_get(p->sum, "agents"), i, a) {
    fputs("<tr><td>", f);
    esc(p, json_string_value(json_object_get(a, "label")));
    fputs("</td><td class=\"l\">", f);
    esc(p, json_string_value(json_object_get(a, "plugin")));
    fputs(" ", f);
    esc(p, json_string_value(json_object_get(a, "version")));
    fprintf(f, "</td><td>%lld</td><td>%lld</td>", (long long)json_integer_value(json_object_get(a, "games")),
            (long long)json_integer_value(json_object_get(a, "faults")));
    for (int m = 0; m < g->nmetrics; m++) {
      const tk_metric *mt = &g->metrics[m];
      double v, lo, hi;
      char s1[40], s2[40], s3[40];
      if (estimate_of(json_object_get(a, mt->name), &v, &lo, &hi)) {
        fputs("<td>–</td>", f);
        continue;
      }
      fmt(v, mt, s1, sizeof s1);
      fmt(lo, mt, s2, sizeof s2);
      fmt(hi, mt, s3, sizeof s3);
      if (isfinite(lo)) fprintf(f, "<td>%s<br><span class=\"ci\">[%s, %s]</span></td>", s1, s2, s3);
      else fprintf(f, "<td>%s<br><span class=\"ci\">no interval</span></td>", s1);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table></div>\n", f);
}

/* The forest plot of every agent − base on metric mt. */
static void forest(page *p, const tk_metric *mt) {
  json_t *agents = json_object_get(p->sum, "agents");
  size_t n = json_array_size(agents);
  tk_forest_row *rows = calloc(n ? n : 1, sizeof *rows);
  if (!rows) return;
  int k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *l = label_at(p, i);
    if (!l || !strcmp(l, p->base)) continue;
    tk_forest_row *r = &rows[k++];
    r->label = l;
    r->pv = r->plo = r->phi = NAN;
    if (paired_of(p->sum, l, p->base, mt->name, &r->v, &r->lo, &r->hi)) r->v = r->lo = r->hi = NAN;
    r->v *= mt->scale, r->lo *= mt->scale, r->hi *= mt->scale;
  }
  char title[512], xlabel[512];
  snprintf(title, sizeof title, "%s: agent − %s", mt->title, p->base);
  snprintf(xlabel, sizeof xlabel, "difference in %s, same walls (dot: estimate; line: %g%% interval)",
           mt->title, p->conf * 100);
  if (k) tk_svg_forest(p->f, title, xlabel, rows, k, 1, mt->decimals);
  free(rows);
}

static void rank_bars(page *p) {
  const char *const *metrics = p->g->rank_metrics, *const *names = p->g->rank_labels;
  if (!metrics || !names) return;
  int nseg = 0;
  while (nseg < TK_MAX_SEATS && metrics[nseg]) nseg++;
  json_t *agents = json_object_get(p->sum, "agents");
  size_t n = json_array_size(agents);
  double *frac = calloc(n * (size_t)nseg + 1, sizeof *frac);
  const char **labels = calloc(n + 1, sizeof *labels);
  if (!frac || !labels) {
    free(frac);
    free(labels);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    labels[i] = label_at(p, i);
    for (int k = 0; k < nseg; k++) {
      double v, lo, hi;
      json_t *a = json_array_get(agents, i);
      frac[i * (size_t)nseg + (size_t)k] =
          estimate_of(json_object_get(a, metrics[k]), &v, &lo, &hi) ? NAN : v;
    }
  }
  fputs("<h2>Rank distribution</h2>\n", p->f);
  tk_svg_stacked(p->f, "share of games in each place, first place left", labels, (int)n,
                 names, nseg, frac);
  free(frac);
  free(labels);
}

/* The metric against walls played: each agent's running value sum(num) / sum(den) over the
 * walls so far, read from games.jsonl (units are numbered wall-major), with its final interval
 * as a bracket at the right. */
static int convergence(page *p, const tk_metric *mt, tk_error *err) {
  FILE *f = p->f;
  char path[TK_PATH_MAX];
  gzFile gz = tk_games_open(p->dir, path, sizeof path, NULL);
  const char *name = strrchr(path, '/') + 1;
  fputs("<h2>Convergence</h2>\n", f);
  if (!gz) {
    fputs("<p class=\"note\">No games.jsonl in the folder: no convergence chart (rerun the "
          "spec to rebuild it).</p>\n", f);
    return 0;
  }
  uint64_t walls = (uint64_t)json_integer_value(json_object_get(p->sum, "walls"));
  uint64_t step = walls / CONVERGENCE_POINTS > 1 ? walls / CONVERGENCE_POINTS : 1;
  int cap = (int)(walls / step) + 2, npts = 0, na = p->nagents;
  char *line = malloc(TK_LINE_MAX + 2);
  tk_unit_rec *rec = malloc(sizeof *rec);
  double *num = calloc((size_t)na, sizeof *num), *den = calloc((size_t)na, sizeof *den);
  double *xs = calloc((size_t)cap, sizeof *xs), *ys = calloc((size_t)cap * (size_t)na, sizeof *ys);
  tk_series *ser = calloc((size_t)na, sizeof *ser);
  int rc = 0;
  if (!gz || !line || !rec || !num || !den || !xs || !ys || !ser) {
    rc = tk_error_set(err, gz ? TK_ENOMEM : TK_EIO, -1, "%s: %s", path,
                      gz ? "out of memory" : strerror(errno));
    goto done;
  }
  uint64_t cur = UINT64_MAX, done_walls = 0;
  long long lineno = 0;
  for (int eof = 0; !eof;) {
    int have = gzgets(gz, line, TK_LINE_MAX + 2) != NULL;
    size_t len = have ? strlen(line) : 0;
    if (have && len && line[len - 1] == '\n') line[--len] = '\0';
    else if (have && len >= TK_LINE_MAX + 1) {
      rc = tk_error_set(err, TK_EPARSE, -1, "%s: line %lld is longer than any line taikai writes",
                        path, lineno + 1);
      goto done;
    }
    if (have && !len) continue;
    eof = !have;
    tk_unit_rec *r = rec;
    if (have) {
      lineno++;
      tk_error le;
      tk_error_clear(&le);
      if (tk_line_read(p->g, line, len, na, r, &le)) {
        rc = tk_error_set(err, TK_EPARSE, -1, "%s: line %lld: %s", path, lineno, le.msg);
        goto done;
      }
    }
    if (eof || r->wall != cur) { /* the wall before is complete */
      if (cur != UINT64_MAX) {
        done_walls++;
        if ((done_walls % step == 0 || eof) && npts < cap) {
          xs[npts] = (double)done_walls;
          for (int a = 0; a < na; a++)
            ys[(size_t)a * (size_t)cap + (size_t)npts] = den[a] > 0 ? num[a] / den[a] * mt->scale : NAN;
          npts++;
        }
      }
      if (!eof) cur = r->wall;
    }
    if (eof) break;
    tk_unit_result res;
    tk_unit_result_of(p->g, r, &res);
    if (res.skipped) continue;
    for (int s = 0; s < res.nseats; s++) {
      int a = res.agent[s];
      if (a < 0 || a >= na) continue;
      num[a] += res.q[s][mt->num];
      den[a] += res.q[s][mt->den];
    }
  }
  if (npts && xs[npts - 1] != (double)done_walls) { /* the cap was reached early: last point */
    xs[npts - 1] = (double)done_walls;
    for (int a = 0; a < na; a++)
      ys[(size_t)a * (size_t)cap + (size_t)npts - 1] = den[a] > 0 ? num[a] / den[a] * mt->scale : NAN;
  }
  for (int a = 0; a < na; a++) {
    double v, lo, hi;
    ser[a].label = label_at(p, (size_t)a);
    ser[a].x = xs;
    ser[a].y = ys + (size_t)a * (size_t)cap;
    ser[a].n = npts;
    ser[a].band_lo = ser[a].band_hi = NAN;
    if (!estimate_of(json_object_get(json_array_get(json_object_get(p->sum, "agents"), (size_t)a),
                                     mt->name), &v, &lo, &hi))
      ser[a].band_lo = lo * mt->scale, ser[a].band_hi = hi * mt->scale;
  }
  char title[256];
  snprintf(title, sizeof title, "%s against walls played (from %s)", mt->title, name);
  if (npts)
    tk_svg_lines(f, title, "walls played", mt->title, ser, na, NULL, 0);
  fprintf(f, "<p class=\"note\">Each line is the agent's %s over the walls played so far "
          "(every %llu wall%s); the bar at the right end is its final %g%% interval.</p>\n",
          mt->title, (unsigned long long)step, step > 1 ? "s" : "", p->conf * 100);
done:
  if (gz) gzclose(gz);
  free(line);
  free(rec);
  free(num);
  free(den);
  free(xs);
  free(ys);
  free(ser);
  return rc;
}

static void gate_section(page *p) {
  FILE *f = p->f;
  json_t *g = p->gate, *t = json_object_get(g, "test");
  const tk_metric *mt = metric_of(p->g, json_string_value(json_object_get(t, "metric")));
  const char *decision = json_string_value(json_object_get(g, "decision"));
  int h1 = decision && !strcmp(decision, "H1"), h0 = decision && !strcmp(decision, "H0");
  fputs("<h2>Sequential test (taikai gate)</h2>\n<p>", f);
  esc(p, json_string_value(json_object_get(t, "candidate")));
  fputs(" against ", f);
  esc(p, json_string_value(json_object_get(t, "baseline")));
  fputs(" on ", f);
  esc(p, json_string_value(json_object_get(t, "metric")));
  fprintf(f, ", bounds %g, %g%s, α = %g, β = %g: <span class=\"%s\">",
          json_number_value(json_array_get(json_object_get(t, "bounds"), 0)),
          json_number_value(json_array_get(json_object_get(t, "bounds"), 1)),
          json_is_true(json_object_get(t, "normalised")) ? " standard deviations" : " (metric units)",
          json_number_value(json_object_get(t, "alpha")), json_number_value(json_object_get(t, "beta")),
          h1 ? "good" : "bad");
  fputs(h1 ? "H1 accepted: the candidate passes" : h0 ? "H0 accepted: the candidate fails"
                                                   : "no decision", f);
  fprintf(f, "</span> after %lld of at most %lld walls (exit status %lld).",
          (long long)json_integer_value(json_object_get(g, "walls")),
          (long long)json_integer_value(json_object_get(g, "max_walls")),
          (long long)json_integer_value(json_object_get(g, "exit_status")));
  double v, lo, hi;
  if (mt && !estimate_of(json_object_get(g, "difference"), &v, &lo, &hi)) {
    char s1[40], s2[40], s3[40];
    fmt(v, mt, s1, sizeof s1);
    fmt(lo, mt, s2, sizeof s2);
    fmt(hi, mt, s3, sizeof s3);
    fprintf(f, " Difference %s [%s, %s] (%s, valid under sequential stopping).", s1, s2, s3, mt->title);
  }
  fputs("</p>\n", f);
  json_t *looks = json_object_get(g, "looks");
  size_t n = json_array_size(looks);
  double lower = json_number_value(json_array_get(json_object_get(g, "llr_bounds"), 0));
  double upper = json_number_value(json_array_get(json_object_get(g, "llr_bounds"), 1));
  if (!n) return;
  double *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
  if (!x || !y) {
    free(x);
    free(y);
    return;
  }
  size_t i;
  json_t *l;
  json_array_foreach(looks, i, l) {
    x[i] = json_number_value(json_object_get(l, "walls"));
    y[i] = json_number_value(json_object_get(l, "llr"));
    if (fabs(y[i]) >= TK_SPRT_LLR_INF) y[i] = y[i] > 0 ? INFINITY : -INFINITY;
  }
  tk_series s = {.label = "log-likelihood ratio", .x = x, .y = y, .n = (int)n,
                 .band_lo = NAN, .band_hi = NAN};
  tk_hline h[2] = {{upper, "accept H1"}, {lower, "accept H0"}};
  /* the axis spans every finite LLR and both bounds; an infinite one (no spread: every wall
   * gave the same difference) is drawn at the edge, marked ∞ */
  tk_svg_lines(f, "LLR at each look, between the test's bounds", "walls played", "LLR", &s, 1, h,
               2);
  free(x);
  free(y);
}

static int reference_section(page *p) {
  FILE *f = p->f;
  json_t *ref = p->ref;
  const char *title = json_string_value(json_object_get(ref, "title"));
  const char *source = json_string_value(json_object_get(ref, "source"));
  double games = json_number_value(json_object_get(ref, "games"));
  json_t *rows = json_object_get(ref, "rows");
  fputs("<h2>Ours beside the published table</h2>\n<p class=\"note\">", f);
  esc(p, title ? title : "Reference");
  if (source) {
    fputs(". Published numbers: ", f);
    esc(p, source);
  }
  fprintf(f, ". Ours with our %g%% interval", p->conf * 100);
  if (games > 0)
    fprintf(f, "; published rates with a Wilson interval at the reference's %g games", games);
  fputs(".</p>\n<div class=\"scroll\"><table>\n<tr><th>agent</th>", f);
  size_t k;
  json_t *m;
  json_array_foreach(json_object_get(ref, "metrics"), k, m) {
    const tk_metric *mt = metric_of(p->g, json_string_value(m));
    if (!mt) continue;
    fputs("<th>", f);
    esc(p, mt->title);
    fputs(": ours</th><th>published</th>", f);
  }
  fputs("</tr>\n", f);
  size_t i;
  json_t *row;
  json_array_foreach(rows, i, row) {
    const char *label = json_string_value(json_object_get(row, "label"));
    const char *name = json_string_value(json_object_get(row, "name"));
    json_t *agent = agent_of(p->sum, label);
    fputs("<tr><td>", f);
    esc(p, name ? name : label);
    fputs("</td>", f);
    json_array_foreach(json_object_get(ref, "metrics"), k, m) {
      const tk_metric *mt = metric_of(p->g, json_string_value(m));
      if (!mt) continue;
      double v = NAN, lo = NAN, hi = NAN;
      char s1[40], s2[40], s3[40];
      if (agent && !estimate_of(json_object_get(agent, mt->name), &v, &lo, &hi)) {
        fmt(v, mt, s1, sizeof s1);
        fmt(lo, mt, s2, sizeof s2);
        fmt(hi, mt, s3, sizeof s3);
        fprintf(f, "<td>%s <span class=\"ci\">[%s, %s]</span></td>", s1, s2, s3);
      } else {
        fputs("<td>–</td>", f);
      }
      json_t *pv = json_object_get(row, mt->name);
      double pub = json_is_number(pv) ? json_number_value(pv) : NAN;
      fmt(pub, mt, s1, sizeof s1);
      if (!isfinite(pub) || !isfinite(lo)) {
        fprintf(f, "<td>%s</td>", s1);
        continue;
      }
      int in = pub >= lo && pub <= hi;
      tk_estimate e;
      if (mt->proportion && games > 0 && pub >= 0 && pub <= 1 &&
          !tk_stats_wilson(pub * games, games, p->conf, &e)) {
        int ov = e.lo <= hi && lo <= e.hi;
        fmt(e.lo, mt, s2, sizeof s2);
        fmt(e.hi, mt, s3, sizeof s3);
        fprintf(f, "<td>%s <span class=\"ci\">[%s, %s]</span> %s</td>", s1, s2, s3,
                in ? "inside" : ov ? "overlap" : "<span class=\"bad\">apart</span>");
      } else {
        fprintf(f, "<td>%s %s</td>", s1, in ? "inside" : "<span class=\"bad\">outside</span>");
      }
    }
    fputs("</tr>\n", f);
  }
  fputs("</table></div>\n", f);
  /* one chart per metric: our interval (filled dot) and the published value (hollow diamond) */
  size_t nrows = json_array_size(rows);
  tk_forest_row *fr = calloc(nrows ? nrows : 1, sizeof *fr);
  if (!fr) return 0;
  json_array_foreach(json_object_get(ref, "metrics"), k, m) {
    const tk_metric *mt = metric_of(p->g, json_string_value(m));
    if (!mt) continue;
    json_array_foreach(rows, i, row) {
      const char *label = json_string_value(json_object_get(row, "label"));
      const char *name = json_string_value(json_object_get(row, "name"));
      tk_forest_row *r = &fr[i];
      r->label = name ? name : label;
      if (estimate_of(json_object_get(agent_of(p->sum, label), mt->name), &r->v, &r->lo, &r->hi))
        r->v = r->lo = r->hi = NAN;
      json_t *pv = json_object_get(row, mt->name);
      r->pv = json_is_number(pv) ? json_number_value(pv) : NAN;
      r->plo = r->phi = NAN;
      tk_estimate e;
      if (mt->proportion && games > 0 && r->pv >= 0 && r->pv <= 1 &&
          !tk_stats_wilson(r->pv * games, games, p->conf, &e))
        r->plo = e.lo, r->phi = e.hi;
      r->v *= mt->scale, r->lo *= mt->scale, r->hi *= mt->scale;
      r->pv *= mt->scale, r->plo *= mt->scale, r->phi *= mt->scale;
    }
    char t[256], xl[256];
    snprintf(t, sizeof t, "%s: ours (blue, %g%% interval) and published (red diamond%s)",
             mt->title, p->conf * 100, games > 0 && mt->proportion ? ", Wilson interval" : "");
    snprintf(xl, sizeof xl, "%s", mt->title);
    tk_svg_forest(f, t, xl, fr, (int)nrows, 0, mt->decimals);
  }
  free(fr);
  return 0;
}

/* ------------------------------------------------------------------ the page */

static json_t *load_json(const char *path, int optional, tk_error *err) {
  tk_error le;
  tk_error_clear(&le);
  json_t *j = tk_json_load_path(path, 0, &le);
  if (!j) {
    if (!optional || le.code != TK_ENOTFOUND) tk_error_set(err, le.code, -1, "%s", le.msg);
    return NULL;
  }
  if (!json_is_object(j)) {
    tk_error_set(err, TK_EPARSE, -1, "%s: expected a JSON object", path);
    json_decref(j);
    j = NULL;
  }
  return j;
}

/* One line on `taikai verify`'s outcome (the folder's verify.json), when the folder has one. */
static void verified(page *p) {
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/verify.json", p->dir);
  tk_error e;
  tk_error_clear(&e);
  json_t *v = load_json(path, 1, &e);
  if (!v) {
    if (e.code) { /* shown, not fatal: the results stand without it */
      fputs("<p class=\"note\">verify.json: ", p->f);
      esc(p, e.msg);
      fputs("</p>\n", p->f);
    }
    return;
  }
  const char *date = json_string_value(json_object_get(v, "verified"));
  const char *ver = json_string_value(json_object_get(v, "taikai_version"));
  const char *result = json_string_value(json_object_get(v, "result"));
  json_int_t checked = json_integer_value(json_object_get(v, "units_checked"));
  json_int_t held = json_integer_value(json_object_get(v, "units_in_folder"));
  size_t differ = json_array_size(json_object_get(v, "differ"));
  const char *chain = json_string_value(json_object_get(v, "chain"));
  fputs("<p class=\"note\"><b>Verified</b> (<code>taikai verify</code>) on ", p->f);
  esc(p, date ? date : "?");
  fputs(" by taikai ", p->f);
  esc(p, ver ? ver : "?");
  fprintf(p->f, ": %lld of its %lld units played again, ", (long long)checked, (long long)held);
  if (result && !strcmp(result, "same"))
    fputs("every one the same, byte for byte", p->f);
  else
    fprintf(p->f, "<b>%zu differ</b>%s", differ,
            chain && !strcmp(chain, "broken") ? "; its games.chain does not follow its lines" : "");
  if (json_is_true(json_object_get(v, "ignore_hashes")))
    fputs(" (with the plugins of the build that verified it, not necessarily those that played "
          "it: --ignore-hashes)", p->f);
  fputs(".</p>\n", p->f);
  json_decref(v);
}

int tk_html_report(const char *run_dir, const tk_html_opts *o, tk_error *err) {
  tk_html_opts none = {0};
  if (!o) o = &none;
  page p = {.dir = run_dir};
  char path[TK_PATH_MAX];
  int rc = 0;
  char *text = NULL;
  size_t len = 0;
  if (o->summary) snprintf(path, sizeof path, "%s", o->summary);
  else snprintf(path, sizeof path, "%s/summary.json", run_dir);
  if (!(p.sum = load_json(path, 0, err))) return err && err->code ? err->code : TK_EIO;
  const char *game = json_string_value(json_object_get(p.sum, "game"));
  if (!(p.g = game ? tk_game_find(game) : NULL) || !json_array_size(json_object_get(p.sum, "agents"))) {
    rc = tk_error_set(err, TK_EPARSE, -1, "%s: not a summary.json of taikai run (field 'game': "
                      "%s; field 'agents' must list the agents)", path, game ? game : "missing");
    goto done;
  }
  p.nagents = (int)json_array_size(json_object_get(p.sum, "agents"));
  p.conf = json_number_value(json_object_get(p.sum, "confidence"));
  if (!(p.conf > 0 && p.conf < 1)) p.conf = 0.95;
  snprintf(path, sizeof path, "%s/gate.json", run_dir);
  p.gate = load_json(path, 1, err);
  if (!p.gate && err && err->code) {
    rc = err->code;
    goto done;
  }
  if (o->reference && !(p.ref = load_json(o->reference, 0, err))) {
    rc = err && err->code ? err->code : TK_EIO;
    goto done;
  }
  p.base = o->base ? o->base
           : p.gate ? json_string_value(json_object_get(json_object_get(p.gate, "test"), "baseline"))
                    : NULL;
  if (o->base && !agent_of(p.sum, o->base)) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s/summary.json: no agent labelled '%s' to take the "
                      "paired differences against", run_dir, o->base);
    goto done;
  }
  if (!p.base || !agent_of(p.sum, p.base)) p.base = label_at(&p, 0);
  if (!p.base) {
    rc = tk_error_set(err, TK_EPARSE, -1, "%s: field 'agents[0].label': expected a label",
                      o->summary ? o->summary : "summary.json");
    goto done;
  }
  FILE *f = p.f = open_memstream(&text, &len);
  if (!f) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "report.html: out of memory");
    goto done;
  }
  /* the title: given, the reference's, or the folder's own name */
  const char *title = o->title ? o->title : p.ref ? json_string_value(json_object_get(p.ref, "title")) : NULL;
  char dir_name[TK_PATH_MAX];
  snprintf(dir_name, sizeof dir_name, "%s", o->folder ? o->folder : run_dir);
  for (size_t n = strlen(dir_name); n > 1 && dir_name[n - 1] == '/'; n--) dir_name[n - 1] = '\0';
  const char *slash = strrchr(dir_name, '/');
  const char *folder = slash && slash[1] ? slash + 1 : dir_name;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  if (title) esc(&p, title);
  else {
    fputs("taikai run ", f);
    esc(&p, folder);
  }
  fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", tk_html_css);
  if (title) esc(&p, title);
  else {
    fputs("taikai run <code>", f);
    esc(&p, folder);
    fputs("</code>", f);
  }
  fputs("</h1>\n", f);
  facts(&p);
  verified(&p);
  results_table(&p);
  if (p.gate) gate_section(&p);
  if (p.ref) reference_section(&p);
  /* the paired differences, on the gate's metric first, then the game's headline metrics */
  const tk_metric *hl[MAX_HEADLINE + 1];
  int nhl = 0;
  const tk_metric *gm = p.gate ? metric_of(p.g, json_string_value(json_object_get(
                                                    json_object_get(p.gate, "test"), "metric")))
                               : NULL;
  if (gm) hl[nhl++] = gm;
  for (int k = 0; p.g->headline && p.g->headline[k]; k++) {
    const tk_metric *mt = metric_of(p.g, p.g->headline[k]);
    if (mt && mt != gm && nhl < MAX_HEADLINE) hl[nhl++] = mt;
  }
  for (int m = 0; !p.g->headline && m < p.g->nmetrics && nhl < 2; m++)
    if (&p.g->metrics[m] != gm) hl[nhl++] = &p.g->metrics[m];
  if (p.nagents > 1) {
    fputs("<h2>Paired differences</h2>\n<p class=\"note\">Each agent minus <b>", f);
    esc(&p, p.base);
    fputs("</b> on the same walls; an interval that does not cross the dashed zero line is a "
          "significant difference.</p>\n", f);
    for (int k = 0; k < nhl; k++) forest(&p, hl[k]);
  }
  rank_bars(&p);
  if (nhl) rc = convergence(&p, hl[0], err);
  fputs("</body>\n</html>\n", f);
  if (fclose(f) && !rc) rc = tk_error_set(err, TK_ENOMEM, -1, "report.html: out of memory");
  if (rc) goto done;
  if (o->out) {
    char dir[TK_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->out);
    char *s = strrchr(dir, '/');
    const char *name = o->out;
    if (s) {
      *s = '\0';
      name = s + 1;
    } else {
      snprintf(dir, sizeof dir, ".");
    }
    rc = tk_write_atomic(s && !dir[0] ? "/" : dir, name, text, len, err);
  } else {
    rc = tk_write_atomic(run_dir, "report.html", text, len, err);
  }
done:
  free(text);
  json_decref(p.sum);
  json_decref(p.gate);
  json_decref(p.ref);
  return rc;
}
