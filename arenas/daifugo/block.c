/* arenas/daifugo/block.c — the unit of a tournament: a block of games from a class reset as one
 * state machine (deal, automatic transfers, the daifugo's and fugo's returns one card at a time,
 * play, the next deal). Every card order and random draw of global game number g comes from its
 * own stream tk_rng_seed2(seed, 4g + purpose), so a block is a pure function of (seed, block). */
#include <string.h>

#include "internal.h"

enum { STREAM_DECK = 0, STREAM_SEATS = 1, STREAM_FIRST = 2, STREAM_SENNICHITE = 3 };

tk_daifugo_rules tk_daifugo_default_rules(void) {
  tk_daifugo_rules r = {.block_games = 100, .seat_period = 3, .sennichite = 20, .reserved = 0};
  return r;
}

int tk_daifugo_rules_check(const tk_daifugo_rules *r, tk_error *err) {
  if (r->block_games < 1 || r->block_games > TK_DAIFUGO_MAX_BLOCK)
    return tk_error_set(err, TK_ERANGE, -1, "daifugo rules: block_games = %u (1..%d)",
                        r->block_games, TK_DAIFUGO_MAX_BLOCK);
  if (r->seat_period > 1000000)
    return tk_error_set(err, TK_ERANGE, -1, "daifugo rules: seat_period = %u (0..1000000)",
                        r->seat_period);
  if (r->sennichite < 2 || r->sennichite > 255)
    return tk_error_set(err, TK_ERANGE, -1, "daifugo rules: sennichite = %u (2..255)",
                        r->sennichite);
  return 0;
}

uint64_t tk_daifugo_game_number(const tk_daifugo_rules *r, uint64_t block, uint32_t game) {
  return block * r->block_games + game + 1;
}

static void stream(tk_rng *r, uint64_t seed, uint64_t g, int purpose) {
  tk_rng_seed2(r, seed, g * 4 + (uint64_t)purpose);
}

/* The strongest card of `hand` by the exchange order (joker, 2 … 3, ♠ ♥ ♦ ♣), or 0. */
static uint64_t strongest1(uint64_t hand) {
  if (hand & TK_DAIFUGO_JOKER) return TK_DAIFUGO_JOKER;
  for (int col = 13; col >= 1; col--)
    for (int row = 0; row < 4; row++)
      if (hand & TK_DAIFUGO_CARD(row, col)) return TK_DAIFUGO_CARD(row, col);
  return 0;
}

uint64_t tk_daifugo_strongest(uint64_t hand, int k) {
  uint64_t out = 0;
  for (int i = 0; i < k; i++) {
    uint64_t c = strongest1(hand & ~out);
    if (!c) break;
    out |= c;
  }
  return out;
}

/* The weakest card by the reverse of that order (3 … 2, ♣ ♦ ♥ ♠, the joker last), or 0. */
static uint64_t weakest1(uint64_t hand) {
  for (int col = 1; col <= 13; col++)
    for (int row = 3; row >= 0; row--)
      if (hand & TK_DAIFUGO_CARD(row, col)) return TK_DAIFUGO_CARD(row, col);
  return hand & TK_DAIFUGO_JOKER;
}

static int player_of_class(const tk_daifugo_block *b, int cls) {
  for (int p = 0; p < 5; p++)
    if (b->cls[p] == cls) return p;
  return -1;
}

static void transfer(tk_daifugo_block *b, int from, int to, uint64_t cards) {
  b->g.hand[from] &= ~cards;
  b->g.hand[to] |= cards;
  b->given[from] |= cards;
  b->received[to] |= cards;
}

/* Play starts: the ♦3 holder leads. */
static void begin_play(tk_daifugo_block *b) {
  uint64_t gnum = tk_daifugo_game_number(&b->rules, b->block, b->game);
  int leader = 0;
  for (int p = 0; p < 5; p++)
    if (b->g.hand[p] & TK_DAIFUGO_CARD(2, 1)) leader = p;
  uint64_t hand[5];
  uint8_t seat_of[5];
  memcpy(hand, b->g.hand, sizeof hand);
  memcpy(seat_of, b->g.seat_of, sizeof seat_of);
  tk_rng r;
  stream(&r, b->seed, gnum, STREAM_SENNICHITE);
  tk_daifugo_game_setup(&b->g, hand, seat_of, leader, (int)b->rules.sennichite, tk_rng_next(&r), NULL);
  b->phase = TK_DAIFUGO_PHASE_PLAY;
}

/* Deals game b->game: seats, the card order, the first card's seat, the transfers. */
static void start_game(tk_daifugo_block *b) {
  uint64_t gnum = tk_daifugo_game_number(&b->rules, b->block, b->game);
  uint32_t per = b->rules.seat_period;
  uint64_t gseat = per ? gnum - (gnum - 1) % per : 1;
  tk_rng r;
  uint8_t at_seat[5] = {0, 1, 2, 3, 4};
  stream(&r, b->seed, gseat, STREAM_SEATS);
  for (int i = 4; i > 0; i--) {
    int j = (int)tk_rng_below(&r, (uint32_t)i + 1);
    uint8_t t = at_seat[i];
    at_seat[i] = at_seat[j];
    at_seat[j] = t;
  }
  memset(&b->g, 0, sizeof b->g);
  for (int s = 0; s < 5; s++) {
    b->g.at_seat[s] = at_seat[s];
    b->g.seat_of[at_seat[s]] = (uint8_t)s;
  }
  uint8_t deck[TK_DAIFUGO_CARDS];
  int n = 0;
  for (uint64_t d = TK_DAIFUGO_DECK; d; d &= d - 1) deck[n++] = (uint8_t)tk__df_ctz(d);
  stream(&r, b->seed, gnum, STREAM_DECK);
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tk_rng_below(&r, (uint32_t)i + 1);
    uint8_t t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  int daifugo = player_of_class(b, 0);
  if (b->game == 0 || daifugo < 0) {
    stream(&r, b->seed, gnum, STREAM_FIRST);
    b->first_seat = (uint8_t)tk_rng_below(&r, 5);
  } else {
    b->first_seat = b->g.seat_of[daifugo];
  }
  for (int k = 0; k < n; k++) b->g.hand[at_seat[(b->first_seat + k) % 5]] |= UINT64_C(1) << deck[k];
  memcpy(b->dealt, b->g.hand, sizeof b->dealt);
  memset(b->given, 0, sizeof b->given);
  memset(b->received, 0, sizeof b->received);
  b->nhist = 0;
  if (b->game == 0) {
    begin_play(b);
    return;
  }
  int p0 = player_of_class(b, 0), p1 = player_of_class(b, 1);
  int p3 = player_of_class(b, 3), p4 = player_of_class(b, 4);
  transfer(b, p4, p0, tk_daifugo_strongest(b->g.hand[p4], 2));
  transfer(b, p3, p1, strongest1(b->g.hand[p3]));
  b->phase = TK_DAIFUGO_PHASE_EXCHANGE;
  b->giver = (uint8_t)p0;
  b->to_give = 2;
}

int tk_daifugo_block_init(tk_daifugo_block *b, const tk_daifugo_rules *rules, uint64_t seed,
                          uint64_t block, tk_error *err) {
  int rc = tk_daifugo_rules_check(rules, err);
  if (rc) return rc;
  memset(b, 0, sizeof *b);
  b->rules = *rules;
  b->seed = seed;
  b->block = block;
  memset(b->cls, TK_DAIFUGO_NOBODY, sizeof b->cls);
  start_game(b);
  return 0;
}

int tk_daifugo_to_act(const tk_daifugo_block *b) {
  if (b->phase == TK_DAIFUGO_PHASE_EXCHANGE) return b->giver;
  if (b->phase == TK_DAIFUGO_PHASE_PLAY) return b->g.turn;
  return -1;
}

int tk_daifugo_is_over(const tk_daifugo_block *b) { return b->phase == TK_DAIFUGO_PHASE_OVER; }

int tk_daifugo_view_of(const tk_daifugo_block *b, int player, tk_daifugo_view *v) {
  if (player < 0 || player >= 5) return TK_EINVAL;
  const tk_daifugo_game *g = &b->g;
  memset(v, 0, offsetof(tk_daifugo_view, hist));
  v->player = (uint8_t)player;
  if (b->phase == TK_DAIFUGO_PHASE_EXCHANGE) {
    v->decision = player == b->giver ? TK_DAIFUGO_DECIDE_EXCHANGE : TK_DAIFUGO_DECIDE_NONE;
    v->to_give = player == b->giver ? b->to_give : 0;
    v->turn = TK_DAIFUGO_NOBODY;
  } else {
    v->decision = b->phase == TK_DAIFUGO_PHASE_PLAY && g->turn == player ? TK_DAIFUGO_DECIDE_PLAY
                                                                        : TK_DAIFUGO_DECIDE_NONE;
    v->turn = g->turn;
  }
  v->owner = g->owner;
  v->passed = g->passed;
  v->out = g->out;
  v->nout = g->nout;
  v->rev = g->rev;
  v->lock = g->lock;
  v->npass = g->npass;
  v->nhist = b->nhist;
  for (int p = 0; p < 5; p++) {
    v->count[p] = (uint8_t)tk__df_popcount(g->hand[p]);
    v->seat_of[p] = g->seat_of[p];
    v->cls[p] = b->cls[p];
    v->order[p] = p < g->nout ? g->order[p] : TK_DAIFUGO_NOBODY;
  }
  v->game = b->game;
  v->hand = g->hand[player];
  v->played = g->played;
  v->given = b->given[player];
  v->received = b->received[player];
  v->top = g->top;
  memcpy(v->hist, b->hist, sizeof v->hist[0] * b->nhist);
  return 0;
}

int tk_daifugo_legal_of(const tk_daifugo_block *b, int player, tk_daifugo_legal *l) {
  l->n = 0;
  l->player = (uint8_t)player;
  l->decision = TK_DAIFUGO_DECIDE_NONE;
  l->lead = l->rev = 0;
  l->reserved[0] = l->reserved[1] = 0;
  if (player != tk_daifugo_to_act(b)) return 0;
  if (b->phase == TK_DAIFUGO_PHASE_PLAY) return tk_daifugo_game_legal(&b->g, l);
  l->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  for (uint64_t h = b->g.hand[player]; h; h &= h - 1) {
    tk_daifugo_move *m = &l->a[l->n++];
    memset(m, 0, sizeof *m);
    m->kind = TK_DAIFUGO_GIVE;
    m->cards = h & -h;
    m->n = 1;
    m->jcell = TK_DAIFUGO_NOCELL;
  }
  return l->n;
}

/* A game is over: record it, then deal the next or end the block. */
static void end_game(tk_daifugo_block *b) {
  tk_daifugo_totals *t = &b->totals;
  for (int k = 0; k < 5; k++) {
    int p = b->g.order[k];
    t->points[p] += tk_daifugo_points(k);
    t->paper_points[p] += tk_daifugo_paper_points(k);
    t->places[p][k]++;
    b->places[b->game][p] = (uint8_t)k;
    b->cls[p] = (uint8_t)k;
  }
  t->sennichite += b->g.by_sennichite;
  t->games++;
  if (++b->game >= b->rules.block_games) {
    b->phase = TK_DAIFUGO_PHASE_OVER;
    return;
  }
  start_game(b);
}

int tk_daifugo_apply(tk_daifugo_block *b, int player, const tk_daifugo_move *m, tk_error *err) {
  if (player < 0 || player != tk_daifugo_to_act(b))
    return tk_error_set(err, TK_ESTATE, -1, "daifugo: player %d is not to act", player);
  if (b->phase == TK_DAIFUGO_PHASE_EXCHANGE) {
    uint64_t c = m->cards;
    if (m->kind != TK_DAIFUGO_GIVE || tk__df_popcount(c) != 1 || !(b->g.hand[player] & c)) {
      char buf[96];
      tk_daifugo_move_str(m, buf, sizeof buf);
      return tk_error_set(err, TK_EILLEGAL, -1,
                          "daifugo: player %d must give one card it holds, not '%s'", player, buf);
    }
    int to = player_of_class(b, 4 - b->cls[player]);
    transfer(b, player, to, c);
    if (--b->to_give == 0) {
      if (b->cls[player] == 0) {
        b->giver = (uint8_t)player_of_class(b, 1);
        b->to_give = 1;
      } else {
        begin_play(b);
      }
    }
    return 0;
  }
  tk_daifugo_legal l;
  tk_daifugo_game_legal(&b->g, &l);
  const tk_daifugo_move *canon = NULL;
  for (int i = 0; i < l.n && !canon; i++)
    if (tk__df_same(&l.a[i], m)) canon = &l.a[i];
  if (!canon) return tk_daifugo_game_apply(&b->g, player, m, err); /* names the refusal */
  tk_daifugo_game_play(&b->g, canon);
  if (canon->kind == TK_DAIFUGO_PASS) {
    b->totals.passes[player]++;
  } else {
    b->totals.plays[player]++;
    if (tk__df_revolts(canon)) b->totals.revolutions[player]++;
    if (b->nhist < TK_DAIFUGO_MAX_HIST) {
      tk_daifugo_played *h = &b->hist[b->nhist++];
      memset(h, 0, sizeof *h);
      h->m = *canon;
      h->player = (uint8_t)player;
      h->cleared = b->g.cleared;
    }
  }
  if (b->g.over) end_game(b);
  return 0;
}

int tk_daifugo_legal_find(const tk_daifugo_legal *l, const tk_daifugo_move *m) {
  for (int i = 0; i < l->n && i < TK_DAIFUGO_MAX_LEGAL; i++)
    if (tk__df_same(&l->a[i], m)) return i;
  return -1;
}

tk_daifugo_move tk_daifugo_fallback(const tk_daifugo_legal *l) {
  if (l->decision == TK_DAIFUGO_DECIDE_EXCHANGE) {
    uint64_t all = 0;
    for (int i = 0; i < l->n; i++) all |= l->a[i].cards;
    uint64_t c = weakest1(all);
    for (int i = 0; i < l->n; i++)
      if (l->a[i].cards == c) return l->a[i];
    return l->a[0];
  }
  if (!l->lead) return l->a[0];
  int best = -1;
  for (int i = 0; i < l->n; i++) {
    const tk_daifugo_move *m = &l->a[i];
    if (m->kind != TK_DAIFUGO_SINGLE) continue;
    if (best < 0) { best = i; continue; }
    const tk_daifugo_move *o = &l->a[best];
    int lower = l->rev ? m->rank > o->rank : m->rank < o->rank;
    if (lower || (m->rank == o->rank && m->suits > o->suits)) best = i;
  }
  if (best >= 0) return l->a[best];
  for (int i = 0; i < l->n; i++)
    if (l->a[i].kind == TK_DAIFUGO_JOKER1) return l->a[i];
  return l->a[0];
}

void tk_daifugo_info_fill(const tk_daifugo_block *b, int player, uint64_t agent_seed,
                          tk_daifugo_info *info) {
  memset(info, 0, sizeof *info);
  info->head.abi_version = TK_AGENT_ABI_VERSION;
  info->head.struct_size = (uint32_t)sizeof *info;
  info->head.seed = agent_seed;
  info->head.wall = tk_daifugo_game_number(&b->rules, b->block, b->game);
  info->head.seat = player;
  info->head.nseats = TK_DAIFUGO_PLAYERS;
  info->types_version = TK_DAIFUGO_TYPES_VERSION;
  info->block_games = b->rules.block_games;
  info->seat_period = b->rules.seat_period;
  info->sennichite = b->rules.sennichite;
  info->block = b->block;
  info->game = b->game;
}
