/* harness/stats/summary.c — the statistics of a finished tournament (summary.json) and its two
 * renderings: report.md and the one-screen table on stdout. Intervals are over walls, the
 * independent unit: rates use Wilson or Clopper–Pearson when every wall gives an agent exactly
 * one game (field format), otherwise, like every mean, a Student-t interval of per-wall
 * linearised ratios (harness/stats/stats.h). Paired differences compare two agents wall by wall. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "run.h"
#include "stats.h"

/* summary.json's name of the Student-t interval of a ratio over walls */
#define TK_INTERVAL_RATIO "student-t over walls (per-wall linearised ratio)"

static json_t *num(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static json_t *estimate_json(const tk_estimate *e, int with_p) {
  json_t *o = json_object();
  json_object_set_new(o, "value", num(e->value));
  json_object_set_new(o, "ci", json_pack("[o,o]", num(e->lo), num(e->hi)));
  if (with_p) json_object_set_new(o, "p", num(e->p));
  return o;
}

json_t *tk_summary_json(const tk_run *r, const tk_tally *t, tk_error *err) {
  tk_stats_init();
  const tk_game *g = r->game;
  const tk_spec *s = &r->spec;
  uint64_t W = t->walls;
  double conf = s->confidence;
  double *na = malloc(W * sizeof *na), *da = malloc(W * sizeof *da);
  double *nb = malloc(W * sizeof *nb), *db = malloc(W * sizeof *db);
  json_t *root = json_object(), *agents = json_array(), *pairs = json_array();
  int rc = 0;
  if (!na || !da || !nb || !db) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
  json_object_set_new(root, "taikai_version", json_string(TAIKAI_VERSION));
  json_object_set_new(root, "game", json_string(s->game));
  json_object_set_new(root, "format", json_string(tk_format_name(s->format)));
  json_object_set_new(root, "seed", json_integer((json_int_t)s->seed));
  json_object_set_new(root, "walls", json_integer((json_int_t)W));
  json_object_set_new(root, "units", json_integer((json_int_t)t->units));
  uint64_t total = tk_schedule_units(&r->sched);
  json_object_set_new(root, "units_total", json_integer((json_int_t)total));
  json_object_set_new(root, "units_skipped", json_integer((json_int_t)t->units_skipped));
  json_object_set_new(root, "complete", json_boolean(t->units >= total));
  json_object_set_new(root, "fault_policy", json_string(tk_fault_policy_name(s->fault_policy)));
  json_object_set_new(root, "illegal_policy",
                      json_string(tk_illegal_policy_name(s->illegal_policy)));
  json_object_set_new(root, "confidence", json_real(conf));
  /* the binomial intervals need one game per agent per wall (field); with several games per
   * wall (round-robin, duplicate) rates are ratios like the means */
  int one_game_per_wall = s->format == TK_FORMAT_FIELD;
  const char *rates = one_game_per_wall ? tk_interval_name(s->proportion) : TK_INTERVAL_RATIO;
  json_object_set_new(root, "intervals",
                      json_pack("{s:s, s:s, s:s}", "rates", rates, "means", TK_INTERVAL_RATIO,
                                "paired", "student-t over per-wall differences"));
  for (int a = 0; a < t->nagents; a++) {
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
      double sn = 0, sd = 0;
      size_t n = 0; /* walls on which the agent has games (not skipped, already played) */
      for (uint64_t w = 0; w < W; w++) {
        if (!tk_tally_played(t, a, w)) continue;
        const double *x = tk_tally_at(t, a, w);
        na[n] = x[mt->num];
        da[n] = x[mt->den];
        sn += na[n];
        sd += da[n];
        n++;
      }
      tk_estimate e;
      if (mt->proportion && one_game_per_wall)
        rc = s->proportion == TK_INTERVAL_CLOPPER_PEARSON ? tk_stats_clopper_pearson(sn, sd, conf, &e)
                                                          : tk_stats_wilson(sn, sd, conf, &e);
      else
        rc = tk_stats_ratio(na, da, n, conf, &e);
      if (rc) {
        tk_error_set(err, rc, -1, "statistics of %s for %s failed", mt->name, s->agents[a].label);
        goto done;
      }
      json_object_set_new(o, mt->name, estimate_json(&e, 0));
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
    json_array_append_new(agents, o);
  }
  for (int a0 = 0; a0 < t->nagents; a0++)
    for (int b0 = a0 + 1; b0 < t->nagents; b0++) {
      /* duplicate: agents[0] is the baseline, so its pairs read candidate - baseline */
      int swap = s->format == TK_FORMAT_DUPLICATE && a0 == 0;
      int a = swap ? b0 : a0, b = swap ? a0 : b0;
      json_t *o = json_object();
      json_object_set_new(o, "a", json_string(s->agents[a].label));
      json_object_set_new(o, "b", json_string(s->agents[b].label));
      size_t common = 0; /* walls on which both have games */
      for (uint64_t w = 0; w < W; w++)
        common += tk_tally_played(t, a, w) && tk_tally_played(t, b, w);
      json_object_set_new(o, "walls", json_integer((json_int_t)common));
      for (int m = 0; m < g->nmetrics; m++) {
        const tk_metric *mt = &g->metrics[m];
        size_t n = 0;
        for (uint64_t w = 0; w < W; w++) {
          if (!tk_tally_played(t, a, w) || !tk_tally_played(t, b, w)) continue;
          const double *x = tk_tally_at(t, a, w), *y = tk_tally_at(t, b, w);
          na[n] = x[mt->num];
          da[n] = x[mt->den];
          nb[n] = y[mt->num];
          db[n] = y[mt->den];
          n++;
        }
        tk_estimate e;
        if ((rc = tk_stats_paired_ratio(na, da, nb, db, n, conf, &e))) {
          tk_error_set(err, rc, -1, "paired statistics failed");
          goto done;
        }
        json_object_set_new(o, mt->name, estimate_json(&e, 1));
      }
      json_array_append_new(pairs, o);
    }
done:
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

/* Writes both tables; markdown selects the report.md form. */
/* A plain-text table for the terminal: columns as wide as their contents, and metrics split
 * into blocks (each repeating the row names) so that no line passes TEXT_WIDTH characters. */
enum { TEXT_WIDTH = 120, CELL = 192 };

static void text_table(FILE *f, const char *corner, int nrows, const char *const *rows,
                       int ncols, const char *const *titles, const char *cells /* [r][c][CELL] */) {
  int w0 = (int)strlen(corner), *w = calloc((size_t)ncols + 1, sizeof *w);
  if (!w) return;
  for (int i = 0; i < nrows; i++)
    if ((int)strlen(rows[i]) > w0) w0 = (int)strlen(rows[i]);
  for (int c = 0; c < ncols; c++) {
    w[c] = (int)strlen(titles[c]);
    for (int i = 0; i < nrows; i++) {
      int n = (int)strlen(cells + ((size_t)i * (size_t)ncols + (size_t)c) * CELL);
      if (n > w[c]) w[c] = n;
    }
  }
  for (int c0 = 0; c0 < ncols;) {
    int c1 = c0, width = w0;
    while (c1 < ncols && (c1 == c0 || width + 2 + w[c1] <= TEXT_WIDTH)) width += 2 + w[c1++];
    if (c0) fprintf(f, "\n");
    fprintf(f, "%-*s", w0, corner);
    for (int c = c0; c < c1; c++) fprintf(f, "  %-*s", w[c], titles[c]);
    fprintf(f, "\n");
    for (int i = 0; i < nrows; i++) {
      fprintf(f, "%-*s", w0, rows[i]);
      for (int c = c0; c < c1; c++)
        fprintf(f, "  %-*s", c + 1 < c1 ? w[c] : 0,
                cells + ((size_t)i * (size_t)ncols + (size_t)c) * CELL);
      fprintf(f, "\n");
    }
    c0 = c1;
  }
  free(w);
}

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
    ncol += any_faults;
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
    json_array_foreach(agents, i, a) {
      rows[i] = json_string_value(json_object_get(a, "label"));
      char *row = cells + i * (size_t)ncol * CELL;
      snprintf(row, CELL, "%lld", (long long)json_integer_value(json_object_get(a, "games")));
      if (any_faults)
        snprintf(row + CELL, CELL, "%lld", (long long)json_integer_value(json_object_get(a, "faults")));
      for (int m = 0; m < g->nmetrics; m++)
        cell(json_object_get(a, g->metrics[m].name), &g->metrics[m], 0,
             row + (size_t)(1 + any_faults + m) * CELL, CELL);
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
  fprintf(f, "\n|---|---:|---:|");
  for (int m = 0; m < g->nmetrics; m++) fprintf(f, "---:|");
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
  if (!json_is_true(json_object_get(sum, "complete")))
    fprintf(f, "INCOMPLETE: %lld of %lld units played (%s)\n\n",
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")),
            json_string_value(json_object_get(sum, "stopped")) ? json_string_value(json_object_get(sum, "stopped"))
                                                                : "stopped");
  tables(r, sum, f, 0);
  fault_table(sum, f, 0, 0);
}

void tk_summary_markdown(const tk_run *r, json_t *sum, FILE *f) {
  const tk_spec *s = &r->spec;
  fprintf(f, "# taikai report: %s\n\n", s->path);
  fprintf(f, "game `%s`, format `%s`, seed %llu, %llu walls, %lld units; taikai %s.\n\n", s->game,
          tk_format_name(s->format), (unsigned long long)s->seed,
          (unsigned long long)s->walls,
          (long long)json_integer_value(json_object_get(sum, "units")), TAIKAI_VERSION);
  if (!json_is_true(json_object_get(sum, "complete"))) {
    const char *why = json_string_value(json_object_get(sum, "stopped"));
    fprintf(f, "**Incomplete run**: %lld of %lld units played (%s). Run the same command again "
               "(or with `--resume`) to finish it.\n\n",
            (long long)json_integer_value(json_object_get(sum, "units")),
            (long long)json_integer_value(json_object_get(sum, "units_total")),
            why ? why : "stopped");
  }
  if (s->format == TK_FORMAT_FIELD)
    fprintf(f, "Intervals: rates %s; means Student-t over walls (walls are the independent "
               "unit); paired differences Student-t over per-wall differences.\n\n",
            tk_interval_name(s->proportion));
  else
    fprintf(f, "Intervals: rates and means Student-t over walls (per-wall linearised ratio: a "
               "wall, i.e. a game index with the games of all its seatings, is the independent "
               "unit); paired differences Student-t over per-wall differences.\n\n");
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
