/* harness/games/daifugo/daifugo_log.c — daifugo logs (harness/games/daifugo/daifugo_log.h): the lines of each
 * event, the writer, and the reader that replays a log through the block engine and compares
 * every line with the engine's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daifugo_log.h"
#include "logtext.h"

static const char *const class_names[5] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};

/* ------------------------------------------------------------ lines */

static json_t *cards_json(uint64_t set) {
  char buf[256];
  tk_daifugo_cards_str(set, buf, sizeof buf);
  return json_string(buf);
}

static json_t *ints5(const int32_t v[5]) {
  json_t *a = json_array();
  for (int p = 0; p < 5 && a; p++) json_array_append_new(a, json_integer(v[p]));
  return a;
}

static int player_of_class(const tk_daifugo_block *b, int cls) {
  for (int p = 0; p < 5; p++)
    if (b->cls[p] == cls) return p;
  return -1;
}

/* Appends `o` (may be NULL: out of memory) to `lines`. */
static int push(json_t *lines, json_t *o) {
  if (!o) return TK_ENOMEM;
  return json_array_append_new(lines, o) ? TK_ENOMEM : 0;
}

void tk_daifugo_log_pre_of(const tk_daifugo_block *b, int player, tk_daifugo_log_pre *pre) {
  memset(pre, 0, sizeof *pre);
  pre->game = b->game;
  pre->exchange = b->phase == TK_DAIFUGO_PHASE_EXCHANGE;
  if (player < 0 || player >= 5) return;
  pre->seat = b->g.seat_of[player];
  int to = pre->exchange && b->cls[player] < 5 ? player_of_class(b, 4 - b->cls[player]) : -1;
  pre->to = (uint8_t)(to < 0 ? TK_DAIFUGO_NOBODY : to);
  pre->sennichite = b->totals.sennichite;
  pre->hand = b->g.hand[player];
}

json_t *tk_daifugo_log_start_block(const tk_daifugo_block *b, const char *const names[5]) {
  json_t *nm = json_array();
  for (int p = 0; p < 5 && nm; p++) {
    char def[16];
    snprintf(def, sizeof def, "player%d", p);
    json_array_append_new(nm, json_string(names && names[p] ? names[p] : def));
  }
  if (!nm) return NULL;
  return json_pack("{s:s, s:s, s:i, s:I, s:I, s:{s:i, s:i, s:i}, s:o}", "type", "start_block",
                   "game", "daifugo", "format", TK_DAIFUGO_LOG_FORMAT, "seed",
                   (json_int_t)b->seed, "block", (json_int_t)b->block, "rules", "block_games",
                   (int)b->rules.block_games, "seat_period", (int)b->rules.seat_period,
                   "sennichite", (int)b->rules.sennichite, "names", nm);
}

int tk_daifugo_log_deal(const tk_daifugo_block *b, json_t *lines) {
  json_t *seats = json_array(), *classes = json_array(), *hands = json_array();
  if (!seats || !classes || !hands) {
    json_decref(seats);
    json_decref(classes);
    json_decref(hands);
    return TK_ENOMEM;
  }
  for (int p = 0; p < 5; p++) {
    json_array_append_new(seats, json_integer(b->g.seat_of[p]));
    json_array_append_new(classes,
                          b->cls[p] < 5 ? json_string(class_names[b->cls[p]]) : json_null());
    json_array_append_new(hands, cards_json(b->dealt[p]));
  }
  json_t *deal = json_pack(
      "{s:s, s:i, s:I, s:o, s:i, s:o, s:o}", "type", "deal", "game", (int)b->game, "number",
      (json_int_t)tk_daifugo_game_number(&b->rules, b->block, b->game), "seats", seats,
      "first_seat", (int)b->first_seat, "classes", classes, "hands", hands);
  if (push(lines, deal)) return TK_ENOMEM;
  if (b->phase != TK_DAIFUGO_PHASE_EXCHANGE) return 0;
  /* the automatic transfers, made as the game was dealt (nothing else given yet) */
  static const int from_to[2][2] = {{4, 0}, {3, 1}};
  for (int k = 0; k < 2; k++) {
    int from = player_of_class(b, from_to[k][0]), to = player_of_class(b, from_to[k][1]);
    if (from < 0 || to < 0) continue;
    json_t *t = json_pack("{s:s, s:i, s:i, s:i, s:o}", "type", "transfer", "game",
                          (int)b->game, "from", from, "to", to, "cards",
                          cards_json(b->given[from]));
    if (push(lines, t)) return TK_ENOMEM;
  }
  return 0;
}

/* The action's line as text, for the writer's hot path (no JSON objects built); "" when it does
 * not fit. Card notation needs no JSON escaping. The same line as an object is action_json's
 * (the replay's); test_daifugo_log replays the writer's logs, which holds the two equal. */
static void action_text(const tk_daifugo_log_pre *pre, int player, const tk_daifugo_move *m,
                        char *buf, size_t cap) {
  char cards[256];
  int n;
  if (pre->exchange) {
    tk_daifugo_cards_str(m->cards, cards, sizeof cards);
    n = snprintf(buf, cap, "{\"type\":\"give\",\"game\":%u,\"player\":%d,\"seat\":%d,"
                 "\"card\":\"%s\",\"to\":%d}", pre->game, player, pre->seat, cards, pre->to);
  } else if (m->kind == TK_DAIFUGO_PASS) {
    n = snprintf(buf, cap, "{\"type\":\"pass\",\"game\":%u,\"player\":%d,\"seat\":%d}",
                 pre->game, player, pre->seat);
  } else {
    tk_daifugo_move_str(m, cards, sizeof cards);
    n = snprintf(buf, cap, "{\"type\":\"play\",\"game\":%u,\"player\":%d,\"seat\":%d,"
                 "\"cards\":\"%s\"%s}", pre->game, player, pre->seat, cards,
                 m->cards == pre->hand ? ",\"out\":true" : "");
  }
  if (n < 0 || (size_t)n >= cap) buf[0] = '\0';
}

/* The lines that follow an action that ended game pre->game: end_game, then the next game's
 * deal and transfers or end_block. */
static int after_game(const tk_daifugo_log_pre *pre, const tk_daifugo_block *b, json_t *lines);

static json_t *action_json(const tk_daifugo_log_pre *pre, int player, const tk_daifugo_move *m) {
  json_t *o;
  if (pre->exchange)
    return json_pack("{s:s, s:i, s:i, s:i, s:o, s:i}", "type", "give", "game", (int)pre->game,
                     "player", player, "seat", (int)pre->seat, "card", cards_json(m->cards), "to",
                     (int)pre->to);
  if (m->kind == TK_DAIFUGO_PASS)
    return json_pack("{s:s, s:i, s:i, s:i}", "type", "pass", "game", (int)pre->game, "player",
                     player, "seat", (int)pre->seat);
  char text[256];
  tk_daifugo_move_str(m, text, sizeof text);
  o = json_pack("{s:s, s:i, s:i, s:i, s:s}", "type", "play", "game", (int)pre->game, "player",
                player, "seat", (int)pre->seat, "cards", text);
  if (o && m->cards == pre->hand) json_object_set_new(o, "out", json_true());
  return o;
}

int tk_daifugo_log_action(const tk_daifugo_log_pre *pre, const tk_daifugo_block *b, int player,
                          const tk_daifugo_move *m, json_t *lines) {
  if (push(lines, action_json(pre, player, m))) return TK_ENOMEM;
  return b->game == pre->game ? 0 : after_game(pre, b, lines);
}

static int after_game(const tk_daifugo_log_pre *pre, const tk_daifugo_block *b, json_t *lines) {
  json_t *o;
  /* the action ended game pre->game */
  json_t *places = json_array(), *classes = json_array(), *pts = json_array(),
         *paper = json_array();
  if (!places || !classes || !pts || !paper) {
    json_decref(places);
    json_decref(classes);
    json_decref(pts);
    json_decref(paper);
    return TK_ENOMEM;
  }
  for (int p = 0; p < 5; p++) {
    int k = b->places[pre->game][p];
    json_array_append_new(places, json_integer(k + 1));
    json_array_append_new(classes, json_string(class_names[k]));
    json_array_append_new(pts, json_integer(tk_daifugo_points(k)));
    json_array_append_new(paper, json_integer(tk_daifugo_paper_points(k)));
  }
  o = json_pack("{s:s, s:i, s:I, s:o, s:o, s:o, s:o, s:b}", "type", "end_game", "game",
                (int)pre->game, "number",
                (json_int_t)tk_daifugo_game_number(&b->rules, b->block, pre->game), "places",
                places, "classes", classes, "points", pts, "paper_points", paper, "sennichite",
                b->totals.sennichite != pre->sennichite);
  if (push(lines, o)) return TK_ENOMEM;
  if (!tk_daifugo_is_over(b)) return tk_daifugo_log_deal(b, lines);
  const tk_daifugo_totals *t = &b->totals;
  o = json_pack("{s:s, s:I, s:i, s:o, s:o, s:i, s:o, s:o}", "type", "end_block", "block",
                (json_int_t)b->block, "games", (int)t->games, "points", ints5(t->points),
                "paper_points", ints5(t->paper_points), "sennichite", (int)t->sennichite,
                "revolutions", ints5(t->revolutions), "passes", ints5(t->passes));
  return push(lines, o);
}

/* ------------------------------------------------------------ writer */

static void put_lines(tk_daifugo_log *log, json_t *lines) {
  size_t i;
  json_t *o;
  json_array_foreach(lines, i, o) {
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!s || fputs(s, log->f) == EOF || fputc('\n', log->f) == EOF) log->error = 1;
    free(s);
  }
}

void tk_daifugo_log_begin(tk_daifugo_log *log, FILE *f, const tk_daifugo_block *b,
                          const char *const names[5]) {
  log->f = f;
  log->error = 0;
  json_t *lines = json_array();
  if (!lines || push(lines, tk_daifugo_log_start_block(b, names)) ||
      tk_daifugo_log_deal(b, lines))
    log->error = 1;
  if (lines) put_lines(log, lines);
  json_decref(lines);
}

void tk_daifugo_log_write(tk_daifugo_log *log, const tk_daifugo_log_pre *pre,
                          const tk_daifugo_block *b, int player, const tk_daifugo_move *m) {
  char text[512];
  action_text(pre, player, m, text, sizeof text);
  if (!text[0] || fputs(text, log->f) == EOF || fputc('\n', log->f) == EOF) log->error = 1;
  if (b->game == pre->game) return;
  json_t *lines = json_array();
  if (!lines || after_game(pre, b, lines)) log->error = 1;
  if (lines) put_lines(log, lines);
  json_decref(lines);
}

/* ------------------------------------------------------------ reader */

typedef struct replay {
  json_t **line;        /* parsed lines (blank lines left out) */
  int *lineno;          /* each one's line number in the file */
  int n, cur;           /* lines, next line to compare */
  tk_daifugo_replay *out;
  tk_error *err;
  int failed;
} replay;

static const char *type_of(json_t *o) { return json_string_value(json_object_get(o, "type")); }

/* Records the first mismatch, at log line index `at` (r->n: after the last line): `what`
 * happened; `field` (may be NULL) names the field whose values `engine` and the log's line
 * hold; `engine` (may be NULL) is the engine's line. */
static int mismatch(replay *r, int at, const char *what, const char *field, json_t *engine) {
  if (r->failed) return TK_EINVAL;
  r->failed = 1;
  tk_daifugo_replay *o = r->out;
  json_t *l = at < r->n ? r->line[at] : NULL;
  const char *ev = l ? type_of(l) : NULL;
  o->bad_line = at < r->n ? r->lineno[at] : r->n ? r->lineno[r->n - 1] : 0;
  snprintf(o->bad_event, sizeof o->bad_event, "%s", ev ? ev : "");
  snprintf(o->bad_what, sizeof o->bad_what, "%s", what);
  snprintf(o->bad_field, sizeof o->bad_field, "%s", field ? field : "");
  tk_json_cut(field && engine ? json_object_get(engine, field) : engine, o->expected,
       sizeof o->expected);
  tk_json_cut(field && l ? json_object_get(l, field) : l, o->logged, sizeof o->logged);
  tk_error_set(r->err, TK_EINVAL, o->bad_line, "log line %d (%s): %s", o->bad_line,
               ev ? ev : "end of log", what);
  return TK_EINVAL;
}

/* The engine's line `e` must equal the log's next line: the same fields, equal values. */
static int compare(replay *r, json_t *e) {
  if (r->cur >= r->n) {
    char what[160];
    snprintf(what, sizeof what, "the log ends before the engine's %s line", type_of(e));
    return mismatch(r, r->n, what, NULL, e);
  }
  json_t *l = r->line[r->cur];
  const char *te = type_of(e), *tl = type_of(l);
  if (!tl || strcmp(te, tl)) {
    char what[160];
    snprintf(what, sizeof what, "expected a %s line here", te);
    return mismatch(r, r->cur, what, NULL, e);
  }
  const char *key;
  json_t *v;
  json_object_foreach(e, key, v) {
    json_t *w = json_object_get(l, key);
    if (!w || !json_equal(v, w)) {
      char what[160];
      snprintf(what, sizeof what, w ? "differs in %s" : "lacks the field %s", key);
      return mismatch(r, r->cur, what, key, e);
    }
  }
  json_object_foreach(l, key, v) {
    if (!json_object_get(e, key)) {
      char what[160];
      snprintf(what, sizeof what, "has a field %s that the engine's line has not", key);
      return mismatch(r, r->cur, what, key, e);
    }
  }
  r->cur++;
  return 0;
}

/* Compares every line of `lines` in turn; decrefs `lines`. */
static int compare_all(replay *r, json_t *lines) {
  size_t i;
  json_t *e;
  int rc = 0;
  json_array_foreach(lines, i, e) {
    if ((rc = compare(r, e))) break;
  }
  json_decref(lines);
  return rc;
}

/* An integer field of line `at` within [lo, hi]; -1 after recording a mismatch. */
static int64_t int_field(replay *r, int at, json_t *o, const char *key, int64_t lo, int64_t hi) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
    char what[200];
    snprintf(what, sizeof what, "field %s: expected an integer from %lld to %lld", key,
             (long long)lo, (long long)hi);
    mismatch(r, at, what, NULL, NULL);
    return -1;
  }
  return json_integer_value(v);
}

/* Reads start_block at line 0 and starts the block. */
static int begin(replay *r, tk_daifugo_block *b) {
  json_t *s = r->n ? r->line[0] : NULL;
  const char *t = s ? type_of(s) : NULL;
  if (!t || strcmp(t, "start_block"))
    return mismatch(r, 0, "a daifugo log starts with a start_block line", NULL, NULL);
  const char *game = json_string_value(json_object_get(s, "game"));
  if (!game || strcmp(game, "daifugo"))
    return mismatch(r, 0, "field game: expected \"daifugo\"", NULL, NULL);
  int64_t format = int_field(r, 0, s, "format", 1, 1000000);
  if (format < 0) return TK_EINVAL;
  if (format != TK_DAIFUGO_LOG_FORMAT) {
    char what[120];
    snprintf(what, sizeof what, "field format: %lld is not a format this taikai reads (%d)",
             (long long)format, TK_DAIFUGO_LOG_FORMAT);
    return mismatch(r, 0, what, NULL, NULL);
  }
  int64_t seed = int_field(r, 0, s, "seed", 0, INT64_MAX);
  int64_t block = seed < 0 ? -1 : int_field(r, 0, s, "block", 0, INT64_MAX);
  if (seed < 0 || block < 0) return TK_EINVAL;
  json_t *rules = json_object_get(s, "rules");
  if (!json_is_object(rules)) return mismatch(r, 0, "field rules: expected an object", NULL, NULL);
  tk_daifugo_rules ru = tk_daifugo_default_rules();
  static const char *const keys[3] = {"block_games", "seat_period", "sennichite"};
  uint32_t *fields[3] = {&ru.block_games, &ru.seat_period, &ru.sennichite};
  for (int k = 0; k < 3; k++) {
    json_t *v = json_object_get(rules, keys[k]);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1000000) {
      char what[120];
      snprintf(what, sizeof what, "field rules.%s: expected an integer", keys[k]);
      return mismatch(r, 0, what, NULL, NULL);
    }
    *fields[k] = (uint32_t)json_integer_value(v);
  }
  tk_error e;
  tk_error_clear(&e);
  if (tk_daifugo_block_init(b, &ru, (uint64_t)seed, (uint64_t)block, &e)) {
    char what[300];
    snprintf(what, sizeof what, "field rules: %.250s", e.msg);
    return mismatch(r, 0, what, NULL, NULL);
  }
  r->out->block = (uint64_t)block;
  r->cur = 1;
  json_t *lines = json_array();
  if (!lines || tk_daifugo_log_deal(b, lines)) {
    json_decref(lines);
    return TK_ENOMEM;
  }
  return compare_all(r, lines);
}

/* The action of the log's line r->cur, for `player`, into *m. */
static int action_of(replay *r, const tk_daifugo_block *b, int player, tk_daifugo_move *m) {
  json_t *l = r->line[r->cur];
  const char *t = type_of(l);
  int want_give = b->phase == TK_DAIFUGO_PHASE_EXCHANGE;
  char what[400], text[300];
  if (!t || (strcmp(t, "give") && strcmp(t, "play") && strcmp(t, "pass"))) {
    snprintf(what, sizeof what, "expected %s of player %d (seat %d) here",
             want_give ? "a give" : "a play or a pass", player, b->g.seat_of[player]);
    return mismatch(r, r->cur, what, NULL, NULL);
  }
  int64_t who = int_field(r, r->cur, l, "player", 0, 4);
  if (who < 0) return TK_EINVAL;
  if (who != player) {
    snprintf(what, sizeof what, "player %d is not to act: player %d (seat %d) is",
             (int)who, player, b->g.seat_of[player]);
    json_t *e = json_pack("{s:i}", "player", player);
    int rc = mismatch(r, r->cur, what, "player", e);
    json_decref(e);
    return rc;
  }
  if (want_give != !strcmp(t, "give")) {
    snprintf(what, sizeof what, "player %d must %s", player,
             want_give ? "give a card (the exchange)" : "play or pass");
    return mismatch(r, r->cur, what, NULL, NULL);
  }
  const char *field = !strcmp(t, "give") ? "card" : !strcmp(t, "play") ? "cards" : NULL;
  const char *s = field ? json_string_value(json_object_get(l, field)) : "pass";
  if (!s) {
    snprintf(what, sizeof what, "field %s: expected a string of cards", field);
    return mismatch(r, r->cur, what, NULL, NULL);
  }
  snprintf(text, sizeof text, "%s%.250s", !strcmp(t, "give") ? "give " : "", s);
  tk_error e;
  tk_error_clear(&e);
  if (tk_daifugo_move_parse(text, m, &e)) {
    snprintf(what, sizeof what, "field %s: %.300s", field ? field : "type", e.msg);
    return mismatch(r, r->cur, what, NULL, NULL);
  }
  if (!strcmp(t, "play") && m->kind == TK_DAIFUGO_PASS)
    return mismatch(r, r->cur, "field cards: a play of no card (a pass is a pass line)", NULL,
                    NULL);
  return 0;
}

int tk_daifugo_log_replay(FILE *f, tk_daifugo_replay *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  replay r = {.out = out, .err = err};
  int rc = 0, cap = 0;
  char *buf = NULL;
  size_t bcap = 0;
  ssize_t got;
  int lineno = 0;
  tk_daifugo_block *b = malloc(sizeof *b);
  if (!b) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  while ((got = getline(&buf, &bcap, f)) >= 0) {
    lineno++;
    size_t k = 0;
    while (k < (size_t)got && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r' || buf[k] == '\n'))
      k++;
    if (k == (size_t)got) continue;
    if (r.n == cap) {
      cap = cap ? 2 * cap : 1024;
      json_t **nl = realloc(r.line, sizeof *nl * (size_t)cap);
      if (nl) r.line = nl;
      int *nn = nl ? realloc(r.lineno, sizeof *nn * (size_t)cap) : NULL;
      if (nn) r.lineno = nn;
      if (!nl || !nn) {
        rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
        goto done;
      }
    }
    json_error_t je;
    json_t *o = json_loadb(buf, (size_t)got, 0, &je);
    if (!json_is_object(o)) {
      json_decref(o);
      out->bad_line = lineno;
      snprintf(out->bad_what, sizeof out->bad_what, "not a JSON object: %s",
               o ? "another JSON value" : je.text);
      rc = tk_error_set(err, TK_EPARSE, lineno, "log line %d: %s", lineno, out->bad_what);
      goto done;
    }
    r.lineno[r.n] = lineno;
    r.line[r.n++] = o;
  }
  out->lines = lineno;
  if ((rc = begin(&r, b))) goto done;
  while (!tk_daifugo_is_over(b)) {
    int player = tk_daifugo_to_act(b);
    if (r.cur >= r.n) {
      char what[160];
      snprintf(what, sizeof what, "the log ends in game %u: player %d (seat %d) is to act",
               b->game, player, b->g.seat_of[player]);
      rc = mismatch(&r, r.n, what, NULL, NULL);
      goto done;
    }
    tk_daifugo_move m;
    if ((rc = action_of(&r, b, player, &m))) goto done;
    tk_daifugo_log_pre pre;
    tk_daifugo_log_pre_of(b, player, &pre);
    tk_error e;
    tk_error_clear(&e);
    uint32_t game = b->game;
    if (tk_daifugo_apply(b, player, &m, &e)) {
      char what[400];
      snprintf(what, sizeof what, "not legal: %.300s", e.msg);
      rc = mismatch(&r, r.cur, what, NULL, NULL);
      goto done;
    }
    out->actions++;
    json_t *lines = json_array();
    if (!lines || tk_daifugo_log_action(&pre, b, player, &m, lines)) {
      json_decref(lines);
      rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
      goto done;
    }
    if ((rc = compare_all(&r, lines))) goto done;
    if (b->game != game) out->games++;
  }
  if (r.cur < r.n) {
    rc = mismatch(&r, r.cur, "a line after the block's end_block", NULL, NULL);
    goto done;
  }
  memcpy(out->points, b->totals.points, sizeof out->points);
  memcpy(out->paper_points, b->totals.paper_points, sizeof out->paper_points);
done:
  if (rc == TK_ENOMEM && !r.failed) tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  for (int i = 0; i < r.n; i++) json_decref(r.line[i]);
  free(r.line);
  free(r.lineno);
  free(buf);
  free(b);
  return rc;
}
