/* plugins/daifugo_mcl/tools.c — the records walk shared by daifugo_mcl_train and
 * daifugo_mcl_teacher_noise (tools.h). */
#include "tools.h"

#include <stdio.h>
#include <string.h>

#include "taikai/records.h"

int dmcl_each_play(const char *prog, const char *path, const char *const *teachers,
                   int nteachers, int one_per_wall, dmcl_play_fn fn, void *ctx) {
  /* a legal list is large; the programs walk one file at a time */
  static tk_daifugo_view v;
  static tk_daifugo_legal l;
  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  if (tk_records_open_game(path, "daifugo", TK_DAIFUGO_TYPES_VERSION, sizeof(tk_daifugo_view),
                           sizeof(tk_daifugo_legal), sizeof(tk_daifugo_move), &r, &err)) {
    fprintf(stderr, "%s: %s\n", prog, err.msg);
    return 2;
  }
  const tk_records_header *h = tk_records_header_of(r);
  int want[TK_RECORDS_MAX_AGENTS] = {0};
  for (uint32_t a = 0; a < h->nagents; a++) want[a] = nteachers == 0;
  for (int t = 0; t < nteachers; t++) {
    int found = 0;
    for (uint32_t a = 0; a < h->nagents; a++)
      if (!strcmp(h->agent[a], teachers[t])) want[a] = found = 1;
    if (!found) {
      fprintf(stderr, "%s: %s: no agent labelled '%s' (agents:", prog, path, teachers[t]);
      for (uint32_t a = 0; a < h->nagents; a++) fprintf(stderr, " %s", h->agent[a]);
      fprintf(stderr, ")\n");
      tk_records_close(r);
      return 2;
    }
  }
  tk_records_unit u;
  tk_daifugo_move act;
  uint64_t last_wall = UINT64_MAX;
  int rc, status = 0;
  while (!status && (rc = tk_records_next(r, &u, &err)) == 1) {
    if (one_per_wall && u.wall == last_wall) continue;
    last_wall = u.wall;
    for (uint32_t i = 0; i < u.ndecisions && !status; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      if (d.agent >= h->nagents || !want[d.agent]) continue;
      memcpy(&v, d.view, sizeof v);
      if (v.decision != TK_DAIFUGO_DECIDE_PLAY) continue;
      memcpy(&l, d.legal, sizeof l);
      memcpy(&act, d.action, sizeof act);
      if (l.n > TK_DAIFUGO_MAX_LEGAL) { /* the reader checks the record, not the game's bytes */
        fprintf(stderr, "%s: %s: unit %llu: decision %u: legal.n %u out of range (0..%d)\n", prog,
                path, (unsigned long long)u.unit, i, l.n, TK_DAIFUGO_MAX_LEGAL);
        status = 1;
        break;
      }
      int first = 0, teacher = 0, why = dmcl_training_position(&v, &l, &act, &first, &teacher);
      if (why == DMCL_NOT_LEGAL) {
        fprintf(stderr, "%s: %s: unit %llu: the teacher's move is not among the legal ones "
                "recorded\n", prog, path, (unsigned long long)u.unit);
        status = 1;
      } else {
        status = fn(ctx, path, u.unit, &v, &l, why, first, teacher);
      }
    }
  }
  tk_records_close(r);
  if (!status && rc < 0) {
    fprintf(stderr, "%s: %s\n", prog, err.msg);
    status = 1;
  }
  return status;
}
