/* harness/core/game.h — what the referee needs from each game: a driver that validates the rule
 * options, plays one unit (a wall with a seating of agents) into one JSON line, turns a line back
 * into per-seat numbers, and names the metrics computed from those numbers.
 *
 * Every metric is a ratio over games: value = sum(q[num]) / sum(q[den]) of per-game quantities
 * q (e.g. win_rate = wins / games, points_per_win = points / wins), so one statistics path
 * (harness/stats/stats.h) serves every game. */
#ifndef TAIKAI_HARNESS_GAME_H
#define TAIKAI_HARNESS_GAME_H

#include <jansson.h>

#include "taikai/agent.h"

enum { TK_MAX_SEATS = 8, TK_MAX_Q = 16, TK_MAX_METRICS = 16, TK_LINE_MAX = 8192 }; /* riichi: 16 q, 13 metrics */

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
} tk_metric;

enum { TK_WATCH_SNAP = 256 };

/* Watched by the parent to attribute crashes and enforce the time limits; lives in memory
 * shared between the parent and one worker. The worker writes, the parent reads; `seq` changes
 * at the start and the end of every call, so the parent can tell a consistent reading. */
typedef struct tk_watch {
  volatile int64_t since_ns; /* CLOCK_MONOTONIC time the current agent call began, 0 if none */
  volatile int32_t seat;     /* seat of the agent being called, -1 if none */
  volatile uint64_t unit;    /* unit being played */
  /* issue 4 */
  volatile uint32_t seq;      /* odd while inside a call */
  volatile int32_t entry;     /* tk_entry (harness/core/fault.h) of the current or last call */
  volatile int32_t last_seat; /* seat of the current or last call (kept after it returns) */
  volatile int32_t agent;     /* spec index of the agent of the current or last call, -1 */
  volatile int64_t last_ns;   /* duration of the last finished call */
  volatile int64_t used_ns[TK_MAX_SEATS]; /* each seat's call time in the unit (not create) */
  int64_t call_limit_ns;      /* per-call limit, 0 none (set by the parent before forking) */
  int64_t game_limit_ns;      /* per-game limit per agent, 0 none */
  volatile int32_t snap_len;  /* bytes of the last decision asked, in the game's form */
  uint8_t snap[TK_WATCH_SNAP];
  volatile int32_t crash_signal; /* set by the worker's crash handler (memory limit set) */
  volatile int32_t crash_errno;  /* errno when it crashed (ENOMEM: a failed allocation) */
  volatile int64_t crash_vm;     /* the worker's address space when it crashed, bytes */
} tk_watch;

/* A call of the agent in `seat` (act: tk_watch_call with TK_ENTRY_ACT and an unknown agent). */
void tk_watch_enter(tk_watch *w, int seat);
/* A call of entry point `entry` (tk_entry) of agent `agent` (spec index) in `seat`. */
void tk_watch_call(tk_watch *w, int seat, int agent, int entry);
/* The call returned: its duration goes to last_ns and to the seat's used_ns. */
void tk_watch_leave(tk_watch *w);
/* A new unit: resets the per-game clocks and the decision. */
void tk_watch_unit(tk_watch *w, uint64_t unit);
/* Records the decision about to be asked (`len` bytes, truncated to TK_WATCH_SNAP), in the
 * form the driver's `describe` reads. */
void tk_watch_decision(tk_watch *w, const void *snap, size_t len);
/* After tk_watch_leave: 1 if that call passed the per-call limit or the seat's calls in this
 * unit passed the per-game limit (filling `*fault`, a tk_fault from harness/core/fault.h, with a
 * TK_FAULT_TIMEOUT for `seat` and `entry`), else 0. w may be NULL (no limits). */
struct tk_fault;
int tk_watch_over(const tk_watch *w, int seat, int entry, struct tk_fault *fault);
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
  int illegal_policy;   /* tk_illegal_policy (spec.h): 0 forfeit, 1 substitute the fallback */
  /* multi-seat games (drivers with `fallback`): seats played from the start by the game's
   * fallback agent instead of their agents, because those agents faulted in an earlier try of
   * this unit (a crash, a kill); bit s = seat s */
  unsigned fallback_seats;
  const char *logs_dir; /* drivers with `logs`: write the unit's game log here; NULL: none */
} tk_play_ctx;

/* The parsed results of one unit. */
typedef struct tk_unit_result {
  uint64_t unit, wall;
  int nseats;
  int agent[TK_MAX_SEATS];           /* spec index of the agent in each seat */
  int fault[TK_MAX_SEATS];           /* 1 if the seat's agent forfeited (crash, time, illegal) */
  double q[TK_MAX_SEATS][TK_MAX_Q];  /* per-seat quantities */
  /* issue 4: filled by tk_fault_scan (harness/core/fault.h), not by the drivers */
  int skipped;                       /* the unit is excluded from statistics (skip policy) */
  int fault_kind[TK_MAX_SEATS];      /* tk_fault_kind of each seat's fault, 0 if none */
  int illegal[TK_MAX_SEATS];         /* illegal actions of each seat (substituted or not) */
} tk_unit_result;

typedef struct tk_game_driver {
  const char *name;  /* as in specs */
  int nseats;        /* players per game */
  size_t rules_size; /* bytes of the parsed rules */
  /* Validates the spec's rules object into `out` and returns the resolved rules (defaults
   * filled) as a new object in `*resolved`. Errors name `path` and the field. */
  int (*parse_rules)(json_t *rules, void *out, json_t **resolved, const char *path, tk_error *err);
  /* Plays one unit; writes its JSON line (no newline) into `line`: an object with "unit",
   * "wall" and a "seats" array (one object per seat, in seating order). Agent faults are
   * recorded in the faulting seat's object (harness/core/fault.h: tk_fault_json), illegal actions
   * as "illegal": count; every agent call goes through tk_watch_call / tk_watch_leave /
   * tk_watch_over, and tk_watch_decision before each decision. The faulting agent gets the
   * worst result (forfeit); with ctx->illegal_policy substitute an illegal action is replaced
   * by the game's fallback action. Returns 0, or a negative TK_E code for a referee failure. */
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
  /* issue 4 (may be NULL): describes a decision recorded with tk_watch_decision, for the
   * reason of a fault found by the parent ("turn 3: hand ..., drew 5p"). */
  void (*describe)(const void *snap, size_t len, char *buf, size_t cap);
  /* 1: a multi-seat game whose `play` honours ctx->fallback_seats, so that a unit in which an
   * agent crashed or was killed is played again with the fallback agent in that seat (the
   * others get a complete game; the faulter the worst result); 0: fault_line records it */
  int fallback;
  /* 1: `play` writes a game log per unit into ctx->logs_dir (`taikai run --logs`) */
  int logs;
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
