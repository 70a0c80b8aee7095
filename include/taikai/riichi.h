/* taikai/riichi.h — four-player riichi mahjong under Tenhou rules (docs/riichi.md):
 * the engine, and the types that cross the plugin boundary for game "riichi".
 *
 * A game is a plain value (tk_riichi_game, copy it with `=` to branch): no pointers, no
 * allocation, no I/O. It advances by decisions: tk_riichi_to_act() names the seat that must
 * decide, tk_riichi_legal_of() lists its legal actions, tk_riichi_apply() plays one. Between
 * hands the game waits in TK_RIICHI_PHASE_DEAL for tk_riichi_deal() (with the generated wall of
 * the hand, or a caller's wall). Everything that happens is reported as tk_riichi_event values
 * to an optional caller-provided sink (the mjai-style log is built from them).
 *
 * Seats are 0..3 in turn order; seat 0 is the first dealer (起家). Hand number `round` counts
 * the hands by dealer rotation: 0 = East 1, 3 = East 4, 4 = South 1, ... 11 = West 4.
 *
 * Wall layout (wall[0..135], tk_tile values with TK_TILE_RED on the three red fives):
 *   wall[13*i .. 13*i+12]  the starting hand of seat (dealer + i) % 4, i = 0..3
 *   wall[52 ..]            the live wall, drawn in order; it ends at wall[121 - kans made]
 *   wall[122 .. 125]       replacement (rinshan) tiles, drawn in order after each kan
 *   wall[126 .. 130]       dora indicators: the first, then one per kan
 *   wall[131 .. 135]       ura-dora indicators, wall[131 + i] under wall[126 + i]
 * Each kan moves the last live tile to the dead wall, so the live wall holds 70 - kans tiles. */
#ifndef TAIKAI_RIICHI_H
#define TAIKAI_RIICHI_H

#include "agent.h"
#include "common.h"
#include "mahjong.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TK_RIICHI_SEATS = 4,
  TK_RIICHI_TILES = 136,
  TK_RIICHI_LIVE = 70,          /* live-wall draws before any kan */
  TK_RIICHI_FIRST_DRAW = 52,    /* wall index of the first live draw */
  TK_RIICHI_RINSHAN_POS = 122,  /* wall index of the first replacement tile */
  TK_RIICHI_DORA_POS = 126,     /* wall index of the first dora indicator */
  TK_RIICHI_URA_POS = 131,      /* wall index of the first ura-dora indicator */
  TK_RIICHI_MAX_KANS = 4,
  TK_RIICHI_MAX_RIVER = 48,     /* discards of one seat in one hand (at most about 33 occur) */
  TK_RIICHI_MAX_LEGAL = 48,     /* legal actions of one decision (at most 39 occur) */
  TK_RIICHI_NOBODY = 0xff
};

/* ------------------------------------------------------------ rules */

/* Rule options (the tournament spec's "rules" object). */
typedef struct tk_riichi_rules {
  uint8_t length;        /* winds of the regular game: 1 east-only (東風戦, default), 2 hanchan */
  uint8_t red_fives;     /* 1: one red five per suit (default); 0: none */
  uint8_t kyuushu;       /* 1: nine-terminals abortive draw may be declared (default) */
  uint8_t agariyame;     /* 1: the game ends when the dealer of the last hand wins or is tenpai
                            and is then top with >= return_points (automatic; default); 0: never */
  uint8_t extension;     /* 1: sudden-death extension wind when nobody reached return_points
                            (default); 0: the game ends after the last hand regardless */
  uint8_t reserved[3];
  int32_t start_points;  /* 25000 */
  int32_t return_points; /* 30000: the target for ending and the extension; oka is
                            4 * (return - start) to the top */
  int32_t uma[4];        /* added to the final score of ranks 1..4 (default 20000, 10000,
                            -10000, -20000) */
} tk_riichi_rules;

/* Tenhou's rules as above: east-only, red fives, 25000 start, 30000 return, uma 20/10. */
TK_API tk_riichi_rules tk_riichi_default_rules(void);

/* ------------------------------------------------------------ boundary types */

/* The version of this game's boundary types (info, view, legal, action, result); a plugin
 * declares the one it was built against and the referee refuses another. */
#define TK_RIICHI_TYPES_VERSION 2u

/* Action types. */
enum tk_riichi_act {
  TK_RIICHI_DISCARD = 0, /* self: discard `tile` (`tsumogiri` = the tile just drawn) */
  TK_RIICHI_RIICHI,      /* self: declare riichi discarding `tile` */
  TK_RIICHI_TSUMO,       /* self: win on the drawn tile */
  TK_RIICHI_ANKAN,       /* self: closed kan of the kind of `tile` */
  TK_RIICHI_KAKAN,       /* self: add `tile` to a pon */
  TK_RIICHI_KYUUSHU,     /* self: abortive draw with nine terminal/honor kinds */
  TK_RIICHI_RON,         /* reaction: win on `tile` */
  TK_RIICHI_PON,         /* reaction: pon `tile` with `consumed[0..1]` */
  TK_RIICHI_MINKAN,      /* reaction: open kan of `tile` with the three held copies */
  TK_RIICHI_CHI,         /* reaction: chi `tile` with `consumed[0..1]` */
  TK_RIICHI_PASS,        /* reaction: none of the above */
  TK_RIICHI_ACT_COUNT
};

/* One action; the legal ones are listed by tk_riichi_legal_of, and an agent answers with a copy
 * of one of them. */
typedef struct tk_riichi_action {
  uint8_t type;        /* enum tk_riichi_act */
  uint8_t tile;        /* tk_tile: discarded, called, kan, added or winning tile */
  uint8_t tsumogiri;   /* DISCARD/RIICHI: 1 = the drawn tile itself (another copy may be held) */
  uint8_t consumed[2]; /* CHI/PON: the two hand tiles joining the called one (ascending) */
  uint8_t reserved[3];
} tk_riichi_action;

typedef struct tk_riichi_legal {
  uint8_t n;           /* number of actions; 0 if the seat has no decision */
  uint8_t reserved[7];
  tk_riichi_action a[TK_RIICHI_MAX_LEGAL];
} tk_riichi_legal;

/* A called meld or closed kan. */
typedef struct tk_riichi_meld {
  uint8_t type;     /* enum tk_call_type (mahjong.h): CHI, PON, MINKAN, ANKAN, KAKAN */
  uint8_t from;     /* seat whose discard was called (the owner for a closed kan) */
  uint8_t called;   /* the called tile, TK_TILE_NONE for a closed kan */
  uint8_t added;    /* KAKAN: the tile added to the pon, else TK_TILE_NONE */
  uint8_t tiles[4]; /* the meld's tiles, ascending (tiles[3] = TK_TILE_NONE for chi/pon) */
} tk_riichi_meld;

/* River flags. */
enum {
  TK_RIICHI_TSUMOGIRI = 1, /* the discard was the tile just drawn */
  TK_RIICHI_CALLED = 2,    /* taken by a chi, pon or open kan (it also shows in that meld) */
  TK_RIICHI_DECLARED = 4   /* the riichi declaration tile */
};

typedef struct tk_riichi_discard {
  uint8_t tile;  /* tk_tile */
  uint8_t flags; /* TK_RIICHI_TSUMOGIRI | TK_RIICHI_CALLED | TK_RIICHI_DECLARED */
} tk_riichi_discard;

/* Phases. */
enum tk_riichi_phase {
  TK_RIICHI_PHASE_DEAL = 0, /* between hands: tk_riichi_deal() starts the next */
  TK_RIICHI_PHASE_SELF,     /* `turn` holds 3k+2 tiles and must discard (or win, kan, ...) */
  TK_RIICHI_PHASE_REACT,    /* the other seats may claim the tile `turn` just gave */
  TK_RIICHI_PHASE_OVER      /* the game is over */
};

/* What the tile of a reaction phase came from. */
enum { TK_RIICHI_FROM_DISCARD = 0, TK_RIICHI_FROM_KAKAN, TK_RIICHI_FROM_ANKAN };

/* Furiten bits (tk_riichi_view.furiten). */
enum {
  TK_RIICHI_FURITEN_DISCARD = 1, /* a winning kind is in the own river */
  TK_RIICHI_FURITEN_TEMP = 2,    /* a win was passed since the own last discard */
  TK_RIICHI_FURITEN_RIICHI = 4   /* a win was passed after riichi: for the rest of the hand */
};

/* Passed to begin_game. */
typedef struct tk_riichi_info {
  tk_game_head head;      /* seed (re-seed from it), wall = the game index, seat 0..3 (0 = the
                           * first dealer), nseats 4 */
  uint8_t length;         /* rules: 1 east-only, 2 hanchan */
  uint8_t red_fives;      /* rules */
  uint8_t reserved[6];
  int32_t start_points;   /* rules */
  int32_t return_points;  /* rules */
} tk_riichi_info;

/* What a seat sees when it must decide. Seats are absolute (0..3); `seat` is the viewer's. */
typedef struct tk_riichi_view {
  int32_t scores[4];          /* points of each seat (riichi sticks already paid) */
  uint8_t seat;               /* the viewer */
  uint8_t phase;              /* TK_RIICHI_PHASE_SELF or _REACT */
  uint8_t round;              /* hand number: 0 = East 1 ... (see the top of this header) */
  uint8_t dealer;             /* seat of the dealer */
  uint8_t round_wind;         /* 0 E, 1 S, 2 W, 3 N */
  uint8_t seat_wind;          /* the viewer's seat wind, 0 = dealer */
  uint8_t honba;              /* repeat counters */
  uint8_t sticks;             /* riichi sticks on the table */
  uint8_t tiles_left;         /* live-wall tiles still to draw */
  uint8_t ndora;              /* dora indicators revealed */
  uint8_t dora[5];            /* the indicators (tk_tile) */
  uint8_t pending_dora;       /* open/added kans whose indicator flips at the next discard */
  uint8_t no_calls;           /* 1: no call (closed kans included) yet this hand */
  uint8_t actor;              /* REACT: the seat that gave the tile; SELF: the viewer */
  uint8_t last_tile;          /* REACT: the discarded / added / closed-kan tile */
  uint8_t last_from;          /* REACT: TK_RIICHI_FROM_DISCARD, _KAKAN or _ANKAN */
  uint8_t drawn;              /* SELF: the tile just drawn, TK_TILE_NONE after a call */
  uint8_t after_call;         /* SELF: 1 after chi/pon (kuikae applies, no kan or win) */
  uint8_t furiten;            /* the viewer's TK_RIICHI_FURITEN_* bits */
  uint8_t nhand;              /* concealed tiles of the viewer */
  uint8_t tiles[14];          /* the viewer's concealed tiles, ascending (a red five first) */
  uint8_t hand[TK_KINDS];     /* the same as counts per kind */
  uint8_t seen[TK_KINDS];     /* copies of each kind visible outside the viewer's hand: rivers
                                 (called tiles once), melds, dora indicators */
  uint8_t riichi[4];          /* 0 none, 1 riichi, 2 double riichi */
  uint8_t riichi_index[4];    /* river index of each riichi declaration tile */
  uint8_t ippatsu[4];         /* 1 while a seat's ippatsu chance is open */
  uint8_t pao[4];             /* seat liable for each seat's daisangen/daisuushii, or 0xff */
  uint8_t nmelds[4];
  uint8_t nriver[4];
  tk_riichi_meld melds[4][4];
  tk_riichi_discard river[4][TK_RIICHI_MAX_RIVER];
  uint8_t rinshan;            /* SELF: the drawn tile is a replacement tile (after a kan) */
  uint8_t plays[3];           /* tk_riichi_plays_hash of this hand's plays so far, 24 bits, little
                                 endian: fixes their order where the rest of the view does not
                                 (which turn a kan came in, which seat called which tile) */
} tk_riichi_view;

/* The running hash of a hand's public plays, in order: `h` (0 at the deal) after one more play
 * of seat `seat`: a discard (TK_RIICHI_DISCARD, or _RIICHI for the declaring one, with the tile),
 * a call (_CHI, _PON, _MINKAN with the called tile) or a kan (_ANKAN with the kind, _KAKAN with
 * the added tile). 24 bits (FNV-1a's step over the three bytes, cut to 24 bits). */
static inline uint32_t tk_riichi_plays_hash(uint32_t h, int seat, int type, int tile) {
  const uint8_t b[3] = {(uint8_t)seat, (uint8_t)type, (uint8_t)tile};
  for (int i = 0; i < 3; i++) h = ((h ^ b[i]) * 16777619u) & 0xffffffu;
  return h;
}

/* Per-seat counts over a game (for the referee's metrics). */
typedef struct tk_riichi_stats {
  uint16_t hands;    /* hands played */
  uint16_t wins;     /* hands won (ron or tsumo) */
  uint16_t tsumo;    /* of which by tsumo */
  uint16_t deal_ins; /* hands lost by dealing in (own discard, kan tile robbed) */
  uint16_t riichi;   /* riichi declarations */
  uint16_t calls;    /* hands with at least one chi, pon or open kan */
  int32_t win_points;/* sum of the hand values of the wins (without honba and sticks) */
} tk_riichi_stats;

/* Passed to end_game. */
typedef struct tk_riichi_result {
  int32_t points[4];      /* final points of each seat (leftover sticks included) */
  int32_t final_score[4]; /* points - return + uma[rank] + oka (top only), in points */
  uint8_t rank[4];        /* 1..4; ties broken by seat order (seat 0 first) */
  uint16_t hands;         /* hands played */
  uint8_t reserved[2];
  tk_riichi_stats stats[4];
} tk_riichi_result;

#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(sizeof(tk_riichi_action) == 8, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_legal) == 392, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_meld) == 8, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_discard) == 2, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_info) == 48, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(offsetof(tk_riichi_view, seat) == 16, "riichi types");
TK_STATIC_ASSERT(offsetof(tk_riichi_view, tiles) == 40, "riichi types");
TK_STATIC_ASSERT(offsetof(tk_riichi_view, melds) == 146, "riichi types");
TK_STATIC_ASSERT(offsetof(tk_riichi_view, river) == 274, "riichi types");
TK_STATIC_ASSERT(offsetof(tk_riichi_view, rinshan) == 658, "riichi types");
TK_STATIC_ASSERT(sizeof(tk_riichi_view) == 664, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_stats) == 16, "riichi types: bump TK_RIICHI_TYPES_VERSION");
TK_STATIC_ASSERT(sizeof(tk_riichi_result) == 104, "riichi types: bump TK_RIICHI_TYPES_VERSION");
#endif

/* ------------------------------------------------------------ events */

enum tk_riichi_event_type {
  TK_RIICHI_EV_START_GAME = 0,
  TK_RIICHI_EV_START_KYOKU,
  TK_RIICHI_EV_TSUMO,
  TK_RIICHI_EV_DAHAI,
  TK_RIICHI_EV_CHI,
  TK_RIICHI_EV_PON,
  TK_RIICHI_EV_DAIMINKAN,
  TK_RIICHI_EV_KAKAN,
  TK_RIICHI_EV_ANKAN,
  TK_RIICHI_EV_DORA,
  TK_RIICHI_EV_REACH,
  TK_RIICHI_EV_REACH_ACCEPTED,
  TK_RIICHI_EV_HORA,
  TK_RIICHI_EV_RYUKYOKU,
  TK_RIICHI_EV_END_KYOKU,
  TK_RIICHI_EV_END_GAME,
  TK_RIICHI_EV_COUNT
};

/* Reasons of a hand ending without a win. */
enum tk_riichi_draw {
  TK_RIICHI_DRAW_EXHAUSTIVE = 0, /* 荒牌平局: noten payments */
  TK_RIICHI_DRAW_NAGASHI,        /* exhaustive draw with nagashi mangan payments */
  TK_RIICHI_DRAW_KYUUSHU,        /* nine terminals */
  TK_RIICHI_DRAW_FOUR_WINDS,
  TK_RIICHI_DRAW_FOUR_RIICHI,
  TK_RIICHI_DRAW_FOUR_KANS,
  TK_RIICHI_DRAW_TRIPLE_RON,
  TK_RIICHI_DRAW_COUNT
};
/* mjai reason string ("fanpai", "nagashimangan", "kyushukyuhai", "suufonrenda", "suuchariichi",
 * "suukaikan", "sanchahou"), or NULL. */
TK_API const char *tk_riichi_draw_name(int reason);

/* One event. Fields not listed for a type are zero / TK_TILE_NONE / -1. */
typedef struct tk_riichi_event {
  uint8_t type;        /* enum tk_riichi_event_type */
  int8_t actor;        /* the acting seat (tsumo, dahai, calls, reach, hora), else -1 */
  int8_t target;       /* calls: the discarder; hora: the discarder (= actor for tsumo) */
  uint8_t tile;        /* tsumo/dahai/call/kakan/hora: the tile; dora: the new indicator;
                          start_kyoku: the first dora indicator */
  uint8_t tsumogiri;   /* dahai */
  uint8_t nconsumed;   /* calls: tiles from the hand (chi/pon 2, daiminkan 3, kakan 3 = the
                          pon's tiles, ankan 4) */
  uint8_t consumed[4];
  uint8_t reason;      /* ryukyoku: enum tk_riichi_draw */
  uint8_t round;       /* start_kyoku: hand number (round wind = round / 4, kyoku = round % 4) */
  uint8_t honba;       /* start_kyoku / hora / ryukyoku: counters when the hand started */
  uint8_t sticks;      /* start_kyoku: riichi sticks on the table */
  uint8_t dealer;      /* start_kyoku */
  uint8_t pao;         /* hora: the liable seat when liability applied, else TK_RIICHI_NOBODY */
  uint8_t tenpai[4];   /* ryukyoku: 1 for tenpai seats (exhaustive draws) */
  uint8_t tehais[4][14]; /* start_kyoku: the 13-tile hands; hora: tehais[0] = the winner's
                            concealed tiles with the winning tile (nhand of them) */
  uint8_t nhand;
  uint8_t nura;        /* hora: ura indicators (when the winner is in riichi) */
  uint8_t ura[5];      /* hora: ura-dora indicators */
  uint8_t ncalls;      /* hora: the winner's melds as the kernel saw them */
  tk_call calls[4];
  int32_t deltas[4];   /* reach_accepted / hora / ryukyoku: point changes of each seat */
  int32_t scores[4];   /* start_kyoku / reach_accepted / hora / ryukyoku / end_game: points after */
  tk_win_ctx ctx;      /* hora: the context the win was scored with */
  tk_score score;      /* hora: the kernel's score (its `total` is what the winner received) */
} tk_riichi_event;

/* Receives the events, in order; `ev` is borrowed for the call. */
typedef struct tk_riichi_sink {
  void (*fn)(void *ctx, const tk_riichi_event *ev);
  void *ctx;
} tk_riichi_sink;

/* ------------------------------------------------------------ engine */

typedef struct tk_riichi_player {
  uint8_t hand[TK_KINDS];   /* concealed counts */
  uint8_t red;              /* bit s: the red five of suit s is concealed */
  uint8_t nmelds, nriver, nkans;
  uint8_t riichi;           /* 0, 1 riichi, 2 double riichi (set when declared) */
  uint8_t riichi_index;     /* river index of the declaration tile */
  uint8_t ippatsu;          /* ippatsu chance open */
  uint8_t furiten;          /* TK_RIICHI_FURITEN_TEMP | _RIICHI (the discard kind is derived) */
  int8_t shanten;           /* shanten of the concealed tiles, valid while they are 3k+1 */
  uint8_t nagashi;          /* every discard a terminal or honor, none called */
  uint8_t pao;              /* seat liable for a daisangen/daisuushii, or TK_RIICHI_NOBODY */
  uint8_t pao_yaku;         /* TK_YAKU_DAISANGEN or TK_YAKU_DAISUUSHII */
  uint8_t open;             /* has a chi, pon or open kan */
  uint8_t reserved[4];
  uint64_t waits;           /* winning kinds while tenpai with 3k+1 tiles, else 0 */
  uint64_t discarded;       /* kinds in the own river */
  tk_riichi_meld melds[4];
  tk_riichi_discard river[TK_RIICHI_MAX_RIVER];
} tk_riichi_player;

/* A game in progress: a plain value. Fields are read-only to callers. */
typedef struct tk_riichi_game {
  tk_riichi_rules rules;
  uint64_t seed;            /* tournament seed: the walls of the following hands */
  uint64_t game_index;
  int32_t scores[4];
  uint8_t phase;            /* enum tk_riichi_phase */
  uint8_t round, honba, sticks;
  uint8_t turn;             /* SELF: the seat to act; REACT: the seat that gave the tile */
  uint8_t drawn;            /* SELF: the tile just drawn, TK_TILE_NONE after a call */
  uint8_t after_call;       /* SELF after chi/pon */
  uint8_t rinshan;          /* the drawn tile is a replacement tile */
  uint8_t no_calls;         /* no call or closed kan yet this hand */
  uint8_t next_draw;        /* wall index of the next live draw */
  uint8_t live_end;         /* one past the last live tile: 122 - kans */
  uint8_t nkans, ndora, pending_dora;
  uint8_t abort_kans;       /* four kans by several seats: abort after the next discard passes */
  uint8_t react_from;       /* REACT: TK_RIICHI_FROM_* */
  uint8_t react_tile;       /* REACT: the tile */
  uint8_t react_pending;    /* REACT: bit s = seat s has not answered */
  uint8_t react_ron;        /* REACT: bit s = seat s may ron */
  uint8_t riichi_pending;   /* the discard being reacted to declared riichi */
  uint8_t last_renchan;     /* the last hand ended with the dealer repeating */
  uint8_t plays[3];         /* tk_riichi_plays_hash of the hand's plays, low 24 bits (view) */
  uint8_t reserved[2];
  uint64_t kuikae;          /* SELF after a call: kinds that may not be discarded */
  tk_riichi_action react_choice[4];
  uint8_t wall[TK_RIICHI_TILES];
  tk_riichi_player p[4];
  tk_riichi_stats stats[4];
  uint16_t hands;
} tk_riichi_game;

/* Writes the wall of hand (round, honba) of game `game_index` of tournament `seed`: the 136
 * tiles in order (tile i is kind i / 4, red when i % 4 == 0 and the kind is a five), shuffled by
 * Fisher-Yates (i from 135 down to 1, j = tk_rng_below(i + 1)) with a tk_rng seeded by
 * tk_rng_seed2(seed ^ 0x7269696368690000 ("riichi"), stream), where
 * stream = tk_mix64(game_index) ^ ((uint64_t)round << 32 | honba). A pure function of its
 * arguments, so two tables on the same game index share the wall of every (round, honba). */
TK_API void tk_riichi_wall(uint64_t seed, uint64_t game_index, int round, int honba,
                           uint8_t wall[TK_RIICHI_TILES]);

/* Checks that `wall` holds each kind four times and at most one red five per suit, none
 * elsewhere. Returns 0 or TK_EINVAL (detail in `err`). */
TK_API int tk_riichi_wall_check(const uint8_t wall[TK_RIICHI_TILES], tk_error *err);

/* Starts a game: scores at rules.start_points, East 1, no honba; emits start_game. The game
 * then waits in TK_RIICHI_PHASE_DEAL. `rules` may be NULL (defaults); `sink` may be NULL.
 * Returns 0 or TK_EINVAL (bad rules). */
TK_API int tk_riichi_init(tk_riichi_game *g, const tk_riichi_rules *rules, uint64_t seed,
                          uint64_t game_index, const tk_riichi_sink *sink, tk_error *err);

/* Deals the next hand from `wall` (NULL: tk_riichi_wall(seed, game_index, round, honba)):
 * emits start_kyoku and the dealer's first tsumo. Red fives are stripped when the rules have
 * none. Returns 0; TK_ESTATE outside TK_RIICHI_PHASE_DEAL; TK_EINVAL for a bad wall. */
TK_API int tk_riichi_deal(tk_riichi_game *g, const uint8_t *wall, const tk_riichi_sink *sink,
                          tk_error *err);

static inline int tk_riichi_phase(const tk_riichi_game *g) { return g->phase; }
static inline int tk_riichi_is_over(const tk_riichi_game *g) {
  return g->phase == TK_RIICHI_PHASE_OVER;
}
/* Live-wall tiles still to draw. */
static inline int tk_riichi_tiles_left(const tk_riichi_game *g) {
  return g->live_end - g->next_draw;
}

/* The seat whose decision is awaited (in a reaction phase, the first one in turn order after
 * the giver that has not answered), or -1 when none is (DEAL or OVER). */
TK_API int tk_riichi_to_act(const tk_riichi_game *g);

/* The legal actions of `seat` now (n = 0 if it has no decision); every byte of `out` is
 * written (the reserved bytes and the entries past n are zero). In a reaction phase, PASS is
 * always among them. Returns n. */
TK_API int tk_riichi_legal_of(const tk_riichi_game *g, int seat, tk_riichi_legal *out);

/* The fallback action of a decision: the tsumogiri discard (the drawn tile), else the first
 * discard (after a call), else pass; what the referee plays for a seat whose agent forfeited
 * and, with illegal_policy "substitute", in place of an illegal action. Returns the index of
 * that action in `l`, or -1 if `l` holds none of them (never for a legal set of the engine). */
TK_API int tk_riichi_fallback(const tk_riichi_legal *l);
/* The index of the entry of `l` that names the same action as `a` (as tk_riichi_apply matches
 * them: the bytes it ignores, such as reserved ones, may differ), or -1 if none does. */
TK_API int tk_riichi_legal_find(const tk_riichi_legal *l, const tk_riichi_action *a);

/* The view of `seat` (meaningful in SELF and REACT phases). */
TK_API void tk_riichi_view_of(const tk_riichi_game *g, int seat, tk_riichi_view *out);

/* Plays `a` for `seat`. In a reaction phase any seat still to answer may answer, in any order;
 * the claims are resolved once all have answered (ron > pon/kan > chi). Returns 0;
 * TK_ESTATE if `seat` has no decision now; TK_EILLEGAL if `a` is not among its legal actions
 * (the game is unchanged). */
TK_API int tk_riichi_apply(tk_riichi_game *g, int seat, const tk_riichi_action *a,
                           const tk_riichi_sink *sink, tk_error *err);

/* The result (final once the game is over: sticks left on the table already went to the top). */
TK_API void tk_riichi_result_of(const tk_riichi_game *g, tk_riichi_result *out);

/* Ranks of `scores` (1..4; ties: the lower seat ranks higher). */
TK_API void tk_riichi_ranks(const int32_t scores[4], uint8_t rank[4]);

/* Builds, for simulation, a game consistent with what `view` shows: the tiles the viewer cannot
 * see (other hands, the rest of the wall, the unrevealed dead wall) are a uniform random
 * arrangement of the unseen tiles drawn from `rng`; the future hands' walls come from a seed
 * drawn from `rng`. Other seats' temporary and riichi furiten, which the view does not show,
 * start cleared; the stats start at zero. The result decides exactly as the real game would
 * from the same tiles: the viewer's legal actions are identical. Returns 0 or TK_EINVAL for
 * an inconsistent view. */
TK_API int tk_riichi_from_view(tk_riichi_game *g, const tk_riichi_view *view,
                               const tk_riichi_rules *rules, tk_rng *rng, tk_error *err);

/* tk_riichi_from_view with the concealed tiles of the seats in `given` (bit s: seat s; never
 * the viewer) chosen by the caller: seat s holds exactly hands[s][k] tiles of kind k (13 - 3 x
 * its melds in all), its five of suit u being the red copy when bit u of red[s] is set and the
 * unseen tiles still hold that copy, or when the plain copies do not suffice (red may be NULL:
 * plain fives first). The seats are served in order 0..3 from the unseen tiles; everything else
 * is arranged at random as tk_riichi_from_view does. For samplers that choose hands (paper 003's
 * constrained, weighted and learned ones). Returns 0, or TK_EINVAL when the view is
 * inconsistent or the unseen tiles cannot supply a hand (err names the seat and the kind). */
TK_API int tk_riichi_from_view_hands(tk_riichi_game *g, const tk_riichi_view *v,
                                     const tk_riichi_rules *rules, unsigned given,
                                     const uint8_t hands[4][TK_KINDS], const uint8_t red[4],
                                     tk_rng *rng, tk_error *err);

/* ------------------------------------------------------------ determinisation */

/* A sampler of determinisations for Monte Carlo agents: from one seat's view, `k` complete
 * games out[0..k), each as tk_riichi_from_view describes it (the other seats' concealed tiles,
 * the order of the live wall and the unrevealed dead wall filled with the tiles the viewer
 * cannot see, consistent with every visible tile, meld, riichi and the viewer's own hand), drawn
 * with `rng` alone, so that the same view and rng state give the same games. Samplers are
 * interchangeable behind this type: an agent names one by a parameter (riichi_mc's "sampler")
 * and calls it without knowing how it draws. Returns 0, or an error with `err` set (TK_EINVAL
 * for a view no arrangement is consistent with, TK_ENOMEM). */
typedef int (*tk_riichi_sample_fn)(void *ctx, const tk_riichi_view *view,
                                   const tk_riichi_rules *rules, tk_rng *rng, int k,
                                   tk_riichi_game *out, tk_error *err);
typedef struct tk_riichi_sampler {
  const char *name;           /* the name an agent's parameter gives it, e.g. "uniform" */
  tk_riichi_sample_fn sample;
  void *ctx;                  /* the sampler's own state (a learned one's model), or NULL */
} tk_riichi_sampler;

/* The uniform sampler (the spec's S0): every arrangement of the unseen tiles equally likely,
 * k independent calls of tk_riichi_from_view. `ctx` is unused. */
TK_API int tk_riichi_sample_uniform(void *ctx, const tk_riichi_view *view,
                                    const tk_riichi_rules *rules, tk_rng *rng, int k,
                                    tk_riichi_game *out, tk_error *err);
/* The built-in samplers by name, or NULL for an unknown name:
 *   "uniform"  tk_riichi_sample_uniform;
 *   "tenpai"   the uniform arrangement, then each other seat in closed riichi dealt a tenpai hand
 *              drawn from every tile the viewer cannot see that is not yet fixed (its own, the
 *              other hidden hands', the live and dead walls'): a random complete hand of them
 *              less one random tile, redrawn (up to 64 times, else the uniform hand stays) until
 *              none of its waits is in its own river and not all of a wait's copies are its own;
 *              the rest is dealt again at random. A construction that makes a riichi's threat
 *              real, not the posterior over its hands (paper 003's samplers are that). */
TK_API const tk_riichi_sampler *tk_riichi_sampler_find(const char *name);
/* The built-in samplers' names, comma-separated, for messages ("uniform, tenpai"). */
TK_API const char *tk_riichi_sampler_names(void);

/* Ends the hand in progress of a simulated game as seat `winner`'s ron off seat `from`'s
 * discard worth `points` (the hand's value, without honba and sticks): `from` pays points +
 * 300 per honba, the winner also collects the riichi sticks on the table, and the game moves on
 * exactly as after a ron the engine plays (the dealer repeats when it wins; the game may end:
 * bust, the last hand, agari-yame). For Monte Carlo agents that model a deal-in they do not play
 * out (the winner's hand is not checked). No events are emitted. Returns 0; TK_ESTATE outside a
 * hand (DEAL, OVER); TK_EINVAL for bad seats (equal, out of range) or points <= 0. */
TK_API int tk_riichi_settle_ron(tk_riichi_game *g, int winner, int from, int32_t points,
                                tk_error *err);

/* ------------------------------------------------------------ logs */

/* Writes `ev` as one mjai-style JSON object (no newline) into `buf` (NUL-terminated, truncated
 * to `cap`); `names` (4 strings, may be NULL) label the players of start_game. Tiles use
 * tk_tile_mjai names. Returns the full length. Pure: no I/O. */
TK_API int tk_riichi_event_json(const tk_riichi_event *ev, const char *const *names, char *buf,
                                size_t cap);

#ifdef __cplusplus
}
#endif
#endif
