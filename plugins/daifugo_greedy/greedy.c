/* plugins/daifugo_greedy/greedy.c — daifugo agent "daifugo_greedy", the paper's greedy [P §2.2]:
 *   - plays the legal play with the most cards, then the lowest rank; passes only when nothing
 *     else is legal;
 *   - rank is weakness in the current order (in revolution the highest column is the lowest);
 *     a sequence ranks by its weakest card (its lowest column, or its highest in revolution);
 *     the single joker ranks above everything;
 *   - ties: a play without the joker first; among joker plays, one that does not lock the
 *     suits first (locking only when it is the only option); then the lower suit bitmask; then
 *     the lower joker cell;
 *   - exchange: gives its lowest cards (3 … 2, ♣ before ♦ ♥ ♠), never the joker.
 * Deterministic: it keeps no state. */
#include <string.h>

#include "taikai/agent.h"
#include "taikai/daifugo.h"

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  static char instance; /* stateless: one shared non-NULL handle */
  return &instance;
}
static void destroy(tk_agent_instance *self) {}
static int begin_game(tk_agent_instance *self, const void *info) { return 0; }

/* Weakness of a play in the current order: lower plays first. */
static int weakness(const tk_daifugo_move *m, int rev) {
  if (m->kind == TK_DAIFUGO_JOKER1) return 100;
  int lo = m->rank, hi = m->kind == TK_DAIFUGO_SEQ ? m->rank + m->n - 1 : m->rank;
  return rev ? 14 - hi : lo;
}

/* 1 if the play would lock the suits (same suit set as the play it covers). */
static int locks(const tk_daifugo_move *m, const tk_daifugo_view *v) {
  return v->top.kind != TK_DAIFUGO_PASS && v->top.kind != TK_DAIFUGO_JOKER1 &&
         m->kind != TK_DAIFUGO_JOKER1 && m->suits == v->top.suits;
}

/* Negative if play a is preferred to play b. */
static int compare(const tk_daifugo_move *a, const tk_daifugo_move *b, const tk_daifugo_view *v) {
  if (a->n != b->n) return b->n - a->n;
  int wa = weakness(a, v->rev), wb = weakness(b, v->rev);
  if (wa != wb) return wa - wb;
  int ja = (a->cards & TK_DAIFUGO_JOKER) != 0, jb = (b->cards & TK_DAIFUGO_JOKER) != 0;
  if (ja != jb) return ja - jb;
  if (ja) {
    int la = locks(a, v), lb = locks(b, v);
    if (la != lb) return la - lb;
  }
  if (a->suits != b->suits) return a->suits - b->suits;
  return a->jcell - b->jcell;
}

/* The exchange's weakness of a card: column first, then ♣ ♦ ♥ ♠; the joker last. */
static int card_weakness(uint64_t c) {
  if (c == TK_DAIFUGO_JOKER) return 1000;
  int b = __builtin_ctzll(c);
  return (b & 15) * 4 + (3 - (b >> 4));
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_daifugo_view *v = view;
  const tk_daifugo_legal *l = legal;
  if (l->n == 0) return TK_ESTATE;
  int best = 0;
  if (l->decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
    for (int i = 1; i < l->n; i++)
      if (card_weakness(l->a[i].cards) < card_weakness(l->a[best].cards)) best = i;
  } else {
    best = -1;
    for (int i = 0; i < l->n; i++) {
      if (l->a[i].kind == TK_DAIFUGO_PASS) continue;
      if (best < 0 || compare(&l->a[i], &l->a[best], v) < 0) best = i;
    }
    if (best < 0) best = 0; /* only the pass */
  }
  *(tk_daifugo_move *)action = l->a[best];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_greedy",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: the paper's greedy (most cards, then the lowest rank; gives its lowest cards)",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_greedy) { return &descriptor; }
