/* plugins/daifugo_mc/dmc.c — the daifugo Monte Carlo decision of paper 001 §2.2 (dmc.h;
 * docs/daifugo-agents.md). One decision = candidates, shortcuts, then a budget of playouts whose
 * first move is chosen by UCB1 over the candidates; each playout deals the hidden cards afresh
 * (the "deal plan", fixed for the decision) and plays until our player goes out. Every array
 * lives on the stack: nothing is allocated. */
#include <math.h>
#include <string.h>

#include "dmc.h"

#define BIT(p) (1u << (p))
#define DIAMOND3 TK_DAIFUGO_CARD(2, 1)

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static int ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* ------------------------------------------------------------ one play on a new table */

int dmc_one_play(uint64_t hand) {
  int j = (hand & TK_DAIFUGO_JOKER) != 0;
  uint64_t real = hand & TK_DAIFUGO_REAL;
  int nr = popcount64(real);
  if (hand & ~TK_DAIFUGO_DECK || nr + j == 0) return 0;
  if (nr + j == 1) return 1; /* a single, or the joker alone */
  uint64_t cols = (real | real >> 16 | real >> 32 | real >> 48) & TK_DAIFUGO_SUIT_LANE;
  if (popcount64(cols) == 1) return 1; /* a group: at most 4 real cards, 5 with the joker */
  int rows = 0;
  for (int row = 0; row < 4; row++) rows += (real >> (16 * row) & TK_DAIFUGO_SUIT_LANE) != 0;
  if (rows != 1 || nr + j < 3) return 0;
  int lo = ctz64(cols), hi = 63 - __builtin_clzll(cols);
  /* One suit: a sequence if the gaps between its lowest and highest card are at most what the
   * joker fills (with no gap the joker extends an end: columns 0 and 14 are always free). */
  return (hi - lo + 1) - nr <= j;
}

/* ------------------------------------------------------------ the deal plan */

typedef dmc_plan plan;

/* The `k` strongest cards of `set` in revolution: the joker first, then by column from 3 up to
 * 2, ♠ ♥ ♦ ♣ within a column (tk_daifugo_strongest is the normal order's). */
static uint64_t strongest_in_revolution(uint64_t set, int k) {
  uint64_t out = 0;
  if (k > 0 && (set & TK_DAIFUGO_JOKER)) out |= TK_DAIFUGO_JOKER, k--;
  for (int col = 1; col <= 13 && k > 0; col++)
    for (int row = 0; row < 4 && k > 0; row++)
      if (set & TK_DAIFUGO_CARD(row, col)) out |= TK_DAIFUGO_CARD(row, col), k--;
  return out;
}

/* The player holding class `cls` in the previous game, or -1. */
static int of_class(const tk_daifugo_view *v, int cls) {
  for (int p = 0; p < 5; p++)
    if (v->cls[p] == cls) return p;
  return -1;
}

/* Completes `pl` (fixed[] and need[] set) with the hidden cards `hidden` and the exchange bias:
 * the strongest hidden cards dealt 3/2/1 at random to the previous game's ranks 1/2/3. Returns
 * 0, or -1 if the needs do not add up to the hidden cards. */
static int plan_finish(const dmc_params *p, const tk_daifugo_view *v, uint64_t hidden, int rev,
                       plan *pl) {
  int total = 0;
  for (int q = 0; q < 5; q++) {
    if (pl->need[q] < 0) return -1;
    total += pl->need[q];
  }
  if (total != popcount64(hidden)) return -1;
  static const int SHARE[3] = {3, 2, 1};
  int rank_player[3], share[3], nominal = 0, bias = p->bias;
  for (int k = 0; k < 3; k++) {
    rank_player[k] = of_class(v, k);
    if (rank_player[k] < 0) bias = 0; /* no previous game: no exchange to mimic */
    if (rank_player[k] == pl->me && p->bias_self == DMC_SELF_SKIP_ALL) bias = 0;
  }
  pl->npool = pl->nslot = 0;
  if (bias) {
    int slots[3];
    for (int k = 0; k < 3; k++) {
      share[k] = rank_player[k] == pl->me ? 0 : SHARE[k];
      nominal += share[k];
      int need = pl->need[rank_player[k]];
      slots[k] = share[k] < need ? share[k] : need;
    }
    if (p->bias_overflow == DMC_OVERFLOW_SPILL) {
      /* The surplus of a share an opponent cannot hold goes down the ranks to those with room. */
      int surplus = 0;
      for (int k = 0; k < 3; k++) surplus += share[k] - slots[k];
      for (int k = 0; k < 3 && surplus > 0; k++) {
        if (rank_player[k] == pl->me) continue;
        int room = pl->need[rank_player[k]] - slots[k];
        int add = room < surplus ? room : surplus;
        slots[k] += add, surplus -= add;
      }
    }
    uint64_t pool = rev ? strongest_in_revolution(hidden, nominal)
                        : tk_daifugo_strongest(hidden, nominal);
    pl->npool = popcount64(pool);
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < slots[k] && pl->nslot < pl->npool; i++)
        pl->slot_of[pl->nslot++] = (uint8_t)rank_player[k];
    int n = 0;
    for (uint64_t s = pool; s; s &= s - 1) pl->cards[n++] = (uint8_t)ctz64(s);
    for (uint64_t s = hidden & ~pool; s; s &= s - 1) pl->cards[n++] = (uint8_t)ctz64(s);
    pl->n = n;
    for (int i = 0; i < pl->nslot; i++) pl->need[pl->slot_of[i]]--;
  } else {
    int n = 0;
    for (uint64_t s = hidden; s; s &= s - 1) pl->cards[n++] = (uint8_t)ctz64(s);
    pl->n = n;
  }
  return 0;
}

static void shuffle(uint8_t *a, int from, int to, tk_rng *r) {
  for (int i = to - 1; i > from; i--) {
    int j = from + (int)tk_rng_below(r, (uint32_t)(i - from + 1));
    uint8_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/* Deals one playout's hands from the plan. */
static void plan_deal(const plan *pl, tk_rng *r, uint64_t hand[5]) {
  uint8_t c[TK_DAIFUGO_CARDS];
  memcpy(c, pl->cards, (size_t)pl->n);
  for (int q = 0; q < 5; q++) hand[q] = pl->fixed[q];
  shuffle(c, 0, pl->npool, r);
  for (int i = 0; i < pl->nslot; i++) hand[pl->slot_of[i]] |= UINT64_C(1) << c[i];
  shuffle(c, pl->nslot, pl->n, r);
  int k = pl->nslot;
  for (int q = 0; q < 5; q++)
    for (int i = 0; i < pl->need[q]; i++) hand[q] |= UINT64_C(1) << c[k++];
}

/* The player a giver of class `cls` exchanges with (daifugo -> daihinmin, fugo -> hinmin). */
static int partner_class(int cls) { return cls == 0 ? 4 : cls == 1 ? 3 : cls == 3 ? 1 : cls == 4 ? 0 : -1; }

/* Cards `v`'s viewer gave in the exchange (its choice or the automatic transfer) that are neither
 * played nor back in its hand are with their receiver. A card the daifugo received and gave back
 * counts too (tk_daifugo_determinize leaves such a card to the random deal). */
static void place_known(const tk_daifugo_view *v, plan *pl) {
  int me = v->player;
  uint64_t known = v->given & ~v->played & ~v->hand;
  if (!known || v->cls[me] >= 5) return;
  int recv = of_class(v, partner_class(v->cls[me]));
  if (recv < 0 || recv == me) return;
  pl->fixed[recv] |= known;
  pl->need[recv] -= popcount64(known);
}

/* ------------------------------------------------------------ the root */

/* One decision's search: candidates, their statistics, and how a playout starts. */
typedef struct search {
  const dmc_params *p;
  dmc_policy_fn policy;
  void *ctx;
  const dmc_dealer *dealer;     /* NULL: plan_deal */
  int dealt;                    /* 1: this decision's playouts are dealt by dealer->deal */
  int me;
  int exchange;                 /* 1: candidates are cards to give */
  int k;                        /* candidates */
  tk_daifugo_move cand[TK_DAIFUGO_MAX_LEGAL];
  uint16_t index[TK_DAIFUGO_MAX_LEGAL]; /* candidate's index into the legal list (or 0xffff) */
  uint16_t prio[TK_DAIFUGO_MAX_LEGAL];  /* candidates in tie-break order (a random permutation) */
  int32_t n[TK_DAIFUGO_MAX_LEGAL];
  int64_t sum[TK_DAIFUGO_MAX_LEGAL];
  plan pl;
  tk_daifugo_game tmpl;         /* play: the game with every field but the hands set */
  /* exchange */
  int recv;                     /* who receives our gifts */
  int gifts;                    /* cards we give in the playout (1, or 2 for the daifugo's pair) */
  uint64_t ex_hand;             /* our hand before the gifts */
  uint8_t seat_of[5];
} search;

/* Our score (2 … -2) in one playout starting with candidate `j`. */
static int playout(search *s, int j, tk_rng *r) {
  uint64_t hand[5];
  if (s->dealt && !s->exchange) s->dealer->deal(s->dealer->ctx, r, hand);
  else plan_deal(&s->pl, r, hand);
  tk_daifugo_game g;
  if (s->exchange) {
    uint64_t gift = s->cand[j].cards;
    if (s->gifts == 2) { /* the daifugo's other card: uniform among the rest of its hand */
      uint64_t rest = s->ex_hand & ~gift;
      int i = (int)tk_rng_below(r, (uint32_t)popcount64(rest));
      for (; i > 0; i--) rest &= rest - 1;
      gift |= rest & -rest;
    }
    hand[s->me] = s->ex_hand & ~gift;
    hand[s->recv] |= gift;
    int leader = 0;
    while (!(hand[leader] & DIAMOND3)) leader++;
    if (tk_daifugo_game_setup(&g, hand, s->seat_of, leader, s->p->sennichite, tk_rng_next(r),
                              NULL))
      return 0; /* unreachable: the plan partitions the deck */
  } else {
    g = s->tmpl;
    memcpy(g.hand, hand, sizeof g.hand);
    tk_rng_seed(&g.rng, tk_rng_next(r));
    tk_daifugo_game_play(&g, &s->cand[j]);
  }
  const unsigned mine = BIT(s->me);
  tk_daifugo_move m;
  if (!s->policy) /* the paper's plain playouts: the engine's loop, byte for byte the one below */
    tk_daifugo_playout_until(&g, r, s->me);
  while (!g.over && !(g.out & mine)) {
    s->policy(s->ctx, &g, r, &m);
    tk_daifugo_game_play(&g, &m);
  }
  return tk_daifugo_paper_points(tk_daifugo_place_of(&g, s->me));
}

/* Runs `budget` playouts shared by UCB1; returns the tried candidate with the highest mean (ties
 * by prio), or -1 with no candidate. `skip` (a candidate or -1) is never chosen. */
static int run(search *s, int budget, tk_rng *r, int skip) {
  for (int i = 0; i < s->k; i++) s->prio[i] = (uint16_t)i, s->n[i] = 0, s->sum[i] = 0;
  for (int i = s->k - 1; i > 0; i--) {
    int j = (int)tk_rng_below(r, (uint32_t)i + 1);
    uint16_t t = s->prio[i];
    s->prio[i] = s->prio[j];
    s->prio[j] = t;
  }
  for (int t = 0; t < budget; t++) {
    int j;
    if (t < s->k) {
      j = s->prio[t]; /* untried candidates first */
    } else {
      double lg = 2.0 * log((double)t), best = -INFINITY;
      j = -1;
      for (int i = 0; i < s->k; i++) {
        int q = s->prio[i];
        double u = (double)s->sum[q] / s->n[q] + s->p->c * sqrt(lg / s->n[q]);
        if (u > best) best = u, j = q;
      }
    }
    s->sum[j] += playout(s, j, r);
    s->n[j]++;
  }
  int best = -1;
  double bm = -INFINITY;
  for (int i = 0; i < s->k; i++) {
    int q = s->prio[i];
    if (q == skip || s->n[q] == 0) continue;
    double m = (double)s->sum[q] / s->n[q];
    if (m > bm) bm = m, best = q;
  }
  /* A budget too small to try any candidate but `skip`: the first untried one. */
  for (int i = 0; i < s->k && best < 0; i++)
    if (s->prio[i] != skip) best = s->prio[i];
  return best;
}

static void fill_stats(const search *s, int playouts, dmc_stats *st) {
  if (!st) return;
  st->playouts = playouts;
  st->shortcut = 0;
  st->ncand = 0;
  for (int i = 0; i < s->k; i++) {
    if (s->index[i] == 0xffff) continue;
    int c = st->ncand++;
    st->cand[c] = s->index[i];
    st->visits[c] = s->n[i];
    st->mean[c] = s->n[i] ? (double)s->sum[i] / s->n[i] : 0.0;
  }
}

/* A shortcut fired (`kind` as dmc_stats.shortcut): no playout, no candidate statistics. */
static int shortcut(dmc_stats *st, int kind, int index) {
  if (st) st->playouts = 0, st->shortcut = kind, st->ncand = 0;
  return index;
}

/* ------------------------------------------------------------ play decisions */

/* 1 if candidate `m` wins at once for sure in game `g` (our turn, any deal of the hidden cards):
 * it empties our hand, or no opponent can answer it whatever it holds and what remains is one
 * play we then lead. */
static int wins_for_sure(const tk_daifugo_view *v, const tk_daifugo_game *g,
                         const tk_daifugo_move *m, tk_daifugo_legal *scratch) {
  uint64_t rest = v->hand & ~m->cards;
  if (!rest) return 1;
  if (!dmc_one_play(rest)) return 0;
  tk_daifugo_game a = *g;
  tk_daifugo_game_play(&a, m);
  if (a.top.kind == TK_DAIFUGO_PASS) return a.turn == v->player; /* 8-cut or ♠3: we lead */
  uint64_t unseen = TK_DAIFUGO_DECK & ~a.played & ~rest;
  for (int q = 0; q < 5; q++) {
    if (q == v->player || (a.out | a.passed) & BIT(q) || v->count[q] < m->n) continue;
    tk_daifugo_game b = a; /* q holding every unseen card: any answer it might have */
    b.turn = (uint8_t)q;
    b.hand[q] = unseen;
    tk_daifugo_game_legal(&b, scratch);
    for (int i = 0; i < scratch->n; i++)
      if (scratch->a[i].kind != TK_DAIFUGO_PASS) return 0;
  }
  return 1;
}

/* The deal plan of a play decision: our hand, our exchange gifts with their receiver, the other
 * hidden cards dealt with the bias. */
static int play_plan(const dmc_params *p, const tk_daifugo_view *v, plan *pl) {
  memset(pl, 0, sizeof *pl);
  int me = v->player;
  pl->me = me;
  pl->fixed[me] = v->hand;
  for (int q = 0; q < 5; q++) pl->need[q] = q == me ? 0 : v->count[q];
  place_known(v, pl);
  uint64_t hidden = TK_DAIFUGO_DECK & ~v->played;
  for (int q = 0; q < 5; q++) hidden &= ~pl->fixed[q];
  int rev = p->bias_order == DMC_ORDER_CURRENT && v->rev;
  return plan_finish(p, v, hidden, rev, pl);
}

int dmc_plan_play(const dmc_params *p, const tk_daifugo_view *v, dmc_plan *pl) {
  return v->player >= 5 ? -1 : play_plan(p, v, pl);
}

void dmc_plan_deal(const dmc_plan *pl, tk_rng *r, uint64_t hand[5]) { plan_deal(pl, r, hand); }

int dmc_deal(const dmc_params *p, const tk_daifugo_view *v, tk_rng *r, tk_daifugo_game *out) {
  plan pl;
  if (v->player >= 5 || tk_daifugo_determinize(v, r, p->sennichite, out) || play_plan(p, v, &pl))
    return -1;
  plan_deal(&pl, r, out->hand);
  return 0;
}

static int decide_play(const dmc_params *p, const tk_daifugo_view *v, const tk_daifugo_legal *l,
                       search *s, tk_rng *r, dmc_stats *st) {
  s->k = 0;
  for (int i = 0; i < l->n; i++) {
    if (l->lead && l->a[i].kind == TK_DAIFUGO_PASS) continue;
    s->cand[s->k] = l->a[i];
    s->index[s->k++] = (uint16_t)i;
  }
  if (s->k == 0) return -1;
  if (s->k == 1) return shortcut(st, 1, s->index[0]);
  /* The template game: tk_daifugo_determinize checks the view and sets every field. */
  if (tk_daifugo_determinize(v, r, p->sennichite, &s->tmpl)) return -1;
  if (p->win_shortcut) {
    tk_daifugo_legal scratch;
    int win = -1;
    for (int i = 0; i < s->k && win < 0; i++)
      if (s->cand[i].cards == v->hand) win = i; /* going out now first */
    for (int i = 0; i < s->k && win < 0; i++)
      if (s->cand[i].kind != TK_DAIFUGO_PASS && wins_for_sure(v, &s->tmpl, &s->cand[i], &scratch))
        win = i;
    if (win >= 0) return shortcut(st, 2, s->index[win]);
  }
  if (play_plan(p, v, &s->pl)) return -1;
  s->dealt = s->dealer && !s->dealer->prepare(s->dealer->ctx, v, &s->pl, r);
  int best = run(s, p->playouts, r, -1);
  fill_stats(s, p->playouts, st);
  return best < 0 ? -1 : s->index[best];
}

/* ------------------------------------------------------------ exchange decisions */

/* Evaluates giving one card of `hand` (`to_give` cards still to give, `given` already given)
 * for viewer `v`; candidates are the cards of `hand`, mapped to `l`'s indexes where present. */
static int prepare_exchange(const dmc_params *p, const tk_daifugo_view *v,
                            const tk_daifugo_legal *l, uint64_t hand, uint64_t given,
                            const uint8_t count[5], int to_give, search *s) {
  int me = v->player, cls = v->cls[me];
  if (cls > 1) return -1; /* only the daifugo and the fugo choose cards */
  s->exchange = 1;
  s->recv = of_class(v, partner_class(cls));
  if (s->recv < 0) return -1;
  s->gifts = to_give >= 2 && popcount64(hand) >= 2 ? 2 : 1;
  s->ex_hand = hand;
  memcpy(s->seat_of, v->seat_of, 5);
  s->k = 0;
  for (uint64_t h = hand; h; h &= h - 1) {
    tk_daifugo_move *m = &s->cand[s->k];
    memset(m, 0, sizeof *m);
    m->kind = TK_DAIFUGO_GIVE;
    m->cards = h & -h;
    m->n = 1;
    m->jcell = TK_DAIFUGO_NOCELL;
    s->index[s->k] = 0xffff;
    for (int i = 0; i < l->n; i++)
      if (l->a[i].cards == m->cards) s->index[s->k] = (uint16_t)i;
    s->k++;
  }
  plan *pl = &s->pl;
  memset(pl, 0, sizeof *pl);
  pl->me = me;
  /* Counts once every exchange is made: our gifts are fixed with the receiver at each playout;
   * when we are the daifugo, the fugo's one card to the hinmin is still to come. */
  for (int q = 0; q < 5; q++) pl->need[q] = q == me ? 0 : count[q];
  if (cls == 0) {
    int fugo = of_class(v, 1), hinmin = of_class(v, 3);
    if (fugo >= 0 && hinmin >= 0) pl->need[fugo]--, pl->need[hinmin]++;
  }
  uint64_t known = given & ~hand;
  pl->fixed[s->recv] = known;
  pl->need[s->recv] -= popcount64(known);
  uint64_t hidden = TK_DAIFUGO_DECK & ~hand & ~known;
  return plan_finish(p, v, hidden, 0, pl);
}

static int decide_exchange(const dmc_params *p, const tk_daifugo_view *v,
                           const tk_daifugo_legal *l, search *s, tk_rng *r, dmc_stats *st) {
  int me = v->player;
  if (l->n == 1) return shortcut(st, 1, 0);
  uint8_t count[5];
  memcpy(count, v->count, 5);
  int pair_second = p->exchange_pair == DMC_PAIR_TOP2 && v->cls[me] == 0 && v->to_give == 1 &&
                    popcount64(v->given) == 1;
  if (pair_second) {
    /* The daifugo's second card: the evaluation of the two-card decision, re-run from the same
     * generator state as the first call (which left `r` unchanged), gives its best card not
     * yet given. */
    uint64_t first = v->given;
    int recv = of_class(v, partner_class(0));
    if (recv < 0 || count[recv] == 0) return -1;
    count[me]++, count[recv]--;
    if (prepare_exchange(p, v, l, v->hand | first, 0, count, 2, s)) return -1;
    int skip = -1;
    for (int i = 0; i < s->k; i++)
      if (s->cand[i].cards == first) skip = i;
    int best = run(s, p->exchange_playouts, r, skip);
    fill_stats(s, p->exchange_playouts, st);
    return best < 0 ? -1 : s->index[best];
  }
  if (prepare_exchange(p, v, l, v->hand, v->given, count, v->to_give, s)) return -1;
  int keep = p->exchange_pair == DMC_PAIR_TOP2 && v->to_give >= 2;
  tk_rng copy = *r;
  int best = run(s, p->exchange_playouts, keep ? &copy : r, -1);
  fill_stats(s, p->exchange_playouts, st);
  return best < 0 ? -1 : s->index[best];
}

/* ------------------------------------------------------------ the entry */

int dmc_decide(const dmc_params *p, const tk_daifugo_view *v, const tk_daifugo_legal *l,
               dmc_policy_fn policy, void *ctx, tk_rng *r, dmc_stats *st) {
  return dmc_decide_dealt(p, v, l, policy, ctx, NULL, r, st);
}

int dmc_decide_dealt(const dmc_params *p, const tk_daifugo_view *v, const tk_daifugo_legal *l,
                     dmc_policy_fn policy, void *ctx, const dmc_dealer *dealer, tk_rng *r,
                     dmc_stats *st) {
  if (st) st->playouts = 0, st->shortcut = 0, st->ncand = 0;
  if (!l || l->n == 0 || v->player >= 5) return -1;
  search s;
  s.p = p;
  s.policy = policy;
  s.ctx = ctx;
  s.dealer = dealer;
  s.dealt = 0;
  s.me = v->player;
  s.exchange = 0;
  if (l->decision == TK_DAIFUGO_DECIDE_EXCHANGE) return decide_exchange(p, v, l, &s, r, st);
  if (l->decision != TK_DAIFUGO_DECIDE_PLAY) return -1;
  return decide_play(p, v, l, &s, r, st);
}
