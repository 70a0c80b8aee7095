/* harness/core/fault.h — agent faults: what went wrong (the kind), in which entry point and
 * seat, and the last decision the agent was asked; the reason people read and the members a
 * games.jsonl line carries (written by line.c).
 *
 * A faulted seat's object in a line's "seats" array carries
 *   "fault": "<one-line reason for people>",
 *   "fault_info": {"kind": K, "entry": E, "seat": S[, "signal": N][, "exit_status": N]
 *                  [, "limit": "call"|"game", "limit_ms": N][, "limit_mb": N]
 *                  [, "detail": "..."][, "decision": "..."][, "message": "..."]}
 * and a seat that made illegal actions "illegal": <count>; a unit excluded by the skip policy
 * has "skipped": true at the top level. Every field is a pure function of what the agent did,
 * never of timing or of the worker that played it, so lines stay byte-identical for any -j. */
#ifndef TAIKAI_HARNESS_FAULT_H
#define TAIKAI_HARNESS_FAULT_H

#include <stddef.h>

#include "taikai/agent.h"

/* Kinds, in the order of summary.json's "fault_kinds". */
typedef enum tk_fault_kind {
  TK_FAULT_NONE = 0,
  TK_FAULT_CRASH,   /* the worker was killed by a signal (SIGSEGV, SIGABRT, SIGFPE, ...) */
  TK_FAULT_EXIT,    /* the worker process ended (exit(), _exit()) inside an agent call */
  TK_FAULT_TIMEOUT, /* a call, or the agent's calls in one game, took longer than the limit */
  TK_FAULT_MEMORY,  /* the worker ran past the memory limit */
  TK_FAULT_ILLEGAL, /* an action outside the legal set (illegal_policy forfeit) */
  TK_FAULT_ERROR,   /* an entry point returned an error (create NULL, act/begin_game < 0) */
  TK_FAULT_KINDS
} tk_fault_kind;

/* Agent entry points (tk_agent_descriptor). */
typedef enum tk_entry {
  TK_ENTRY_NONE = 0,
  TK_ENTRY_CREATE,
  TK_ENTRY_BEGIN,
  TK_ENTRY_ACT,
  TK_ENTRY_END,
  TK_ENTRY_DESTROY,
  TK_ENTRY_COUNT
} tk_entry;

/* Which limit a time-out passed: a call's time, the agent's total in the unit, or a call's
 * idle time (asleep or blocked: the CPU clock's backstop). */
enum { TK_LIMIT_CALL = 0, TK_LIMIT_GAME = 1, TK_LIMIT_IDLE = 2 };

typedef struct tk_fault {
  int kind;           /* tk_fault_kind; TK_FAULT_NONE: no fault */
  int entry;          /* tk_entry being called */
  int seat;           /* seat of the faulting agent in the unit */
  int signal;         /* crash, memory: the signal that ended the worker (0 if none) */
  int exit_status;    /* exit: the worker's exit status */
  int limit_ms;       /* timeout: the limit that was passed */
  int game_limit;     /* timeout: TK_LIMIT_CALL, TK_LIMIT_GAME or TK_LIMIT_IDLE */
  int limit_mb;       /* memory: the limit */
  char decision[192]; /* the last decision asked, e.g. "turn 3: hand 1155m..., drew 5p" */
  char detail[160];   /* illegal: the action; error: what was returned */
  char message[TK_FAULT_MESSAGE_MAX]; /* error: the agent's own account of it (its last_error:
                                       * e.g. the line an external program sent), printable
                                       * ASCII; "" if it gave none */
} tk_fault;

/* Copies an agent's message into f->message: at most TK_FAULT_MESSAGE_MAX - 1 bytes, every
 * byte outside printable ASCII (0x20-0x7e) as '?', so that it is valid UTF-8 and one line. */
void tk_fault_set_message(tk_fault *f, const char *msg);

/* "crash", "exit", "timeout", "memory", "illegal", "error" ("none" for TK_FAULT_NONE). */
const char *tk_fault_kind_name(int kind);
/* The kind named `name`, or TK_FAULT_NONE. */
int tk_fault_kind_of(const char *name);
/* "create", "begin_game", "act", "end_game", "destroy" ("none"). */
const char *tk_entry_name(int entry);
/* The entry named `name`, or TK_ENTRY_NONE. */
int tk_entry_of(const char *name);

/* The one-line reason for people, e.g. "crash: killed by signal 11 (Segmentation fault) in act
 * (turn 3: hand ..., drew 5p)". Returns its length (truncated to cap - 1). */
int tk_fault_reason(const tk_fault *f, char *buf, size_t cap);

/* Writes `,"fault":"<reason>","fault_info":{...}` (to be placed inside a seat object) into buf.
 * Returns its full length; >= cap means truncated. */
int tk_fault_json(const tk_fault *f, char *buf, size_t cap);

/* Writes `s` as a JSON string literal (quotes included) into buf; returns the full length
 * (>= cap means truncated; cap 0 only measures). */
int tk_json_quote(const char *s, char *buf, size_t cap);

#endif
