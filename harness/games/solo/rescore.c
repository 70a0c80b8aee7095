/* harness/games/solo/rescore.c — `taikai rescore RUN [--labels L,...] [--out FILE]`: the wins of a
 * one-player mahjong run scored again under other scoring conventions, and the run's log
 * audited against the engine.
 *
 * Each game of RUN/games.jsonl is rebuilt from its wall (a pure function of the spec's seed and
 * the wall index) and its logged discards: the final 14 tiles of a win are the first 13 + turn
 * tiles of the wall without the discards. Every win is then scored
 *   - as logged: the drawn tile is the winning tile (our rules; checked equal to the log),
 *   - "best winning tile": the most valuable reading of which of the 14 tiles completed the
 *     hand (the convention of a scorer that is given the 14 tiles but not the winning draw),
 *   - "no dora": the drawn tile, without the dora.
 * A won game whose rebuilt hand is not complete, or whose score differs from the logged points,
 * and a game without a win that did not play all its draws, are reported as errors (exit 1):
 * the log disagrees with the engine.
 *
 * Forfeited games count as games without a win, skipped units are left out, as in the summary.
 * Intervals are the summary's: ratios over walls with Student-t intervals (harness/stats/stats.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "taikai/file.h"
#include "chain.h"
#include "readfile.h"
#include "solo_cmd.h"
#include "game.h"
#include "opts.h"
#include "stats.h"
#include "taikai/solo.h"
#include "tally.h"

enum { CONV_LOGGED, CONV_BEST_TILE, CONV_NO_DORA, NCONV };
static const char *const conv_title[NCONV] = {"as logged", "best winning tile", "no dora"};

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai rescore RUN [--labels LABEL[,LABEL...]] [--out FILE]\n"
          "\n"
          "Scores the wins of a one-player mahjong run (RUN: the folder `taikai run` wrote,\n"
          "with spec.json and games.jsonl) again under other scoring conventions, and prints\n"
          "points per win and per game for each agent, with confidence intervals over walls:\n"
          "\n"
          "  as logged          the drawn tile is the winning tile (taikai's rules)\n"
          "  best winning tile  the most valuable reading of which of the 14 tiles completed\n"
          "                     the hand, as a scorer given only the 14 tiles would score it\n"
          "  no dora            the drawn tile, without the dora\n"
          "\n"
          "Each game is rebuilt from its wall and its logged discards; a logged result that\n"
          "the engine does not reproduce is reported as an error.\n"
          "\n"
          "  --labels L,...  only these agents (default: all, in the spec's order)\n"
          "  --out FILE      write the Markdown table there (default: stdout)\n"
          "\n"
          "Exit status: 0 done; 1 the log disagrees with the engine (the table is written);\n"
          "2 bad usage or input (the message names the file, line and value).\n");
}

typedef struct acc {
  size_t n, cap;
  double *win, *pts[NCONV]; /* per counted game of this agent */
} acc;

static int acc_push(acc *a, double win, const double pts[NCONV]) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 1024;
    double *w = realloc(a->win, cap * sizeof *w);
    if (!w) return -1;
    a->win = w;
    for (int c = 0; c < NCONV; c++) {
      double *p = realloc(a->pts[c], cap * sizeof *p);
      if (!p) return -1;
      a->pts[c] = p;
    }
    a->cap = cap;
  }
  a->win[a->n] = win;
  for (int c = 0; c < NCONV; c++) a->pts[c][a->n] = pts[c];
  a->n++;
  return 0;
}

static void acc_free(acc *a) {
  free(a->win);
  for (int c = 0; c < NCONV; c++) free(a->pts[c]);
}

static int selected(const char *labels, const char *label) {
  if (!labels) return 1;
  size_t n = strlen(label);
  for (const char *p = labels; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, label, n)) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* Checks one line and adds its points under every convention to *out. Returns 0, or 1 with a
 * message in `why` if the log disagrees with the engine, or 2 if the line is malformed. */
static int rescore_line(json_t *seat, const uint8_t wall[TK_SOLO_WALL_TILES],
                        const tk_solo_rules *rules, double *win, double pts[NCONV], char *why,
                        size_t cap) {
  json_t *won = json_object_get(seat, "won"), *turn = json_object_get(seat, "turn");
  json_t *points = json_object_get(seat, "points");
  const char *disc = json_string_value(json_object_get(seat, "discards"));
  if (!json_is_boolean(won) || !json_is_integer(turn) || !json_is_integer(points) || !disc) {
    snprintf(why, cap, "not a solo games.jsonl line (won, turn, points, discards)");
    return 2;
  }
  for (int c = 0; c < NCONV; c++) pts[c] = 0;
  *win = 0;
  if (json_object_get(seat, "fault")) return 0; /* forfeited: a game without a win */
  tk_tile d[TK_SOLO_MAX_DRAWS + 1];
  tk_error err = {0};
  int nd = tk_tiles_parse(disc, d, TK_SOLO_MAX_DRAWS + 1, &err);
  if (nd < 0) {
    snprintf(why, cap, "discards \"%s\": %.400s", disc, err.msg);
    return 2;
  }
  json_int_t t = json_integer_value(turn);
  if (!json_is_true(won)) {
    if (t != rules->draws || nd != rules->draws) {
      snprintf(why, cap, "a game without a win ends after %d draws and %d discards, got turn %lld "
               "and %d discards", rules->draws, rules->draws, (long long)t, nd);
      return 1;
    }
    return 0;
  }
  if (t < 1 || t > rules->draws || nd != t - 1) {
    snprintf(why, cap, "a win at turn %lld follows %lld discards, got %d", (long long)t,
             (long long)(t - 1), nd);
    return 1;
  }
  uint8_t c[TK_KINDS] = {0};
  for (int i = 0; i < TK_SOLO_HAND_TILES + t; i++) c[wall[i]]++;
  for (int i = 0; i < nd; i++) {
    int k = tk_tile_kind(d[i]);
    if (!c[k]) {
      snprintf(why, cap, "discard %d (%s) is not in the hand rebuilt from the wall", i + 1,
               tk_tile_str(d[i]));
      return 1;
    }
    c[k]--;
  }
  int drawn = wall[TK_SOLO_HAND_TILES + t - 1];
  int dora = rules->dora ? wall[TK_SOLO_DORA_POS] : TK_TILE_NONE;
  int p = tk_solo_score(c, drawn, dora, NULL);
  if (p <= 0 || p != json_integer_value(points)) {
    char hand[64];
    tk_tile h[14];
    int n = 0;
    for (int k = 0; k < TK_KINDS; k++)
      for (int i = 0; i < c[k] && n < 14; i++) h[n++] = (tk_tile)k;
    tk_tiles_format(h, n, hand, sizeof hand);
    if (p <= 0)
      snprintf(why, cap, "logged a win, but the rebuilt hand %s is not complete", hand);
    else
      snprintf(why, cap, "logged %lld points, the engine scores the rebuilt hand %s (drew %s) %d",
               (long long)json_integer_value(points), hand, tk_tile_str((tk_tile)drawn), p);
    return 1;
  }
  int best = p;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!c[k]) continue;
    int q = tk_solo_score(c, k, dora, NULL);
    if (q > best) best = q;
  }
  *win = 1;
  pts[CONV_LOGGED] = p;
  pts[CONV_BEST_TILE] = best;
  pts[CONV_NO_DORA] = tk_solo_score(c, drawn, TK_TILE_NONE, NULL);
  return 0;
}

/* Points per game or per win with summary.json's interval (the solo metric's range). */
static void cell(FILE *f, const double *num, const double *den, size_t n, double conf) {
  const tk_game *g = tk_game_find("solo");
  const tk_metric *pts = NULL;
  for (int m = 0; m < g->nmetrics; m++)
    if (!strcmp(g->metrics[m].name, "points_per_win")) pts = &g->metrics[m];
  tk_design d = tk_metric_design(pts, 0, 0);
  tk_estimate e;
  if (tk_stats_metric(num, den, n, &d, conf, &e) || e.value != e.value)
    fprintf(f, " – |");
  else
    fprintf(f, " %.1f [%.1f, %.1f] |", e.value, e.lo, e.hi);
}

/* One rescoring: the command line, the run's spec and the per-agent sums. */
typedef struct rescore {
  const char *run, *labels, *out_path; /* borrowed from argv */
  char path[4096];                     /* the file being read, for messages */
  json_t *spec, *resolved;             /* owned: RUN/spec.json, its rules as resolved */
  tk_solo_rules rules;
  uint64_t seed;
  double confidence;
  int nagents;
  const char **label;                  /* owned array of labels borrowed from spec */
  acc *accs;                           /* owned: one per agent */
  long games, errors;                  /* games counted, games that disagree with the engine */
} rescore;

/* Parses the command line into rs: 0, 1 after --help (printed), 2 on a usage error (printed). */
static int rescore_args(rescore *rs, int argc, char **argv) {
  const tk_opt opts[] = {
      {.name = "labels", .kind = TK_OPT_STRING, .dest = &rs->labels, .empty_ok = 1,
       .value = "L,...", .help = "only these agents"},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &rs->out_path, .value = "FILE",
       .help = "write the Markdown table there"},
      {.name = NULL},
  };
  const char *pos[2];
  int npos = 0, prc = tk_opts_parse("rescore", opts, argc, argv, pos, 2, &npos);
  if (prc == 1) usage(stdout);
  if (prc) return prc;
  if (npos > 1) {
    fprintf(stderr, "taikai rescore: one run folder expected, got also '%s'\n", pos[1]);
    return 2;
  }
  if (!npos) {
    usage(stderr);
    return 2;
  }
  rs->run = pos[0];
  return 0;
}

/* Loads RUN/spec.json as `taikai run` resolved it (seed, rules, labels, confidence) and checks
 * --labels against its agents. Returns 0, or 2 with the reason printed. */
static int load_spec(rescore *rs) {
  snprintf(rs->path, sizeof rs->path, "%s/spec.json", rs->run);
  const char *path = rs->path;
  tk_error je;
  tk_error_clear(&je);
  rs->spec = tk_json_load_path(path, 0, &je);
  json_t *spec = rs->spec;
  const char *game = json_string_value(json_object_get(spec, "game"));
  json_t *agents = json_object_get(spec, "agents"), *seedv = json_object_get(spec, "seed");
  json_t *confv = json_object_get(spec, "confidence");
  rs->nagents = (int)json_array_size(agents);
  if (!spec) {
    fprintf(stderr, "taikai rescore: %s (a folder written by `taikai run` is expected)\n",
            je.msg);
    return 2;
  }
  if (!game || strcmp(game, "solo")) {
    fprintf(stderr, "taikai rescore: %s: field 'game': rescoring is for one-player mahjong "
            "runs (solo), got \"%s\"\n", path, game ? game : "?");
    return 2;
  }
  if (!json_is_integer(seedv) || !rs->nagents || !json_is_number(confv)) {
    fprintf(stderr, "taikai rescore: %s: not a spec.json written by `taikai run` (fields seed, "
            "agents, confidence)\n", path);
    return 2;
  }
  rs->seed = (uint64_t)json_integer_value(seedv);
  rs->confidence = json_number_value(confv);
  rs->label = calloc((size_t)rs->nagents, sizeof *rs->label);
  if (!rs->label) return 2;
  for (int a = 0; a < rs->nagents; a++) {
    rs->label[a] = json_string_value(json_object_get(json_array_get(agents, (size_t)a), "label"));
    if (!rs->label[a]) {
      fprintf(stderr, "taikai rescore: %s: field 'agents[%d].label': missing\n", path, a);
      return 2;
    }
  }
  json_t *rj = json_object_get(spec, "rules");
  if (!rj) rj = json_object_get(json_object_set_new(spec, "rules", json_object()) ? NULL : spec, "rules");
  tk_error err = {0};
  if (tk_game_find("solo")->parse_rules(rj, &rs->rules, &rs->resolved, path, &err)) {
    fprintf(stderr, "taikai rescore: %s\n", err.msg);
    return 2;
  }
  for (const char *p = rs->labels; p && *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    int found = 0;
    for (int a = 0; a < rs->nagents; a++)
      if (strlen(rs->label[a]) == len && !strncmp(rs->label[a], p, len)) found = 1;
    if (!found) {
      fprintf(stderr, "taikai rescore: --labels: no agent '%.*s' in %s\n", (int)len, p, path);
      return 2;
    }
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* Rebuilds and scores every game of `in` (RUN/games.jsonl, named by rs->path) into rs->accs,
 * counting rs->games and rs->errors (the first ten printed). Returns 0, or 2 with the reason
 * printed (a malformed line, a read error, out of memory). */
static int read_games(rescore *rs, FILE *in) {
  const char *path = rs->path;
  char line[TK_LINE_MAX + 2];
  long lineno = 0;
  int64_t cached_wall = -1;
  uint8_t wall[TK_SOLO_WALL_TILES];
  while (fgets(line, sizeof line, in)) {
    lineno++;
    size_t len = strlen(line);
    if (len && line[len - 1] != '\n' && len < sizeof line - 1) {
      /* the last line of a run still being written (or cut off): `taikai run --resume`
       * plays that unit again; here it is left out */
      fprintf(stderr, "taikai rescore: %s:%ld: incomplete last line (a run in progress?), left "
              "out\n", path, lineno);
      break;
    }
    json_error_t lje;
    json_t *j = json_loads(line, 0, &lje);
    json_t *seat = j ? json_array_get(json_object_get(j, "seats"), 0) : NULL;
    json_t *ag = json_object_get(seat, "agent"), *w = json_object_get(j, "wall");
    if (!json_is_integer(ag) || !json_is_integer(w) || json_integer_value(ag) < 0 ||
        json_integer_value(ag) >= rs->nagents || json_integer_value(w) < 0) {
      fprintf(stderr, "taikai rescore: %s:%ld: not a solo games.jsonl line of this run%s%s\n",
              path, lineno, j ? "" : ": ", j ? "" : lje.text);
      json_decref(j);
      return 2;
    }
    int a = (int)json_integer_value(ag);
    if (json_is_true(json_object_get(j, "skipped")) || !selected(rs->labels, rs->label[a])) {
      json_decref(j);
      continue;
    }
    if (json_integer_value(w) != cached_wall) {
      cached_wall = json_integer_value(w);
      tk_solo_wall(rs->seed, (uint64_t)cached_wall, wall);
    }
    double win, pts[NCONV];
    char why[512];
    int r = rescore_line(seat, wall, &rs->rules, &win, pts, why, sizeof why);
    json_decref(j);
    if (r == 2) {
      fprintf(stderr, "taikai rescore: %s:%ld: %s\n", path, lineno, why);
      return 2;
    }
    if (r == 1) {
      if (rs->errors++ < 10)
        fprintf(stderr, "taikai rescore: %s:%ld (agent %s, wall %lld): %s\n", path, lineno,
                rs->label[a], (long long)cached_wall, why);
      continue;
    }
    if (acc_push(&rs->accs[a], win, pts)) {
      fprintf(stderr, "taikai rescore: out of memory\n");
      return 2;
    }
    rs->games++;
  }
  if (ferror(in)) {
    fprintf(stderr, "taikai rescore: %s: read error\n", path);
    return 2;
  }
  return 0;
}

/* Writes the Markdown table of the selected agents to out. Returns 0, or 2 when out of memory
 * (printed; the table is then cut short). */
static int write_table(const rescore *rs, FILE *out) {
  fprintf(out, "Rescored wins of %s (%ld games; %.0f %% intervals over walls)\n\n", rs->run,
          rs->games, 100 * rs->confidence);
  fprintf(out, "| agent | games | wins |");
  for (int c = 0; c < NCONV; c++) fprintf(out, " points/win, %s |", conv_title[c]);
  for (int c = 0; c < NCONV; c++) fprintf(out, " points/game, %s |", conv_title[c]);
  fprintf(out, "\n|---|---|---|");
  for (int c = 0; c < 2 * NCONV; c++) fprintf(out, "---|");
  fputc('\n', out);
  for (int a = 0; a < rs->nagents; a++) {
    const acc *x = &rs->accs[a];
    if (!selected(rs->labels, rs->label[a])) continue;
    double wins = 0;
    for (size_t i = 0; i < x->n; i++) wins += x->win[i];
    fprintf(out, "| %s | %zu | %.0f |", rs->label[a], x->n, wins);
    double *ones = malloc((x->n ? x->n : 1) * sizeof *ones);
    if (!ones) {
      fprintf(stderr, "taikai rescore: out of memory\n");
      return 2;
    }
    for (size_t i = 0; i < x->n; i++) ones[i] = 1;
    for (int c = 0; c < NCONV; c++) cell(out, x->pts[c], x->win, x->n, rs->confidence);
    for (int c = 0; c < NCONV; c++) cell(out, x->pts[c], ones, x->n, rs->confidence);
    free(ones);
    fputc('\n', out);
  }
  return 0;
}

int tk_cmd_rescore(int argc, char **argv) {
  rescore rs;
  memset(&rs, 0, sizeof rs);
  int prc = rescore_args(&rs, argc, argv);
  if (prc) return prc == 1 ? 0 : 2;
  /* the lines must be what the run wrote (games.chain); a folder without a chain is noted */
  if (tk_chain_vouch(rs.run, "taikai rescore")) return 2;
  tk_stats_init();
  int rc = 2;
  FILE *in = NULL, *out = NULL;
  if (load_spec(&rs)) goto done;
  rs.accs = calloc((size_t)rs.nagents, sizeof *rs.accs);
  snprintf(rs.path, sizeof rs.path, "%s/games.jsonl", rs.run);
  tk_error ie;
  tk_error_clear(&ie);
  if (!rs.accs || tk_file_fopen(rs.path, "r", TK_FILE_ANY_SIZE, &in, &ie)) {
    fprintf(stderr, "taikai rescore: %s\n", rs.accs ? ie.msg : "out of memory");
    goto done;
  }
  if (read_games(&rs, in)) goto done;
  out = rs.out_path ? fopen(rs.out_path, "w") : stdout;
  if (!out) {
    fprintf(stderr, "taikai rescore: --out %s: %s\n", rs.out_path, strerror(errno));
    goto done;
  }
  if (write_table(&rs, out)) goto done;
  if (rs.errors) {
    fprintf(stderr, "taikai rescore: %ld games disagree with the engine (left out of the table)\n",
            rs.errors);
    rc = 1;
  } else {
    rc = 0;
  }
done:
  if (out && out != stdout && fclose(out) && rc == 0) {
    fprintf(stderr, "taikai rescore: --out %s: %s\n", rs.out_path, strerror(errno));
    rc = 2;
  }
  if (in) fclose(in);
  if (rs.accs)
    for (int a = 0; a < rs.nagents; a++) acc_free(&rs.accs[a]);
  free(rs.accs);
  json_decref(rs.resolved);
  free(rs.label);
  json_decref(rs.spec);
  return rc;
}
