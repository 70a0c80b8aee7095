/* harness/games/riichi.c — the referee's driver for four-player riichi (taikai/riichi.h).
 *
 * A unit is (game index, seating): game index w plays the walls tk_riichi_wall(seed, w, round,
 * honba), so every seating of a duplicate set meets the same wall whenever it reaches the same
 * (round, honba). Rules (the spec's "rules" object):
 *   {"length": "east" | "hanchan", "red_fives": true, "kyuushu": true, "agariyame": true,
 *    "extension": true, "start_points": 25000, "return_points": 30000,
 *    "uma": [20000, 10000, -10000, -20000]}
 * With `taikai run --logs`, every game is also written as mjai-style JSON lines to
 * <out>/logs/unit-U.jsonl (harness/games/riichi_log.h). The games.jsonl line of a unit:
 *   {"unit":U,"wall":W,"seats":[{"agent":I,"label":"L","points":P,"rank":R,"final":F,
 *    "hands":H,"wins":N,"deal_ins":N,"riichi":N,"calls":N,"win_points":N
 *    [,"illegal":N,"illegal_first":"..."][,"fault":"why","fault_info":{...}]}, x4]}
 *
 * Faults (docs/referee.md, "Fault policy"): an agent that faults in any way (crash, exit,
 * time-out, memory, error return, illegal action under illegal_policy "forfeit") is replaced,
 * and the unit is played again from its start with the game's fallback agent
 * (tk_riichi_fallback: tsumogiri, pass) in that seat; faults the worker sees itself are
 * replayed here, crashes and kills by the pool (ctx->fallback_seats). The other seats get a
 * complete, reproducible game; a faulted seat gets the worst result: ranked below every seat
 * that did not fault (faulted seats among themselves by seat order), the game's lowest points,
 * its final score recomputed for that rank, and the game's hands with no wins, deal-ins,
 * riichi or calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "game.h"
#include "riichi_log.h"
#include "taikai/riichi.h"

enum {
  Q_GAMES, Q_RANK1, Q_RANK2, Q_RANK3, Q_RANK4, Q_RANK, Q_POINTS, Q_HANDS, Q_WINS, Q_DEALINS,
  Q_RIICHI, Q_CALLS, Q_WINPOINTS,
  Q_OPP_HANDS, /* the three opponents' hands in the agent's games (3 x hands) */
  Q_OPP_WINS, Q_OPP_DEALINS, Q_COUNT
};
_Static_assert((int)Q_COUNT <= (int)TK_MAX_Q, "riichi needs TK_MAX_Q >= 16 (harness/core/game.h)");

/* Paper 000's tables 6 and 7 report, beside an agent's own win and deal-in rates, its
 * opponents' mean rates: the wins and deal-ins of the other three seats over their hands in
 * the same games, i.e. the mean of the three opponents' rates.
 * Ranges: rates are proportions (a hand has at most one win, deal-in, riichi declaration and
 * open hand); a rank lies in 1..4; a win pays more than 0 (yakuman stack: no upper bound);
 * final points are not bounded. */
static const tk_metric metrics[] = {
    {.name = "rank_1_rate", .title = "1st %", .num = Q_RANK1, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 1},
    {.name = "rank_2_rate", .title = "2nd %", .num = Q_RANK2, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 1},
    {.name = "rank_3_rate", .title = "3rd %", .num = Q_RANK3, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 1},
    {.name = "rank_4_rate", .title = "4th %", .num = Q_RANK4, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 1},
    {.name = "mean_rank", .title = "mean rank", .num = Q_RANK, .den = Q_GAMES,
     .scale = 1.0, .decimals = 3, .bounded = TK_BOUND_BOTH, .lo = 1, .hi = 4},
    {.name = "mean_final_points", .title = "final points", .num = Q_POINTS, .den = Q_GAMES,
     .scale = 1.0, .decimals = 0},
    {.name = "win_rate", .title = "win %", .num = Q_WINS, .den = Q_HANDS,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "deal_in_rate", .title = "deal-in %", .num = Q_DEALINS, .den = Q_HANDS,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "riichi_rate", .title = "riichi %", .num = Q_RIICHI, .den = Q_HANDS,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "call_rate", .title = "call %", .num = Q_CALLS, .den = Q_HANDS,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "mean_win_points", .title = "win points", .num = Q_WINPOINTS, .den = Q_WINS,
     .scale = 1.0, .decimals = 0, .bounded = TK_BOUND_LO, .lo = 0},
    {.name = "opponents_win_rate", .title = "opp win %", .num = Q_OPP_WINS, .den = Q_OPP_HANDS,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "opponents_deal_in_rate", .title = "opp deal-in %", .num = Q_OPP_DEALINS,
     .den = Q_OPP_HANDS, .proportion = 1, .scale = 100.0, .decimals = 2},
};

/* The parsed rules. */
typedef struct rules {
  tk_riichi_rules r;
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
    } else {
      char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      tk_error_set(err, TK_EINVAL, -1,
                   "%s: field 'rules.%s': unknown rule for game 'riichi' (rules: length, red_fives, "
                   "kyuushu, agariyame, extension, start_points, return_points, uma; game logs: taikai "
                   "run --logs), got %s",
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
  return 0;
}

/* ------------------------------------------------------------------ decisions in fault reasons */

/* What tk_watch_decision records before each decision, read back by describe(). */
typedef struct snap {
  uint8_t seat, phase, round, honba, nhand, drawn, last_tile, actor;
  uint8_t tiles[14];
} snap;

static void snap_of(const tk_riichi_view *v, snap *out) {
  memset(out, 0, sizeof *out);
  out->seat = v->seat;
  out->phase = v->phase;
  out->round = v->round;
  out->honba = v->honba;
  out->nhand = v->nhand <= 14 ? v->nhand : 14;
  out->drawn = v->drawn;
  out->last_tile = v->last_tile;
  out->actor = v->actor;
  memcpy(out->tiles, v->tiles, out->nhand);
}

/* "East 2, honba 1, seat 3: hand 123m456p..., drew 5p" or "..., on 5p from seat 1". */
static void describe_snap(const snap *x, char *buf, size_t cap) {
  char hand[64] = "";
  if (x->nhand) tk_tiles_format((const tk_tile *)x->tiles, x->nhand, hand, sizeof hand);
  static const char *const winds[] = {"East", "South", "West", "North"};
  int n = snprintf(buf, cap, "%s %d, honba %d, seat %d: hand %s", winds[(x->round / 4) & 3],
                   x->round % 4 + 1, x->honba, x->seat, hand);
  if (n < 0 || (size_t)n >= cap) return;
  if (x->phase == TK_RIICHI_PHASE_REACT)
    snprintf(buf + n, cap - (size_t)n, ", on %s from seat %d",
             x->last_tile < 0x80 ? tk_tile_str(x->last_tile) : "-", x->actor);
  else if (x->drawn < 0x80)
    snprintf(buf + n, cap - (size_t)n, ", drew %s", tk_tile_str(x->drawn));
  else
    snprintf(buf + n, cap - (size_t)n, ", after a call");
}

static void describe(const void *data, size_t len, char *buf, size_t cap) {
  if (len < sizeof(snap)) {
    snprintf(buf, cap, "before the first decision");
    return;
  }
  snap x;
  memcpy(&x, data, sizeof x);
  describe_snap(&x, buf, cap);
}

/* "pon of 5p with 5p0p", "discard of 3m (drawn)", ... for illegal-action reports. */
static void describe_action(const tk_riichi_action *a, char *buf, size_t cap) {
  static const char *const names[] = {"discard", "riichi", "tsumo", "ankan", "kakan", "kyuushu",
                                      "ron", "pon", "minkan", "chi", "pass"};
  const char *name = a->type < TK_RIICHI_ACT_COUNT ? names[a->type] : "unknown action";
  int n = snprintf(buf, cap, "%s", name);
  if (a->type >= TK_RIICHI_ACT_COUNT) {
    snprintf(buf + n, cap - (size_t)n, " (type %d)", a->type);
    return;
  }
  if (a->type != TK_RIICHI_PASS && a->type != TK_RIICHI_KYUUSHU && a->type != TK_RIICHI_TSUMO)
    n += snprintf(buf + n, cap - (size_t)n, " of %s", a->tile < 0x80 ? tk_tile_str(a->tile) : "no tile");
  if ((a->type == TK_RIICHI_PON || a->type == TK_RIICHI_CHI) && (size_t)n < cap)
    snprintf(buf + n, cap - (size_t)n, " with %s%s",
             a->consumed[0] < 0x80 ? tk_tile_str(a->consumed[0]) : "-",
             a->consumed[1] < 0x80 ? tk_tile_str(a->consumed[1]) : "-");
}

/* ------------------------------------------------------------------ playing a unit */

/* Per-seat record of a unit. */
typedef struct seat_rec {
  int32_t points;
  int rank;
  int32_t final;
  tk_riichi_stats st;
  int illegal;            /* illegal actions substituted (illegal_policy substitute) */
  char illegal_first[192];
} seat_rec;

static int write_line(uint64_t unit, uint64_t wall, const int *seating, const tk_seat_agent *agents,
                      const seat_rec *rec, unsigned forfeit, const tk_fault *faults,
                      const char *reason, char *line, size_t cap) {
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
    if (x->illegal && (size_t)n < cap) {
      n += snprintf(line + n, cap - (size_t)n, ",\"illegal\":%d,\"illegal_first\":", x->illegal);
      if ((size_t)n < cap) n += tk_json_quote(x->illegal_first, line + n, cap - (size_t)n);
    }
    if ((forfeit >> s & 1) && (size_t)n < cap) {
      if (faults && faults[s].kind) {
        n += tk_fault_json(&faults[s], line + n, cap - (size_t)n);
      } else { /* a crash or kill the pool stamps over this (tk_fault_stamp) */
        n += snprintf(line + n, cap - (size_t)n, ",\"fault\":");
        if ((size_t)n < cap) n += tk_json_quote(reason, line + n, cap - (size_t)n);
      }
    }
    if ((size_t)n < cap) n += snprintf(line + n, cap - (size_t)n, "}");
  }
  if (n > 0 && (size_t)n < cap) n += snprintf(line + n, cap - (size_t)n, "]}");
  return (n > 0 && (size_t)n < cap) ? 0 : TK_ERANGE;
}

/* The records of a finished game in which the seats of `forfeit` faulted: those rank below
 * every other seat (among themselves by seat order), get the game's lowest points, their hands
 * but no wins, deal-ins, riichi or calls; final scores follow the ranks. */
static void forfeit_records(const tk_riichi_rules *r, unsigned forfeit, seat_rec *rec) {
  if (!forfeit) return;
  int32_t low = rec[0].points;
  for (int s = 1; s < 4; s++)
    if (rec[s].points < low) low = rec[s].points;
  for (int s = 0; s < 4; s++) {
    int fs = forfeit >> s & 1, rank = 1;
    for (int o = 0; o < 4; o++) {
      if (o == s) continue;
      int fo = forfeit >> o & 1;
      if (fs != fo ? fs : (fs ? o < s : rec[o].points > rec[s].points || (rec[o].points == rec[s].points && o < s)))
        rank++;
    }
    rec[s].rank = rank;
  }
  for (int s = 0; s < 4; s++) {
    if (forfeit >> s & 1) {
      rec[s].points = low;
      uint16_t hands = rec[s].st.hands;
      memset(&rec[s].st, 0, sizeof rec[s].st);
      rec[s].st.hands = hands;
    }
    rec[s].final = rec[s].points - r->return_points + r->uma[rec[s].rank - 1] +
                   (rec[s].rank == 1 ? 4 * (r->return_points - r->start_points) : 0);
  }
}

/* One try at the unit with the seats of `fallback` played by tk_riichi_fallback. Returns a
 * TK_E code for a referee failure; else 0 with *fault_seat = -1 and the records filled, or
 * with *fault_seat = the seat whose agent faulted (its fault in faults[seat]). */
static int try_unit(const tk_play_ctx *ctx, uint64_t unit, uint64_t wall, const int *seating,
                    tk_seat_agent *agents, unsigned fallback, const char *log_path,
                    seat_rec *rec, tk_fault *faults, int *fault_seat) {
  const rules *rs = ctx->rules;
  tk_watch *wt = ctx->watch;
  tk_riichi_game g;
  tk_error err;
  tk_error_clear(&err);
  *fault_seat = -1;
  memset(rec, 0, 4 * sizeof *rec);
  tk_watch_unit(wt, unit);
  FILE *logf = NULL;
  tk_riichi_log log;
  tk_riichi_sink sink = {NULL, NULL};
  char names[4][80];
  if (log_path) {
    if (!(logf = fopen(log_path, "w")))
      return tk_error_set(&err, TK_EIO, -1, "riichi: cannot write %s", log_path);
    const char *np[4];
    for (int s = 0; s < 4; s++) {
      snprintf(names[s], sizeof names[s], "%s%s", agents[seating[s]].label,
               fallback >> s & 1 ? " (fallback)" : "");
      np[s] = names[s];
    }
    sink = tk_riichi_log_sink(&log, logf, np, &rs->r);
  }
  int rc = tk_riichi_init(&g, &rs->r, ctx->seed, wall, &sink, &err);
  tk_fault *f = NULL;
  for (int s = 0; s < 4 && !rc && !f; s++) {
    tk_seat_agent *a = &agents[seating[s]];
    if ((fallback >> s & 1) || !a->desc->begin_game) continue;
    tk_riichi_info info;
    memset(&info, 0, sizeof info);
    info.seed = tk_game_seed(ctx->seed, wall, s, a->index);
    info.game_index = wall;
    info.seat = (uint8_t)s;
    info.length = rs->r.length;
    info.red_fives = rs->r.red_fives;
    info.start_points = rs->r.start_points;
    info.return_points = rs->r.return_points;
    tk_watch_call(wt, s, a->index, TK_ENTRY_BEGIN);
    int r2 = a->desc->begin_game(a->inst, &info);
    tk_watch_leave(wt);
    tk_fault *fs = &faults[s];
    memset(fs, 0, sizeof *fs);
    if (tk_watch_over(wt, s, TK_ENTRY_BEGIN, fs)) {
      f = fs;
    } else if (r2 < 0) {
      f = fs;
      f->kind = TK_FAULT_ERROR;
      f->entry = TK_ENTRY_BEGIN;
      snprintf(f->detail, sizeof f->detail, "returned %d (%s)", r2, tk_strerror(r2));
    }
  }
  tk_riichi_view v;
  tk_riichi_legal l;
  snap sn;
  while (!rc && !f && !tk_riichi_is_over(&g)) {
    if (g.phase == TK_RIICHI_PHASE_DEAL) {
      rc = tk_riichi_deal(&g, NULL, &sink, &err);
      continue;
    }
    int s = tk_riichi_to_act(&g);
    tk_riichi_legal_of(&g, s, &l);
    int pick = tk_riichi_fallback(&l);
    if (fallback >> s & 1) {
      if (pick < 0) rc = tk_error_set(&err, TK_ESTATE, -1, "riichi: no fallback action");
      else rc = tk_riichi_apply(&g, s, &l.a[pick], &sink, &err);
      continue;
    }
    tk_seat_agent *a = &agents[seating[s]];
    tk_riichi_view_of(&g, s, &v);
    snap_of(&v, &sn);
    tk_riichi_action act;
    memset(&act, 0, sizeof act);
    act.type = TK_RIICHI_ACT_COUNT;
    tk_watch_decision(wt, &sn, sizeof sn);
    tk_watch_call(wt, s, a->index, TK_ENTRY_ACT);
    int r2 = a->desc->act(a->inst, &v, &l, &act);
    tk_watch_leave(wt);
    tk_fault *fs = &faults[s];
    memset(fs, 0, sizeof *fs);
    if (tk_watch_over(wt, s, TK_ENTRY_ACT, fs)) {
      f = fs;
      describe_snap(&sn, f->decision, sizeof f->decision);
      break;
    }
    if (r2 < 0) {
      f = fs;
      f->kind = TK_FAULT_ERROR;
      f->entry = TK_ENTRY_ACT;
      snprintf(f->detail, sizeof f->detail, "returned %d (%s)", r2, tk_strerror(r2));
      describe_snap(&sn, f->decision, sizeof f->decision);
      break;
    }
    tk_error_clear(&err);
    if (!tk_riichi_apply(&g, s, &act, &sink, &err)) continue;
    /* never applied: the fallback action instead, or a forfeit */
    char what[96];
    describe_action(&act, what, sizeof what);
    if (ctx->illegal_policy == 1 && pick >= 0) {
      if (!rec[s].illegal++) {
        char where[160];
        describe_snap(&sn, where, sizeof where);
        /* at most 100 + 2 + 78 + 11 characters: fits illegal_first[192] */
        snprintf(rec[s].illegal_first, sizeof rec[s].illegal_first, "%.100s: %.78s, not legal",
                 where, what);
      }
      tk_error_clear(&err);
      rc = tk_riichi_apply(&g, s, &l.a[pick], &sink, &err);
    } else {
      f = fs;
      f->kind = TK_FAULT_ILLEGAL;
      f->entry = TK_ENTRY_ACT;
      snprintf(f->detail, sizeof f->detail, "%s, not legal", what);
      describe_snap(&sn, f->decision, sizeof f->decision);
    }
  }
  if (logf && fclose(logf) && !rc) rc = tk_error_set(&err, TK_EIO, -1, "riichi: cannot write %s", log_path);
  if (rc) return rc;
  if (f) {
    f->seat = (int)(f - faults);
    *fault_seat = f->seat;
    return 0;
  }
  tk_riichi_result res;
  tk_riichi_result_of(&g, &res);
  for (int s = 0; s < 4; s++) {
    rec[s].points = res.points[s];
    rec[s].rank = res.rank[s];
    rec[s].final = res.final_score[s];
    rec[s].st = res.stats[s];
  }
  for (int s = 0; s < 4; s++) {
    tk_seat_agent *a = &agents[seating[s]];
    if ((fallback >> s & 1) || !a->desc->end_game) continue;
    tk_watch_call(wt, s, a->index, TK_ENTRY_END);
    a->desc->end_game(a->inst, &res);
    tk_watch_leave(wt);
    memset(&faults[s], 0, sizeof faults[s]);
    if (tk_watch_over(wt, s, TK_ENTRY_END, &faults[s])) {
      faults[s].seat = s;
      *fault_seat = s;
      return 0;
    }
  }
  return 0;
}

static int play(const tk_play_ctx *ctx, uint64_t unit, uint64_t wall, const int *seating,
                tk_seat_agent *agents, char *line, size_t cap) {
  const rules *rs = ctx->rules;
  unsigned fallback = ctx->fallback_seats & 15u;
  tk_fault faults[4];
  memset(faults, 0, sizeof faults);
  seat_rec rec[4];
  char log_path[1200], tmp_path[1250];
  if (ctx->logs_dir) {
    snprintf(log_path, sizeof log_path, "%s/unit-%08llu.jsonl", ctx->logs_dir, (unsigned long long)unit);
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", log_path);
  }
  for (;;) {
    int seat;
    tk_fault tries[4];
    memcpy(tries, faults, sizeof tries);
    int rc = try_unit(ctx, unit, wall, seating, agents, fallback, ctx->logs_dir ? tmp_path : NULL,
                      rec, tries, &seat);
    if (rc) return rc;
    if (seat < 0) break;
    faults[seat] = tries[seat];
    fallback |= 1u << seat; /* replay the unit from its start with the fallback there */
  }
  if (ctx->logs_dir && rename(tmp_path, log_path)) return TK_EIO;
  forfeit_records(&rs->r, fallback, rec);
  return write_line(unit, wall, seating, agents, rec, fallback, faults,
                    "replayed with the fallback agent after a crash", line, cap);
}

/* Only for the policies' bookkeeping of a unit that could not be played at all. */
static int fault_line(uint64_t unit, uint64_t wall, const int *seating, tk_seat_agent *agents,
                      int seat, const char *reason, char *line, size_t cap) {
  seat_rec rec[4];
  memset(rec, 0, sizeof rec);
  tk_riichi_rules r = tk_riichi_default_rules();
  forfeit_records(&r, 1u << (seat & 3), rec);
  return write_line(unit, wall, seating, agents, rec, 1u << (seat & 3), NULL, reason, line, cap);
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
  for (int s = 0; s < 4; s++)
    for (int o = 0; o < 4; o++)
      if (o != s) {
        out->q[s][Q_OPP_HANDS] += out->q[o][Q_HANDS];
        out->q[s][Q_OPP_WINS] += out->q[o][Q_WINS];
        out->q[s][Q_OPP_DEALINS] += out->q[o][Q_DEALINS];
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
    .describe = describe,
    .fallback = 1,
    .logs = 1,
};
