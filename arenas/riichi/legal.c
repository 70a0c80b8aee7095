/* arenas/riichi/legal.c — the legal actions of a decision and the per-seat view.
 * Self decisions (after a draw or a call): discards (kuikae after a call; only the drawn tile
 * in riichi), riichi discards, closed and added kans, tsumo, nine terminals. Reactions to a
 * discard: ron, pon, open kan, chi (from the seat on the left only), pass; to an added kan: ron
 * (chankan); to a closed kan: ron with thirteen orphans only. */
#include <string.h>

#include "internal.h"

static void push(tk_riichi_legal *l, int type, int tile, int tsumogiri, int c0, int c1) {
  tk_riichi_action *a = &l->a[l->n++];
  memset(a, 0, sizeof *a);
  a->type = (uint8_t)type;
  a->tile = (uint8_t)tile;
  a->tsumogiri = (uint8_t)tsumogiri;
  a->consumed[0] = (uint8_t)c0;
  a->consumed[1] = (uint8_t)c1;
}

static int yaochu_kinds(const uint8_t *c) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) n += c[k] && tk_kind_is_yaochu(k);
  return n;
}

/* The variants (plain / red) of one hand tile of kind k: writes up to 2 tiles. */
static int variants(const tk_riichi_player *p, int k, uint8_t out[2]) {
  int n = 0;
  if (tk__plain(p, k) > 0) out[n++] = (uint8_t)k;
  if (tk__red_held(p, k)) out[n++] = (uint8_t)(k | TK_TILE_RED);
  return n;
}

int tk__self_legal(const tk_riichi_game *g, tk_riichi_legal *l) {
  int s = g->turn;
  const tk_riichi_player *p = &g->p[s];
  tk_tile d = g->drawn;
  int left = tk__live_left(g);
  l->n = 0;
  if (p->riichi && d != TK_TILE_NONE) { /* riichi: tsumogiri, tsumo, or a waits-keeping kan */
    push(l, TK_RIICHI_DISCARD, d, 1, TK_TILE_NONE, TK_TILE_NONE);
    if (g->nkans < TK_RIICHI_MAX_KANS && left > 0 && tk__riichi_kan_ok(g, s))
      push(l, TK_RIICHI_ANKAN, tk_tile_kind(d), 0, TK_TILE_NONE, TK_TILE_NONE);
    if (tk__can_tsumo(g, s)) push(l, TK_RIICHI_TSUMO, d, 0, TK_TILE_NONE, TK_TILE_NONE);
    return l->n;
  }
  /* discards: each distinct tile held, the drawn copy listed apart as tsumogiri */
  for (int k = 0; k < TK_KINDS; k++) {
    if (!p->hand[k] || (g->kuikae >> k & 1)) continue;
    int plain = tk__plain(p, k), red = tk__red_held(p, k);
    if (d != TK_TILE_NONE && tk_tile_kind(d) == k) {
      if (tk_tile_is_red(d)) red--;
      else plain--;
    }
    if (plain > 0) push(l, TK_RIICHI_DISCARD, k, 0, TK_TILE_NONE, TK_TILE_NONE);
    if (red > 0) push(l, TK_RIICHI_DISCARD, k | TK_TILE_RED, 0, TK_TILE_NONE, TK_TILE_NONE);
  }
  if (d != TK_TILE_NONE) push(l, TK_RIICHI_DISCARD, d, 1, TK_TILE_NONE, TK_TILE_NONE);
  int ndiscards = l->n;
  /* riichi: closed, >= 1000 points, >= 4 live tiles, and the discard leaves a tenpai with a wait */
  if (!p->open && d != TK_TILE_NONE && p->shanten <= 1 && g->scores[s] >= 1000 && left >= 4) {
    uint8_t c[TK_KINDS];
    memcpy(c, p->hand, TK_KINDS);
    int8_t ok[TK_KINDS];
    memset(ok, -1, sizeof ok);
    for (int i = 0; i < ndiscards; i++) {
      int k = tk_tile_kind(l->a[i].tile);
      if (ok[k] < 0) {
        c[k]--;
        ok[k] = (int8_t)(tk_shanten(c) == 0 && tk_waits(c) != 0);
        c[k]++;
      }
      if (ok[k]) push(l, TK_RIICHI_RIICHI, l->a[i].tile, l->a[i].tsumogiri, TK_TILE_NONE, TK_TILE_NONE);
    }
  }
  if (d != TK_TILE_NONE) {
    if (g->nkans < TK_RIICHI_MAX_KANS && left > 0) {
      for (int k = 0; k < TK_KINDS; k++)
        if (p->hand[k] == 4) push(l, TK_RIICHI_ANKAN, k, 0, TK_TILE_NONE, TK_TILE_NONE);
      for (int i = 0; i < p->nmelds; i++) {
        const tk_riichi_meld *m = &p->melds[i];
        int k = tk_tile_kind(m->tiles[0]);
        if (m->type != TK_CALL_PON || !p->hand[k]) continue;
        push(l, TK_RIICHI_KAKAN, tk__red_held(p, k) ? (k | TK_TILE_RED) : k, 0, TK_TILE_NONE,
             TK_TILE_NONE);
      }
    }
    if (tk__can_tsumo(g, s)) push(l, TK_RIICHI_TSUMO, d, 0, TK_TILE_NONE, TK_TILE_NONE);
    if (g->rules.kyuushu && g->no_calls && p->nriver == 0 && !g->rinshan &&
        yaochu_kinds(p->hand) >= 9)
      push(l, TK_RIICHI_KYUUSHU, d, 0, TK_TILE_NONE, TK_TILE_NONE);
  }
  return l->n;
}

/* Tiles left in the hand that may be discarded after removing a and b and forbidding `ban`. */
static int room_after(const tk_riichi_player *p, int a, int b, uint64_t ban) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (ban >> k & 1) continue;
    n += p->hand[k] - (k == a) - (k == b);
  }
  return n;
}

int tk__react_legal(const tk_riichi_game *g, int s, tk_riichi_legal *l) {
  const tk_riichi_player *p = &g->p[s];
  tk_tile t = g->react_tile;
  int k = tk_tile_kind(t);
  int n0 = l->n;
  if (tk__can_ron(g, s)) push(l, TK_RIICHI_RON, t, 0, TK_TILE_NONE, TK_TILE_NONE);
  if (g->react_from == TK_RIICHI_FROM_DISCARD && !p->riichi && tk__live_left(g) > 0) {
    int plain = tk__plain(p, k), red = tk__red_held(p, k);
    if (p->hand[k] >= 2 && room_after(p, k, k, 1ULL << k) > 0) {
      if (plain >= 2) push(l, TK_RIICHI_PON, t, 0, k, k);
      if (red && plain >= 1) push(l, TK_RIICHI_PON, t, 0, k, k | TK_TILE_RED);
    }
    if (p->hand[k] == 3 && g->nkans < TK_RIICHI_MAX_KANS)
      push(l, TK_RIICHI_MINKAN, t, 0, TK_TILE_NONE, TK_TILE_NONE);
    if (k < 27 && s == (g->turn + 1) % 4) {
      int n = k % 9;
      static const int8_t shape[3][2] = {{-2, -1}, {-1, 1}, {1, 2}};
      for (int i = 0; i < 3; i++) {
        int a = n + shape[i][0], b = n + shape[i][1];
        if (a < 0 || b > 8) continue;
        int ka = k - n + a, kb = k - n + b;
        if (!p->hand[ka] || !p->hand[kb]) continue;
        tk_riichi_meld m;
        memset(&m, 0, sizeof m);
        m.type = TK_CALL_CHI;
        m.called = t;
        m.tiles[0] = (uint8_t)(i == 2 ? k : ka);
        uint64_t ban = tk__kuikae_mask(&m);
        if (room_after(p, ka, kb, ban) <= 0) continue;
        uint8_t va[2], vb[2];
        int na = variants(p, ka, va), nb = variants(p, kb, vb);
        for (int x = 0; x < na; x++)
          for (int y = 0; y < nb; y++) push(l, TK_RIICHI_CHI, t, 0, va[x], vb[y]);
      }
    }
  }
  int n = l->n - n0;
  if (n) push(l, TK_RIICHI_PASS, t, 0, TK_TILE_NONE, TK_TILE_NONE);
  return n;
}

int tk_riichi_to_act(const tk_riichi_game *g) {
  if (g->phase == TK_RIICHI_PHASE_SELF) return g->turn;
  if (g->phase != TK_RIICHI_PHASE_REACT) return -1;
  for (int i = 1; i < 4; i++) {
    int s = (g->turn + i) % 4;
    if (g->react_pending >> s & 1) return s;
  }
  return -1;
}

int tk_riichi_legal_of(const tk_riichi_game *g, int seat, tk_riichi_legal *out) {
  memset(out, 0, sizeof *out); /* reserved bytes and entries past n: records.tkr keeps them */
  if (seat < 0 || seat > 3) return 0;
  if (g->phase == TK_RIICHI_PHASE_SELF && seat == g->turn) return tk__self_legal(g, out);
  if (g->phase == TK_RIICHI_PHASE_REACT && (g->react_pending >> seat & 1)) {
    tk__react_legal(g, seat, out);
    return out->n;
  }
  return 0;
}

void tk_riichi_view_of(const tk_riichi_game *g, int seat, tk_riichi_view *v) {
  memset(v, 0, sizeof *v);
  const tk_riichi_player *me = &g->p[seat];
  memcpy(v->scores, g->scores, sizeof v->scores);
  v->seat = (uint8_t)seat;
  v->phase = g->phase;
  v->round = g->round;
  v->dealer = (uint8_t)tk__dealer(g);
  v->round_wind = (uint8_t)(g->round / 4 % 4);
  v->seat_wind = (uint8_t)((seat - v->dealer + 4) % 4);
  v->honba = g->honba;
  v->sticks = g->sticks;
  v->tiles_left = (uint8_t)tk__live_left(g);
  v->ndora = g->ndora;
  memset(v->dora, TK_TILE_NONE, sizeof v->dora);
  for (int i = 0; i < g->ndora; i++) v->dora[i] = g->wall[TK_RIICHI_DORA_POS + i];
  v->pending_dora = g->pending_dora;
  v->no_calls = g->no_calls;
  int self = g->phase == TK_RIICHI_PHASE_SELF && g->turn == seat;
  v->actor = g->phase == TK_RIICHI_PHASE_REACT ? g->turn : (uint8_t)seat;
  v->last_tile = g->phase == TK_RIICHI_PHASE_REACT ? g->react_tile : TK_TILE_NONE;
  v->last_from = g->phase == TK_RIICHI_PHASE_REACT ? g->react_from : 0;
  v->drawn = self ? g->drawn : TK_TILE_NONE;
  v->after_call = self ? g->after_call : 0;
  v->rinshan = self ? g->rinshan : 0;
  memcpy(v->plays, g->plays, sizeof v->plays);
  v->furiten = (uint8_t)(me->furiten | ((me->waits & me->discarded) ? TK_RIICHI_FURITEN_DISCARD : 0));
  memcpy(v->hand, me->hand, TK_KINDS);
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int c = me->hand[k];
    if (tk__red_held(me, k)) v->tiles[n++] = (uint8_t)(k | TK_TILE_RED), c--;
    while (c-- > 0 && n < 14) v->tiles[n++] = (uint8_t)k;
  }
  for (int i = n; i < 14; i++) v->tiles[i] = TK_TILE_NONE;
  v->nhand = (uint8_t)n;
  for (int i = 0; i < g->ndora; i++) v->seen[tk_tile_kind(v->dora[i])]++;
  for (int s = 0; s < 4; s++) {
    const tk_riichi_player *p = &g->p[s];
    v->riichi[s] = p->riichi;
    v->riichi_index[s] = p->riichi_index;
    v->ippatsu[s] = p->ippatsu;
    v->pao[s] = p->pao;
    v->nmelds[s] = p->nmelds;
    v->nriver[s] = p->nriver;
    memcpy(v->melds[s], p->melds, sizeof p->melds);
    memcpy(v->river[s], p->river, sizeof(tk_riichi_discard) * p->nriver);
    for (int i = 0; i < p->nriver; i++)
      if (!(p->river[i].flags & TK_RIICHI_CALLED)) v->seen[tk_tile_kind(p->river[i].tile)]++;
    for (int i = 0; i < p->nmelds; i++)
      for (int j = 0; j < 4; j++)
        if (p->melds[i].tiles[j] != TK_TILE_NONE) v->seen[tk_tile_kind(p->melds[i].tiles[j])]++;
  }
}

int tk_riichi_fallback(const tk_riichi_legal *l) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_PASS || (l->a[i].type == TK_RIICHI_DISCARD && l->a[i].tsumogiri))
      return i;
  for (int i = 0; i < l->n; i++) /* no drawn tile (after a call): the first discard */
    if (l->a[i].type == TK_RIICHI_DISCARD) return i;
  return -1;
}
