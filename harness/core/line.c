/* harness/core/line.c — games.jsonl lines written from, and read back into, a tk_unit_rec
 * (see line.h). The writer allocates nothing (it runs in the referee's hot path); the reader
 * uses Jansson. Reading what the writer wrote gives the same record back, so a resumed run's
 * statistics equal an uninterrupted run's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"

typedef struct out {
  char *buf;
  size_t cap, n;
} out;

static void put(out *o, const char *fmt, ...) TK_PRINTF(2, 3);
static void put(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(o->n < o->cap ? o->buf + o->n : NULL, o->n < o->cap ? o->cap - o->n : 0, fmt,
                    ap);
  va_end(ap);
  if (w > 0) o->n += (size_t)w;
}

static void quote(out *o, const char *s) {
  if (o->n < o->cap) o->n += (size_t)tk_json_quote(s, o->buf + o->n, o->cap - o->n);
  else o->n += (size_t)tk_json_quote(s, NULL, 0);
}

int tk_line_write(const tk_game *g, const tk_unit_rec *rec, const char *const *labels, char *buf,
                  size_t cap) {
  out o = {buf, cap, 0};
  put(&o, "{\"unit\":%llu,\"wall\":%llu,\"seats\":[", (unsigned long long)rec->unit,
      (unsigned long long)rec->wall);
  for (int s = 0; s < rec->nseats; s++) {
    const tk_seat_rec *x = &rec->seat[s];
    put(&o, "%s{\"agent\":%d,\"label\":", s ? "," : "", x->agent);
    quote(&o, labels[x->agent]);
    for (int i = 0; i < g->nfields; i++) {
      if (g->fields_def[i].type == TK_FIELD_BOOL)
        put(&o, ",\"%s\":%s", g->fields_def[i].name, x->f[i] ? "true" : "false");
      else
        put(&o, ",\"%s\":%lld", g->fields_def[i].name, (long long)x->f[i]);
    }
    if (x->extra[0]) put(&o, ",%s", x->extra);
    if (x->illegal) {
      put(&o, ",\"illegal\":%d,\"illegal_first\":", x->illegal);
      quote(&o, x->illegal_first);
    }
    if (x->fault.kind) {
      size_t room = o.n < o.cap ? o.cap - o.n : 0;
      o.n += (size_t)tk_fault_json(&x->fault, room ? o.buf + o.n : NULL, room);
    }
    put(&o, "}");
  }
  put(&o, "]%s}", rec->skipped ? ",\"skipped\":true" : "");
  if (o.n >= cap) return TK_ERANGE;
  return (int)o.n;
}

/* ------------------------------------------------------------------ reading */

static int bad(tk_error *err, int seat, const char *what, const char *key) {
  if (seat < 0) return tk_error_set(err, TK_EPARSE, -1, "field '%s': %s", key, what);
  return tk_error_set(err, TK_EPARSE, -1, "seat %d: field '%s': %s", seat, key, what);
}

static int get_int(json_t *o, const char *key, int64_t *v) {
  json_t *x = json_object_get(o, key);
  if (!json_is_integer(x)) return -1;
  *v = (int64_t)json_integer_value(x);
  return 0;
}

static void get_str(json_t *o, const char *key, char *buf, size_t cap) {
  const char *s = json_string_value(json_object_get(o, key));
  snprintf(buf, cap, "%s", s ? s : "");
}

/* A fault read back from "fault" and "fault_info" (or, for a line without fault_info, its kind
 * guessed from the reason's first word and the reason kept as the detail). */
static void read_fault(json_t *seat, int s, tk_fault *f) {
  memset(f, 0, sizeof *f);
  json_t *reason = json_object_get(seat, "fault");
  if (!reason) return;
  json_t *info = json_object_get(seat, "fault_info");
  int k = tk_fault_kind_of(json_string_value(json_object_get(info, "kind")));
  f->seat = s;
  if (k == TK_FAULT_NONE) {
    const char *r = json_string_value(reason);
    f->kind = !r ? TK_FAULT_ERROR
              : !strncmp(r, "crash", 5)   ? TK_FAULT_CRASH
              : !strncmp(r, "timeout", 7) ? TK_FAULT_TIMEOUT
              : !strncmp(r, "illegal", 7) ? TK_FAULT_ILLEGAL
              : !strncmp(r, "memory", 6)  ? TK_FAULT_MEMORY
              : !strncmp(r, "exit", 4)    ? TK_FAULT_EXIT
                                          : TK_FAULT_ERROR;
    snprintf(f->detail, sizeof f->detail, "%s", r ? r : "");
    return;
  }
  int64_t v;
  f->kind = k;
  f->entry = tk_entry_of(json_string_value(json_object_get(info, "entry")));
  if (!get_int(info, "seat", &v)) f->seat = (int)v;
  if (!get_int(info, "signal", &v)) f->signal = (int)v;
  if (!get_int(info, "exit_status", &v)) f->exit_status = (int)v;
  if (!get_int(info, "limit_ms", &v)) f->limit_ms = (int)v;
  if (!get_int(info, "limit_mb", &v)) f->limit_mb = (int)v;
  const char *lim = json_string_value(json_object_get(info, "limit"));
  f->game_limit = !lim                  ? TK_LIMIT_CALL
                  : !strcmp(lim, "game") ? TK_LIMIT_GAME
                  : !strcmp(lim, "idle") ? TK_LIMIT_IDLE
                                         : TK_LIMIT_CALL;
  get_str(info, "detail", f->detail, sizeof f->detail);
  get_str(info, "decision", f->decision, sizeof f->decision);
  get_str(info, "message", f->message, sizeof f->message);
}

static int is_field(const tk_game *g, const char *key) {
  static const char *const own[] = {"agent", "label", "illegal", "illegal_first", "fault",
                                    "fault_info"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (!strcmp(key, own[i])) return 1;
  for (int i = 0; i < g->nfields; i++)
    if (!strcmp(key, g->fields_def[i].name)) return 1;
  return 0;
}

static int read_seat(const tk_game *g, json_t *o, int s, int nagents, tk_seat_rec *x,
                     tk_error *err) {
  int64_t v;
  if (!json_is_object(o)) return tk_error_set(err, TK_EPARSE, -1, "seat %d: not an object", s);
  if (get_int(o, "agent", &v) || v < 0 || v >= nagents)
    return bad(err, s, "expected an agent index of this run", "agent");
  x->agent = (int32_t)v;
  for (int i = 0; i < g->nfields; i++) {
    json_t *f = json_object_get(o, g->fields_def[i].name);
    if (g->fields_def[i].type == TK_FIELD_BOOL) {
      if (!json_is_boolean(f)) return bad(err, s, "expected true or false", g->fields_def[i].name);
      x->f[i] = json_is_true(f);
    } else {
      if (!json_is_integer(f)) return bad(err, s, "expected an integer", g->fields_def[i].name);
      x->f[i] = (int64_t)json_integer_value(f);
    }
  }
  if (json_object_get(o, "illegal")) {
    if (get_int(o, "illegal", &v) || v < 0) return bad(err, s, "expected a count", "illegal");
    x->illegal = (int32_t)v;
    get_str(o, "illegal_first", x->illegal_first, sizeof x->illegal_first);
  }
  read_fault(o, s, &x->fault);
  /* the game's extra members, kept in their order */
  size_t n = 0;
  const char *key;
  json_t *val;
  json_object_foreach(o, key, val) {
    if (is_field(g, key)) continue;
    char *text = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
    if (!text) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    char k[128];
    tk_json_quote(key, k, sizeof k);
    int w = snprintf(x->extra + n, sizeof x->extra - n, "%s%s:%s", n ? "," : "", k, text);
    free(text);
    if (w < 0 || (size_t)w >= sizeof x->extra - n)
      return bad(err, s, "extra members too long", key);
    n += (size_t)w;
  }
  return 0;
}

int tk_line_read(const tk_game *g, const char *line, size_t len, int nagents, tk_unit_rec *rec,
                 tk_error *err) {
  memset(rec, 0, offsetof(tk_unit_rec, seat));
  json_error_t jerr;
  json_t *j = json_loadb(line, len, JSON_PRESERVE_ORDER, &jerr);
  if (!json_is_object(j)) {
    json_decref(j);
    return tk_error_set(err, TK_EPARSE, -1, "not a JSON object (%s at column %d)", jerr.text,
                        jerr.column);
  }
  int rc = 0;
  int64_t u = 0, w = 0;
  json_t *seats = json_object_get(j, "seats");
  if (get_int(j, "unit", &u) || u < 0) rc = bad(err, -1, "expected a unit number", "unit");
  else if (get_int(j, "wall", &w) || w < 0) rc = bad(err, -1, "expected a wall number", "wall");
  else if (!json_is_array(seats) || json_array_size(seats) != (size_t)g->nseats)
    rc = tk_error_set(err, TK_EPARSE, -1, "expected 'seats' to hold %d seat%s for game '%s'",
                      g->nseats, g->nseats == 1 ? "" : "s", g->name);
  if (!rc) {
    rec->unit = (uint64_t)u;
    rec->wall = (uint64_t)w;
    rec->nseats = g->nseats;
    rec->skipped = json_is_true(json_object_get(j, "skipped"));
    for (int s = 0; s < g->nseats && !rc; s++) {
      memset(&rec->seat[s], 0, sizeof rec->seat[s]);
      rc = read_seat(g, json_array_get(seats, (size_t)s), s, nagents, &rec->seat[s], err);
    }
  }
  json_decref(j);
  return rc;
}
