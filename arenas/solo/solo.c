/* arenas/solo/solo.c — the one-player mahjong engine (taikai/solo.h).
 * Invariants of a tk_solo_game that is not over: hand holds 14 tiles, the last drawn is
 * `drawn`, turn = ndiscards + 1 draws were taken, and hand + discards + indicator + unseen
 * = 4 for every kind. */
#include <string.h>

#include "taikai/rng.h"
#include "taikai/solo.h"

tk_solo_rules tk_solo_default_rules(void) {
  tk_solo_rules r = {TK_SOLO_MAX_DRAWS, 1};
  return r;
}

void tk_solo_wall(uint64_t seed, uint64_t index, uint8_t wall[TK_SOLO_WALL_TILES]) {
  tk_rng rng;
  tk_rng_seed2(&rng, seed, index);
  for (int i = 0; i < TK_SOLO_WALL_TILES; i++) wall[i] = (uint8_t)(i / 4);
  for (int i = TK_SOLO_WALL_TILES - 1; i > 0; i--) {
    int j = (int)tk_rng_below(&rng, (uint32_t)i + 1);
    uint8_t t = wall[i];
    wall[i] = wall[j];
    wall[j] = t;
  }
}

int tk_solo_score(const uint8_t hand[TK_KINDS], int win_kind, int dora_indicator, tk_score *out) {
  tk_win_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.ruleset = TK_RULES_SOLO;
  ctx.win_tile = (uint8_t)win_kind;
  ctx.ron = 0;
  ctx.round_wind = 0;
  ctx.seat_wind = 0;
  if (dora_indicator >= 0 && dora_indicator < TK_KINDS) {
    ctx.ndora = 1;
    ctx.dora[0] = (uint8_t)dora_indicator;
  }
  tk_score sc;
  int rc = tk_score_counts(hand, win_kind, 0, NULL, 0, &ctx, &sc, NULL);
  if (out) *out = sc;
  if (rc < 0) return rc;
  return sc.base;
}

/* After a draw: win check, or keep waiting for a discard. */
static void after_draw(tk_solo_game *g) {
  if (!tk_is_complete(g->hand)) return;
  tk_score sc;
  int pts = tk_solo_score(g->hand, g->drawn, g->dora_indicator, &sc);
  g->over = 1;
  g->won = 1;
  g->points = pts > 0 ? pts : 0; /* every complete hand has menzen tsumo: pts > 0 */
  g->han = (uint8_t)(sc.han > 0 ? sc.han : 0);
  g->fu = (uint8_t)(sc.fu > 0 ? sc.fu : 0);
  g->yakuman = (uint8_t)(sc.yakuman > 0 ? sc.yakuman : 0);
}

/* Draws wall[13 + turn]; ends the game without a win when no draws are left. */
static void draw(tk_solo_game *g) {
  if (g->turn >= g->draws) {
    g->over = 1;
    return;
  }
  int k = g->wall[TK_SOLO_HAND_TILES + g->turn];
  if (k >= TK_KINDS) { /* a simulated future that ran out */
    g->over = 1;
    return;
  }
  g->turn++;
  g->drawn = (uint8_t)k;
  g->hand[k]++;
  if (g->unseen[k]) g->unseen[k]--;
  after_draw(g);
}

static void reset(tk_solo_game *g, uint8_t draws, uint8_t indicator) {
  memset(g, 0, sizeof *g);
  g->draws = draws;
  g->dora_indicator = indicator;
  for (int k = 0; k < TK_KINDS; k++) g->unseen[k] = 4;
}

int tk_solo_init(tk_solo_game *g, const uint8_t wall[TK_SOLO_WALL_TILES],
                 const tk_solo_rules *rules, tk_error *err) {
  tk_solo_rules r = rules ? *rules : tk_solo_default_rules();
  if (r.draws < 1 || r.draws > TK_SOLO_MAX_DRAWS)
    return tk_error_set(err, TK_EINVAL, -1, "solo: draws must be 1..%d, got %d",
                        TK_SOLO_MAX_DRAWS, r.draws);
  uint8_t n[TK_KINDS] = {0};
  for (int i = 0; i < TK_SOLO_WALL_TILES; i++) {
    if (wall[i] >= TK_KINDS || ++n[wall[i]] > 4)
      return tk_error_set(err, TK_EINVAL, i, "solo: wall tile %d (kind %d) is not valid", i,
                          wall[i]);
  }
  reset(g, r.draws, r.dora ? wall[TK_SOLO_DORA_POS] : TK_TILE_NONE);
  memcpy(g->wall, wall, TK_SOLO_WALL_TILES);
  for (int i = 0; i < TK_SOLO_HAND_TILES; i++) {
    g->hand[wall[i]]++;
    g->unseen[wall[i]]--;
  }
  if (r.dora) g->unseen[g->dora_indicator]--;
  draw(g);
  return 0;
}

int tk_solo_from_view(tk_solo_game *g, const tk_solo_view *v, const uint8_t *future, int nfuture,
                      tk_error *err) {
  if (v->turn < 1 || v->turn > v->draws || v->draws > TK_SOLO_MAX_DRAWS ||
      v->ndiscards != v->turn - 1 || tk_counts_total(v->hand) != TK_SOLO_HAND_TILES + 1)
    return tk_error_set(err, TK_EINVAL, -1, "solo: inconsistent view");
  reset(g, v->draws, v->dora_indicator);
  memcpy(g->hand, v->hand, TK_KINDS);
  memcpy(g->unseen, v->unseen, TK_KINDS);
  memcpy(g->discards, v->discards, TK_SOLO_MAX_DRAWS);
  g->ndiscards = v->ndiscards;
  g->drawn = v->drawn;
  g->turn = v->turn;
  memset(g->wall, TK_TILE_NONE, TK_SOLO_WALL_TILES);
  int room = TK_SOLO_WALL_TILES - TK_SOLO_HAND_TILES - v->turn;
  if (nfuture > room) nfuture = room;
  for (int i = 0; i < nfuture; i++) {
    if (future[i] >= TK_KINDS) return tk_error_set(err, TK_EINVAL, i, "solo: bad future tile");
    g->wall[TK_SOLO_HAND_TILES + v->turn + i] = future[i];
  }
  return 0;
}

void tk_solo_view_of(const tk_solo_game *g, tk_solo_view *out) {
  memset(out, 0, sizeof *out);
  memcpy(out->hand, g->hand, TK_KINDS);
  memcpy(out->unseen, g->unseen, TK_KINDS);
  memcpy(out->discards, g->discards, TK_SOLO_MAX_DRAWS);
  out->ndiscards = g->ndiscards;
  out->drawn = g->drawn;
  out->turn = g->turn;
  out->draws = g->draws;
  out->dora_indicator = g->dora_indicator;
}

void tk_solo_legal_of(const tk_solo_game *g, tk_solo_legal *out) {
  memset(out, 0, sizeof *out);
  if (g->over) return;
  for (int k = 0; k < TK_KINDS; k++)
    if (g->hand[k]) {
      out->mask |= 1ull << k;
      out->kinds[out->n++] = (uint8_t)k;
    }
}

void tk_solo_discard_fast(tk_solo_game *g, int k) {
  g->hand[k]--;
  g->discards[g->ndiscards++] = (uint8_t)k;
  draw(g);
}

int tk_solo_apply(tk_solo_game *g, const tk_solo_action *a, tk_error *err) {
  if (g->over) return tk_error_set(err, TK_ESTATE, -1, "solo: the game is over");
  if (a->discard >= TK_KINDS || !g->hand[a->discard])
    return tk_error_set(err, TK_EILLEGAL, -1, "solo: discard of kind %d, which is not held",
                        a->discard);
  tk_solo_discard_fast(g, a->discard);
  return 0;
}

void tk_solo_result_of(const tk_solo_game *g, tk_solo_result *out) {
  memset(out, 0, sizeof *out);
  out->won = g->won;
  out->turn = g->turn;
  out->han = g->han;
  out->fu = g->fu;
  out->yakuman = g->yakuman;
  out->points = g->points;
}
