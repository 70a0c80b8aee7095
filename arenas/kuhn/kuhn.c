/* arenas/kuhn/kuhn.c — the Kuhn poker engine (taikai/kuhn.h): the deal of a wall, the betting
 * round as a state machine over the history of moves, the payoffs, and the equilibrium family.
 * Every state is reached by a history of at most three moves; the legal moves depend only on it
 * (after a bet, fold or call; otherwise check or bet). */
#include <math.h>
#include <string.h>

#include "taikai/kuhn.h"
#include "taikai/rng.h"

void tk_kuhn_deal(uint64_t seed, uint64_t wall, uint8_t cards[2]) {
  uint8_t deck[TK_KUHN_CARDS] = {TK_KUHN_J, TK_KUHN_Q, TK_KUHN_K};
  tk_rng r;
  tk_rng_seed2(&r, seed, wall);
  for (int i = TK_KUHN_CARDS - 1; i > 0; i--) {
    int j = (int)tk_rng_below(&r, (uint32_t)i + 1);
    uint8_t t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  cards[0] = deck[0];
  cards[1] = deck[1];
}

int tk_kuhn_init(tk_kuhn_game *g, const uint8_t cards[2], tk_error *err) {
  if (cards[0] >= TK_KUHN_CARDS || cards[1] >= TK_KUHN_CARDS || cards[0] == cards[1])
    return tk_error_set(err, TK_EINVAL, -1,
                        "kuhn: cards %d and %d: expected two different cards from 0 (J) to 2 (K)",
                        cards[0], cards[1]);
  memset(g, 0, sizeof *g);
  g->card[0] = cards[0];
  g->card[1] = cards[1];
  return 0;
}

/* Is the player to act facing a bet? (the last move was a bet) */
static int facing_bet(const tk_kuhn_game *g) {
  return g->nhist > 0 && g->hist[g->nhist - 1] == TK_KUHN_BET;
}

int tk_kuhn_to_act(const tk_kuhn_game *g) { return g->over ? -1 : g->nhist % 2; }

void tk_kuhn_view_of(const tk_kuhn_game *g, int seat, tk_kuhn_view *out) {
  memset(out, 0, sizeof *out);
  out->seat = (uint8_t)seat;
  out->card = g->card[seat & 1];
  out->nhist = g->nhist;
  memcpy(out->hist, g->hist, sizeof out->hist);
  out->pot = 2;
  for (int i = 0; i < g->nhist; i++)
    if (g->hist[i] == TK_KUHN_BET || g->hist[i] == TK_KUHN_CALL) out->pot++;
  out->to_call = (uint8_t)facing_bet(g);
}

void tk_kuhn_legal_of(const tk_kuhn_game *g, tk_kuhn_legal *out) {
  memset(out, 0, sizeof *out);
  if (g->over) return;
  out->n = 2;
  out->a[0] = facing_bet(g) ? TK_KUHN_FOLD : TK_KUHN_CHECK;
  out->a[1] = facing_bet(g) ? TK_KUHN_CALL : TK_KUHN_BET;
  out->mask = (uint8_t)(1u << out->a[0] | 1u << out->a[1]);
}

/* Ends the hand: `folder` folded (-1: showdown). Each player put in 1 plus 1 per bet or call. */
static void settle(tk_kuhn_game *g, int folder) {
  int in[2] = {1, 1};
  for (int i = 0; i < g->nhist; i++)
    if (g->hist[i] == TK_KUHN_BET || g->hist[i] == TK_KUHN_CALL) in[i % 2]++;
  int w = folder >= 0 ? 1 - folder : g->card[0] > g->card[1] ? 0 : 1;
  g->over = 1;
  g->winner = (uint8_t)w;
  g->chips[w] = in[1 - w];
  g->chips[1 - w] = -in[1 - w];
}

int tk_kuhn_apply(tk_kuhn_game *g, int seat, const tk_kuhn_action *a, tk_error *err) {
  if (g->over) return tk_error_set(err, TK_ESTATE, -1, "kuhn: the hand is over");
  int to_act = tk_kuhn_to_act(g);
  if (seat != to_act)
    return tk_error_set(err, TK_EILLEGAL, -1, "kuhn: player %d moved, but player %d is to act",
                        seat, to_act);
  tk_kuhn_legal l;
  tk_kuhn_legal_of(g, &l);
  int m = a->move;
  if (m > TK_KUHN_CALL || !(l.mask >> m & 1))
    return tk_error_set(err, TK_EILLEGAL, -1, "kuhn: move %s (%d) is not legal now (%s or %s)",
                        tk_kuhn_move_str(m), m, tk_kuhn_move_str(l.a[0]),
                        tk_kuhn_move_str(l.a[1]));
  g->hist[g->nhist++] = (uint8_t)m;
  if (m == TK_KUHN_FOLD) settle(g, seat);
  else if (m == TK_KUHN_CALL) settle(g, -1);
  else if (m == TK_KUHN_CHECK && g->nhist == 2) settle(g, -1); /* check, check */
  return 0;
}

void tk_kuhn_result_of(const tk_kuhn_game *g, tk_kuhn_result *out) {
  memset(out, 0, sizeof *out);
  out->nhist = g->nhist;
  memcpy(out->hist, g->hist, sizeof out->hist);
  out->showdown = (uint8_t)(g->over && g->hist[g->nhist - 1] != TK_KUHN_FOLD);
  out->cards[0] = out->showdown ? g->card[0] : TK_KUHN_NONE;
  out->cards[1] = out->showdown ? g->card[1] : TK_KUHN_NONE;
  out->winner = g->winner;
  out->chips[0] = g->chips[0];
  out->chips[1] = g->chips[1];
}

const char *tk_kuhn_card_str(int card) {
  static const char *const s[TK_KUHN_CARDS] = {"J", "Q", "K"};
  return card >= 0 && card < TK_KUHN_CARDS ? s[card] : "?";
}

static const char *const move_names[4] = {"check", "bet", "fold", "call"};

const char *tk_kuhn_move_str(int move) { return move >= 0 && move < 4 ? move_names[move] : "?"; }

int tk_kuhn_move_parse(const char *s) {
  for (int m = 0; s && m < 4; m++)
    if (!strcmp(s, move_names[m])) return m;
  return -1;
}

int tk_kuhn_infoset(const tk_kuhn_view *v) {
  if (v->card >= TK_KUHN_CARDS) return -1;
  int situation;
  if (v->nhist == 0) situation = 0;
  else if (v->nhist == 1) situation = v->hist[0] == TK_KUHN_CHECK ? 1 : v->hist[0] == TK_KUHN_BET ? 2 : -1;
  else if (v->nhist == 2 && v->hist[0] == TK_KUHN_CHECK && v->hist[1] == TK_KUHN_BET) situation = 3;
  else situation = -1;
  return situation < 0 ? -1 : 3 * situation + v->card;
}

double tk_kuhn_nash(double alpha, int infoset) {
  const double third = 1.0 / 3.0;
  /* by situation (rows) and card J, Q, K (columns) */
  const double p[4][TK_KUHN_CARDS] = {
      {alpha, 0.0, 3.0 * alpha},   /* player 0 first: bet */
      {third, 0.0, 1.0},           /* player 1 after a check: bet */
      {0.0, third, 1.0},           /* player 1 facing a bet: call */
      {0.0, alpha + third, 1.0},   /* player 0 facing a bet after checking: call */
  };
  if (infoset < 0 || infoset >= TK_KUHN_INFOSETS) return NAN;
  return p[infoset / 3][infoset % 3];
}
