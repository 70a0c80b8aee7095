/* harness/records/opts.c — the option parser of every command (opts.h): finds each argument's
 * table entry, checks the `once` rule, parses the value by its kind, and words every error one
 * way. It owns no memory: values borrow argv. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/* Sets err to "MSG (see PROG --help)", replacing what it held, and returns TK_EINVAL. PROG is the
 * program's name in full ("taikai merge", "solo_linear_train"). */
static int usage_error(tk_error *err, const char *prog, const char *msg) {
  tk_error_clear(err);
  return tk_error_set(err, TK_EINVAL, -1, "%s (see %s --help)", msg, prog);
}

/* "taikai CMD", the program name of a command, into buf. */
static const char *prog_of(const char *cmd, char *buf, size_t cap) {
  snprintf(buf, cap, "taikai %s", cmd);
  return buf;
}

/* The entry whose long name is name[0..len) (or, when len is 0, whose short name is *name). */
static const tk_opt *find(const tk_opt *t, const char *name, size_t len) {
  for (; t->name; t++)
    if (len ? strlen(t->name) == len && !strncmp(t->name, name, len)
            : t->short_name && t->short_name == *name)
      return t;
  return NULL;
}

/* The `once` rule: refuses o when it, or another of its group, was seen; else records it. */
static int check_once(const tk_opt *o, const char *spelling, tk_opts_seen *s, char *msg,
                      size_t cap) {
  for (int k = 0; k < s->n; k++) {
    const tk_opt *p = s->opt[k];
    if (p != o && !(o->group && p->group == o->group)) continue;
    if (!o->once && !p->once) continue;
    if (!strcmp(s->spelling[k], spelling)) snprintf(msg, cap, "%s given twice", spelling);
    else snprintf(msg, cap, "%s and %s both given: give one", s->spelling[k], spelling);
    return -1;
  }
  if (s->n < (int)(sizeof s->opt / sizeof s->opt[0])) {
    s->opt[s->n] = o;
    snprintf(s->spelling[s->n++], sizeof s->spelling[0], "%s", spelling);
  }
  return 0;
}

/* Parses `v` into o->dest by o's kind; on failure writes the reason to msg and returns -1. */
static int parse_value(const tk_opt *o, const char *sp, const char *v, char *msg, size_t cap) {
  char *end = NULL;
  errno = 0;
  switch (o->kind) {
  case TK_OPT_STRING:
    if (!*v && !o->empty_ok) {
      snprintf(msg, cap, "%s needs a value, got ''", sp);
      return -1;
    }
    if (o->dest) *(const char **)o->dest = v;
    return 0;
  case TK_OPT_U64: {
    unsigned long long x = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
    if (!(*v >= '0' && *v <= '9') || errno || *end) {
      snprintf(msg, cap, "%s: '%s' is not a whole number", sp, v);
      return -1;
    }
    if (o->max && ((o->min > 0 && x < (unsigned long long)o->min) || x > o->max)) {
      snprintf(msg, cap, "%s: '%s' is not a whole number from %lld to %llu", sp, v, o->min, o->max);
      return -1;
    }
    if (o->dest) *(uint64_t *)o->dest = x;
    return 0;
  }
  case TK_OPT_INT: {
    const char *d = *v == '-' || *v == '+' ? v + 1 : v;
    long long x = *d >= '0' && *d <= '9' ? strtoll(v, &end, 10) : 0;
    if (!(*d >= '0' && *d <= '9') || errno || *end) {
      snprintf(msg, cap, "%s: '%s' is not a whole number", sp, v);
      return -1;
    }
    long long lo = o->max ? o->min : INT_MIN;
    unsigned long long hi = o->max ? o->max : INT_MAX;
    if (x < lo || (x >= 0 && (unsigned long long)x > hi)) {
      snprintf(msg, cap, "%s: '%s' is not a whole number from %lld to %llu", sp, v, lo, hi);
      return -1;
    }
    if (o->dest) *(int *)o->dest = (int)x;
    return 0;
  }
  case TK_OPT_DOUBLE: {
    double x = *v ? strtod(v, &end) : 0;
    if (!*v || errno || *end || !isfinite(x)) {
      snprintf(msg, cap, "%s: '%s' is not a number", sp, v);
      return -1;
    }
    int out = o->open ? !(x > o->lo && x < o->hi) : !(x >= o->lo && x <= o->hi);
    if (o->lo < o->hi && out && isinf(o->hi)) { /* a lower bound only */
      snprintf(msg, cap, "%s: '%s' is not a number %s %g", sp, v, o->open ? ">" : ">=", o->lo);
      return -1;
    }
    if (o->lo < o->hi && out) {
      snprintf(msg, cap, "%s: '%s' is not a number %s %g %s %g", sp, v,
               o->open ? "between" : "from", o->lo, o->open ? "and" : "to", o->hi);
      return -1;
    }
    if (o->dest) *(double *)o->dest = x;
    return 0;
  }
  case TK_OPT_CHOICE: {
    int k = 0;
    while (o->choices[k] && strcmp(o->choices[k], v)) k++;
    if (!o->choices[k]) {
      int n = snprintf(msg, cap, "%s: '%s' is not one of ", sp, v);
      for (int c = 0; o->choices[c] && n >= 0 && (size_t)n < cap; c++)
        n += snprintf(msg + n, cap - (size_t)n, "%s%s", c ? ", " : "", o->choices[c]);
      return -1;
    }
    if (o->dest) *(int *)o->dest = k;
    return 0;
  }
  default:
    snprintf(msg, cap, "%s: not an option kind", sp);
    return -1;
  }
}

/* Parses the option at argv[*i]: 1 done, 0 not an option of the table (or not an option at
 * all), negative with err set on a usage error. */
static int one(const char *prog, const tk_opt *table, tk_opts_seen *seen, int argc, char **argv,
               int *i, tk_error *err) {
  const char *arg = argv[*i], *eq = NULL, *attached = NULL;
  const tk_opt *o;
  char sp[TK_OPT_SPELLING], msg[TK_ERROR_MSG_MAX - 64];
  if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--")) return 0;
  if (arg[1] == '-') { /* --name or --name=VALUE */
    eq = strchr(arg + 2, '=');
    size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    if (!len || !(o = find(table, arg + 2, len))) return 0;
    snprintf(sp, sizeof sp, "--%s", o->name);
  } else { /* -s, -sVALUE */
    if (!(o = find(table, arg + 1, 0))) return 0;
    if (arg[2] && o->kind == TK_OPT_FLAG) return 0;
    attached = arg[2] ? arg + 2 : NULL;
    snprintf(sp, sizeof sp, "-%c", o->short_name);
  }
  if (check_once(o, sp, seen, msg, sizeof msg)) return usage_error(err, prog, msg);
  const char *v = eq ? eq + 1 : attached;
  if (o->kind == TK_OPT_FLAG) {
    if (eq) {
      snprintf(msg, sizeof msg, "%s takes no value (got '%s')", sp, arg);
      return usage_error(err, prog, msg);
    }
    if (o->dest) *(int *)o->dest = 1;
  } else {
    if (!v && !(o->kind == TK_OPT_CALL && o->optional)) {
      if (*i + 1 >= argc) {
        snprintf(msg, sizeof msg, "%s needs a value", sp);
        return usage_error(err, prog, msg);
      }
      v = argv[++*i];
    }
    if (o->kind == TK_OPT_CALL) {
      if (o->call(o->dest, sp, v, err) < 0) {
        snprintf(msg, sizeof msg, "%.900s", err->msg);
        return usage_error(err, prog, msg);
      }
    } else if (parse_value(o, sp, v, msg, sizeof msg)) {
      return usage_error(err, prog, msg);
    }
  }
  if (o->given) *o->given = 1;
  return 1;
}

int tk_opts_one(const char *cmd, const tk_opt *table, tk_opts_seen *seen, int argc, char **argv,
                int *i) {
  tk_error err;
  tk_error_clear(&err);
  char prog[TK_OPT_SPELLING];
  int rc = one(prog_of(cmd, prog, sizeof prog), table, seen, argc, argv, i, &err);
  if (rc < 0) {
    fprintf(stderr, "%s: %s\n", prog, err.msg);
    return -2;
  }
  return rc;
}

/* tk_opts_parse_err with the program's name in full. */
static int parse_prog(const char *prog, const tk_opt *table, int argc, char **argv,
                      const char **pos, int maxpos, int *npos, tk_error *err) {
  tk_opts_seen seen;
  memset(&seen, 0, sizeof seen);
  int n = 0, dashdash = 0;
  char msg[TK_ERROR_MSG_MAX - 64];
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!dashdash && !strcmp(a, "--")) {
      dashdash = 1;
      continue;
    }
    if (!dashdash) {
      int rc = one(prog, table, &seen, argc, argv, &i, err);
      if (rc < 0) return rc;
      if (rc) continue;
      if (a[0] == '-' && a[1]) {
        snprintf(msg, sizeof msg, "unknown option '%s'", a);
        return usage_error(err, prog, msg);
      }
    }
    if (n >= maxpos && !npos) {
      if (!maxpos) snprintf(msg, sizeof msg, "unexpected argument '%s'", a);
      else snprintf(msg, sizeof msg, "at most %d argument%s (got '%s' too)", maxpos,
                    maxpos == 1 ? "" : "s", a);
      return usage_error(err, prog, msg);
    }
    if (n < maxpos) pos[n] = a;
    n++;
  }
  if (npos) *npos = n;
  return 0;
}

int tk_opts_parse_err(const char *cmd, const tk_opt *table, int argc, char **argv,
                      const char **pos, int maxpos, int *npos, tk_error *err) {
  char prog[TK_OPT_SPELLING];
  return parse_prog(prog_of(cmd, prog, sizeof prog), table, argc, argv, pos, maxpos, npos, err);
}

int tk_opts_parse_prog(const char *prog, const tk_opt *table, int argc, char **argv,
                       const char **pos, int maxpos, int *npos) {
  tk_error err;
  tk_error_clear(&err);
  int rc = parse_prog(prog, table, argc, argv, pos, maxpos, npos, &err);
  if (rc < 0) fprintf(stderr, "%s: %s\n", prog, err.msg);
  return rc < 0 ? 2 : rc;
}

int tk_opts_parse(const char *cmd, const tk_opt *table, int argc, char **argv, const char **pos,
                  int maxpos, int *npos) {
  char prog[TK_OPT_SPELLING];
  return tk_opts_parse_prog(prog_of(cmd, prog, sizeof prog), table, argc, argv, pos, maxpos,
                            npos);
}

void tk_opts_help(FILE *f, const tk_opt *t) {
  for (; t->name; t++) {
    char left[96];
    if (t->short_name)
      snprintf(left, sizeof left, "-%c, --%s%s%s", t->short_name, t->name, t->value ? " " : "",
               t->value ? t->value : "");
    else
      snprintf(left, sizeof left, "--%s%s%s", t->name, t->value ? " " : "", t->value ? t->value : "");
    fprintf(f, "  %-20s %s\n", left, t->help ? t->help : "");
  }
}
