/* arenas/daifugo/game.c — one game in play: turns in ascending seat order, sticky passes, the
 * table clearing only when every player still holding cards has passed, 8-cuts, the ♠3 over a
 * single joker, locks, revolutions, going out and the 20-pass sennichite. Also random playouts
 * (a loop of their own, by seat, equal to the step-by-step game) and the determinisation of a
 * view. Invariant: hands and `played` partition the deck. */
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

int tk_daifugo_game_can_play(const tk_daifugo_game *g) {
  if (g->over) return 0;
  uint64_t h = g->hand[g->turn];
  const tk_daifugo_move *t = &g->top;
  switch (t->kind) {
  case TK_DAIFUGO_PASS:
    return h != 0;
  case TK_DAIFUGO_SINGLE:
  case TK_DAIFUGO_JOKER1:
    return (h & tk__df_beaters(t, g->rev, g->lock)) != 0;
  case TK_DAIFUGO_GROUP:
    /* the joker with a pair's card of a stronger column is a play unless locked */
    if (t->n == 2 && !g->lock && (h & TK_DAIFUGO_JOKER)) {
      uint32_t over = g->rev ? ((1u << t->rank) - 1) & ~1u : 0x3ffeu & ~((2u << t->rank) - 1);
      if (h & tk__df_lanes(over)) return 1;
    }
    return tk__df_group_cols(h, t, g->rev, g->lock) != 0;
  default: {
    tk_daifugo_legal l;
    tk__df_gen(h, t, g->rev, g->lock, &l);
    return l.n > 1;
  }
  }
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

void tk_daifugo_random_play(const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *m) {
  *m = tk__df_draw(g->hand[g->turn], &g->top, g->rev, g->lock, r);
}

/* ------------------------------------------------------------ playouts */

/* ------------------------------------------------------------ the playout loop
 * The game by seat (bit s = seat s) rather than by player, so that the next player in turn
 * order is a rotation and a count-trailing-zeros, and the players who must pass are found at
 * once; the state in local variables (the compiler keeps most in registers), the move as two
 * words (tk__df_move). The same transitions as play(): tk_daifugo_playout leaves the game byte
 * for byte as tk_daifugo_random_play and tk_daifugo_game_play do from the same stream
 * (test_daifugo_draw checks it). */

/* `mask` (5 seat bits) rotated so that bit i is seat s + 1 + i (mod 5): seat s comes last. The
 * mask doubled (mask * 33 = mask | mask << 5) makes the rotation one shift. */
static inline unsigned rot_after(unsigned mask, int s) { return ((mask * 33u) >> (s + 1)) & 31u; }
/* The inverse of rot_after. */
static inline unsigned unrot_after(unsigned mask, int s) { return ((mask * 33u) >> (4 - s)) & 31u; }
/* The first seat of `mask` after s (s itself last), or -1. */
static inline int seat_after(unsigned mask, int s) {
  unsigned m = rot_after(mask, s);
  if (!m) return -1;
  int q = s + 1 + tk__df_ctz(m);
  return q >= 5 ? q - 5 : q;
}
static const uint8_t POP5[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

/* The seats of `live` (hands by seat in h) that have a play over the group or sequence `top`. */
static unsigned can_follow(const uint64_t h[5], const tk_daifugo_move *top, int rev, int lock,
                           unsigned live) {
  unsigned can = 0;
  /* Over a group: no card in a stronger column, no play (the commonest answer); a pair and the
   * joker, a play unless locked; else the columns counted. */
  uint32_t over = rev ? ((1u << top->rank) - 1) & ~1u : 0x3ffeu & ~((2u << top->rank) - 1);
  uint64_t stronger = tk__df_lanes(over);
  for (unsigned l = live; l; l &= l - 1) {
    int s = tk__df_ctz(l);
    if (top->kind == TK_DAIFUGO_GROUP) {
      if (!(h[s] & stronger)) continue;
      if ((top->n == 2 && !lock && (h[s] & TK_DAIFUGO_JOKER)) || tk__df_group_cols(h[s], top, rev, lock))
        can |= 1u << s;
    } else {
      tk_daifugo_legal list;
      tk__df_gen(h[s], top, rev, lock, &list);
      if (list.n > 1) can |= 1u << s;
    }
  }
  return can;
}

/* The playout's state, by seat, back into the game (by player); turn, over and order are the
 * caller's. `cleared` is 0 when the game ended (by a play or by a pass, neither clearing). */
static void po_store(tk_daifugo_game *g, const uint64_t h[5], uint64_t played,
                     const tk_daifugo_move *top, int owner, unsigned out, unsigned passed, int nout,
                     int rev, int lock, int npass, int cleared) {
  unsigned pout = 0, ppassed = 0;
  for (int s = 0; s < 5; s++) {
    int p = g->at_seat[s];
    g->hand[p] = h[s];
    pout |= (out >> s & 1u) << p;
    ppassed |= (passed >> s & 1u) << p;
  }
  g->played = played;
  g->top = *top;
  g->owner = g->at_seat[owner];
  g->out = (uint8_t)pout;
  g->passed = (uint8_t)ppassed;
  g->nout = (uint8_t)nout;
  g->rev = (uint8_t)rev;
  g->lock = (uint8_t)lock;
  g->npass = (uint8_t)npass;
  g->cleared = (uint8_t)cleared;
}

void tk_daifugo_playout(tk_daifugo_game *g, tk_rng *r) { tk_daifugo_playout_until(g, r, -1); }

void tk_daifugo_playout_until(tk_daifugo_game *g, tk_rng *r, int player) {
  if (g->over || (player >= 0 && player < 5 && (g->out >> player & 1u))) return;
  /* The seat whose going out stops the playout (bit), 0 for none. */
  unsigned stop = player >= 0 && player < 5 ? 1u << g->seat_of[player] : 0;
  const uint8_t *pl = g->at_seat;
  uint64_t h[5];
  unsigned out = 0, passed = 0;
  for (int s = 0; s < 5; s++) {
    h[s] = g->hand[pl[s]];
    out |= (g->out >> pl[s] & 1u) << s;
    passed |= (g->passed >> pl[s] & 1u) << s;
  }
  uint64_t played = g->played;
  /* The play on the table as two integers, its fields read with shifts: a move struct copied
   * whole right after its bytes were written stalls the store-to-load forwarding. */
  const uint64_t pass_head = tk__df_head(&(tk_daifugo_move){.jcell = TK_DAIFUGO_NOCELL});
  /* A single's head without its rank and suit, and the single joker's. */
  const uint64_t single_head[2] = {
      tk__df_head(&(tk_daifugo_move){.kind = TK_DAIFUGO_SINGLE, .n = 1, .jcell = TK_DAIFUGO_NOCELL}),
      tk__df_head(&(tk_daifugo_move){.kind = TK_DAIFUGO_JOKER1, .n = 1, .jcell = TK_DAIFUGO_NOCELL})};
  uint64_t top_cards = g->top.cards, top_head = tk__df_head(&g->top);
#define TOP_KIND ((int)(top_head & 0xff))
  int owner = g->seat_of[g->owner];
  int rev = g->rev, lock = g->lock, npass = g->npass, nout = g->nout, senn = g->sennichite;
  int from = g->seat_of[g->turn] == 0 ? 4 : g->seat_of[g->turn] - 1; /* g->turn acts first */
  tk_daifugo_move top;
  for (;;) {
    /* The players from the seat after `from` on who hold cards and have not passed either play
     * or pass; the first who can play acts. If none can, all pass and the table clears. */
    unsigned live = 31u & ~out & ~passed, can = live;
    uint64_t beat = 0;
    int over_single = TOP_KIND == TK_DAIFUGO_SINGLE || TOP_KIND == TK_DAIFUGO_JOKER1;
    if (over_single) {
      beat = tk__df_beaters_of(TOP_KIND, (int)(top_head >> 16 & 0xff), (int)(top_head >> 24 & 0xff),
                               rev, lock);
      can = (unsigned)((h[0] & beat) != 0) | (unsigned)((h[1] & beat) != 0) << 1 |
            (unsigned)((h[2] & beat) != 0) << 2 | (unsigned)((h[3] & beat) != 0) << 3 |
            (unsigned)((h[4] & beat) != 0) << 4;
      can &= live;
    } else if (TOP_KIND != TK_DAIFUGO_PASS) {
      top = tk__df_unhead(top_cards, top_head);
      can = can_follow(h, &top, rev, lock, live);
    }
    unsigned rlive = rot_after(live, from), rcan = rot_after(can, from);
    unsigned rpass = rlive & ((rcan & -rcan) - 1); /* all of rlive when rcan is 0 */
    if (npass + POP5[rpass] >= senn) { /* sennichite within these passes */
      for (; rpass && npass < senn; rpass &= rpass - 1, npass++) passed |= unrot_after(rpass & -rpass, from);
      if (npass >= senn) {
        top = tk__df_unhead(top_cards, top_head);
        po_store(g, h, played, &top, owner, out, passed, nout, rev, lock, npass, 0);
        sennichite(g);
        return;
      }
    }
    npass += POP5[rpass];
    passed |= unrot_after(rpass, from);
    int t;
    if (rcan) {
      t = from + 1 + tk__df_ctz(rcan);
      if (t >= 5) t -= 5;
    } else { /* everyone passed: the owner leads, or the next holder if it is out */
      top_cards = 0, top_head = pass_head;
      lock = 0;
      passed = 0;
      t = (out >> owner & 1u) ? seat_after(31u & ~out, owner) : owner;
      over_single = 0;
    }
    /* Seat t plays. */
    int cut;
    if (over_single) { /* a single (the commonest play): its fields straight from its bit */
      uint64_t cand = h[t] & beat;
      int b = tk__df_select(cand, tk__df_pick(r, tk__df_popcount(cand)));
      uint64_t card = UINT64_C(1) << b;
      int joker = b == 15, col = b & 15;
      h[t] &= ~card;
      played |= card;
      npass = 0;
      /* Over the single joker the only play is the ♠3, which clears the table; the joker
       * removes the lock; a single of the table's suit sets it. */
      cut = TOP_KIND == TK_DAIFUGO_JOKER1 || (!joker && col == TK_DAIFUGO_COL_8);
      unsigned suit = 1u << (b >> 4);
      lock = !joker && (lock | (suit == (top_head >> 24 & 0xff)));
      top_cards = card;
      top_head = joker ? single_head[1] : single_head[0] | (uint64_t)col << 16 | (uint64_t)suit << 24;
    } else {
      tk_daifugo_move m;
      if (TOP_KIND == TK_DAIFUGO_PASS) {
        m = tk__df_draw_lead(h[t], r);
      } else {
        top = tk__df_unhead(top_cards, top_head);
        m = tk__df_draw(h[t], &top, rev, lock, r);
      }
      uint64_t m_cards = m.cards, m_head = tk__df_head(&m);
      int kind = (int)(m_head & 0xff), n = (int)(m_head >> 8 & 0xff);
      int rank = (int)(m_head >> 16 & 0xff), suits = (int)(m_head >> 24 & 0xff);
      h[t] &= ~m_cards;
      played |= m_cards;
      npass = 0;
      /* The lock: set by a play with the suit set of the single, group or sequence it covers;
       * removed by the single joker. */
      int covers = (unsigned)(TOP_KIND - TK_DAIFUGO_SINGLE) <= TK_DAIFUGO_SEQ - TK_DAIFUGO_SINGLE;
      lock = (lock | (covers & (suits == (int)(top_head >> 24 & 0xff)))) & (kind != TK_DAIFUGO_JOKER1);
      rev ^= tk__df_revolts_of(kind, n);
      cut = tk__df_has8_of(kind, rank, n);
      top_cards = m_cards, top_head = m_head;
    }
    owner = t;
    if (!h[t]) {
      out |= 1u << t;
      g->order[nout++] = pl[t];
      if (nout == 4 || (stop >> t & 1u)) {
        /* Over, or stopped: the turn goes where play() leaves it, the next holder who has not
         * passed (whether or not it can play), or the table clears (after a cut, or when
         * everyone else has passed) and the next holder after t leads. */
        unsigned rest = 31u & ~out & ~passed;
        int clear = nout < 4 && (cut || !rest);
        if (nout == 4) g->order[nout++] = pl[seat_after(31u & ~out, t)];
        if (clear) top_cards = 0, top_head = pass_head, lock = 0, passed = 0;
        top = tk__df_unhead(top_cards, top_head);
        po_store(g, h, played, &top, owner, out, passed, nout, rev, lock, npass, clear);
        if (nout == 5) finish(g);
        else g->turn = pl[seat_after(clear ? 31u & ~out : rest, t)];
        return;
      }
    }
    if (cut) { /* t leads, or the next holder if it is out */
      top_cards = 0, top_head = pass_head;
      lock = 0;
      passed = 0;
      int lead = (out >> t & 1u) ? seat_after(31u & ~out, t) : t;
      from = lead == 0 ? 4 : lead - 1;
    } else {
      from = t;
    }
  }
#undef TOP_KIND
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
    int j = (int)tk__df_below(r, (uint32_t)i + 1);
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
