/* taikai/daifugo.h — five-player daifugo under the UECda reference server's rules (tndhms 0.29;
 * docs/daifugo.md): the engine, and the types that cross the plugin boundary for game
 * "daifugo". Choices the spec leaves open are listed in docs/daifugo.md.
 *
 * Cards are bits of one 64-bit word laid out as the UECda table: bit 16*row + column, rows 0..3 the
 * suits ♠ ♥ ♦ ♣, columns 1..13 the ranks 3 4 … K A 2; the joker is bit 15 (TK_DAIFUGO_JOKER).
 * Columns 0 and 14 (below 3, above 2) hold no card; only a joker placed in a sequence stands there.
 *
 * Two levels, both plain values (no pointers, no allocation, no I/O; copy with `=`):
 * - tk_daifugo_game: one game in play (hands, table, passes, finishing order). MC agents copy it
 *   and simulate with tk_daifugo_game_legal / tk_daifugo_game_play / tk_daifugo_playout.
 * - tk_daifugo_block: the unit of a tournament, a block of games from a class reset (deal, the
 *   automatic transfers, the daifugo/fugo returns, play, the next game's deal, …) as ONE state
 *   machine driven by tk_daifugo_to_act / tk_daifugo_legal_of / tk_daifugo_apply. Every card order
 *   and random choice is a pure function of (seed, global game number).
 *
 * Players vs seats: a block has five players (ids 0..4, fixed for the block: the referee maps
 * agents to them); seats are table positions (play goes by ascending seat), re-drawn every
 * `seat_period` games. Every function below takes and returns player ids. */
#ifndef TAIKAI_DAIFUGO_H
#define TAIKAI_DAIFUGO_H

#include <stddef.h>

#include "agent.h"
#include "common.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_DAIFUGO_TYPES_VERSION 1u

enum {
  TK_DAIFUGO_PLAYERS = 5,
  TK_DAIFUGO_CARDS = 53,
  TK_DAIFUGO_MAX_LEGAL = 512, /* legal actions of one decision: the worst hand (11 consecutive
                                 cards of one suit and the joker, on a new table) has 366 */
  TK_DAIFUGO_MAX_HIST = 64,   /* accepted plays of one game (each uses >= 1 of 53 cards) */
  TK_DAIFUGO_MAX_BLOCK = 1000,/* games per block, at most */
  TK_DAIFUGO_NOBODY = 0xff,
  TK_DAIFUGO_NOCELL = 0xff
};

#define TK_DAIFUGO_JOKER (UINT64_C(1) << 15)
#define TK_DAIFUGO_SUIT_LANE UINT64_C(0x3ffe) /* columns 1..13 of one row */
#define TK_DAIFUGO_REAL UINT64_C(0x3ffe3ffe3ffe3ffe)
#define TK_DAIFUGO_DECK (TK_DAIFUGO_REAL | TK_DAIFUGO_JOKER)
/* The card of `row` (0 ♠, 1 ♥, 2 ♦, 3 ♣) and `col` (1 = 3 … 13 = 2). */
#define TK_DAIFUGO_CARD(row, col) (UINT64_C(1) << (16 * (row) + (col)))
#define TK_DAIFUGO_CELL(row, col) ((uint8_t)(16 * (row) + (col)))
#define TK_DAIFUGO_COL_8 6 /* the column of the eights */

/* ------------------------------------------------------------ rules */

/* Rule options (the tournament spec's "rules" object). All fields are plain integers. */
typedef struct tk_daifugo_rules {
  uint32_t block_games; /* games from one class reset to the next: 100 (1..TK_DAIFUGO_MAX_BLOCK) */
  uint32_t seat_period; /* seats re-drawn at game numbers g with g % period == 1: 3 (0 = never
                           after the draw of game 1; 1 = every game) */
  uint32_t sennichite;  /* consecutive passes that end a game with random places: 20 (2..255) */
  uint32_t reserved;
} tk_daifugo_rules;

/* The reference server's rules: blocks of 100, seats every 3 games, 20-pass sennichite. */
TK_API tk_daifugo_rules tk_daifugo_default_rules(void);
/* Returns 0, or TK_ERANGE naming the field and the value. */
TK_API int tk_daifugo_rules_check(const tk_daifugo_rules *r, tk_error *err);

/* ------------------------------------------------------------ boundary types (daifugo types version 1) */

enum tk_daifugo_kind {
  TK_DAIFUGO_PASS = 0, /* pass (legal in every play decision) */
  TK_DAIFUGO_SINGLE,   /* one card */
  TK_DAIFUGO_GROUP,    /* 2..5 cards of one rank, the joker may join */
  TK_DAIFUGO_SEQ,      /* 3+ consecutive cards of one suit, the joker may fill one cell */
  TK_DAIFUGO_JOKER1,   /* the joker alone */
  TK_DAIFUGO_GIVE      /* exchange: give one card (`cards` holds it) */
};

/* One action. Two actions are the same iff kind, cards and jcell are equal; the other fields are
 * derived from them. */
typedef struct tk_daifugo_move {
  uint64_t cards; /* the cards leaving the hand, the joker's bit included when it is used */
  uint8_t kind;   /* enum tk_daifugo_kind */
  uint8_t n;      /* cards in the play (the joker counted) */
  uint8_t rank;   /* SINGLE, GROUP: column 1..13; SEQ: lowest column 0..14; else 0 */
  uint8_t suits;  /* suit set, ♠ 1 ♥ 2 ♦ 4 ♣ 8, the joker's cell counted; 16 = a five-card group's
                     joker (row 4); 0 for PASS, JOKER1, GIVE */
  uint8_t jcell;  /* GROUP, SEQ: the joker's cell 16*row + col, else TK_DAIFUGO_NOCELL */
  uint8_t reserved[3];
} tk_daifugo_move;

enum { TK_DAIFUGO_DECIDE_NONE = 0, TK_DAIFUGO_DECIDE_PLAY, TK_DAIFUGO_DECIDE_EXCHANGE };

/* The legal actions of one decision, each listed exactly once. Play decisions: a[0] is the pass,
 * then the plays. Exchange decisions: one GIVE per card held (one card at a time: the daifugo
 * decides twice, then the fugo once). */
typedef struct tk_daifugo_legal {
  uint16_t n;       /* number of actions; 0 if the player has no decision */
  uint8_t player;   /* who decides */
  uint8_t decision; /* TK_DAIFUGO_DECIDE_* */
  uint8_t lead;     /* play decision on an empty table */
  uint8_t rev;      /* revolution in effect (orders the fallback's lowest single) */
  uint8_t reserved[2];
  tk_daifugo_move a[TK_DAIFUGO_MAX_LEGAL];
} tk_daifugo_legal;

/* One accepted play of the current game. */
typedef struct tk_daifugo_played {
  tk_daifugo_move m;
  uint8_t player;
  uint8_t cleared;  /* 1: the table cleared right after it (8-cut, ♠3 over the joker) */
  uint8_t reserved[6];
} tk_daifugo_played;

/* What one player may know at a decision. */
typedef struct tk_daifugo_view {
  uint8_t player;           /* the viewer */
  uint8_t decision;         /* TK_DAIFUGO_DECIDE_* of the viewer now */
  uint8_t to_give;          /* exchange: cards the viewer still gives (2, 1 or 0) */
  uint8_t turn;             /* player to act in play, TK_DAIFUGO_NOBODY in the exchange */
  uint8_t owner;            /* player whose play is on the table (or who played last) */
  uint8_t passed;           /* bit p: player p passed since the last clear */
  uint8_t out;              /* bit p: player p has gone out */
  uint8_t nout;             /* players out */
  uint8_t rev;              /* 1: revolution in effect */
  uint8_t lock;             /* 1: suits locked */
  uint8_t npass;            /* consecutive passes (the sennichite counter) */
  uint8_t nhist;            /* entries in hist */
  uint8_t count[5];         /* cards held by each player */
  uint8_t seat_of[5];       /* seat of each player */
  uint8_t cls[5];           /* each player's class from the previous game (0 daifugo … 4
                               daihinmin), TK_DAIFUGO_NOBODY in the first game of a block */
  uint8_t order[5];         /* players by finishing place so far (nout entries) */
  uint32_t game;            /* game index within the block, 0-based */
  uint32_t reserved2;
  uint64_t hand;            /* the viewer's cards */
  uint64_t played;          /* every card played this game */
  uint64_t given;           /* exchange: cards the viewer gave (known to be with the receiver) */
  uint64_t received;        /* exchange: cards the viewer received */
  tk_daifugo_move top;      /* the play on the table; kind PASS when the table is empty */
  tk_daifugo_played hist[TK_DAIFUGO_MAX_HIST]; /* this game's accepted plays, in order */
} tk_daifugo_view;

/* Passed to begin_game. */
typedef struct tk_daifugo_info {
  tk_game_head head;        /* head.seat holds the agent's player id */
  uint32_t types_version;   /* TK_DAIFUGO_TYPES_VERSION */
  uint32_t block_games;     /* rules */
  uint32_t seat_period;     /* rules */
  uint32_t sennichite;      /* rules */
  uint64_t block;           /* block index of the tournament */
  uint32_t game;            /* game index within the block */
  uint32_t reserved;
} tk_daifugo_info;

#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(sizeof(tk_daifugo_move) == 16, "daifugo types v1: bump TK_DAIFUGO_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_daifugo_legal) == 8 + 16 * TK_DAIFUGO_MAX_LEGAL, "daifugo types v1");
TK_STATIC_ASSERT(sizeof(tk_daifugo_played) == 24, "daifugo types v1");
TK_STATIC_ASSERT(offsetof(tk_daifugo_view, game) == 32, "daifugo types v1");
TK_STATIC_ASSERT(offsetof(tk_daifugo_view, hand) == 40, "daifugo types v1");
TK_STATIC_ASSERT(offsetof(tk_daifugo_view, hist) == 88, "daifugo types v1");
TK_STATIC_ASSERT(sizeof(tk_daifugo_view) == 88 + 24 * TK_DAIFUGO_MAX_HIST, "daifugo types v1");
TK_STATIC_ASSERT(sizeof(tk_daifugo_info) == 64, "daifugo types v1: bump TK_DAIFUGO_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_daifugo_rules) == 16, "daifugo types v1");
#endif

/* ------------------------------------------------------------ one game */

/* One game in play. Invariants: the five hands, `played` are disjoint and their union is the
 * deck (53 cards); `turn` holds cards and has not passed unless the game is over. */
typedef struct tk_daifugo_game {
  uint64_t hand[5];      /* by player */
  uint64_t played;       /* cards played this game */
  tk_daifugo_move top;   /* the play on the table; kind PASS when empty */
  tk_rng rng;            /* the sennichite draw */
  uint8_t seat_of[5];    /* seat of each player */
  uint8_t at_seat[5];    /* player at each seat */
  uint8_t turn;          /* player to act; TK_DAIFUGO_NOBODY when over */
  uint8_t owner;         /* player whose play is on the table (or who played last) */
  uint8_t passed;        /* players who passed since the last clear (bit per player) */
  uint8_t out;           /* players out (bit per player) */
  uint8_t nout;          /* players out */
  uint8_t order[5];      /* players by place; all five once over */
  uint8_t rev;           /* revolution */
  uint8_t lock;          /* suit lock */
  uint8_t npass;         /* consecutive passes */
  uint8_t sennichite;    /* the pass count that ends the game (rules) */
  uint8_t over;          /* 1: every place assigned */
  uint8_t by_sennichite; /* 1: the game ended by sennichite */
  uint8_t cleared;       /* 1: the last action cleared the table (8-cut, ♠3, all passed) */
  uint8_t reserved[3];
} tk_daifugo_game;

/* Sets up a game from five hands (any split of the deck; `seat_of` a permutation), with `leader`
 * to lead and `sennichite` passes ending it. Returns 0 or TK_EINVAL (hands not a partition of the
 * deck, bad seats or leader, fewer than two players holding cards). Players with no cards are
 * out, in id order, before anyone else. */
TK_API int tk_daifugo_game_setup(tk_daifugo_game *g, const uint64_t hand[5],
                                 const uint8_t seat_of[5], int leader, int sennichite,
                                 uint64_t rng_seed, tk_error *err);
/* Lists the legal actions of g->turn (pass first); returns their number (0 if over). */
TK_API int tk_daifugo_game_legal(const tk_daifugo_game *g, tk_daifugo_legal *l);
/* 1 if g->turn has a legal play other than the pass (tk_daifugo_game_legal would list more than
 * the pass), 0 if the pass is forced or the game is over; without listing the plays. */
TK_API int tk_daifugo_game_can_play(const tk_daifugo_game *g);
/* Plays `m` for g->turn. `m` must be one of tk_daifugo_game_legal's actions (not checked: the
 * hot path of simulations). */
TK_API void tk_daifugo_game_play(tk_daifugo_game *g, const tk_daifugo_move *m);
/* Plays `m` for `player` after checking it: TK_ESTATE if it is not that player's turn,
 * TK_EILLEGAL if the move is not legal; the game is then unchanged. */
TK_API int tk_daifugo_game_apply(tk_daifugo_game *g, int player, const tk_daifugo_move *m,
                                 tk_error *err);
/* Draws g->turn's move of the paper's playout policy: uniformly among the legal plays (the pass
 * excluded), the pass only when nothing else is legal. The same distribution as drawing from
 * tk_daifugo_game_legal's list, without listing every play. `g` must not be over. */
TK_API void tk_daifugo_random_play(const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *m);
/* Plays the game to its end with uniformly random non-pass plays (a pass only when nothing else
 * is legal), as the paper's playouts do. The game is left byte for byte as a loop of
 * tk_daifugo_random_play and tk_daifugo_game_play from the same `r` leaves it, only faster
 * (the players who must pass are passed in one step). */
TK_API void tk_daifugo_playout(tk_daifugo_game *g, tk_rng *r);
/* The same, stopping as soon as `player` has gone out (its place is then known) or the game is
 * over; a `player` outside 0..4 (e.g. -1) plays to the end, one already out changes nothing.
 * Stopped, the game is left as that loop leaves it right after the play that took `player` out
 * (g->turn the next player to act). */
TK_API void tk_daifugo_playout_until(tk_daifugo_game *g, tk_rng *r, int player);
/* Points of a finishing place 0..4: server scale 5..1 and the paper's 2..-2. */
static inline int tk_daifugo_points(int place) { return 5 - place; }
static inline int tk_daifugo_paper_points(int place) { return 2 - place; }
/* Place 0..4 of `player` in a finished game. */
TK_API int tk_daifugo_place_of(const tk_daifugo_game *g, int player);
/* Builds a game consistent with `v` (a play decision's view): the viewer's hand as is, the
 * cards it gave in the exchange (if not played) with their receiver, every other unseen card
 * dealt at random to the other players respecting their counts. A card the viewer both received
 * and gave back is dealt at random too, though it is known to be with its receiver: the draws
 * this function makes are part of the daifugo_mc / daifugo_mcl plugins' reproducible decisions,
 * so it stays so until those plugins change version (they place such a card themselves:
 * plugins/daifugo_mc/dmc.c, place_known). Returns 0 or TK_EINVAL. */
TK_API int tk_daifugo_determinize(const tk_daifugo_view *v, tk_rng *r, int sennichite,
                                  tk_daifugo_game *out);

/* ------------------------------------------------------------ the block */

enum { TK_DAIFUGO_PHASE_EXCHANGE = 0, TK_DAIFUGO_PHASE_PLAY, TK_DAIFUGO_PHASE_OVER };

/* Totals over the games finished so far in the block, per player. */
typedef struct tk_daifugo_totals {
  int32_t points[5];        /* server scale, 5 … 1 per game */
  int32_t paper_points[5];  /* the paper's scale, 2 … -2 per game */
  int32_t places[5][5];     /* places[p][k]: games player p finished in place k */
  int32_t revolutions[5];   /* revolutions made */
  int32_t passes[5];        /* passes made */
  int32_t plays[5];         /* accepted plays */
  int32_t sennichite;       /* games ended by sennichite */
  int32_t games;            /* games finished */
} tk_daifugo_totals;

typedef struct tk_daifugo_block {
  tk_daifugo_rules rules;
  uint64_t seed;
  uint64_t block;           /* block index */
  uint32_t game;            /* game index within the block (== rules.block_games when over) */
  uint8_t phase;            /* TK_DAIFUGO_PHASE_* */
  uint8_t giver;            /* exchange: the player giving now */
  uint8_t to_give;          /* exchange: cards the giver still gives */
  uint8_t first_seat;       /* the seat that received the first card of this game's deal */
  uint8_t cls[5];           /* previous game's classes, TK_DAIFUGO_NOBODY in game 0 */
  uint8_t nhist;
  uint8_t reserved[2];
  uint64_t dealt[5];        /* each player's hand as dealt (before any transfer) */
  uint64_t given[5];        /* exchange: cards each player gave */
  uint64_t received[5];     /* exchange: cards each player received */
  tk_daifugo_game g;        /* the game in play (or the last one, when over) */
  tk_daifugo_played hist[TK_DAIFUGO_MAX_HIST];
  tk_daifugo_totals totals;
  uint8_t places[TK_DAIFUGO_MAX_BLOCK][5]; /* places[game][player] of finished games */
} tk_daifugo_block;

/* Starts block `block` of a tournament with `seed`: game 0's deal (no exchange in it), ready for
 * its first play. Returns 0 or TK_ERANGE (rules). */
TK_API int tk_daifugo_block_init(tk_daifugo_block *b, const tk_daifugo_rules *rules, uint64_t seed,
                                 uint64_t block, tk_error *err);
/* The player who must decide now, or -1 when the block is over. */
TK_API int tk_daifugo_to_act(const tk_daifugo_block *b);
TK_API int tk_daifugo_is_over(const tk_daifugo_block *b);
/* Fills `v` with what `player` may know now. Returns 0 or TK_EINVAL. */
TK_API int tk_daifugo_view_of(const tk_daifugo_block *b, int player, tk_daifugo_view *v);
/* Lists `player`'s legal actions (none unless it is to act); returns their number. */
TK_API int tk_daifugo_legal_of(const tk_daifugo_block *b, int player, tk_daifugo_legal *l);
/* Applies `player`'s action: refused with TK_ESTATE (not to act) or TK_EILLEGAL (not among the
 * legal actions; `err` names it), the block unchanged. A finished game is recorded in `totals`
 * and `places`, and the next game is dealt at once (transfers included). */
TK_API int tk_daifugo_apply(tk_daifugo_block *b, int player, const tk_daifugo_move *m,
                            tk_error *err);
/* The referee's deterministic fallback: the pass in a play decision on a non-empty table; the
 * lowest single (in the current order, the joker last) on a new table; the lowest card (normal
 * order, the joker last) in the exchange. `l` must hold at least one action. */
TK_API tk_daifugo_move tk_daifugo_fallback(const tk_daifugo_legal *l);
/* The index of the entry of `l` that names the same move as `m` (the same kind, cards and
 * joker cell, as tk_daifugo_apply matches them), or -1 if none does. */
TK_API int tk_daifugo_legal_find(const tk_daifugo_legal *l, const tk_daifugo_move *m);
/* Fills the begin_game info of `player` for the game now in play (or about to start its
 * exchange): head (abi_version, struct_size, seed = `agent_seed`, wall = the global game number,
 * seat = the player id, nseats 5), the rules, the block and game index. */
TK_API void tk_daifugo_info_fill(const tk_daifugo_block *b, int player, uint64_t agent_seed,
                                 tk_daifugo_info *info);
/* The global game number (1-based) of game `game` of `block`. */
TK_API uint64_t tk_daifugo_game_number(const tk_daifugo_rules *r, uint64_t block, uint32_t game);
/* The `k` strongest cards of `hand` by the server's exchange order (joker, then 2 … 3, ♠ ♥ ♦ ♣). */
TK_API uint64_t tk_daifugo_strongest(uint64_t hand, int k);

/* ------------------------------------------------------------ notation */

/* Cards: suit S H D C then rank 3 4 5 6 7 8 9 T J Q K A 2 ("S3", "HT"); the joker "JK". A joker
 * standing for a cell is "JK" followed by the cell in brackets: "JK[S5]"; row 4 (a five-card
 * group) is written X, columns 0 and 14 as '<' and '>' ("JK[S<]"). A move is its cards separated
 * by spaces ("S3 S4 JK[S5]"), "pass", or "give C3". */
TK_API int tk_daifugo_card_str(uint64_t card, char *buf, size_t size);
/* Writes the cards of `set` (ascending bit order, the joker as "JK"); returns the length. */
TK_API int tk_daifugo_cards_str(uint64_t set, char *buf, size_t size);
TK_API int tk_daifugo_move_str(const tk_daifugo_move *m, char *buf, size_t size);
/* Parses cards ("S3 HT JK"); TK_EPARSE names the character and its position. */
TK_API int tk_daifugo_cards_parse(const char *text, uint64_t *set, tk_error *err);
/* Parses a move and derives its kind, n, rank and suits. TK_EPARSE names the character and its
 * position; a well-formed set of cards that is no play (e.g. "S3 H4") is TK_EILLEGAL. */
TK_API int tk_daifugo_move_parse(const char *text, tk_daifugo_move *m, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
