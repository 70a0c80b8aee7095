/* tests/daifugo/test_daifugo_log.c — daifugo logs (harness/games/daifugo/daifugo_log.h): blocks played by
 * random players written through the writer the referee adapter uses, then read back.
 * Known answers: the start_block line, the deal (a partition of the 53 cards, 11/11/11/10/10, the
 * ♦3 holder acting first, seats as dealt), the transfers (the daihinmin's two and the hinmin's
 * one strongest cards by an order written here), the exchange, each game's places, classes and
 * points, the block's totals. Properties: every log of many blocks (sennichite included)
 * replays with the engine's counts and totals; the same block gives the same bytes. Refusals:
 * a card changed in a play or in a hand, two plays swapped, a wrong result, a missing or extra
 * line, a field added, a line that is not JSON, another game's log: each named with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daifugo_log.h"
#include "unit.h"

static const char *const NAMES[5] = {"a", "b", "c", "d", "e"};

typedef struct played {
  char *text;  /* the log */
  size_t len;
  int actions;
  tk_daifugo_totals totals;
  int sennichite_games;
} played;

/* Plays block `block` of (rules, seed) with players drawing uniformly from their legal lists
 * (with `passy`, passing nine times in ten when they may, so that sennichite happens), writing
 * its log as the referee adapter does. */
static void play_block(const tk_daifugo_rules *ru, uint64_t seed, uint64_t block, uint64_t pseed,
                       int passy, played *out) {
  static tk_daifugo_block b;
  static tk_daifugo_legal l;
  memset(out, 0, sizeof *out);
  tk_error err;
  tk_error_clear(&err);
  if (tk_daifugo_block_init(&b, ru, seed, block, &err)) {
    TK_FAILF("block_init: %s", err.msg);
    return;
  }
  FILE *f = open_memstream(&out->text, &out->len);
  tk_daifugo_log log;
  tk_daifugo_log_begin(&log, f, &b, NAMES);
  tk_rng r;
  tk_rng_seed(&r, pseed);
  while (!tk_daifugo_is_over(&b)) {
    int p = tk_daifugo_to_act(&b);
    tk_daifugo_legal_of(&b, p, &l);
    int pick = (int)tk_rng_below(&r, l.n);
    if (passy && l.decision == TK_DAIFUGO_DECIDE_PLAY && tk_rng_below(&r, 10)) pick = 0;
    tk_daifugo_log_pre pre;
    tk_daifugo_log_pre_of(&b, p, &pre);
    if (tk_daifugo_apply(&b, p, &l.a[pick], &err)) {
      TK_FAILF("apply: %s", err.msg);
      break;
    }
    tk_daifugo_log_write(&log, &pre, &b, p, &l.a[pick]);
    out->actions++;
  }
  fclose(f);
  TK_EQ(log.error, 0, "writer error");
  out->totals = b.totals;
}

static int replay_text(const char *text, tk_daifugo_replay *r, tk_error *err) {
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  tk_error_clear(err);
  int rc = tk_daifugo_log_replay(f, r, err);
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------ lines of a text */

typedef struct lines {
  char **l;
  int n;
} lines;

static lines split(const char *text) {
  lines x = {NULL, 0};
  int cap = 0;
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (x.n == cap) {
      cap = cap ? 2 * cap : 256;
      x.l = realloc(x.l, sizeof *x.l * (size_t)cap);
    }
    x.l[x.n] = malloc(n + 1);
    memcpy(x.l[x.n], p, n);
    x.l[x.n++][n] = '\0';
    p += n + (e != NULL);
  }
  return x;
}

static char *join(const lines *x) {
  size_t n = 1;
  for (int i = 0; i < x->n; i++) n += strlen(x->l[i]) + 1;
  char *s = malloc(n), *at = s;
  for (int i = 0; i < x->n; i++) at += sprintf(at, "%s\n", x->l[i]);
  *at = '\0';
  return s;
}

static void free_lines(lines *x) {
  for (int i = 0; i < x->n; i++) free(x->l[i]);
  free(x->l);
}

static void set_line(lines *x, int i, const char *text) {
  free(x->l[i]);
  x->l[i] = strdup(text);
}

/* The index of the first line from `from` whose type is `type`, or -1. */
static int find(const lines *x, int from, const char *type) {
  char key[64];
  snprintf(key, sizeof key, "\"type\":\"%s\"", type);
  for (int i = from; i < x->n; i++)
    if (strstr(x->l[i], key)) return i;
  return -1;
}

/* Line i with field `key` set to `v` (stolen). */
static void set_field(lines *x, int i, const char *key, json_t *v) {
  json_t *o = json_loads(x->l[i], 0, NULL);
  json_object_set_new(o, key, v);
  char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  set_line(x, i, s);
  free(s);
  json_decref(o);
}

/* The edited text must be refused at file line `line` (1-based) with `what` in the reason. */
static void refused(const lines *x, int line, const char *what, const char *ctx) {
  char *text = join(x);
  tk_daifugo_replay *r = malloc(sizeof *r);
  tk_error err;
  int rc = replay_text(text, r, &err);
  if (rc != TK_EINVAL && rc != TK_EPARSE)
    TK_FAILF("%s: replay returned %d, expected a refusal", ctx, rc);
  TK_EQ(r->bad_line, line, ctx);
  if (!strstr(r->bad_what, what)) TK_FAILF("%s: reason '%s' lacks '%s'", ctx, r->bad_what, what);
  char at[32];
  snprintf(at, sizeof at, "log line %d", line);
  if (!strstr(err.msg, at)) TK_FAILF("%s: message '%s' does not name line %d", ctx, err.msg, line);
  free(r);
  free(text);
}

/* ------------------------------------------------------------ tests */

static tk_daifugo_rules rules(int games, int sennichite) {
  tk_daifugo_rules ru = tk_daifugo_default_rules();
  ru.block_games = (uint32_t)games;
  ru.sennichite = (uint32_t)sennichite;
  return ru;
}

/* The known lines of a block: start_block word for word, then the deal and the first play. */
static void known_lines(void) {
  tk_daifugo_rules ru = rules(12, 20);
  played pl;
  play_block(&ru, 5, 3, 99, 0, &pl);
  lines x = split(pl.text);
  CU_ASSERT_FATAL(x.n > 10);
  const char *want =
      "{\"type\":\"start_block\",\"game\":\"daifugo\",\"format\":1,\"seed\":5,\"block\":3,"
      "\"rules\":{\"block_games\":12,\"seat_period\":3,\"sennichite\":20},"
      "\"names\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}";
  if (strcmp(x.l[0], want)) TK_FAILF("start_block:\n  got  %s\n  want %s", x.l[0], want);

  /* the deal: game 0, global number 3*12+1, the 53 cards split 11/11/11/10/10 */
  json_t *deal = json_loads(x.l[1], 0, NULL);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(deal, "type")), "deal");
  TK_EQ(json_integer_value(json_object_get(deal, "game")), 0, "deal game");
  TK_EQ(json_integer_value(json_object_get(deal, "number")), 37, "deal number");
  uint64_t all = 0, held[5];
  int n11 = 0, n10 = 0, lead = -1, seats = 0;
  for (int p = 0; p < 5; p++) {
    tk_error err;
    tk_error_clear(&err);
    const char *h = json_string_value(json_array_get(json_object_get(deal, "hands"), (size_t)p));
    CU_ASSERT_FATAL(h != NULL);
    TK_EQ(tk_daifugo_cards_parse(h, &held[p], &err), 0, h);
    if (all & held[p]) TK_FAILF("player %d's hand %s overlaps another's", p, h);
    all |= held[p];
    int c = __builtin_popcountll(held[p]);
    n11 += c == 11;
    n10 += c == 10;
    if (held[p] & TK_DAIFUGO_CARD(2, 1)) lead = p; /* the diamond 3 */
    CU_ASSERT(json_is_null(json_array_get(json_object_get(deal, "classes"), (size_t)p)));
    seats |= 1 << json_integer_value(json_array_get(json_object_get(deal, "seats"), (size_t)p));
  }
  CU_ASSERT(all == TK_DAIFUGO_DECK);
  TK_EQ(n11, 3, "hands of 11");
  TK_EQ(n10, 2, "hands of 10");
  TK_EQ(seats, 31, "seats a permutation");
  /* the first action is the diamond-3 holder's, from its seat */
  json_t *first = json_loads(x.l[2], 0, NULL);
  TK_EQ(json_integer_value(json_object_get(first, "player")), lead, "first to act");
  TK_EQ(json_integer_value(json_object_get(first, "seat")),
        json_integer_value(json_array_get(json_object_get(deal, "seats"), (size_t)lead)),
        "seat of the first to act");
  TK_EQ(json_integer_value(json_object_get(first, "game")), 0, "first action's game");
  json_decref(first);
  json_decref(deal);
  free_lines(&x);
  free(pl.text);
}

/* The strength rank of a card for the transfers, written from the spec: the joker above all,
 * then 2 down to 3 by column, and within a column spades > hearts > diamonds > clubs. */
static int strength(uint64_t card) {
  if (card == TK_DAIFUGO_JOKER) return 1000;
  int bit = __builtin_ctzll(card);
  return (bit & 15) * 10 + (3 - (bit >> 4));
}

/* No card left in `rest` is stronger than the weakest of `taken`. */
static int strongest_taken(uint64_t taken, uint64_t rest) {
  int weakest = 10000;
  for (uint64_t t = taken; t; t &= t - 1)
    if (strength(t & -t) < weakest) weakest = strength(t & -t);
  for (uint64_t t = rest; t; t &= t - 1)
    if (strength(t & -t) > weakest) return 0;
  return 1;
}

static const char *const CLASS[5] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};

/* Every game after the first: transfers from the previous game's daihinmin and hinmin, the
 * returns, and the results: places, classes and both point scales, summed into end_block. */
static void games_and_exchange(void) {
  tk_daifugo_rules ru = rules(15, 20);
  played pl;
  play_block(&ru, 8, 0, 4, 0, &pl);
  lines x = split(pl.text);
  int prev_class[5] = {-1, -1, -1, -1, -1}, games = 0, sum[5] = {0}, paper[5] = {0};
  uint64_t dealt[5] = {0};
  for (int i = 1; i < x.n; i++) {
    json_t *o = json_loads(x.l[i], 0, NULL);
    CU_ASSERT_FATAL(o != NULL);
    const char *t = json_string_value(json_object_get(o, "type"));
    if (!strcmp(t, "deal")) {
      for (int p = 0; p < 5; p++) {
        tk_error err;
        tk_error_clear(&err);
        tk_daifugo_cards_parse(
            json_string_value(json_array_get(json_object_get(o, "hands"), (size_t)p)), &dealt[p],
            &err);
        const char *c = json_string_value(json_array_get(json_object_get(o, "classes"), (size_t)p));
        if (games && (!c || strcmp(c, CLASS[prev_class[p]])))
          TK_FAILF("game %d: player %d's class %s, expected %s", games, p, c ? c : "null",
                   CLASS[prev_class[p]]);
      }
      if (games) { /* two transfers, then three gives */
        static const int from_to[2][3] = {{4, 0, 2}, {3, 1, 1}};
        for (int k = 0; k < 2; k++) {
          json_t *tr = json_loads(x.l[i + 1 + k], 0, NULL);
          int from = (int)json_integer_value(json_object_get(tr, "from"));
          int to = (int)json_integer_value(json_object_get(tr, "to"));
          CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(tr, "type")), "transfer");
          TK_EQ(prev_class[from], from_to[k][0], "transfer from");
          TK_EQ(prev_class[to], from_to[k][1], "transfer to");
          uint64_t c;
          tk_error err;
          tk_error_clear(&err);
          tk_daifugo_cards_parse(json_string_value(json_object_get(tr, "cards")), &c, &err);
          TK_EQ(__builtin_popcountll(c), from_to[k][2], "cards transferred");
          CU_ASSERT((c & dealt[from]) == c);
          if (!strongest_taken(c, dealt[from] & ~c))
            TK_FAILF("line %d: not the strongest", i + 2 + k);
          json_decref(tr);
        }
        static const int giver[3] = {0, 0, 1};
        for (int k = 0; k < 3; k++) {
          json_t *g = json_loads(x.l[i + 3 + k], 0, NULL);
          CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(g, "type")), "give");
          int p = (int)json_integer_value(json_object_get(g, "player"));
          int to = (int)json_integer_value(json_object_get(g, "to"));
          TK_EQ(prev_class[p], giver[k], "giver's class");
          TK_EQ(prev_class[to], 4 - giver[k], "receiver's class");
          json_decref(g);
        }
      }
    } else if (!strcmp(t, "end_game")) {
      TK_EQ(json_integer_value(json_object_get(o, "game")), games, "end_game's game");
      int seen = 0;
      for (size_t p = 0; p < 5; p++) {
        int place = (int)json_integer_value(json_array_get(json_object_get(o, "places"), p));
        int pts = (int)json_integer_value(json_array_get(json_object_get(o, "points"), p));
        int pp = (int)json_integer_value(json_array_get(json_object_get(o, "paper_points"), p));
        const char *c = json_string_value(json_array_get(json_object_get(o, "classes"), p));
        CU_ASSERT_FATAL(place >= 1 && place <= 5);
        seen |= 1 << place;
        TK_EQ(pts, 6 - place, "server points");
        TK_EQ(pp, 3 - place, "paper points");
        CU_ASSERT_STRING_EQUAL(c, CLASS[place - 1]);
        prev_class[p] = place - 1;
        sum[p] += pts;
        paper[p] += pp;
      }
      TK_EQ(seen, 62, "places a permutation of 1..5");
      games++;
    } else if (!strcmp(t, "end_block")) {
      TK_EQ(i, x.n - 1, "end_block is the last line");
      TK_EQ(json_integer_value(json_object_get(o, "games")), 15, "end_block games");
      for (int p = 0; p < 5; p++) {
        TK_EQ(json_integer_value(json_array_get(json_object_get(o, "points"), (size_t)p)), sum[p],
              "end_block points = the sum of the games'");
        TK_EQ(json_integer_value(json_array_get(json_object_get(o, "paper_points"), (size_t)p)),
              paper[p], "end_block paper points");
        TK_EQ(sum[p], pl.totals.points[p], "the engine's totals");
      }
    }
    json_decref(o);
  }
  TK_EQ(games, 15, "end_game lines");
  free_lines(&x);
  free(pl.text);
}

/* Many blocks of random players replay to the engine's counts; sennichite games too. */
static void replays_clean(void) {
  int sennichite = 0;
  for (int k = 0; k < 40; k++) {
    int passy = k % 4 == 3;
    tk_daifugo_rules ru = rules(3 + k % 7, passy ? 4 : 20);
    played pl;
    play_block(&ru, 1000 + (uint64_t)k, (uint64_t)k * 7, (uint64_t)k, passy, &pl);
    tk_daifugo_replay *r = malloc(sizeof *r);
    tk_error err;
    char ctx[64];
    snprintf(ctx, sizeof ctx, "block %d", k);
    int rc = replay_text(pl.text, r, &err);
    if (rc) TK_FAILF("%s: %s", ctx, err.msg);
    TK_EQ(r->games, (int)ru.block_games, ctx);
    TK_EQ(r->actions, pl.actions, ctx);
    TK_EQ(r->block, (uint64_t)k * 7, ctx);
    for (int p = 0; p < 5; p++) {
      TK_EQ(r->points[p], pl.totals.points[p], ctx);
      TK_EQ(r->paper_points[p], pl.totals.paper_points[p], ctx);
    }
    sennichite += pl.totals.sennichite;
    if (pl.totals.sennichite && !strstr(pl.text, "\"sennichite\":true"))
      TK_FAILF("%s: %d sennichite games, none logged", ctx, pl.totals.sennichite);
    free(r);
    free(pl.text);
  }
  if (sennichite < 5)
    TK_FAILF("only %d sennichite games: the test does not reach them", sennichite);
}

static void deterministic(void) {
  tk_daifugo_rules ru = rules(6, 20);
  played a, b;
  play_block(&ru, 3, 2, 17, 0, &a);
  play_block(&ru, 3, 2, 17, 0, &b);
  TK_EQ(a.len, b.len, "log length");
  CU_ASSERT(a.len == b.len && !memcmp(a.text, b.text, a.len));
  free(a.text);
  free(b.text);
}

/* Hand edits, each refused at its line. */
static void refusals(void) {
  tk_daifugo_rules ru = rules(4, 20);
  played pl;
  play_block(&ru, 21, 1, 5, 0, &pl);
  lines x = split(pl.text);

  /* a card changed in a play: the first play of game 0 made with a card of another hand */
  {
    lines y = split(pl.text);
    int i = find(&y, 1, "play");
    json_t *deal = json_loads(y.l[1], 0, NULL), *o = json_loads(y.l[i], 0, NULL);
    int p = (int)json_integer_value(json_object_get(o, "player"));
    json_t *hands = json_object_get(deal, "hands");
    const char *other = json_string_value(json_array_get(hands, (size_t)(p + 1) % 5));
    char card[3] = {other[0], other[1], 0};
    set_field(&y, i, "cards", json_string(card));
    refused(&y, i + 1, "not legal", "a card changed in a play");
    json_decref(o);
    json_decref(deal);
    free_lines(&y);
  }
  /* a card moved between two hands of the deal */
  {
    lines y = split(pl.text);
    json_t *o = json_loads(y.l[1], 0, NULL);
    json_t *h = json_object_get(o, "hands");
    char a[256], b[256];
    snprintf(a, sizeof a, "%s", json_string_value(json_array_get(h, 0)));
    snprintf(b, sizeof b, "%s", json_string_value(json_array_get(h, 1)));
    char t0 = a[0], t1 = a[1]; /* swap the first cards of players 0 and 1 */
    a[0] = b[0], a[1] = b[1], b[0] = t0, b[1] = t1;
    json_array_set_new(h, 0, json_string(a));
    json_array_set_new(h, 1, json_string(b));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    set_line(&y, 1, s);
    free(s);
    json_decref(o);
    refused(&y, 2, "differs in hands", "a card moved in the deal");
    free_lines(&y);
  }
  /* two plays by different players swapped */
  {
    lines y = split(pl.text);
    int i = find(&y, 1, "play"), j = i + 1;
    for (;; i++, j++) { /* the first play followed by a play or a pass of another player */
      CU_ASSERT_FATAL(j < y.n);
      json_t *a = json_loads(y.l[i], 0, NULL), *b = json_loads(y.l[j], 0, NULL);
      const char *ta = json_string_value(json_object_get(a, "type"));
      const char *tb = json_string_value(json_object_get(b, "type"));
      int ok = !strcmp(ta, "play") && (!strcmp(tb, "play") || !strcmp(tb, "pass")) &&
               json_integer_value(json_object_get(a, "player")) !=
                   json_integer_value(json_object_get(b, "player"));
      json_decref(a);
      json_decref(b);
      if (ok) break;
    }
    char *t = y.l[i];
    y.l[i] = y.l[j];
    y.l[j] = t;
    refused(&y, i + 1, "is not to act", "two actions swapped");
    free_lines(&y);
  }
  /* a wrong result: the first game's points */
  {
    lines y = split(pl.text);
    int i = find(&y, 1, "end_game");
    json_t *o = json_loads(y.l[i], 0, NULL);
    json_t *pts = json_deep_copy(json_object_get(o, "points"));
    json_int_t p0 = json_integer_value(json_array_get(pts, 0));
    json_array_set_new(pts, 0, json_integer(p0 == 5 ? 4 : p0 + 1));
    set_field(&y, i, "points", pts);
    json_decref(o);
    refused(&y, i + 1, "differs in points", "a wrong result");
    free_lines(&y);
  }
  /* a wrong seat, a sennichite flag set, a field added */
  {
    lines y = split(pl.text);
    int i = find(&y, 1, "pass");
    json_t *o = json_loads(y.l[i], 0, NULL);
    json_int_t s = json_integer_value(json_object_get(o, "seat"));
    json_decref(o);
    set_field(&y, i, "seat", json_integer((s + 1) % 5));
    refused(&y, i + 1, "differs in seat", "a wrong seat");
    free_lines(&y);
    y = split(pl.text);
    i = find(&y, 1, "end_game");
    set_field(&y, i, "sennichite", json_true());
    refused(&y, i + 1, "differs in sennichite", "a sennichite flag");
    free_lines(&y);
    y = split(pl.text);
    set_field(&y, 3, "note", json_string("x"));
    refused(&y, 4, "has a field note", "a field added");
    free_lines(&y);
  }
  /* the last line dropped; a line after end_block; a line that is not JSON */
  {
    lines y = split(pl.text);
    y.n--;
    refused(&y, y.n, "the log ends before the engine's end_block line", "end_block dropped");
    y.n++;
    free_lines(&y);
    y = split(pl.text);
    y.l = realloc(y.l, sizeof *y.l * (size_t)(y.n + 1));
    y.l[y.n++] = strdup(y.l[2]);
    refused(&y, y.n, "a line after the block's end_block", "a line after the end");
    free_lines(&y);
    y = split(pl.text);
    int i = find(&y, 1, "end_game");
    y.l[i][5] = '\0';
    refused(&y, i + 1, "not a JSON object", "a torn line");
    free_lines(&y);
    y = split(pl.text);
    i = find(&y, 1, "end_game");
    y.n = i; /* the log stops in the middle of a game */
    refused(&y, i, "the log ends before the engine's end_game line", "a log cut short");
    y.n = x.n;
    free_lines(&y);
  }
  /* another game's log; another format */
  {
    lines y = split(pl.text);
    set_field(&y, 0, "game", json_string("riichi"));
    refused(&y, 1, "field game: expected \"daifugo\"", "another game");
    free_lines(&y);
    y = split(pl.text);
    set_field(&y, 0, "format", json_integer(2));
    refused(&y, 1, "field format: 2 is not a format", "another format");
    free_lines(&y);
    y = split(pl.text);
    set_line(&y, 0, "{\"type\":\"start_game\"}");
    refused(&y, 1, "starts with a start_block line", "a riichi start");
    free_lines(&y);
  }
  /* the untouched log replays */
  tk_daifugo_replay *r = malloc(sizeof *r);
  tk_error err;
  char *text = join(&x);
  if (replay_text(text, r, &err)) TK_FAILF("the untouched log: %s", err.msg);
  free(text);
  free(r);
  free_lines(&x);
  free(pl.text);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"start_block and the deal, word for word and by their rules", known_lines},
      {"transfers, exchange and results of every game, the block's totals", games_and_exchange},
      {"40 blocks of random players replay (sennichite included)", replays_clean},
      {"the same block gives the same bytes", deterministic},
      {"hand-edited logs refused at their line", refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_log", tests);
}
