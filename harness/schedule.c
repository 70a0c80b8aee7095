/* harness/schedule.c — building the seatings of each format (see schedule.h). */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

static uint64_t choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  uint64_t r = 1;
  for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
  return r;
}

int tk_schedule_build(tk_schedule *s, tk_format format, int nagents, int nseats, uint64_t walls,
                      tk_error *err) {
  memset(s, 0, sizeof *s);
  s->format = format;
  s->nagents = nagents;
  s->nseats = nseats;
  s->walls = walls;
  if (nseats < 1 || nseats > TK_MAX_SEATS || nagents < 1)
    return tk_error_set(err, TK_EINVAL, -1, "schedule: bad seats/agents");
  switch (format) {
    case TK_FORMAT_FIELD:
      if (nseats != 1)
        return tk_error_set(err, TK_EINVAL, -1,
                            "format 'field' is for one-player games; this game seats %d "
                            "(use round-robin or duplicate)", nseats);
      s->per_wall = (uint64_t)nagents;
      break;
    case TK_FORMAT_ROUND_ROBIN:
    case TK_FORMAT_DUPLICATE:
      if (nseats == 1)
        return tk_error_set(err, TK_EINVAL, -1,
                            "format '%s' is for multi-player games; this game seats 1 "
                            "(use field)", tk_format_name(format));
      if (format == TK_FORMAT_ROUND_ROBIN && nagents < nseats)
        return tk_error_set(err, TK_EINVAL, -1,
                            "format 'round-robin' needs at least %d agents, got %d", nseats,
                            nagents);
      if (format == TK_FORMAT_DUPLICATE && nagents < 2)
        return tk_error_set(err, TK_EINVAL, -1,
                            "format 'duplicate' needs a baseline (agents[0]) and at least one "
                            "candidate");
      s->per_wall = format == TK_FORMAT_ROUND_ROBIN ? choose(nagents, nseats) * (uint64_t)nseats
                                                    : (uint64_t)(nagents - 1) * (uint64_t)nseats;
      break;
  }
  if (s->per_wall == 0 || s->per_wall > 10000000)
    return tk_error_set(err, TK_ERANGE, -1, "schedule: %llu seatings per wall is too many",
                        (unsigned long long)s->per_wall);
  s->seatings = malloc(s->per_wall * (uint64_t)nseats * sizeof *s->seatings);
  if (!s->seatings) return tk_error_set(err, TK_ENOMEM, -1, "schedule: out of memory");
  int *row = s->seatings;
  if (format == TK_FORMAT_FIELD) {
    for (int a = 0; a < nagents; a++) *row++ = a;
  } else if (format == TK_FORMAT_DUPLICATE) {
    for (int c = 1; c < nagents; c++)
      for (int seat = 0; seat < nseats; seat++, row += nseats)
        for (int i = 0; i < nseats; i++) row[i] = i == seat ? c : 0;
  } else {
    int comb[TK_MAX_SEATS];
    for (int i = 0; i < nseats; i++) comb[i] = i;
    for (;;) {
      for (int r = 0; r < nseats; r++, row += nseats)
        for (int i = 0; i < nseats; i++) row[i] = comb[(i + r) % nseats];
      int i = nseats - 1;
      while (i >= 0 && comb[i] == nagents - nseats + i) i--;
      if (i < 0) break;
      comb[i]++;
      for (int j = i + 1; j < nseats; j++) comb[j] = comb[j - 1] + 1;
    }
  }
  return 0;
}

void tk_schedule_free(tk_schedule *s) {
  if (!s) return;
  free(s->seatings);
  s->seatings = NULL;
}
