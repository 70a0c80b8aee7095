/* arenas/mahjong/decomp.c — complete-hand test and enumeration of decompositions.
 *
 * The enumerator settles the lowest kind still holding tiles completely at each step: how
 * many of its copies form a triplet (0/1), the pair (0/1) and sequences starting there (the
 * rest), so every multiset of groups is produced exactly once. tk_is_complete uses the
 * shanten tables instead, so the tests can check one against the other. */
#include <string.h>

#include "taikai/mahjong.h"

typedef struct enum_state {
  tk_decomp cur;
  tk_decomp *out;
  int cap;
  int found;
} enum_state;

static void emit(enum_state *st) {
  if (st->found < st->cap) st->out[st->found] = st->cur;
  st->found++;
}

static void walk(enum_state *st, uint8_t *c, int k, int have_pair) {
  while (k < TK_KINDS && c[k] == 0) k++;
  if (k == TK_KINDS) {
    if (have_pair) emit(st);
    return;
  }
  int n = c[k];
  for (int trip = 0; trip <= 1; trip++)
    for (int pair = 0; pair <= 1; pair++) {
      if (pair && have_pair) continue;
      int seq = n - 3 * trip - 2 * pair;
      if (seq < 0) continue;
      if (seq > 0 && (k >= 27 || k % 9 > 6 || c[k + 1] < seq || c[k + 2] < seq)) continue;
      if (st->cur.nmelds + trip + seq > 4) continue;
      tk_decomp saved = st->cur;
      if (pair) st->cur.pair = (uint8_t)k;
      if (trip) {
        st->cur.meld_type[st->cur.nmelds] = TK_GROUP_TRIPLET;
        st->cur.meld_kind[st->cur.nmelds++] = (uint8_t)k;
      }
      for (int i = 0; i < seq; i++) {
        st->cur.meld_type[st->cur.nmelds] = TK_GROUP_SEQ;
        st->cur.meld_kind[st->cur.nmelds++] = (uint8_t)k;
      }
      c[k] = 0;
      if (seq) {
        c[k + 1] -= (uint8_t)seq;
        c[k + 2] -= (uint8_t)seq;
      }
      walk(st, c, k + 1, have_pair || pair);
      c[k] = (uint8_t)n;
      if (seq) {
        c[k + 1] += (uint8_t)seq;
        c[k + 2] += (uint8_t)seq;
      }
      st->cur = saved;
    }
}

static const uint8_t YAOCHU[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

int tk_decompose(const uint8_t c[TK_KINDS], tk_decomp *out, int cap) {
  int n = tk_counts_total(c);
  if (n % 3 != 2 || n > 14) return 0;
  enum_state st;
  memset(&st, 0, sizeof st);
  st.out = out;
  st.cap = cap;
  st.cur.form = TK_HAND_STANDARD;
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  walk(&st, h, 0, 0);
  if (n == 14) {
    int pairs = 0;
    tk_decomp d;
    memset(&d, 0, sizeof d);
    d.form = TK_HAND_CHIITOI;
    for (int k = 0; k < TK_KINDS; k++)
      if (c[k] == 2) {
        if (pairs < 7) d.pairs[pairs] = (uint8_t)k;
        pairs++;
      }
    if (pairs == 7) {
      st.cur = d;
      emit(&st);
    }
    int kinds = 0, twice = -1, ok = 1;
    for (int i = 0; i < 13; i++) {
      int v = c[YAOCHU[i]];
      if (v == 0) ok = 0;
      if (v == 2) twice = YAOCHU[i];
      if (v > 2) ok = 0;
      kinds += v > 0;
    }
    if (ok && kinds == 13 && twice >= 0) {
      memset(&d, 0, sizeof d);
      d.form = TK_HAND_KOKUSHI;
      d.pair = (uint8_t)twice;
      st.cur = d;
      emit(&st);
    }
  }
  return st.found;
}

int tk_is_complete(const uint8_t c[TK_KINDS]) {
  int n = tk_counts_total(c);
  if (n % 3 != 2 || n > 14) return 0;
  return tk_shanten_forms(c, n == 14 ? TK_FORM_ALL : TK_FORM_STANDARD) == -1;
}
