/* harness/core/fault.c — fault kinds, their reasons and their record in games.jsonl lines (fault.h).
 * Reasons hold no measured figure (elapsed time, bytes in use): a line must not depend on the
 * machine's load, only on what the agent did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "taikai/records.h"

/* records.tkr's readers refuse a fault_kind they do not know. */
TK_STATIC_ASSERT((int)TK_FAULT_KINDS == (int)TK_RECORDS_FAULT_KINDS, "records.h: TK_RECORDS_FAULT_KINDS");

static const char *const KIND[TK_FAULT_KINDS] = {"none",   "crash",   "exit", "timeout",
                                                 "memory", "illegal", "error"};
static const char *const ENTRY[TK_ENTRY_COUNT] = {"none",    "create",   "begin_game",
                                                  "act",     "end_game", "destroy"};

const char *tk_fault_kind_name(int kind) {
  return kind > 0 && kind < TK_FAULT_KINDS ? KIND[kind] : KIND[0];
}

int tk_fault_kind_of(const char *name) {
  for (int k = 1; name && k < TK_FAULT_KINDS; k++)
    if (!strcmp(name, KIND[k])) return k;
  return TK_FAULT_NONE;
}

int tk_entry_of(const char *name) {
  for (int e = 1; name && e < TK_ENTRY_COUNT; e++)
    if (!strcmp(name, ENTRY[e])) return e;
  return TK_ENTRY_NONE;
}

const char *tk_entry_name(int entry) {
  return entry > 0 && entry < TK_ENTRY_COUNT ? ENTRY[entry] : ENTRY[0];
}

/* glibc's strsignal is not thread-safe and varies by locale; names of the usual ones. */
static const char *signal_text(int sig) {
  switch (sig) {
    case 1: return "Hangup";
    case 2: return "Interrupt";
    case 4: return "Illegal instruction";
    case 5: return "Trace/breakpoint trap";
    case 6: return "Aborted";
    case 7: return "Bus error";
    case 8: return "Floating point exception";
    case 9: return "Killed";
    case 11: return "Segmentation fault";
    case 13: return "Broken pipe";
    case 15: return "Terminated";
    case 24: return "CPU time limit exceeded";
    case 25: return "File size limit exceeded";
    case 31: return "Bad system call";
    default: return "signal";
  }
}

int tk_fault_reason(const tk_fault *f, char *buf, size_t cap) {
  char where[256];
  const char *entry = tk_entry_name(f->entry);
  if (f->decision[0]) snprintf(where, sizeof where, "in %s (%s)", entry, f->decision);
  else snprintf(where, sizeof where, "in %s", entry);
  int n;
  switch (f->kind) {
    case TK_FAULT_CRASH:
      if (f->signal)
        n = snprintf(buf, cap, "crash: killed by signal %d (%s) %s", f->signal,
                     signal_text(f->signal), where);
      else /* sanitizer builds: the sanitizer caught the signal, reported it and exited */
        n = snprintf(buf, cap, "crash: reported by the sanitizer (see stderr) %s", where);
      break;
    case TK_FAULT_EXIT:
      n = snprintf(buf, cap, "exit: the agent ended its worker process with exit status %d %s",
                   f->exit_status, where);
      break;
    case TK_FAULT_TIMEOUT:
      if (f->game_limit == TK_LIMIT_GAME)
        n = snprintf(buf, cap, "timeout: over the %d ms per-game limit %s", f->limit_ms, where);
      else if (f->game_limit == TK_LIMIT_IDLE)
        n = snprintf(buf, cap, "timeout: idle (neither running nor waiting to run) for over %d "
                     "ms %s", f->limit_ms, where);
      else if (f->entry == TK_ENTRY_ACT)
        n = snprintf(buf, cap, "timeout: no decision within %d ms %s", f->limit_ms, where);
      else
        n = snprintf(buf, cap, "timeout: %s did not return within %d ms%s%s%s", entry,
                     f->limit_ms, f->decision[0] ? " (" : "", f->decision,
                     f->decision[0] ? ")" : "");
      break;
    case TK_FAULT_MEMORY:
      n = snprintf(buf, cap, "memory: over the %d MB memory limit %s", f->limit_mb, where);
      break;
    case TK_FAULT_ILLEGAL:
      n = snprintf(buf, cap, "illegal action %s: %s", where, f->detail);
      break;
    case TK_FAULT_ERROR:
      n = snprintf(buf, cap, "error: %s failed%s%s%s%s%s", entry, f->detail[0] ? ": " : "",
                   f->detail, f->decision[0] ? " (" : "", f->decision, f->decision[0] ? ")" : "");
      break;
    default:
      n = snprintf(buf, cap, "no fault");
  }
  return n < 0 ? 0 : (size_t)n >= cap ? (int)cap - 1 : n;
}

/* Hand-written (no allocation): workers call it, possibly after an agent exhausted the memory
 * limit. */
int tk_fault_json(const tk_fault *f, char *buf, size_t cap) {
  char reason[512];
  tk_fault_reason(f, reason, sizeof reason);
  size_t n = 0;
#define ADD(...)                                                              \
  do {                                                                        \
    int w_ = snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0, __VA_ARGS__); \
    if (w_ > 0) n += (size_t)w_;                                              \
  } while (0)
#define QUOTE(s)                                                              \
  do {                                                                        \
    if (n < cap) n += (size_t)tk_json_quote((s), buf + n, cap - n);           \
    else n += (size_t)tk_json_quote((s), buf, 0); /* measures only */         \
  } while (0)
  ADD(",\"fault\":");
  QUOTE(reason);
  ADD(",\"fault_info\":{\"kind\":\"%s\",\"entry\":\"%s\",\"seat\":%d",
      tk_fault_kind_name(f->kind), tk_entry_name(f->entry), f->seat);
  if (f->kind == TK_FAULT_CRASH || (f->kind == TK_FAULT_MEMORY && f->signal))
    ADD(",\"signal\":%d", f->signal);
  if (f->kind == TK_FAULT_EXIT) ADD(",\"exit_status\":%d", f->exit_status);
  if (f->kind == TK_FAULT_TIMEOUT)
    ADD(",\"limit\":\"%s\",\"limit_ms\":%d",
        f->game_limit == TK_LIMIT_GAME ? "game" : f->game_limit == TK_LIMIT_IDLE ? "idle" : "call",
        f->limit_ms);
  if (f->kind == TK_FAULT_MEMORY) ADD(",\"limit_mb\":%d", f->limit_mb);
  if (f->detail[0]) {
    ADD(",\"detail\":");
    QUOTE(f->detail);
  }
  if (f->decision[0]) {
    ADD(",\"decision\":");
    QUOTE(f->decision);
  }
  if (f->message[0]) {
    ADD(",\"message\":");
    QUOTE(f->message);
  }
  ADD("}");
#undef ADD
#undef QUOTE
  if (cap) buf[n < cap ? n : cap - 1] = '\0';
  return (int)n;
}

void tk_fault_set_message(tk_fault *f, const char *msg) {
  size_t i = 0;
  for (; msg && msg[i] && i + 1 < sizeof f->message; i++) {
    unsigned char c = (unsigned char)msg[i];
    f->message[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  f->message[i] = '\0';
}
