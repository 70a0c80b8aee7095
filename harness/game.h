/* harness/game.h — what the referee needs from each game: a driver that validates the rule
 * options, plays one unit (a wall with a seating of agents) into one JSON line, turns a line back
 * into per-seat numbers, and names the metrics computed from those numbers.
 *
 * Every metric is a ratio over games: value = sum(q[num]) / sum(q[den]) of per-game quantities
 * q (e.g. win_rate = wins / games, points_per_win = points / wins), so one statistics path
 * (harness/stats.h) serves every game. */
#ifndef TAIKAI_HARNESS_GAME_H
#define TAIKAI_HARNESS_GAME_H

#include <jansson.h>

#include "taikai/agent.h"

enum { TK_MAX_SEATS = 8, TK_MAX_Q = 16, TK_MAX_METRICS = 16, TK_LINE_MAX = 4096 }; /* riichi: 13 q, 11 metrics */

typedef struct tk_metric {
  const char *name;  /* key in summary.json ("win_rate") */
  const char *title; /* column title ("win rate") */
  int num, den;      /* quantity indices */
  int proportion;    /* 1: a rate in [0, 1]: binomial interval when each wall gives one game */
  double scale;      /* display multiplier (100 for a percentage) */
  int decimals;      /* display decimals */
} tk_metric;

/* Watched by the parent to attribute crashes and enforce the per-decision time limit; lives in
 * memory shared between the parent and one worker. */
typedef struct tk_watch {
  volatile int64_t since_ns; /* CLOCK_MONOTONIC time the current agent call began, 0 if none */
  volatile int32_t seat;     /* seat of the agent being called, -1 if none */
  volatile uint64_t unit;    /* unit being played */
} tk_watch;

void tk_watch_enter(tk_watch *w, int seat);
void tk_watch_leave(tk_watch *w);
int64_t tk_now_ns(void);

/* One agent as a worker holds it. */
typedef struct tk_seat_agent {
  const tk_agent_descriptor *desc; /* borrowed from the loaded plugin */
  tk_agent_instance *inst;         /* owned by the worker */
  int index;                       /* position in the spec's agents */
  const char *label;
} tk_seat_agent;

typedef struct tk_play_ctx {
  uint64_t seed;        /* tournament seed */
  const void *rules;    /* the driver's parsed rules */
  tk_watch *watch;      /* may be NULL */
} tk_play_ctx;

/* The parsed results of one unit. */
typedef struct tk_unit_result {
  uint64_t unit, wall;
  int nseats;
  int agent[TK_MAX_SEATS];           /* spec index of the agent in each seat */
  int fault[TK_MAX_SEATS];           /* 1 if the seat's agent forfeited (crash, time, illegal) */
  double q[TK_MAX_SEATS][TK_MAX_Q];  /* per-seat quantities */
} tk_unit_result;

typedef struct tk_game_driver {
  const char *name;  /* as in specs */
  int nseats;        /* players per game */
  size_t rules_size; /* bytes of the parsed rules */
  /* Validates the spec's rules object into `out` and returns the resolved rules (defaults
   * filled) as a new object in `*resolved`. Errors name `path` and the field. */
  int (*parse_rules)(json_t *rules, void *out, json_t **resolved, const char *path, tk_error *err);
  /* Plays one unit; writes its JSON line (no newline) into `line`. Agent faults are recorded
   * in the line. Returns 0, or a negative TK_E code for a referee failure. */
  int (*play)(const tk_play_ctx *ctx, uint64_t unit, uint64_t wall, const int *seating,
              tk_seat_agent *agents, char *line, size_t cap);
  /* The line for a unit interrupted by the agent in `seat` crashing or hanging. */
  int (*fault_line)(uint64_t unit, uint64_t wall, const int *seating, tk_seat_agent *agents,
                    int seat, const char *reason, char *line, size_t cap);
  /* Parses a line (as written by play or fault_line). */
  int (*parse_line)(json_t *line, tk_unit_result *out, tk_error *err);
  /* Called once in the referee before workers are forked (may be NULL): build lazily-built
   * tables here so that workers share them instead of each building its own. */
  void (*warm_up)(void);
  int nq;            /* quantities per seat */
  int nmetrics;
  const tk_metric *metrics;
} tk_game_driver;

/* The driver for game `name`, or NULL. */
const tk_game_driver *tk_game_find(const char *name);
/* Names of the known games, comma-separated (static). */
const char *tk_game_names(void);

/* The seed an agent gets for one game: a pure function of the tournament seed, the wall, the
 * seat and the agent's index. */
uint64_t tk_game_seed(uint64_t seed, uint64_t wall, int seat, int agent);

/* Writes `s` as a JSON string literal (quotes included) into buf; returns the length. */
int tk_json_quote(const char *s, char *buf, size_t cap);

#endif
