/* tests/daifugo/test_daifugo_block.c — the block state machine: the deal (53 cards, 11/11/11/10/10
 * from the first card's seat, the previous daifugo dealing first), the ♦3 holder leading every
 * game, the automatic transfers with the server's strength order, the daifugo's two and the
 * fugo's one return (received cards included, one card at a time), refusals leaving the block
 * unchanged, seat redraws at game numbers 1, 4, 7, …, class resets at each block, determinism,
 * the view (only what a player may know), the fallback, and the determinisation. */
#include <stdio.h>
#include <string.h>

#include "dt.h"
#include "unit.h"

static tk_daifugo_block B, B2;
static tk_daifugo_legal L;

/* Plays `player`'s fallback action. */
static void fallback(tk_daifugo_block *b) {
  int p = tk_daifugo_to_act(b);
  tk_daifugo_legal_of(b, p, &L);
  tk_daifugo_move m = tk_daifugo_fallback(&L);
  tk_error err;
  tk_error_clear(&err);
  if (tk_daifugo_apply(b, p, &m, &err)) TK_FAILF("fallback refused: %s", err.msg);
}

/* Plays until game `game` starts (its exchange or first play). */
static void play_to_game(tk_daifugo_block *b, uint32_t game) {
  while (!tk_daifugo_is_over(b) && b->game < game) fallback(b);
}

static int seat_of_class(const tk_daifugo_block *b, int cls) {
  for (int p = 0; p < 5; p++)
    if (b->cls[p] == cls) return b->g.seat_of[p];
  return -1;
}

static void deal_sizes(const tk_daifugo_block *b, const char *ctx) {
  uint64_t all = 0;
  for (int k = 0; k < 5; k++) {
    int p = b->g.at_seat[(b->first_seat + k) % 5];
    int want = k < 3 ? 11 : 10;
    if (__builtin_popcountll(b->dealt[p]) != want)
      TK_FAILF("%s: seat %d after the first has %d cards, expected %d", ctx, k,
               __builtin_popcountll(b->dealt[p]), want);
    all |= b->dealt[p];
  }
  if (all != TK_DAIFUGO_DECK) TK_FAILF("%s: the deal misses cards", ctx);
}

static void first_game(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_block_init(&B, &r, 7, 0, &err), 0, "init");
  TK_EQ(B.phase, TK_DAIFUGO_PHASE_PLAY, "no exchange in the first game of a block");
  for (int p = 0; p < 5; p++) TK_EQ(B.cls[p], TK_DAIFUGO_NOBODY, "no classes yet");
  deal_sizes(&B, "game 0");
  /* The deal, rebuilt from the documented stream: the 53 cards in bit order shuffled by
   * Fisher-Yates with tk_rng_seed2(seed, 4 g), card k to the seat k after the first card's. */
  {
    uint8_t sorted[53];
    int m = 0;
    for (int b = 0; b < 64; b++)
      if (TK_DAIFUGO_DECK >> b & 1) sorted[m++] = (uint8_t)b;
    TK_EQ(m, 53, "cards");
    tk_rng rng;
    tk_rng_seed2(&rng, 7, 4 * 1);
    for (int i = 52; i > 0; i--) {
      int j = (int)tk_rng_below(&rng, (uint32_t)i + 1);
      uint8_t t = sorted[i];
      sorted[i] = sorted[j];
      sorted[j] = t;
    }
    uint64_t want[5] = {0};
    for (int k = 0; k < 53; k++) want[B.g.at_seat[(B.first_seat + k) % 5]] |= UINT64_C(1) << sorted[k];
    for (int q = 0; q < 5; q++) TK_EQ(B.dealt[q], want[q], "dealt one card at a time in seat order");
  }
  int p = tk_daifugo_to_act(&B);
  if (!(B.g.hand[p] & dt_cards("D3"))) TK_FAILF("player %d leads without the D3", p);
  /* The lead need not contain the D3. */
  tk_daifugo_legal_of(&B, p, &L);
  int without = 0;
  for (int i = 1; i < L.n; i++) without += !(L.a[i].cards & dt_cards("D3"));
  if (!without) TK_FAILF("every lead contains the D3");
  /* The first dealer is drawn: over blocks, several seats receive the first card. */
  unsigned seats = 0;
  for (uint64_t blk = 0; blk < 40; blk++) {
    tk_daifugo_block_init(&B2, &r, 7, blk, NULL);
    seats |= 1u << B2.first_seat;
  }
  TK_EQ(seats, 31, "first seats drawn over 40 blocks");
  tk_daifugo_info info;
  tk_daifugo_block_init(&B2, &r, 7, 3, NULL);
  tk_daifugo_info_fill(&B2, 2, 99, &info);
  TK_EQ(info.head.struct_size, sizeof info, "info size");
  TK_EQ(info.head.wall, 301, "global game number of block 3's first game");
  TK_EQ(info.head.seat, 2, "player id");
  TK_EQ(info.head.nseats, 5, "players");
  TK_EQ(info.head.seed, 99, "agent seed");
  TK_EQ(info.types_version, TK_DAIFUGO_TYPES_VERSION, "types version");
  TK_EQ(info.block_games, 100, "rules");
  TK_EQ(info.block, 3, "block");
  tk_daifugo_rules bad = r;
  bad.block_games = 0;
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_block_init(&B2, &bad, 7, 0, &err), TK_ERANGE, "block_games 0");
  if (!strstr(err.msg, "block_games") || !strstr(err.msg, "0")) TK_FAILF("message: %s", err.msg);
}

static void exchange(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  tk_daifugo_block_init(&B, &r, 11, 0, NULL);
  play_to_game(&B, 1);
  TK_EQ(B.game, 1, "game 1");
  TK_EQ(B.phase, TK_DAIFUGO_PHASE_EXCHANGE, "exchange");
  deal_sizes(&B, "game 1");
  TK_EQ(B.first_seat, seat_of_class(&B, 0), "the previous daifugo receives the first card");
  int d = -1, f = -1, h = -1, dh = -1;
  for (int p = 0; p < 5; p++) {
    if (B.cls[p] == 0) d = p;
    if (B.cls[p] == 1) f = p;
    if (B.cls[p] == 3) h = p;
    if (B.cls[p] == 4) dh = p;
  }
  uint64_t s2 = tk_daifugo_strongest(B.dealt[dh], 2), s1 = tk_daifugo_strongest(B.dealt[h], 1);
  TK_EQ(B.g.hand[d], B.dealt[d] | s2, "the daifugo received the daihinmin's two strongest");
  TK_EQ(B.g.hand[f], B.dealt[f] | s1, "the fugo received the hinmin's strongest");
  TK_EQ(B.g.hand[dh], B.dealt[dh] & ~s2, "the daihinmin gave them");
  TK_EQ(tk_daifugo_to_act(&B), d, "the daifugo decides first");
  tk_daifugo_view v;
  tk_daifugo_view_of(&B, d, &v);
  TK_EQ(v.decision, TK_DAIFUGO_DECIDE_EXCHANGE, "exchange decision");
  TK_EQ(v.to_give, 2, "two cards");
  TK_EQ(v.received, s2, "the daifugo sees what it received");
  TK_EQ(tk_daifugo_legal_of(&B, d, &L), __builtin_popcountll(B.g.hand[d]), "one action per card");
  TK_EQ(tk_daifugo_legal_of(&B, f, &L), 0, "the fugo waits");
  /* A refused give leaves the block unchanged. */
  tk_daifugo_move m;
  tk_daifugo_move_parse("give S3", &m, NULL);
  m.cards = B.g.hand[f] & ~B.g.hand[d] & -(B.g.hand[f] & ~B.g.hand[d]);
  memcpy(&B2, &B, sizeof B);
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_apply(&B, d, &m, &err), TK_EILLEGAL, "a card not held");
  if (memcmp(&B, &B2, sizeof B)) TK_FAILF("a refused give changed the block");
  TK_EQ(tk_daifugo_apply(&B, f, &m, NULL), TK_ESTATE, "the fugo gives after the daifugo");
  /* The daifugo returns a card it just received, then its lowest card. */
  uint64_t back = s2 & -s2;
  m.cards = back;
  TK_EQ(tk_daifugo_apply(&B, d, &m, NULL), 0, "a received card may be returned");
  TK_EQ(tk_daifugo_to_act(&B), d, "the daifugo's second card");
  tk_daifugo_legal_of(&B, d, &L);
  tk_daifugo_move fb = tk_daifugo_fallback(&L);
  uint64_t dh_before = B.g.hand[dh];
  TK_EQ(tk_daifugo_apply(&B, d, &fb, NULL), 0, "second card");
  TK_EQ(B.g.hand[dh], dh_before | fb.cards, "to the daihinmin");
  TK_EQ(tk_daifugo_to_act(&B), f, "then the fugo");
  tk_daifugo_legal_of(&B, f, &L);
  fb = tk_daifugo_fallback(&L);
  TK_EQ(tk_daifugo_apply(&B, f, &fb, NULL), 0, "the fugo's card");
  TK_EQ(B.phase, TK_DAIFUGO_PHASE_PLAY, "play");
  for (int p = 0; p < 5; p++) {
    int want = __builtin_popcountll(B.dealt[p]);
    TK_EQ(__builtin_popcountll(B.g.hand[p]), want, "counts are back to the deal's");
  }
  int p = tk_daifugo_to_act(&B);
  if (!(B.g.hand[p] & dt_cards("D3"))) TK_FAILF("after the exchange, player %d leads without the D3", p);
}

/* The strength order of the transfers: joker, 2 … 3, then ♠ ♥ ♦ ♣. */
static void strongest_order(void) {
  TK_EQ(tk_daifugo_strongest(dt_cards("S2 H2 D2 CA JK"), 2), dt_cards("JK S2"), "joker first");
  TK_EQ(tk_daifugo_strongest(dt_cards("H2 D2 C2 SA"), 2), dt_cards("H2 D2"), "hearts before diamonds");
  TK_EQ(tk_daifugo_strongest(dt_cards("C2 SA"), 1), dt_cards("C2"), "rank before suit");
  TK_EQ(tk_daifugo_strongest(dt_cards("C3 D3"), 1), dt_cards("D3"), "diamonds before clubs");
}

/* Seats: drawn at game numbers 1, 4, 7, … (a pure function of the seed and the game number, so
 * block 1's first game, number 101, keeps the seats drawn at game 100); classes reset. */
static void seats_and_resets(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  tk_daifugo_block_init(&B, &r, 5, 0, NULL);
  uint8_t seats[100][5];
  for (uint32_t g = 0; g < 100; g++) {
    play_to_game(&B, g);
    memcpy(seats[g], B.g.seat_of, 5);
  }
  int changes = 0;
  for (int g = 1; g < 100; g++) {
    int same = !memcmp(seats[g], seats[g - 1], 5);
    int number = g + 1;
    if (number % 3 != 1 && !same) TK_FAILF("seats changed at game number %d", number);
    changes += !same;
  }
  if (changes < 25) TK_FAILF("only %d seat changes in 33 redraws", changes);
  play_to_game(&B, 100);
  TK_EQ(tk_daifugo_is_over(&B), 1, "the block ends after 100 games");
  TK_EQ(tk_daifugo_to_act(&B), -1, "nobody acts");
  TK_EQ(B.totals.games, 100, "games");
  int sum = 0, psum = 0;
  for (int p = 0; p < 5; p++) {
    sum += B.totals.points[p], psum += B.totals.paper_points[p];
    int g = 0;
    for (int k = 0; k < 5; k++) g += B.totals.places[p][k];
    TK_EQ(g, 100, "places per player");
  }
  TK_EQ(sum, 1500, "server points sum to 15 per game");
  TK_EQ(psum, 0, "paper points sum to 0");
  tk_daifugo_block_init(&B2, &r, 5, 1, NULL);
  if (memcmp(B2.g.seat_of, seats[99], 5)) TK_FAILF("game 101 does not keep game 100's seats");
  TK_EQ(B2.phase, TK_DAIFUGO_PHASE_PLAY, "block 1 starts without exchange");
  for (int p = 0; p < 5; p++) TK_EQ(B2.cls[p], TK_DAIFUGO_NOBODY, "classes reset");
  /* Short blocks: the same game numbers give the same cards and seats. */
  tk_daifugo_rules r10 = r;
  r10.block_games = 10;
  tk_daifugo_block_init(&B2, &r10, 5, 3, NULL); /* game number 31 */
  tk_daifugo_rules r1 = r;
  r1.block_games = 1;
  tk_daifugo_block_init(&B, &r1, 5, 30, NULL); /* game number 31 too */
  if (memcmp(B.dealt, B2.dealt, sizeof B.dealt) || memcmp(B.g.seat_of, B2.g.seat_of, 5))
    TK_FAILF("game number 31 dealt differently by two block lengths");
}

/* The same seed and actions give the same bytes; the deal does not depend on the actions. */
static void determinism(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  r.block_games = 20;
  tk_daifugo_block_init(&B, &r, 99, 4, NULL);
  tk_daifugo_block_init(&B2, &r, 99, 4, NULL);
  TK_EQ(memcmp(&B, &B2, sizeof B), 0, "init");
  play_to_game(&B, 20);
  play_to_game(&B2, 20);
  TK_EQ(memcmp(&B, &B2, sizeof B), 0, "after 20 games");
  /* Different actions in game 0, same card order in game 1 (up to who receives which card). */
  tk_daifugo_block_init(&B, &r, 99, 4, NULL);
  tk_daifugo_block_init(&B2, &r, 99, 4, NULL);
  tk_rng rng;
  tk_rng_seed(&rng, 3);
  while (B2.game < 1) {
    int p = tk_daifugo_to_act(&B2);
    tk_daifugo_legal_of(&B2, p, &L);
    tk_daifugo_apply(&B2, p, &L.a[L.n > 1 ? 1 + tk_rng_below(&rng, L.n - 1) : 0], NULL);
  }
  play_to_game(&B, 1);
  /* Seat k after the first card's seat got the same cards in both. */
  for (int k = 0; k < 5; k++) {
    int p = B.g.at_seat[(B.first_seat + k) % 5], q = B2.g.at_seat[(B2.first_seat + k) % 5];
    if (B.dealt[p] != B2.dealt[q]) TK_FAILF("game 1: seat offset %d got different cards", k);
  }
}

/* The view holds the viewer's cards only; the determinisation respects counts and knowledge. */
static void view_and_determinize(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  tk_daifugo_block_init(&B, &r, 21, 0, NULL);
  play_to_game(&B, 1);
  while (B.phase == TK_DAIFUGO_PHASE_EXCHANGE) fallback(&B);
  for (int i = 0; i < 7; i++) fallback(&B);
  tk_daifugo_view v;
  int p = tk_daifugo_to_act(&B);
  tk_daifugo_view_of(&B, p, &v);
  TK_EQ(v.hand, B.g.hand[p], "own hand");
  TK_EQ(v.decision, TK_DAIFUGO_DECIDE_PLAY, "play decision");
  for (int q = 0; q < 5; q++) TK_EQ(v.count[q], __builtin_popcountll(B.g.hand[q]), "counts");
  /* Nothing in the view depends on another player's cards beyond their counts. */
  tk_daifugo_block other = B;
  int q = (p + 1) % 5, s = (p + 2) % 5;
  uint64_t a = other.g.hand[q] & -other.g.hand[q], bcard = other.g.hand[s] & -other.g.hand[s];
  other.g.hand[q] = (other.g.hand[q] & ~a) | bcard;
  other.g.hand[s] = (other.g.hand[s] & ~bcard) | a;
  tk_daifugo_view v2;
  tk_daifugo_view_of(&other, p, &v2);
  if (memcmp(&v, &v2, offsetof(tk_daifugo_view, hist) + sizeof v.hist[0] * v.nhist))
    TK_FAILF("the view changed with other players' hidden cards");
  tk_rng rng;
  tk_rng_seed(&rng, 1);
  for (int i = 0; i < 50; i++) {
    tk_daifugo_game g;
    TK_EQ(tk_daifugo_determinize(&v, &rng, 20, &g), 0, "determinize");
    TK_EQ(g.hand[p], v.hand, "own hand kept");
    for (int k = 0; k < 5; k++) TK_EQ(__builtin_popcountll(g.hand[k]), v.count[k], "counts kept");
    uint64_t known = v.given & ~v.received & ~v.played;
    for (int k = 0; k < 5 && known; k++)
      if (k != p && v.cls[k] == 4 - v.cls[p] && (g.hand[k] & known) != known)
        TK_FAILF("given cards not with their receiver");
    dt_check_game(&g, "determinized");
    /* The same legal actions for the viewer as in the real game. */
    tk_daifugo_legal la;
    tk_daifugo_game_legal(&g, &la);
    tk_daifugo_legal_of(&B, p, &L);
    TK_EQ(la.n, L.n, "legal actions in the determinized game");
    tk_daifugo_playout(&g, &rng);
    TK_EQ(g.over, 1, "a playout ends the game");
  }
}

/* The view's history: every accepted play with its player, the clears after 8-cuts; and the
 * daihinmin's knowledge of the exchange. */
static void view_history(void) {
  tk_daifugo_rules r = tk_daifugo_default_rules();
  tk_daifugo_block_init(&B, &r, 33, 0, NULL);
  play_to_game(&B, 1);
  int dh = -1, d = -1;
  for (int p = 0; p < 5; p++) {
    if (B.cls[p] == 4) dh = p;
    if (B.cls[p] == 0) d = p;
  }
  uint64_t returned = 0;
  while (B.phase == TK_DAIFUGO_PHASE_EXCHANGE) {
    int p = tk_daifugo_to_act(&B);
    tk_daifugo_legal_of(&B, p, &L);
    tk_daifugo_move m = tk_daifugo_fallback(&L);
    if (p == d) returned |= m.cards;
    tk_daifugo_apply(&B, p, &m, NULL);
  }
  tk_daifugo_view v;
  tk_daifugo_view_of(&B, dh, &v);
  TK_EQ(v.received, returned, "the daihinmin knows what the daifugo returned");
  TK_EQ(v.given, tk_daifugo_strongest(B.dealt[dh], 2), "and what it gave");
  /* Play the game with plays only (the first non-pass action), checking the history. */
  int plays = 0, cuts = 0;
  while (B.game == 1) {
    int p = tk_daifugo_to_act(&B);
    tk_daifugo_legal_of(&B, p, &L);
    tk_daifugo_move m = L.a[L.n > 1 ? 1 : 0];
    tk_daifugo_apply(&B, p, &m, NULL);
    if (B.game != 1) break;
    if (m.kind == TK_DAIFUGO_PASS) continue;
    plays++;
    tk_daifugo_view_of(&B, (p + 1) % 5, &v);
    if (v.nhist != plays) {
      TK_FAILF("history holds %d plays after %d", v.nhist, plays);
      break;
    }
    const tk_daifugo_played *h = &v.hist[v.nhist - 1];
    if (h->player != p || h->m.cards != m.cards || h->m.kind != m.kind)
      TK_FAILF("history entry %d: player %d, expected %d", plays, h->player, p);
    int cut = m.kind != TK_DAIFUGO_JOKER1 && (m.rank == TK_DAIFUGO_COL_8 ||
              (m.kind == TK_DAIFUGO_SEQ && m.rank <= 6 && m.rank + m.n - 1 >= 6));
    if (cut && !h->cleared) TK_FAILF("an 8-cut not marked as a clear");
    cuts += cut;
    if ((v.played & m.cards) != m.cards) TK_FAILF("played cards missing from the view");
  }
  if (plays < 10) TK_FAILF("only %d plays", plays);
  printf("\nhistory: %d plays, %d 8-cuts\n", plays, cuts);
}

static void fallback_choices(void) {
  tk_daifugo_game g;
  dt_game(&g, "S5 H9 D3 JK", "", "", "", NULL, 0);
  tk_daifugo_game_legal(&g, &L);
  char buf[64];
  tk_daifugo_move m = tk_daifugo_fallback(&L);
  tk_daifugo_move_str(&m, buf, sizeof buf);
  if (strcmp(buf, "D3")) TK_FAILF("lead fallback '%s', expected D3", buf);
  g.rev = 1;
  tk_daifugo_game_legal(&g, &L);
  m = tk_daifugo_fallback(&L);
  tk_daifugo_move_str(&m, buf, sizeof buf);
  if (strcmp(buf, "H9")) TK_FAILF("lead fallback in revolution '%s', expected H9", buf);
  dt_play(&g, 0, "S5");
  g.turn = 0;
  tk_daifugo_game_legal(&g, &L);
  m = tk_daifugo_fallback(&L);
  TK_EQ(m.kind, TK_DAIFUGO_PASS, "fallback on a non-empty table");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"first game: deal 11/11/11/10/10, the D3 holder leads, no exchange", first_game},
      {"exchange: transfers, the daifugo's two and the fugo's one, refusals", exchange},
      {"transfer order: joker, 2..3, spades hearts diamonds clubs", strongest_order},
      {"seats every 3 game numbers, class reset per block, points", seats_and_resets},
      {"determinism; deals independent of the actions", determinism},
      {"view: own cards only; determinisation", view_and_determinize},
      {"view: the history of plays, the exchange's knowledge", view_history},
      {"fallback choices", fallback_choices},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_block", tests);
}
