/* arenas/riichi/sim.c — determinisation for Monte Carlo agents: a full game built from one
 * seat's view, with the tiles that seat cannot see dealt at random from the unseen ones.
 * The wall keeps the engine's layout (taikai/riichi.h): positions already drawn hold
 * TK_TILE_NONE; the live remainder, the tiles moved to the dead wall by kans, the replacement
 * tiles still to draw, the unrevealed indicators and every ura indicator are filled. */
#include <string.h>

#include "internal.h"

static void riichi_tenpai(tk_riichi_game *g, int viewer, int o, unsigned fixed, tk_rng *rng);

/* tk_riichi_from_view; the seats of `given` hold hands[s] (tk_riichi_from_view_hands); with
 * `tenpai`, each other seat in riichi is then dealt a tenpai hand (riichi_tenpai). */
static int from_view(tk_riichi_game *g, const tk_riichi_view *v, const tk_riichi_rules *rules,
                     tk_rng *rng, int tenpai, unsigned given, const uint8_t (*hands)[TK_KINDS],
                     const uint8_t *hred, tk_error *err) {
  tk_riichi_rules r = rules ? *rules : tk_riichi_default_rules();
  if (v->seat > 3 || (v->phase != TK_RIICHI_PHASE_SELF && v->phase != TK_RIICHI_PHASE_REACT) ||
      v->ndora < 1 || v->ndora > 5 || v->nhand > 14)
    return tk_error_set(err, TK_EINVAL, -1, "riichi: from_view: not a decision view");
  memset(g, 0, sizeof *g);
  g->rules = r;
  g->seed = tk_rng_next(rng);
  g->game_index = 0;
  memcpy(g->scores, v->scores, sizeof g->scores);
  g->phase = v->phase;
  g->round = v->round;
  g->honba = v->honba;
  g->sticks = v->sticks;
  g->ndora = v->ndora;
  g->pending_dora = v->pending_dora;
  g->no_calls = v->no_calls;
  g->drawn = TK_TILE_NONE;
  memset(g->wall, TK_TILE_NONE, sizeof g->wall);

  /* the unseen multiset: every tile minus what the viewer sees */
  int cnt[TK_KINDS], red[3];
  for (int k = 0; k < TK_KINDS; k++) cnt[k] = 4;
  for (int s = 0; s < 3; s++) red[s] = r.red_fives ? 1 : 0;
#define SEE(t)                                               \
  do {                                                       \
    int k_ = tk_tile_kind(t);                                \
    if (k_ >= TK_KINDS || --cnt[k_] < 0) goto bad;           \
    if (tk_tile_is_red(t) && (!tk__five(k_) || --red[k_ / 9] < 0)) goto bad; \
  } while (0)
  for (int i = 0; i < v->nhand; i++) SEE(v->tiles[i]);
  for (int i = 0; i < v->ndora; i++) {
    SEE(v->dora[i]);
    g->wall[TK_RIICHI_DORA_POS + i] = v->dora[i];
  }
  int nkans = 0;
  for (int s = 0; s < 4; s++) {
    tk_riichi_player *p = &g->p[s];
    if (v->nmelds[s] > 4 || v->nriver[s] > TK_RIICHI_MAX_RIVER) goto bad;
    p->nmelds = v->nmelds[s];
    p->nriver = v->nriver[s];
    p->riichi = v->riichi[s];
    p->riichi_index = v->riichi_index[s];
    p->ippatsu = v->ippatsu[s];
    p->pao = v->pao[s];
    p->nagashi = 1;
    memcpy(p->melds, v->melds[s], sizeof p->melds);
    memcpy(p->river, v->river[s], sizeof(tk_riichi_discard) * p->nriver);
    for (int i = 0; i < p->nriver; i++) {
      int k = tk_tile_kind(p->river[i].tile);
      if (!(p->river[i].flags & TK_RIICHI_CALLED)) SEE(p->river[i].tile);
      else p->nagashi = 0;
      if (k < TK_KINDS) {
        p->discarded |= 1ULL << k;
        if (!tk_kind_is_yaochu(k)) p->nagashi = 0;
      }
    }
    int dragons = 0;
    for (int i = 0; i < p->nmelds; i++) {
      const tk_riichi_meld *m = &p->melds[i];
      for (int j = 0; j < 4; j++)
        if (m->tiles[j] != TK_TILE_NONE) SEE(m->tiles[j]);
      if (m->type >= TK_CALL_MINKAN) nkans++, p->nkans++;
      if (m->type != TK_CALL_ANKAN) p->open = 1;
      dragons += m->type != TK_CALL_CHI && tk_tile_kind(m->tiles[0]) >= TK_HAKU;
    }
    if (p->pao != TK_RIICHI_NOBODY) p->pao_yaku = dragons >= 3 ? TK_YAKU_DAISANGEN : TK_YAKU_DAISUUSHII;
  }
  if (nkans > TK_RIICHI_MAX_KANS || v->tiles_left > TK_RIICHI_LIVE - nkans) goto bad;
  g->nkans = (uint8_t)nkans;
  g->live_end = (uint8_t)(TK_RIICHI_RINSHAN_POS - nkans);
  g->next_draw = (uint8_t)(g->live_end - v->tiles_left);
  int owners = 0;
  for (int s = 0; s < 4; s++) owners += g->p[s].nkans > 0;
  g->abort_kans = nkans == TK_RIICHI_MAX_KANS && owners > 1;

  /* the given hands, taken out of the unseen tiles first */
  for (int s = 0; s < 4; s++) {
    if (!(given >> s & 1)) continue;
    tk_riichi_player *p = &g->p[s];
    int n = 0;
    if (s == v->seat) goto bad;
    for (int k = 0; k < TK_KINDS; k++) {
      int want = hands[s][k];
      if (want > cnt[k]) return tk_error_set(err, TK_EINVAL, -1,
          "riichi: from_view: seat %d's hand holds %d of kind %d, %d unseen", s, want, k, cnt[k]);
      int r5 = 0;
      if (want && tk__five(k)) {
        int plain = cnt[k] - red[k / 9];
        r5 = red[k / 9] > 0 && ((hred[s] >> (k / 9) & 1) || want > plain);
        red[k / 9] -= r5;
        if (r5) tk__add(p, (uint8_t)(k | TK_TILE_RED));
      }
      for (int c = r5; c < want; c++) tk__add(p, (uint8_t)k);
      cnt[k] -= want;
      n += want;
    }
    if (n != 13 - 3 * p->nmelds) return tk_error_set(err, TK_EINVAL, -1,
        "riichi: from_view: seat %d's hand has %d tiles, not %d", s, n, 13 - 3 * p->nmelds);
  }

  /* the pool of unseen tiles, shuffled */
  uint8_t pool[TK_RIICHI_TILES];
  int np = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int c = cnt[k];
    if (tk__five(k) && red[k / 9] > 0 && c > 0) pool[np++] = (uint8_t)(k | TK_TILE_RED), c--;
    while (c-- > 0) pool[np++] = (uint8_t)k;
  }
  for (int i = np - 1; i > 0; i--) {
    int j = (int)tk_rng_below(rng, (uint32_t)i + 1);
    uint8_t t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  int used = 0;
  int self = v->phase == TK_RIICHI_PHASE_SELF;
  for (int s = 0; s < 4; s++) {
    tk_riichi_player *p = &g->p[s];
    if (s == v->seat) {
      for (int i = 0; i < v->nhand; i++) tk__add(p, v->tiles[i]);
      continue;
    }
    if (given >> s & 1) continue;
    int n = 13 - 3 * p->nmelds;
    for (int i = 0; i < n; i++) {
      if (used >= np) goto bad;
      tk__add(p, pool[used++]);
    }
  }
  int expect_self = 13 - 3 * g->p[v->seat].nmelds + (self ? 1 : 0);
  if (v->nhand != expect_self) goto bad;
  for (int i = g->next_draw; i < TK_RIICHI_RINSHAN_POS; i++) g->wall[i] = used < np ? pool[used++] : TK_TILE_NONE;
  /* The replacement tiles not yet drawn: a kan robbed now (the reaction to an added or closed
   * kan) is counted in nkans before its replacement is drawn, so that one is still in the wall. */
  int robbing = !self && v->last_from != TK_RIICHI_FROM_DISCARD;
  for (int i = TK_RIICHI_RINSHAN_POS + nkans - robbing; i < TK_RIICHI_DORA_POS; i++)
    g->wall[i] = used < np ? pool[used++] : TK_TILE_NONE;
  for (int i = TK_RIICHI_DORA_POS + v->ndora; i < TK_RIICHI_TILES; i++)
    g->wall[i] = used < np ? pool[used++] : TK_TILE_NONE;
  if (used != np) goto bad;
  if (tenpai) {
    unsigned fixed = given;
    for (int s = 0; s < 4; s++)
      if (s != v->seat && !(given >> s & 1) && g->p[s].riichi && g->p[s].nmelds == g->p[s].nkans) {
        riichi_tenpai(g, v->seat, s, fixed, rng);
        fixed |= 1u << s;
      }
  }

  for (int s = 0; s < 4; s++) {
    tk_riichi_player *p = &g->p[s];
    if (self && s == v->seat && v->drawn != TK_TILE_NONE) {
      tk__remove(p, v->drawn);
      tk__update_waits(p);
      tk__add(p, v->drawn);
    } else if (!(self && s == v->seat)) {
      tk__update_waits(p);
    }
    if (p->riichi && p->riichi_index >= p->nriver) goto bad;
  }
  g->p[v->seat].furiten = v->furiten & (TK_RIICHI_FURITEN_TEMP | TK_RIICHI_FURITEN_RIICHI);
  if (self) {
    g->turn = v->seat;
    g->drawn = v->drawn;
    g->after_call = v->after_call;
    g->rinshan = v->rinshan;
    if (v->after_call) {
      const tk_riichi_player *p = &g->p[v->seat];
      if (!p->nmelds) goto bad;
      g->kuikae = tk__kuikae_mask(&p->melds[p->nmelds - 1]);
    }
  } else {
    g->turn = v->actor;
    g->react_tile = v->last_tile;
    g->react_from = v->last_from;
    const tk_riichi_player *giver = &g->p[v->actor];
    g->riichi_pending = v->last_from == TK_RIICHI_FROM_DISCARD && giver->nriver > 0 &&
                        (giver->river[giver->nriver - 1].flags & TK_RIICHI_DECLARED);
    tk_riichi_legal l;
    for (int i = 1; i < 4; i++) {
      int s = (g->turn + i) % 4;
      l.n = 0;
      if (tk__react_legal(g, s, &l)) {
        g->react_pending |= (uint8_t)(1 << s);
        if (l.a[0].type == TK_RIICHI_RON) g->react_ron |= (uint8_t)(1 << s);
      }
      g->react_choice[s].type = TK_RIICHI_PASS;
    }
    if (!(g->react_pending >> v->seat & 1)) goto bad;
  }
  memcpy(g->plays, v->plays, sizeof g->plays); /* the hand's plays so far, as the seat saw them */
  return 0;
bad:
#undef SEE
  return tk_error_set(err, TK_EINVAL, -1, "riichi: from_view: the view is not consistent");
}

int tk_riichi_from_view(tk_riichi_game *g, const tk_riichi_view *v, const tk_riichi_rules *rules,
                        tk_rng *rng, tk_error *err) {
  return from_view(g, v, rules, rng, 0, 0, NULL, NULL, err);
}

int tk_riichi_from_view_hands(tk_riichi_game *g, const tk_riichi_view *v,
                              const tk_riichi_rules *rules, unsigned given,
                              const uint8_t hands[4][TK_KINDS], const uint8_t red[4], tk_rng *rng,
                              tk_error *err) {
  static const uint8_t none[4];
  if (given & ~0xfu)
    return tk_error_set(err, TK_EINVAL, -1, "riichi: from_view_hands: seats 0x%x", given);
  return from_view(g, v, rules, rng, 0, given, hands, red ? red : none, err);
}

/* One random complete hand of `sets` sets and a pair drawn from the kinds `cnt`, into `use`:
 * the pair first, then each set from a random kind of the pool (a triplet, or a run through it,
 * one of the feasible shapes at random). Returns 0, or -1 when a draw found nothing feasible. */
static int random_complete(const uint8_t cnt[TK_KINDS], int sets, tk_rng *rng,
                           uint8_t use[TK_KINDS]) {
  memset(use, 0, TK_KINDS);
  int start = (int)tk_rng_below(rng, TK_KINDS), k = -1;
  for (int i = 0; i < TK_KINDS && k < 0; i++)
    if (cnt[(start + i) % TK_KINDS] >= 2) k = (start + i) % TK_KINDS;
  if (k < 0) return -1;
  use[k] = 2;
  for (int s = 0; s < sets; s++) {
    int done = 0;
    for (int attempt = 0; attempt < 8 && !done; attempt++) {
      int t = (int)tk_rng_below(rng, TK_KINDS);
      int shapes[4], n = 0; /* 0 triplet, 1..3 runs with t as the lowest, middle, highest */
      if (cnt[t] - use[t] >= 3) shapes[n++] = 0;
      for (int lo = t - 2; lo <= t; lo++) {
        if (lo < 0 || lo >= 27 || lo / 9 != t / 9 || lo % 9 > 6) continue;
        if (cnt[lo] > use[lo] && cnt[lo + 1] > use[lo + 1] && cnt[lo + 2] > use[lo + 2])
          shapes[n++] = 1 + (t - lo);
      }
      if (!n) continue;
      int sh = shapes[tk_rng_below(rng, (uint32_t)n)];
      if (sh == 0) use[t] += 3;
      else
        for (int j = 0; j < 3; j++) use[t - (sh - 1) + j]++;
      done = 1;
    }
    if (!done) return -1;
  }
  return 0;
}

/* Does wall position i (past the draws) hold a tile the viewer cannot see: not a revealed
 * indicator, not an already drawn replacement tile (TK_TILE_NONE)? */
static int hidden(const tk_riichi_game *g, int i) {
  return g->wall[i] != TK_TILE_NONE &&
         !(i >= TK_RIICHI_DORA_POS && i < TK_RIICHI_DORA_POS + g->ndora);
}

/* Removes every concealed tile of p into pool[*np...]. */
static void take_hand(tk_riichi_player *p, uint8_t *pool, int *np) {
  for (int k = 0; k < TK_KINDS; k++)
    for (int c = 0; c < p->hand[k]; c++)
      pool[(*np)++] = (uint8_t)(c == 0 && tk__red_held(p, k) ? k | TK_TILE_RED : k);
  memset(p->hand, 0, sizeof p->hand);
  p->red = 0;
}

/* Replaces the concealed tiles of seat o (in riichi, closed) by a tenpai hand drawn from every
 * tile the viewer cannot see that is not already fixed: o's tiles, the concealed tiles of the
 * other seats that are neither the viewer nor in `fixed`, the live wall and the unrevealed dead
 * wall. The hand is a random complete hand of that pool (random_complete) less one of its tiles
 * at random, kept when its waits are none of the kinds in o's river (it would be furiten, and
 * the tiles it let pass after riichi are in its river) and not all held by itself; up to 64
 * draws, else nothing changes. The rest of the pool is then dealt again at random to the other
 * seats' hands (as many tiles as each had), the live wall and the dead wall. Neither uniform
 * over o's tenpai hands nor weighted by how o played: a construction that makes a riichi's
 * threat real in simulations. */
static void riichi_tenpai(tk_riichi_game *g, int viewer, int o, unsigned fixed, tk_rng *rng) {
  tk_riichi_player *p = &g->p[o];
  int need = 0, sets;
  uint8_t cnt[TK_KINDS] = {0};
  for (int k = 0; k < TK_KINDS; k++) need += p->hand[k];
  sets = (need - 1) / 3;
  /* the pool's kinds, counted without moving anything yet */
  for (int s = 0; s < 4; s++)
    if (s == o || (s != viewer && !(fixed >> s & 1)))
      for (int k = 0; k < TK_KINDS; k++) cnt[k] = (uint8_t)(cnt[k] + g->p[s].hand[k]);
  for (int i = g->next_draw; i < TK_RIICHI_TILES; i++)
    if (hidden(g, i))
      cnt[tk_tile_kind(g->wall[i])]++;
  uint8_t use[TK_KINDS];
  int found = 0;
  for (int attempt = 0; attempt < 64 && !found; attempt++) {
    if (random_complete(cnt, sets, rng, use)) continue;
    int drop = (int)tk_rng_below(rng, (uint32_t)need + 1), k = 0;
    for (int acc = use[0]; acc <= drop; acc += use[++k]) {
    }
    use[k]--;
    if (tk_shanten(use) != 0) continue;
    uint64_t w = tk_waits(use);
    int live = 0;
    for (int j = 0; j < TK_KINDS; j++) live |= (w >> j & 1) && use[j] < 4;
    found = w && !(w & p->discarded) && live;
  }
  if (!found) return;
  /* gather the pool's tiles, shuffle, give o its kinds, deal the rest back in order */
  uint8_t pool[TK_RIICHI_TILES];
  int np = 0, have[4] = {0};
  for (int s = 0; s < 4; s++)
    if (s == o || (s != viewer && !(fixed >> s & 1))) {
      int before = np;
      take_hand(&g->p[s], pool, &np);
      have[s] = np - before;
    }
  for (int i = g->next_draw; i < TK_RIICHI_TILES; i++)
    if (hidden(g, i))
      pool[np++] = g->wall[i];
  for (int i = np - 1; i > 0; i--) {
    int j = (int)tk_rng_below(rng, (uint32_t)i + 1);
    uint8_t t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  uint8_t rest[TK_RIICHI_TILES];
  int nr = 0;
  for (int i = 0; i < np; i++) {
    int k = tk_tile_kind(pool[i]);
    if (use[k]) {
      use[k]--;
      tk__add(p, pool[i]);
    } else {
      rest[nr++] = pool[i];
    }
  }
  int r = 0;
  for (int s = 0; s < 4; s++)
    if (s != o && have[s])
      for (int i = 0; i < have[s]; i++) tk__add(&g->p[s], rest[r++]);
  for (int i = g->next_draw; i < TK_RIICHI_TILES; i++)
    if (hidden(g, i))
      g->wall[i] = rest[r++];
}

static int sample_tenpai(void *ctx, const tk_riichi_view *view, const tk_riichi_rules *rules,
                         tk_rng *rng, int k, tk_riichi_game *out, tk_error *err) {
  (void)ctx;
  for (int i = 0; i < k; i++)
    if (from_view(&out[i], view, rules, rng, 1, 0, NULL, NULL, err)) return TK_EINVAL;
  return 0;
}

int tk_riichi_sample_uniform(void *ctx, const tk_riichi_view *view, const tk_riichi_rules *rules,
                             tk_rng *rng, int k, tk_riichi_game *out, tk_error *err) {
  (void)ctx;
  for (int i = 0; i < k; i++)
    if (tk_riichi_from_view(&out[i], view, rules, rng, err)) return TK_EINVAL;
  return 0;
}

static const tk_riichi_sampler samplers[] = {
    {"uniform", tk_riichi_sample_uniform, NULL},
    {"tenpai", sample_tenpai, NULL},
};

const tk_riichi_sampler *tk_riichi_sampler_find(const char *name) {
  for (size_t i = 0; name && i < sizeof samplers / sizeof samplers[0]; i++)
    if (!strcmp(samplers[i].name, name)) return &samplers[i];
  return NULL;
}

const char *tk_riichi_sampler_names(void) { return "uniform, tenpai"; }
