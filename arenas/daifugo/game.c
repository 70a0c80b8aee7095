/* arenas/daifugo/game.c — one game in play: turns in ascending seat order, sticky passes, the
 * table clearing only when every player still holding cards has passed, 8-cuts, the ♠3 over a
 * single joker, locks, revolutions, going out and the 20-pass sennichite. Also random playouts
 * and the determinisation of a view. Invariant: hands and `played` partition the deck. */
#include <string.h>

#include "internal.h"

#define BIT(p) (1u << (p))

int tk_daifugo_game_setup(tk_daifugo_game *g, const uint64_t hand[5], const uint8_t seat_of[5],
                          int leader, int sennichite, uint64_t rng_seed, tk_error *err) {
  uint64_t all = 0;
  unsigned seats = 0;
  for (int p = 0; p < 5; p++) {
    if (all & hand[p]) return tk_error_set(err, TK_EINVAL, -1, "daifugo: hands overlap (player %d)", p);
    all |= hand[p];
    if (seat_of[p] >= 5) return tk_error_set(err, TK_EINVAL, -1, "daifugo: seat_of[%d] = %d", p, seat_of[p]);
    seats |= BIT(seat_of[p]);
  }
  if (all & ~TK_DAIFUGO_DECK)
    return tk_error_set(err, TK_EINVAL, -1, "daifugo: hands hold bits that are no card");
  if (seats != 31) return tk_error_set(err, TK_EINVAL, -1, "daifugo: seat_of is not a permutation");
  int holders_n = 0;
  for (int p = 0; p < 5; p++) holders_n += hand[p] != 0;
  if (holders_n < 2)
    return tk_error_set(err, TK_EINVAL, -1, "daifugo: %d players hold cards (at least 2)", holders_n);
  if (leader < 0 || leader >= 5 || !hand[leader])
    return tk_error_set(err, TK_EINVAL, -1, "daifugo: leader %d holds no cards", leader);
  if (sennichite < 2 || sennichite > 255)
    return tk_error_set(err, TK_EINVAL, -1, "daifugo: sennichite = %d (2..255)", sennichite);
  memset(g, 0, sizeof *g);
  for (int p = 0; p < 5; p++) {
    g->hand[p] = hand[p];
    g->seat_of[p] = seat_of[p];
    g->at_seat[seat_of[p]] = (uint8_t)p;
    if (!hand[p]) g->order[g->nout++] = (uint8_t)p, g->out |= (uint8_t)BIT(p);
  }
  g->played = TK_DAIFUGO_DECK & ~all;
  g->top.jcell = TK_DAIFUGO_NOCELL;
  tk_rng_seed(&g->rng, rng_seed);
  g->turn = (uint8_t)leader;
  g->owner = (uint8_t)leader;
  g->sennichite = (uint8_t)sennichite;
  return 0;
}

int tk_daifugo_game_legal(const tk_daifugo_game *g, tk_daifugo_legal *l) {
  if (g->over) {
    l->n = 0;
    l->decision = TK_DAIFUGO_DECIDE_NONE;
    l->player = TK_DAIFUGO_NOBODY;
    return 0;
  }
  tk__df_gen(g->hand[g->turn], &g->top, g->rev, g->lock, l);
  l->player = g->turn;
  l->decision = TK_DAIFUGO_DECIDE_PLAY;
  l->lead = g->top.kind == TK_DAIFUGO_PASS;
  l->rev = g->rev;
  l->reserved[0] = l->reserved[1] = 0;
  return l->n;
}

/* The first player in seat order after `p` (p itself last) whose bit is in `mask`, or -1. */
static int next_in(const tk_daifugo_game *g, int p, unsigned mask) {
  if (!mask) return -1;
  int s = g->seat_of[p];
  for (int k = 1; k <= 5; k++) {
    int t = s + k;
    int q = g->at_seat[t >= 5 ? t - 5 : t];
    if (mask & BIT(q)) return q;
  }
  return -1;
}

static unsigned holders(const tk_daifugo_game *g) { return 31u & ~(unsigned)g->out; }

/* Clears the table; `p` leads, or the next holder after p if p is out. */
static void clear_to(tk_daifugo_game *g, int p) {
  g->top.kind = TK_DAIFUGO_PASS;
  g->top.cards = 0;
  g->top.n = g->top.rank = g->top.suits = 0;
  g->top.jcell = TK_DAIFUGO_NOCELL;
  g->lock = 0;
  g->passed = 0;
  g->cleared = 1;
  g->turn = (uint8_t)((g->out & BIT(p)) ? next_in(g, p, holders(g)) : p);
}

/* After `p` acted: the next holder who has not passed, else the table clears to the owner. */
static void advance(tk_daifugo_game *g, int p) {
  int q = next_in(g, p, holders(g) & ~(unsigned)g->passed);
  if (q < 0) clear_to(g, g->owner);
  else g->turn = (uint8_t)q;
}

static void finish(tk_daifugo_game *g) {
  g->over = 1;
  g->turn = TK_DAIFUGO_NOBODY;
}

/* Sennichite: the players still holding cards take the remaining places in random order. */
static void sennichite(tk_daifugo_game *g) {
  uint8_t rest[5];
  int n = 0;
  for (int s = 0; s < 5; s++) {
    int q = g->at_seat[s];
    if (!(g->out & BIT(q))) rest[n++] = (uint8_t)q;
  }
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tk_rng_below(&g->rng, (uint32_t)i + 1);
    uint8_t t = rest[i];
    rest[i] = rest[j];
    rest[j] = t;
  }
  for (int i = 0; i < n; i++) g->order[g->nout++] = rest[i];
  g->by_sennichite = 1;
  finish(g);
}

/* The body of tk_daifugo_game_play, static so that playouts call it directly. */
static inline void play(tk_daifugo_game *g, const tk_daifugo_move *m) {
  int p = g->turn;
  g->cleared = 0;
  if (m->kind == TK_DAIFUGO_PASS) {
    g->passed |= (uint8_t)BIT(p);
    if (++g->npass >= g->sennichite) {
      sennichite(g);
      return;
    }
    advance(g, p);
    return;
  }
  g->hand[p] &= ~m->cards;
  g->played |= m->cards;
  g->npass = 0;
  const tk_daifugo_move prev = g->top;
  if (m->kind == TK_DAIFUGO_JOKER1) g->lock = 0;
  else if (prev.kind != TK_DAIFUGO_PASS && prev.kind != TK_DAIFUGO_JOKER1 && m->suits == prev.suits)
    g->lock = 1;
  if (tk__df_revolts(m)) g->rev ^= 1;
  g->top = *m;
  g->owner = (uint8_t)p;
  int cut = tk__df_has8(m) || (prev.kind == TK_DAIFUGO_JOKER1 && tk__df_is_spade3(m));
  if (!g->hand[p]) {
    g->out |= (uint8_t)BIT(p);
    g->order[g->nout++] = (uint8_t)p;
    if (g->nout == 4) {
      int last = next_in(g, p, holders(g));
      g->order[g->nout++] = (uint8_t)last;
      finish(g);
      return;
    }
  }
  if (cut) clear_to(g, p);
  else advance(g, p);
}

void tk_daifugo_game_play(tk_daifugo_game *g, const tk_daifugo_move *m) { play(g, m); }

int tk_daifugo_game_apply(tk_daifugo_game *g, int player, const tk_daifugo_move *m, tk_error *err) {
  if (g->over || player != g->turn)
    return tk_error_set(err, TK_ESTATE, -1, "daifugo: player %d is not to play", player);
  tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  for (int i = 0; i < l.n; i++)
    if (tk__df_same(&l.a[i], m)) {
      tk_daifugo_game_play(g, &l.a[i]);
      return 0;
    }
  char buf[96];
  tk_daifugo_move_str(m, buf, sizeof buf);
  return tk_error_set(err, TK_EILLEGAL, -1, "daifugo: player %d may not play '%s' now", player, buf);
}

/* Over a single, the plays are the stronger singles (of the locked suit) and the joker: drawn
 * uniformly without listing them, into *m (a pass if there is none). */
/* The cards of g->turn that beat the single on the table (the ♠3 over the joker); *joker is
 * set if the joker may follow too. */
static inline uint64_t over_single(const tk_daifugo_game *g, int *joker) {
  uint64_t h = g->hand[g->turn];
  if (g->top.kind == TK_DAIFUGO_JOKER1) {
    *joker = 0;
    return h & TK_DAIFUGO_CARD(0, 1);
  }
  *joker = (h & TK_DAIFUGO_JOKER) != 0;
  int t = g->top.rank;
  uint32_t cols = g->rev ? ((1u << t) - 1) & ~1u : 0x3ffeu & ~((2u << t) - 1);
  uint64_t cand = h & (cols * UINT64_C(0x0001000100010001));
  if (g->lock) cand &= UINT64_C(0xffff) << (16 * tk__df_ctz(g->top.suits));
  return cand;
}

static void draw_over_single(const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *m) {
  int joker;
  uint64_t cand = over_single(g, &joker);
  memset(m, 0, sizeof *m);
  m->jcell = TK_DAIFUGO_NOCELL;
  int n = tk__df_popcount(cand);
  if (n + joker == 0) return; /* pass */
  int k = (int)tk_rng_below(r, (uint32_t)(n + joker));
  if (k == n) {
    m->kind = TK_DAIFUGO_JOKER1;
    m->cards = TK_DAIFUGO_JOKER;
    m->n = 1;
    return;
  }
  while (k--) cand &= cand - 1;
  int b = tk__df_ctz(cand);
  m->kind = TK_DAIFUGO_SINGLE;
  m->cards = UINT64_C(1) << b;
  m->n = 1;
  m->rank = (uint8_t)(b & 15);
  m->suits = (uint8_t)(1 << (b >> 4));
}

static inline void draw(const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *m) {
  if (g->top.kind == TK_DAIFUGO_SINGLE || g->top.kind == TK_DAIFUGO_JOKER1) {
    draw_over_single(g, r, m);
  } else if (g->top.kind == TK_DAIFUGO_PASS) {
    tk__df_draw_lead(g->hand[g->turn], r, m);
  } else if (g->top.kind == TK_DAIFUGO_GROUP) {
    if (!tk__df_draw_group(g->hand[g->turn], &g->top, g->rev, g->lock, r, m)) {
      memset(m, 0, sizeof *m);
      m->jcell = TK_DAIFUGO_NOCELL;
    }
  } else {
    tk_daifugo_legal l;
    tk__df_gen(g->hand[g->turn], &g->top, g->rev, g->lock, &l);
    *m = l.a[l.n > 1 ? 1 + (int)tk_rng_below(r, (uint32_t)l.n - 1) : 0];
  }
}

void tk_daifugo_random_play(const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *m) { draw(g, r, m); }

void tk_daifugo_playout(tk_daifugo_game *g, tk_rng *r) {
  static const tk_daifugo_move pass = {.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};
  tk_daifugo_move m;
  while (!g->over) {
    int joker;
    /* The commonest action: a forced pass over a single, decided without drawing. */
    if ((g->top.kind == TK_DAIFUGO_SINGLE || g->top.kind == TK_DAIFUGO_JOKER1) &&
        !over_single(g, &joker) && !joker) {
      play(g, &pass);
      continue;
    }
    draw(g, r, &m);
    play(g, &m);
  }
}

int tk_daifugo_place_of(const tk_daifugo_game *g, int player) {
  for (int k = 0; k < g->nout; k++)
    if (g->order[k] == player) return k;
  return -1;
}

/* The player a giver of class `cls` exchanges with (daifugo <-> daihinmin, fugo <-> hinmin). */
static int partner_class(int cls) { return cls == 2 ? -1 : 4 - cls; }

int tk_daifugo_determinize(const tk_daifugo_view *v, tk_rng *r, int senn, tk_daifugo_game *out) {
  int me = v->player;
  if (me >= 5 || v->turn >= 5) return TK_EINVAL; /* not a play decision's view */
  uint64_t hand[5] = {0};
  hand[me] = v->hand;
  int need[5];
  for (int p = 0; p < 5; p++) need[p] = p == me ? 0 : v->count[p];
  /* Cards the viewer gave in the exchange and has not seen again are with their receiver. */
  uint64_t known = v->given & ~v->received & ~v->played & ~v->hand;
  if (known && v->cls[me] < 5) {
    int pc = partner_class(v->cls[me]);
    for (int p = 0; p < 5 && pc >= 0; p++)
      if (p != me && v->cls[p] == pc) {
        while (known && need[p] > 0) {
          uint64_t c = known & -known;
          known &= known - 1;
          hand[p] |= c;
          need[p]--;
        }
      }
  }
  uint64_t unseen = TK_DAIFUGO_DECK & ~v->played & ~v->hand;
  for (int p = 0; p < 5; p++)
    if (p != me) unseen &= ~hand[p];
  uint8_t cards[TK_DAIFUGO_CARDS];
  int n = 0;
  for (uint64_t u = unseen; u; u &= u - 1) cards[n++] = (uint8_t)tk__df_ctz(u);
  int total = 0;
  for (int p = 0; p < 5; p++) total += need[p];
  if (total != n) return TK_EINVAL;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tk_rng_below(r, (uint32_t)i + 1);
    uint8_t t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  int k = 0;
  for (int p = 0; p < 5; p++)
    for (int i = 0; i < need[p]; i++) hand[p] |= UINT64_C(1) << cards[k++];
  memset(out, 0, sizeof *out);
  for (int p = 0; p < 5; p++) {
    out->hand[p] = hand[p];
    out->seat_of[p] = v->seat_of[p];
    out->at_seat[v->seat_of[p] % 5] = (uint8_t)p;
  }
  out->played = v->played;
  out->top = v->top;
  tk_rng_seed(&out->rng, tk_rng_next(r));
  out->turn = v->turn;
  out->owner = v->owner;
  out->passed = v->passed;
  out->out = v->out;
  out->nout = v->nout;
  memcpy(out->order, v->order, sizeof out->order);
  out->rev = v->rev;
  out->lock = v->lock;
  out->npass = v->npass;
  out->sennichite = (uint8_t)senn;
  return 0;
}
