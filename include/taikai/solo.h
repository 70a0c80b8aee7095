/* taikai/solo.h — one-player mahjong (Kaizu 2015; docs/solo-agents.md): the engine and the
 * types that cross the plugin boundary for game "solo".
 *
 * A game: the wall (136 tiles, 34 kinds x 4, no red fives) is a pure function of
 * (seed, wall index). The player holds wall[0..12], then draws wall[13], wall[14], ... one per
 * turn, at most `draws` (18) times. After each draw the 14 tiles are checked: a complete hand
 * wins (closed tsumo, dealer, East round, TK_RULES_SOLO points) and the game ends; otherwise the
 * player discards one tile. After the last draw's discard the game ends without a win.
 * The one dora indicator is wall[TK_SOLO_DORA_POS], the last tile of the wall, which is never
 * drawn (draws reach at most wall[13 + 17] = wall[30]).
 *
 * The engine is pure: no I/O, no allocation, no globals; a tk_solo_game is a plain value that
 * may be copied with `=`, which is how a Monte Carlo agent simulates (tk_solo_from_view builds
 * a game from its view and a guessed future). */
#ifndef TAIKAI_SOLO_H
#define TAIKAI_SOLO_H

#include "agent.h"
#include "common.h"
#include "mahjong.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TK_SOLO_WALL_TILES = 136,
  TK_SOLO_HAND_TILES = 13,
  TK_SOLO_MAX_DRAWS = 18,
  TK_SOLO_DORA_POS = 135 /* index of the dora indicator in the wall: its last tile */
};

/* Rule options (the spec's "rules" object). */
typedef struct tk_solo_rules {
  uint8_t draws; /* draws per game, 1..TK_SOLO_MAX_DRAWS (default 18) */
  uint8_t dora;  /* 1: one dora indicator (default), 0: no dora */
} tk_solo_rules;

/* The default rules: 18 draws, one dora indicator. */
TK_API tk_solo_rules tk_solo_default_rules(void);

/* ------------------------------------------------------------ boundary types */

/* The version of this game's boundary types (info, view, legal, action, result); a plugin
 * declares the one it was built against and the referee refuses another. */
#define TK_SOLO_TYPES_VERSION 2u

/* Passed to begin_game. */
typedef struct tk_solo_info {
  tk_game_head head;      /* seed (re-seed from it), wall, seat 0, nseats 1 */
  uint8_t draws;          /* draws in this game */
  uint8_t dora_indicator; /* indicator kind, or TK_TILE_NONE without dora */
  uint8_t reserved[6];
} tk_solo_info;

/* What the player sees when it must discard. */
typedef struct tk_solo_view {
  uint8_t hand[TK_KINDS];     /* counts of the 14 held tiles, the drawn tile included */
  uint8_t unseen[TK_KINDS];   /* 4 - hand - own discards - dora indicator, per kind */
  uint8_t discards[TK_SOLO_MAX_DRAWS]; /* own discards in order (kinds) */
  uint8_t ndiscards;          /* = turn - 1 */
  uint8_t drawn;              /* the kind just drawn */
  uint8_t turn;               /* draws taken so far, 1..draws */
  uint8_t draws;              /* draws in the game: turn == draws is the last discard */
  uint8_t dora_indicator;     /* indicator kind, or TK_TILE_NONE */
  uint8_t reserved[5];
} tk_solo_view;

/* The legal discards: every kind held. */
typedef struct tk_solo_legal {
  uint64_t mask;       /* bit k set: kind k may be discarded */
  uint8_t n;           /* number of kinds */
  uint8_t kinds[14];   /* the kinds, ascending */
  uint8_t reserved[1];
} tk_solo_legal;

/* The agent's choice. */
typedef struct tk_solo_action {
  uint8_t discard; /* a kind held */
} tk_solo_action;

/* Passed to end_game. */
typedef struct tk_solo_result {
  uint8_t won;    /* 1 if the hand completed */
  uint8_t turn;   /* draws taken (the winning draw if won) */
  uint8_t han;    /* han with dora (0 for yakuman or no win) */
  uint8_t fu;     /* fu (0 for yakuman or no win) */
  uint8_t yakuman;/* number of yakuman */
  uint8_t reserved[3];
  int32_t points; /* TK_RULES_SOLO points, 0 without a win */
} tk_solo_result;

#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(sizeof(tk_solo_info) == 40, "solo types: bump TK_SOLO_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_solo_view) == 96, "solo types: bump TK_SOLO_TYPES_VERSION");
TK_STATIC_ASSERT(offsetof(tk_solo_view, discards) == 68, "solo types");
TK_STATIC_ASSERT(offsetof(tk_solo_view, drawn) == 87, "solo types");
TK_STATIC_ASSERT(sizeof(tk_solo_legal) == 24, "solo types: bump TK_SOLO_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_solo_action) == 1, "solo types: bump TK_SOLO_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_solo_result) == 12, "solo types: bump TK_SOLO_TYPES_VERSION");
#endif

/* ------------------------------------------------------------ engine */

/* A game in progress: a plain value (copy it to branch). Fields are read-only to callers. */
typedef struct tk_solo_game {
  uint8_t wall[TK_SOLO_WALL_TILES]; /* kinds; wall[13 + i] is draw i+1 */
  uint8_t hand[TK_KINDS];           /* held counts (14 while awaiting a discard) */
  uint8_t unseen[TK_KINDS];         /* as in tk_solo_view */
  uint8_t discards[TK_SOLO_MAX_DRAWS];
  uint8_t ndiscards;
  uint8_t drawn;
  uint8_t turn;
  uint8_t draws;
  uint8_t dora_indicator; /* kind or TK_TILE_NONE */
  uint8_t over;           /* 1 once won or out of draws */
  uint8_t won;
  uint8_t han, fu, yakuman;
  int32_t points;
} tk_solo_game;

/* Writes wall `index` of tournament seed `seed`: the 136 kinds (4 of each) shuffled by
 * Fisher-Yates (i from 135 down to 1, j = tk_rng_below(i + 1)) with a tk_rng seeded by
 * tk_rng_seed2(seed, index). A pure function of (seed, index). */
TK_API void tk_solo_wall(uint64_t seed, uint64_t index, uint8_t wall[TK_SOLO_WALL_TILES]);

/* Starts a game on `wall` (136 kinds, 4 of each): deals 13 tiles, sets the dora indicator,
 * draws the first tile and checks for a win. `rules` may be NULL (defaults). Returns 0, or
 * TK_EINVAL (bad wall or rules; detail in `err`, which may be NULL). */
TK_API int tk_solo_init(tk_solo_game *g, const uint8_t wall[TK_SOLO_WALL_TILES],
                        const tk_solo_rules *rules, tk_error *err);

/* Builds a game equivalent to the one `view` was taken from, whose future draws are
 * `future[0..nfuture-1]` (kinds; further draws, if the game needs them, end it without a win).
 * For simulations: the tiles need not be consistent with `unseen`. Returns 0 or TK_EINVAL. */
TK_API int tk_solo_from_view(tk_solo_game *g, const tk_solo_view *view, const uint8_t *future,
                             int nfuture, tk_error *err);

/* Is the game over (won, or no draws left)? */
static inline int tk_solo_is_over(const tk_solo_game *g) { return g->over; }

/* The player's view; only meaningful while the game is not over. */
TK_API void tk_solo_view_of(const tk_solo_game *g, tk_solo_view *out);
/* The legal discards (none once the game is over). */
TK_API void tk_solo_legal_of(const tk_solo_game *g, tk_solo_legal *out);

/* Discards `a->discard`, then draws the next tile and checks for a win, or ends the game after
 * the last draw. Returns 0; TK_ESTATE if the game is over; TK_EILLEGAL if the kind is not held
 * (the game is unchanged). */
TK_API int tk_solo_apply(tk_solo_game *g, const tk_solo_action *a, tk_error *err);

/* Discards kind `k` without checks (simulation hot path): the caller guarantees the game is
 * not over and `k` is held. */
TK_API void tk_solo_discard_fast(tk_solo_game *g, int k);

/* The result (meaningful once over). */
TK_API void tk_solo_result_of(const tk_solo_game *g, tk_solo_result *out);

/* Scores the complete 14-tile hand `hand` won by drawing `win_kind` with dora indicator
 * `dora_indicator` (or TK_TILE_NONE), under TK_RULES_SOLO (dealer, East round, closed tsumo).
 * Returns the points (> 0), or a negative TK_E code if the hand is not complete. `out` may be
 * NULL. For agents that evaluate hypothetical hands. */
TK_API int tk_solo_score(const uint8_t hand[TK_KINDS], int win_kind, int dora_indicator,
                         tk_score *out);

#ifdef __cplusplus
}
#endif
#endif
