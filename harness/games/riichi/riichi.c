/* harness/games/riichi/riichi.c — four-player riichi (taikai/riichi.h) as the referee sees it.
 *
 * A unit is (game index, seating): game index w plays the walls tk_riichi_wall(seed, w, round,
 * honba), so every seating of a duplicate set meets the same wall whenever it reaches the same
 * (round, honba). Rules (the spec's "rules" object):
 *   {"length": "east" | "hanchan", "red_fives": true, "kyuushu": true, "agariyame": true,
 *    "extension": true, "start_points": 25000, "return_points": 30000,
 *    "uma": [20000, 10000, -10000, -20000]}
 * With `taikai run --logs`, every game is also written as mjai-style JSON lines to
 * <out>/logs/unit-U.jsonl (harness/games/riichi/riichi_log.h). A seat's result fields, in the order
 * games.jsonl writes them: "points", "rank", "final", "hands", "wins", "deal_ins", "riichi",
 * "calls", "win_points".
 *
 * The fallback action is tk_riichi_fallback's (the drawn tile, else the first discard, else
 * pass). A faulted seat, played out by the fallback (harness/core/loop.h), gets the worst
 * result: ranked below every seat that did not fault (faulted seats among themselves by seat
 * order), the game's lowest points, its final score recomputed for that rank, and the game's
 * hands with no wins, deal-ins, riichi or calls; the other seats keep their complete game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "logtext.h"
#include "riichi_cmd.h"
#include "riichi_log.h"
#include "taikai/riichi.h"

enum {
  F_POINTS, F_RANK, F_FINAL, F_HANDS, F_WINS, F_DEALINS, F_RIICHI, F_CALLS, F_WINPOINTS, F_COUNT
};
enum {
  Q_GAMES, Q_RANK1, Q_RANK2, Q_RANK3, Q_RANK4, Q_RANK, Q_POINTS, Q_HANDS, Q_WINS, Q_DEALINS,
  Q_RIICHI, Q_CALLS, Q_WINPOINTS,
  Q_OPP_HANDS, /* the three opponents' hands in the agent's games (3 x hands) */
  Q_OPP_WINS, Q_OPP_DEALINS, Q_COUNT
};
_Static_assert((int)Q_COUNT <= (int)TK_MAX_Q, "riichi needs TK_MAX_Q >= 16 (harness/core/game.h)");

static const tk_field fields_def[F_COUNT] = {
    [F_POINTS] = {"points", TK_FIELD_INT},     [F_RANK] = {"rank", TK_FIELD_INT},
    [F_FINAL] = {"final", TK_FIELD_INT},       [F_HANDS] = {"hands", TK_FIELD_INT},
    [F_WINS] = {"wins", TK_FIELD_INT},         [F_DEALINS] = {"deal_ins", TK_FIELD_INT},
    [F_RIICHI] = {"riichi", TK_FIELD_INT},     [F_CALLS] = {"calls", TK_FIELD_INT},
    [F_WINPOINTS] = {"win_points", TK_FIELD_INT},
};

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

/* The part of a view a fault reason shows. */
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

static void describe(const void *view, char *buf, size_t cap) {
  snap x;
  snap_of(view, &x);
  describe_snap(&x, buf, cap);
}

/* "pon of 5p with 5p0p", "discard of 3m (drawn)", ... for illegal-action reports. */
static void describe_action(const void *action, char *buf, size_t cap) {
  const tk_riichi_action *a = action;
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

/* ------------------------------------------------------------------ a unit */

typedef struct state {
  tk_riichi_game g;
  const rules *rs;
  tk_riichi_log log;
  tk_riichi_sink sink; /* to `log`, or empty */
} state;

static int start(void *st, const tk_unit_start *u, tk_error *err) {
  state *x = st;
  x->rs = u->rules;
  x->sink = (tk_riichi_sink){NULL, NULL};
  if (u->log) x->sink = tk_riichi_log_sink(&x->log, u->log, u->names, &x->rs->r);
  return tk_riichi_init(&x->g, &x->rs->r, u->seed, u->wall, &x->sink, err);
}

static void info(const void *st, int seat, void *out) {
  const state *x = st;
  tk_riichi_info *i = out;
  i->length = x->rs->r.length;
  i->red_fives = x->rs->r.red_fives;
  i->start_points = x->rs->r.start_points;
  i->return_points = x->rs->r.return_points;
}

static int to_act(void *st, tk_error *err) {
  state *x = st;
  while (!tk_riichi_is_over(&x->g)) {
    if (x->g.phase != TK_RIICHI_PHASE_DEAL) return tk_riichi_to_act(&x->g);
    int rc = tk_riichi_deal(&x->g, NULL, &x->sink, err);
    if (rc) return rc;
  }
  return -1;
}

static void view(const void *st, int seat, void *out) {
  tk_riichi_view_of(&((const state *)st)->g, seat, out);
}

static void legal(const void *st, int seat, void *out) {
  tk_riichi_legal_of(&((const state *)st)->g, seat, out);
}

static int apply(void *st, int seat, const void *action, tk_error *err) {
  state *x = st;
  return tk_riichi_apply(&x->g, seat, action, &x->sink, err);
}

static void fallback(const void *st, int seat, const void *legal_, void *action) {
  const tk_riichi_legal *l = legal_;
  int pick = tk_riichi_fallback(l);
  if (pick >= 0) *(tk_riichi_action *)action = l->a[pick];
  else memset(action, 0xff, sizeof(tk_riichi_action)); /* refused by apply: a referee failure */
}

static void canonical(const void *legal_, void *action) {
  const tk_riichi_legal *l = legal_;
  int i = tk_riichi_legal_find(l, action);
  if (i >= 0) *(tk_riichi_action *)action = l->a[i];
}

static void result(const void *st, void *out) { tk_riichi_result_of(&((const state *)st)->g, out); }

static void fields(const void *st, tk_unit_rec *rec) {
  tk_riichi_result res;
  tk_riichi_result_of(&((const state *)st)->g, &res);
  for (int s = 0; s < 4; s++) {
    int64_t *f = rec->seat[s].f;
    const tk_riichi_stats *t = &res.stats[s];
    f[F_POINTS] = res.points[s];
    f[F_RANK] = res.rank[s];
    f[F_FINAL] = res.final_score[s];
    f[F_HANDS] = t->hands;
    f[F_WINS] = t->wins;
    f[F_DEALINS] = t->deal_ins;
    f[F_RIICHI] = t->riichi;
    f[F_CALLS] = t->calls;
    f[F_WINPOINTS] = t->win_points;
  }
}

/* Does seat o rank above seat s? Seats that did not fault rank above those that did; faulted
 * seats among themselves by seat order; the others by points, ties to the lower seat. */
static int ranks_above(const tk_unit_rec *rec, unsigned forfeit, int o, int s) {
  int fo = forfeit >> o & 1, fs = forfeit >> s & 1;
  if (fo != fs) return fs;
  if (fs) return o < s;
  int64_t po = rec->seat[o].f[F_POINTS], ps = rec->seat[s].f[F_POINTS];
  return po > ps || (po == ps && o < s);
}

static void forfeit(const void *rules_, unsigned mask, tk_unit_rec *rec) {
  const tk_riichi_rules *r = &((const rules *)rules_)->r;
  int64_t low = rec->seat[0].f[F_POINTS];
  for (int s = 1; s < 4; s++)
    if (rec->seat[s].f[F_POINTS] < low) low = rec->seat[s].f[F_POINTS];
  int rank[4];
  for (int s = 0; s < 4; s++) {
    rank[s] = 1;
    for (int o = 0; o < 4; o++)
      if (o != s && ranks_above(rec, mask, o, s)) rank[s]++;
  }
  for (int s = 0; s < 4; s++) {
    int64_t *f = rec->seat[s].f;
    f[F_RANK] = rank[s];
    if (mask >> s & 1) {
      f[F_POINTS] = low;
      f[F_WINS] = f[F_DEALINS] = f[F_RIICHI] = f[F_CALLS] = f[F_WINPOINTS] = 0;
    }
    f[F_FINAL] = f[F_POINTS] - r->return_points + r->uma[rank[s] - 1] +
                 (rank[s] == 1 ? 4 * (r->return_points - r->start_points) : 0);
  }
}

static void quantities(const tk_unit_rec *rec, double q[][TK_MAX_Q]) {
  for (int s = 0; s < 4; s++) {
    const int64_t *f = rec->seat[s].f;
    double *x = q[s];
    int rank = f[F_RANK] >= 1 && f[F_RANK] <= 4 ? (int)f[F_RANK] : 4;
    x[Q_GAMES] = 1;
    x[Q_RANK1 + rank - 1] = 1;
    x[Q_RANK] = rank;
    x[Q_POINTS] = (double)f[F_POINTS];
    x[Q_HANDS] = (double)f[F_HANDS];
    x[Q_WINS] = (double)f[F_WINS];
    x[Q_DEALINS] = (double)f[F_DEALINS];
    x[Q_RIICHI] = (double)f[F_RIICHI];
    x[Q_CALLS] = (double)f[F_CALLS];
    x[Q_WINPOINTS] = (double)f[F_WINPOINTS];
  }
  for (int s = 0; s < 4; s++)
    for (int o = 0; o < 4; o++)
      if (o != s) {
        q[s][Q_OPP_HANDS] += q[o][Q_HANDS];
        q[s][Q_OPP_WINS] += q[o][Q_WINS];
        q[s][Q_OPP_DEALINS] += q[o][Q_DEALINS];
      }
}

/* ------------------------------------------------------------------ outside the loop */

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* tk_game.replay: one game's mjai log through the engine (tk_riichi_log_replay). */
static int replay(FILE *g, const char *path, const char *name, int first_line, int quiet) {
  tk_riichi_replay *r = malloc(sizeof *r);
  if (!r) {
    fprintf(stderr, "taikai replay: %s: out of memory\n", name);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay(g, r, &err), rc = 0;
  if (r->bad_line) r->bad_line += first_line - 1; /* the file's line */
  if (e == TK_EIO || e == TK_ENOMEM) {
    fprintf(stderr, "taikai replay: %s: cannot read: %s\n", name, err.msg);
    rc = 2;
  } else if (e) {
    tk_replay_mismatch(path, r->bad_line, r->bad_event, r->bad_what, r->expected, r->logged,
                       "(end of log)", r->rules_note);
    rc = 1;
  } else if (!quiet) {
    printf("OK %s: %d %s, %d events checked, final scores %d %d %d %d\n", name, r->kyoku,
           plural(r->kyoku, "hand", "hands"), r->events_checked, (int)r->scores[0],
           (int)r->scores[1], (int)r->scores[2], (int)r->scores[3]);
    if (r->rules_note[0]) printf("  note: %s\n", r->rules_note);
  }
  free(r);
  return rc;
}

static const char *const headline[] = {"mean_rank", "mean_final_points", NULL};
static const char *const rank_metrics[] = {"rank_1_rate", "rank_2_rate", "rank_3_rate",
                                           "rank_4_rate", NULL};
static const char *const rank_labels[] = {"1st", "2nd", "3rd", "4th", NULL};

extern const char tk_riichi_rules_schema[]; /* rules.schema.json (taikai_embed_text) */

static const tk_game_command commands[] = {
    {"import", "convert Tenhou game records into mjai logs (taikai import --help)", tk_cmd_import},
    {"export", "write riichi mjai logs as tenhou.net/6 JSON (taikai export --help)", tk_cmd_export},
    {NULL, NULL, NULL},
};

static const tk_game_command benches[] = {
    {"riichi", "four-player riichi games of the baseline agents (games and actions per second)",
     tk_bench_riichi},
    {NULL, NULL, NULL},
};

const tk_game tk_game_riichi = {
    .name = "riichi",
    .nseats = 4,
    .types_version = TK_RIICHI_TYPES_VERSION,
    .rules_size = sizeof(rules),
    .state_size = sizeof(state),
    .info_size = sizeof(tk_riichi_info),
    .view_size = sizeof(tk_riichi_view),
    .legal_size = sizeof(tk_riichi_legal),
    .action_size = sizeof(tk_riichi_action),
    .result_size = sizeof(tk_riichi_result),
    TK_GAME_FUNCTIONS,
    .canonical = canonical,
    .warm_up = tk_shanten_init,
    .logs = 1,
    .nfields = F_COUNT,
    .fields_def = fields_def,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
    .headline = headline,
    .rank_metrics = rank_metrics,
    .rank_labels = rank_labels,
    .ratings_field = "rank",
    .ratings_ascending = 1,
    .rules_schema = tk_riichi_rules_schema,
    .log_start = "start_game",
    .replay = replay,
    .replay_help =
        "Four-player riichi mjai logs: those `taikai run --logs` writes\n"
        "(OUT/logs/unit-NNNNNNNN.jsonl, one game each, or OUT/logs/run.jsonl), those\n"
        "`taikai import tenhou` converts, and mjai logs\n"
        "of other tools. Every hand's wall is rebuilt from the log, the players' decisions\n"
        "are replayed through the riichi engine, and every event the engine emits must\n"
        "equal the log's line: draws, discards, calls, riichi, dora, each win scored again\n"
        "by the rules kernel (yaku, fu, han, points), payments, draws and tenpai, scores,\n"
        "the final scores.\n"
        "The game length and rules come from start_game: taikai's \"taikai_rules\", else the\n"
        "mjai \"kyoku_first\" (0 hanchan, 4 east-only) and \"aka_flag\" over Tenhou's rules;\n"
        "a log declaring neither is replayed as east-only, then as hanchan, and a note says\n"
        "which one replays. Fields a log lacks are not compared; yaku lists are compared in\n"
        "logs taikai wrote or converted (names differ between mjai dialects).\n"
        "A file whose first line is not a known game's start is read as a riichi log.\n",
    .commands = commands,
    .benches = benches,
};
