/* harness/stats/summary.c — the statistics of a finished tournament (summary.json) and its two
 * renderings: report.md and the one-screen table on stdout. Intervals are over walls, the
 * independent unit, and stay inside each metric's range (harness/stats/stats.h,
 * tk_stats_metric): binomial for rates with one game per wall, an effective-n binomial for
 * clustered rates, a transformed Student-t for other ratios; every estimate names its method.
 * Paired differences compare two agents wall by wall. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "summary.h"
#include "run.h"
#include "shard.h"
#include "sprt.h"
#include "stats.h"

static json_t *num(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static json_t *estimate_json(const tk_estimate *e, int with_p, unsigned *used) {
  json_t *o = json_object();
  json_object_set_new(o, "value", num(e->value));
  json_object_set_new(o, "ci", json_pack("[o,o]", num(e->lo), num(e->hi)));
  if (with_p) json_object_set_new(o, "p", num(e->p));
  json_object_set_new(o, "method", json_string(tk_stats_method_name(e->method)));
  *used |= 1u << e->method;
  return o;
}

static tk_design design_of(const tk_metric *mt, const tk_spec *s, int one_per_wall) {
  return tk_metric_design(mt, one_per_wall, s->proportion == TK_INTERVAL_CLOPPER_PEARSON);
}

static json_t *range_json(const tk_design *d) {
  double lo = d->proportion ? 0 : d->lo, hi = d->proportion ? 1 : d->hi;
  return json_pack("[o,o]", num(lo), num(hi));
}

/* Sets the run's header fields of `root`: version, game, format, seed, units, completeness,
 * shard, policies and confidence. */
static void header_json(const tk_run *r, const tk_tally *t, json_t *root) {
  const tk_spec *s = &r->spec;
  json_object_set_new(root, "taikai_version", json_string(TAIKAI_VERSION));
  json_object_set_new(root, "game", json_string(s->game));
  json_object_set_new(root, "format", json_string(tk_format_name(s->format)));
  json_object_set_new(root, "seed", json_integer((json_int_t)s->seed));
  json_object_set_new(root, "walls", json_integer((json_int_t)t->walls));
  json_object_set_new(root, "units", json_integer((json_int_t)t->units));
  uint64_t first, end; /* a shard's summary counts its own units */
  tk_run_units(r, &first, &end);
  json_object_set_new(root, "units_total", json_integer((json_int_t)(end - first)));
  json_object_set_new(root, "units_skipped", json_integer((json_int_t)t->units_skipped));
  json_object_set_new(root, "complete", json_boolean(t->units >= end - first));
  json_t *shard = tk_shard_json(r);
  if (shard) json_object_set_new(root, "shard", shard);
  json_object_set_new(root, "fault_policy", json_string(tk_fault_policy_name(s->fault_policy)));
  json_object_set_new(root, "illegal_policy",
                      json_string(tk_illegal_policy_name(s->illegal_policy)));
  json_object_set_new(root, "confidence", json_real(s->confidence));
}

/* Sets the methods "intervals" names in `iv`: for rates, means and paired differences, and
 * each metric's range and method. */
static void intervals_json(const tk_game *g, const tk_spec *s, json_t *iv) {
  json_t *ivm = json_object();
  /* the binomial intervals need one game per agent per wall (field); with several games per
   * wall (round-robin, duplicate) rates take the design effect */
  int one_game_per_wall = s->format == TK_FORMAT_FIELD;
  int cp = s->proportion == TK_INTERVAL_CLOPPER_PEARSON;
  int rate_method = one_game_per_wall ? (cp ? TK_METHOD_CLOPPER_PEARSON : TK_METHOD_WILSON)
                                      : (cp ? TK_METHOD_CP_DEFF : TK_METHOD_WILSON_DEFF);
  json_object_set_new(iv, "rates", json_string(tk_stats_method_name(rate_method)));
  json_object_set_new(iv, "means", json_string("logit-t (two bounds), log-t (one), t (none)"));
  json_object_set_new(iv, "paired", json_string(tk_stats_method_name(TK_METHOD_PAIRED_T)));
  for (int m = 0; m < g->nmetrics; m++) {
    tk_design d = design_of(&g->metrics[m], s, one_game_per_wall);
    int method = d.proportion                      ? rate_method
                 : isfinite(d.lo) && isfinite(d.hi) ? TK_METHOD_LOGIT_T
                 : isfinite(d.lo) || isfinite(d.hi) ? TK_METHOD_LOG_T
                                                    : TK_METHOD_T;
    json_object_set_new(ivm, g->metrics[m].name,
                        json_pack("{s:o, s:s}", "range", range_json(&d), "method",
                                  tk_stats_method_name(method)));
  }
  json_object_set_new(iv, "metrics", ivm);
}

/* Agent a's entry: its counts, faults and each metric's estimate (na, da: scratch columns of
 * t->walls entries), the methods it uses added to *used. Returns 0 with the new object in *out,
 * or the statistics' error code. */
static int agent_json(const tk_run *r, const tk_tally *t, int a, double *na, double *da,
                      unsigned *used, json_t **out, tk_error *err) {
  const tk_game *g = r->game;
  const tk_spec *s = &r->spec;
  int rc;
  json_t *o = json_object();
  json_object_set_new(o, "label", json_string(s->agents[a].label));
  json_object_set_new(o, "plugin", json_string(r->plugins[a].desc->name));
  json_object_set_new(o, "version", json_string(r->plugins[a].desc->version));
  json_object_set_new(o, "games", json_integer((json_int_t)t->games[a]));
  json_object_set_new(o, "faults", json_integer((json_int_t)t->faults[a]));
  json_t *kinds = json_object();
  for (int k = 1; k < TK_FAULT_KINDS; k++)
    json_object_set_new(kinds, tk_fault_kind_name(k),
                        json_integer((json_int_t)t->kinds[(size_t)a * TK_FAULT_KINDS + (size_t)k]));
  json_object_set_new(o, "fault_kinds", kinds);
  json_object_set_new(o, "timeouts",
                      json_integer((json_int_t)t->kinds[(size_t)a * TK_FAULT_KINDS + TK_FAULT_TIMEOUT]));
  json_object_set_new(o, "illegal_actions", json_integer((json_int_t)t->illegal[a]));
  json_object_set_new(o, "skipped", json_integer((json_int_t)t->skipped[a]));
  for (int m = 0; m < g->nmetrics; m++) {
    const tk_metric *mt = &g->metrics[m];
    /* the walls on which the agent has games (not skipped, already played) */
    size_t n = tk_tally_columns(t, a, -1, mt->num, mt->den, na, da);
    int one_per_wall = 1;
    for (size_t i = 0; i < n; i++) one_per_wall &= da[i] <= 1;
    tk_design d = design_of(mt, s, one_per_wall);
    tk_estimate e;
    if ((rc = tk_stats_metric(na, da, n, &d, s->confidence, &e))) {
      tk_error_set(err, rc, -1, "statistics of %s for %s failed", mt->name, s->agents[a].label);
      json_decref(o);
      return rc;
    }
    json_object_set_new(o, mt->name, estimate_json(&e, 0, used));
    if (mt->total) {
      double games = 0;
      for (size_t i = 0; i < n; i++) games += da[i];
      tk_estimate te = e;
      te.value *= games;
      te.lo *= games;
      te.hi *= games;
      json_t *tj = estimate_json(&te, 0, used);
      json_object_set_new(tj, "games", json_integer((json_int_t)games));
      json_object_set_new(o, mt->total, tj);
    }
  }
  /* multi-seat games: the rank distribution also as one array, 1st place first */
  if (json_object_get(o, "rank_1_rate")) {
    json_t *ranks = json_array();
    for (int k = 1; k <= TK_MAX_SEATS; k++) {
      char key[32];
      snprintf(key, sizeof key, "rank_%d_rate", k);
      json_t *v = json_object_get(o, key);
      if (!v) break;
      json_array_append(ranks, v);
    }
    json_object_set_new(o, "rank_rates", ranks);
  }
  *out = o;
  return 0;
}

/* The pair of agents a0 < b0 (in duplicate, agents[0] second): the walls both played and each
 * metric's paired difference (na, da, nb, db: scratch columns), the methods it uses added to
 * *used. Returns 0 with the new object in *out, or the statistics' error code. */
static int pair_json(const tk_run *r, const tk_tally *t, int a0, int b0, double *na, double *da,
                     double *nb, double *db, unsigned *used, json_t **out, tk_error *err) {
  const tk_game *g = r->game;
  const tk_spec *s = &r->spec;
  /* duplicate: agents[0] is the baseline, so its pairs read candidate - baseline */
  int swap = s->format == TK_FORMAT_DUPLICATE && a0 == 0;
  int a = swap ? b0 : a0, b = swap ? a0 : b0;
  json_t *o = json_object();
  json_object_set_new(o, "a", json_string(s->agents[a].label));
  json_object_set_new(o, "b", json_string(s->agents[b].label));
  size_t common = 0; /* walls on which both have games */
  for (uint64_t w = 0; w < t->walls; w++)
    common += tk_tally_played(t, a, w) && tk_tally_played(t, b, w);
  json_object_set_new(o, "walls", json_integer((json_int_t)common));
  for (int m = 0; m < g->nmetrics; m++) {
    const tk_metric *mt = &g->metrics[m];
    size_t n = tk_tally_columns(t, a, b, mt->num, mt->den, na, da);
    tk_tally_columns(t, b, a, mt->num, mt->den, nb, db); /* the same walls, in order */
    tk_design d = design_of(mt, s, 0);
    tk_estimate e;
    int rc = tk_stats_paired_metric(na, da, nb, db, n, &d, s->confidence, &e);
    if (rc) {
      tk_error_set(err, rc, -1, "paired statistics failed");
      json_decref(o);
      return rc;
    }
    json_object_set_new(o, mt->name, estimate_json(&e, 1, used));
  }
  *out = o;
  return 0;
}

json_t *tk_summary_json(const tk_run *r, const tk_tally *t, tk_error *err) {
  tk_stats_init();
  uint64_t W = t->walls;
  double *na = malloc(W * sizeof *na), *da = malloc(W * sizeof *da);
  double *nb = malloc(W * sizeof *nb), *db = malloc(W * sizeof *db);
  json_t *root = json_object(), *agents = json_array(), *pairs = json_array();
  json_t *iv = json_object(); /* "intervals": the methods */
  unsigned used = 0;          /* bit m: tk_method m appears */
  int rc = 0;
  json_t *o;
  if (!na || !da || !nb || !db) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
  header_json(r, t, root);
  intervals_json(r->game, &r->spec, iv);
  json_object_set_new(root, "intervals", json_incref(iv));
  for (int a = 0; a < t->nagents; a++) {
    if ((rc = agent_json(r, t, a, na, da, &used, &o, err))) goto done;
    json_array_append_new(agents, o);
  }
  for (int a0 = 0; a0 < t->nagents; a0++)
    for (int b0 = a0 + 1; b0 < t->nagents; b0++) {
      if ((rc = pair_json(r, t, a0, b0, na, da, nb, db, &used, &o, err))) goto done;
      json_array_append_new(pairs, o);
    }
done:
  {
    json_t *legend = json_object(); /* every method used, with what it is */
    for (int m = 0; m < TK_METHOD_COUNT; m++)
      if (used >> m & 1)
        json_object_set_new(legend, tk_stats_method_name(m), json_string(tk_stats_method_text(m)));
    json_object_set_new(iv, "methods", legend);
    json_decref(iv);
  }
  json_object_set_new(root, "agents", agents);
  json_object_set_new(root, "paired", pairs);
  free(na), free(da), free(nb), free(db);
  if (rc) {
    json_decref(root);
    return NULL;
  }
  return root;
}

/* "18.91 [18.10, 19.74]" scaled for display; "-" when undefined. */
static void cell(json_t *est, const tk_metric *mt, int sign, char *buf, size_t cap) {
  json_t *v = json_object_get(est, "value"), *ci = json_object_get(est, "ci");
  if (!json_is_number(v)) {
    snprintf(buf, cap, "-");
    return;
  }
  double x = json_number_value(v) * mt->scale;
  json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
  int d = mt->decimals;
  if (json_is_number(lo) && json_is_number(hi))
    snprintf(buf, cap, sign ? "%+.*f [%+.*f, %+.*f]" : "%.*f [%.*f, %.*f]", d, x, d,
             json_number_value(lo) * mt->scale, d, json_number_value(hi) * mt->scale);
  else
    snprintf(buf, cap, sign ? "%+.*f" : "%.*f", d, x);
}

/* A total over the run, "-1234 [-1310, -1158]" (whole points); "-" when undefined. */
static void total_cell(json_t *est, char *buf, size_t cap) {
  json_t *v = json_object_get(est, "value"), *ci = json_object_get(est, "ci");
  json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
  if (!json_is_number(v))
    snprintf(buf, cap, "-");
  else if (json_is_number(lo) && json_is_number(hi))
    snprintf(buf, cap, "%.0f [%.0f, %.0f]", json_number_value(v), json_number_value(lo),
             json_number_value(hi));
  else
    snprintf(buf, cap, "%.0f", json_number_value(v));
}

/* The metrics of `g` that also give a total over the run. */
static int totals(const tk_game *g) {
  int n = 0;
  for (int m = 0; m < g->nmetrics; m++) n += g->metrics[m].total != NULL;
  return n;
}

static void pcell(json_t *est, char *buf, size_t cap) {
  json_t *p = json_object_get(est, "p");
  if (!json_is_number(p)) snprintf(buf, cap, "-");
  else if (json_number_value(p) < 0.001) snprintf(buf, cap, "<0.001");
  else snprintf(buf, cap, "%.3f", json_number_value(p));
}

/* The faults of every agent (units forfeited or skipped, by kind, illegal actions, skipped
 * units); `all` also when nobody faulted. Returns whether anything was written. */
static int fault_table(json_t *sum, FILE *f, int md, int all) {
  size_t i;
  json_t *a;
  int any = 0;
  json_array_foreach(json_object_get(sum, "agents"), i, a) {
    any |= json_integer_value(json_object_get(a, "faults")) != 0 ||
           json_integer_value(json_object_get(a, "illegal_actions")) != 0 ||
           json_integer_value(json_object_get(a, "skipped")) != 0;
  }
  if (!any && !all) return 0;
  if (md) {
    fprintf(f, "| agent | faults |");
    for (int k = 1; k < TK_FAULT_KINDS; k++) fprintf(f, " %s |", tk_fault_kind_name(k));
    fprintf(f, " illegal actions | skipped units |\n|---|---:|");
    for (int k = 1; k < TK_FAULT_KINDS; k++) fprintf(f, "---:|");
    fprintf(f, "---:|---:|\n");
  } else {
    fprintf(f, "\nfaults (fault policy %s, illegal actions %s):\n%-16s %7s",
            json_string_value(json_object_get(sum, "fault_policy")),
            json_string_value(json_object_get(sum, "illegal_policy")), "agent", "faults");
    for (int k = 1; k < TK_FAULT_KINDS; k++) fprintf(f, " %8s", tk_fault_kind_name(k));
    fprintf(f, " %16s %8s\n", "illegal actions", "skipped");
  }
  json_array_foreach(json_object_get(sum, "agents"), i, a) {
    json_t *kinds = json_object_get(a, "fault_kinds");
    long long faults = (long long)json_integer_value(json_object_get(a, "faults"));
    long long ill = (long long)json_integer_value(json_object_get(a, "illegal_actions"));
    long long skip = (long long)json_integer_value(json_object_get(a, "skipped"));
    const char *label = json_string_value(json_object_get(a, "label"));
    if (md) fprintf(f, "| %s | %lld |", label, faults);
    else fprintf(f, "%-16s %7lld", label, faults);
    for (int k = 1; k < TK_FAULT_KINDS; k++) {
      long long c = (long long)json_integer_value(json_object_get(kinds, tk_fault_kind_name(k)));
      if (md) fprintf(f, " %lld |", c);
      else fprintf(f, " %8lld", c);
    }
    if (md) fprintf(f, " %lld | %lld |\n", ill, skip);
    else fprintf(f, " %16lld %8lld\n", ill, skip);
  }
  return 1;
}

/* A plain-text table for the terminal: columns as wide as their contents, and metrics split
 * into blocks (each repeating the row names) so that no line passes TEXT_WIDTH characters; row
 * names too long for that are cut, ending in "~" (a cell is at most ~40 characters, so a name
 * keeps at least TEXT_WIDTH - 42). */
enum { TEXT_WIDTH = 100, CELL = 192 };

static void text_table(FILE *f, const char *corner, int nrows, const char *const *rows,
                       int ncols, const char *const *titles, const char *cells /* [r][c][CELL] */) {
  int w0 = (int)strlen(corner), wmax = 0, *w = calloc((size_t)ncols + 1, sizeof *w);
  if (!w) return;
  for (int i = 0; i < nrows; i++)
    if ((int)strlen(rows[i]) > w0) w0 = (int)strlen(rows[i]);
  for (int c = 0; c < ncols; c++) {
    w[c] = (int)strlen(titles[c]);
    for (int i = 0; i < nrows; i++) {
      int n = (int)strlen(cells + ((size_t)i * (size_t)ncols + (size_t)c) * CELL);
      if (n > w[c]) w[c] = n;
    }
    if (w[c] > wmax) wmax = w[c];
  }
  if (w0 + 2 + wmax > TEXT_WIDTH) w0 = TEXT_WIDTH - 2 - wmax < 8 ? 8 : TEXT_WIDTH - 2 - wmax;
  for (int c0 = 0; c0 < ncols;) {
    int c1 = c0, width = w0;
    while (c1 < ncols && (c1 == c0 || width + 2 + w[c1] <= TEXT_WIDTH)) width += 2 + w[c1++];
    if (c0) fprintf(f, "\n");
    for (int i = -1; i < nrows; i++) {
      const char *name = i < 0 ? corner : rows[i];
      if ((int)strlen(name) > w0) fprintf(f, "%.*s~", w0 - 1, name);
      else fprintf(f, "%-*s", w0, name);
      for (int c = c0; c < c1; c++)
        fprintf(f, "  %-*s", c + 1 < c1 ? w[c] : 0,
                i < 0 ? titles[c] : cells + ((size_t)i * (size_t)ncols + (size_t)c) * CELL);
      fprintf(f, "\n");
    }
    c0 = c1;
  }
  free(w);
}

/* Writes both tables; markdown selects the report.md form. */
static void tables(const tk_run *r, json_t *sum, FILE *f, int md) {
  const tk_game *g = r->game;
  char buf[128];
  int conf = (int)lround(r->spec.confidence * 100);
  json_t *agents = json_object_get(sum, "agents"), *pairs = json_object_get(sum, "paired");
  size_t i;
  json_t *a;
  if (!md) {
    /* agents: games, faults (if any) and every metric */
    int na = (int)json_array_size(agents), ncol = g->nmetrics + 1, any_faults = 0;
    json_array_foreach(agents, i, a) any_faults |= json_integer_value(json_object_get(a, "faults")) != 0;
    int ntot = totals(g);
    ncol += any_faults + ntot;
    const char **rows = calloc((size_t)na + 1, sizeof *rows);
    const char **titles = calloc((size_t)ncol, sizeof *titles);
    char *cells = calloc((size_t)(na + 1) * (size_t)ncol, CELL);
    char (*ptitle)[CELL] = calloc((size_t)ncol, CELL);
    if (!rows || !titles || !cells || !ptitle) goto out;
    titles[0] = "games";
    if (any_faults) titles[1] = "faults";
    for (int m = 0; m < g->nmetrics; m++) {
      snprintf(ptitle[m], CELL, "%s", g->metrics[m].title);
      titles[1 + any_faults + m] = ptitle[m];
    }
    for (int m = 0, k = 0; m < g->nmetrics; m++)
      if (g->metrics[m].total) titles[1 + any_faults + g->nmetrics + k++] = g->metrics[m].total_title;
    json_array_foreach(agents, i, a) {
      rows[i] = json_string_value(json_object_get(a, "label"));
      char *row = cells + i * (size_t)ncol * CELL;
      snprintf(row, CELL, "%lld", (long long)json_integer_value(json_object_get(a, "games")));
      if (any_faults)
        snprintf(row + CELL, CELL, "%lld", (long long)json_integer_value(json_object_get(a, "faults")));
      for (int m = 0; m < g->nmetrics; m++)
        cell(json_object_get(a, g->metrics[m].name), &g->metrics[m], 0,
             row + (size_t)(1 + any_faults + m) * CELL, CELL);
      for (int m = 0, k = 0; m < g->nmetrics; m++)
        if (g->metrics[m].total)
          total_cell(json_object_get(a, g->metrics[m].total),
                     row + (size_t)(1 + any_faults + g->nmetrics + k++) * CELL, CELL);
    }
    text_table(f, "agent", na, rows, ncol, titles, cells);
    fprintf(f, "(each value with its %d%% confidence interval)\n", conf);
    /* paired differences: one cell per metric, "value [lo, hi] p P" */
    int np = (int)json_array_size(pairs);
    if (np) {
      char (*names)[160] = calloc((size_t)np, 160);
      const char **prow = calloc((size_t)np, sizeof *prow);
      char *pc = calloc((size_t)np * (size_t)g->nmetrics, CELL);
      if (names && prow && pc) {
        json_array_foreach(pairs, i, a) {
          snprintf(names[i], 160, "%s - %s", json_string_value(json_object_get(a, "a")),
                   json_string_value(json_object_get(a, "b")));
          prow[i] = names[i];
          for (int m = 0; m < g->nmetrics; m++) {
            json_t *e = json_object_get(a, g->metrics[m].name);
            char p[32];
            cell(e, &g->metrics[m], 1, buf, sizeof buf);
            pcell(e, p, sizeof p);
            if (strcmp(buf, "-")) snprintf(pc + (i * (size_t)g->nmetrics + (size_t)m) * CELL, CELL, "%s p %s", buf, p);
            else snprintf(pc + (i * (size_t)g->nmetrics + (size_t)m) * CELL, CELL, "-");
          }
        }
        fprintf(f, "\npaired differences (a - b on the same walls, %d%% interval, p-value of no "
                   "difference):\n", conf);
        text_table(f, "a - b", np, prow, g->nmetrics, titles + 1 + any_faults, pc);
      }
      free(names);
      free(prow);
      free(pc);
    }
  out:
    free(rows);
    free(titles);
    free(cells);
    free(ptitle);
    return;
  }
  fprintf(f, "| agent | games | faults |");
  for (int m = 0; m < g->nmetrics; m++) fprintf(f, " %s (%d%% CI) |", g->metrics[m].title, conf);
  for (int m = 0; m < g->nmetrics; m++)
    if (g->metrics[m].total) fprintf(f, " %s (%d%% CI) |", g->metrics[m].total_title, conf);
  fprintf(f, "\n|---|---:|---:|");
  for (int m = 0; m < g->nmetrics + totals(g); m++) fprintf(f, "---:|");
  fprintf(f, "\n");
  json_array_foreach(agents, i, a) {
    const char *label = json_string_value(json_object_get(a, "label"));
    long long games = (long long)json_integer_value(json_object_get(a, "games"));
    long long faults = (long long)json_integer_value(json_object_get(a, "faults"));
    fprintf(f, "| %s | %lld | %lld |", label, games, faults);
    for (int m = 0; m < g->nmetrics; m++) {
      cell(json_object_get(a, g->metrics[m].name), &g->metrics[m], 0, buf, sizeof buf);
      fprintf(f, " %s |", buf);
    }
    for (int m = 0; m < g->nmetrics; m++) {
      if (!g->metrics[m].total) continue;
      total_cell(json_object_get(a, g->metrics[m].total), buf, sizeof buf);
      fprintf(f, " %s |", buf);
    }
    fprintf(f, "\n");
  }
  if (!json_array_size(pairs)) return;
  fprintf(f, "\n### Paired differences (a − b on the same walls, %d%% CI, p-value)\n\n", conf);
  fprintf(f, "| a − b | walls |");
  for (int m = 0; m < g->nmetrics; m++) fprintf(f, " %s | p |", g->metrics[m].title);
  fprintf(f, "\n|---|---:|");
  for (int m = 0; m < g->nmetrics; m++) fprintf(f, "---:|---:|");
  fprintf(f, "\n");
  json_array_foreach(pairs, i, a) {
    fprintf(f, "| %s - %s | %lld |", json_string_value(json_object_get(a, "a")),
            json_string_value(json_object_get(a, "b")),
            (long long)json_integer_value(json_object_get(a, "walls")));
    for (int m = 0; m < g->nmetrics; m++) {
      json_t *e = json_object_get(a, g->metrics[m].name);
      char p[32];
      cell(e, &g->metrics[m], 1, buf, sizeof buf);
      pcell(e, p, sizeof p);
      fprintf(f, " %s | %s |", buf, p);
    }
    fprintf(f, "\n");
  }
}

void tk_summary_table(const tk_run *r, json_t *sum, FILE *f) {
  char decided[160];
  if (!json_is_true(json_object_get(sum, "complete")) &&
      tk_sprt_stop_describe(json_string_value(json_object_get(sum, "stopped")),
                            (unsigned long long)json_integer_value(json_object_get(sum, "walls")),
                            decided, sizeof decided))
    fprintf(f, "Run %s: %lld of %lld units played.\n\n", decided,
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")));
  else if (!json_is_true(json_object_get(sum, "complete")))
    fprintf(f, "INCOMPLETE: %lld of %lld units played (%s)\n\n",
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")),
            json_string_value(json_object_get(sum, "stopped")) ? json_string_value(json_object_get(sum, "stopped"))
                                                                : "stopped");
  tables(r, sum, f, 0);
  fault_table(sum, f, 0, 0);
}

/* n with a comma between thousands ("40,000"). */
static void thousands(long long n, char *buf, size_t cap) {
  char digits[32];
  int len = snprintf(digits, sizeof digits, "%lld", n < 0 ? -n : n), k = 0;
  char out[48];
  if (n < 0) out[k++] = '-';
  for (int i = 0; i < len; i++) {
    if (i && (len - i) % 3 == 0) out[k++] = ',';
    out[k++] = digits[i];
  }
  out[k] = '\0';
  snprintf(buf, cap, "%s", out);
}

void tk_summary_units_words(const tk_game *g, json_t *sum, char *buf, size_t cap) {
  buf[0] = '\0';
  long long units = json_integer_value(json_object_get(sum, "units")), seat_games = 0;
  size_t i;
  json_t *a;
  json_array_foreach(json_object_get(sum, "agents"), i, a)
    seat_games += json_integer_value(json_object_get(a, "games"));
  if (!g || g->nseats < 1 || units <= 0) return;
  long long games = seat_games / g->nseats;
  if (games == units || games % units) return; /* one game a unit, or units of unequal sizes */
  char n[32], per[32];
  thousands(games, n, sizeof n);
  thousands(games / units, per, sizeof per);
  snprintf(buf, cap, " (%s of %s games: %s games)", g->units ? g->units : "units", per, n);
}

void tk_summary_markdown(const tk_run *r, json_t *sum, FILE *f) {
  const tk_spec *s = &r->spec;
  char words[128];
  tk_summary_units_words(r->game, sum, words, sizeof words);
  fprintf(f, "# taikai report: %s\n\n", s->path);
  fprintf(f, "game `%s`, format `%s`, seed %llu, %llu walls, %lld units%s; taikai %s.\n\n",
          s->game, tk_format_name(s->format), (unsigned long long)s->seed,
          (unsigned long long)s->walls,
          (long long)json_integer_value(json_object_get(sum, "units")), words, TAIKAI_VERSION);
  json_t *shard = json_object_get(sum, "shard");
  if (shard) {
    json_t *w = json_object_get(shard, "walls"), *u = json_object_get(shard, "units");
    fprintf(f, "**Shard %lld of %lld**: walls %lld to %lld, units %lld to %lld of the "
               "tournament (`taikai merge` joins the shards into the whole run's results).\n\n",
            (long long)json_integer_value(json_object_get(shard, "index")),
            (long long)json_integer_value(json_object_get(shard, "count")),
            (long long)json_integer_value(json_array_get(w, 0)),
            (long long)json_integer_value(json_array_get(w, 1)) - 1,
            (long long)json_integer_value(json_array_get(u, 0)),
            (long long)json_integer_value(json_array_get(u, 1)) - 1);
  }
  char decided[160];
  if (!json_is_true(json_object_get(sum, "complete")) &&
      tk_sprt_stop_describe(json_string_value(json_object_get(sum, "stopped")),
                            (unsigned long long)json_integer_value(json_object_get(sum, "walls")),
                            decided, sizeof decided)) {
    fprintf(f, "**Run %s**: %lld of %lld units played; the test needed no more (gate.json holds "
               "its looks).\n\n", decided,
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")));
  } else if (!json_is_true(json_object_get(sum, "complete"))) {
    const char *why = json_string_value(json_object_get(sum, "stopped"));
    fprintf(f, "**Incomplete run**: %lld of %lld units played (%s). Run the same command again "
               "(or with `--resume`) to finish it.\n\n",
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")),
            why ? why : "stopped");
  }
  json_t *iv = json_object_get(sum, "intervals");
  fprintf(f, "Intervals (walls are the independent unit; each stays inside its metric's range): ");
  const char *key;
  json_t *v;
  int first = 1;
  json_object_foreach(json_object_get(iv, "metrics"), key, v) {
    fprintf(f, "%s%s %s", first ? "" : ", ", key, json_string_value(json_object_get(v, "method")));
    first = 0;
  }
  fprintf(f, "; paired differences %s. Methods:\n\n",
          json_string_value(json_object_get(iv, "paired")));
  json_object_foreach(json_object_get(iv, "methods"), key, v)
    fprintf(f, "- `%s`: %s\n", key, json_string_value(v));
  fprintf(f, "\n");
  fprintf(f, "## Agents\n\n");
  tables(r, sum, f, 1);
  fprintf(f, "\n## Faults\n\nFault policy `%s`, illegal actions `%s`; limits: %d ms per call, "
             "%d ms per game, %d MB per worker (0: none). %lld units skipped.\n\n",
          tk_fault_policy_name(s->fault_policy), tk_illegal_policy_name(s->illegal_policy),
          s->time_limit_ms, s->game_time_limit_ms, s->memory_limit_mb,
          (long long)json_integer_value(json_object_get(sum, "units_skipped")));
  fault_table(sum, f, 1, 1);
  fprintf(f, "\n## Plugins\n\n| label | plugin | version | params |\n|---|---|---|---|\n");
  for (int i = 0; i < s->nagents; i++)
    fprintf(f, "| %s | %s | %s | `%s` |\n", s->agents[i].label, r->plugins[i].desc->name,
            r->plugins[i].desc->version, r->params_text[i]);
}
