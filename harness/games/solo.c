/* harness/games/solo.c — the referee's driver for one-player mahjong (taikai/solo.h): rules
 * {"draws": 1..18, "dora": bool}, one seat, and the games.jsonl line of a unit:
 *   {"unit":U,"wall":W,"seats":[{"agent":I,"label":"L","won":B,"turn":T,"points":P,"han":H,
 *    "fu":F,"yakuman":Y,"discards":"..."[,"illegal":N,"illegal_first":"..."]
 *    [,"fault":"reason","fault_info":{...}]}]}
 * A faulted game (illegal action, error return, crash, timeout, memory) is forfeited: it counts
 * as a game without a win, 0 points (harness/core/fault.h). The fallback action that replaces an
 * illegal one under illegal_policy "substitute" is discarding the drawn tile (tsumogiri). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "game.h"
#include "taikai/solo.h"

enum { Q_GAMES, Q_WIN, Q_POINTS, Q_WINTURN, Q_COUNT };

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

/* The decision as a fault reason shows it: "turn 3: hand 1155m..., drew 5p". */
static void describe_view(const tk_solo_view *v, char *buf, size_t cap) {
  tk_tile t[TK_SOLO_HAND_TILES + 1];
  int n = 0;
  for (int k = 0; k < TK_KINDS && n < TK_SOLO_HAND_TILES + 1; k++)
    for (int c = 0; c < v->hand[k] && n < TK_SOLO_HAND_TILES + 1; c++) t[n++] = (tk_tile)k;
  char hand[64];
  tk_tiles_format(t, n, hand, sizeof hand);
  snprintf(buf, cap, "turn %d: hand %s, drew %s", v->turn, hand,
           v->drawn < TK_KINDS ? tk_tile_str(v->drawn) : "-");
}

static void describe(const void *snap, size_t len, char *buf, size_t cap) {
  if (len < sizeof(tk_solo_view)) {
    snprintf(buf, cap, "before the first decision");
    return;
  }
  tk_solo_view v;
  memcpy(&v, snap, sizeof v);
  describe_view(&v, buf, cap);
}

/* Appends the seat record; `fault` may be NULL; `illegal` actions were substituted or forfeited,
 * the first described by `illegal_first`. */
static int write_line(uint64_t unit, uint64_t wall, const tk_seat_agent *a,
                      const tk_solo_game *g, const tk_fault *fault, const char *reason,
                      int illegal, const char *illegal_first, char *line, size_t cap) {
  char disc[64] = "";
  tk_tile t[TK_SOLO_MAX_DRAWS];
  for (int i = 0; i < g->ndiscards; i++) t[i] = g->discards[i];
  if (g->ndiscards) tk_tiles_format(t, g->ndiscards, disc, sizeof disc);
  int n = snprintf(line, cap,
                   "{\"unit\":%llu,\"wall\":%llu,\"seats\":[{\"agent\":%d,\"label\":\"%s\","
                   "\"won\":%s,\"turn\":%d,\"points\":%d,\"han\":%d,\"fu\":%d,\"yakuman\":%d,"
                   "\"discards\":\"%s\"",
                   (unsigned long long)unit, (unsigned long long)wall, a->index, a->label,
                   g->won ? "true" : "false", g->turn, (int)g->points, g->han, g->fu, g->yakuman,
                   disc);
  if (illegal && n > 0 && (size_t)n < cap) {
    n += snprintf(line + n, cap - (size_t)n, ",\"illegal\":%d,\"illegal_first\":", illegal);
    if ((size_t)n < cap) n += tk_json_quote(illegal_first, line + n, cap - (size_t)n);
  }
  if (fault && n > 0 && (size_t)n < cap) {
    n += tk_fault_json(fault, line + n, cap - (size_t)n);
  } else if (reason && n > 0 && (size_t)n < cap) {
    n += snprintf(line + n, cap - (size_t)n, ",\"fault\":");
    if ((size_t)n < cap) n += tk_json_quote(reason, line + n, cap - (size_t)n);
  }
  if (n > 0 && (size_t)n < cap) n += snprintf(line + n, cap - (size_t)n, "}]}");
  return (n > 0 && (size_t)n < cap) ? 0 : TK_ERANGE;
}

static int play(const tk_play_ctx *ctx, uint64_t unit, uint64_t wall, const int *seating,
                tk_seat_agent *agents, char *line, size_t cap) {
  const tk_solo_rules *rules = ctx->rules;
  tk_seat_agent *a = &agents[seating[0]];
  tk_watch *wt = ctx->watch;
  uint8_t w[TK_SOLO_WALL_TILES];
  tk_solo_wall(ctx->seed, wall, w);
  tk_solo_game g;
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_solo_init(&g, w, rules, &err);
  if (rc) return rc;
  tk_solo_info info;
  memset(&info, 0, sizeof info);
  info.seed = tk_game_seed(ctx->seed, wall, 0, a->index);
  info.wall_index = wall;
  info.draws = g.draws;
  info.dora_indicator = g.dora_indicator;
  tk_fault f;
  memset(&f, 0, sizeof f);
  int illegal = 0;
  char illegal_first[128] = "";
  if (a->desc->begin_game) {
    tk_watch_call(wt, 0, a->index, TK_ENTRY_BEGIN);
    rc = a->desc->begin_game(a->inst, &info);
    tk_watch_leave(wt);
    if (!tk_watch_over(wt, 0, TK_ENTRY_BEGIN, &f) && rc < 0) {
      f.kind = TK_FAULT_ERROR;
      f.entry = TK_ENTRY_BEGIN;
      snprintf(f.detail, sizeof f.detail, "returned %d (%s)", rc, tk_strerror(rc));
    }
  }
  tk_solo_view view;
  tk_solo_legal legal;
  while (!f.kind && !tk_solo_is_over(&g)) {
    tk_solo_view_of(&g, &view);
    tk_solo_legal_of(&g, &legal);
    tk_solo_action act = {TK_TILE_NONE};
    tk_watch_decision(wt, &view, sizeof view);
    tk_watch_call(wt, 0, a->index, TK_ENTRY_ACT);
    rc = a->desc->act(a->inst, &view, &legal, &act);
    tk_watch_leave(wt);
    if (tk_watch_over(wt, 0, TK_ENTRY_ACT, &f)) {
      describe_view(&view, f.decision, sizeof f.decision);
    } else if (rc < 0) {
      f.kind = TK_FAULT_ERROR;
      f.entry = TK_ENTRY_ACT;
      snprintf(f.detail, sizeof f.detail, "returned %d (%s)", rc, tk_strerror(rc));
      describe_view(&view, f.decision, sizeof f.decision);
    } else if (act.discard >= TK_KINDS || !(legal.mask >> act.discard & 1)) {
      /* never applied: substituted by the fallback (discard the drawn tile) or forfeited */
      char what[96];
      snprintf(what, sizeof what, "discard of %s, which is not held",
               act.discard < TK_KINDS ? tk_tile_str(act.discard) : "no tile");
      if (!illegal++) snprintf(illegal_first, sizeof illegal_first, "turn %d: %s", g.turn, what);
      if (ctx->illegal_policy == 1) {
        tk_solo_discard_fast(&g, view.drawn);
      } else {
        f.kind = TK_FAULT_ILLEGAL;
        f.entry = TK_ENTRY_ACT;
        snprintf(f.detail, sizeof f.detail, "%s", what);
        describe_view(&view, f.decision, sizeof f.decision);
      }
    } else {
      tk_solo_discard_fast(&g, act.discard);
    }
  }
  if (f.kind) { /* forfeit: no win */
    g.won = 0;
    g.points = 0;
    g.han = g.fu = g.yakuman = 0;
  }
  if (a->desc->end_game) {
    tk_solo_result res;
    tk_solo_result_of(&g, &res);
    tk_watch_call(wt, 0, a->index, TK_ENTRY_END);
    a->desc->end_game(a->inst, &res);
    tk_watch_leave(wt);
    if (!f.kind && tk_watch_over(wt, 0, TK_ENTRY_END, &f)) {
      g.won = 0;
      g.points = 0;
      g.han = g.fu = g.yakuman = 0;
    }
  }
  return write_line(unit, wall, a, &g, f.kind ? &f : NULL, NULL, illegal, illegal_first, line,
                    cap);
}

static int fault_line(uint64_t unit, uint64_t wall, const int *seating, tk_seat_agent *agents,
                      int seat, const char *reason, char *line, size_t cap) {
  tk_solo_game g;
  memset(&g, 0, sizeof g);
  return write_line(unit, wall, &agents[seating[0]], &g, NULL, reason, 0, NULL, line, cap);
}

static int parse_line(json_t *line, tk_unit_result *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  json_t *seats = json_object_get(line, "seats");
  json_t *s0 = json_array_get(seats, 0);
  json_t *u = json_object_get(line, "unit"), *w = json_object_get(line, "wall");
  json_t *ag = json_object_get(s0, "agent"), *won = json_object_get(s0, "won");
  json_t *turn = json_object_get(s0, "turn"), *pts = json_object_get(s0, "points");
  if (!json_is_integer(u) || !json_is_integer(w) || json_array_size(seats) != 1 ||
      !json_is_integer(ag) || !json_is_boolean(won) || !json_is_integer(turn) ||
      !json_is_integer(pts))
    return tk_error_set(err, TK_EPARSE, -1, "not a solo games.jsonl line");
  out->unit = (uint64_t)json_integer_value(u);
  out->wall = (uint64_t)json_integer_value(w);
  out->nseats = 1;
  out->agent[0] = (int)json_integer_value(ag);
  out->fault[0] = json_object_get(s0, "fault") != NULL;
  double win = json_is_true(won) ? 1 : 0;
  out->q[0][Q_GAMES] = 1;
  out->q[0][Q_WIN] = win;
  out->q[0][Q_POINTS] = (double)json_integer_value(pts);
  out->q[0][Q_WINTURN] = win * (double)json_integer_value(turn);
  return 0;
}

const tk_game_driver tk_game_solo = {
    .name = "solo",
    .nseats = 1,
    .rules_size = sizeof(tk_solo_rules),
    .parse_rules = parse_rules,
    .play = play,
    .fault_line = fault_line,
    .parse_line = parse_line,
    .warm_up = tk_shanten_init,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
    .describe = describe,
};
