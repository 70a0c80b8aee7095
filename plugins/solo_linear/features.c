/* plugins/solo_linear/features.c — the feature list of solo_linear (see features.h). Feature
 * index ranges, in order:
 *   0..447    shanten after the discard (0..6, clamped) x unseen effective tiles (0..63+)
 *   448..454  shanten after the discard, one-hot
 *   455..458  the discarded kind: honour, terminal, 2 or 8, 3..7
 *   459       the discard is the tile just drawn
 *   460..463  copies of the kind held before the discard (1..4)
 *   464..466  number tiles: kinds at distance 1 in the suit still held after (0, 1, 2)
 *   467..469  the same at distance 2
 *   470       the discard is a dora
 *   471..474  dora tiles held after the discard (0..3+)
 *   475..495  turn third (1-6, 7-12, 13-18) x shanten after (0..6)
 * The first block lets a linear model rank as greedy does (least shanten, then most effective
 * tiles) and the rest lets it depart from greedy where the teacher does. */
#include <string.h>

#include "features.h"

int sl_features(const tk_solo_view *v, int k, int out[SL_MAX_ACTIVE]) {
  uint8_t after[TK_KINDS], seen[TK_KINDS];
  memcpy(after, v->hand, sizeof after);
  after[k]--;
  for (int x = 0; x < TK_KINDS; x++) {
    int s = 4 - after[x] - v->unseen[x];
    seen[x] = (uint8_t)(s < 0 ? 0 : s);
  }
  int count = 0, shanten = 0;
  tk_ukeire(after, seen, TK_FORM_ALL, &count, &shanten);
  if (shanten < 0) shanten = 0;
  if (shanten > 6) shanten = 6;
  int n = 0;
  out[n++] = shanten * 64 + (count > 63 ? 63 : count);
  out[n++] = 448 + shanten;
  int num = k < 27 ? k % 9 + 1 : 0; /* 1..9 for number tiles, 0 for honours */
  out[n++] = 455 + (num == 0 ? 0 : num == 1 || num == 9 ? 1 : num == 2 || num == 8 ? 2 : 3);
  if (k == v->drawn) out[n++] = 459;
  out[n++] = 460 + (v->hand[k] > 4 ? 3 : v->hand[k] - 1);
  if (num) {
    int d1 = 0, d2 = 0;
    for (int d = -2; d <= 2; d++) {
      int m = num + d;
      if (!d || m < 1 || m > 9 || !after[k + d]) continue;
      if (d == 1 || d == -1) d1++;
      else d2++;
    }
    out[n++] = 464 + d1;
    out[n++] = 467 + d2;
  }
  int dora = v->dora_indicator < TK_KINDS ? tk_dora_of(v->dora_indicator) : -1;
  if (k == dora) out[n++] = 470;
  int held = dora >= 0 ? after[dora] : 0;
  out[n++] = 471 + (held > 3 ? 3 : held);
  int third = v->turn <= 6 ? 0 : v->turn <= 12 ? 1 : 2;
  out[n++] = 475 + third * 7 + shanten;
  return n;
}

double sl_score(const double *w, const tk_solo_view *v, int k) {
  int f[SL_MAX_ACTIVE];
  int n = sl_features(v, k, f);
  double s = 0;
  for (int i = 0; i < n; i++) s += w[f[i]];
  return s;
}

int sl_best(const double *w, const tk_solo_view *v, const tk_solo_legal *l) {
  int best = -1;
  double top = 0;
  for (int i = 0; i < l->n; i++) {
    int k = l->kinds[i];
    double s = sl_score(w, v, k);
    if (best < 0 || s > top) {
      best = k;
      top = s;
    }
  }
  return best;
}
