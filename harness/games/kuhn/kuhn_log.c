/* harness/games/kuhn/kuhn_log.c — Kuhn poker logs (log.h): the writer, and the replay that deals the
 * hand again and compares every line with the line the engine would write. Both build each line
 * with the same functions below, so the replay compares JSON values, never spellings. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kuhn_log.h"
#include "logtext.h"

static json_t *start_line(uint64_t seed, uint64_t wall, const char *const *names) {
  json_t *nm = json_array();
  for (int p = 0; p < 2 && nm; p++) {
    char def[16];
    snprintf(def, sizeof def, "player%d", p);
    json_array_append_new(nm, json_string(names && names[p] ? names[p] : def));
  }
  if (!nm) return NULL;
  return json_pack("{s:s, s:s, s:i, s:I, s:I, s:o}", "type", "start_kuhn", "game", "kuhn",
                   "format", TK_KUHN_LOG_FORMAT, "seed", (json_int_t)seed, "wall",
                   (json_int_t)wall, "names", nm);
}

static json_t *deal_line(const tk_kuhn_game *g) {
  return json_pack("{s:s, s:[s, s]}", "type", "deal", "cards", tk_kuhn_card_str(g->card[0]),
                   tk_kuhn_card_str(g->card[1]));
}

static json_t *move_line(int seat, int move) {
  return json_pack("{s:s, s:i, s:s}", "type", "move", "seat", seat, "move",
                   tk_kuhn_move_str(move));
}

static json_t *end_line(const tk_kuhn_game *g) {
  tk_kuhn_result r;
  tk_kuhn_result_of(g, &r);
  return json_pack("{s:s, s:[i, i], s:i, s:b}", "type", "end_hand", "chips", (int)r.chips[0],
                   (int)r.chips[1], "winner", (int)r.winner, "showdown", (int)r.showdown);
}

/* Writes `o` as one line and frees it; NULL (out of memory) or a failed write sets the error. */
static void put(tk_kuhn_log *log, json_t *o) {
  if (!log->f) {
    json_decref(o);
    return;
  }
  char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  if (!s || fprintf(log->f, "%s\n", s) < 0) log->error = 1;
  free(s);
  json_decref(o);
}

void tk_kuhn_log_begin(tk_kuhn_log *log, FILE *f, uint64_t seed, uint64_t wall,
                       const tk_kuhn_game *g, const char *const *names) {
  log->f = f;
  log->error = 0;
  put(log, start_line(seed, wall, names));
  put(log, deal_line(g));
}

void tk_kuhn_log_move(tk_kuhn_log *log, const tk_kuhn_game *g, int seat, int move) {
  put(log, move_line(seat, move));
  if (g->over) put(log, end_line(g));
}

/* ------------------------------------------------------------ replay */

typedef struct replay {
  const char *path;
  int line; /* the file's line number of the line being read */
} replay;

/* Prints a mismatch at the current line: the engine's value `engine` (taken; NULL: none) and the
 * log's `logged` (borrowed; NULL: the log has nothing there, `none` says what). Returns 1. */
static int mismatch_as(const replay *r, const char *event, const char *what, json_t *engine,
                       json_t *logged, const char *none) {
  char *e = engine ? json_dumps(engine, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)
                   : NULL;
  char *l = logged ? json_dumps(logged, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)
                   : NULL;
  tk_replay_mismatch(r->path, r->line, event, what, e, l, none, NULL);
  free(e);
  free(l);
  json_decref(engine);
  return 1;
}

static int mismatch(const replay *r, const char *event, const char *what, json_t *engine,
                    json_t *logged) {
  return mismatch_as(r, event, what, engine, logged, "(end of log)");
}

/* The next non-empty line as JSON: 0 with *out (NULL at the end of the log), 1 after a
 * mismatch message (not JSON). */
static int next(replay *r, FILE *f, char **buf, size_t *cap, json_t **out) {
  *out = NULL;
  for (;;) {
    ssize_t n = getline(buf, cap, f);
    if (n < 0) return 0;
    r->line++;
    char *s = *buf;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = '\0';
    if (!n) continue;
    json_error_t je;
    *out = json_loads(s, 0, &je);
    if (*out) return 0;
    printf("MISMATCH %s:%d: not JSON: %s\n", r->path, r->line, je.text);
    return 1;
  }
}

/* Compares the engine's line `e` (taken) with the logged `l` (borrowed): 0 equal, 1 mismatch. */
static int compare(const replay *r, json_t *e, json_t *l) {
  char type[32];
  snprintf(type, sizeof type, "%s", e ? json_string_value(json_object_get(e, "type")) : "");
  if (!e) {
    printf("taikai replay: %s: out of memory\n", r->path);
    return 1;
  }
  if (json_equal(e, l)) {
    json_decref(e);
    return 0;
  }
  const char *lt = json_string_value(json_object_get(l, "type"));
  if (!lt || strcmp(lt, type)) return mismatch(r, lt ? lt : "", "expected this line", e, l);
  const char *key;
  json_t *v;
  json_object_foreach(e, key, v) {
    if (json_equal(v, json_object_get(l, key))) continue;
    char what[96];
    snprintf(what, sizeof what, "field '%s' differs", key);
    json_t *ev = json_incref(v), *lv = json_object_get(l, key); /* key dies with e */
    json_decref(e);
    return mismatch_as(r, type, what, ev, lv, "(absent)");
  }
  return mismatch(r, type, "a field the engine does not write", e, l);
}

int tk_kuhn_log_replay(FILE *f, const char *path, const char *name, int first_line, int quiet) {
  replay r = {path, first_line - 1};
  char *buf = NULL;
  size_t cap = 0;
  json_t *l = NULL;
  int rc = 1;
  tk_kuhn_game g;
  if (next(&r, f, &buf, &cap, &l)) goto done;
  if (!l) {
    mismatch(&r, "", "an empty log", NULL, NULL);
    goto done;
  }
  json_t *seed = json_object_get(l, "seed"), *wall = json_object_get(l, "wall");
  const char *type = json_string_value(json_object_get(l, "type"));
  if (!type || strcmp(type, "start_kuhn") || !json_is_integer(seed) || !json_is_integer(wall) ||
      json_integer_value(seed) < 0 || json_integer_value(wall) < 0) {
    mismatch(&r, type ? type : "", "expected start_kuhn with integers seed and wall >= 0", NULL,
             l);
    goto done;
  }
  uint64_t s = (uint64_t)json_integer_value(seed), w = (uint64_t)json_integer_value(wall);
  json_t *names = json_object_get(l, "names");
  const char *nm[2] = {json_string_value(json_array_get(names, 0)),
                       json_string_value(json_array_get(names, 1))};
  if (compare(&r, start_line(s, w, nm), l)) goto done;
  uint8_t cards[2];
  tk_kuhn_deal(s, w, cards);
  tk_kuhn_init(&g, cards, NULL);
  json_decref(l);
  if (next(&r, f, &buf, &cap, &l)) goto done;
  if (compare(&r, deal_line(&g), l)) goto done;
  int moves = 0;
  while (!g.over) {
    json_decref(l);
    if (next(&r, f, &buf, &cap, &l)) goto done;
    int seat = tk_kuhn_to_act(&g);
    json_t *ms = json_object_get(l, "seat");
    int m = tk_kuhn_move_parse(json_string_value(json_object_get(l, "move")));
    tk_kuhn_action a = {(uint8_t)(m < 0 ? 0xff : m)};
    char what[TK_ERROR_MSG_MAX + 64];
    tk_error err;
    tk_error_clear(&err);
    if (!l || !json_is_integer(ms) || json_integer_value(ms) != seat || m < 0 ||
        tk_kuhn_apply(&g, seat, &a, &err)) {
      snprintf(what, sizeof what, "expected a legal move of seat %d%s%s", seat,
               err.msg[0] ? ": " : "", err.msg);
      mismatch(&r, "move", what, NULL, l);
      goto done;
    }
    if (compare(&r, move_line(seat, m), l)) goto done;
    moves++;
  }
  json_decref(l);
  if (next(&r, f, &buf, &cap, &l)) goto done;
  if (!l) {
    mismatch(&r, "end_hand", "the log ends before the hand's end", end_line(&g), NULL);
    goto done;
  }
  if (compare(&r, end_line(&g), l)) goto done;
  json_decref(l);
  if (next(&r, f, &buf, &cap, &l)) goto done;
  if (l) {
    mismatch(&r, "", "a line after the hand's end", NULL, l);
    goto done;
  }
  rc = 0;
  if (!quiet) {
    char hist[32] = "";
    for (int i = 0; i < g.nhist; i++)
      snprintf(hist + strlen(hist), sizeof hist - strlen(hist), "%s%s", i ? " " : "",
               tk_kuhn_move_str(g.hist[i]));
    printf("OK %s: kuhn wall %llu, %s-%s, %s, %d moves checked, chips %+d %+d\n", name,
           (unsigned long long)w, tk_kuhn_card_str(g.card[0]), tk_kuhn_card_str(g.card[1]),
           hist, moves, (int)g.chips[0], (int)g.chips[1]);
  }
done:
  json_decref(l);
  free(buf);
  return rc;
}
