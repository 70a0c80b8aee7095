/* harness/games/solo/solo.c — one-player mahjong (taikai/solo.h) as the referee sees it.
 * Rules {"draws": 1..18, "dora": bool}; one seat; the result fields of a seat, in the order
 * games.jsonl writes them: "won" (bool), "turn", "points", "han", "fu", "yakuman", and the extra
 * member "discards" (the discarded tiles in order, e.g. "1m9p5z").
 * The fallback action is discarding the drawn tile (tsumogiri). A forfeited game (a fault of
 * the agent) is played out by the fallback and counts as a game without a win, 0 points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "solo_cmd.h"
#include "taikai/solo.h"

enum { F_WON, F_TURN, F_POINTS, F_HAN, F_FU, F_YAKUMAN, F_COUNT };
enum { Q_GAMES, Q_WIN, Q_POINTS, Q_WINTURN, Q_COUNT };

static const tk_field fields_def[F_COUNT] = {
    [F_WON] = {"won", TK_FIELD_BOOL}, [F_TURN] = {"turn", TK_FIELD_INT},
    [F_POINTS] = {"points", TK_FIELD_INT}, [F_HAN] = {"han", TK_FIELD_INT},
    [F_FU] = {"fu", TK_FIELD_INT}, [F_YAKUMAN] = {"yakuman", TK_FIELD_INT},
};

/* Ranges: a game scores 0 or one win of at most 48,000 points (the yakuman limit; yakuman never
 * stack); a win comes on draw 1..TK_SOLO_MAX_DRAWS. */
static const tk_metric metrics[] = {
    {.name = "win_rate", .title = "win rate %", .num = Q_WIN, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 2},
    {.name = "points_per_game", .title = "points/game", .num = Q_POINTS, .den = Q_GAMES,
     .scale = 1.0, .decimals = 1, .bounded = TK_BOUND_BOTH, .lo = 0, .hi = 48000},
    {.name = "points_per_win", .title = "points/win", .num = Q_POINTS, .den = Q_WIN,
     .scale = 1.0, .decimals = 1, .bounded = TK_BOUND_BOTH, .lo = 0, .hi = 48000},
    {.name = "mean_win_turn", .title = "win turn", .num = Q_WINTURN, .den = Q_WIN, .scale = 1.0,
     .decimals = 2, .bounded = TK_BOUND_BOTH, .lo = 1, .hi = TK_SOLO_MAX_DRAWS},
};

static int parse_rules(json_t *rules, void *out, json_t **resolved, const char *path,
                       tk_error *err) {
  tk_solo_rules *r = out;
  *r = tk_solo_default_rules();
  const char *key;
  json_t *v;
  char val[64];
  json_object_foreach(rules, key, v) {
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(val, sizeof val, "%s", s ? s : "?");
    free(s);
    if (!strcmp(key, "draws")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 ||
          json_integer_value(v) > TK_SOLO_MAX_DRAWS)
        return tk_error_set(err, TK_EINVAL, -1,
                            "%s: field 'rules.draws': expected an integer from 1 to %d, got %s",
                            path, TK_SOLO_MAX_DRAWS, val);
      r->draws = (uint8_t)json_integer_value(v);
    } else if (!strcmp(key, "dora")) {
      if (!json_is_boolean(v))
        return tk_error_set(err, TK_EINVAL, -1,
                            "%s: field 'rules.dora': expected true or false, got %s", path, val);
      r->dora = json_is_true(v);
    } else {
      return tk_error_set(err, TK_EINVAL, -1,
                          "%s: field 'rules.%s': unknown rule for game 'solo' (rules: draws, "
                          "dora), got %s",
                          path, key, val);
    }
  }
  *resolved = json_pack("{s:i, s:b}", "draws", r->draws, "dora", r->dora);
  return 0;
}

static int start(void *state, const tk_unit_start *u, tk_error *err) {
  uint8_t w[TK_SOLO_WALL_TILES];
  tk_solo_wall(u->seed, u->wall, w);
  return tk_solo_init(state, w, u->rules, err);
}

static void info(const void *state, int seat, void *out) {
  const tk_solo_game *g = state;
  tk_solo_info *i = out;
  i->draws = g->draws;
  i->dora_indicator = g->dora_indicator;
}

static int to_act(void *state, tk_error *err) { return tk_solo_is_over(state) ? -1 : 0; }

static void view(const void *state, int seat, void *out) { tk_solo_view_of(state, out); }
static void legal(const void *state, int seat, void *out) { tk_solo_legal_of(state, out); }

static int apply(void *state, int seat, const void *action, tk_error *err) {
  return tk_solo_apply(state, action, err);
}

static void fallback(const void *state, int seat, const void *legal, void *action) {
  ((tk_solo_action *)action)->discard = ((const tk_solo_game *)state)->drawn;
}

static void result(const void *state, void *out) { tk_solo_result_of(state, out); }

static void fields(const void *state, tk_unit_rec *rec) {
  const tk_solo_game *g = state;
  int64_t *f = rec->seat[0].f;
  f[F_WON] = g->won;
  f[F_TURN] = g->turn;
  f[F_POINTS] = g->points;
  f[F_HAN] = g->han;
  f[F_FU] = g->fu;
  f[F_YAKUMAN] = g->yakuman;
  char disc[64] = "";
  tk_tile t[TK_SOLO_MAX_DRAWS];
  for (int i = 0; i < g->ndiscards; i++) t[i] = g->discards[i];
  if (g->ndiscards) tk_tiles_format(t, g->ndiscards, disc, sizeof disc);
  snprintf(rec->seat[0].extra, sizeof rec->seat[0].extra, "\"discards\":\"%s\"", disc);
}

static void forfeit(const void *rules, unsigned mask, tk_unit_rec *rec) {
  if (!(mask & 1)) return;
  int64_t *f = rec->seat[0].f;
  f[F_WON] = f[F_POINTS] = f[F_HAN] = f[F_FU] = f[F_YAKUMAN] = 0;
}

static void quantities(const tk_unit_rec *rec, double q[][TK_MAX_Q]) {
  const int64_t *f = rec->seat[0].f;
  double win = f[F_WON] ? 1 : 0;
  q[0][Q_GAMES] = 1;
  q[0][Q_WIN] = win;
  q[0][Q_POINTS] = (double)f[F_POINTS];
  q[0][Q_WINTURN] = win * (double)f[F_TURN];
}

/* "turn 3: hand 1155m..., drew 5p". */
static void describe(const void *view_, char *buf, size_t cap) {
  const tk_solo_view *v = view_;
  tk_tile t[TK_SOLO_HAND_TILES + 1];
  int n = 0;
  for (int k = 0; k < TK_KINDS && n < TK_SOLO_HAND_TILES + 1; k++)
    for (int c = 0; c < v->hand[k] && n < TK_SOLO_HAND_TILES + 1; c++) t[n++] = (tk_tile)k;
  char hand[64];
  tk_tiles_format(t, n, hand, sizeof hand);
  snprintf(buf, cap, "turn %d: hand %s, drew %s", v->turn, hand,
           v->drawn < TK_KINDS ? tk_tile_str(v->drawn) : "-");
}

static void describe_action(const void *action, char *buf, size_t cap) {
  int k = ((const tk_solo_action *)action)->discard;
  if (k < TK_KINDS) snprintf(buf, cap, "discard of %s", tk_tile_str((tk_tile)k));
  else snprintf(buf, cap, "discard of no tile (%d)", k);
}

static const char *const headline[] = {"points_per_game", "win_rate", NULL};

extern const char tk_solo_rules_schema[]; /* rules.schema.json (taikai_embed_text) */

static const tk_game_command commands[] = {
    {"rescore", "a one-player run's wins scored under other conventions (taikai rescore --help)",
     tk_cmd_rescore},
    {NULL, NULL, NULL},
};

static const tk_game_command benches[] = {
    {"solo", "one-player mahjong tournament through the referee (games per second)", tk_bench_solo},
    {"mcagents", "one-player Monte Carlo agents: playouts per CPU second, CPU seconds per game",
     tk_bench_mcagents},
    {"solve", "one-player exact search: time per decision by shanten 0..6", tk_bench_solve},
    {NULL, NULL, NULL},
};

const tk_game tk_game_solo = {
    .name = "solo",
    .nseats = 1,
    .types_version = TK_SOLO_TYPES_VERSION,
    .rules_size = sizeof(tk_solo_rules),
    .state_size = sizeof(tk_solo_game),
    .info_size = sizeof(tk_solo_info),
    .view_size = sizeof(tk_solo_view),
    .legal_size = sizeof(tk_solo_legal),
    .action_size = sizeof(tk_solo_action),
    .result_size = sizeof(tk_solo_result),
    TK_GAME_FUNCTIONS,
    .warm_up = tk_shanten_init,
    .nfields = F_COUNT,
    .fields_def = fields_def,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
    .headline = headline,
    .ratings_field = "points",
    .rules_schema = tk_solo_rules_schema,
    .commands = commands,
    .benches = benches,
};
