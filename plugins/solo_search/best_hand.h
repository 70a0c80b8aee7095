/* plugins/solo_search/best_hand.h — the best complete hand reachable from a one-player mahjong
 * position and a sampled future (Komatsu et al. 2012; Kaizu 2015, Algorithms 4 and 5). Shared
 * by the komatsu and alpha plugins: an internal source compiled into each .so (hidden
 * visibility, so nothing here is exported), and into the tests.
 *
 * The problem (our reading of the thesis; docs/solo-agents.md): the player holds 14 tiles
 * `cur` and will draw the future tiles `fut` (a multiset of d tiles, the draws left). A
 * reachable hand is a complete 14-tile hand h (4 melds + pair, seven distinct pairs or
 * thirteen orphans) with h <= cur + fut per kind. It keeps U = sum_k min(h[k], cur[k]) current
 * tiles (copies are interchangeable, so a held copy is always kept before a drawn one) and
 * draws the other 14 - U <= d. Its winning tile is one of those drawn tiles: any kind w with
 * h[w] > cur[w]; the order of the future draws is not modelled. The hand is scored under the
 * solo ruleset (closed tsumo, East dealer, East round, the one dora) with the winning tile and
 * decomposition that pay most: P points. Its reward is R = a*13*P + (1000-a)*48000*U with
 * a = 1000*alpha, i.e. 624000 * (alpha*P/48000 + (1-alpha)*U/13) exactly in integers, so
 * alpha = 1 (a = 1000) orders hands exactly as P does.
 *
 * The search returns the reachable hand with the greatest key (R, U, h) — or (R, P, U, h) when
 * `prefer_points` is set — where h compares lexicographically by kind (1m first; the hand
 * holding more of the lowest kind wins). The key is a total order on distinct h, so the answer
 * is a pure function of (cur, fut, dora, a, prefer_points), whatever order the search visits
 * hands in. Hands of equal R and different P exist only for alpha = 0 (R = U then) or by
 * arithmetic coincidence, so `prefer_points` changes alpha = 0 (pure "keep the most tiles" by
 * default, as the thesis's formula; "most tiles, then most points" when set) and nothing at
 * alpha = 1, where R orders hands as P does. */
#ifndef TAIKAI_PLUGINS_BEST_HAND_H
#define TAIKAI_PLUGINS_BEST_HAND_H

#include <stdint.h>

#include "taikai/mahjong.h"

#if defined(__GNUC__)
#define TK__BH_HIDDEN __attribute__((visibility("hidden")))
#else
#define TK__BH_HIDDEN
#endif

/* What is fixed during one decision: the current hand, the dora, alpha. */
typedef struct tk__bh_ctx {
  uint8_t cur[TK_KINDS];  /* the 14 held tiles */
  int dora;               /* dora kind, or -1 without dora */
  int a;                  /* alpha in thousandths, 0..1000 */
  int prefer_points;      /* 1: between hands of equal R, prefer more points */
  int umax;               /* 13 - shanten(cur): no reachable hand keeps more current tiles */
  int min_draws;          /* shanten(cur) + 1: no reachable hand with fewer future tiles */
  uint8_t cur_suffix[TK_KINDS + 1]; /* cur_suffix[k] = sum of cur[k..33] */
} tk__bh_ctx;

/* The best reachable hand. */
typedef struct tk__bh_best {
  int found;               /* 0: no complete hand can be built (the other fields are 0) */
  int64_t reward;          /* R = a*13*P + (1000-a)*48000*U */
  int points;              /* P */
  int used;                /* U */
  uint8_t hand[TK_KINDS];  /* h */
  long nodes;              /* search nodes visited (statistics) */
} tk__bh_best;

/* Prepares a decision: `cur` holds 14 tiles, `dora_indicator` a kind or TK_TILE_NONE, `a` is
 * alpha in thousandths (0..1000; komatsu is 1000), `prefer_points` the tie-break above. */
TK__BH_HIDDEN void tk__bh_prepare(tk__bh_ctx *c, const uint8_t cur[TK_KINDS], int dora_indicator,
                                  int a, int prefer_points);

/* The best reachable hand for the future tiles `fut` (per-kind counts; cur + fut <= 4 per
 * kind). Exact; allocates nothing. Returns out->found. */
TK__BH_HIDDEN int tk__bh_search(const tk__bh_ctx *c, const uint8_t fut[TK_KINDS],
                                tk__bh_best *out);

/* The reward R of a hand with points P that keeps U current tiles, for alpha a/1000. */
static inline int64_t tk__bh_reward(int a, int points, int used) {
  return (int64_t)a * 13 * points + (int64_t)(1000 - a) * 48000 * used;
}

/* Compares keys (R, P, U, h): > 0 if the first is better, < 0 if worse, 0 if equal (pass P = 0
 * for the key without points). */
TK__BH_HIDDEN int tk__bh_compare(int64_t r1, int p1, int u1, const uint8_t *h1, int64_t r2,
                                 int p2, int u2, const uint8_t *h2);

/* Solo points for (han, fu), as tk_solo_points (exposed for the tests). */
TK__BH_HIDDEN int tk__bh_points(int han, int fu);

#endif
