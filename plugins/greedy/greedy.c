/* plugins/greedy/greedy.c — the thesis's Algorithm 1 (Kaizu 2015, after Sato et al. 2014):
 * among the discards that keep the hand at its minimum shanten, choose the one that leaves the
 * most unseen effective tiles (tiles that lower the shanten; unseen = 4 - in hand - in own
 * discards - dora indicator). Every hand form counts (standard, seven pairs, thirteen orphans).
 * Ties: parameter "tie_break" — "first" (default: the lowest kind, i.e. the first maximum in
 * hand order, as the thesis's argmax over the sorted hand), "last" (highest kind) or "random"
 * (uniform among the tied kinds, from the game's seed).
 *
 * Speed: the effective-tile count is computed by effective_count() below, which evaluates only
 * the kinds that can lower a form whose shanten is the hand's (see there); it equals
 * tk_ukeire's count (tests/referee/test_ref_greedy.c checks it on random hands). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "taikai/solo.h"

enum tie_break { TIE_FIRST, TIE_LAST, TIE_RANDOM };

typedef struct agent {
  int tie_break; /* enum tie_break */
  tk_rng rng;    /* re-seeded at every begin_game; used only by TIE_RANDOM */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p) {
    tk_error_set(err, TK_EPARSE, jerr.position, "greedy: params: %s", jerr.text);
    return NULL;
  }
  int tie = TIE_FIRST;
  json_t *t = json_object_get(p, "tie_break");
  if (t) {
    const char *s = json_string_value(t);
    if (s && !strcmp(s, "first")) tie = TIE_FIRST;
    else if (s && !strcmp(s, "last")) tie = TIE_LAST;
    else if (s && !strcmp(s, "random")) tie = TIE_RANDOM;
    else {
      tk_error_set(err, TK_EINVAL, -1,
                   "greedy: tie_break must be \"first\", \"last\" or \"random\"");
      json_decref(p);
      return NULL;
    }
  }
  json_decref(p);
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "greedy: out of memory");
    return NULL;
  }
  a->tie_break = tie;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) { free(self); }

static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_solo_info *)info)->head.seed);
  return 0;
}

/* A 13-tile hand's shanten by form, and the kind masks the effective-tile count needs. */
typedef struct shape {
  int s_std, s_chi, s_kok, s; /* shanten: standard, seven pairs, thirteen orphans, minimum */
  uint64_t zero, one, quad;   /* kinds held 0, 1 and 4 times */
  int kinds, ypair;           /* kinds held; a terminal/honor held twice or more */
} shape;

#define ALL_KINDS ((1ull << TK_KINDS) - 1)
#define YAOCHU_MASK 0x3fc060301ull /* 1m 9m 1p 9p 1s 9s and the 7 honors */

static void shape_of(const uint8_t *c, shape *h) {
  uint64_t held = 0, two = 0;
  h->one = h->quad = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    uint64_t bit = 1ull << k;
    if (c[k]) held |= bit;
    if (c[k] == 1) h->one |= bit;
    if (c[k] >= 2) two |= bit;
    if (c[k] == 4) h->quad |= bit;
  }
  h->zero = ALL_KINDS & ~held;
  h->kinds = __builtin_popcountll(held);
  int pairs = __builtin_popcountll(two);
  h->ypair = (two & YAOCHU_MASK) != 0;
  h->s_std = tk_shanten_forms(c, TK_FORM_STANDARD);
  h->s_chi = 6 - pairs + (h->kinds < 7 ? 7 - h->kinds : 0);
  h->s_kok = 13 - __builtin_popcountll(held & YAOCHU_MASK) - h->ypair;
  h->s = h->s_std < h->s_chi ? h->s_std : h->s_chi;
  if (h->s_kok < h->s) h->s = h->s_kok;
}

/* Kinds within 2 of a held kind of the same suit, and the held honors. */
static uint64_t neighbourhood(uint64_t held) {
  uint64_t near = held & (0x7full << 27);
  for (int s = 0; s < 3; s++) {
    uint64_t x = held >> (9 * s) & 0x1ff;
    x = (x | x << 1 | x << 2 | x >> 1 | x >> 2) & 0x1ff;
    near |= x << (9 * s);
  }
  return near;
}

/* Unseen copies of the kinds that lower the shanten h->s of the 13-tile hand `c`: the sum of
 * unseen[k] over the k with shanten(c + k) < shanten(c), as tk_ukeire counts them. A drawn tile
 * lowers the minimum over forms only if it lowers a form whose shanten equals the minimum (a
 * tile lowers a form by at most 1), so:
 *  - seven pairs, if tight: a held single (pair), or any new kind while fewer than 7 kinds;
 *  - thirteen orphans, if tight: a missing terminal/honor, or a held one while no pair;
 *  - standard form, if tight: only kinds within 2 of a held tile of the same suit (a held honor
 *    for honors) can lower it — a tile whose neighbourhood is empty in the hand forms a group
 *    with no held tile, and a target using it can use an unused held tile instead; unless the
 *    hand holds four of a kind (the fourth copy fits no target), when every kind is tried.
 * Kinds with no unseen copy add nothing and are skipped. tests/referee/test_ref_greedy.c checks
 * the result against tk_ukeire on 200,000 hands. */
static int effective_count(uint8_t *c, const uint8_t *unseen, uint64_t has_unseen,
                           const shape *h) {
  uint64_t sure = 0, maybe = 0;
  if (h->s_chi == h->s) sure |= h->kinds < 7 ? h->zero | h->one : h->one;
  if (h->s_kok == h->s) sure |= YAOCHU_MASK & (h->ypair ? h->zero : h->zero | h->one);
  if (h->s_std == h->s) maybe = h->quad ? ALL_KINDS : neighbourhood(ALL_KINDS & ~h->zero);
  sure &= has_unseen;
  maybe &= has_unseen & ~sure & ~h->quad;
  int total = 0;
  for (uint64_t m = sure; m; m &= m - 1) total += unseen[__builtin_ctzll(m)];
  for (uint64_t m = maybe; m; m &= m - 1) {
    int k = __builtin_ctzll(m);
    c[k]++;
    if (tk_shanten_forms(c, TK_FORM_STANDARD) < h->s) total += unseen[k];
    c[k]--;
  }
  return total;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_solo_view *v = view;
  uint8_t c[TK_KINDS];
  memcpy(c, v->hand, TK_KINDS);
  /* The view's unseen counts (4 - hand - own discards - indicator) do not change when a tile
   * moves from the hand to the discards, so they serve every candidate. The minimum shanten
   * over discards is the 14-tile hand's. */
  int best_sh = tk_shanten(c);
  uint64_t has_unseen = 0;
  for (int k = 0; k < TK_KINDS; k++)
    if (v->unseen[k]) has_unseen |= 1ull << k;
  int best = -1, best_n = -1, ntied = 0;
  uint8_t tied[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) {
    if (!c[k]) continue;
    c[k]--;
    shape h;
    shape_of(c, &h);
    int n = h.s == best_sh ? effective_count(c, v->unseen, has_unseen, &h) : -1;
    c[k]++;
    if (n < 0) continue;
    if (n > best_n) {
      best_n = n;
      best = k;
      ntied = 0;
    }
    if (n == best_n) {
      if (a->tie_break == TIE_LAST) best = k;
      tied[ntied++] = (uint8_t)k;
    }
  }
  if (best < 0) return TK_ESTATE;
  if (a->tie_break == TIE_RANDOM) best = tied[tk_rng_below(&a->rng, (uint32_t)ntied)];
  ((tk_solo_action *)action)->discard = (uint8_t)best;
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "greedy",
    .version = "1.0.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "thesis Algorithm 1: keep minimum shanten, maximise unseen effective tiles",
    .params_json = "{\"tie_break\": \"first\"}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(greedy) { return &descriptor; }
