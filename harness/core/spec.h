/* harness/core/spec.h — tournament specs: parsing and validating the JSON file (schema in
 * harness/spec.schema.json), command-line overrides, and the resolved form written to
 * <out>/spec.json. Every validation error names the file, the field and the offending value. */
#ifndef TAIKAI_HARNESS_SPEC_H
#define TAIKAI_HARNESS_SPEC_H

#include <jansson.h>

#include "logtext.h"
#include "taikai/common.h"

/* seated: agents[i] plays seat i of every wall (exactly as many agents as seats), as the UECda
 * contest seats its five clients. */
typedef enum tk_format {
  TK_FORMAT_FIELD = 0,
  TK_FORMAT_ROUND_ROBIN,
  TK_FORMAT_DUPLICATE,
  TK_FORMAT_SEATED
} tk_format;
typedef enum tk_interval { TK_INTERVAL_WILSON = 0, TK_INTERVAL_CLOPPER_PEARSON } tk_interval;
/* What a fault (crash, exit, time-out, memory, error return, illegal action under
 * TK_ILLEGAL_FORFEIT) does to its unit; docs/referee.md, "Faults". */
typedef enum tk_fault_policy {
  TK_POLICY_FORFEIT = 0, /* the faulting agent's result is the worst possible; the run goes on */
  TK_POLICY_SKIP,        /* the unit is recorded but excluded from every statistic */
  TK_POLICY_ABORT        /* the run stops at the first faulted unit (in unit order) */
} tk_fault_policy;
typedef enum tk_illegal_policy {
  TK_ILLEGAL_FORFEIT = 0, /* an illegal action is a fault (fault_policy applies) */
  TK_ILLEGAL_SUBSTITUTE   /* it is replaced by the game's fallback action and the game goes on */
} tk_illegal_policy;

enum { TK_SPEC_MAX_AGENTS = 64, TK_LABEL_MAX = 64, TK_SPEC_MAX_BYTES = 1 << 20 };

/* The confidence levels a spec may ask for: every interval the statistics compute is finite
 * there, even from two walls (a Student-t quantile with one degree of freedom). */
#define TK_CONFIDENCE_MIN 0.5
#define TK_CONFIDENCE_MAX 0.999

typedef struct tk_spec_agent {
  char *plugin;            /* as written: a plugin name ("greedy") or a path to a .so */
  char label[TK_LABEL_MAX];/* unique; letters, digits and _.:+=- only, so that it needs no
                              escaping in a table, a file name or JSON; defaults to the
                              plugin's file name without .so */
  json_t *params;          /* owned: the spec's params object ({} if absent) */
  int external;            /* 1: {"external": true}: a client of `taikai serve` plays it (no
                              plugin; `plugin` is NULL); `taikai run` refuses such a spec */
  int isolated;            /* "isolation": 0 "worker" (default: the plugin is called in the
                              worker's process), 1 "process" (in a process of its own) */
} tk_spec_agent;

typedef struct tk_spec {
  char *path;           /* the file it came from ("<spec>" for strings) */
  char *game;           /* "solo" */
  uint64_t seed;        /* tournament seed (default 1) */
  uint64_t walls;       /* walls to play (default 1000) */
  tk_format format;     /* default field */
  int nagents;
  tk_spec_agent *agents;/* owned array of nagents */
  json_t *rules;        /* owned: the game's rule options ({} if absent) */
  char *output;         /* output folder (default runs/<spec file name without .json>) */
  double confidence;    /* interval level (default 0.95), TK_CONFIDENCE_MIN to _MAX */
  tk_interval proportion; /* interval for rates (default Wilson) */
  int time_limit_ms;    /* per call of an agent, in `clock` time; over it is a fault (10000; 0
                         * none) */
  int wall_clock;       /* "clock": 0 "cpu" (default: CPU time of the agent's process tree), 1
                         * "wall" (wall-clock time) */
  int idle_limit_ms;    /* per call, CPU clock only: time neither running nor waiting to run
                         * (asleep, blocked on I/O); over it is a time-out (default
                         * time_limit_ms; 0 none) */
  int jobs;             /* worker processes (default 1); -j overrides */
  /* limits and fault handling */
  int game_time_limit_ms; /* per agent per unit: its calls' total time (default 0: none) */
  int memory_limit_mb;    /* per worker process (default 0: none) */
  tk_fault_policy fault_policy;     /* default TK_POLICY_FORFEIT */
  tk_illegal_policy illegal_policy; /* default TK_ILLEGAL_FORFEIT */
} tk_spec;

/* Reads and validates the spec file `path` (at most TK_SPEC_MAX_BYTES, read with that bound, so
 * /dev/zero or a huge file is refused, not swallowed). Returns 0 with `out` filled (free with
 * tk_spec_free), or TK_EIO / TK_ERANGE (too large) / TK_EPARSE / TK_EINVAL with a message in
 * `err` of the form "<path>: field '<name>': <problem>, got <value>". */
int tk_spec_load(const char *path, tk_spec *out, tk_error *err);
/* The same from JSON text; `path` is used in messages and for the default output folder. */
int tk_spec_parse(const char *text, const char *path, tk_spec *out, tk_error *err);
/* Frees what a spec owns; a zeroed or NULL spec is fine. */
void tk_spec_free(tk_spec *s);

const char *tk_format_name(tk_format f);
const char *tk_interval_name(tk_interval i);
const char *tk_fault_policy_name(tk_fault_policy p);
const char *tk_illegal_policy_name(tk_illegal_policy p);

/* The resolved spec as a new JSON object (caller owns): every field with its default filled,
 * as accepted by tk_spec_parse. */
json_t *tk_spec_to_json(const tk_spec *s);

/* The JSON Schema of a spec: the fields every spec shares (harness/core/spec.schema.base.json)
 * with "game" one of the registered games and, for each, "rules" following the game's fragment
 * (tk_game.rules_schema). A new reference, or NULL with `err` set (a fragment that is not JSON:
 * a defect of the build). `taikai schema` prints it; harness/spec.schema.json is its output. */
json_t *tk_spec_schema(tk_error *err);
#endif
