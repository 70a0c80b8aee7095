/* harness/games/riichi/riichi_log.c — mjai-style riichi logs (harness/games/riichi/riichi_log.h): the writer, and the
 * reader that rebuilds each hand's wall from the log and replays the players' decisions
 * through the engine, checking every event the engine emits against the log's line. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <zlib.h>

#include "riichi_log.h"
#include "logtext.h"

/* ------------------------------------------------------------ writer */

json_t *tk_riichi_log_start_game(const char *const names[4], const tk_riichi_rules *r) {
  json_t *nm = json_array();
  for (int s = 0; s < 4; s++) {
    char def[16];
    snprintf(def, sizeof def, "player%d", s);
    json_array_append_new(nm, json_string(names && names[s] ? names[s] : def));
  }
  /* kyoku_first and aka_flag: the length and red fives as mjai-family tools read them
   * (kyoku_first 0 = hanchan, 4 = east-only: the index of the first hand of an 8-hand game) */
  return json_pack("{s:s, s:o, s:i, s:b, s:{s:i, s:b, s:b, s:b, s:b, s:i, s:i, s:[i,i,i,i]}}",
                   "type", "start_game", "names", nm, "kyoku_first", r->length == 2 ? 0 : 4,
                   "aka_flag", r->red_fives, "taikai_rules", "length", r->length, "red_fives",
                   r->red_fives, "kyuushu", r->kyuushu, "agariyame", r->agariyame, "extension",
                   r->extension, "start_points", (int)r->start_points, "return_points",
                   (int)r->return_points, "uma", (int)r->uma[0], (int)r->uma[1], (int)r->uma[2],
                   (int)r->uma[3]);
}

/* One line (s, n bytes, without its newline) to the log's file or gzip stream. */
static void put_line(tk_riichi_log *log, const char *s, size_t n) {
  if (log->gz) {
    if (gzwrite(log->gz, s, (unsigned)n) != (int)n || gzputc(log->gz, '\n') != '\n') log->error = 1;
  } else if (fwrite(s, 1, n, log->f) != n || fputc('\n', log->f) == EOF) {
    log->error = 1;
  }
}

static void write_event(void *ctx, const tk_riichi_event *ev) {
  tk_riichi_log *log = ctx;
  char buf[4096];
  if (ev->type == TK_RIICHI_EV_START_GAME) {
    json_t *o = tk_riichi_log_start_game(log->names, &log->rules);
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (s) put_line(log, s, strlen(s));
    else log->error = 1;
    free(s);
    json_decref(o);
    return;
  }
  int n = tk_riichi_event_json(ev, log->names, buf, sizeof buf);
  if (n <= 0 || (size_t)n >= sizeof buf) log->error = 1;
  else put_line(log, buf, (size_t)n);
}

int tk_riichi_log_open(tk_riichi_log *log, const char *path, const char *const names[4],
                       const tk_riichi_rules *rules, tk_riichi_sink *sink, tk_error *err) {
  size_t n = strlen(path);
  int gz = n > 3 && !strcmp(path + n - 3, ".gz");
  FILE *f = NULL;
  gzFile z = NULL;
  if (gz) z = gzopen(path, "wb6");
  else f = fopen(path, "w");
  if (!f && !z) return tk_error_set(err, TK_EIO, -1, "%s: cannot create: %s", path, strerror(errno ? errno : EIO));
  *sink = tk_riichi_log_sink(log, f, names, rules);
  log->gz = z;
  return 0;
}

int tk_riichi_log_close(tk_riichi_log *log, tk_error *err) {
  int bad = log->error;
  if (log->gz) bad |= gzclose(log->gz) != Z_OK;
  else if (log->f) bad |= fclose(log->f) != 0;
  log->gz = NULL;
  log->f = NULL;
  return bad ? tk_error_set(err, TK_EIO, -1, "cannot write the log") : 0;
}

tk_riichi_sink tk_riichi_log_sink(tk_riichi_log *log, FILE *f, const char *const names[4],
                                  const tk_riichi_rules *rules) {
  memset(log, 0, sizeof *log);
  log->f = f;
  for (int s = 0; s < 4; s++) log->names[s] = names ? names[s] : NULL;
  log->rules = rules ? *rules : tk_riichi_default_rules();
  tk_riichi_sink sink = {write_event, log};
  return sink;
}

/* ------------------------------------------------------------ reader */

typedef struct replay {
  json_t **line;   /* parsed lines (blank lines left out) */
  int *lineno;     /* each one's line number in the file (1-based) */
  int n, cur;      /* lines, next line to match */
  int checked;
  int own;         /* written by taikai (start_game has taikai_rules): compare the yaku too */
  uint8_t *matched;/* lines already matched out of order (dora lines found ahead) */
  int early[8], nearly; /* dora lines passed before the engine turned their indicator */
  tk_error *err;
  tk_riichi_replay *out;
  int failed;
  const tk_riichi_replay_hooks *hooks; /* may be NULL */
} replay;

static const char *type_of(json_t *o) { return json_string_value(json_object_get(o, "type")); }
static int is(json_t *o, const char *type) {
  const char *t = type_of(o);
  return t && !strcmp(t, type);
}
static int int_of(json_t *o, const char *key, int def) {
  json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (int)json_integer_value(v) : def;
}
static int tile_of(json_t *v) {
  const char *s = json_string_value(v);
  return s ? tk_tile_from_mjai(s, NULL) : -1;
}

/* Do the arrays a and b hold the same elements in any order (yaku lists: [name, han] pairs)? */
static int same_set(json_t *a, json_t *b) {
  if (!json_is_array(a) || !json_is_array(b) || json_array_size(a) != json_array_size(b)) return 0;
  size_t n = json_array_size(a);
  for (size_t i = 0; i < n; i++) {
    size_t j = 0;
    while (j < n && !json_equal(json_array_get(a, i), json_array_get(b, j))) j++;
    if (j == n) return 0;
  }
  return 1;
}

static int cmp_u8(const void *a, const void *b) { return *(const uint8_t *)a - *(const uint8_t *)b; }

/* Do the tile arrays a and b hold the same tiles (any order)? */
static int same_tiles(json_t *a, json_t *b) {
  if (!json_is_array(a) || !json_is_array(b) || json_array_size(a) != json_array_size(b)) return 0;
  size_t n = json_array_size(a);
  if (n > 16) return json_equal(a, b);
  uint8_t x[16], y[16];
  for (size_t i = 0; i < n; i++) {
    int p = tile_of(json_array_get(a, i)), q = tile_of(json_array_get(b, i));
    if (p < 0 || q < 0) return json_equal(a, b);
    x[i] = (uint8_t)p;
    y[i] = (uint8_t)q;
  }
  qsort(x, n, 1, cmp_u8);
  qsort(y, n, 1, cmp_u8);
  return !memcmp(x, y, n);
}

/* Field names that differ between mjai dialects (the original protocol's first). */
static const char *const synonyms[][2] = {{"uradora_markers", "ura_markers"}, {"fan", "han"}, {NULL, NULL}};

/* o's field `key`, or the same field under its other dialect's name. */
static json_t *get_syn(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  for (int k = 0; !v && synonyms[k][0]; k++)
    for (int x = 0; x < 2; x++)
      if (!strcmp(key, synonyms[k][x])) v = json_object_get(o, synonyms[k][!x]);
  return v;
}

/* Records the first mismatch: at the log's current line, `what` happened; `field` (may be NULL)
 * is the first differing field of the engine's event `engine` (may be NULL). */
static int mismatch(replay *r, const char *what, const char *field, json_t *engine) {
  if (r->failed) return TK_EINVAL;
  r->failed = 1;
  tk_riichi_replay *o = r->out;
  json_t *l = r->cur < r->n ? r->line[r->cur] : NULL;
  const char *ev = l ? type_of(l) : engine ? type_of(engine) : NULL;
  o->bad_line = r->cur < r->n ? r->lineno[r->cur] : r->n ? r->lineno[r->n - 1] : 0;
  snprintf(o->bad_event, sizeof o->bad_event, "%s", ev ? ev : "");
  snprintf(o->bad_what, sizeof o->bad_what, "%s", what);
  snprintf(o->bad_field, sizeof o->bad_field, "%s", field ? field : "");
  tk_json_cut(field && engine ? get_syn(engine, field) : engine, o->expected,
              sizeof o->expected);
  tk_json_cut(field && l ? get_syn(l, field) : l, o->logged, sizeof o->logged);
  char *a = engine ? json_dumps(engine, JSON_COMPACT) : NULL;
  char *b = l ? json_dumps(l, JSON_COMPACT) : NULL;
  tk_error_set(r->err, TK_EINVAL, o->bad_line, "log line %d (%s): %s; engine: %.400s; log: %.400s",
               o->bad_line, ev ? ev : "?", what, a ? a : "-", b ? b : "(end of log)");
  free(a);
  free(b);
  return TK_EINVAL;
}

/* The engine emitted `ev`: it must match the next line of the log. */
/* Dora lines may stand elsewhere than where the engine turns the indicator (Tenhou and some
 * mjai writers put an open kan's indicator before the discard, taikai after it): lines already
 * matched ahead are skipped, and unless the engine's next event is a dora, dora lines are set
 * aside for the engine's next dora events. */
static void skip_doras(replay *r, int engine_dora) {
  while (r->cur < r->n) {
    if (r->matched[r->cur]) {
      r->cur++;
      continue;
    }
    if (!engine_dora && is(r->line[r->cur], "dora") && r->nearly < 8) {
      r->early[r->nearly++] = r->cur++;
      continue;
    }
    break;
  }
}

/* The engine turned the indicator of `e` (a dora event): match it with a dora line set aside,
 * the current line, or the next dora line of the hand. Returns 1 when matched here. */
static int match_dora(replay *r, json_t *e) {
  json_t *m = json_object_get(e, "dora_marker");
  if (r->nearly) {
    int at = r->early[0];
    memmove(r->early, r->early + 1, sizeof r->early[0] * (size_t)--r->nearly);
    if (!json_equal(m, json_object_get(r->line[at], "dora_marker"))) {
      int cur = r->cur;
      r->cur = at;
      mismatch(r, "differs in dora_marker", "dora_marker", e);
      r->cur = cur;
    } else {
      r->checked++;
    }
    return 1;
  }
  if (r->cur < r->n && is(r->line[r->cur], "dora")) return 0;
  for (int j = r->cur + 1; j < r->n; j++) {
    json_t *l = r->line[j];
    if (is(l, "start_kyoku") || is(l, "end_kyoku") || is(l, "hora") || is(l, "ryukyoku")) break;
    if (!r->matched[j] && is(l, "dora")) {
      if (!json_equal(m, json_object_get(l, "dora_marker"))) break;
      r->matched[j] = 1;
      r->checked++;
      return 1;
    }
  }
  return 0;
}

static void on_engine_event(void *ctx, const tk_riichi_event *ev) {
  replay *r = ctx;
  if (r->failed) return;
  char buf[4096];
  tk_riichi_event_json(ev, NULL, buf, sizeof buf);
  json_t *e = json_loads(buf, 0, NULL);
  if (!e) {
    mismatch(r, "the engine's event is not JSON", NULL, NULL);
    return;
  }
  int engine_dora = ev->type == TK_RIICHI_EV_DORA;
  skip_doras(r, engine_dora);
  if (engine_dora && match_dora(r, e)) {
    json_decref(e);
    return;
  }
  if (!engine_dora && r->nearly &&
      (ev->type == TK_RIICHI_EV_START_KYOKU || ev->type == TK_RIICHI_EV_END_KYOKU)) {
    r->cur = r->early[0];
    mismatch(r, "the log turns a dora indicator the engine does not", NULL, e);
    json_decref(e);
    return;
  }
  if (r->cur >= r->n) {
    mismatch(r, "the engine goes on after the log ends", NULL, e);
    json_decref(e);
    return;
  }
  json_t *l = r->line[r->cur];
  /* compared when both sides have them; tile lists as multisets */
  static const char *const keys[] = {"type", "actor", "target", "pai", "tsumogiri", "deltas",
                                     "scores", "reason", "dora_marker", "bakaze", "kyoku",
                                     "honba", "kyotaku", "oya", "uradora_markers", "fu", "fan",
                                     "yakuman", "limit", "hora_points", "pao", "tenpais",
                                     "yakus", NULL};
  static const char *const tile_keys[] = {"consumed", "hora_tehais", NULL};

  const char *field = NULL;
  if (!json_object_get(l, "type")) field = "type";
  for (int i = 0; keys[i] && !field; i++) {
    if (!strcmp(keys[i], "yakus") && !r->own) continue; /* names differ between mjai dialects */
    json_t *a = get_syn(e, keys[i]), *b = get_syn(l, keys[i]);
    if (a && b && !json_equal(a, b) && !(json_is_array(a) && same_tiles(a, b)) &&
        !(!strcmp(keys[i], "yakus") && same_set(a, b)))
      field = keys[i];
  }
  for (int i = 0; tile_keys[i] && !field; i++) {
    json_t *a = json_object_get(e, tile_keys[i]), *b = json_object_get(l, tile_keys[i]);
    if (a && b && !same_tiles(a, b)) field = tile_keys[i];
  }
  if (!field && is(e, "start_kyoku")) {
    json_t *ta = json_object_get(e, "tehais"), *tb = json_object_get(l, "tehais");
    for (int s = 0; s < 4 && !field; s++)
      if (!same_tiles(json_array_get(ta, s), json_array_get(tb, s))) field = "tehais";
  }
  if (field) {
    char what[96];
    snprintf(what, sizeof what, "differs in %s", field);
    mismatch(r, what, field, e);
  } else {
    r->cur++;
    r->checked++;
  }
  json_decref(e);
}

/* Rebuilds the wall of the hand whose start_kyoku is line `at`. */
static int rebuild_wall(replay *r, int at, const tk_riichi_rules *rules, uint8_t wall[TK_RIICHI_TILES]) {
  memset(wall, TK_TILE_NONE, TK_RIICHI_TILES);
  json_t *sk = r->line[at];
  int dealer = int_of(sk, "oya", -1);
  json_t *tehais = json_object_get(sk, "tehais");
  if (dealer < 0 || dealer > 3 || json_array_size(tehais) != 4) return -1;
  for (int s = 0; s < 4; s++) {
    json_t *h = json_array_get(tehais, s);
    if (json_array_size(h) != 13) return -1;
    for (int j = 0; j < 13; j++) {
      int t = tile_of(json_array_get(h, j));
      if (t < 0) return -1;
      wall[13 * ((s - dealer + 4) % 4) + j] = (uint8_t)t;
    }
  }
  int nlive = 0, nrin = 0, ndora = 0, nura = 0, kan_pending = 0;
  int t = tile_of(json_object_get(sk, "dora_marker"));
  if (t < 0) return -1;
  wall[TK_RIICHI_DORA_POS + ndora++] = (uint8_t)t;
  for (int i = at + 1; i < r->n && !is(r->line[i], "end_kyoku") && !is(r->line[i], "start_kyoku"); i++) {
    json_t *l = r->line[i];
    if (is(l, "ankan") || is(l, "daiminkan") || is(l, "kakan")) kan_pending = 1;
    else if (is(l, "tsumo")) {
      int x = tile_of(json_object_get(l, "pai"));
      if (x < 0) return -1;
      if (kan_pending) {
        if (nrin >= 4) return -1;
        wall[TK_RIICHI_RINSHAN_POS + nrin++] = (uint8_t)x;
        kan_pending = 0;
      } else {
        if (nlive >= TK_RIICHI_LIVE) return -1;
        wall[TK_RIICHI_FIRST_DRAW + nlive++] = (uint8_t)x;
      }
    } else if (is(l, "dora")) {
      int x = tile_of(json_object_get(l, "dora_marker"));
      if (x < 0 || ndora >= 5) return -1;
      wall[TK_RIICHI_DORA_POS + ndora++] = (uint8_t)x;
    } else if (is(l, "hora")) {
      json_t *u = json_object_get(l, "uradora_markers");
      if (!u) u = json_object_get(l, "ura_markers");
      for (int j = nura; j < (int)json_array_size(u) && j < 5; j++) {
        int x = tile_of(json_array_get(u, j));
        if (x < 0) return -1;
        wall[TK_RIICHI_URA_POS + nura++] = (uint8_t)x;
      }
    }
  }
  /* the tiles the log never shows */
  int cnt[TK_KINDS], red[3];
  for (int k = 0; k < TK_KINDS; k++) cnt[k] = 4;
  for (int s = 0; s < 3; s++) red[s] = rules->red_fives ? 1 : 0;
  for (int i = 0; i < TK_RIICHI_TILES; i++) {
    if (wall[i] == TK_TILE_NONE) continue;
    int k = tk_tile_kind(wall[i]);
    if (--cnt[k] < 0) return -1;
    if (tk_tile_is_red(wall[i]) && --red[k / 9] < 0) return -1;
  }
  int pos = 0;
  for (int k = 0; k < TK_KINDS; k++)
    while (cnt[k] > 0) {
      while (pos < TK_RIICHI_TILES && wall[pos] != TK_TILE_NONE) pos++;
      if (pos >= TK_RIICHI_TILES) return -1;
      int rd = (k == TK_5M || k == TK_5P || k == TK_5S) && red[k / 9] > 0;
      if (rd) red[k / 9]--;
      wall[pos] = (uint8_t)(k | (rd ? TK_TILE_RED : 0));
      cnt[k]--;
    }
  return tk_riichi_wall_check(wall, NULL) ? -1 : 0;
}

/* The decision of `seat` that the log's next lines record. */
static int decide(replay *r, const tk_riichi_game *g, int seat, tk_riichi_action *a) {
  memset(a, 0, sizeof *a);
  a->consumed[0] = a->consumed[1] = TK_TILE_NONE;
  skip_doras(r, 0);
  if (r->cur >= r->n) return mismatch(r, "the log ends during a hand", NULL, NULL);
  json_t *l = r->line[r->cur];
  int actor = int_of(l, "actor", -1);
  if (g->phase == TK_RIICHI_PHASE_SELF) {
    json_t *d = l;
    a->type = TK_RIICHI_DISCARD;
    if (is(l, "reach") && actor == seat && r->cur + 1 < r->n) {
      a->type = TK_RIICHI_RIICHI;
      d = r->line[r->cur + 1];
    }
    if ((is(d, "dahai") && int_of(d, "actor", -1) == seat)) {
      int t = tile_of(json_object_get(d, "pai"));
      if (t < 0) return mismatch(r, "bad tile", NULL, NULL);
      a->tile = (uint8_t)t;
      json_t *tg = json_object_get(d, "tsumogiri");
      /* without the field (older mjai writers): the drawn tile itself when it is that tile */
      a->tsumogiri = tg ? json_is_true(tg) : g->drawn != TK_TILE_NONE && t == g->drawn;
      return 0;
    }
    if (is(l, "ankan") && actor == seat) {
      a->type = TK_RIICHI_ANKAN;
      int t = tile_of(json_array_get(json_object_get(l, "consumed"), 0));
      a->tile = (uint8_t)(t < 0 ? TK_TILE_NONE : tk_tile_kind((tk_tile)t));
      return 0;
    }
    if (is(l, "kakan") && actor == seat) {
      a->type = TK_RIICHI_KAKAN;
      int t = tile_of(json_object_get(l, "pai"));
      a->tile = (uint8_t)(t < 0 ? TK_TILE_NONE : t);
      return 0;
    }
    if (is(l, "hora") && actor == seat && int_of(l, "target", -1) == seat) {
      a->type = TK_RIICHI_TSUMO;
      a->tile = g->drawn;
      return 0;
    }
    const char *reason = json_string_value(json_object_get(l, "reason"));
    if (is(l, "ryukyoku") && reason && !strcmp(reason, "kyushukyuhai")) {
      a->type = TK_RIICHI_KYUUSHU;
      a->tile = g->drawn;
      return 0;
    }
    char what[96];
    snprintf(what, sizeof what, "not an action of seat %d, the seat to move", seat);
    return mismatch(r, what, NULL, NULL);
  }
  /* a reaction; the riichi stick of the discard is accepted (logged) before a call */
  a->type = TK_RIICHI_PASS;
  a->tile = g->react_tile;
  int at = r->cur;
  if (is(l, "reach_accepted") && at + 1 < r->n) {
    l = r->line[++at];
    actor = int_of(l, "actor", -1);
  }
  const char *reason = json_string_value(json_object_get(l, "reason"));
  if (is(l, "ryukyoku") && reason && !strcmp(reason, "sanchahou")) {
    a->type = TK_RIICHI_RON;
  } else if (is(l, "hora")) {
    for (int i = at; i < r->n && is(r->line[i], "hora"); i++)
      if (int_of(r->line[i], "actor", -1) == seat) a->type = TK_RIICHI_RON;
  } else if (actor == seat && (is(l, "pon") || is(l, "chi") || is(l, "daiminkan"))) {
    a->type = is(l, "pon") ? TK_RIICHI_PON : is(l, "chi") ? TK_RIICHI_CHI : TK_RIICHI_MINKAN;
    if (a->type != TK_RIICHI_MINKAN) {
      json_t *c = json_object_get(l, "consumed");
      int c0 = tile_of(json_array_get(c, 0)), c1 = tile_of(json_array_get(c, 1));
      if (c0 < 0 || c1 < 0) return mismatch(r, "bad consumed tiles", NULL, NULL);
      a->consumed[0] = (uint8_t)c0;
      a->consumed[1] = (uint8_t)c1;
    }
  }
  return 0;
}

/* The rules start_game declares: taikai's own "taikai_rules", else the mjai-family
 * "kyoku_first" (0: hanchan, 4: east-only) and "aka_flag" over Tenhou's defaults. Returns 1
 * when the length is declared, 0 when it is not (east-only assumed, red fives on: the tile
 * names carry the red ones). */
static int rules_of(json_t *sg, tk_riichi_rules *out) {
  *out = tk_riichi_default_rules();
  json_t *o = json_object_get(sg, "taikai_rules");
  if (!o) {
    json_t *kf = json_object_get(sg, "kyoku_first"), *aka = json_object_get(sg, "aka_flag");
    if (aka) out->red_fives = json_is_true(aka);
    if (json_is_integer(kf) && (json_integer_value(kf) == 0 || json_integer_value(kf) == 4)) {
      out->length = json_integer_value(kf) == 0 ? 2 : 1;
      return 1;
    }
    return 0;
  }
  out->length = (uint8_t)int_of(o, "length", out->length);
  json_t *b;
  if ((b = json_object_get(o, "red_fives"))) out->red_fives = json_is_true(b);
  if ((b = json_object_get(o, "kyuushu"))) out->kyuushu = json_is_true(b);
  if ((b = json_object_get(o, "agariyame"))) out->agariyame = json_is_true(b);
  if ((b = json_object_get(o, "extension"))) out->extension = json_is_true(b);
  out->start_points = int_of(o, "start_points", out->start_points);
  out->return_points = int_of(o, "return_points", out->return_points);
  json_t *uma = json_object_get(o, "uma");
  for (int i = 0; i < 4 && json_array_size(uma) == 4; i++)
    out->uma[i] = (int32_t)json_integer_value(json_array_get(uma, i));
  return 1;
}

/* Records a failure that is not a comparison (a line that is not JSON, a log that is not a
 * game) at file line `lineno`. */
static int fail_at(tk_riichi_replay *out, tk_error *err, int code, int lineno, const char *event,
                   const char *what) {
  out->bad_line = lineno;
  snprintf(out->bad_event, sizeof out->bad_event, "%s", event ? event : "");
  snprintf(out->bad_what, sizeof out->bad_what, "%.300s", what);
  return tk_error_set(err, code, lineno, "log line %d: %s", lineno, what);
}

/* One replay of the parsed lines under `rules`; resets the comparison state first. */
static int run(replay *rp, const tk_riichi_rules *rules_in, tk_riichi_replay *out, tk_error *err) {
  replay *r = rp;
  r->cur = 1;
  r->checked = 0;
  r->failed = 0;
  r->nearly = 0;
  memset(r->matched, 0, (size_t)r->n);
  tk_riichi_rules rules = *rules_in;
  tk_riichi_game g;
  tk_riichi_sink sink = {on_engine_event, r};
  int rc = 0;
  out->kyoku = 0;
  if (r->hooks && r->hooks->begin) r->hooks->begin(r->hooks->ctx);
  out->bad_line = 0;
  out->bad_event[0] = out->bad_what[0] = out->bad_field[0] = out->expected[0] = out->logged[0] = '\0';
  tk_error e2;
  tk_error_clear(&e2);
  if (tk_riichi_init(&g, &rules, 0, 0, NULL, &e2))
    return fail_at(out, err, TK_EINVAL, r->lineno[0], "start_game", e2.msg);
  while (!rc && !r->failed && r->cur < r->n) {
    skip_doras(r, 1);
    if (r->cur >= r->n) break;
    if (!is(r->line[r->cur], "start_kyoku") || g.phase != TK_RIICHI_PHASE_DEAL) {
      rc = mismatch(r, g.phase == TK_RIICHI_PHASE_OVER ? "a line after the end of the game"
                                                       : "expected start_kyoku",
                    NULL, NULL);
      break;
    }
    uint8_t wall[TK_RIICHI_TILES];
    if (rebuild_wall(r, r->cur, &rules, wall)) {
      rc = mismatch(r, "cannot rebuild this hand's wall from its lines (a tile too many, or a "
                    "bad tile name)", NULL, NULL);
      break;
    }
    tk_error_clear(&e2);
    if (tk_riichi_deal(&g, wall, &sink, &e2)) {
      rc = mismatch(r, e2.msg, NULL, NULL);
      break;
    }
    out->kyoku++;
    while (!r->failed && (g.phase == TK_RIICHI_PHASE_SELF || g.phase == TK_RIICHI_PHASE_REACT)) {
      int s = tk_riichi_to_act(&g);
      tk_riichi_action a;
      if (decide(r, &g, s, &a)) break;
      int line = a.type == TK_RIICHI_PASS || r->cur >= r->n ? 0 : r->lineno[r->cur];
      tk_riichi_game before;
      if (r->hooks && r->hooks->decision) before = g;
      tk_error_clear(&e2);
      if (tk_riichi_apply(&g, s, &a, &sink, &e2)) {
        char what[320];
        snprintf(what, sizeof what, "the logged action of seat %d is not legal: %.250s", s, e2.msg);
        mismatch(r, what, NULL, NULL);
        break;
      }
      if (r->hooks && r->hooks->decision) r->hooks->decision(r->hooks->ctx, &before, s, &a, line);
    }
  }
  if (!rc && r->failed) rc = TK_EINVAL;
  if (!rc && g.phase != TK_RIICHI_PHASE_OVER)
    rc = fail_at(out, err, TK_EINVAL, r->lineno[r->n - 1], type_of(r->line[r->n - 1]),
                 "the log ends before the game does");
  if (!rc) memcpy(out->scores, g.scores, sizeof out->scores);
  out->events_checked = r->checked;
  return rc;
}

int tk_riichi_log_replay_game(const char *path, const char *text, size_t len, long first_line,
                              const tk_riichi_replay_hooks *hooks, tk_riichi_replay *out,
                              tk_error *err) {
  FILE *f = len ? fmemopen((void *)text, len, "r") : tmpfile(); /* empty: no line */
  tk_riichi_replay *r = out ? out : malloc(sizeof *r);
  if (!f || !r) {
    if (f) fclose(f);
    if (!out) free(r);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_riichi_log_replay_hooked(f, hooks, r, &e);
  fclose(f);
  if (rc == TK_ENOMEM) rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  else if (rc) {
    long line = r->bad_line ? r->bad_line + first_line - 1 : first_line;
    rc = tk_error_set(err, rc, -1, "%s:%ld: %s%s%s; the engine cannot replay this game", path,
                      line, r->bad_event, r->bad_event[0] ? ": " : "",
                      r->bad_what[0] ? r->bad_what : e.msg);
  }
  if (!out) free(r);
  return rc;
}

const char *tk_riichi_log_skip_note(int skipped) {
  return skipped ? ", skipped (--skip-bad-games)" : " (--skip-bad-games skips such games)";
}

int tk_riichi_log_replay(FILE *f, tk_riichi_replay *out, tk_error *err) {
  return tk_riichi_log_replay_hooked(f, NULL, out, err);
}

int tk_riichi_log_replay_hooked(FILE *f, const tk_riichi_replay_hooks *hooks,
                                tk_riichi_replay *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  replay r;
  memset(&r, 0, sizeof r);
  r.hooks = hooks;
  r.err = err;
  r.out = out;
  int cap = 0, rc = 0, physical = 0;
  char *buf = NULL;
  size_t bcap = 0;
  ssize_t len;
  while ((len = getline(&buf, &bcap, f)) > 0) {
    physical++;
    if (strspn(buf, " \t\r\n") == (size_t)len) continue;
    json_error_t je;
    json_t *o = json_loads(buf, 0, &je);
    if (!o) {
      char what[200];
      snprintf(what, sizeof what, "not JSON: %s", je.text);
      rc = fail_at(out, err, TK_EPARSE, physical, NULL, what);
      break;
    }
    if (r.n == cap) {
      cap = cap ? 2 * cap : 1024;
      json_t **nl = realloc(r.line, sizeof *nl * (size_t)cap);
      if (nl) r.line = nl;
      int *nn = nl ? realloc(r.lineno, sizeof *nn * (size_t)cap) : NULL;
      if (nn) r.lineno = nn;
      if (!nl || !nn) {
        json_decref(o);
        rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
        break;
      }
    }
    r.lineno[r.n] = physical;
    r.line[r.n++] = o;
  }
  free(buf);
  if (!rc && ferror(f)) rc = tk_error_set(err, TK_EIO, -1, "read error");
  out->lines = physical;
  if (!rc && (r.n < 2 || !is(r.line[0], "start_game")))
    rc = fail_at(out, err, TK_EINVAL, r.n ? r.lineno[0] : 1, r.n ? type_of(r.line[0]) : NULL,
                 r.n ? "not a start_game (a riichi log starts with start_game)"
                     : "empty: not a riichi log");
  if (!rc && !(r.matched = calloc((size_t)r.n, 1))) rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  if (!rc) {
    tk_riichi_rules rules;
    r.own = json_object_get(r.line[0], "taikai_rules") != NULL;
    int declared = rules_of(r.line[0], &rules);
    out->rules_declared = declared;
    rules.length = declared ? rules.length : 1;
    rc = run(&r, &rules, out, err);
    if (rc == TK_EINVAL && !declared) {
      /* the length is not declared: east-only failed, try hanchan */
      tk_riichi_replay *first = malloc(sizeof *first);
      tk_error e1 = err ? *err : (tk_error){0};
      if (first) *first = *out;
      rules.length = 2;
      if (err) tk_error_clear(err);
      int rc2 = run(&r, &rules, out, err);
      if (!rc2) {
        rc = 0;
        snprintf(out->rules_note, sizeof out->rules_note,
                 "game length not declared: hanchan inferred (as an east-only game it parts "
                 "from the log at line %d)", first ? first->bad_line : 0);
      } else if (first && first->bad_line >= out->bad_line) {
        *out = *first; /* report the reading that went further */
        if (err) *err = e1;
      }
      if (rc) snprintf(out->rules_note, sizeof out->rules_note,
                       "game length not declared: neither east-only nor hanchan replays");
      free(first);
    } else if (!declared) {
      snprintf(out->rules_note, sizeof out->rules_note,
               "game length not declared: east-only inferred (the game replays as one)");
    }
    out->lines = physical;
  }
  for (int i = 0; i < r.n; i++) json_decref(r.line[i]);
  free(r.matched);
  free(r.line);
  free(r.lineno);
  return rc;
}

/* ------------------------------------------------------------ the games of log files */

typedef struct log_buf {
  char *p;
  size_t n, cap;
} log_buf;

static int log_reserve(log_buf *b, size_t need) {
  if (need <= b->cap) return 0;
  size_t c = b->cap ? b->cap : 1 << 16;
  while (c < need) c *= 2;
  char *q = realloc(b->p, c);
  if (!q) return -1;
  b->p = q;
  b->cap = c;
  return 0;
}

/* Appends the next line of `gz` (with its newline) to `b`, NUL-terminated; returns its length,
 * 0 at the end, -1 when out of memory (errno ENOMEM) or on a read error. */
static long log_next_line(void *gz, log_buf *b) {
  size_t start = b->n;
  for (;;) {
    if (log_reserve(b, b->n + 4096)) {
      errno = ENOMEM;
      return -1;
    }
    if (!gzgets(gz, b->p + b->n, (int)(b->cap - b->n))) break;
    size_t got = strlen(b->p + b->n);
    b->n += got;
    if (got && b->p[b->n - 1] == '\n') break;
  }
  int errnum = 0;
  gzerror(gz, &errnum);
  if (errnum != Z_OK && errnum != Z_STREAM_END) {
    errno = 0;
    return -1;
  }
  return (long)(b->n - start);
}

/* Whether the line line[0 .. len) starts a game: it holds "start_game" and "type" (as
 * tk_log_games splits files for `taikai replay`). */
static int log_is_start(char *line, size_t len) {
  char save = line[len];
  line[len] = '\0';
  int yes = strstr(line, "\"start_game\"") && strstr(line, "\"type\"");
  line[len] = save;
  return yes;
}

/* The games of one log file, a line at a time, as tk_riichi_log_games. */
static int log_file_games(const char *path, tk_riichi_log_game_fn game, void *ctx,
                          tk_error *err) {
  gzFile gz = gzopen(path, "rb");
  if (!gz)
    return tk_error_set(err, errno == ENOENT ? TK_ENOTFOUND : TK_EIO, -1, "%s: cannot open: %s",
                        path, errno ? strerror(errno) : "out of memory");
  gzbuffer(gz, 1 << 17);
  log_buf b = {NULL, 0, 0};
  int rc = 0;
  long line = 0, first = 1;
  for (;;) {
    size_t before = b.n;
    long len = log_next_line(gz, &b);
    if (len < 0) {
      int errnum = Z_OK;
      const char *msg = errno == ENOMEM ? "out of memory" : gzerror(gz, &errnum);
      rc = tk_error_set(err, errno == ENOMEM ? TK_ENOMEM : TK_EIO, -1,
                        "%s: line %ld: cannot read: %s", path, line + 1, msg);
      break;
    }
    if (len == 0) break;
    line++;
    if (before > 0 && log_is_start(b.p + before, (size_t)len)) {
      char save = b.p[before];
      b.p[before] = '\0';
      rc = game(ctx, path, b.p, before, first);
      b.p[before] = save;
      if (rc) break;
      memmove(b.p, b.p + before, (size_t)len + 1);
      b.n = (size_t)len;
      first = line;
    }
  }
  if (!rc) { /* the last game: the text left, empty for an empty file */
    if (log_reserve(&b, b.n + 1))
      rc = tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
    else {
      b.p[b.n] = '\0';
      rc = game(ctx, path, b.p, b.n, first);
    }
  }
  free(b.p);
  gzclose(gz);
  return rc;
}

static int log_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

static int log_by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The log files of the folder `dir` (*.jsonl, *.jsonl.gz, not hidden) into *names (malloc'd
 * paths, *n of them, in name order). Returns 0, TK_EIO or TK_ENOMEM. */
static int log_dir_names(const char *dir, char ***names, size_t *n, tk_error *err) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return tk_error_set(err, TK_EIO, -1, "%s: cannot open the folder: %s", dir, strerror(errno));
  size_t cap = 0;
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (e->d_name[0] == '.' ||
        !(log_ends_with(e->d_name, ".jsonl") || log_ends_with(e->d_name, ".jsonl.gz")))
      continue;
    if (*n == cap) {
      size_t c = cap ? 2 * cap : 64;
      char **nn = realloc(*names, c * sizeof *nn);
      if (!nn) {
        rc = tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", dir);
        break;
      }
      *names = nn;
      cap = c;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *name = malloc(len);
    if (!name) {
      rc = tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", dir);
      break;
    }
    snprintf(name, len, "%s/%s", dir, e->d_name);
    (*names)[(*n)++] = name;
  }
  closedir(d);
  if (*n) qsort(*names, *n, sizeof **names, log_by_name);
  return rc;
}

int tk_riichi_log_games(const char *arg, tk_riichi_log_game_fn game, void *ctx, tk_error *err) {
  struct stat st;
  if (stat(arg, &st) || !S_ISDIR(st.st_mode)) return log_file_games(arg, game, ctx, err);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/spec.json", arg);
  if (!stat(dir, &st)) snprintf(dir, sizeof dir, "%s/logs", arg);
  else snprintf(dir, sizeof dir, "%s", arg);
  char **names;
  size_t n;
  int rc = log_dir_names(dir, &names, &n, err);
  if (!rc && !n)
    rc = tk_error_set(err, TK_ENOTFOUND, -1, "%s: no *.jsonl or *.jsonl.gz log in this folder",
                      dir);
  for (size_t i = 0; i < n && !rc; i++) rc = log_file_games(names[i], game, ctx, err);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}
