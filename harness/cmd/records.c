/* harness/cmd/records.c — `taikai records DIR|FILE [--dump] [--limit N] [--agent LABEL]`: what a
 * decision-record file (taikai/records.h) holds, and its decisions as JSON lines. Reads the file
 * once, start to end, through the same reader trainers use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "game.h"
#include "opts.h"
#include "taikai/records.h"
#include "watch.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai records DIR|FILE [--dump] [--limit N] [--agent LABEL]\n"
          "\n"
          "Reads the decision records of a run (DIR/records.tkr, written by taikai run --records,\n"
          "or a .tkr file) and prints what they hold: the game, the struct sizes and types\n"
          "version, units and decisions per agent, bytes per decision and the reading speed.\n"
          "\n"
          "  --dump         print the decisions instead, one JSON object a line: unit, wall, seat,\n"
          "                 agent, the view and the action as the game describes them, the number\n"
          "                 of legal actions' bytes, and the unit's result fields for that seat\n"
          "  --limit N      at most N decisions (with --dump)\n"
          "  --agent LABEL  only the decisions of that agent (with --dump)\n"
          "\n"
          "Exit status: 0 read to the end; 1 a truncated or corrupt file (the offset is named);\n"
          "2 bad usage or a file that cannot be opened. The format: include/taikai/records.h.\n");
}

int tk_cmd_records(int argc, char **argv) {
  const char *in = NULL, *agent = NULL;
  int dump = 0;
  long long limit = -1;
  uint64_t max_dump = 0;
  int have_limit = 0;
  const tk_opt opts[] = {
      {.name = "dump", .kind = TK_OPT_FLAG, .dest = &dump, .help = "print the decisions"},
      {.name = "limit", .kind = TK_OPT_U64, .dest = &max_dump, .given = &have_limit,
       .value = "N", .max = INT64_MAX, .help = "at most N decisions (with --dump)"},
      {.name = "agent", .kind = TK_OPT_STRING, .dest = &agent, .empty_ok = 1, .value = "LABEL",
       .help = "only the decisions of that agent (with --dump)"},
      {.name = NULL},
  };
  const char *pos[2];
  int npos = 0, prc = tk_opts_parse("records", opts, argc, argv, pos, 2, &npos);
  if (prc == 1) usage(stdout);
  if (prc) return prc == 1 ? 0 : 2;
  if (npos > 1) {
    fprintf(stderr, "taikai records: one folder or file at a time\n");
    return 2;
  }
  in = npos ? pos[0] : NULL;
  if (have_limit) limit = (long long)max_dump;
  if (!in) {
    usage(stderr);
    return 2;
  }
  char path[4200];
  struct stat st;
  if (!stat(in, &st) && S_ISDIR(st.st_mode)) snprintf(path, sizeof path, "%s/records.tkr", in);
  else snprintf(path, sizeof path, "%s", in);
  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  if (tk_records_open(path, &r, &err)) {
    fprintf(stderr, "taikai records: %s%s\n", err.msg,
            stat(path, &st) ? " (a run writes records.tkr with taikai run --records)" : "");
    return 2;
  }
  const tk_records_header *h = tk_records_header_of(r);
  const tk_game *g = tk_game_find(h->game);
  int describable = g && g->types_version == h->types_version && g->view_size == h->view_size &&
                    g->action_size == h->action_size && h->view_size <= TK_WATCH_SNAP;
  int want = -1;
  if (agent) {
    for (uint32_t i = 0; i < h->nagents; i++)
      if (!strcmp(h->agent[i], agent)) want = (int)i;
    if (want < 0) {
      fprintf(stderr, "taikai records: %s: no agent labelled '%s'\n", path, agent);
      tk_records_close(r);
      return 2;
    }
  }
  uint64_t units = 0, decisions = 0, per_agent[TK_RECORDS_MAX_AGENTS] = {0}, dumped = 0;
  tk_records_unit u;
  int64_t t0 = tk_now_ns();
  int rc;
  static uint8_t view[1 << 20], action[1 << 20];
  while ((rc = tk_records_next(r, &u, &err)) == 1) {
    units++;
    decisions += u.ndecisions;
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      if (d.agent < TK_RECORDS_MAX_AGENTS) per_agent[d.agent]++;
      if (!dump || (want >= 0 && (int)d.agent != want) || (limit >= 0 && (long long)dumped >= limit))
        continue;
      dumped++;
      printf("{\"unit\":%llu,\"wall\":%llu,\"seat\":%u,\"agent\":", (unsigned long long)u.unit,
             (unsigned long long)u.wall, d.seat);
      char q[512];
      tk_json_quote(d.agent < h->nagents ? h->agent[d.agent] : "?", q, sizeof q);
      printf("%s", q);
      if (describable) {
        char text[512];
        memcpy(view, d.view, h->view_size);
        memcpy(action, d.action, h->action_size);
        g->describe(view, text, sizeof text);
        tk_json_quote(text, q, sizeof q);
        printf(",\"view\":%s", q);
        g->describe_action(action, text, sizeof text);
        tk_json_quote(text, q, sizeof q);
        printf(",\"action\":%s", q);
      }
      printf(",\"result\":{");
      for (uint32_t f = 0; f < h->nfields; f++)
        printf("%s\"%s\":%lld", f ? "," : "", h->field[f], (long long)u.field[d.seat][f]);
      printf("}}\n");
    }
  }
  double secs = (double)(tk_now_ns() - t0) / 1e9;
  uint64_t bytes = tk_records_offset(r);
  if (rc < 0) {
    fprintf(stderr, "taikai records: %s\n", err.msg);
    tk_records_close(r);
    return 1;
  }
  if (!dump) {
    printf("%s: game %s (types version %u; view %u, legal %u, action %u bytes), %u seats\n",
           path, h->game, h->types_version, h->view_size, h->legal_size, h->action_size,
           h->nseats);
    printf("units %llu, decisions %llu, %.1f MB on disk, %.1f bytes per decision "
           "(%.0f raw)\n", (unsigned long long)units, (unsigned long long)decisions,
           (double)bytes / 1e6, decisions ? (double)bytes / (double)decisions : 0.0,
           8.0 + h->view_size + h->legal_size + h->action_size);
    printf("read in %.2f s: %.0f decisions/s\n", secs, secs > 0 ? (double)decisions / secs : 0.0);
    printf("decisions per agent:\n");
    for (uint32_t i = 0; i < h->nagents; i++)
      printf("  %-20s %llu\n", h->agent[i], (unsigned long long)per_agent[i]);
  }
  tk_records_close(r);
  return 0;
}
