/* harness/records/opts.h — one parser for every command's options. A command declares a table of
 * its options (what each is, where its value goes, whether it may be repeated) and calls
 * tk_opts_parse once; the errors (unknown option, missing, malformed or out-of-range value,
 * an option given twice) read the same in every command:
 *   taikai CMD: --walls: 'x' is not a whole number (see taikai CMD --help)
 * Accepted forms: --name VALUE, --name=VALUE, -s VALUE, -sVALUE, flags without a value, and
 * `--` (every later argument is positional). A lone `-` is positional. */
#ifndef TAIKAI_HARNESS_OPTS_H
#define TAIKAI_HARNESS_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "taikai/common.h"

typedef enum tk_opt_kind {
  TK_OPT_FLAG,   /* no value; dest (int *, may be NULL) is set to 1 */
  TK_OPT_STRING, /* dest (const char **) borrows the argument; '' refused unless empty_ok */
  TK_OPT_U64,    /* dest (uint64_t *): decimal digits, in [min, max] when max > 0 */
  TK_OPT_INT,    /* dest (int *): decimal, optionally signed, in [min, max] when max > 0 */
  TK_OPT_DOUBLE, /* dest (double *): a finite number, in [lo, hi] ((lo, hi) if open) when lo < hi
                    (hi INFINITY: a lower bound only) */
  TK_OPT_CHOICE, /* dest (int *): the index of the value in `choices` */
  TK_OPT_CALL,   /* call(dest, spelling, value, err) parses the value (NULL for an optional one
                    not given); it returns 0, or a negative TK_E code with err->msg set */
} tk_opt_kind;

typedef struct tk_opt {
  const char *name;   /* long name without "--" ("walls"); a NULL name ends the table */
  char short_name;    /* 'j' for -j N and -jN; 0 for none */
  tk_opt_kind kind;
  void *dest;         /* where the value goes (see the kinds) */
  int once;           /* given twice (or with another of its group) is refused */
  const char *value;  /* the value's name in help ("N"); NULL for flags */
  const char *help;   /* one line for help */
  long long min;      /* TK_OPT_U64 / TK_OPT_INT: the range, checked when max > 0 */
  unsigned long long max;
  double lo, hi;      /* TK_OPT_DOUBLE: the range, checked when lo < hi */
  int open;           /* TK_OPT_DOUBLE: the bounds themselves are outside the range */
  int group;          /* non-zero: entries of one group count as one option for `once` */
  int optional;       /* TK_OPT_CALL: a value only as --name=VALUE; otherwise call gets NULL */
  int empty_ok;       /* TK_OPT_STRING: '' is a value */
  int *given;         /* may be NULL; set to 1 once the option is parsed */
  int (*call)(void *dest, const char *spelling, const char *value, tk_error *err);
  const char *const *choices; /* TK_OPT_CHOICE: the values, NULL-terminated */
} tk_opt;

/* The options seen so far, for the `once` rule across calls of tk_opts_one. Zero it first. */
#define TK_OPT_SPELLING 64
typedef struct tk_opts_seen {
  const tk_opt *opt[64];
  char spelling[64][TK_OPT_SPELLING]; /* each as typed, for the message ("--haitei and --houtei") */
  int n;
} tk_opts_seen;

/* Parses argv[1..argc-1] against `table` (NULL-terminated). Arguments that are not options go
 * to pos[0..maxpos-1] in order; with npos, *npos counts them all (the caller words its own
 * "one X at a time" from pos[0] and pos[1]); without, more than maxpos is an error. Returns 0;
 * 1 when --help or -h appears before any `--` (nothing else is parsed then); 2 on a usage
 * error, printed to stderr as "taikai CMD: ... (see taikai CMD --help)". */
int tk_opts_parse(const char *cmd, const tk_opt *table, int argc, char **argv, const char **pos,
                  int maxpos, int *npos);

/* The same with the error in `err` instead of on stderr (its message without the "taikai CMD: "
 * prefix); returns 0, 1 (help) or a negative TK_E code. */
int tk_opts_parse_err(const char *cmd, const tk_opt *table, int argc, char **argv,
                      const char **pos, int maxpos, int *npos, tk_error *err);

/* tk_opts_parse for a program of its own (a trainer): PROG, its name in full, stands where
 * "taikai CMD" does in the messages ("PROG: ... (see PROG --help)"). */
int tk_opts_parse_prog(const char *prog, const tk_opt *table, int argc, char **argv,
                       const char **pos, int maxpos, int *npos);

/* Parses the one option at argv[*i] (advancing *i past a separate value) against `table`, for a
 * command that takes its options from several parsers: 1 it was one of the table's, 0 it is not
 * (nothing consumed), -2 a usage error (printed as tk_opts_parse prints it). `seen` carries the
 * `once` rule from call to call. */
int tk_opts_one(const char *cmd, const tk_opt *table, tk_opts_seen *seen, int argc, char **argv,
                int *i);

/* Writes one line per option of `table` ("  --walls N   help") to f. */
void tk_opts_help(FILE *f, const tk_opt *table);

#endif
