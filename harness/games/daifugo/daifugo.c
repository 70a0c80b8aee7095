/* harness/games/daifugo/daifugo.c — five-player daifugo, UECda rules (taikai/daifugo.h), as the referee
 * sees it. A unit is one block of games from a class reset to the next (the rule option
 * "block_games", 100 by default), dealt as a pure function of (seed, block, game), so every
 * seating of a duplicate set meets the same deals. A seat is a player id (0..4), fixed for the
 * block; the table positions are re-drawn by the rules. Rules (the spec's "rules" object):
 *   {"block_games": 100, "seat_period": 3, "sennichite": 20}
 * A seat's result fields over its block, in the order games.jsonl writes them: "games",
 * "points" (the server's scale, 5 daifugo … 1 daihinmin per game), "paper_points" (the paper's,
 * 2 … -2), "daifugo", "fugo", "heimin", "hinmin", "daihinmin" (games finished in each class),
 * "revolutions", "passes", "plays".
 *
 * With `taikai run --logs`, every block is also written as JSON lines (the deal, the transfers
 * and the exchange, every play and pass, each game's result; harness/games/daifugo/daifugo_log.h) to
 * the file the loop opens for the unit.
 *
 * summary.json also gives each agent's total points over the run in both scales
 * ("points_total", "paper_points_total": the per-game value and its interval times the agent's
 * games), as the papers' tables print them.
 *
 * The fallback action is tk_daifugo_fallback's (pass on a non-empty table, the lowest single on
 * a new one, the lowest card in the exchange). A faulted seat, played out by the fallback
 * (harness/core/loop.h), gets the worst result: every game of the block as daihinmin; the other
 * seats keep the games they played. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daifugo_log.h"
#include "daifugo_cmd.h"
#include "game.h"
#include "logtext.h"
#include "taikai/daifugo.h"

enum {
  F_GAMES, F_POINTS, F_PAPER, F_CLASS0, F_CLASS1, F_CLASS2, F_CLASS3, F_CLASS4, F_REVOLUTIONS,
  F_PASSES, F_PLAYS, F_COUNT
};
enum {
  Q_GAMES, Q_CLASS0, Q_CLASS1, Q_CLASS2, Q_CLASS3, Q_CLASS4, Q_PLACE, Q_POINTS, Q_PAPER,
  Q_REVOLUTIONS, Q_PASSES, Q_PLAYS, Q_COUNT
};

static const tk_field fields_def[F_COUNT] = {
    [F_GAMES] = {"games", TK_FIELD_INT},         [F_POINTS] = {"points", TK_FIELD_INT},
    [F_PAPER] = {"paper_points", TK_FIELD_INT},  [F_CLASS0] = {"daifugo", TK_FIELD_INT},
    [F_CLASS1] = {"fugo", TK_FIELD_INT},         [F_CLASS2] = {"heimin", TK_FIELD_INT},
    [F_CLASS3] = {"hinmin", TK_FIELD_INT},       [F_CLASS4] = {"daihinmin", TK_FIELD_INT},
    [F_REVOLUTIONS] = {"revolutions", TK_FIELD_INT}, [F_PASSES] = {"passes", TK_FIELD_INT},
    [F_PLAYS] = {"plays", TK_FIELD_INT},
};

/* Every rate is per game; a unit (block) gives each seat block_games games. Ranges: a place is
 * 1..5, the server's points 5..1 and the paper's 2..-2 per game. */
static const tk_metric metrics[] = {
    {.name = "daifugo_rate", .title = "daifugo %", .num = Q_CLASS0, .den = Q_GAMES,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "fugo_rate", .title = "fugo %", .num = Q_CLASS1, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 2},
    {.name = "heimin_rate", .title = "heimin %", .num = Q_CLASS2, .den = Q_GAMES,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "hinmin_rate", .title = "hinmin %", .num = Q_CLASS3, .den = Q_GAMES,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "daihinmin_rate", .title = "daihinmin %", .num = Q_CLASS4, .den = Q_GAMES,
     .proportion = 1, .scale = 100.0, .decimals = 2},
    {.name = "mean_place", .title = "mean place", .num = Q_PLACE, .den = Q_GAMES, .scale = 1.0,
     .decimals = 3, .bounded = TK_BOUND_BOTH, .lo = 1, .hi = 5},
    {.name = "points_per_game", .title = "points/game", .num = Q_POINTS, .den = Q_GAMES,
     .scale = 1.0, .decimals = 3, .bounded = TK_BOUND_BOTH, .lo = 1, .hi = 5,
     .total = "points_total", .total_title = "points total"},
    {.name = "paper_points_per_game", .title = "paper pts/game", .num = Q_PAPER,
     .den = Q_GAMES, .scale = 1.0, .decimals = 3, .bounded = TK_BOUND_BOTH, .lo = -2, .hi = 2,
     .total = "paper_points_total", .total_title = "paper pts total"},
    {.name = "revolutions_per_game", .title = "revol./game", .num = Q_REVOLUTIONS,
     .den = Q_GAMES, .scale = 1.0, .decimals = 3, .bounded = TK_BOUND_LO, .lo = 0},
    {.name = "passes_per_game", .title = "passes/game", .num = Q_PASSES, .den = Q_GAMES,
     .scale = 1.0, .decimals = 2, .bounded = TK_BOUND_LO, .lo = 0},
};

static int parse_rules(json_t *in, void *out, json_t **resolved, const char *path,
                       tk_error *err) {
  tk_daifugo_rules *r = out;
  *r = tk_daifugo_default_rules();
  const char *key;
  json_t *v;
  json_object_foreach(in, key, v) {
    uint32_t *field = !strcmp(key, "block_games")   ? &r->block_games
                      : !strcmp(key, "seat_period") ? &r->seat_period
                      : !strcmp(key, "sennichite")  ? &r->sennichite
                                                    : NULL;
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    char val[64];
    snprintf(val, sizeof val, "%s", s ? s : "?");
    free(s);
    if (!field)
      return tk_error_set(err, TK_EINVAL, -1,
                          "%s: field 'rules.%s': unknown rule for game 'daifugo' (rules: "
                          "block_games, seat_period, sennichite), got %s",
                          path, key, val);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1000000)
      return tk_error_set(err, TK_EINVAL, -1, "%s: field 'rules.%s': expected an integer, got %s",
                          path, key, val);
    *field = (uint32_t)json_integer_value(v);
  }
  tk_error e;
  tk_error_clear(&e);
  if (tk_daifugo_rules_check(r, &e))
    return tk_error_set(err, TK_EINVAL, -1, "%s: field 'rules': %s", path, e.msg);
  *resolved = json_pack("{s:i, s:i, s:i}", "block_games", (int)r->block_games, "seat_period",
                        (int)r->seat_period, "sennichite", (int)r->sennichite);
  return 0;
}

/* A unit's state: the block first, so that the functions below may take the state for it. */
typedef struct unit_state {
  tk_daifugo_block b;
  tk_daifugo_log log; /* log.f NULL: no log */
} unit_state;

static int start(void *st, const tk_unit_start *u, tk_error *err) {
  unit_state *x = st;
  x->log.f = NULL;
  int rc = tk_daifugo_block_init(&x->b, u->rules, u->seed, u->wall, err);
  if (!rc && u->log) tk_daifugo_log_begin(&x->log, u->log, &x->b, u->names);
  return rc;
}

static void info(const void *state, int seat, void *out) {
  const tk_daifugo_block *b = state;
  tk_daifugo_info *i = out;
  i->types_version = TK_DAIFUGO_TYPES_VERSION;
  i->block_games = b->rules.block_games;
  i->seat_period = b->rules.seat_period;
  i->sennichite = b->rules.sennichite;
  i->block = b->block;
  i->game = b->game;
}

static int to_act(void *st, tk_error *err) {
  unit_state *x = st;
  if (x->log.f && x->log.error)
    return tk_error_set(err, TK_EIO, -1, "daifugo: cannot write the game log");
  return tk_daifugo_is_over(&x->b) ? -1 : tk_daifugo_to_act(&x->b);
}

/* The whole struct is written (the engine fills only the history and the list entries in use):
 * agents and records.tkr see the same bytes whatever the scratch memory held before, so the
 * records are the same for any -j and in `taikai serve`. */
static void view(const void *state, int seat, void *out) {
  memset(out, 0, sizeof(tk_daifugo_view));
  tk_daifugo_view_of(state, seat, out);
}
static void legal(const void *state, int seat, void *out) {
  memset(out, 0, sizeof(tk_daifugo_legal));
  tk_daifugo_legal_of(state, seat, out);
}

static int apply(void *st, int seat, const void *action, tk_error *err) {
  unit_state *x = st;
  if (!x->log.f) return tk_daifugo_apply(&x->b, seat, action, err);
  tk_daifugo_log_pre pre;
  tk_daifugo_log_pre_of(&x->b, seat, &pre);
  int rc = tk_daifugo_apply(&x->b, seat, action, err);
  if (!rc) tk_daifugo_log_write(&x->log, &pre, &x->b, seat, action); /* errors: to_act */
  return rc;
}

static void fallback(const void *state, int seat, const void *legal_, void *action) {
  *(tk_daifugo_move *)action = tk_daifugo_fallback(legal_);
}

static void canonical(const void *legal_, void *action) {
  const tk_daifugo_legal *l = legal_;
  int i = tk_daifugo_legal_find(l, action);
  if (i >= 0) *(tk_daifugo_move *)action = l->a[i];
}

static void result(const void *state, void *out) {
  memcpy(out, &((const tk_daifugo_block *)state)->totals, sizeof(tk_daifugo_totals));
}

static void fields(const void *state, tk_unit_rec *rec) {
  const tk_daifugo_totals *t = &((const tk_daifugo_block *)state)->totals;
  for (int p = 0; p < 5; p++) {
    int64_t *f = rec->seat[p].f;
    f[F_GAMES] = t->games;
    f[F_POINTS] = t->points[p];
    f[F_PAPER] = t->paper_points[p];
    for (int k = 0; k < 5; k++) f[F_CLASS0 + k] = t->places[p][k];
    f[F_REVOLUTIONS] = t->revolutions[p];
    f[F_PASSES] = t->passes[p];
    f[F_PLAYS] = t->plays[p];
  }
}

static void forfeit(const void *rules, unsigned mask, tk_unit_rec *rec) {
  for (int p = 0; p < 5; p++) {
    if (!(mask >> p & 1)) continue;
    int64_t *f = rec->seat[p].f;
    for (int k = 0; k < 5; k++) f[F_CLASS0 + k] = 0;
    f[F_CLASS4] = f[F_GAMES];
    f[F_POINTS] = f[F_GAMES];      /* 1 per game */
    f[F_PAPER] = -2 * f[F_GAMES];  /* -2 per game */
    f[F_REVOLUTIONS] = 0;
  }
}

static void quantities(const tk_unit_rec *rec, double q[][TK_MAX_Q]) {
  for (int p = 0; p < 5; p++) {
    const int64_t *f = rec->seat[p].f;
    double *x = q[p];
    x[Q_GAMES] = (double)f[F_GAMES];
    x[Q_PLACE] = 0;
    for (int k = 0; k < 5; k++) {
      x[Q_CLASS0 + k] = (double)f[F_CLASS0 + k];
      x[Q_PLACE] += (double)(k + 1) * (double)f[F_CLASS0 + k];
    }
    x[Q_POINTS] = (double)f[F_POINTS];
    x[Q_PAPER] = (double)f[F_PAPER];
    x[Q_REVOLUTIONS] = (double)f[F_REVOLUTIONS];
    x[Q_PASSES] = (double)f[F_PASSES];
    x[Q_PLAYS] = (double)f[F_PLAYS];
  }
}

/* "game 3, player 2, exchange: hand S3 H5 ..., gives 2" or "game 3, player 2: hand ..., on
 * S5 S6 S7 (player 4)". */
static void describe(const void *view_, char *buf, size_t cap) {
  const tk_daifugo_view *v = view_;
  char hand[200], top[80];
  tk_daifugo_cards_str(v->hand, hand, sizeof hand);
  if (v->decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
    snprintf(buf, cap, "game %u, player %d, exchange: hand %s, gives %d", v->game, v->player,
             hand, v->to_give);
  } else if (v->top.kind == TK_DAIFUGO_PASS) {
    snprintf(buf, cap, "game %u, player %d: hand %s, leads", v->game, v->player, hand);
  } else {
    tk_daifugo_move_str(&v->top, top, sizeof top);
    snprintf(buf, cap, "game %u, player %d: hand %s, on %s (player %d)", v->game, v->player,
             hand, top, v->owner);
  }
}

static void describe_action(const void *action, char *buf, size_t cap) {
  const tk_daifugo_move *m = action;
  if (m->kind > TK_DAIFUGO_GIVE) {
    snprintf(buf, cap, "unknown action (kind %d)", m->kind);
    return;
  }
  char text[128];
  tk_daifugo_move_str(m, text, sizeof text);
  snprintf(buf, cap, "%s", text);
}

/* ------------------------------------------------------------------ outside the loop */

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* tk_game.replay: one block's log through the engine (tk_daifugo_log_replay). */
static int replay(FILE *g, const char *path, const char *name, int first_line, int quiet) {
  tk_daifugo_replay *r = malloc(sizeof *r);
  if (!r) {
    fprintf(stderr, "taikai replay: %s: out of memory\n", name);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  int e = tk_daifugo_log_replay(g, r, &err), rc = 0;
  if (r->bad_line) r->bad_line += first_line - 1; /* the file's line */
  if (e == TK_EIO || e == TK_ENOMEM) {
    fprintf(stderr, "taikai replay: %s: cannot read: %s\n", name, err.msg);
    rc = 2;
  } else if (e) {
    tk_replay_mismatch(path, r->bad_line, r->bad_event, r->bad_what, r->expected, r->logged,
                       "(end of log)", NULL);
    rc = 1;
  } else if (!quiet) {
    printf("OK %s: daifugo block %llu, %d %s, %d actions checked, points %d %d %d %d %d\n", name,
           (unsigned long long)r->block, r->games, plural(r->games, "game", "games"), r->actions,
           (int)r->points[0], (int)r->points[1], (int)r->points[2], (int)r->points[3],
           (int)r->points[4]);
  }
  free(r);
  return rc;
}

static const char *const headline[] = {"mean_place", "paper_points_per_game", NULL};
static const char *const rank_metrics[] = {"daifugo_rate", "fugo_rate", "heimin_rate",
                                           "hinmin_rate", "daihinmin_rate", NULL};
static const char *const rank_labels[] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin",
                                          NULL};

extern const char tk_daifugo_rules_schema[]; /* rules.schema.json (taikai_embed_text) */

static const tk_game_command commands[] = {
    {"serve", "daifugo: a UECda server for external clients (taikai serve --help)", tk_cmd_serve},
    {"client", "daifugo: one of our agents on a UECda server (taikai client --help)",
     tk_cmd_client},
    {NULL, NULL, NULL},
};

static const tk_game_command benches[] = {
    {"daifugo", "daifugo engine: legal-move generations and random playouts per CPU second",
     tk_bench_daifugo},
    {"daifugo-mc",
     "daifugo Monte Carlo player: CPU ms per 1,500-playout decision, playouts per second",
     tk_bench_daifugo_mc},
    {NULL, NULL, NULL},
};

const tk_game tk_game_daifugo = {
    .name = "daifugo",
    .nseats = 5,
    .units = "blocks",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .rules_size = sizeof(tk_daifugo_rules),
    .state_size = sizeof(unit_state),
    .info_size = sizeof(tk_daifugo_info),
    .view_size = sizeof(tk_daifugo_view),
    .legal_size = sizeof(tk_daifugo_legal),
    .action_size = sizeof(tk_daifugo_move),
    .result_size = sizeof(tk_daifugo_totals),
    TK_GAME_FUNCTIONS,
    .canonical = canonical,
    .logs = 1,
    .nfields = F_COUNT,
    .fields_def = fields_def,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
    .headline = headline,
    .rank_metrics = rank_metrics,
    .rank_labels = rank_labels,
    .ratings_field = "points",
    .rules_schema = tk_daifugo_rules_schema,
    .log_start = "start_block",
    .replay = replay,
    .replay_help =
        "Daifugo logs (`taikai run --logs` on a daifugo spec; docs/daifugo.md, \"Logs\"), one\n"
        "block each: the block is dealt again from its seed, block index and rules, every give,\n"
        "play and pass is applied for its player, who must be the one to act, and must be legal,\n"
        "and every line must equal the engine's (deals, transfers, seats, each game's places,\n"
        "classes, points and sennichite, the block's totals). A block counts as one game.\n",
    .commands = commands,
    .benches = benches,
};
