/* harness/cmd/ratings.c — `taikai ratings RUN...`: Plackett–Luce ratings of every distinct agent
 * of one game's run folders (harness/stats/ratings.h), with intervals from resampling whole
 * walls, as a Markdown table, JSON or a leaderboard page.
 *
 * An agent is its plugin, version, params and the hashes of its files other than the plugin's
 * own bytes (weights), as spec.json records them: two versions or parameter sets are two rows;
 * one agent in several runs is one row. A game is a unit's seats ordered by a result field
 * (riichi: rank; daifugo: the block's points; solo: one ranking per wall of the points of every
 * agent that played it, across runs of the same seed and rules). Walls of runs with the same
 * seed and rules are the same deals: they are one cluster when resampling. */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>
#include <zlib.h>

#include "chain.h"
#include "commands.h"
#include "game.h"
#include "opts.h"
#include "leaderboard.h"
#include "line.h"
#include "ratings.h"
#include "readfile.h"
#include "taikai/file.h"

enum { MAX_RUNS = 256, MAX_AGENTS = 256 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai ratings RUN... [--json] [--html FILE] [--anchor LABEL] [--seed N]\n"
          "                      [--resamples N] [--level P] [--prior G] [--key FIELD]\n"
          "                      [--ascending] [--title TEXT]\n"
          "\n"
          "Rates every distinct agent of the run folders RUN... (of `taikai run` or `taikai\n"
          "merge`, all of one game) with the Plackett-Luce model fitted to each game's finishing\n"
          "order (Bradley-Terry when games have two seats), by Hunter's MM algorithm. An agent\n"
          "is its plugin, version, params and weights hash: two versions are two rows.\n"
          "A unit's order, unless --key says otherwise (a one-seat game compares every agent\n"
          "that played a wall, ordered by its value on it):\n");
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    if ((*g)->ratings_field)
      fprintf(f, "  %-8s the seats' %s, %s first\n", (*g)->name, (*g)->ratings_field,
              (*g)->ratings_ascending ? "lowest" : "highest");
  fprintf(f,
          "Equal values are tied places (Breslow's approximation: a tied group is chosen from\n"
          "the seats left, each with the same denominator; the last group chooses nothing).\n"
          "Intervals: percentiles of the ratings refitted on resamples of whole walls (every\n"
          "game of a wall together; walls of runs with the same seed and rules are the same\n"
          "deals and go together). P(above next): the share of resamples in which the agent's\n"
          "rating is above the next row's. Prints a Markdown table: rank, agent, plugin,\n"
          "rating, interval, games, P(above next), then the expected head-to-head scores.\n"
          "\n"
          "  --json          JSON on stdout instead of the table\n"
          "  --html FILE     also write a leaderboard page (table, plot, head-to-head matrix)\n"
          "  --anchor LABEL  the agent rated 0 (default: the mean rating is 0)\n"
          "  --seed N        the resampling's seed (default 1)\n"
          "  --resamples N   resamples for the intervals (default 1000; 0: none)\n"
          "  --level P       the intervals' level (default 0.95)\n"
          "  --prior G       virtual games per agent against a fixed agent of strength 1, half\n"
          "                  won (default 2; keeps ratings finite; 0: maximum likelihood)\n"
          "  --key FIELD     the seat's result field that orders a game (default: see above)\n"
          "  --ascending     lower values of --key are better (rank is always ascending)\n"
          "  --title TEXT    the title of the table and page\n"
          "\n"
          "Rating: 400 log10 of the fitted strength (an Elo-like scale): a difference D means\n"
          "the higher agent finishes ahead of the lower with probability 1 / (1 + 10^(-D/400)).\n"
          "A run folder whose games.chain does not vouch for its games.jsonl is refused.\n"
          "\n"
          "Exit status: 0 rated; 1 the fit failed; 2 bad usage or input (the message names the\n"
          "file, field and value).\n");
}

typedef struct rated {
  char *id;      /* identity: plugin \x1f version \x1f params \x1f weights hashes */
  char *label, *plugin, *params; /* label: shown, unique; plugin: "name version" */
  char *base;                     /* the label the spec gives it */
  uint64_t runs;                  /* run folders it plays in */
  int last_run;                   /* the last of them, while reading */
} rated;

typedef struct entry { /* one seat of a one-player game, waiting for its wall's ranking */
  uint64_t cluster;
  int agent;
  int64_t value;
} entry;

typedef struct ctx {
  const char *game_name;
  const tk_game *game;
  int field, ascending;
  rated agents[MAX_AGENTS];
  int nagents;
  char *deals[MAX_RUNS]; /* distinct "seed rules" texts: a wall's cluster is (deal, wall) */
  int ndeals;
  tk_pl *pl;
  entry *solo;
  size_t nsolo, cap_solo;
  uint64_t units;
  int run;               /* the run folder being read (its index) */
} ctx;

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("taikai ratings: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

static char *dump(const json_t *v) {
  char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  return s ? s : strdup("(missing)");
}

/* The global index of a spec agent (its identity), added when new. Returns it, or 2 (printed)
 * through *rc. */
static int agent_of(ctx *c, const char *spec, size_t i, json_t *a, int *rc) {
  const char *plugin = json_string_value(json_object_get(a, "plugin"));
  const char *label = json_string_value(json_object_get(a, "label"));
  const char *version = json_string_value(json_object_get(a, "version"));
  if (!plugin || !label) {
    *rc = bad("%s: field 'agents[%zu]': expected \"plugin\" and \"label\" strings", spec, i);
    return -1;
  }
  char *params = dump(json_object_get(a, "params"));
  size_t cap = strlen(plugin) + strlen(params) + 64 + (version ? strlen(version) : 0);
  json_t *files = json_object_get(a, "files"), *fl;
  size_t k;
  json_array_foreach(files, k, fl) cap += 80;
  char *id = malloc(cap);
  int n = snprintf(id, cap, "%s\x1f%s\x1f%s\x1f", plugin, version ? version : "", params);
  json_array_foreach(files, k, fl) {
    const char *role = json_string_value(json_object_get(fl, "role"));
    const char *sha = json_string_value(json_object_get(fl, "sha256"));
    if (role && strcmp(role, "plugin") && sha)
      n += snprintf(id + n, cap - (size_t)n, "%s:%.64s,", role, sha);
  }
  for (int g = 0; g < c->nagents; g++)
    if (!strcmp(c->agents[g].id, id)) {
      free(id);
      free(params);
      if (c->agents[g].last_run != c->run) c->agents[g].runs++;
      c->agents[g].last_run = c->run;
      return g;
    }
  if (c->nagents == MAX_AGENTS) {
    free(id);
    free(params);
    *rc = bad("%s: more than %d distinct agents in all", spec, MAX_AGENTS);
    return -1;
  }
  rated *ag = &c->agents[c->nagents];
  ag->id = id;
  ag->params = params;
  size_t pl = strlen(plugin) + (version ? strlen(version) : 0) + 2;
  ag->plugin = malloc(pl);
  snprintf(ag->plugin, pl, "%s%s%s", plugin, version ? " " : "", version ? version : "");
  /* a label another identity already shows gets its version when that tells them apart,
   * else a number */
  char buf[512];
  snprintf(buf, sizeof buf, "%s", label);
  int same_version = 0, taken = 0;
  for (int g = 0; g < c->nagents; g++)
    if (!strcmp(c->agents[g].base, label)) {
      taken = 1;
      same_version |= !strcmp(c->agents[g].plugin, ag->plugin);
    }
  if (taken && !same_version) snprintf(buf, sizeof buf, "%s (%s)", label, version ? version : "?");
  for (int k2 = 2; taken; k2++) {
    taken = 0;
    for (int g = 0; g < c->nagents; g++) taken |= !strcmp(c->agents[g].label, buf);
    if (taken) snprintf(buf, sizeof buf, "%s #%d", label, k2);
  }
  ag->base = strdup(label);
  ag->label = strdup(buf);
  ag->runs = 1;
  ag->last_run = c->run;
  return c->nagents++;
}

/* Orders the seats of one game by value (best first) and adds it. */
static int add_game(ctx *c, const int *agent, const int64_t *value, int n, uint64_t cluster) {
  int idx[64], ag[64];
  unsigned char tie[64];
  for (int k = 0; k < n; k++) idx[k] = k;
  for (int k = 1; k < n; k++) /* insertion sort: stable, n is small */
    for (int j = k; j > 0; j--) {
      int64_t a = value[idx[j - 1]], b = value[idx[j]];
      int swap = c->ascending ? a > b : a < b;
      if (!swap) break;
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  for (int k = 0; k < n; k++) {
    ag[k] = agent[idx[k]];
    tie[k] = k + 1 < n && value[idx[k]] == value[idx[k + 1]];
  }
  return tk_pl_add(c->pl, ag, tie, n, cluster);
}

static int cmp_entry(const void *a, const void *b) {
  const entry *x = a, *y = b;
  return (x->cluster > y->cluster) - (x->cluster < y->cluster);
}

/* Reads one run folder into c. Returns 0 or 2 (printed). */
static int read_run(ctx *c, const char *dir) {
  char spec_path[4200], games[4200];
  snprintf(spec_path, sizeof spec_path, "%s/spec.json", dir);
  tk_error e;
  tk_error_clear(&e);
  json_t *spec = tk_json_load_path(spec_path, 0, &e);
  if (!spec) return bad("%s (is %s a run folder of `taikai run`?)", e.msg, dir);
  int rc = 0, map[MAX_AGENTS];
  gzFile gz = NULL;
  char *line = NULL;
  tk_unit_rec *rec = NULL;
  const char *game = json_string_value(json_object_get(spec, "game"));
  if (!game) {
    char *s = dump(json_object_get(spec, "game"));
    rc = bad("%s: field 'game': expected a game name, got %s", spec_path, s);
    free(s);
    goto done;
  }
  if (!c->game_name) {
    c->game_name = strdup(game);
    c->game = tk_game_find(game);
    if (!c->game) {
      rc = bad("%s: field 'game': unknown game '%s' (games: %s)", spec_path, game, tk_game_names());
      goto done;
    }
  } else if (strcmp(c->game_name, game)) {
    rc = bad("%s: field 'game': '%s', but the runs before it are of '%s': ratings compare agents "
             "of one game", spec_path, game, c->game_name);
    goto done;
  }
  json_t *agents = json_object_get(spec, "agents");
  size_t na = json_array_size(agents);
  if (!json_is_array(agents) || !na || na > MAX_AGENTS) {
    rc = bad("%s: field 'agents': expected an array of 1 to %d agents", spec_path, MAX_AGENTS);
    goto done;
  }
  json_t *a;
  size_t i;
  json_array_foreach(agents, i, a) {
    map[i] = agent_of(c, spec_path, i, a, &rc);
    if (map[i] < 0) goto done;
  }
  /* the deal: seed and rules */
  char *seed = dump(json_object_get(spec, "seed")), *rules = dump(json_object_get(spec, "rules"));
  size_t dl = strlen(seed) + strlen(rules) + 2;
  char *deal = malloc(dl);
  snprintf(deal, dl, "%s %s", seed, rules);
  free(seed);
  free(rules);
  int di = 0;
  while (di < c->ndeals && strcmp(c->deals[di], deal)) di++;
  if (di == c->ndeals) c->deals[c->ndeals++] = deal;
  else free(deal);

  /* games.jsonl, vouched for by games.chain as `taikai report` does */
  gz = tk_games_open(dir, games, sizeof games, &e);
  if (!gz) {
    rc = bad("%s: no games.jsonl or games.jsonl.gz (%s): nothing to rate", dir, e.msg);
    goto done;
  }
  if (tk_chain_vouch(dir, "taikai ratings")) {
    rc = 2;
    goto done;
  }
  line = malloc(TK_LINE_MAX + 2);
  rec = malloc(sizeof *rec);
  if (!line || !rec) {
    rc = bad("%s: out of memory", games);
    goto done;
  }
  for (long long lineno = 1; gzgets(gz, line, TK_LINE_MAX + 2); lineno++) {
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n') line[--len] = '\0';
    else if (len >= TK_LINE_MAX + 1) {
      rc = bad("%s: line %lld is longer than any line taikai writes", games, lineno);
      goto done;
    }
    if (!len) continue;
    if (tk_line_read(c->game, line, len, (int)na, rec, &e)) {
      rc = bad("%s: line %lld: %s", games, lineno, e.msg);
      goto done;
    }
    c->units++;
    if (rec->skipped) continue;
    uint64_t cluster = ((uint64_t)di << 44) | rec->wall;
    if (rec->wall >= (uint64_t)1 << 44) {
      rc = bad("%s: line %lld: field 'wall': %llu is out of range", games, lineno,
               (unsigned long long)rec->wall);
      goto done;
    }
    if (c->game->nseats == 1) {
      if (c->nsolo == c->cap_solo) {
        size_t cap = c->cap_solo ? 2 * c->cap_solo : 4096;
        entry *n = realloc(c->solo, cap * sizeof *n);
        if (!n) {
          rc = bad("%s: out of memory", games);
          goto done;
        }
        c->solo = n;
        c->cap_solo = cap;
      }
      c->solo[c->nsolo++] = (entry){.cluster = cluster, .agent = map[rec->seat[0].agent],
                                    .value = rec->seat[0].f[c->field]};
      continue;
    }
    int ag[TK_MAX_SEATS];
    int64_t val[TK_MAX_SEATS];
    for (int s = 0; s < rec->nseats; s++) {
      ag[s] = map[rec->seat[s].agent];
      val[s] = rec->seat[s].f[c->field];
    }
    if (add_game(c, ag, val, rec->nseats, cluster)) {
      rc = bad("%s: line %lld: out of memory", games, lineno);
      goto done;
    }
  }
  if (!gzeof(gz)) {
    int zerr;
    const char *msg = gzerror(gz, &zerr);
    rc = bad("%s: cannot read: %s", games, zerr == Z_ERRNO ? strerror(errno) : msg);
  }
done:
  if (gz) gzclose(gz);
  free(line);
  free(rec);
  json_decref(spec);
  return rc;
}

/* The one-player seats grouped by wall into one ranking each. Returns 0 or 2 (printed). */
static int solo_games(ctx *c) {
  qsort(c->solo, c->nsolo, sizeof *c->solo, cmp_entry);
  int ag[64];
  int64_t val[64];
  for (size_t s = 0, e; s < c->nsolo; s = e) {
    for (e = s + 1; e < c->nsolo && c->solo[e].cluster == c->solo[s].cluster; e++) {}
    if (e - s > 64)
      return bad("wall %llu: %zu seats played it; at most 64 can be ranked together",
                 (unsigned long long)(c->solo[s].cluster & (((uint64_t)1 << 44) - 1)), e - s);
    for (size_t k = s; k < e; k++) {
      ag[k - s] = c->solo[k].agent;
      val[k - s] = c->solo[k].value;
    }
    if (add_game(c, ag, val, (int)(e - s), c->solo[s].cluster)) return bad("out of memory");
  }
  return 0;
}

static double quantile(double *v, size_t n, double q) {
  gsl_sort(v, 1, n);
  return gsl_stats_quantile_from_sorted_data(v, 1, n, q);
}

/* `taikai ratings`'s command line. */
typedef struct ratings_args {
  const char *runs[MAX_RUNS], *html, *anchor, *key, *title;
  int nruns, json, ascending, resamples;
  uint64_t seed;
  double level, prior;
} ratings_args;

/* Parses argv into `a`: 0, 1 after --help (printed), 2 on a usage error (printed). */
static int parse_args(int argc, char **argv, ratings_args *a) {
  *a = (ratings_args){.resamples = 1000, .seed = 1, .level = 0.95, .prior = 2};
  const tk_opt opts[] = {
      {.name = "json", .kind = TK_OPT_FLAG, .dest = &a->json, .help = "JSON instead of Markdown"},
      {.name = "ascending", .kind = TK_OPT_FLAG, .dest = &a->ascending,
       .help = "a lower --key is better"},
      {.name = "html", .kind = TK_OPT_STRING, .dest = &a->html, .empty_ok = 1, .value = "FILE",
       .help = "also write the leaderboard page there"},
      {.name = "anchor", .kind = TK_OPT_STRING, .dest = &a->anchor, .empty_ok = 1,
       .value = "LABEL", .help = "the agent rated 0"},
      {.name = "key", .kind = TK_OPT_STRING, .dest = &a->key, .empty_ok = 1, .value = "FIELD",
       .help = "the result field that orders a game's seats"},
      {.name = "title", .kind = TK_OPT_STRING, .dest = &a->title, .empty_ok = 1,
       .value = "TEXT", .help = "the table's title"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &a->seed, .value = "S",
       .help = "the resamples' seed"},
      {.name = "resamples", .kind = TK_OPT_INT, .dest = &a->resamples, .value = "N",
       .min = 0, .max = 1000000, .help = "refits on resampled walls"},
      {.name = "level", .kind = TK_OPT_DOUBLE, .dest = &a->level, .value = "P", .lo = 0,
       .hi = 1, .open = 1, .help = "the intervals' level"},
      {.name = "prior", .kind = TK_OPT_DOUBLE, .dest = &a->prior, .value = "G", .lo = 0,
       .hi = 1e9, .help = "virtual games per agent"},
      {.name = NULL},
  };
  const char *pos[MAX_RUNS + 1];
  int rc = tk_opts_parse("ratings", opts, argc, argv, pos, MAX_RUNS + 1, &a->nruns);
  if (rc == 1) usage(stdout);
  if (rc) return rc;
  if (a->nruns > MAX_RUNS) return bad("more than %d run folders", MAX_RUNS);
  memcpy(a->runs, pos, (size_t)a->nruns * sizeof *pos);
  return 0;
}

/* The index of the agent labelled `anchor` (-1 when anchor is NULL); -2 after printing that no
 * agent has that label. */
static int find_anchor(const ctx *c, const char *anchor) {
  if (!anchor) return -1;
  for (int a = 0; a < c->nagents; a++)
    if (!strcmp(c->agents[a].label, anchor)) return a;
  char known[1024] = "";
  for (int a = 0; a < c->nagents; a++)
    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", a ? ", " : "",
             c->agents[a].label);
  bad("--anchor: no agent labelled '%s' (agents: %s)", anchor, known);
  return -2;
}

/* The fitted ratings of m agents, their intervals and the table's rows, owned by the struct
 * (board_free). Rows are in `order`: by rating, best first. */
typedef struct board {
  int m, anchor_i;
  size_t R;           /* resamples */
  double *theta;      /* the fit's log-strengths (m) */
  double *rs;         /* each resample's ratings (R rows of m) */
  double *rating;     /* m each: rating, lo, hi, then pnext (by row) */
  double *lo, *hi, *pnext;
  int *order;         /* row k's agent */
  double *expected;   /* m x m: row's agent ahead of column's, by rows */
  tk_board_row *rows;
} board;

static void board_free(board *b) {
  free(b->theta);
  free(b->rs);
  free(b->rating);
  free(b->order);
  free(b->expected);
  free(b->rows);
}

/* Names the agent that a fit's message numbers ("agent 3 ...") and prints the failure. */
static void fit_failed(const ctx *c, const tk_error *e) {
  for (int a = 0; a < c->nagents; a++) {
    char num[32];
    snprintf(num, sizeof num, "agent %d ", a);
    const char *at = strstr(e->msg, num);
    if (at) {
      fprintf(stderr, "taikai ratings: the fit failed: %.*s'%s' %s\n", (int)(at - e->msg), e->msg,
              c->agents[a].label, at + strlen(num));
      return;
    }
  }
  fprintf(stderr, "taikai ratings: the fit failed: %s\n", e->msg);
}

/* Fits c's games, resamples, and fills b (zeroed by the caller; m, anchor_i and R set): 0, 1
 * when the fit failed, 2 out of memory (printed). */
static int fit_board(const ctx *c, const ratings_args *args, board *b) {
  int m = b->m, anchor_i = b->anchor_i;
  size_t R = b->R;
  b->theta = calloc((size_t)m, sizeof *b->theta);
  b->rs = malloc((R + 1) * (size_t)m * sizeof *b->rs);
  double *col = malloc((R + 1) * sizeof *col);
  b->rating = calloc((size_t)m * 5, sizeof *b->rating);
  b->order = calloc((size_t)m, sizeof *b->order);
  b->expected = calloc((size_t)m * (size_t)m, sizeof *b->expected);
  b->rows = calloc((size_t)m, sizeof *b->rows);
  if (!b->theta || !b->rs || !col || !b->rating || !b->order || !b->expected || !b->rows) {
    free(col);
    return bad("out of memory");
  }
  double *theta = b->theta, *rs = b->rs, *rating = b->rating;
  double *lo = rating + m, *hi = lo + m, *pnext = hi + m;
  int *order = b->order;
  double *expected = b->expected;
  b->lo = lo, b->hi = hi, b->pnext = pnext;
  tk_pl_opts opts = {.prior = args->prior};
  tk_error e;
  tk_error_clear(&e);
  if (tk_pl_fit(c->pl, &opts, theta, NULL, &e) ||
      (R && tk_pl_resample(c->pl, &opts, theta, (int)R, args->seed, rs, &e))) {
    fit_failed(c, &e);
    free(col);
    return 1;
  }
  /* anchored ratings, of the fit and of each resample */
  for (int a = 0; a < m; a++)
    rating[a] = TK_ELO_PER_LOG * (theta[a] - (anchor_i >= 0 ? theta[anchor_i] : 0));
  for (size_t r = 0; r < R; r++) {
    double *row = rs + r * (size_t)m, base = anchor_i >= 0 ? row[anchor_i] : 0;
    for (int a = 0; a < m; a++) row[a] = TK_ELO_PER_LOG * (row[a] - base);
  }
  for (int a = 0; a < m; a++) {
    order[a] = a;
    lo[a] = hi[a] = NAN;
    if (!R) continue;
    for (size_t r = 0; r < R; r++) col[r] = rs[r * (size_t)m + (size_t)a];
    lo[a] = quantile(col, R, (1 - args->level) / 2);
    hi[a] = quantile(col, R, (1 + args->level) / 2);
  }
  for (int a = 0; a < m; a++)
    if (R && a != anchor_i && lo[a] == hi[a])
      fprintf(stderr, "taikai ratings: note: '%s' has the same rating in every resample (the same "
              "order in every game?): its interval has no width and does not measure its "
              "uncertainty; the prior alone keeps the rating finite\n", c->agents[a].label);
  for (int k = 1; k < m; k++) /* by rating, best first; equal ratings keep the agents' order */
    for (int j = k; j > 0 && rating[order[j]] > rating[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int k = 0; k < m; k++) {
    pnext[k] = NAN;
    if (k + 1 == m || !R) continue;
    double above = 0;
    for (size_t r = 0; r < R; r++) {
      double x = rs[r * (size_t)m + (size_t)order[k]], y = rs[r * (size_t)m + (size_t)order[k + 1]];
      above += x > y ? 1 : x == y ? 0.5 : 0;
    }
    pnext[k] = above / (double)R;
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      expected[(size_t)i * (size_t)m + (size_t)j] =
          1 / (1 + exp(theta[order[j]] - theta[order[i]]));
  free(col);
  for (int k = 0; k < m; k++) {
    const rated *ag = &c->agents[order[k]];
    b->rows[k] = (tk_board_row){.label = ag->label, .plugin = ag->plugin, .params = ag->params,
                                .rating = rating[order[k]], .lo = lo[order[k]], .hi = hi[order[k]],
                                .p_next = pnext[k], .games = tk_pl_agent_games(c->pl, order[k])};
  }
  return 0;
}

/* The method paragraph of the table, into method[cap]. */
static void method_text(const ctx *c, const ratings_args *args, const board *b, char *method,
                        size_t cap) {
  const tk_field *kf = &c->game->fields_def[c->field];
  int m = b->m, anchor_i = b->anchor_i, nruns = args->nruns;
  size_t R = b->R;
  int mn = snprintf(method, cap,
                    "Plackett–Luce ratings of %d agents from %llu games (%llu walls) in %d run%s of "
                    "%s, each game ordered by the seats' '%s' (%s is better; equal values are tied "
                    "places, Breslow's approximation), fitted by Hunter's MM algorithm with a prior "
                    "of %g virtual games per agent. Rating: 400·log10 of the strength, ",
                    m, (unsigned long long)tk_pl_games(c->pl),
                    (unsigned long long)tk_pl_clusters(c->pl), nruns, nruns == 1 ? "" : "s",
                    c->game_name, kf->name, c->ascending ? "lower" : "higher", args->prior);
  if (anchor_i >= 0) mn += snprintf(method + mn, cap - (size_t)mn, "%s at 0", c->agents[anchor_i].label);
  else mn += snprintf(method + mn, cap - (size_t)mn, "the mean at 0");
  if (R)
    snprintf(method + mn, cap - (size_t)mn,
             ". Intervals: %g %% percentile intervals of %zu refits on resamples of whole walls "
             "(seed %llu); P(above next): the share of resamples with the agent above the next row.",
             100 * args->level, R, (unsigned long long)args->seed);
  else
    snprintf(method + mn, cap - (size_t)mn, ". No resamples: no intervals.");
}

/* The ratings as one JSON object on stdout. */
static void print_json(const ctx *c, const ratings_args *args, const board *b) {
  const tk_field *kf = &c->game->fields_def[c->field];
  int m = b->m, anchor_i = b->anchor_i, nruns = args->nruns;
  size_t R = b->R;
  const int *order = b->order;
  const double *theta = b->theta, *rating = b->rating, *lo = b->lo, *hi = b->hi;
  const double *pnext = b->pnext, *expected = b->expected;
  const tk_board_row *rows = b->rows;
  const char *const *runs = args->runs;
  double prior = args->prior, level = args->level;
  uint64_t seed = args->seed;
  json_t *o = json_object(), *ags = json_array(), *ex = json_array(), *rl = json_array();
  json_object_set_new(o, "game", json_string(c->game_name));
  json_object_set_new(o, "model", json_string("plackett-luce"));
  json_object_set_new(o, "ties", json_string("breslow"));
  json_object_set_new(o, "key", json_string(kf->name));
  json_object_set_new(o, "ascending", json_boolean(c->ascending));
  json_object_set_new(o, "scale", json_string("400*log10(strength)"));
  json_object_set_new(o, "anchor", anchor_i >= 0 ? json_string(c->agents[anchor_i].label) : json_string("mean"));
  json_object_set_new(o, "prior", json_real(prior));
  json_object_set_new(o, "level", json_real(level));
  json_object_set_new(o, "resamples", json_integer((json_int_t)R));
  json_object_set_new(o, "seed", json_integer((json_int_t)seed));
  json_object_set_new(o, "games", json_integer((json_int_t)tk_pl_games(c->pl)));
  json_object_set_new(o, "walls", json_integer((json_int_t)tk_pl_clusters(c->pl)));
  json_object_set_new(o, "units", json_integer((json_int_t)c->units));
  for (int r = 0; r < nruns; r++) json_array_append_new(rl, json_string(runs[r]));
  json_object_set_new(o, "runs", rl);
  for (int k = 0; k < m; k++) {
    const rated *ag = &c->agents[order[k]];
    json_t *x = json_object(), *ci = json_array(), *row = json_array();
    json_object_set_new(x, "rank", json_integer(k + 1));
    json_object_set_new(x, "label", json_string(ag->label));
    json_object_set_new(x, "plugin", json_string(ag->plugin));
    json_object_set_new(x, "params", json_loads(ag->params, JSON_DECODE_ANY, NULL));
    json_object_set_new(x, "rating", json_real(rating[order[k]]));
    json_array_append_new(ci, isfinite(lo[order[k]]) ? json_real(lo[order[k]]) : json_null());
    json_array_append_new(ci, isfinite(hi[order[k]]) ? json_real(hi[order[k]]) : json_null());
    json_object_set_new(x, "ci", ci);
    json_object_set_new(x, "log_strength", json_real(theta[order[k]] - (anchor_i >= 0 ? theta[anchor_i] : 0)));
    json_object_set_new(x, "games", json_integer((json_int_t)rows[k].games));
    json_object_set_new(x, "runs", json_integer((json_int_t)ag->runs));
    json_object_set_new(x, "p_above_next", isfinite(pnext[k]) ? json_real(pnext[k]) : json_null());
    json_array_append_new(ags, x);
    for (int j = 0; j < m; j++) json_array_append_new(row, json_real(expected[(size_t)k * (size_t)m + (size_t)j]));
    json_array_append_new(ex, row);
  }
  json_object_set_new(o, "agents", ags);
  json_object_set_new(o, "expected", ex);
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
  fputc('\n', stdout);
  json_decref(o);
}

/* The ratings as a Markdown table and the expected scores' matrix on stdout. */
static void print_markdown(const ratings_args *args, const board *b, const char *method) {
  int m = b->m;
  const tk_board_row *rows = b->rows;
  const double *expected = b->expected;
  if (args->title) printf("# %s\n\n", args->title);
  printf("%s\n\n| rank | agent | plugin | rating | %g %% interval | games | P(above next) |\n"
         "|---:|---|---|---:|---|---:|---:|\n", method, 100 * args->level);
  for (int k = 0; k < m; k++) {
    const tk_board_row *r = &rows[k];
    printf("| %d | %s | %s | %+.1f | ", k + 1, r->label, r->plugin, r->rating);
    if (isfinite(r->lo)) printf("[%+.1f, %+.1f]", r->lo, r->hi);
    else printf("–");
    printf(" | %llu | ", (unsigned long long)r->games);
    if (isfinite(r->p_next)) printf("%.3f |\n", r->p_next);
    else printf("– |\n");
  }
  if (m > 1) {
    printf("\nExpected score of the row's agent against the column's (the model's probability "
           "of finishing ahead of it):\n\n|  |");
    for (int j = 0; j < m; j++) printf(" %s |", rows[j].label);
    printf("\n|---|");
    for (int j = 0; j < m; j++) printf("---:|");
    printf("\n");
    for (int i = 0; i < m; i++) {
      printf("| %s |", rows[i].label);
      for (int j = 0; j < m; j++)
        if (i == j) printf(" – |");
        else printf(" %.3f |", expected[(size_t)i * (size_t)m + (size_t)j]);
      printf("\n");
    }
  }
}

int tk_cmd_ratings(int argc, char **argv) {
  ratings_args args;
  int prc = parse_args(argc, argv, &args);
  if (prc) return prc == 1 ? 0 : 2;
  const char **runs = args.runs, *key = args.key;
  int nruns = args.nruns, ascending = args.ascending;
  if (!nruns) {
    usage(stderr);
    return 2;
  }
  gsl_set_error_handler_off();
  ctx c = {0};
  board b = {0};
  int rc = 0;
  /* sized for every agent there may be, lowered to those seen once every run is read */
  c.pl = tk_pl_new(MAX_AGENTS);
  if (!c.pl) return bad("out of memory");
  for (int r = 0; r < nruns && !rc; r++) {
    if (r == 0) { /* the key needs the game: read the first spec's game name */
      char p[4200];
      snprintf(p, sizeof p, "%s/spec.json", runs[0]);
      tk_error e;
      tk_error_clear(&e);
      json_t *s = tk_json_load_path(p, 0, &e);
      if (!s) {
        rc = bad("%s (is %s a run folder of `taikai run`?)", e.msg, runs[0]);
        break;
      }
      const tk_game *g = tk_game_find(json_string_value(json_object_get(s, "game")) ?
                                      json_string_value(json_object_get(s, "game")) : "");
      const char *fname = key;
      c.ascending = ascending;
      if (g && !fname && g->ratings_field) { /* the game's default order */
        fname = g->ratings_field;
        c.ascending = g->ratings_ascending;
      }
      c.field = -1;
      for (int f = 0; g && fname && f < g->nfields; f++)
        if (!strcmp(g->fields_def[f].name, fname)) c.field = f;
      if (g && fname && !strcmp(fname, "rank")) c.ascending = 1;
      if (g && c.field < 0) {
        char known[512] = "";
        for (int f = 0; f < g->nfields; f++)
          snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", f ? ", " : "",
                   g->fields_def[f].name);
        rc = bad("--key: '%s' is not a result field of game '%s' (fields: %s)",
                 fname ? fname : "(none)", g->name, known);
        json_decref(s);
        break;
      }
      json_decref(s);
    }
    c.run = r;
    rc = read_run(&c, runs[r]);
  }
  if (!rc && c.game->nseats == 1) rc = solo_games(&c);
  if (rc) goto done;
  int m = c.nagents;
  tk_pl_shrink(c.pl, m);
  b.m = m;
  b.R = (size_t)args.resamples;
  if ((b.anchor_i = find_anchor(&c, args.anchor)) == -2) {
    rc = 2;
    goto done;
  }
  if (!tk_pl_games(c.pl)) {
    rc = bad("no games to rate in the runs given");
    goto done;
  }
  if ((rc = fit_board(&c, &args, &b))) goto done;
  char method[2048];
  method_text(&c, &args, &b, method, sizeof method);
  if (args.json) print_json(&c, &args, &b);
  else print_markdown(&args, &b, method);
  if (args.html) {
    char t[512];
    if (!args.title) snprintf(t, sizeof t, "Ratings: %s", c.game_name);
    tk_board bd = {.title = args.title ? args.title : t, .method = method, .nrows = m,
                   .rows = b.rows, .expected = b.expected, .nruns = nruns, .runs = runs,
                   .level = args.level};
    tk_error e;
    tk_error_clear(&e);
    if (tk_board_html(&bd, args.html, &e)) rc = bad("%s", e.msg);
  }
done:
  board_free(&b);
  tk_pl_free(c.pl);
  for (int a = 0; a < c.nagents; a++) {
    free(c.agents[a].id);
    free(c.agents[a].label);
    free(c.agents[a].base);
    free(c.agents[a].plugin);
    free(c.agents[a].params);
  }
  for (int d = 0; d < c.ndeals; d++) free(c.deals[d]);
  free(c.solo);
  free((char *)c.game_name);
  return rc;
}
