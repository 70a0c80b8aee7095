/* tests/riichi/rt.c — see rt.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "unit.h"

uint8_t rt_tile(const char *s) {
  tk_error err;
  tk_error_clear(&err);
  int t = tk_tile_parse1(s, &err);
  if (t < 0) {
    fprintf(stderr, "rt_tile: bad tile '%s'\n", s);
    abort();
  }
  return (uint8_t)t;
}

static int parse(const char *s, uint8_t *out, int cap) {
  if (!s || !*s) return 0;
  tk_error err;
  tk_error_clear(&err);
  int n = tk_tiles_parse(s, out, cap, &err);
  if (n < 0) fprintf(stderr, "rt_wall: '%s': %s\n", s, err.msg);
  return n;
}

int rt_wall(uint8_t wall[TK_RIICHI_TILES], int dealer, const char *const hands[4],
            const char *live, const char *rinshan, const char *dora, const char *ura) {
  memset(wall, TK_TILE_NONE, TK_RIICHI_TILES);
  uint8_t buf[136];
  int n;
  for (int s = 0; s < 4; s++) {
    if (!hands || !hands[s]) continue;
    if ((n = parse(hands[s], buf, 13)) < 0) return -1;
    memcpy(wall + 13 * ((s - dealer + 4) % 4), buf, (size_t)n);
  }
  if ((n = parse(live, buf, TK_RIICHI_LIVE)) < 0) return -1;
  memcpy(wall + TK_RIICHI_FIRST_DRAW, buf, (size_t)n);
  if ((n = parse(rinshan, buf, 4)) < 0) return -1;
  memcpy(wall + TK_RIICHI_RINSHAN_POS, buf, (size_t)n);
  if ((n = parse(dora, buf, 5)) < 0) return -1;
  memcpy(wall + TK_RIICHI_DORA_POS, buf, (size_t)n);
  if ((n = parse(ura, buf, 5)) < 0) return -1;
  memcpy(wall + TK_RIICHI_URA_POS, buf, (size_t)n);
  /* leftovers, ascending, red fives first */
  int cnt[TK_KINDS], red[3] = {1, 1, 1};
  for (int k = 0; k < TK_KINDS; k++) cnt[k] = 4;
  for (int i = 0; i < TK_RIICHI_TILES; i++) {
    if (wall[i] == TK_TILE_NONE) continue;
    int k = tk_tile_kind(wall[i]);
    if (--cnt[k] < 0 || (tk_tile_is_red(wall[i]) && --red[k / 9] < 0)) {
      fprintf(stderr, "rt_wall: too many %s\n", tk_tile_str(wall[i]));
      return -1;
    }
  }
  int pos = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    while (cnt[k] > 0) {
      while (pos < TK_RIICHI_TILES && wall[pos] != TK_TILE_NONE) pos++;
      int r = (k == TK_5M || k == TK_5P || k == TK_5S) && red[k / 9] > 0;
      wall[pos] = (uint8_t)(k | (r ? TK_TILE_RED : 0));
      if (r) red[k / 9]--;
      cnt[k]--;
    }
  }
  return 0;
}

static void on_event(void *ctx, const tk_riichi_event *ev) {
  rt *t = ctx;
  if (t->nev < RT_MAX_EVENTS) t->ev[t->nev] = *ev;
  t->nev++;
  if (t->check && ev->type == TK_RIICHI_EV_HORA) t->failures += rt_check_hora(ev);
}

void rt_init(rt *t, const tk_riichi_rules *rules) {
  t->nev = 0;
  t->failures = 0;
  t->sink.fn = on_event;
  t->sink.ctx = t;
  tk_error err;
  tk_error_clear(&err);
  if (tk_riichi_init(&t->g, rules, 1, 0, &t->sink, &err)) TK_FAILF("init: %s", err.msg);
}

int rt_deal(rt *t, const uint8_t *wall) {
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_riichi_deal(&t->g, wall, &t->sink, &err);
  if (rc) TK_FAILF("deal: %s", err.msg);
  return rc;
}

void rt_start(rt *t, const tk_riichi_rules *rules, const uint8_t *wall) {
  rt_init(t, rules);
  rt_deal(t, wall);
}

int rt_do(rt *t, int seat, int type, const char *tile, const char *c0, const char *c1) {
  tk_riichi_action a;
  memset(&a, 0, sizeof a);
  a.type = (uint8_t)type;
  a.tile = tile ? rt_tile(tile) : TK_TILE_NONE;
  a.consumed[0] = c0 ? rt_tile(c0) : TK_TILE_NONE;
  a.consumed[1] = c1 ? rt_tile(c1) : TK_TILE_NONE;
  if ((type == TK_RIICHI_DISCARD || type == TK_RIICHI_RIICHI) && !tile) {
    a.tile = t->g.drawn;
    a.tsumogiri = 1;
  } else if ((type == TK_RIICHI_DISCARD || type == TK_RIICHI_RIICHI) &&
             t->g.drawn != TK_TILE_NONE && a.tile == t->g.drawn) {
    /* the tile from the hand when another copy is held, else the drawn one */
    tk_riichi_legal l;
    tk_riichi_legal_of(&t->g, seat, &l);
    int hand = 0;
    for (int i = 0; i < l.n; i++)
      hand |= l.a[i].type == type && l.a[i].tile == a.tile && !l.a[i].tsumogiri;
    a.tsumogiri = !hand;
  }
  if (type == TK_RIICHI_RON || type == TK_RIICHI_MINKAN || type == TK_RIICHI_PASS) a.tile = t->g.react_tile;
  if (type == TK_RIICHI_TSUMO || type == TK_RIICHI_KYUUSHU) a.tile = t->g.drawn;
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_riichi_apply(&t->g, seat, &a, &t->sink, &err);
  snprintf(t->last_err, sizeof t->last_err, "%.250s", err.msg);
  if (t->check && rc == 0) t->failures += rt_check_game(&t->g);
  return rc;
}

void rt_pass(rt *t) {
  while (t->g.phase == TK_RIICHI_PHASE_REACT) {
    int s = tk_riichi_to_act(&t->g);
    if (s < 0 || rt_do(t, s, TK_RIICHI_PASS, NULL, NULL, NULL)) break;
  }
}

void rt_tsumogiri(rt *t, int n) {
  for (int i = 0; i < n && t->g.phase == TK_RIICHI_PHASE_SELF; i++) {
    if (rt_do(t, t->g.turn, TK_RIICHI_DISCARD, NULL, NULL, NULL)) {
      TK_FAILF("tsumogiri failed: %s", t->last_err);
      return;
    }
    rt_pass(t);
  }
}

void rt_to_end(rt *t) {
  int guard = 0;
  while ((t->g.phase == TK_RIICHI_PHASE_SELF || t->g.phase == TK_RIICHI_PHASE_REACT) && guard++ < 1000) {
    rt_pass(t);
    if (t->g.phase != TK_RIICHI_PHASE_SELF) break;
    if (t->g.drawn == TK_TILE_NONE) { /* after a call: first legal discard */
      tk_riichi_legal l;
      tk_riichi_legal_of(&t->g, t->g.turn, &l);
      tk_error err;
      tk_riichi_apply(&t->g, t->g.turn, &l.a[0], &t->sink, &err);
    } else {
      rt_tsumogiri(t, 1);
    }
  }
}

int rt_can(const rt *t, int seat, int type, const char *tile) {
  tk_riichi_legal l;
  tk_riichi_legal_of(&t->g, seat, &l);
  uint8_t x = tile ? rt_tile(tile) : TK_TILE_NONE;
  for (int i = 0; i < l.n; i++) {
    if (l.a[i].type != type) continue;
    if (!tile) return 1;
    if (type == TK_RIICHI_ANKAN ? tk_tile_kind(l.a[i].tile) == tk_tile_kind(x) : l.a[i].tile == x) return 1;
  }
  return 0;
}

const tk_riichi_event *rt_find(const rt *t, int type, int nth_last) {
  int n = t->nev < RT_MAX_EVENTS ? t->nev : RT_MAX_EVENTS;
  for (int i = n - 1; i >= 0; i--)
    if (t->ev[i].type == type && nth_last-- == 0) return &t->ev[i];
  return NULL;
}

int rt_count(const rt *t, int type) {
  int n = t->nev < RT_MAX_EVENTS ? t->nev : RT_MAX_EVENTS, c = 0;
  for (int i = 0; i < n; i++) c += t->ev[i].type == type;
  return c;
}

/* ------------------------------------------------------------ invariants */

#define BAD(...)                                 \
  do {                                           \
    fprintf(stderr, "invariant: " __VA_ARGS__);  \
    fprintf(stderr, "\n");                       \
    bad++;                                       \
  } while (0)

int rt_check_game(const tk_riichi_game *g) {
  int bad = 0;
  int32_t sum = 1000 * g->sticks;
  for (int s = 0; s < 4; s++) sum += g->scores[s];
  if (sum != 4 * g->rules.start_points) BAD("points + sticks = %d", (int)sum);
  if (g->phase != TK_RIICHI_PHASE_SELF && g->phase != TK_RIICHI_PHASE_REACT) return bad;
  /* 136 tiles: undrawn wall, hands, rivers (called tiles once), melds */
  int cnt[TK_KINDS] = {0}, red[3] = {0};
#define COUNT(t)                                         \
  do {                                                   \
    int k_ = tk_tile_kind(t);                            \
    if (k_ >= TK_KINDS) BAD("not a tile: 0x%02x", t);    \
    else {                                               \
      cnt[k_]++;                                         \
      if (tk_tile_is_red(t)) red[k_ / 9]++;              \
    }                                                    \
  } while (0)
  int rinshan_drawn = g->nkans;
  if (g->phase == TK_RIICHI_PHASE_REACT && g->react_from != TK_RIICHI_FROM_DISCARD) rinshan_drawn--;
  for (int i = g->next_draw; i < TK_RIICHI_RINSHAN_POS; i++) COUNT(g->wall[i]);
  for (int i = TK_RIICHI_RINSHAN_POS + rinshan_drawn; i < TK_RIICHI_TILES; i++) COUNT(g->wall[i]);
  int live = tk_riichi_tiles_left(g);
  if (live < 0 || g->live_end != TK_RIICHI_RINSHAN_POS - g->nkans) BAD("live wall %d, end %d", live, g->live_end);
  for (int s = 0; s < 4; s++) {
    const tk_riichi_player *p = &g->p[s];
    int n = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      if (p->hand[k] > 4) BAD("seat %d holds %d of kind %d", s, p->hand[k], k);
      cnt[k] += p->hand[k];
      n += p->hand[k];
    }
    for (int j = 0; j < 3; j++)
      if (p->red >> j & 1) {
        red[j]++;
        if (!p->hand[4 + 9 * j]) BAD("seat %d red bit without a five", s);
      }
    int expect = 13 - 3 * p->nmelds + (g->phase == TK_RIICHI_PHASE_SELF && g->turn == s);
    if (n != expect) BAD("seat %d holds %d tiles, expected %d", s, n, expect);
    if (n % 3 == 1) {
      int sh = tk_shanten(p->hand);
      uint64_t w = sh == 0 ? tk_waits(p->hand) : 0;
      if (sh != p->shanten || w != p->waits) BAD("seat %d: stale shanten/waits", s);
    }
    for (int i = 0; i < p->nriver; i++)
      if (!(p->river[i].flags & TK_RIICHI_CALLED)) COUNT(p->river[i].tile);
    for (int i = 0; i < p->nmelds; i++)
      for (int j = 0; j < 4; j++)
        if (p->melds[i].tiles[j] != TK_TILE_NONE) COUNT(p->melds[i].tiles[j]);
    if (p->riichi && p->open) BAD("seat %d in riichi with an open hand", s);
  }
  for (int k = 0; k < TK_KINDS; k++)
    if (cnt[k] != 4) BAD("kind %s counted %d times", tk_tile_str((tk_tile)k), cnt[k]);
  int reds = g->rules.red_fives ? 1 : 0;
  for (int j = 0; j < 3; j++)
    if (red[j] != reds) BAD("suit %d has %d red fives", j, red[j]);
  int seat = tk_riichi_to_act(g);
  tk_riichi_legal l;
  if (seat < 0 || tk_riichi_legal_of(g, seat, &l) <= 0) BAD("no legal action (seat %d)", seat);
#undef COUNT
  return bad;
}

int rt_check_hora(const tk_riichi_event *ev) {
  int bad = 0;
  tk_score sc;
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_score_hand(ev->tehais[0], ev->nhand, ev->calls, ev->ncalls, &ev->ctx, &sc, &err);
  if (rc) BAD("hora by %d: tk_score_hand says %s (%s)", ev->actor, tk_strerror(rc), err.msg);
  else if (sc.total != ev->score.total || sc.han != ev->score.han || sc.fu != ev->score.fu ||
           sc.yakuman != ev->score.yakuman)
    BAD("hora by %d: engine %d (%d han %d fu), kernel %d (%d han %d fu)", ev->actor, ev->score.total,
        ev->score.han, ev->score.fu, sc.total, sc.han, sc.fu);
  int32_t sum = 0;
  for (int s = 0; s < 4; s++) sum += ev->deltas[s];
  if (sum != 1000 * ev->ctx.sticks) BAD("hora deltas sum %d, sticks %d", (int)sum, ev->ctx.sticks);
  if (ev->deltas[ev->actor] != ev->score.total)
    BAD("winner received %d, score total %d", (int)ev->deltas[ev->actor], (int)ev->score.total);
  return bad;
}

int rt_play(rt *t, const tk_riichi_rules *rules, uint64_t seed, uint64_t game_index,
            rt_policy policy[4], void *ctx[4], long *actions) {
  tk_error err;
  tk_error_clear(&err);
  t->nev = 0;
  t->sink.fn = on_event;
  t->sink.ctx = t;
  int rc = tk_riichi_init(&t->g, rules, seed, game_index, &t->sink, &err);
  if (rc) return rc;
  tk_riichi_view v;
  tk_riichi_legal l;
  int guard = 0;
  while (!tk_riichi_is_over(&t->g)) {
    if (++guard > 100000) return TK_ESTATE;
    if (t->g.phase == TK_RIICHI_PHASE_DEAL) {
      if ((rc = tk_riichi_deal(&t->g, NULL, &t->sink, &err))) return rc;
      if (t->check) t->failures += rt_check_game(&t->g);
      continue;
    }
    int s = tk_riichi_to_act(&t->g);
    if (s < 0) return TK_ESTATE;
    tk_riichi_view_of(&t->g, s, &v);
    tk_riichi_legal_of(&t->g, s, &l);
    tk_riichi_action a;
    if ((rc = policy[s](ctx[s], &v, &l, &a))) return rc;
    if ((rc = tk_riichi_apply(&t->g, s, &a, &t->sink, &err))) {
      fprintf(stderr, "rt_play: %s\n", err.msg);
      return rc;
    }
    if (actions) (*actions)++;
    if (t->check) t->failures += rt_check_game(&t->g);
  }
  return 0;
}
