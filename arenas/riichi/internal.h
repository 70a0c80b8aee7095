/* arenas/riichi/internal.h — helpers shared by the riichi engine's files (not installed).
 * A player's concealed tiles are counts per kind plus one bit per suit for its red five; a
 * tile (tk_tile) names a kind and, for fives, whether it is the red copy. */
#ifndef TAIKAI_ARENAS_RIICHI_INTERNAL_H
#define TAIKAI_ARENAS_RIICHI_INTERNAL_H

#include "taikai/riichi.h"

static inline int tk__five(int k) { return k == TK_5M || k == TK_5P || k == TK_5S; }
static inline int tk__red_held(const tk_riichi_player *p, int k) {
  return tk__five(k) && (p->red >> (k / 9) & 1);
}
/* Non-red copies of kind k held. */
static inline int tk__plain(const tk_riichi_player *p, int k) { return p->hand[k] - tk__red_held(p, k); }
/* Is tile t (red flag included) held? */
static inline int tk__holds(const tk_riichi_player *p, tk_tile t) {
  int k = tk_tile_kind(t);
  if (k >= TK_KINDS) return 0;
  return tk_tile_is_red(t) ? tk__red_held(p, k) : tk__plain(p, k) > 0;
}
static inline void tk__add(tk_riichi_player *p, tk_tile t) {
  int k = tk_tile_kind(t);
  p->hand[k]++;
  if (tk_tile_is_red(t)) p->red |= (uint8_t)(1 << (k / 9));
}
static inline void tk__remove(tk_riichi_player *p, tk_tile t) {
  int k = tk_tile_kind(t);
  p->hand[k]--;
  if (tk_tile_is_red(t)) p->red &= (uint8_t)~(1 << (k / 9));
}
static inline int tk__live_left(const tk_riichi_game *g) { return g->live_end - g->next_draw; }
static inline int tk__dealer(const tk_riichi_game *g) { return g->round % 4; }
static inline int tk__popcount8(unsigned x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/* hand.c */
/* Recomputes shanten and waits of p's concealed tiles (3k+1 of them). */
void tk__update_waits(tk_riichi_player *p);
/* Scores seat s winning on tile t: ron (t from another seat, `from` = TK_RIICHI_FROM_*) or
 * tsumo (t already in the hand). Honba and sticks are those the winner collects. Fills `sc`,
 * `ctx` and the kernel's view of the melds (`calls`, `*ncalls`; each may be NULL). Returns the
 * kernel's code: 0, TK_ENOYAKU, TK_ENOTCOMPLETE. */
int tk__score(const tk_riichi_game *g, int s, tk_tile t, int ron, int from, int honba, int sticks,
              tk_score *sc, tk_win_ctx *ctx, tk_call *calls, int *ncalls);
/* May seat s ron on the tile being reacted to? (waits, furiten, kokushi for a closed kan, yaku) */
int tk__can_ron(const tk_riichi_game *g, int s);
/* May seat s (in SELF, having drawn) win by tsumo? */
int tk__can_tsumo(const tk_riichi_game *g, int s);
/* In riichi, may seat s make a closed kan of the drawn tile's kind (waits unchanged)? */
int tk__riichi_kan_ok(const tk_riichi_game *g, int s);
/* Kinds that may not be discarded right after the call `m` (kuikae). */
uint64_t tk__kuikae_mask(const tk_riichi_meld *m);
/* Is seat s tenpai for the exhaustive-draw payments (3k+1 tiles, a wait not all held)? */
static inline int tk__tenpai(const tk_riichi_player *p) { return p->shanten == 0 && p->waits != 0; }

/* legal.c */
/* Appends the reaction options of seat s to the tile being reacted to (PASS last when there is
 * any other); returns the number of options other than PASS. `out` must have room. */
int tk__react_legal(const tk_riichi_game *g, int s, tk_riichi_legal *out);
/* The legal actions of the seat to move in SELF. */
int tk__self_legal(const tk_riichi_game *g, tk_riichi_legal *out);

#endif
