/* arenas/riichi/hand.c — one seat's hand in the riichi engine: shanten and waits, the win
 * context handed to the scoring kernel (every win is scored by tk_score_counts), ron and tsumo
 * eligibility (furiten, yaku), the riichi closed-kan rule and kuikae. */
#include <string.h>

#include "internal.h"

void tk__update_waits(tk_riichi_player *p) {
  p->shanten = (int8_t)tk_shanten(p->hand);
  p->waits = p->shanten == 0 ? tk_waits(p->hand) : 0;
}

int tk__score(const tk_riichi_game *g, int s, tk_tile t, int ron, int from, int honba, int sticks,
              tk_score *sc, tk_win_ctx *ctx, tk_call *calls, int *ncalls) {
  const tk_riichi_player *p = &g->p[s];
  uint8_t c[TK_KINDS];
  memcpy(c, p->hand, TK_KINDS);
  int k = tk_tile_kind(t);
  int red = tk__popcount8(p->red);
  if (ron) {
    c[k]++;
    red += tk_tile_is_red(t);
  }
  tk_win_ctx x;
  memset(&x, 0, sizeof x);
  x.ruleset = TK_RULES_TENHOU;
  x.win_tile = t;
  x.ron = (uint8_t)ron;
  x.riichi = p->riichi == 1;
  x.double_riichi = p->riichi == 2;
  x.ippatsu = p->ippatsu;
  int left = tk__live_left(g);
  if (ron) {
    x.chankan = from != TK_RIICHI_FROM_DISCARD;
    x.last_tile = left == 0 && !x.chankan;
  } else {
    x.rinshan = g->rinshan;
    x.last_tile = left == 0 && !g->rinshan;
    x.first_draw = g->no_calls && p->nriver == 0 && !g->rinshan;
  }
  x.round_wind = (uint8_t)(g->round / 4 % 4);
  x.seat_wind = (uint8_t)((s - tk__dealer(g) + 4) % 4);
  x.ndora = g->ndora;
  for (int i = 0; i < g->ndora; i++) x.dora[i] = (uint8_t)tk_tile_kind(g->wall[TK_RIICHI_DORA_POS + i]);
  if (p->riichi) {
    x.nura = g->ndora;
    for (int i = 0; i < g->ndora; i++) x.ura[i] = (uint8_t)tk_tile_kind(g->wall[TK_RIICHI_URA_POS + i]);
  }
  x.honba = (uint16_t)honba;
  x.sticks = (uint16_t)sticks;
  tk_call cl[4];
  for (int i = 0; i < p->nmelds; i++) {
    const tk_riichi_meld *m = &p->melds[i];
    cl[i].type = m->type;
    cl[i].kind = (uint8_t)tk_tile_kind(m->tiles[0]); /* tiles ascend: the lowest kind */
    cl[i].red = 0;
    for (int j = 0; j < 4; j++)
      if (m->tiles[j] != TK_TILE_NONE && tk_tile_is_red(m->tiles[j])) cl[i].red++;
  }
  tk_score tmp;
  int rc = tk_score_counts(c, k, red, cl, p->nmelds, &x, sc ? sc : &tmp, NULL);
  if (ctx) *ctx = x;
  if (calls) memcpy(calls, cl, sizeof(tk_call) * p->nmelds);
  if (ncalls) *ncalls = p->nmelds;
  return rc;
}

int tk__can_ron(const tk_riichi_game *g, int s) {
  const tk_riichi_player *p = &g->p[s];
  int k = tk_tile_kind(g->react_tile);
  if (!(p->waits >> k & 1)) return 0;
  if (p->furiten || (p->waits & p->discarded)) return 0;
  if (g->react_from == TK_RIICHI_FROM_ANKAN) { /* only thirteen orphans robs a closed kan */
    if (p->nmelds) return 0;
    uint8_t c[TK_KINDS];
    memcpy(c, p->hand, TK_KINDS);
    c[k]++;
    if (tk_shanten_forms(c, TK_FORM_KOKUSHI) != -1) return 0;
  }
  return tk__score(g, s, g->react_tile, 1, g->react_from, 0, 0, NULL, NULL, NULL, NULL) == 0;
}

int tk__can_tsumo(const tk_riichi_game *g, int s) {
  const tk_riichi_player *p = &g->p[s];
  if (g->drawn == TK_TILE_NONE || g->after_call) return 0;
  if (p->shanten != 0 || !(p->waits >> tk_tile_kind(g->drawn) & 1)) return 0;
  return tk__score(g, s, g->drawn, 0, 0, 0, 0, NULL, NULL, NULL, NULL) == 0;
}

int tk__riichi_kan_ok(const tk_riichi_game *g, int s) {
  const tk_riichi_player *p = &g->p[s];
  if (g->drawn == TK_TILE_NONE) return 0;
  int k = tk_tile_kind(g->drawn);
  if (p->hand[k] != 4) return 0; /* only the drawn tile may complete it (no okurikan) */
  uint8_t c[TK_KINDS];
  memcpy(c, p->hand, TK_KINDS);
  c[k] = 0;
  if (tk_shanten(c) != 0) return 0;
  return tk_waits(c) == p->waits;
}

uint64_t tk__kuikae_mask(const tk_riichi_meld *m) {
  int k = tk_tile_kind(m->called);
  uint64_t mask = 1ULL << k;
  if (m->type == TK_CALL_CHI) {
    int lo = tk_tile_kind(m->tiles[0]);
    int n = k % 9;
    if (k == lo && n + 3 <= 8) mask |= 1ULL << (k + 3);      /* called the low end: 3 of 345 -> 6 */
    if (k == lo + 2 && n - 3 >= 0) mask |= 1ULL << (k - 3);  /* called the high end: 5 of 345 -> 2 */
  }
  return mask;
}
