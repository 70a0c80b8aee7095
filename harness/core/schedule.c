/* harness/core/schedule.c — building the seatings of each format (see schedule.h). */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

/* C(n, k); n <= TK_SPEC_MAX_AGENTS (64) and k <= TK_MAX_SEATS (8) keep every step below
 * 2^64 (r * (n - k + i) <= C(64, 8) * 64 < 2^39). */
static uint64_t choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  uint64_t r = 1;
  for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
  return r;
}

static uint64_t factorial(int n) {
  uint64_t r = 1;
  for (int i = 2; i <= n; i++) r *= (uint64_t)i;
  return r;
}

/* The next permutation of a[0..n-1] in lexicographic order; 0 after the last (a descending). */
static int next_permutation(int *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (a[j] <= a[i]) j--;
  int t = a[i];
  a[i] = a[j];
  a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) t = a[l], a[l] = a[r], a[r] = t;
  return 1;
}

int tk_schedule_build(tk_schedule *s, tk_format format, int nagents, int nseats, uint64_t walls,
                      tk_error *err) {
  memset(s, 0, sizeof *s);
  s->format = format;
  s->nagents = nagents;
  s->nseats = nseats;
  s->walls = walls;
  if (nseats < 1 || nseats > TK_MAX_SEATS || nagents < 1 || nagents > TK_SPEC_MAX_AGENTS)
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
      if (format == TK_FORMAT_DUPLICATE) {
        s->per_wall = (uint64_t)(nagents - 1) * (uint64_t)nseats;
        break;
      }
      /* every seating of every combination: C(nagents, nseats) tables x nseats! orders */
      uint64_t tables = choose(nagents, nseats), orders = factorial(nseats);
      s->per_wall = tables * orders;
      if (s->per_wall > TK_SCHEDULE_MAX_PER_WALL)
        return tk_error_set(err, TK_ERANGE, -1,
                            "format 'round-robin' with %d agents plays C(%d, %d) = %llu tables x "
                            "%llu seatings = %llu games per wall, more than the limit of %d: use "
                            "fewer agents, or the duplicate format",
                            nagents, nagents, nseats, (unsigned long long)tables,
                            (unsigned long long)orders, (unsigned long long)s->per_wall,
                            TK_SCHEDULE_MAX_PER_WALL);
      break;
    case TK_FORMAT_SEATED:
      if (nagents != nseats)
        return tk_error_set(err, TK_EINVAL, -1,
                            "format 'seated' puts agents[i] in seat i: it needs exactly %d "
                            "agents, got %d", nseats, nagents);
      s->per_wall = 1;
      break;
  }
  if (s->per_wall == 0 || s->per_wall > TK_SCHEDULE_MAX_PER_WALL)
    return tk_error_set(err, TK_ERANGE, -1, "schedule: %llu seatings per wall is more than the "
                        "limit of %d", (unsigned long long)s->per_wall, TK_SCHEDULE_MAX_PER_WALL);
  s->seatings = malloc(s->per_wall * (uint64_t)nseats * sizeof *s->seatings);
  if (!s->seatings) return tk_error_set(err, TK_ENOMEM, -1, "schedule: out of memory");
  int *row = s->seatings;
  if (format == TK_FORMAT_FIELD || format == TK_FORMAT_SEATED) {
    for (int a = 0; a < nagents; a++) *row++ = a;
  } else if (format == TK_FORMAT_DUPLICATE) {
    for (int c = 1; c < nagents; c++)
      for (int seat = 0; seat < nseats; seat++, row += nseats)
        for (int i = 0; i < nseats; i++) row[i] = i == seat ? c : 0;
  } else {
    /* combinations in lexicographic order; each one's permutations in lexicographic order,
     * starting from the combination itself (sorted) */
    int comb[TK_MAX_SEATS], perm[TK_MAX_SEATS];
    for (int i = 0; i < nseats; i++) comb[i] = i;
    for (;;) {
      memcpy(perm, comb, (size_t)nseats * sizeof *perm);
      do {
        memcpy(row, perm, (size_t)nseats * sizeof *row);
        row += nseats;
      } while (next_permutation(perm, nseats));
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
