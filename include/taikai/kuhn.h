/* taikai/kuhn.h — Kuhn poker (Kuhn 1950; docs/kuhn.md): the engine and the types that cross the
 * plugin boundary for game "kuhn".
 *
 * Two players, a deck of three cards (J < Q < K). Each antes 1 chip and gets one card; the third
 * card is not used. One betting round: player 0 checks or bets 1; after a check, player 1 checks
 * (showdown for a pot of 2) or bets 1, and player 0 then folds or calls; after a bet, player 1
 * folds or calls (showdown for a pot of 4). At a showdown the higher card takes the pot; a fold
 * gives the pot to the other player. A hand's result is each player's net chips: ±1 or ±2.
 *
 * The deal of wall `w` is a pure function of (seed, w) (tk_kuhn_deal). The engine is pure: no
 * I/O, no allocation, no globals; a tk_kuhn_game is a plain value (copy it with `=`). */
#ifndef TAIKAI_KUHN_H
#define TAIKAI_KUHN_H

#include "agent.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this game's boundary types (info, view, legal, action, result). */
#define TK_KUHN_TYPES_VERSION 1u

enum {
  TK_KUHN_J = 0, TK_KUHN_Q = 1, TK_KUHN_K = 2, /* cards, in rank order */
  TK_KUHN_CARDS = 3,
  TK_KUHN_NONE = 0xff,   /* no card (a card not shown) */
  TK_KUHN_MAX_HIST = 3,  /* actions in a hand: check, bet, call at most */
  TK_KUHN_INFOSETS = 12  /* (card, history) pairs where a player decides: tk_kuhn_infoset */
};

/* The four moves. Which are legal depends only on the history (tk_kuhn_legal_of). */
typedef enum tk_kuhn_move {
  TK_KUHN_CHECK = 0, /* no bet to face: put in nothing */
  TK_KUHN_BET = 1,   /* no bet to face: put in 1 */
  TK_KUHN_FOLD = 2,  /* facing a bet: give up the pot */
  TK_KUHN_CALL = 3   /* facing a bet: put in 1, showdown */
} tk_kuhn_move;

/* Rules: Kuhn poker has no options (the spec's "rules" object must be empty). */
typedef struct tk_kuhn_rules {
  uint32_t reserved; /* 0 */
} tk_kuhn_rules;

/* ------------------------------------------------------------ boundary types */

/* Passed to begin_game. */
typedef struct tk_kuhn_info {
  tk_game_head head; /* seed (re-seed from it), wall, seat (0 acts first), nseats 2 */
  uint8_t card;      /* the agent's card, TK_KUHN_J..TK_KUHN_K */
  uint8_t reserved[7];
} tk_kuhn_info;

/* What a player sees when it must act. */
typedef struct tk_kuhn_view {
  uint8_t seat;                   /* 0: acts first; 1: acts second */
  uint8_t card;                   /* its card */
  uint8_t nhist;                  /* moves so far: 0, 1 or 2 */
  uint8_t hist[TK_KUHN_MAX_HIST]; /* those moves in order (tk_kuhn_move), the rest 0 */
  uint8_t pot;                    /* chips in the pot, antes included: 2 or 3 */
  uint8_t to_call;                /* 1 when facing a bet (fold or call), else 0 (check or bet) */
} tk_kuhn_view;

/* The legal moves: check and bet, or fold and call. */
typedef struct tk_kuhn_legal {
  uint8_t n;    /* 2 */
  uint8_t a[2]; /* the moves, the passive one first (check or fold) */
  uint8_t mask; /* bit m set: move m is legal */
} tk_kuhn_legal;

/* The agent's choice. */
typedef struct tk_kuhn_action {
  uint8_t move; /* tk_kuhn_move */
} tk_kuhn_action;

/* Passed to end_game (the same struct to both players). */
typedef struct tk_kuhn_result {
  uint8_t cards[2];               /* both cards after a showdown; TK_KUHN_NONE after a fold */
  uint8_t nhist;                  /* moves of the hand: 2 or 3 */
  uint8_t hist[TK_KUHN_MAX_HIST]; /* the moves in order */
  uint8_t showdown;               /* 1: the cards were compared; 0: someone folded */
  uint8_t winner;                 /* the player who took the pot */
  int32_t chips[2];               /* net chips of players 0 and 1 (sum 0): ±1 or ±2 */
} tk_kuhn_result;

#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(sizeof(tk_kuhn_info) == 40, "kuhn types: bump TK_KUHN_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_kuhn_view) == 8, "kuhn types: bump TK_KUHN_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_kuhn_legal) == 4, "kuhn types: bump TK_KUHN_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_kuhn_action) == 1, "kuhn types: bump TK_KUHN_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_kuhn_result) == 16, "kuhn types: bump TK_KUHN_TYPES_VERSION");
TK_STATIC_ASSERT(offsetof(tk_kuhn_result, chips) == 8, "kuhn types");
#endif

/* ------------------------------------------------------------ engine */

/* A hand in progress: a plain value. Fields are read-only to callers. */
typedef struct tk_kuhn_game {
  uint8_t card[2];                /* player 0's and player 1's cards, distinct */
  uint8_t nhist;
  uint8_t hist[TK_KUHN_MAX_HIST];
  uint8_t over;                   /* 1 once folded or shown down */
  uint8_t winner;                 /* once over: who took the pot */
  int32_t chips[2];               /* once over: net chips */
} tk_kuhn_game;

/* Writes the cards of wall `wall` of tournament seed `seed`: the deck J Q K shuffled by
 * Fisher-Yates (i from 2 down to 1, j = tk_rng_below(i + 1)) with a tk_rng seeded by
 * tk_rng_seed2(seed, wall); player 0 gets deck[0], player 1 deck[1]. */
TK_API void tk_kuhn_deal(uint64_t seed, uint64_t wall, uint8_t cards[2]);

/* Starts a hand with these cards. Returns 0, or TK_EINVAL (a card out of range, or both the
 * same) naming the cards in `err` (may be NULL). */
TK_API int tk_kuhn_init(tk_kuhn_game *g, const uint8_t cards[2], tk_error *err);

/* The player to act, or -1 once the hand is over. */
TK_API int tk_kuhn_to_act(const tk_kuhn_game *g);

/* The view of player `seat` (meaningful when it is to act) and the legal moves of the player to
 * act (n = 0 once over). */
TK_API void tk_kuhn_view_of(const tk_kuhn_game *g, int seat, tk_kuhn_view *out);
TK_API void tk_kuhn_legal_of(const tk_kuhn_game *g, tk_kuhn_legal *out);

/* Plays `a->move` for player `seat`. Returns 0; TK_ESTATE if the hand is over; TK_EILLEGAL if
 * `seat` is not to act or the move is not legal now (the hand unchanged; `err` names both). */
TK_API int tk_kuhn_apply(tk_kuhn_game *g, int seat, const tk_kuhn_action *a, tk_error *err);

/* The result (meaningful once over). */
TK_API void tk_kuhn_result_of(const tk_kuhn_game *g, tk_kuhn_result *out);

/* "J", "Q", "K" ("?" for anything else). */
TK_API const char *tk_kuhn_card_str(int card);
/* "check", "bet", "fold", "call" ("?" for anything else). */
TK_API const char *tk_kuhn_move_str(int move);
/* The move named `s` ("check" ...), or -1. */
TK_API int tk_kuhn_move_parse(const char *s);

/* The information set of a decision, 0..TK_KUHN_INFOSETS-1: 3 * situation + card, where the
 * situation is 0 (player 0, first move), 1 (player 1 after a check), 2 (player 1 facing a bet),
 * 3 (player 0 facing a bet after checking). -1 for a view that is no decision. */
TK_API int tk_kuhn_infoset(const tk_kuhn_view *v);

/* The equilibrium family (Kuhn 1950; docs/kuhn.md, "The equilibrium"): the probability that the
 * player of information set `infoset` takes the aggressive move (bet, or call when facing a
 * bet) with parameter alpha in [0, 1/3]. Player 0 with J bets with probability alpha; with Q
 * checks, and calls a bet with probability alpha + 1/3; with K bets with probability 3 alpha
 * and calls. Player 1 with K bets and calls; with Q checks and calls with probability 1/3; with
 * J bets after a check with probability 1/3 and folds to a bet. Player 0's expected value is
 * -1/18 for every alpha. Returns NaN for an infoset out of range. */
TK_API double tk_kuhn_nash(double alpha, int infoset);

#ifdef __cplusplus
}
#endif
#endif
