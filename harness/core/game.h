/* harness/core/game.h — a game as the referee sees it, and the record of one unit.
 *
 * A game is a rules engine behind a plain table of functions (tk_game): parse its rule options,
 * start a unit from (rules, seed, wall), say whose turn it is, give a seat's view and legal
 * actions, apply an action (an illegal one refused, the state unchanged), the fallback action,
 * the per-seat result fields, the forfeit result, and describe a decision. Everything around an
 * agent call is the referee's and is written once, in loop.c, for every game: the watch, the time
 * limits, faults and their attribution, the illegal-action policy, the replay of a unit with the
 * fallback in a faulted seat, decision records and game logs. A unit's outcome is a tk_unit_rec;
 * line.c is its one writer to games.jsonl and its one reader.
 *
 * Every metric is a ratio over games: value = sum(q[num]) / sum(q[den]) of per-game quantities
 * q, which a game computes from the result fields of all the seats of a unit (e.g. riichi's
 * opponents' win rate), so one statistics path (harness/stats/) serves every game. */
#ifndef TAIKAI_HARNESS_GAME_H
#define TAIKAI_HARNESS_GAME_H

#include <jansson.h>
#include <stdio.h>

#include "fault.h"
#include "taikai/agent.h"

enum {
  TK_MAX_SEATS = 8,     /* players per unit */
  TK_MAX_FIELDS = 16,   /* result fields per seat */
  TK_MAX_Q = 16,        /* quantities per seat */
  TK_MAX_METRICS = 16,
  TK_EXTRA_MAX = 256,   /* a seat's extra JSON members ("discards":"...") */
  TK_LINE_MAX = 16384,  /* a games.jsonl line */
};

/* Which ends of a metric's range [lo, hi] are bounds (a proportion is always [0, 1]). */
enum { TK_BOUND_NONE = 0, TK_BOUND_LO = 1, TK_BOUND_HI = 2, TK_BOUND_BOTH = 3 };

typedef struct tk_metric {
  const char *name;  /* key in summary.json ("win_rate") */
  const char *title; /* column title ("win rate") */
  int num, den;      /* quantity indices */
  int proportion;    /* 1: a rate in [0, 1]: binomial interval when each wall gives one game */
  double scale;      /* display multiplier (100 for a percentage) */
  int decimals;      /* display decimals */
  int bounded;       /* TK_BOUND_* bits: which of lo, hi hold (every value of the metric, so
                      * every interval, lies in the range); ignored for proportions */
  double lo, hi;     /* the range's ends where `bounded` says so */
  const char *total; /* if set, summary.json also gives each agent's total over the run under
                      * this key: the value and its interval times the agent's den (its games),
                      * so the total is the sum of num (as the daifugo papers print points) */
  const char *total_title; /* the total's column title */
} tk_metric;

/* A per-seat result field, written into the seat's object of a games.jsonl line. */
typedef enum tk_field_type { TK_FIELD_INT = 0, TK_FIELD_BOOL } tk_field_type;
typedef struct tk_field {
  const char *name; /* JSON key ("points") */
  int type;         /* tk_field_type */
} tk_field;

/* ------------------------------------------------------------------ the record of a unit */

typedef struct tk_seat_rec {
  int32_t agent;                /* spec index of the agent in this seat */
  int32_t illegal;              /* illegal actions it made (substituted or forfeited) */
  int64_t f[TK_MAX_FIELDS];     /* the game's result fields (forfeit applied) */
  char illegal_first[192];      /* the first illegal action, described ("" if none) */
  tk_fault fault;               /* its fault (kind TK_FAULT_NONE: none) */
  char extra[TK_EXTRA_MAX];     /* the game's extra members, e.g. "discards":"1m2p" ("" none) */
} tk_seat_rec;

typedef struct tk_unit_rec {
  uint64_t unit, wall;
  int32_t nseats;
  int32_t skipped;              /* excluded from the statistics (fault policy skip) */
  tk_seat_rec seat[TK_MAX_SEATS];
} tk_unit_rec;

/* The bytes of a record with its first `nseats` seats (what crosses the worker pipe). */
static inline size_t tk_unit_rec_size(int nseats) {
  return offsetof(tk_unit_rec, seat) + (size_t)nseats * sizeof(tk_seat_rec);
}

/* The per-seat numbers the statistics need from one unit (harness/stats/tally.h). */
typedef struct tk_unit_result {
  uint64_t unit, wall;
  int nseats;
  int agent[TK_MAX_SEATS];           /* spec index of the agent in each seat */
  int fault[TK_MAX_SEATS];           /* 1 if the seat's agent faulted (forfeited or skipped) */
  double q[TK_MAX_SEATS][TK_MAX_Q];  /* per-seat quantities */
  int skipped;                       /* the unit is excluded from statistics (skip policy) */
  int fault_kind[TK_MAX_SEATS];      /* tk_fault_kind of each seat's fault, 0 if none */
  int illegal[TK_MAX_SEATS];         /* illegal actions of each seat (substituted or not) */
} tk_unit_result;

/* ------------------------------------------------------------------ a game */

/* What a game gets to start a unit. */
typedef struct tk_unit_start {
  const void *rules;          /* the game's parsed rules */
  uint64_t seed;              /* tournament seed */
  uint64_t wall;              /* the unit's wall */
  int nseats;
  const char *const *names;   /* per seat, for logs: the agent's label ("greedy (fallback)") */
  FILE *log;                  /* `taikai run --logs`: write the unit's game log here; or NULL */
} tk_unit_start;

typedef struct tk_game {
  const char *name;           /* as in specs ("solo") */
  int nseats;                 /* players per unit */
  uint32_t types_version;     /* the version of the game's boundary types (its header's
                               * TK_<GAME>_TYPES_VERSION); a plugin built against another is
                               * refused */
  size_t rules_size, state_size;               /* parsed rules; a unit's state */
  size_t info_size, view_size, legal_size, action_size, result_size; /* the boundary types;
                               * view_size at most TK_WATCH_SNAP (the watch keeps a copy) */

  /* Validates the spec's rules object into `out` and returns the resolved rules (defaults
   * filled) as a new object in `*resolved`. Errors name `path` and the field. */
  int (*parse_rules)(json_t *rules, void *out, json_t **resolved, const char *path,
                     tk_error *err);
  /* Called once in the referee before workers are forked (may be NULL): lazily-built tables
   * built here are shared by every worker. */
  void (*warm_up)(void);

  /* Starts a unit in `state` (state_size bytes, not zeroed). Returns 0 or a TK_E code. */
  int (*start)(void *state, const tk_unit_start *u, tk_error *err);
  /* The game's part of seat `seat`'s info struct (info_size bytes; the referee fills the
   * tk_game_head at its start). */
  void (*info)(const void *state, int seat, void *info);
  /* The seat that must decide next, after playing any step that needs no decision (a deal);
   * -1 when the unit is over; < -1 (a TK_E code) on a referee failure. */
  int (*to_act)(void *state, tk_error *err);
  /* The seat's view and its legal actions at its decision. */
  void (*view)(const void *state, int seat, void *view);
  void (*legal)(const void *state, int seat, void *legal);
  /* Applies seat `seat`'s action, checked against the state itself (never against memory an
   * agent could write). Returns 0, or TK_EILLEGAL with the state unchanged. */
  int (*apply)(void *state, int seat, const void *action, tk_error *err);
  /* Writes the fallback action for `legal` (always legal): what replaces an illegal action
   * under illegal_policy "substitute", and what a faulted seat plays in the replay. */
  void (*fallback)(const void *state, int seat, const void *legal, void *action);
  /* Rewrites an action that apply accepted into its entry of `legal`, so that records.tkr keeps
   * the engine's bytes and never an agent's padding (NULL: apply reads every byte of it). */
  void (*canonical)(const void *legal, void *action);
  /* The result struct passed to every agent's end_game. */
  void (*result)(const void *state, void *result);
  /* The unit's per-seat result fields (rec->seat[s].f) and extra members (may be NULL). */
  void (*fields)(const void *state, tk_unit_rec *rec);
  /* The forfeit result: rewrites the fields of the seats in `forfeit` (bit s = seat s), whose
   * agents faulted and were played by the fallback, to the worst result, and adjusts the others
   * where the game's result depends on every seat (ranks). */
  void (*forfeit)(const void *rules, unsigned forfeit, tk_unit_rec *rec);
  /* The per-seat quantities of a unit from its fields (all seats: a quantity may depend on the
   * opponents' fields). */
  void (*quantities)(const tk_unit_rec *rec, double q[][TK_MAX_Q]);
  /* "turn 3: hand 1155m..., drew 5p": the decision of `view`, for fault reasons. */
  void (*describe)(const void *view, char *buf, size_t cap);
  /* "discard of 5p": an action, for illegal-action reports. */
  void (*describe_action)(const void *action, char *buf, size_t cap);

  int logs;                   /* 1: start() writes a game log when given one (`--logs`) */
  int nfields;
  const tk_field *fields_def; /* the result fields, in the order written */
  int nq;                     /* quantities per seat; quantity 0 is the number of games the
                               * unit gave the seat (1, or a daifugo block's games) */
  int nmetrics;
  const tk_metric *metrics;
  const char *units;          /* what a unit is, plural, for progress lines ("blocks" for
                               * daifugo's blocks of games); NULL: "games" */

  /* ---- the game's parts outside the referee's loop, each reached only through this table
   * (every member optional: NULL or 0 when the game has none) */
  /* report.html: the metrics its paired-difference charts show first (NULL-terminated; NULL:
   * the game's first two metrics), and the metrics of its rank distribution, first place first,
   * with a label each (NULL-terminated, same length; NULL: no rank chart). */
  const char *const *headline;
  const char *const *rank_metrics;
  const char *const *rank_labels;
  /* `taikai ratings`: the per-seat result field that orders a unit's seats when --key is not
   * given, and whether its lower values are better (NULL: --key is required). */
  const char *ratings_field;
  int ratings_ascending;
  /* The JSON Schema of this game's spec "rules" object (a JSON text; `taikai schema` joins the
   * games' fragments into harness/spec.schema.json). */
  const char *rules_schema;
  /* Game logs (`taikai run --logs`): the "type" of the line that starts one unit's log (unique
   * among the games: `taikai replay` tells a log's game by its first line), and the replay of
   * one unit's log through the engine. `replay` reads `log` (the unit's lines, which start at
   * line `first_line` of the file `path`; `name` names the unit in messages), prints
   * "OK name: ..." (unless `quiet`) or "MISMATCH path:line: ..." lines to stdout or a read
   * error to stderr, and returns 0 (replayed), 1 (a mismatch) or 2 (unreadable). */
  const char *log_start;
  int (*replay)(FILE *log, const char *path, const char *name, int first_line, int quiet);
  const char *replay_help;    /* what the replay checks, a paragraph of `taikai replay --help` */
  /* The game's own subcommands (`taikai serve`, `taikai rescore`, ...) and benchmarks (`taikai
   * bench NAME`), each array terminated by a NULL name. */
  const struct tk_game_command *commands;
  const struct tk_game_command *benches;
} tk_game;

/* A subcommand or benchmark a game brings: `taikai NAME ARGS...` (`taikai bench NAME ARGS...`)
 * calls main with argv[0] = NAME; it returns the exit status (0 success, 1 a failure of the
 * work, 2 bad usage or input). */
typedef struct tk_game_command {
  const char *name;
  const char *summary; /* one line for --help */
  int (*main)(int argc, char **argv);
} tk_game_command;

/* The function members of a tk_game, for an adapter that names its static functions after
 * them (every adapter in harness/games/ does): `.name = ..., TK_GAME_FUNCTIONS, ...`. */
#define TK_GAME_FUNCTIONS                                                                  \
  .parse_rules = parse_rules, .start = start, .info = info, .to_act = to_act, .view = view, \
  .legal = legal, .apply = apply, .fallback = fallback, .result = result, .fields = fields, \
  .forfeit = forfeit, .quantities = quantities, .describe = describe,                      \
  .describe_action = describe_action

/* The game named `name`, or NULL. */
const tk_game *tk_game_find(const char *name);
/* The names of every registered game, comma-separated ("solo, riichi"), from the table. */
const char *tk_game_names(void);
/* The registered games, NULL-terminated. */
const tk_game *const *tk_game_all(void);

/* The seed an agent gets for one game: a pure function of the tournament seed, the wall, the
 * seat and the agent's index. */
uint64_t tk_game_seed(uint64_t seed, uint64_t wall, int seat, int agent);

/* The quantities and fault summary of a record, for the statistics. */
void tk_unit_result_of(const tk_game *g, const tk_unit_rec *rec, tk_unit_result *out);

#endif
