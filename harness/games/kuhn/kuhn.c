/* harness/games/kuhn/kuhn.c — Kuhn poker (taikai/kuhn.h) as the referee sees it: the game table
 * tk_game_kuhn, the game's only link to the referee. Two seats (seat 0 acts first); a unit is one
 * hand, whose wall is the deal. Rules: none (the spec's "rules" object must be empty).
 * A seat's result fields, in the order games.jsonl writes them: "chips" (net chips, ±1 or ±2),
 * "won" (took the pot), "card" (0 J, 1 Q, 2 K), "showdown" (the cards were compared), and the
 * extra member "history" (the moves, "check bet call").
 * The fallback is the passive move: check, or fold when facing a bet (always legal). A faulted
 * seat, played out by the fallback, forfeits the most a hand can lose: -2 chips and no pot; its
 * opponent, unless it faulted too, gets +2 and the pot (chips stay zero-sum). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "kuhn_log.h"
#include "taikai/kuhn.h"

extern const char tk_kuhn_rules_schema[]; /* rules.schema.json, as a C string */
int tk_kuhn_bench(int argc, char **argv);  /* bench.c */

enum { F_CHIPS, F_WON, F_CARD, F_SHOWDOWN, F_COUNT };
enum { Q_GAMES, Q_CHIPS, Q_WIN, Q_SHOWDOWN, Q_COUNT };

static const tk_field fields_def[F_COUNT] = {
    [F_CHIPS] = {"chips", TK_FIELD_INT}, [F_WON] = {"won", TK_FIELD_BOOL},
    [F_CARD] = {"card", TK_FIELD_INT}, [F_SHOWDOWN] = {"showdown", TK_FIELD_BOOL},
};

/* A hand wins or loses 1 or 2 chips. */
static const tk_metric metrics[] = {
    {.name = "chips_per_game", .title = "chips/game", .num = Q_CHIPS, .den = Q_GAMES,
     .scale = 1.0, .decimals = 4, .bounded = TK_BOUND_BOTH, .lo = -2, .hi = 2,
     .total = "chips_total", .total_title = "chips total"},
    {.name = "win_rate", .title = "pots won %", .num = Q_WIN, .den = Q_GAMES, .proportion = 1,
     .scale = 100.0, .decimals = 2},
    {.name = "showdown_rate", .title = "showdown %", .num = Q_SHOWDOWN, .den = Q_GAMES,
     .proportion = 1, .scale = 100.0, .decimals = 2},
};

static const char *const headline[] = {"chips_per_game", "win_rate", NULL};

static int parse_rules(json_t *rules, void *out, json_t **resolved, const char *path,
                       tk_error *err) {
  memset(out, 0, sizeof(tk_kuhn_rules));
  const char *key;
  json_t *v;
  json_object_foreach(rules, key, v) {
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    char val[64];
    snprintf(val, sizeof val, "%s", s ? s : "?");
    free(s);
    return tk_error_set(err, TK_EINVAL, -1,
                        "%s: field 'rules.%s': unknown rule for game 'kuhn' (Kuhn poker has no "
                        "rule options), got %s",
                        path, key, val);
  }
  *resolved = json_object();
  return 0;
}

/* A unit's state: the hand first, so that the functions below may take the state for it. */
typedef struct unit_state {
  tk_kuhn_game g;
  tk_kuhn_log log; /* log.f NULL: no log */
} unit_state;

static int start(void *st, const tk_unit_start *u, tk_error *err) {
  unit_state *x = st;
  uint8_t cards[2];
  tk_kuhn_deal(u->seed, u->wall, cards);
  x->log.f = NULL;
  int rc = tk_kuhn_init(&x->g, cards, err);
  if (!rc && u->log) tk_kuhn_log_begin(&x->log, u->log, u->seed, u->wall, &x->g, u->names);
  return rc;
}

static void info(const void *state, int seat, void *out) {
  tk_kuhn_info *i = out;
  i->card = ((const tk_kuhn_game *)state)->card[seat & 1];
  memset(i->reserved, 0, sizeof i->reserved);
}

static int to_act(void *st, tk_error *err) {
  unit_state *x = st;
  if (x->log.f && x->log.error)
    return tk_error_set(err, TK_EIO, -1, "kuhn: cannot write the game log");
  return tk_kuhn_to_act(&x->g);
}

static void view(const void *state, int seat, void *out) { tk_kuhn_view_of(state, seat, out); }
static void legal(const void *state, int seat, void *out) { tk_kuhn_legal_of(state, out); }

static int apply(void *st, int seat, const void *action, tk_error *err) {
  unit_state *x = st;
  int rc = tk_kuhn_apply(&x->g, seat, action, err);
  if (!rc && x->log.f)
    tk_kuhn_log_move(&x->log, &x->g, seat, ((const tk_kuhn_action *)action)->move);
  return rc;
}

static void fallback(const void *state, int seat, const void *legal_, void *action) {
  ((tk_kuhn_action *)action)->move = ((const tk_kuhn_legal *)legal_)->a[0]; /* check or fold */
}

static void result(const void *state, void *out) { tk_kuhn_result_of(state, out); }

static void fields(const void *state, tk_unit_rec *rec) {
  const tk_kuhn_game *g = state;
  tk_kuhn_result r;
  tk_kuhn_result_of(g, &r);
  char hist[32] = "";
  for (int i = 0; i < g->nhist; i++)
    snprintf(hist + strlen(hist), sizeof hist - strlen(hist), "%s%s", i ? " " : "",
             tk_kuhn_move_str(g->hist[i]));
  for (int p = 0; p < 2; p++) {
    int64_t *f = rec->seat[p].f;
    f[F_CHIPS] = g->chips[p];
    f[F_WON] = g->winner == p;
    f[F_CARD] = g->card[p];
    f[F_SHOWDOWN] = r.showdown;
    snprintf(rec->seat[p].extra, sizeof rec->seat[p].extra, "\"history\":\"%s\"", hist);
  }
}

static void forfeit(const void *rules, unsigned mask, tk_unit_rec *rec) {
  if (!(mask & 3)) return;
  for (int p = 0; p < 2; p++) {
    int64_t *f = rec->seat[p].f;
    int faulted = mask >> p & 1;
    f[F_CHIPS] = faulted ? -2 : 2;
    f[F_WON] = !faulted;
  }
}

static void quantities(const tk_unit_rec *rec, double q[][TK_MAX_Q]) {
  for (int p = 0; p < 2; p++) {
    const int64_t *f = rec->seat[p].f;
    q[p][Q_GAMES] = 1;
    q[p][Q_CHIPS] = (double)f[F_CHIPS];
    q[p][Q_WIN] = f[F_WON] ? 1 : 0;
    q[p][Q_SHOWDOWN] = f[F_SHOWDOWN] ? 1 : 0;
  }
}

/* "player 1, card Q, after check bet: facing a bet (pot 3)". */
static void describe(const void *view_, char *buf, size_t cap) {
  const tk_kuhn_view *v = view_;
  char hist[32] = "";
  for (int i = 0; i < v->nhist && i < TK_KUHN_MAX_HIST; i++)
    snprintf(hist + strlen(hist), sizeof hist - strlen(hist), "%s%s", i ? " " : "",
             tk_kuhn_move_str(v->hist[i]));
  snprintf(buf, cap, "player %d, card %s, %s%s: %s (pot %d)", v->seat, tk_kuhn_card_str(v->card),
           v->nhist ? "after " : "first to act", hist, v->to_call ? "facing a bet" : "no bet",
           v->pot);
}

static void describe_action(const void *action, char *buf, size_t cap) {
  int m = ((const tk_kuhn_action *)action)->move;
  if (m <= TK_KUHN_CALL) snprintf(buf, cap, "%s", tk_kuhn_move_str(m));
  else snprintf(buf, cap, "unknown move (%d)", m);
}

static const tk_game_command benches[] = {
    {"kuhn", "Kuhn poker engine: random hands dealt and played per CPU second", tk_kuhn_bench},
    {NULL, NULL, NULL},
};

const tk_game tk_game_kuhn = {
    .name = "kuhn",
    .nseats = 2,
    .units = "hands",
    .types_version = TK_KUHN_TYPES_VERSION,
    .rules_size = sizeof(tk_kuhn_rules),
    .state_size = sizeof(unit_state),
    .info_size = sizeof(tk_kuhn_info),
    .view_size = sizeof(tk_kuhn_view),
    .legal_size = sizeof(tk_kuhn_legal),
    .action_size = sizeof(tk_kuhn_action),
    .result_size = sizeof(tk_kuhn_result),
    TK_GAME_FUNCTIONS,
    .logs = 1,
    .nfields = F_COUNT,
    .fields_def = fields_def,
    .nq = Q_COUNT,
    .nmetrics = (int)(sizeof metrics / sizeof metrics[0]),
    .metrics = metrics,
    .headline = headline,
    .ratings_field = "chips",
    .ratings_ascending = 0,
    .rules_schema = tk_kuhn_rules_schema,
    .log_start = "start_kuhn",
    .replay = tk_kuhn_log_replay,
    .benches = benches,
};
