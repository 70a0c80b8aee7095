/* plugins/riichi_score/train.c — build/riichi_penalty_train: builds the table of outcomes behind
 * Penalty(z) (score.h) from the hands of game logs, and reports a table: how many hands it rests
 * on, the kinds of the outcomes a seat does not win by its seat relative to the dealer, and
 * Penalty(z) at a few situations beside the "none" penalty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "efr_data.h"
#include "opts.h"
#include "score.h"
#include "taikai/sha256.h"

#define PROG "riichi_penalty_train"

static void usage(FILE *f) {
  fprintf(f,
          "usage: " PROG " --out FILE INPUT...   build a Penalty(z) table from the hands of logs\n"
          "       " PROG " --report FILE        describe a table (sizes, outcomes, values)\n"
          "INPUT: an mjai log (*.jsonl, *.jsonl.gz; one game or many), a folder of logs (e.g.\n"
          "the output of taikai import tenhou), or a run folder (its logs/)\n");
}

/* The EFR model: `given`, else plugins/riichi_efr.tkw beside this program. */
static int load_efr(const char *given, rm_efr **m, tk_error *err) {
  char path[4096];
  if (given) {
    snprintf(path, sizeof path, "%s", given);
  } else {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 64);
    if (n <= 0)
      return tk_error_set(err, TK_ENOTFOUND, -1, "cannot find this program's folder: give --efr");
    path[n] = 0;
    char *slash = strrchr(path, '/');
    strcpy(slash ? slash + 1 : path, "plugins/" RM_EFR_DEFAULT_FILE);
  }
  return rm_efr_load(path, m, err);
}

static void report(const rs_penalty *p, const rm_efr *m) {
  printf("%zu distinct outcomes of %llu hands\n", p->n, (unsigned long long)p->total);
  static const char *const seat[4] = {"dealer", "dealer+1", "dealer+2", "dealer+3"};
  printf("hands a seat does not win, by its seat relative to the dealer:\n"
         "  seat       hands   opp. tsumo  its deal-in  opp. ron off opp.  exh. draw  abortive"
         "  mean own change\n");
  for (int rel = 0; rel < 4; rel++) {
    rs_penalty_stats s;
    rs_penalty_stats_of(p, rel, &s);
    printf("  %-9s %6llu   %9.3f   %10.3f   %16.3f   %8.3f  %8.3f   %+8.0f\n", seat[rel],
           (unsigned long long)s.hands, s.opp_tsumo, s.dealin, s.opp_ron_other, s.draw, s.abort,
           s.mean_own);
  }
  if (!m) return;
  static const struct {
    const char *name;
    rm_efr_state z;
  } at[] = {
      {"East 1, 25,000 each", {{25000, 25000, 25000, 25000}, 0, 0, 0}},
      {"East 3, 32,000 / 28,000 / 22,000 / 18,000", {{32000, 28000, 22000, 18000}, 2, 0, 0}},
      {"East 4 (table 10's anchor), 16,000 / 26,000 / 28,000 / 30,000",
       {{16000, 26000, 28000, 30000}, 3, 0, 0}},
  };
  printf("Penalty(z) and the \"none\" penalty (EFR of each seat; seat 0 is East at East 1):\n");
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
    printf("  %s\n    table:", at[i].name);
    for (int s = 0; s < 4; s++) printf(" %.3f", rs_penalty_value(p, m, &at[i].z, s));
    printf("\n    none: ");
    for (int s = 0; s < 4; s++) printf(" %.3f", rs_penalty_value(NULL, m, &at[i].z, s));
    printf("\n");
  }
}

int main(int argc, char **argv) {
  const char *in[64], *out = NULL, *rep = NULL, *efr = NULL;
  int nin = 0;
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .value = "FILE", .once = 1,
       .help = "write the table built from the inputs to FILE (then report it)"},
      {.name = "report", .kind = TK_OPT_STRING, .dest = &rep, .value = "FILE", .once = 1,
       .help = "report the table in FILE instead of building one"},
      {.name = "efr", .kind = TK_OPT_STRING, .dest = &efr, .value = "FILE", .once = 1,
       .help = "the EFR model of the report's values (plugins/riichi_efr.tkw beside this "
               "program)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(PROG, opts, argc, argv, in, 64, &nin);
  if (!prc && nin > 64) {
    fprintf(stderr, PROG ": at most 64 inputs\n");
    prc = 2;
  }
  if (prc == 1) {
    usage(stdout);
    tk_opts_help(stdout, opts);
    return 0;
  }
  if (!prc && (out ? !nin || rep : !rep || nin)) {
    fprintf(stderr, PROG ": give --out FILE with inputs, or --report FILE alone (see " PROG
            " --help)\n");
    prc = 2;
  }
  if (prc) return 2;
  tk_error err;
  tk_error_clear(&err);
  rs_penalty p;
  if (out) {
    efr_data d = {0};
    for (int i = 0; i < nin; i++)
      if (efr_data_read(in[i], &d, &err)) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        efr_data_free(&d);
        return 1;
      }
    printf("read %llu games (%llu without end_game, skipped): %zu hands\n",
           (unsigned long long)d.games, (unsigned long long)d.incomplete, d.nhand);
    if (!d.nhand) {
      fprintf(stderr, PROG ": no complete hand in the inputs\n");
      efr_data_free(&d);
      return 1;
    }
    int rc = rs_penalty_build(d.hand, d.nhand, &p, &err);
    efr_data_free(&d);
    char hex[TK_SHA256_HEX];
    if (rc || rs_penalty_save(out, &p, &err) || tk_sha256_file(out, hex, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      if (!rc) rs_penalty_free(&p);
      return 1;
    }
    printf("wrote %s: sha256 %s\n", out, hex);
  } else if (rs_penalty_load(rep, &p, &err)) {
    fprintf(stderr, PROG ": %s\n", err.msg);
    return 1;
  }
  rm_efr *m = NULL;
  if (load_efr(efr, &m, &err)) {
    fprintf(stderr, PROG ": %s (the values are left out)\n", err.msg);
    if (efr) {
      rs_penalty_free(&p);
      return 1;
    }
  }
  report(&p, m);
  rm_efr_free(m);
  rs_penalty_free(&p);
  return 0;
}
