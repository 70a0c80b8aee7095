/* arenas/riichi/game.c — the flow of a riichi game (taikai/riichi.h): dealing, draws, discards,
 * calls and their priorities, kans and their dora, riichi, wins and payments, draws, and the
 * end of hands and of the game.
 *
 * Invariants between decisions: the 136 tiles are in the wall's undrawn part, the hands, the
 * rivers (a called tile once, in its meld) and the melds; sum(scores) + 1000 * sticks is
 * 4 * start_points; a seat in SELF holds 3k+2 concealed tiles, every other seat 3k+1, and each
 * 3k+1 hand's shanten and waits are current. */
#include <string.h>

#include "internal.h"

tk_riichi_rules tk_riichi_default_rules(void) {
  tk_riichi_rules r;
  memset(&r, 0, sizeof r);
  r.length = 1;
  r.red_fives = 1;
  r.kyuushu = 1;
  r.agariyame = 1;
  r.extension = 1;
  r.start_points = 25000;
  r.return_points = 30000;
  r.uma[0] = 20000;
  r.uma[1] = 10000;
  r.uma[2] = -10000;
  r.uma[3] = -20000;
  return r;
}

const char *tk_riichi_draw_name(int reason) {
  static const char *const names[TK_RIICHI_DRAW_COUNT] = {
      "fanpai", "nagashimangan", "kyushukyuhai", "suufonrenda", "suuchariichi", "suukaikan",
      "sanchahou"};
  return reason >= 0 && reason < TK_RIICHI_DRAW_COUNT ? names[reason] : NULL;
}

void tk_riichi_wall(uint64_t seed, uint64_t game_index, int round, int honba,
                    uint8_t wall[TK_RIICHI_TILES]) {
  tk_rng rng;
  uint64_t stream = tk_mix64(game_index) ^ ((uint64_t)(uint32_t)round << 32 | (uint32_t)honba);
  tk_rng_seed2(&rng, seed ^ 0x7269696368690000ULL, stream);
  for (int i = 0; i < TK_RIICHI_TILES; i++) {
    int k = i / 4;
    wall[i] = (uint8_t)(k | ((i % 4 == 0 && (k == TK_5M || k == TK_5P || k == TK_5S)) ? TK_TILE_RED : 0));
  }
  for (int i = TK_RIICHI_TILES - 1; i > 0; i--) {
    int j = (int)tk_rng_below(&rng, (uint32_t)i + 1);
    uint8_t t = wall[i];
    wall[i] = wall[j];
    wall[j] = t;
  }
}

int tk_riichi_wall_check(const uint8_t wall[TK_RIICHI_TILES], tk_error *err) {
  uint8_t n[TK_KINDS] = {0}, red[3] = {0};
  for (int i = 0; i < TK_RIICHI_TILES; i++) {
    int k = tk_tile_kind(wall[i]);
    if (k >= TK_KINDS || (wall[i] & ~(TK_TILE_RED | 0x3f)) || ++n[k] > 4)
      return tk_error_set(err, TK_EINVAL, i, "riichi: wall tile %d (0x%02x) is not valid or a fifth copy", i,
                          wall[i]);
    if (tk_tile_is_red(wall[i])) {
      if (!tk__five(k) || ++red[k / 9] > 1)
        return tk_error_set(err, TK_EINVAL, i, "riichi: wall tile %d: only one red five per suit", i);
    }
  }
  return 0;
}

static void emit(const tk_riichi_sink *sink, const tk_riichi_event *ev) {
  if (sink && sink->fn) sink->fn(sink->ctx, ev);
}

static void ev_init(tk_riichi_event *ev, int type, int actor) {
  memset(ev, 0, sizeof *ev);
  ev->type = (uint8_t)type;
  ev->actor = (int8_t)actor;
  ev->target = -1;
  ev->tile = TK_TILE_NONE;
  ev->pao = TK_RIICHI_NOBODY;
  memset(ev->consumed, TK_TILE_NONE, sizeof ev->consumed);
  memset(ev->tehais, TK_TILE_NONE, sizeof ev->tehais);
}

static void emit_simple(const tk_riichi_sink *sink, int type, int actor, int tile) {
  if (!sink || !sink->fn) return;
  tk_riichi_event ev;
  ev_init(&ev, type, actor);
  ev.tile = (uint8_t)tile;
  emit(sink, &ev);
}

/* The concealed tiles of p, ascending, a red five before its plain copies. */
/* One more public play of seat `s` in the hand's hash (tk_riichi_plays_hash). */
static void played(tk_riichi_game *g, int s, int type, int tile) {
  uint32_t h = (uint32_t)g->plays[0] | (uint32_t)g->plays[1] << 8 | (uint32_t)g->plays[2] << 16;
  h = tk_riichi_plays_hash(h, s, type, tile);
  g->plays[0] = (uint8_t)h;
  g->plays[1] = (uint8_t)(h >> 8);
  g->plays[2] = (uint8_t)(h >> 16);
}

static int hand_tiles(const tk_riichi_player *p, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int c = p->hand[k];
    if (tk__red_held(p, k)) out[n++] = (uint8_t)(k | TK_TILE_RED), c--;
    while (c-- > 0) out[n++] = (uint8_t)k;
  }
  return n;
}

static int rules_check(const tk_riichi_rules *r, tk_error *err) {
  if (r->length < 1 || r->length > 2)
    return tk_error_set(err, TK_EINVAL, -1, "riichi: length must be 1 (east-only) or 2 (hanchan), got %d",
                        r->length);
  if (r->start_points < 1000 || r->start_points > 1000000 || r->start_points % 100)
    return tk_error_set(err, TK_EINVAL, -1, "riichi: start_points must be a multiple of 100 from 1000 to 1000000");
  if (r->return_points < r->start_points || r->return_points > 1000000 || r->return_points % 100)
    return tk_error_set(err, TK_EINVAL, -1,
                        "riichi: return_points must be a multiple of 100, at least start_points");
  return 0;
}

int tk_riichi_init(tk_riichi_game *g, const tk_riichi_rules *rules, uint64_t seed,
                   uint64_t game_index, const tk_riichi_sink *sink, tk_error *err) {
  tk_riichi_rules r = rules ? *rules : tk_riichi_default_rules();
  int rc = rules_check(&r, err);
  if (rc) return rc;
  memset(g, 0, sizeof *g);
  g->rules = r;
  g->seed = seed;
  g->game_index = game_index;
  for (int s = 0; s < 4; s++) g->scores[s] = r.start_points;
  g->phase = TK_RIICHI_PHASE_DEAL;
  g->drawn = TK_TILE_NONE;
  if (sink && sink->fn) {
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_START_GAME, -1);
    memcpy(ev.scores, g->scores, sizeof ev.scores);
    emit(sink, &ev);
  }
  return 0;
}

/* ------------------------------------------------------------ draws and dora */

static void draw(tk_riichi_game *g, int s, int rinshan, const tk_riichi_sink *sink) {
  tk_tile t = rinshan ? g->wall[TK_RIICHI_RINSHAN_POS + g->nkans - 1] : g->wall[g->next_draw++];
  tk__add(&g->p[s], t);
  g->phase = TK_RIICHI_PHASE_SELF;
  g->turn = (uint8_t)s;
  g->drawn = t;
  g->after_call = 0;
  g->rinshan = (uint8_t)rinshan;
  g->kuikae = 0;
  emit_simple(sink, TK_RIICHI_EV_TSUMO, s, t);
}

static void flip_dora(tk_riichi_game *g, const tk_riichi_sink *sink) {
  tk_tile t = g->wall[TK_RIICHI_DORA_POS + g->ndora];
  g->ndora++;
  if (sink && sink->fn) {
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_DORA, -1);
    ev.tile = t;
    emit(sink, &ev);
  }
}

static void flip_pending(tk_riichi_game *g, const tk_riichi_sink *sink) {
  while (g->pending_dora) {
    g->pending_dora--;
    flip_dora(g, sink);
  }
}

int tk_riichi_deal(tk_riichi_game *g, const uint8_t *wall, const tk_riichi_sink *sink,
                   tk_error *err) {
  if (g->phase != TK_RIICHI_PHASE_DEAL)
    return tk_error_set(err, TK_ESTATE, -1, "riichi: deal outside the deal phase");
  uint8_t w[TK_RIICHI_TILES];
  if (wall) {
    int rc = tk_riichi_wall_check(wall, err);
    if (rc) return rc;
    memcpy(w, wall, sizeof w);
  } else {
    tk_riichi_wall(g->seed, g->game_index, g->round, g->honba, w);
  }
  if (!g->rules.red_fives)
    for (int i = 0; i < TK_RIICHI_TILES; i++) w[i] &= (uint8_t)~TK_TILE_RED;
  memcpy(g->wall, w, sizeof w);
  memset(g->p, 0, sizeof g->p);
  g->next_draw = TK_RIICHI_FIRST_DRAW;
  g->live_end = TK_RIICHI_RINSHAN_POS;
  g->nkans = 0;
  g->ndora = 1;
  g->pending_dora = 0;
  g->abort_kans = 0;
  g->no_calls = 1;
  g->riichi_pending = 0;
  g->react_pending = g->react_ron = 0;
  memset(g->plays, 0, sizeof g->plays);
  int dealer = tk__dealer(g);
  for (int i = 0; i < 4; i++) {
    tk_riichi_player *p = &g->p[(dealer + i) % 4];
    p->pao = TK_RIICHI_NOBODY;
    p->nagashi = 1;
    for (int j = 0; j < 13; j++) tk__add(p, w[13 * i + j]);
  }
  for (int s = 0; s < 4; s++) {
    tk__update_waits(&g->p[s]);
    g->stats[s].hands++;
  }
  g->hands++;
  if (sink && sink->fn) {
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_START_KYOKU, -1);
    ev.round = g->round;
    ev.honba = g->honba;
    ev.sticks = g->sticks;
    ev.dealer = (uint8_t)dealer;
    ev.tile = w[TK_RIICHI_DORA_POS];
    for (int s = 0; s < 4; s++) hand_tiles(&g->p[s], ev.tehais[s]);
    memcpy(ev.scores, g->scores, sizeof ev.scores);
    emit(sink, &ev);
  }
  draw(g, dealer, 0, sink);
  return 0;
}

/* ------------------------------------------------------------ end of a hand, end of the game */

void tk_riichi_ranks(const int32_t scores[4], uint8_t rank[4]) {
  for (int s = 0; s < 4; s++) {
    int r = 1;
    for (int o = 0; o < 4; o++)
      if (scores[o] > scores[s] || (scores[o] == scores[s] && o < s)) r++;
    rank[s] = (uint8_t)r;
  }
}

/* Decides what follows a hand. `renchan`: the dealer keeps the seat; `drawn`: no win (honba
 * grows); `yame`: the dealer repeats by winning or by tenpai (agari-yame / tenpai-yame apply).
 * From the last regular hand on (and through the extension wind, Tenhou's rule) a dealer
 * repeat has priority: the game then ends only by bust or by agari-yame / tenpai-yame (the
 * dealer top with return_points), never because another seat holds return_points; any other
 * hand ends the game when a seat holds return_points, or when it was the extension's last. */
static void end_hand(tk_riichi_game *g, int renchan, int drawn, int yame,
                     const tk_riichi_sink *sink) {
  for (int s = 0; s < 4; s++) g->stats[s].calls += g->p[s].open;
  emit_simple(sink, TK_RIICHI_EV_END_KYOKU, -1, TK_TILE_NONE);
  const tk_riichi_rules *r = &g->rules;
  int last = r->length * 4 - 1;          /* East 4 or South 4 */
  int final = last + (r->extension ? 4 : 0); /* the last hand of the extension wind */
  int dealer = tk__dealer(g);
  uint8_t rank[4];
  tk_riichi_ranks(g->scores, rank);
  int bust = 0, reached = 0;
  for (int s = 0; s < 4; s++) {
    bust |= g->scores[s] < 0;
    reached |= g->scores[s] >= r->return_points;
  }
  int over = bust;
  if (!over && g->round >= last) {
    if (renchan) {
      if (r->agariyame && yame && rank[dealer] == 1 && g->scores[dealer] >= r->return_points) over = 1;
    } else {
      over = reached || g->round >= final;
    }
  }
  g->last_renchan = (uint8_t)renchan;
  if (over) {
    int top = 0;
    for (int s = 0; s < 4; s++)
      if (rank[s] == 1) top = s;
    g->scores[top] += 1000 * g->sticks;
    g->sticks = 0;
    g->phase = TK_RIICHI_PHASE_OVER;
    if (sink && sink->fn) {
      tk_riichi_event ev;
      ev_init(&ev, TK_RIICHI_EV_END_GAME, -1);
      memcpy(ev.scores, g->scores, sizeof ev.scores);
      emit(sink, &ev);
    }
    return;
  }
  if (renchan) {
    g->honba++;
  } else {
    g->round++;
    g->honba = drawn ? (uint8_t)(g->honba + 1) : 0;
  }
  g->phase = TK_RIICHI_PHASE_DEAL;
}

static void emit_ryukyoku(tk_riichi_game *g, int reason, const int32_t *d, const uint8_t *tenpai,
                          const tk_riichi_sink *sink) {
  if (!sink || !sink->fn) return;
  tk_riichi_event ev;
  ev_init(&ev, TK_RIICHI_EV_RYUKYOKU, -1);
  ev.reason = (uint8_t)reason;
  ev.honba = g->honba;
  for (int s = 0; s < 4; s++) {
    ev.deltas[s] = d[s];
    ev.tenpai[s] = tenpai ? tenpai[s] : 0;
    hand_tiles(&g->p[s], ev.tehais[s]);
  }
  memcpy(ev.scores, g->scores, sizeof ev.scores);
  emit(sink, &ev);
}

static void abortive(tk_riichi_game *g, int reason, const tk_riichi_sink *sink) {
  int32_t d[4] = {0, 0, 0, 0};
  emit_ryukyoku(g, reason, d, NULL, sink);
  end_hand(g, 1, 1, 0, sink);
}

static void exhaustive(tk_riichi_game *g, const tk_riichi_sink *sink) {
  int32_t d[4] = {0, 0, 0, 0};
  uint8_t tenpai[4];
  int ntenpai = 0, nnagashi = 0, dealer = tk__dealer(g);
  for (int s = 0; s < 4; s++) {
    tenpai[s] = (uint8_t)tk__tenpai(&g->p[s]);
    ntenpai += tenpai[s];
    nnagashi += g->p[s].nagashi && g->p[s].nriver > 0;
  }
  int reason = TK_RIICHI_DRAW_EXHAUSTIVE;
  if (nnagashi) { /* nagashi mangan: a mangan tsumo each, no honba, no noten payments */
    reason = TK_RIICHI_DRAW_NAGASHI;
    for (int s = 0; s < 4; s++) {
      if (!(g->p[s].nagashi && g->p[s].nriver > 0)) continue;
      for (int o = 0; o < 4; o++) {
        if (o == s) continue;
        int pay = (s == dealer || o == dealer) ? 4000 : 2000;
        d[o] -= pay;
        d[s] += pay;
      }
    }
  } else if (ntenpai > 0 && ntenpai < 4) {
    for (int s = 0; s < 4; s++) d[s] = tenpai[s] ? 3000 / ntenpai : -3000 / (4 - ntenpai);
  }
  for (int s = 0; s < 4; s++) g->scores[s] += d[s];
  emit_ryukyoku(g, reason, d, tenpai, sink);
  end_hand(g, tenpai[dealer], 1, tenpai[dealer], sink);
}

/* Wins by `n` seats (in turn order from the giver `from`; for tsumo n = 1 and from = winner). */
static void wins(tk_riichi_game *g, int n, const int *winners, int from, int ron,
                 const tk_riichi_sink *sink) {
  int dealer = tk__dealer(g), renchan = 0;
  tk_tile t = ron ? g->react_tile : g->drawn;
  for (int i = 0; i < n; i++) {
    int w = winners[i];
    tk_riichi_player *p = &g->p[w];
    int honba = i == 0 ? g->honba : 0, sticks = i == 0 ? g->sticks : 0;
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_HORA, w);
    int ncalls = 0;
    tk__score(g, w, t, ron, g->react_from, honba, sticks, &ev.score, &ev.ctx, ev.calls, &ncalls);
    ev.ncalls = (uint8_t)ncalls;
    const tk_score *sc = &ev.score;
    int32_t value = sc->total - 300 * honba - 1000 * sticks;
    int pao = TK_RIICHI_NOBODY;
    if (p->pao != TK_RIICHI_NOBODY)
      for (int y = 0; y < sc->nyaku; y++)
        if (sc->yaku[y] == p->pao_yaku) pao = p->pao;
    if (ron && pao == from) pao = TK_RIICHI_NOBODY; /* the liable seat dealt in: a plain ron */
    int32_t d[4] = {0, 0, 0, 0};
    if (!ron) {
      if (pao != TK_RIICHI_NOBODY) {
        d[pao] -= value + 300 * honba;
      } else {
        for (int o = 0; o < 4; o++) {
          if (o == w) continue;
          int32_t pay = w == dealer ? sc->pay_all : o == dealer ? sc->pay_dealer : sc->pay_non_dealer;
          d[o] -= pay + 100 * honba;
        }
      }
    } else if (pao != TK_RIICHI_NOBODY) { /* liability: half each, honba on pao */
      d[from] -= value / 2;
      d[pao] -= value - value / 2 + 300 * honba;
    } else {
      d[from] -= value + 300 * honba;
    }
    int32_t got = 1000 * sticks;
    for (int o = 0; o < 4; o++)
      if (o != w) got -= d[o];
    d[w] = got;
    for (int o = 0; o < 4; o++) g->scores[o] += d[o];
    if (i == 0) g->sticks = 0;
    g->stats[w].wins++;
    g->stats[w].tsumo += !ron;
    g->stats[w].win_points += value;
    renchan |= w == dealer;
    if (sink && sink->fn) {
      ev.target = (int8_t)from;
      ev.tile = t;
      ev.honba = g->honba;
      ev.pao = (uint8_t)pao;
      ev.nhand = (uint8_t)hand_tiles(p, ev.tehais[0]);
      if (ron) { /* the winning tile joins the concealed tiles */
        ev.tehais[0][ev.nhand++] = t;
      }
      if (p->riichi) {
        ev.nura = g->ndora;
        for (int j = 0; j < g->ndora; j++) ev.ura[j] = g->wall[TK_RIICHI_URA_POS + j];
      }
      memcpy(ev.deltas, d, sizeof d);
      memcpy(ev.scores, g->scores, sizeof ev.scores);
      emit(sink, &ev);
    }
  }
  if (ron) g->stats[from].deal_ins++;
  end_hand(g, renchan, 0, renchan, sink);
}

int tk_riichi_settle_ron(tk_riichi_game *g, int winner, int from, int32_t points,
                         tk_error *err) {
  if (g->phase != TK_RIICHI_PHASE_SELF && g->phase != TK_RIICHI_PHASE_REACT)
    return tk_error_set(err, TK_ESTATE, -1, "riichi: settle_ron: no hand in progress");
  if (winner < 0 || winner > 3 || from < 0 || from > 3 || winner == from || points <= 0)
    return tk_error_set(err, TK_EINVAL, -1, "riichi: settle_ron: winner %d, from %d, points %ld",
                        winner, from, (long)points);
  int32_t pay = points + 300 * g->honba;
  g->scores[from] -= pay;
  g->scores[winner] += pay + 1000 * g->sticks;
  g->sticks = 0;
  g->stats[winner].wins++;
  g->stats[winner].win_points += points;
  g->stats[from].deal_ins++;
  int renchan = winner == tk__dealer(g);
  end_hand(g, renchan, 0, renchan, NULL);
  return 0;
}

/* ------------------------------------------------------------ discards and reactions */

/* Enters the reaction phase for the tile g->react_tile given by g->turn, or resolves at once
 * when no seat has an option. */
static void resolve(tk_riichi_game *g, const tk_riichi_sink *sink);

static void open_reactions(tk_riichi_game *g, const tk_riichi_sink *sink) {
  g->phase = TK_RIICHI_PHASE_REACT;
  g->react_pending = g->react_ron = 0;
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
  if (!g->react_pending) resolve(g, sink);
}

static void discard(tk_riichi_game *g, tk_tile t, int tsumogiri, int riichi,
                    const tk_riichi_sink *sink) {
  int s = g->turn;
  tk_riichi_player *p = &g->p[s];
  int k = tk_tile_kind(t);
  uint8_t flags = tsumogiri ? TK_RIICHI_TSUMOGIRI : 0;
  if (riichi) {
    flags |= TK_RIICHI_DECLARED;
    p->riichi = (g->no_calls && p->nriver == 0) ? 2 : 1;
    p->riichi_index = p->nriver;
    g->riichi_pending = 1;
    g->stats[s].riichi++;
    emit_simple(sink, TK_RIICHI_EV_REACH, s, TK_TILE_NONE);
  } else {
    p->ippatsu = 0; /* a riichi seat's next discard closes its ippatsu chance */
  }
  played(g, s, riichi ? TK_RIICHI_RIICHI : TK_RIICHI_DISCARD, t);
  tk__remove(p, t);
  p->river[p->nriver].tile = t;
  p->river[p->nriver].flags = flags;
  p->nriver++;
  p->discarded |= 1ULL << k;
  if (!tk_kind_is_yaochu(k)) p->nagashi = 0;
  p->furiten &= (uint8_t)~TK_RIICHI_FURITEN_TEMP;
  tk__update_waits(p);
  if (sink && sink->fn) {
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_DAHAI, s);
    ev.tile = t;
    ev.tsumogiri = (uint8_t)tsumogiri;
    emit(sink, &ev);
  }
  flip_pending(g, sink);
  g->drawn = TK_TILE_NONE;
  g->after_call = 0;
  g->rinshan = 0;
  g->kuikae = 0;
  g->react_from = TK_RIICHI_FROM_DISCARD;
  g->react_tile = t;
  open_reactions(g, sink);
}

static void break_ippatsu(tk_riichi_game *g) {
  for (int s = 0; s < 4; s++) g->p[s].ippatsu = 0;
}

/* After a kan by seat s: four kans by several seats abort after the next discard passes. */
static void count_kan(tk_riichi_game *g, int s) {
  g->nkans++;
  g->p[s].nkans++;
  g->live_end--;
  if (g->nkans == TK_RIICHI_MAX_KANS && g->p[s].nkans < TK_RIICHI_MAX_KANS) g->abort_kans = 1;
}

static void sort_tiles(uint8_t *t, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && (t[j] & 0x3f) * 2 + !(t[j] & TK_TILE_RED) <
                                 (t[j - 1] & 0x3f) * 2 + !(t[j - 1] & TK_TILE_RED); j--) {
      uint8_t x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
}

/* Liability: the call that completes the third dragon set or the fourth wind set. */
static void check_pao(tk_riichi_game *g, int s, int from) {
  tk_riichi_player *p = &g->p[s];
  int dragons = 0, winds = 0;
  for (int i = 0; i < p->nmelds; i++) {
    int k = tk_tile_kind(p->melds[i].tiles[0]);
    if (p->melds[i].type == TK_CALL_CHI) continue;
    dragons += k >= TK_HAKU;
    winds += k >= TK_EAST && k <= TK_NORTH;
  }
  int k = tk_tile_kind(p->melds[p->nmelds - 1].tiles[0]);
  if (k >= TK_HAKU && dragons == 3) {
    p->pao = (uint8_t)from;
    p->pao_yaku = TK_YAKU_DAISANGEN;
  } else if (k >= TK_EAST && k <= TK_NORTH && winds == 4) {
    p->pao = (uint8_t)from;
    p->pao_yaku = TK_YAKU_DAISUUSHII;
  }
}

static void call(tk_riichi_game *g, int s, const tk_riichi_action *a, const tk_riichi_sink *sink) {
  int from = g->turn;
  tk_riichi_player *p = &g->p[s], *giver = &g->p[from];
  tk_tile t = g->react_tile;
  int k = tk_tile_kind(t);
  played(g, s, a->type, t);
  giver->river[giver->nriver - 1].flags |= TK_RIICHI_CALLED;
  giver->nagashi = 0;
  g->no_calls = 0;
  break_ippatsu(g);
  tk_riichi_meld *m = &p->melds[p->nmelds];
  memset(m->tiles, TK_TILE_NONE, 4);
  m->from = (uint8_t)from;
  m->called = t;
  m->added = TK_TILE_NONE;
  tk_riichi_event ev;
  ev_init(&ev, TK_RIICHI_EV_PON, s);
  ev.target = (int8_t)from;
  ev.tile = t;
  if (a->type == TK_RIICHI_MINKAN) {
    m->type = TK_CALL_MINKAN;
    int n = 0;
    if (tk__red_held(p, k)) ev.consumed[n++] = (uint8_t)(k | TK_TILE_RED);
    while (n < 3) ev.consumed[n++] = (uint8_t)k;
    ev.nconsumed = 3;
    ev.type = TK_RIICHI_EV_DAIMINKAN;
  } else {
    m->type = a->type == TK_RIICHI_CHI ? TK_CALL_CHI : TK_CALL_PON;
    ev.consumed[0] = a->consumed[0];
    ev.consumed[1] = a->consumed[1];
    ev.nconsumed = 2;
    ev.type = a->type == TK_RIICHI_CHI ? TK_RIICHI_EV_CHI : TK_RIICHI_EV_PON;
  }
  for (int i = 0; i < ev.nconsumed; i++) {
    tk__remove(p, ev.consumed[i]);
    m->tiles[i] = ev.consumed[i];
  }
  m->tiles[ev.nconsumed] = t;
  sort_tiles(m->tiles, ev.nconsumed + 1);
  p->nmelds++;
  p->open = 1;
  if (m->type != TK_CALL_CHI) check_pao(g, s, from);
  emit(sink, &ev);
  if (m->type == TK_CALL_MINKAN) {
    count_kan(g, s);
    g->pending_dora++;
    tk__update_waits(p);
    draw(g, s, 1, sink);
    return;
  }
  g->phase = TK_RIICHI_PHASE_SELF;
  g->turn = (uint8_t)s;
  g->drawn = TK_TILE_NONE;
  g->after_call = 1;
  g->rinshan = 0;
  g->kuikae = tk__kuikae_mask(m);
}

static void resolve(tk_riichi_game *g, const tk_riichi_sink *sink) {
  int from = g->turn, k = tk_tile_kind(g->react_tile);
  int rons[3], nron = 0;
  for (int i = 1; i < 4; i++) {
    int s = (from + i) % 4;
    if (g->react_choice[s].type == TK_RIICHI_RON) rons[nron++] = s;
  }
  g->react_pending = 0;
  if (nron == 3) {
    g->riichi_pending = 0;
    abortive(g, TK_RIICHI_DRAW_TRIPLE_RON, sink);
    return;
  }
  if (nron) {
    g->riichi_pending = 0;
    wins(g, nron, rons, from, 1, sink);
    return;
  }
  /* a passed win: temporary furiten, or for the rest of the hand in riichi */
  for (int i = 1; i < 4; i++) {
    int s = (from + i) % 4;
    tk_riichi_player *p = &g->p[s];
    if (!(p->waits >> k & 1)) continue;
    if (g->react_from == TK_RIICHI_FROM_ANKAN && !(g->react_ron >> s & 1)) continue;
    p->furiten |= TK_RIICHI_FURITEN_TEMP | (p->riichi ? TK_RIICHI_FURITEN_RIICHI : 0);
  }
  if (g->react_from != TK_RIICHI_FROM_DISCARD) { /* the kan stands: its replacement draw */
    break_ippatsu(g);
    draw(g, from, 1, sink);
    return;
  }
  if (g->riichi_pending) {
    g->riichi_pending = 0;
    g->scores[from] -= 1000;
    g->sticks++;
    g->p[from].ippatsu = 1;
    if (sink && sink->fn) {
      tk_riichi_event ev;
      ev_init(&ev, TK_RIICHI_EV_REACH_ACCEPTED, from);
      ev.deltas[from] = -1000;
      memcpy(ev.scores, g->scores, sizeof ev.scores);
      emit(sink, &ev);
    }
  }
  if (g->no_calls) {
    int four = 1;
    for (int s = 0; s < 4; s++) {
      const tk_riichi_player *p = &g->p[s];
      four &= p->nriver == 1 && tk_tile_kind(p->river[0].tile) == tk_tile_kind(g->p[0].river[0].tile);
    }
    four &= tk_tile_kind(g->p[0].river[0].tile) >= TK_EAST &&
            tk_tile_kind(g->p[0].river[0].tile) <= TK_NORTH;
    if (four) {
      abortive(g, TK_RIICHI_DRAW_FOUR_WINDS, sink);
      return;
    }
  }
  if (g->p[0].riichi && g->p[1].riichi && g->p[2].riichi && g->p[3].riichi) {
    abortive(g, TK_RIICHI_DRAW_FOUR_RIICHI, sink);
    return;
  }
  if (g->abort_kans) {
    abortive(g, TK_RIICHI_DRAW_FOUR_KANS, sink);
    return;
  }
  int caller = -1;
  for (int i = 1; i < 4 && caller < 0; i++) {
    int s = (from + i) % 4;
    int ty = g->react_choice[s].type;
    if (ty == TK_RIICHI_PON || ty == TK_RIICHI_MINKAN) caller = s;
  }
  for (int i = 1; i < 4 && caller < 0; i++) {
    int s = (from + i) % 4;
    if (g->react_choice[s].type == TK_RIICHI_CHI) caller = s;
  }
  if (caller >= 0) {
    tk_riichi_action a = g->react_choice[caller];
    call(g, caller, &a, sink);
  } else if (tk__live_left(g) == 0) {
    exhaustive(g, sink);
  } else {
    draw(g, (from + 1) % 4, 0, sink);
  }
}

/* ------------------------------------------------------------ self actions */

static void ankan(tk_riichi_game *g, int k, const tk_riichi_sink *sink) {
  int s = g->turn;
  tk_riichi_player *p = &g->p[s];
  tk_riichi_meld *m = &p->melds[p->nmelds];
  played(g, s, TK_RIICHI_ANKAN, k);
  m->type = TK_CALL_ANKAN;
  m->from = (uint8_t)s;
  m->called = TK_TILE_NONE;
  m->added = TK_TILE_NONE;
  int n = 0;
  if (tk__red_held(p, k)) m->tiles[n++] = (uint8_t)(k | TK_TILE_RED);
  while (n < 4) m->tiles[n++] = (uint8_t)k;
  p->hand[k] = 0;
  if (tk__five(k)) p->red &= (uint8_t)~(1 << (k / 9));
  p->nmelds++;
  g->no_calls = 0;
  break_ippatsu(g);
  count_kan(g, s);
  tk__update_waits(p);
  if (sink && sink->fn) {
    tk_riichi_event ev;
    ev_init(&ev, TK_RIICHI_EV_ANKAN, s);
    ev.nconsumed = 4;
    memcpy(ev.consumed, m->tiles, 4);
    emit(sink, &ev);
  }
  /* The indicator still pending from an earlier open or added kan turns now, after the kan's
   * own line (Tenhou's order; a dora line never stands between a draw and its decision), then
   * this closed kan's own indicator: ankan, dora, dora, tsumo. */
  flip_pending(g, sink);
  flip_dora(g, sink);
  g->drawn = TK_TILE_NONE;
  g->react_from = TK_RIICHI_FROM_ANKAN;
  g->react_tile = (uint8_t)k;
  open_reactions(g, sink);
}

static void kakan(tk_riichi_game *g, tk_tile t, const tk_riichi_sink *sink) {
  int s = g->turn;
  tk_riichi_player *p = &g->p[s];
  int k = tk_tile_kind(t);
  tk_riichi_meld *m = NULL;
  for (int i = 0; i < p->nmelds; i++)
    if (p->melds[i].type == TK_CALL_PON && tk_tile_kind(p->melds[i].tiles[0]) == k) m = &p->melds[i];
  if (!m) return; /* not reached: the action was checked against the legal ones */
  tk_riichi_event ev;
  ev_init(&ev, TK_RIICHI_EV_KAKAN, s);
  ev.tile = t;
  ev.nconsumed = 3;
  memcpy(ev.consumed, m->tiles, 3);
  played(g, s, TK_RIICHI_KAKAN, t);
  m->type = TK_CALL_KAKAN;
  m->added = t;
  m->tiles[3] = t;
  sort_tiles(m->tiles, 4);
  tk__remove(p, t);
  count_kan(g, s);
  tk__update_waits(p);
  emit(sink, &ev);
  flip_pending(g, sink); /* an earlier kan's indicator, after this kan's line (as for ankan) */
  g->pending_dora++;     /* this kan's own turns after the next discard */
  g->drawn = TK_TILE_NONE;
  g->react_from = TK_RIICHI_FROM_KAKAN;
  g->react_tile = t;
  open_reactions(g, sink);
}

/* Do a and b name the same legal action? */
static int same_action(const tk_riichi_action *a, const tk_riichi_action *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case TK_RIICHI_DISCARD:
    case TK_RIICHI_RIICHI: return a->tile == b->tile && !a->tsumogiri == !b->tsumogiri;
    case TK_RIICHI_ANKAN: return tk_tile_kind(a->tile) == tk_tile_kind(b->tile);
    case TK_RIICHI_KAKAN: return a->tile == b->tile;
    case TK_RIICHI_PON:
    case TK_RIICHI_CHI:
      return (a->consumed[0] == b->consumed[0] && a->consumed[1] == b->consumed[1]) ||
             (a->consumed[0] == b->consumed[1] && a->consumed[1] == b->consumed[0]);
    default: return 1;
  }
}

int tk_riichi_legal_find(const tk_riichi_legal *l, const tk_riichi_action *a) {
  for (int i = 0; i < l->n && i < TK_RIICHI_MAX_LEGAL; i++)
    if (same_action(a, &l->a[i])) return i;
  return -1;
}

int tk_riichi_apply(tk_riichi_game *g, int seat, const tk_riichi_action *a,
                    const tk_riichi_sink *sink, tk_error *err) {
  tk_riichi_legal l;
  int n = tk_riichi_legal_of(g, seat, &l);
  if (!n) return tk_error_set(err, TK_ESTATE, -1, "riichi: seat %d has no decision now", seat);
  int found = tk_riichi_legal_find(&l, a);
  if (found < 0)
    return tk_error_set(err, TK_EILLEGAL, -1, "riichi: seat %d: action %d (tile %s) is not legal now",
                        seat, a->type, a->tile < 0x80 ? tk_tile_str(a->tile) : "none");
  const tk_riichi_action *x = &l.a[found];
  if (g->phase == TK_RIICHI_PHASE_REACT) {
    g->react_choice[seat] = *x;
    g->react_pending &= (uint8_t)~(1 << seat);
    if (!g->react_pending) resolve(g, sink);
    return 0;
  }
  switch (x->type) {
    case TK_RIICHI_DISCARD: discard(g, x->tile, x->tsumogiri, 0, sink); break;
    case TK_RIICHI_RIICHI: discard(g, x->tile, x->tsumogiri, 1, sink); break;
    case TK_RIICHI_TSUMO: {
      int w = seat;
      wins(g, 1, &w, seat, 0, sink);
      break;
    }
    case TK_RIICHI_ANKAN: ankan(g, tk_tile_kind(x->tile), sink); break;
    case TK_RIICHI_KAKAN: kakan(g, x->tile, sink); break;
    case TK_RIICHI_KYUUSHU: abortive(g, TK_RIICHI_DRAW_KYUUSHU, sink); break;
    default: return tk_error_set(err, TK_EILLEGAL, -1, "riichi: not a self action");
  }
  return 0;
}

void tk_riichi_result_of(const tk_riichi_game *g, tk_riichi_result *out) {
  memset(out, 0, sizeof *out);
  memcpy(out->points, g->scores, sizeof out->points);
  tk_riichi_ranks(g->scores, out->rank);
  const tk_riichi_rules *r = &g->rules;
  for (int s = 0; s < 4; s++) {
    int rk = out->rank[s];
    out->final_score[s] = g->scores[s] - r->return_points + r->uma[rk - 1] +
                          (rk == 1 ? 4 * (r->return_points - r->start_points) : 0);
  }
  out->hands = g->hands;
  memcpy(out->stats, g->stats, sizeof out->stats);
}
