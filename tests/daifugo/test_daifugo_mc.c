/* tests/daifugo/test_daifugo_mc.c — the daifugo Monte Carlo core (plugins/daifugo_mc/dmc.h) and
 * the daifugo_mc plugin: the one-play classifier against the engine's lead lists; hand-made
 * positions with a known answer (the win-for-sure shortcut and when it must not fire, a single
 * candidate, an exchange where giving a 2 is wrong); UCB1 trying every candidate before any
 * twice; the budget spent exactly; the dealing (counts, the exchange bias and its switches, the
 * cards we gave); the daifugo's two returned cards from one evaluation; reproducibility from the
 * seed; parameter errors; and a short tournament through the `taikai` binary against greedy. */
#include <math.h>

#include "dmc.h"
#include "dt.h"
#include "e2e_util.h"
#include "taikai/agent.h"

const tk_agent_descriptor *taikai_agent_entry_daifugo_mc(void);
const tk_agent_descriptor *taikai_agent_entry_daifugo_greedy(void);

static tk_daifugo_legal L;
static dmc_stats ST;

/* The view of g->turn in game `g`, with previous classes `cls` (NULL: a block's first game). */
static tk_daifugo_view view_of(const tk_daifugo_game *g, const uint8_t *cls) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = g->turn;
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  v.turn = g->turn;
  v.owner = g->owner;
  v.passed = g->passed;
  v.out = g->out;
  v.nout = g->nout;
  v.rev = g->rev;
  v.lock = g->lock;
  v.npass = g->npass;
  for (int p = 0; p < 5; p++) {
    v.count[p] = (uint8_t)__builtin_popcountll(g->hand[p]);
    v.seat_of[p] = g->seat_of[p];
    v.cls[p] = cls ? cls[p] : TK_DAIFUGO_NOBODY;
    v.order[p] = p < g->nout ? g->order[p] : TK_DAIFUGO_NOBODY;
  }
  v.hand = g->hand[g->turn];
  v.played = g->played;
  v.top = g->top;
  return v;
}

/* dmc_decide's choice for g->turn in notation ("(none)" for -1); fills ST. */
static const char *decide(const dmc_params *p, const tk_daifugo_game *g, uint64_t seed) {
  static char buf[128];
  tk_daifugo_view v = view_of(g, NULL);
  tk_daifugo_game_legal(g, &L);
  tk_rng r;
  tk_rng_seed(&r, seed);
  int k = dmc_decide(p, &v, &L, NULL, NULL, &r, &ST);
  if (k < 0) return "(none)";
  tk_daifugo_move_str(&L.a[k], buf, sizeof buf);
  return buf;
}

#define DECIDES(p, g, want)                                                                   \
  do {                                                                                        \
    const char *got_ = decide((p), (g), 1);                                                   \
    if (strcmp(got_, (want))) TK_FAILF("line %d: chose '%s', expected '%s'", __LINE__, got_, (want)); \
  } while (0)

/* ------------------------------------------------------------ the one-play classifier */

static void one_play_matches_engine(void) {
  tk_rng r;
  tk_rng_seed(&r, 5);
  int agree = 0, ones = 0;
  for (int t = 0; t < 4000; t++) {
    uint64_t h = 0;
    int mode = (int)tk_rng_below(&r, 3), n = 1 + (int)tk_rng_below(&r, 6);
    int row = (int)tk_rng_below(&r, 4), col = 1 + (int)tk_rng_below(&r, 13);
    for (int i = 0; i < n; i++) {
      if (mode == 0) /* any cards */
        h |= UINT64_C(1) << (16 * tk_rng_below(&r, 4) + 1 + tk_rng_below(&r, 13));
      else if (mode == 1) /* one suit, near each other: runs with gaps */
        h |= TK_DAIFUGO_CARD(row, 1 + (col - 1 + (int)tk_rng_below(&r, 5)) % 13);
      else /* one rank, maybe a stray */
        h |= TK_DAIFUGO_CARD(tk_rng_below(&r, 4), tk_rng_below(&r, 8) ? col : 1 + (col % 13));
    }
    if (tk_rng_below(&r, 2)) h |= TK_DAIFUGO_JOKER;
    uint64_t hands[5] = {h, TK_DAIFUGO_DECK & ~h, 0, 0, 0};
    const uint8_t seats[5] = {0, 1, 2, 3, 4};
    tk_daifugo_game g;
    CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, hands, seats, 0, 20, 1, NULL), 0);
    tk_daifugo_game_legal(&g, &L);
    int engine = 0;
    for (int i = 0; i < L.n; i++) engine |= L.a[i].cards == h;
    if (engine != dmc_one_play(h)) {
      char buf[256];
      tk_daifugo_cards_str(h, buf, sizeof buf);
      TK_FAILF("%s: dmc_one_play %d, the engine's lead list %d", buf, dmc_one_play(h), engine);
    } else agree++;
    ones += engine;
  }
  TK_EQ(agree, 4000, "hands agreeing");
  if (ones < 400 || ones > 3600) TK_FAILF("%d of 4000 hands are one play: the sample is lopsided", ones);
  TK_EQ(dmc_one_play(0), 0, "the empty hand");
}

/* ------------------------------------------------------------ known answers */

static void win_shortcut(void) {
  dmc_params p = dmc_default_params();
  p.playouts = 200;
  tk_daifugo_game g;
  /* A pair of 2s cannot be beaten (nothing ranks above a 2 in a group) and C4 is one lead. */
  dt_game(&g, "S2 H2 C4", "S3 H3 S5", "", "", NULL, 0);
  DECIDES(&p, &g, "S2 H2");
  TK_EQ(ST.shortcut, 2, "pair of 2s: the win shortcut");
  TK_EQ(ST.playouts, 0, "pair of 2s: no playout");
  /* An 8 clears the table at once and we lead the rest. */
  dt_game(&g, "S8 C4", "S3 H3 S5", "", "", NULL, 0);
  DECIDES(&p, &g, "S8");
  TK_EQ(ST.shortcut, 2, "8-cut");
  /* A single joker after the ♠3 is gone: unbeatable; C4 over S3 is not. */
  dt_game(&g, "S3 H5", "JK C4", "", "", NULL, 0);
  dt_play(&g, 0, "S3");
  DECIDES(&p, &g, "JK");
  TK_EQ(ST.shortcut, 2, "single joker without the ♠3 outstanding");
  /* Going out now. */
  dt_game(&g, "S5 H6", "H9", "", "", NULL, 0);
  dt_play(&g, 0, "S5");
  DECIDES(&p, &g, "H9");
  TK_EQ(ST.shortcut, 2, "the last card");
  /* Aces can be beaten by 2s or the joker: no shortcut, the whole budget is spent. */
  dt_game(&g, "SA HA C4", "S3 H3 S5", "", "", NULL, 0);
  decide(&p, &g, 1);
  TK_EQ(ST.shortcut, 0, "pair of aces");
  TK_EQ(ST.playouts, 200, "pair of aces: playouts");
  /* The joker with the ♠3 still unseen: no shortcut. */
  dt_game(&g, "S4 H5", "JK C4", "", "", NULL, 0);
  dt_play(&g, 0, "S4");
  decide(&p, &g, 1);
  TK_EQ(ST.shortcut, 0, "single joker with the ♠3 unseen");
  /* What remains must be one play: S2 H2 with C4 D6 left is no sure win. */
  dt_game(&g, "S2 H2 C4 D6", "S3 H3 S5", "", "", NULL, 0);
  decide(&p, &g, 1);
  TK_EQ(ST.shortcut, 0, "two plays left");
  /* Switched off, the pair of 2s position runs its playouts. */
  p.win_shortcut = 0;
  dt_game(&g, "S2 H2 C4", "S3 H3 S5", "", "", NULL, 0);
  decide(&p, &g, 1);
  TK_EQ(ST.shortcut, 0, "win_shortcut false");
  TK_EQ(ST.playouts, 200, "win_shortcut false: playouts");
}

static void single_candidate(void) {
  dmc_params p = dmc_default_params();
  tk_daifugo_game g;
  /* Over a 2 with no joker: only the pass. */
  dt_game(&g, "S2 H5", "C4 H6", "", "", NULL, 0);
  dt_play(&g, 0, "S2");
  DECIDES(&p, &g, "pass");
  TK_EQ(ST.shortcut, 1, "only the pass");
  TK_EQ(ST.playouts, 0, "only the pass: playouts");
  /* A new table and one card: one candidate (the pass is none on a new table). */
  dt_game(&g, "C7", "C4 H6", "", "", NULL, 0);
  DECIDES(&p, &g, "C7");
  TK_EQ(ST.shortcut, 1, "one card on a new table");
}

/* An exchange view of the daifugo (player 0) holding `hand`, classes 0..4 = players 0..4, counts
 * 13 12 11 9 8 as after the automatic transfers; `received` the daihinmin's two cards. */
static tk_daifugo_view exchange_view(const char *hand, const char *received) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = 0;
  v.decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  v.to_give = 2;
  v.turn = v.owner = TK_DAIFUGO_NOBODY;
  const uint8_t count[5] = {13, 12, 11, 9, 8};
  for (int p = 0; p < 5; p++) v.count[p] = count[p], v.seat_of[p] = (uint8_t)p, v.cls[p] = (uint8_t)p;
  for (int p = 0; p < 5; p++) v.order[p] = TK_DAIFUGO_NOBODY;
  v.game = 1;
  v.hand = dt_cards(hand);
  v.received = dt_cards(received);
  v.top.jcell = TK_DAIFUGO_NOCELL;
  return v;
}

static void exchange_legal(uint64_t hand) {
  memset(&L, 0, sizeof L);
  L.decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  for (; hand; hand &= hand - 1) {
    tk_daifugo_move *m = &L.a[L.n++];
    m->kind = TK_DAIFUGO_GIVE, m->cards = hand & -hand, m->n = 1, m->jcell = TK_DAIFUGO_NOCELL;
  }
}

static void exchange_keeps_the_twos(void) {
  dmc_params p = dmc_default_params();
  p.exchange_playouts = 3000;
  tk_daifugo_view v = exchange_view("S2 H2 D2 JK SA HA SK HK S3 D4 C5 H6 C7", "D2 JK");
  exchange_legal(v.hand);
  const uint64_t strong = dt_cards("S2 H2 D2 JK");
  for (uint64_t seed = 1; seed <= 3; seed++) {
    tk_rng r;
    tk_rng_seed(&r, seed);
    int k = dmc_decide(&p, &v, &L, NULL, NULL, &r, &ST);
    CU_ASSERT_FATAL(k >= 0);
    char buf[32];
    tk_daifugo_move_str(&L.a[k], buf, sizeof buf);
    if (L.a[k].cards & strong) TK_FAILF("seed %d: gave '%s'", (int)seed, buf);
    double chosen = -9, worst_strong = -9;
    for (int i = 0; i < ST.ncand; i++) {
      if (ST.cand[i] == k) chosen = ST.mean[i];
      if (L.a[ST.cand[i]].cards & strong && ST.mean[i] > worst_strong) worst_strong = ST.mean[i];
    }
    if (!(chosen > worst_strong + 0.1))
      TK_FAILF("seed %d: '%s' scores %.3f, the best 2 or joker %.3f", (int)seed, buf, chosen,
               worst_strong);
    TK_EQ(ST.playouts, 3000, "exchange playouts");
  }
}

/* ------------------------------------------------------------ UCB1 and the budget */

static void untried_first_and_budget(void) {
  dmc_params p = dmc_default_params();
  p.win_shortcut = 0;
  tk_daifugo_game g;
  dt_game(&g, "S3 H5 D7 C9 SJ HK", "S4 H4 S6", "", "", NULL, 0);
  tk_daifugo_game_legal(&g, &L);
  int k = L.n - 1; /* a new table: every play, not the pass */
  CU_ASSERT_FATAL(k >= 6);
  const int budgets[] = {1, 3, 6, 7, 18, 1500};
  for (int b = 0; b < 6; b++) {
    p.playouts = budgets[b];
    decide(&p, &g, (uint64_t)b);
    TK_EQ(ST.playouts, budgets[b], "playouts spent");
    TK_EQ(ST.ncand, k, "candidates");
    long sum = 0;
    int zero = 0, over = 0;
    for (int i = 0; i < ST.ncand; i++) {
      sum += ST.visits[i];
      zero += ST.visits[i] == 0;
      over += ST.visits[i] > 1;
      if (L.a[ST.cand[i]].kind == TK_DAIFUGO_PASS) TK_FAILF("the pass is a candidate on a new table");
    }
    TK_EQ(sum, budgets[b], "visits add up to the budget");
    if (budgets[b] <= k) {
      TK_EQ(zero, k - budgets[b], "untried candidates");
      TK_EQ(over, 0, "a candidate visited twice before every one once");
    } else {
      TK_EQ(zero, 0, "every candidate tried");
    }
  }
  /* Over a table the pass is a candidate. */
  dt_game(&g, "S3 H5 D7 C9", "S4 H4 S6", "", "", NULL, 0);
  dt_play(&g, 0, "S3");
  p.playouts = 50;
  decide(&p, &g, 1);
  int pass = 0;
  for (int i = 0; i < ST.ncand; i++) pass += L.a[ST.cand[i]].kind == TK_DAIFUGO_PASS;
  TK_EQ(pass, 1, "the pass among the candidates over a single");
  /* The exchange spends its own budget. */
  p.exchange_playouts = 77;
  tk_daifugo_view v = exchange_view("S2 H2 D2 JK SA HA SK HK S3 D4 C5 H6 C7", "D2 JK");
  exchange_legal(v.hand);
  tk_rng r;
  tk_rng_seed(&r, 3);
  dmc_decide(&p, &v, &L, NULL, NULL, &r, &ST);
  TK_EQ(ST.playouts, 77, "exchange budget");
  TK_EQ(ST.ncand, 13, "exchange candidates");
}

/* ------------------------------------------------------------ the playouts */

/* Our exact expected score from `g` when every player follows the plain policy (uniform over
 * the non-pass plays, the pass when nothing else is legal) until we go out. */
static double expect_plain(const tk_daifugo_game *g, int me) {
  if (g->over || g->out & (1u << me)) return tk_daifugo_paper_points(tk_daifugo_place_of(g, me));
  tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  double sum = 0;
  int n = 0;
  for (int i = 0; i < l.n; i++) {
    if (l.a[i].kind == TK_DAIFUGO_PASS) continue;
    tk_daifugo_game c = *g;
    tk_daifugo_game_play(&c, &l.a[i]);
    sum += expect_plain(&c, me), n++;
  }
  if (n) return sum / n;
  tk_daifugo_game c = *g;
  tk_daifugo_game_play(&c, &l.a[0]);
  return expect_plain(&c, me);
}

/* A deterministic policy for the hook: the last legal action; counts its calls. */
static long policy_calls;
static void last_legal(void *ctx, const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *out) {
  (void)r;
  tk_daifugo_legal *l = ctx;
  tk_daifugo_game_legal(g, l);
  *out = l->a[l->n - 1];
  policy_calls++;
}

static double follow_last(tk_daifugo_game g, int me) {
  static tk_daifugo_legal l;
  while (!g.over && !(g.out & (1u << me))) {
    tk_daifugo_game_legal(&g, &l);
    tk_daifugo_game_play(&g, &l.a[l.n - 1]);
  }
  return tk_daifugo_paper_points(tk_daifugo_place_of(&g, me));
}

/* Two players left, every card known (the others are out, the rest played): each candidate's
 * mean must be its exact value under the plain policy, within the sampling error, and under a
 * deterministic policy passed as the hook, exactly. */
static void playouts_follow_the_policy(void) {
  dmc_params p = dmc_default_params();
  p.win_shortcut = 0;
  p.playouts = 20000;
  tk_daifugo_game g;
  dt_game(&g, "C5 CA D7 S9 H3", "S2 C4 H9 DT S6", "", "", "", 0);
  decide(&p, &g, 4);
  TK_EQ(ST.playouts, 20000, "playouts");
  double lo = 9, hi = -9, exact_best = -9;
  int best_visits = 0;
  for (int i = 0; i < ST.ncand; i++) {
    tk_daifugo_game c = g;
    tk_daifugo_game_play(&c, &L.a[ST.cand[i]]);
    double x = expect_plain(&c, 0);
    lo = x < lo ? x : lo, hi = x > hi ? x : hi;
    double tol = 4 * sqrt(0.25 / (ST.visits[i] ? ST.visits[i] : 1)) + 1e-9;
    if (fabs(ST.mean[i] - x) > tol) {
      char buf[64];
      tk_daifugo_move_str(&L.a[ST.cand[i]], buf, sizeof buf);
      TK_FAILF("%s: mean %.4f over %d playouts, exact %.4f", buf, ST.mean[i], ST.visits[i], x);
    }
    if (x > exact_best) exact_best = x, best_visits = ST.visits[i];
  }
  if (hi - lo < 0.2) TK_FAILF("the candidates' exact values %.3f..%.3f do not tell them apart", lo, hi);
  if (best_visits < 2000) TK_FAILF("the best candidate got %d of 20000 playouts", best_visits);
  /* The hook: every move after our candidate comes from the policy. */
  static tk_daifugo_legal scratch;
  tk_daifugo_view v = view_of(&g, NULL);
  tk_daifugo_game_legal(&g, &L);
  tk_rng r;
  tk_rng_seed(&r, 4);
  p.playouts = 300;
  policy_calls = 0;
  CU_ASSERT_FATAL(dmc_decide(&p, &v, &L, last_legal, &scratch, &r, &ST) >= 0);
  if (policy_calls < 300) TK_FAILF("the policy was called %ld times in 300 playouts", policy_calls);
  for (int i = 0; i < ST.ncand; i++) {
    tk_daifugo_game c = g;
    tk_daifugo_game_play(&c, &L.a[ST.cand[i]]);
    if (ST.mean[i] != follow_last(c, 0))
      TK_FAILF("candidate %d: mean %.4f under the deterministic policy, expected %.0f", i,
               ST.mean[i], follow_last(c, 0));
  }
}

/* ------------------------------------------------------------ dealing */

/* A play decision of player `me` on a new table early in a game: player p holds counts[p] cards
 * and was of class p in the previous game (or no classes); `played` cards are gone. */
static tk_daifugo_view deal_view(int me, const char *hand, const char *played,
                                 const uint8_t counts[5], int classes) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = (uint8_t)me;
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  v.turn = v.owner = (uint8_t)me;
  for (int p = 0; p < 5; p++) {
    v.count[p] = counts[p];
    v.seat_of[p] = (uint8_t)p;
    v.cls[p] = classes ? (uint8_t)p : TK_DAIFUGO_NOBODY;
    v.order[p] = TK_DAIFUGO_NOBODY;
  }
  v.hand = dt_cards(hand);
  v.played = played ? dt_cards(played) : 0;
  v.top.jcell = TK_DAIFUGO_NOCELL;
  return v;
}

/* Deals `n` games for `v`; checks the invariants; counts, per player, how many cards of `pool`
 * it held in each deal: held[p][k] = deals where player p held exactly k of them. */
static void deal_many(const dmc_params *p, const tk_daifugo_view *v, uint64_t pool, int n,
                      int held[5][8], int *first_card_at0) {
  memset(held, 0, sizeof(int) * 40);
  *first_card_at0 = 0;
  tk_rng r;
  tk_rng_seed(&r, 99);
  for (int t = 0; t < n; t++) {
    tk_daifugo_game g;
    if (dmc_deal(p, v, &r, &g)) {
      TK_FAILF("dmc_deal refused the view");
      return;
    }
    uint64_t all = g.played;
    for (int q = 0; q < 5; q++) {
      if (all & g.hand[q]) TK_FAILF("deal %d: player %d's cards overlap", t, q);
      all |= g.hand[q];
      if (__builtin_popcountll(g.hand[q]) != v->count[q])
        TK_FAILF("deal %d: player %d holds %d cards, count %d", t, q,
                 __builtin_popcountll(g.hand[q]), v->count[q]);
      held[q][__builtin_popcountll(g.hand[q] & pool)]++;
    }
    if (all != TK_DAIFUGO_DECK) TK_FAILF("deal %d: the cards are not the deck", t);
    if (g.hand[v->player] != v->hand) TK_FAILF("deal %d: our hand changed", t);
    if (g.hand[0] & pool & -pool) ++*first_card_at0;
  }
}

static void dealing_bias(void) {
  dmc_params p = dmc_default_params();
  int held[5][8], at0;
  const uint8_t counts[5] = {11, 11, 10, 11, 10};
  /* We are the heimin (rank 3): our share is skipped, the 5 strongest hidden cards (the joker
   * and the four 2s) go 3 to the daifugo and 2 to the fugo. */
  tk_daifugo_view v = deal_view(2, "S3 H3 D4 C5 S6 H7 D8 C9 ST HJ", NULL, counts, 1);
  const uint64_t top5 = dt_cards("JK S2 H2 D2 C2");
  deal_many(&p, &v, top5, 1000, held, &at0);
  TK_EQ(held[0][3], 1000, "the daifugo holds 3 of the 5 strongest");
  TK_EQ(held[1][2], 1000, "the fugo holds 2 of them");
  TK_EQ(held[3][0] + held[4][0], 2000, "the hinmin and daihinmin hold none");
  if (at0 < 520 || at0 > 680) TK_FAILF("S2 is the daifugo's in %d of 1000 deals (3/5 expected)", at0);
  /* bias false: the strongest cards anywhere (the hinmin holds one in most deals). */
  p.bias = 0;
  deal_many(&p, &v, top5, 1000, held, &at0);
  if (held[3][0] > 600) TK_FAILF("without the bias the hinmin held none of them in %d deals", held[3][0]);
  /* skip_all: we are ranked, so no bias. */
  p = dmc_default_params();
  p.bias_self = DMC_SELF_SKIP_ALL;
  deal_many(&p, &v, top5, 1000, held, &at0);
  if (held[0][3] == 1000) TK_FAILF("skip_all still dealt the strongest to the daifugo");
  /* No previous game: no bias. */
  p = dmc_default_params();
  tk_daifugo_view first = deal_view(2, "S3 H3 D4 C5 S6 H7 D8 C9 ST HJ", NULL, counts, 0);
  deal_many(&p, &first, top5, 1000, held, &at0);
  if (held[0][3] == 1000 || held[1][2] == 1000) TK_FAILF("the first game of a block was biased");
  /* We are the daifugo: the 3 strongest go 2 to the fugo and 1 to the heimin. */
  tk_daifugo_view d = deal_view(0, "S3 H3 D4 C5 S6 H7 D8 C9 ST HJ SQ", NULL, counts, 1);
  deal_many(&p, &d, dt_cards("JK S2 H2"), 1000, held, &at0);
  TK_EQ(held[1][2], 1000, "our share skipped: the fugo holds 2 of the 3 strongest");
  TK_EQ(held[2][1], 1000, "the heimin holds 1");
  /* Cap: a daifugo with 2 cards holds 2 of the strongest, the surplus goes to the random deal;
   * spill: the fugo takes the surplus. 9 cards played make the counts add up. */
  const uint8_t small[5] = {2, 11, 10, 11, 10};
  const char *gone = "SQ HQ DQ CQ SK HK DK CK SA";
  tk_daifugo_view c = deal_view(2, "S3 H3 D4 C5 S6 H7 D8 C9 ST HJ", gone, small, 1);
  deal_many(&p, &c, top5, 1000, held, &at0);
  TK_EQ(held[0][2], 1000, "cap: the daifugo's 2 cards are among the strongest");
  TK_EQ(held[1][2] + held[1][3], 1000, "cap: the fugo holds its 2 (and maybe the surplus)");
  if (held[1][3] == 1000 || held[1][3] == 0) TK_FAILF("cap: the surplus card went to the fugo in %d of 1000 deals", held[1][3]);
  p.bias_overflow = DMC_OVERFLOW_SPILL;
  deal_many(&p, &c, top5, 1000, held, &at0);
  TK_EQ(held[1][3], 1000, "spill: the fugo takes the surplus");
  /* bias_order current in revolution: the 3s are the strongest after the joker. */
  p = dmc_default_params();
  p.bias_order = DMC_ORDER_CURRENT;
  tk_daifugo_view rv = deal_view(2, "S2 H2 D2 C2 S6 H7 D8 C9 ST HJ", NULL, counts, 1);
  rv.rev = 1;
  deal_many(&p, &rv, dt_cards("JK S3 H3 D3 C3"), 1000, held, &at0);
  TK_EQ(held[0][3], 1000, "current order in revolution: the daifugo holds 3 of JK and the 3s");
  p.bias_order = DMC_ORDER_NORMAL;
  deal_many(&p, &rv, dt_cards("JK SA HA DA CA"), 1000, held, &at0);
  TK_EQ(held[0][3], 1000, "normal order in revolution: the daifugo holds 3 of JK and the aces");
}

static void dealing_known_gifts(void) {
  dmc_params p = dmc_default_params();
  int held[5][8], at0;
  /* The fugo (player 1) gave C3 to the hinmin (player 3); the daihinmin's transfer went to the
   * daifugo (not ours to know). */
  const uint8_t counts[5] = {11, 10, 11, 11, 10};
  tk_daifugo_view v = deal_view(1, "S4 H5 D6 C7 S8 H9 DT CJ SQ HK", NULL, counts, 1);
  v.given = dt_cards("C3");
  v.received = dt_cards("DA");
  deal_many(&p, &v, dt_cards("C3"), 500, held, &at0);
  TK_EQ(held[3][1], 500, "the hinmin holds the card we gave");
  /* Once played, the card is nobody's. */
  v.played = dt_cards("C3");
  v.count[3] = 10;
  deal_many(&p, &v, dt_cards("C3"), 50, held, &at0);
  TK_EQ(held[3][0], 50, "a played gift is no longer dealt");
  /* The daihinmin (player 4) knows its two strongest went to the daifugo. */
  const uint8_t c2[5] = {12, 11, 11, 10, 9};
  tk_daifugo_view dh = deal_view(4, "S3 H3 D4 C5 S6 H7 D8 C9 ST", NULL, c2, 1);
  dh.given = dt_cards("JK S2");
  deal_many(&p, &dh, dt_cards("JK S2"), 500, held, &at0);
  TK_EQ(held[0][2], 500, "the daifugo holds the daihinmin's transfer");
}

/* ------------------------------------------------------------ the exchange pair, seeds */

/* Plays a block of `games` games with greedy in every seat except `mc` (-1: none) until player
 * `stop`'s exchange decision (returns 1 there) or the end (0). */
static int block_until_exchange(tk_daifugo_block *b, int stop) {
  const tk_agent_descriptor *gd = taikai_agent_entry_daifugo_greedy();
  tk_agent_instance *gi = gd->create("{}", 0, NULL);
  tk_daifugo_view v;
  while (!tk_daifugo_is_over(b)) {
    int who = tk_daifugo_to_act(b);
    tk_daifugo_legal_of(b, who, &L);
    if (L.decision == TK_DAIFUGO_DECIDE_EXCHANGE && (stop < 0 || who == stop) && b->to_give == 2) {
      gd->destroy(gi);
      return 1;
    }
    tk_daifugo_view_of(b, who, &v);
    tk_daifugo_move m;
    gd->act(gi, &v, &L, &m);
    tk_daifugo_apply(b, who, &m, NULL);
  }
  gd->destroy(gi);
  return 0;
}

static void exchange_pair(void) {
  static tk_daifugo_block b, b2, b3;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 3;
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_block_init(&b, &rules, 12, 0, NULL), 0);
  CU_ASSERT_FATAL(block_until_exchange(&b, -1));
  b2 = b3 = b;
  int me = tk_daifugo_to_act(&b);
  dmc_params p = dmc_default_params();
  p.exchange_playouts = 600;
  static dmc_stats first;
  tk_daifugo_view v;
  tk_daifugo_view_of(&b, me, &v);
  tk_daifugo_legal_of(&b, me, &L);
  tk_rng r, before;
  tk_rng_seed(&r, 8);
  before = r;
  int k1 = dmc_decide(&p, &v, &L, NULL, NULL, &r, &first);
  CU_ASSERT_FATAL(k1 >= 0);
  CU_ASSERT(!memcmp(&r, &before, sizeof r)); /* the first call leaves the generator alone */
  uint64_t c1 = L.a[k1].cards;
  uint64_t cards1[TK_DAIFUGO_MAX_LEGAL];
  for (int i = 0; i < first.ncand; i++) cards1[i] = L.a[first.cand[i]].cards;
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_apply(&b, me, &L.a[k1], NULL), 0);
  TK_EQ(tk_daifugo_to_act(&b), me, "the daifugo gives its second card");
  tk_daifugo_view_of(&b, me, &v);
  tk_daifugo_legal_of(&b, me, &L);
  int k2 = dmc_decide(&p, &v, &L, NULL, NULL, &r, &ST);
  CU_ASSERT_FATAL(k2 >= 0);
  uint64_t c2 = L.a[k2].cards;
  CU_ASSERT(c2 != c1);
  /* The second call re-ran the same evaluation: every mean equal, and c2 the best after c1. */
  double best_other = -9, mean_c2 = -9;
  for (int i = 0; i < first.ncand; i++) {
    if (cards1[i] == c2) mean_c2 = first.mean[i];
    if (cards1[i] != c1 && first.mean[i] > best_other) best_other = first.mean[i];
  }
  if (mean_c2 != best_other) TK_FAILF("second card's mean %.4f, the best other %.4f", mean_c2, best_other);
  for (int i = 0; i < ST.ncand; i++)
    for (int j = 0; j < first.ncand; j++)
      if (cards1[j] == L.a[ST.cand[i]].cards && first.mean[j] != ST.mean[i])
        TK_FAILF("card %d: mean %.4f then %.4f", i, first.mean[j], ST.mean[i]);
  TK_EQ(ST.playouts, 600, "second call's playouts");
  /* sequential: the second card comes from a fresh evaluation (its own means). */
  p.exchange_pair = DMC_PAIR_SEQUENTIAL;
  tk_rng_seed(&r, 8);
  tk_daifugo_view_of(&b2, me, &v);
  tk_daifugo_legal_of(&b2, me, &L);
  k1 = dmc_decide(&p, &v, &L, NULL, NULL, &r, &first);
  CU_ASSERT(memcmp(&r, &before, sizeof r) != 0);
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_apply(&b2, me, &L.a[k1], NULL), 0);
  tk_daifugo_view_of(&b2, me, &v);
  tk_daifugo_legal_of(&b2, me, &L);
  CU_ASSERT(dmc_decide(&p, &v, &L, NULL, NULL, &r, &ST) >= 0);
  TK_EQ(ST.ncand, L.n, "sequential: every card held is a candidate");
  /* A budget of 1 tries only the first card: the second call still gives another card. */
  p = dmc_default_params();
  p.exchange_playouts = 1;
  tk_daifugo_view_of(&b3, me, &v);
  tk_daifugo_legal_of(&b3, me, &L);
  k1 = dmc_decide(&p, &v, &L, NULL, NULL, &r, &first);
  CU_ASSERT_FATAL(k1 >= 0);
  c1 = L.a[k1].cards;
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_apply(&b3, me, &L.a[k1], NULL), 0);
  tk_daifugo_view_of(&b3, me, &v);
  tk_daifugo_legal_of(&b3, me, &L);
  k2 = dmc_decide(&p, &v, &L, NULL, NULL, &r, &ST);
  CU_ASSERT_FATAL(k2 >= 0);
  CU_ASSERT(L.a[k2].cards != c1);
}

/* Plays one block of `games` with daifugo_mc as player 0 and greedy elsewhere; returns the
 * totals' paper points of every player packed with the places (a fingerprint). */
static uint64_t block_with_mc(uint64_t agent_seed, int games, const char *params) {
  const tk_agent_descriptor *md = taikai_agent_entry_daifugo_mc();
  const tk_agent_descriptor *gd = taikai_agent_entry_daifugo_greedy();
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *mi = md->create(params, 1, &err), *gi = gd->create("{}", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mi);
  static tk_daifugo_block b;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = (uint32_t)games;
  tk_daifugo_block_init(&b, &rules, 31, 0, NULL);
  tk_daifugo_info info;
  tk_daifugo_info_fill(&b, 0, agent_seed, &info);
  md->begin_game(mi, &info);
  uint64_t h = 1469598103934665603u;
  tk_daifugo_view v;
  while (!tk_daifugo_is_over(&b)) {
    int who = tk_daifugo_to_act(&b);
    tk_daifugo_view_of(&b, who, &v);
    tk_daifugo_legal_of(&b, who, &L);
    tk_daifugo_move m;
    int rc = (who == 0 ? md : gd)->act(who == 0 ? mi : gi, &v, &L, &m);
    if (rc) TK_FAILF("player %d: act returned %d", who, rc);
    if (tk_daifugo_apply(&b, who, &m, &err)) TK_FAILF("player %d: %s", who, err.msg);
    h = (h ^ m.cards ^ (uint64_t)m.jcell << 56) * 1099511628211u;
  }
  md->destroy(mi);
  gd->destroy(gi);
  return h;
}

static void reproducible(void) {
  uint64_t a = block_with_mc(5, 3, "{\"playouts\": 300, \"exchange_playouts\": 300}");
  uint64_t b = block_with_mc(5, 3, "{\"playouts\": 300, \"exchange_playouts\": 300}");
  uint64_t c = block_with_mc(6, 3, "{\"playouts\": 300, \"exchange_playouts\": 300}");
  CU_ASSERT(a == b);
  if (a == c) TK_FAILF("another agent seed played the same 3 games move for move");
  /* One decision: the same generator state, the same statistics. */
  dmc_params p = dmc_default_params();
  p.playouts = 400;
  tk_daifugo_game g;
  dt_game(&g, "S3 H5 D7 C9 SJ HK", "S4 H4 S6", "", "", NULL, 0);
  decide(&p, &g, 77);
  static dmc_stats keep;
  keep = ST;
  decide(&p, &g, 77);
  CU_ASSERT(!memcmp(&keep, &ST, sizeof ST));
}

static void params_errors(void) {
  dmc_params p;
  tk_error err;
  const struct {
    const char *json, *want;
  } bad[] = {
      {"{\"playouts\": 0}", "playouts must be an integer from 1 to 10000000, got 0"},
      {"{\"exchange_playouts\": 2.5}", "exchange_playouts must be an integer from 1 to 10000000, got 2.5"},
      {"{\"c\": -1}", "c must be a number from 0 to 1000, got -1"},
      {"{\"win_shortcut\": 1}", "win_shortcut must be true or false, got 1"},
      {"{\"bias_self\": \"skip\"}", "bias_self must be \"skip_share\" or \"skip_all\", got \"skip\""},
      {"{\"bias_order\": \"reverse\"}", "bias_order must be \"normal\" or \"current\", got \"reverse\""},
      {"{\"bias_overflow\": null}", "bias_overflow must be \"cap\" or \"spill\", got null"},
      {"{\"exchange_pair\": \"pairs\"}", "exchange_pair must be \"top2\" or \"sequential\", got \"pairs\""},
      {"{\"alpha\": 0.6}", "unknown parameter 'alpha'"},
      {"[1]", "params must be a JSON object"},
      {"{\"playouts\": ", "daifugo_mc: params:"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tk_error_clear(&err);
    if (dmc_params_parse(bad[i].json, &p, &err) == 0) TK_FAILF("%s accepted", bad[i].json);
    else if (!strstr(err.msg, bad[i].want) || !strstr(err.msg, "daifugo_mc"))
      TK_FAILF("%s: message '%s', expected '%s'", bad[i].json, err.msg, bad[i].want);
  }
  const char *extra[] = {"alpha", NULL};
  TK_EQ(dmc_params_parse_for("daifugo_mcl", "{\"alpha\": 0.6, \"playouts\": 9}", extra, &p, &err), 0,
        "a caller's own name accepted");
  TK_EQ(p.playouts, 9, "playouts parsed");
  TK_EQ(dmc_params_parse("{\"c\": 2.5, \"bias_order\": \"current\", \"exchange_pair\": \"sequential\"}", &p, &err), 0, "good params");
  CU_ASSERT(p.c == 2.5 && p.bias_order == DMC_ORDER_CURRENT && p.exchange_pair == DMC_PAIR_SEQUENTIAL);
  dmc_params d = dmc_default_params();
  CU_ASSERT(d.playouts == 1500 && d.c == 4.0 && d.exchange_playouts == 1500 && d.win_shortcut &&
            d.bias && d.bias_self == DMC_SELF_SKIP_SHARE && d.bias_order == DMC_ORDER_NORMAL &&
            d.bias_overflow == DMC_OVERFLOW_CAP && d.exchange_pair == DMC_PAIR_TOP2);
  /* The plugin's declared defaults are the core's. */
  const tk_agent_descriptor *md = taikai_agent_entry_daifugo_mc();
  TK_EQ(dmc_params_parse(md->params_json, &p, &err), 0, "the descriptor's params_json");
  CU_ASSERT(p.playouts == d.playouts && p.c == d.c && p.exchange_playouts == d.exchange_playouts &&
            p.win_shortcut == d.win_shortcut && p.bias == d.bias && p.bias_self == d.bias_self &&
            p.bias_order == d.bias_order && p.bias_overflow == d.bias_overflow &&
            p.exchange_pair == d.exchange_pair);
  tk_error_clear(&err);
  CU_ASSERT_PTR_NULL(md->create("{\"playouts\": -3}", 1, &err));
  CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "playouts must be"));
}

/* ------------------------------------------------------------ a short tournament */

/* 300 playouts per decision (a fifth of the default) keep the run short under the sanitizers;
 * arenas/daifugo/mc-vs-greedy.json measures the default. */
static void tournament_against_greedy(void) {
  char spec[1024];
  snprintf(spec, sizeof spec,
           "{\"game\": \"daifugo\", \"seed\": 4, \"walls\": 4, \"format\": \"duplicate\", "
           "\"agents\": [{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}, {\"plugin\": "
           "\"daifugo_mc\", \"label\": \"mc\", \"params\": {\"playouts\": 300, "
           "\"exchange_playouts\": 300}}], \"rules\": {\"block_games\": 10}, \"output\": "
           "\"%s\"}\n",
           W("run"));
  write_file(W("mc.json"), spec);
  const char *args[] = {"run", W("mc.json"), "-j", "2", "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("taikai run: exit %d: %s", rc, err_buf);
  json_t *sum = json_load_file(W("run/summary.json"), 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  json_t *agents = json_object_get(sum, "agents");
  double place[2];
  long long games[2];
  for (int i = 0; i < 2; i++) {
    json_t *a = json_array_get(agents, (size_t)i);
    place[i] = json_number_value(json_object_get(json_object_get(a, "mean_place"), "value"));
    games[i] = json_integer_value(json_object_get(a, "games"));
    TK_EQ(json_integer_value(json_object_get(a, "faults")), 0, "faults");
  }
  TK_EQ(games[1], 200, "mc's games (4 blocks x 5 rotations x 10)");
  /* mc places better than greedy on the same deals: the paired difference of mean places
   * (mc - greedy, clustered by block) lies below 0 with its whole 95 % interval. */
  json_t *d = json_object_get(json_array_get(json_object_get(sum, "paired"), 0), "mean_place");
  double diff = json_number_value(json_object_get(d, "value"));
  double hi = json_number_value(json_array_get(json_object_get(d, "ci"), 1));
  if (!(hi < 0))
    TK_FAILF("mc - greedy mean place %.3f, interval up to %.3f (mc %.3f, greedy %.3f)", diff, hi,
             place[1], place[0]);
  json_decref(sum);
  /* The same games with one worker: byte-identical records. */
  const char *one[] = {"run", W("mc.json"), "-j", "1", "--out", W("run-j1"), "--quiet", NULL};
  rc = taikai(one);
  if (rc) TK_FAILF("taikai run -j 1: exit %d: %s", rc, err_buf);
  CU_ASSERT(same_bytes(W("run/games.jsonl"), W("run-j1/games.jsonl")));
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-mc")) return 1;
  CU_TestInfo tests[] = {
      {"one play: the classifier against the engine", one_play_matches_engine},
      {"win-for-sure shortcut", win_shortcut},
      {"single candidate", single_candidate},
      {"exchange keeps the 2s and the joker", exchange_keeps_the_twos},
      {"UCB1 tries every candidate first; the budget", untried_first_and_budget},
      {"playouts follow the policy to our place", playouts_follow_the_policy},
      {"dealing: the exchange bias and its switches", dealing_bias},
      {"dealing: the cards we gave", dealing_known_gifts},
      {"the daifugo's two cards", exchange_pair},
      {"reproducible from the seed", reproducible},
      {"parameters", params_errors},
      {"tournament against greedy", tournament_against_greedy},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_mc", tests);
}
