/* harness/core/fault.c — fault kinds, their reasons and their record in games.jsonl lines (fault.h).
 * Reasons hold no measured figure (elapsed time, bytes in use): a line must not depend on the
 * machine's load, only on what the agent did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"

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
      if (f->game_limit)
        n = snprintf(buf, cap, "timeout: over the %d ms per-game limit %s", f->limit_ms, where);
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

json_t *tk_fault_info(const tk_fault *f) {
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(tk_fault_kind_name(f->kind)));
  json_object_set_new(o, "entry", json_string(tk_entry_name(f->entry)));
  json_object_set_new(o, "seat", json_integer(f->seat));
  if (f->kind == TK_FAULT_CRASH || (f->kind == TK_FAULT_MEMORY && f->signal))
    json_object_set_new(o, "signal", json_integer(f->signal));
  if (f->kind == TK_FAULT_EXIT) json_object_set_new(o, "exit_status", json_integer(f->exit_status));
  if (f->kind == TK_FAULT_TIMEOUT) {
    json_object_set_new(o, "limit", json_string(f->game_limit ? "game" : "call"));
    json_object_set_new(o, "limit_ms", json_integer(f->limit_ms));
  }
  if (f->kind == TK_FAULT_MEMORY) json_object_set_new(o, "limit_mb", json_integer(f->limit_mb));
  if (f->detail[0]) json_object_set_new(o, "detail", json_string(f->detail));
  if (f->decision[0]) json_object_set_new(o, "decision", json_string(f->decision));
  return o;
}

/* Hand-written (no allocation): workers call it, possibly after an agent exhausted the memory
 * limit. Its fault_info has the same fields in the same order as tk_fault_info's. */
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
    ADD(",\"limit\":\"%s\",\"limit_ms\":%d", f->game_limit ? "game" : "call", f->limit_ms);
  if (f->kind == TK_FAULT_MEMORY) ADD(",\"limit_mb\":%d", f->limit_mb);
  if (f->detail[0]) {
    ADD(",\"detail\":");
    QUOTE(f->detail);
  }
  if (f->decision[0]) {
    ADD(",\"decision\":");
    QUOTE(f->decision);
  }
  ADD("}");
#undef ADD
#undef QUOTE
  if (cap) buf[n < cap ? n : cap - 1] = '\0';
  return (int)n;
}

static int dump_into(json_t *j, char *line, size_t cap) {
  char *text = json_dumps(j, JSON_COMPACT);
  if (!text) return TK_ENOMEM;
  size_t n = strlen(text);
  int rc = 0;
  if (n >= cap) rc = TK_ERANGE;
  else memcpy(line, text, n + 1);
  free(text);
  return rc;
}

int tk_fault_stamp(char *line, size_t cap, const tk_fault *f) {
  json_t *j = json_loads(line, 0, NULL);
  json_t *seat = json_array_get(json_object_get(j, "seats"), (size_t)f->seat);
  if (!json_is_object(seat)) {
    json_decref(j);
    return TK_EPARSE;
  }
  char reason[512];
  tk_fault_reason(f, reason, sizeof reason);
  json_object_set_new(seat, "fault", json_string(reason));
  json_object_set_new(seat, "fault_info", tk_fault_info(f));
  int rc = dump_into(j, line, cap);
  json_decref(j);
  return rc;
}

int tk_fault_mark_skipped(char *line, size_t cap) {
  json_t *j = json_loads(line, 0, NULL);
  if (!json_is_object(j)) {
    json_decref(j);
    return TK_EPARSE;
  }
  json_object_set_new(j, "skipped", json_true());
  int rc = dump_into(j, line, cap);
  json_decref(j);
  return rc;
}

void tk_fault_scan(json_t *line, tk_unit_result *res) {
  res->skipped = json_is_true(json_object_get(line, "skipped"));
  json_t *seats = json_object_get(line, "seats");
  for (int s = 0; s < res->nseats && s < TK_MAX_SEATS; s++) {
    json_t *o = json_array_get(seats, (size_t)s);
    json_t *fault = json_object_get(o, "fault");
    json_t *info = json_object_get(o, "fault_info");
    json_t *ill = json_object_get(o, "illegal");
    res->illegal[s] = json_is_integer(ill) ? (int)json_integer_value(ill) : 0;
    res->fault_kind[s] = TK_FAULT_NONE;
    if (!fault) continue;
    res->fault[s] = 1;
    int k = tk_fault_kind_of(json_string_value(json_object_get(info, "kind")));
    if (k == TK_FAULT_NONE) { /* a line without fault_info: the reason's first word */
      const char *r = json_string_value(fault);
      k = !r ? TK_FAULT_ERROR
          : !strncmp(r, "crash", 5)   ? TK_FAULT_CRASH
          : !strncmp(r, "timeout", 7) ? TK_FAULT_TIMEOUT
          : !strncmp(r, "illegal", 7) ? TK_FAULT_ILLEGAL
          : !strncmp(r, "memory", 6)  ? TK_FAULT_MEMORY
          : !strncmp(r, "exit", 4)    ? TK_FAULT_EXIT
                                      : TK_FAULT_ERROR;
    }
    res->fault_kind[s] = k;
  }
}
