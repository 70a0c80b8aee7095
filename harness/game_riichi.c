/* harness/game_riichi.c — the referee's driver for four-player riichi (taikai/riichi.h).
 *
 * A unit is (game index, seating): game index w plays the walls tk_riichi_wall(seed, w, round,
 * honba), so every seating of a duplicate set meets the same wall whenever it reaches the same
 * (round, honba). Rules (the spec's "rules" object):
 *   {"length": "east" | "hanchan", "red_fives": true, "kyuushu": true, "agariyame": true,
 *    "extension": true, "start_points": 25000, "return_points": 30000,
 *    "uma": [20000, 10000, -10000, -20000], "logs": "FOLDER"}
 * With "logs", every game is also written as mjai-style JSON lines to FOLDER/unit-U.jsonl
 * (harness/riichi_log.h). The games.jsonl line of a unit:
 *   {"unit":U,"wall":W,"seats":[{"agent":I,"label":"L","points":P,"rank":R,"final":F,
 *    "hands":H,"wins":N,"deal_ins":N,"riichi":N,"calls":N,"win_points":N[,"fault":"why"]}, x4]}
 * A fault (crash, timeout, error return, illegal action) ends the game: the faulting seat
 * ranks 4th, the others by points (ties by seat order). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "game.h"
#include "riichi_log.h"
#include "taikai/riichi.h"

enum {
  Q_GAMES, Q_RANK1, Q_RANK2, Q_RANK3, Q_RANK4, Q_RANK, Q_POINTS, Q_HANDS, Q_WINS, Q_DEALINS,
  Q_RIICHI, Q_CALLS, Q_WINPOINTS, Q_COUNT
};
_Static_assert((int)Q_COUNT <= (int)TK_MAX_Q, "riichi needs TK_MAX_Q >= 13 (harness/game.h)");

static const tk_metric metrics[] = {
    {"rank_1_rate", "1st %", Q_RANK1, Q_GAMES, 1, 100.0, 1},
    {"rank_2_rate", "2nd %", Q_RANK2, Q_GAMES, 1, 100.0, 1},
    {"rank_3_rate", "3rd %", Q_RANK3, Q_GAMES, 1, 100.0, 1},
    {"rank_4_rate", "4th %", Q_RANK4, Q_GAMES, 1, 100.0, 1},
    {"mean_rank", "mean rank", Q_RANK, Q_GAMES, 0, 1.0, 3},
    {"mean_final_points", "final points", Q_POINTS, Q_GAMES, 0, 1.0, 0},
    {"win_rate", "win %", Q_WINS, Q_HANDS, 1, 100.0, 2},
    {"deal_in_rate", "deal-in %", Q_DEALINS, Q_HANDS, 1, 100.0, 2},
    {"riichi_rate", "riichi %", Q_RIICHI, Q_HANDS, 1, 100.0, 2},
    {"call_rate", "call %", Q_CALLS, Q_HANDS, 1, 100.0, 2},
    {"mean_win_points", "win points", Q_WINPOINTS, Q_WINS, 0, 1.0, 0},
};

/* The parsed rules: the engine's, and the log folder. */
typedef struct rules {
  tk_riichi_rules r;
  char logs[1024]; /* "" = no logs */
} rules;

static int bad(tk_error *err, const char *path, const char *key, json_t *v, const char *want) {
  char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  tk_error_set(err, TK_EINVAL, -1, "%s: field 'rules.%s': expected %s, got %s", path, key, want,
               s ? s : "?");
  free(s);
  return TK_EINVAL;
}

static int get_points(json_t *v, const char *path, const char *key, int32_t *out, tk_error *err) {
  if (!json_is_integer(v) || json_integer_value(v) < -1000000 || json_integer_value(v) > 1000000 ||
      json_integer_value(v) % 100)
    return bad(err, path, key, v, "a multiple of 100 within +-1000000");
  *out = (int32_t)json_integer_value(v);
  return 0;
}

static int parse_rules(json_t *in, void *out, json_t **resolved, const char *path, tk_error *err) {
  rules *rs = out;
  memset(rs, 0, sizeof *rs);
  tk_riichi_rules *r = &rs->r;
  *r = tk_riichi_default_rules();
  const char *key;
  json_t *v;
  json_object_foreach(in, key, v) {
    uint8_t *flag = !strcmp(key, "red_fives")   ? &r->red_fives
                    : !strcmp(key, "kyuushu")   ? &r->kyuushu
                    : !strcmp(key, "agariyame") ? &r->agariyame
                    : !strcmp(key, "extension") ? &r->extension
                                                : NULL;
    int rc = 0;
    if (flag) {
      if (!json_is_boolean(v)) return bad(err, path, key, v, "true or false");
      *flag = json_is_true(v);
    } else if (!strcmp(key, "length")) {
      const char *s = json_string_value(v);
      if (s && !strcmp(s, "east")) r->length = 1;
      else if (s && !strcmp(s, "hanchan")) r->length = 2;
      else return bad(err, path, key, v, "\"east\" or \"hanchan\"");
    } else if (!strcmp(key, "start_points")) {
      rc = get_points(v, path, key, &r->start_points, err);
    } else if (!strcmp(key, "return_points")) {
      rc = get_points(v, path, key, &r->return_points, err);
    } else if (!strcmp(key, "uma")) {
      if (json_array_size(v) != 4) return bad(err, path, key, v, "an array of 4 points");
      for (int i = 0; i < 4 && !rc; i++) rc = get_points(json_array_get(v, i), path, key, &r->uma[i], err);
    } else if (!strcmp(key, "logs")) {
      const char *s = json_string_value(v);
      if (!s || !*s || strlen(s) >= sizeof rs->logs) return bad(err, path, key, v, "a folder name");
      snprintf(rs->logs, sizeof rs->logs, "%s", s);
    } else {
      char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      tk_error_set(err, TK_EINVAL, -1,
                   "%s: field 'rules.%s': unknown rule for game 'riichi' (rules: length, red_fives, "
                   "kyuushu, agariyame, extension, start_points, return_points, uma, logs), got %s",
                   path, key, s ? s : "?");
      free(s);
      return TK_EINVAL;
    }
    if (rc) return rc;
  }
  if (r->start_points < 1000 || r->return_points < r->start_points)
    return tk_error_set(err, TK_EINVAL, -1,
                        "%s: field 'rules': start_points must be >= 1000 and return_points >= start_points",
                        path);
  *resolved = json_pack("{s:s, s:b, s:b, s:b, s:b, s:i, s:i, s:[i,i,i,i]}", "length",
                        r->length == 2 ? "hanchan" : "east", "red_fives", r->red_fives, "kyuushu",
                        r->kyuushu, "agariyame", r->agariyame, "extension", r->extension,
                        "start_points", (int)r->start_points, "return_points", (int)r->return_points,
                        "uma", (int)r->uma[0], (int)r->uma[1], (int)r->uma[2], (int)r->uma[3]);
  if (rs->logs[0]) json_object_set_new(*resolved, "logs", json_string(rs->logs));
  return 0;
}

/* Per-seat record of a unit. */
typedef struct seat_rec {
  int32_t points;
  int rank;
  int32_t final;
  tk_riichi_stats st;
} seat_rec;

static int write_line(uint64_t unit, uint64_t wall, const int *seating, const tk_seat_agent *agents,
                      const seat_rec *rec, int fault_seat, const char *fault, char *line, size_t cap) {
  int n = snprintf(line, cap, "{\"unit\":%llu,\"wall\":%llu,\"seats\":[", (unsigned long long)unit,
                   (unsigned long long)wall);
  for (int s = 0; s < 4 && n > 0 && (size_t)n < cap; s++) {
    const tk_seat_agent *a = &agents[seating[s]];
    const seat_rec *x = &rec[s];
    n += snprintf(line + n, cap - (size_t)n,
                  "%s{\"agent\":%d,\"label\":\"%s\",\"points\":%d,\"rank\":%d,\"final\":%d,"
                  "\"hands\":%d,\"wins\":%d,\"deal_ins\":%d,\"riichi\":%d,\"calls\":%d,"
                  "\"win_points\":%d",
                  s ? "," : "", a->index, a->label, (int)x->points, x->rank, (int)x->final,
                  x->st.hands, x->st.wins, x->st.deal_ins, x->st.riichi, x->st.calls,
                  (int)x->st.win_points);
    if (s == fault_seat && fault && (size_t)n < cap) {
      n += snprintf(line + n, cap - (size_t)n, ",\"fault\":");
      if ((size_t)n < cap) n += tk_json_quote(fault, line + n, cap - (size_t)n);
    }
    if ((size_t)n < cap) n += snprintf(line + n, cap - (size_t)n, "}");
  }
  if (n > 0 && (size_t)n < cap) n += snprintf(line + n, cap - (size_t)n, "]}");
  return (n > 0 && (size_t)n < cap) ? 0 : TK_ERANGE;
}

/* Ranks with a forfeiting seat last. */
static void fault_ranks(const int32_t *points, int fault_seat, seat_rec *rec) {
  for (int s = 0; s < 4; s++) {
    int r = 1;
    if (s == fault_seat) r = 4;
    else
      for (int o = 0; o < 4; o++)
        if (o != fault_seat && (points[o] > points[s] || (points[o] == points[s] && o < s))) r++;
    rec[s].rank = r;
  }
}

static int play(const tk_play_ctx *ctx, uint64_t unit, uint64_t wall, const int *seating,
                tk_seat_agent *agents, char *line, size_t cap) {
  const rules *rs = ctx->rules;
  tk_riichi_game g;
  tk_error err;
  tk_error_clear(&err);
  FILE *logf = NULL;
  tk_riichi_log log;
  tk_riichi_sink sink = {NULL, NULL};
  if (rs->logs[0]) {
    char path[1200];
    if (mkdir(rs->logs, 0777) && errno != EEXIST)
      return tk_error_set(&err, TK_EIO, -1, "riichi: cannot create %s", rs->logs);
    snprintf(path, sizeof path, "%s/unit-%08llu.jsonl", rs->logs, (unsigned long long)unit);
    if (!(logf = fopen(path, "w"))) return TK_EIO;
    const char *names[4];
    for (int s = 0; s < 4; s++) names[s] = agents[seating[s]].label;
    sink = tk_riichi_log_sink(&log, logf, names, &rs->r);
  }
  int rc = tk_riichi_init(&g, &rs->r, ctx->seed, wall, &sink, &err);
  if (rc) {
    if (logf) fclose(logf);
    return rc;
  }
  char fault[400] = "";
  int fault_seat = -1;
  for (int s = 0; s < 4 && fault_seat < 0; s++) {
    tk_seat_agent *a = &agents[seating[s]];
    tk_riichi_info info;
    memset(&info, 0, sizeof info);
    info.seed = tk_game_seed(ctx->seed, wall, s, a->index);
    info.game_index = wall;
    info.seat = (uint8_t)s;
    info.length = rs->r.length;
    info.red_fives = rs->r.red_fives;
    info.start_points = rs->r.start_points;
    info.return_points = rs->r.return_points;
    if (a->desc->begin_game) {
      tk_watch_enter(ctx->watch, s);
      int r2 = a->desc->begin_game(a->inst, &info);
      tk_watch_leave(ctx->watch);
      if (r2 < 0) {
        fault_seat = s;
        snprintf(fault, sizeof fault, "begin_game failed: %s", tk_strerror(r2));
      }
    }
  }
  tk_riichi_view v;
  tk_riichi_legal l;
  while (fault_seat < 0 && !tk_riichi_is_over(&g)) {
    if (g.phase == TK_RIICHI_PHASE_DEAL) {
      if ((rc = tk_riichi_deal(&g, NULL, &sink, &err))) break;
      continue;
    }
    int s = tk_riichi_to_act(&g);
    tk_seat_agent *a = &agents[seating[s]];
    tk_riichi_view_of(&g, s, &v);
    tk_riichi_legal_of(&g, s, &l);
    tk_riichi_action act;
    memset(&act, 0, sizeof act);
    act.type = TK_RIICHI_ACT_COUNT;
    tk_watch_enter(ctx->watch, s);
    int r2 = a->desc->act(a->inst, &v, &l, &act);
    tk_watch_leave(ctx->watch);
    if (r2 < 0) {
      fault_seat = s;
      snprintf(fault, sizeof fault, "act failed in hand %d: %s", g.hands, tk_strerror(r2));
    } else {
      tk_error_clear(&err);
      if (tk_riichi_apply(&g, s, &act, &sink, &err)) {
        fault_seat = s;
        snprintf(fault, sizeof fault, "illegal action in hand %d: %s", g.hands, err.msg);
      }
    }
  }
  if (logf) fclose(logf);
  if (rc) return rc;
  tk_riichi_result res;
  tk_riichi_result_of(&g, &res);
  seat_rec rec[4];
  for (int s = 0; s < 4; s++) {
    rec[s].points = res.points[s];
    rec[s].rank = res.rank[s];
    rec[s].final = res.final_score[s];
    rec[s].st = res.stats[s];
  }
  if (fault_seat >= 0) fault_ranks(res.points, fault_seat, rec);
  for (int s = 0; s < 4; s++) {
    tk_seat_agent *a = &agents[seating[s]];
    if (!a->desc->end_game) continue;
    tk_watch_enter(ctx->watch, s);
    a->desc->end_game(a->inst, &res);
    tk_watch_leave(ctx->watch);
  }
  return write_line(unit, wall, seating, agents, rec, fault_seat, fault_seat >= 0 ? fault : NULL,
                    line, cap);
}

static int fault_line(uint64_t unit, uint64_t wall, const int *seating, tk_seat_agent *agents,
                      int seat, const char *reason, char *line, size_t cap) {
  seat_rec rec[4];
  int32_t pts[4] = {0, 0, 0, 0};
  memset(rec, 0, sizeof rec);
  fault_ranks(pts, seat, rec);
  return write_line(unit, wall, seating, agents, rec, seat, reason, line, cap);
}

static int parse_line(json_t *line, tk_unit_result *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  json_t *seats = json_object_get(line, "seats");
  json_t *u = json_object_get(line, "unit"), *w = json_object_get(line, "wall");
  if (!json_is_integer(u) || !json_is_integer(w) || json_array_size(seats) != 4)
    return tk_error_set(err, TK_EPARSE, -1, "not a riichi games.jsonl line");
  out->unit = (uint64_t)json_integer_value(u);
  out->wall = (uint64_t)json_integer_value(w);
  out->nseats = 4;
  static const char *const keys[] = {"hands", "wins", "deal_ins", "riichi", "calls", "win_points"};
  static const int q[] = {Q_HANDS, Q_WINS, Q_DEALINS, Q_RIICHI, Q_CALLS, Q_WINPOINTS};
  for (int s = 0; s < 4; s++) {
    json_t *x = json_array_get(seats, (size_t)s);
    json_t *ag = json_object_get(x, "agent"), *rk = json_object_get(x, "rank");
    json_t *pt = json_object_get(x, "points");
    if (!json_is_integer(ag) || !json_is_integer(rk) || !json_is_integer(pt) ||
        json_integer_value(rk) < 1 || json_integer_value(rk) > 4)
      return tk_error_set(err, TK_EPARSE, -1, "riichi games.jsonl: bad seat %d", s);
    out->agent[s] = (int)json_integer_value(ag);
    out->fault[s] = json_object_get(x, "fault") != NULL;
    int rank = (int)json_integer_value(rk);
    double *qs = out->q[s];
    qs[Q_GAMES] = 1;
    qs[Q_RANK1 + rank - 1] = 1;
    qs[Q_RANK] = rank;
    qs[Q_POINTS] = (double)json_integer_value(pt);
    for (int i = 0; i < 6; i++) {
      json_t *v = json_object_get(x, keys[i]);
      if (!json_is_integer(v)) return tk_error_set(err, TK_EPARSE, -1, "riichi games.jsonl: no %s", keys[i]);
      qs[q[i]] = (double)json_integer_value(v);
    }
  }
  return 0;
}

const tk_game_driver tk_game_riichi = {
    .name = "riichi",
    .nseats = 4,
    .rules_size = sizeof(rules),
    .parse_rules = parse_rules,
    .play = play,
    .fault_line = fault_line,
    .parse_line = parse_line,
    .warm_up = tk_shanten_init,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
};
