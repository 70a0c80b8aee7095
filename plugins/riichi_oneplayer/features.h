/* plugins/riichi_oneplayer/features.h — the features of paper 000's one-player mahjong policy
 * (tables 2 and 3, as ../shared/specs/riichi-agents.md section 2.3 translates them), shared by
 * the riichi_oneplayer plugin and its trainer, so that a candidate move is described the same
 * way in play and in a record. Every reading the paper leaves open is in docs/riichi-oneplayer.md,
 * row by row.
 *
 * A candidate move is described by the hand after it (rof_hand: 3k+1 concealed tiles and 4-k
 * melds) in the player's context (rof_ctx: winds, turn, dora, visible tiles, riichi and furiten
 * context), built once per decision from a tk_riichi_view or by hand. The features are binary;
 * rof_features() lists the active ones as sorted, distinct indices in one index space: every row
 * of the tables is a mixed-radix index over its components (each clipped into its range) plus
 * the row's offset. Single-valued rows set exactly one index; "for each" rows set one per item
 * (items that fall on the same index set it once).
 *
 * Changing any row, range or reading changes ROF_FEATURE_VERSION, which weights files record. */
#ifndef RIICHI_ONEPLAYER_FEATURES_H
#define RIICHI_ONEPLAYER_FEATURES_H

#include <stdint.h>

#include "taikai/mahjong.h"
#include "taikai/riichi.h"

#define ROF_FEATURE_VERSION 1u

/* The rows: X(name, dimension, per_item). `per_item` rows fire once per tile / wait / candidate /
 * called meld / dora / isolated tile (possibly never); the others exactly once. Row 2.21 is
 * printed twice the same as 2.18 and exists once (as 2_18). The three one-hots of row 2.1 are
 * rows 2_1n (normal form), 2_1c (chiitoitsu) and 2_1k (kokushi). Dimensions that differ from the
 * printed ones (the Mismatch rows and 3.20) are explained in docs/riichi-oneplayer.md. */
#define ROF_ROWS(X)                                   \
  X(2_1n, 15, 0)                                      \
  X(2_1c, 7, 0)                                       \
  X(2_1k, 14, 0)                                      \
  X(2_2, 5, 0)                                        \
  X(2_3, 15 * 5, 0)                                   \
  X(2_4, 2, 0)                                        \
  X(2_5, 15 * 5 * 21, 0)                              \
  X(2_6, 136, 1)                                      \
  X(2_7, 5, 0)                                        \
  X(2_8, 6 * 6, 0)                                    \
  X(2_9, 2 * 6 * 6 * 16 * 5 * 5, 0)                   \
  X(2_10, 15 * 5 * 2, 0)                              \
  X(2_11, 4, 0)                                       \
  X(2_12, 3, 0)                                       \
  X(2_13, 4 * 3 * 18, 0)                              \
  X(2_14, 4 * 5 * 2 * 8, 0)                           \
  X(2_15, 7 * 15, 0)                                  \
  X(2_16, 11 * 15, 0)                                 \
  X(2_17, 7 * 11 * 15, 0)                             \
  X(2_18, 5 * 8 * 8 * 5 * 4, 0)                       \
  X(2_19, 5 * 8 * 2 * 5 * 5 * 4 * 8 * 2 * 2, 0)       \
  X(2_20, 7 * 4 * 4 * 8 * 4, 1)                       \
  X(2_22, 8 * 8 * 4 * 4 * 2 * 2 * 4 * 4 * 3 * 2 * 7, 0) \
  X(2_23, 8 * 8 * 4 * 4 * 2 * 2 * 4 * 4 * 2 * 7, 0)   \
  X(2_24, 5 * 5 * 8 * 8 * 5, 0)                       \
  X(2_25, 5 * 5 * 8 * 4 * 5 * 5 * 6 * 2 * 3 * 3, 0)   \
  X(2_26, 8 * 8 * 8 * 4 * 3 * 2 * 4 * 4, 1)           \
  X(2_27, 8 * 8 * 4 * 4 * 4 * 3 * 2, 0)               \
  X(2_28, 5 * 8 * 8 * 8 * 2 * 3, 0)                   \
  X(2_29, 4 * 2 * 2 * 5 * 8 * 4 * 4 * 4 * 3, 0)       \
  X(2_30, 8 * 8 * 5 * 16 * 4 * 3, 1)                  \
  X(2_31, 5 * 8 * 5 * 5 * 2 * 3, 0)                   \
  X(3_1, 5 * 5 * 2 * 8 * 8 * 8 * 4 * 3 * 5, 1)        \
  X(3_2, 5 * 5 * 5, 1)                                \
  X(3_3, (100 + 500 + 1860 + 8634 + 23760) * 2, 1)    \
  X(3_4, 19472, 1)                                    \
  X(3_5, 5 * 7 * 2, 0)                                \
  X(3_6, 5 * 7 * 2 + 1, 0)                            \
  X(3_7, 5 * 4 * 5 * 5 * 4 + 1, 0)                    \
  X(3_8, 4 * 4 * 5 * 4 * 2, 0)                        \
  X(3_9, 2 * 2 * 4 * 2 * 5, 0)                        \
  X(3_10, 10 * 14 * 5, 0)                             \
  X(3_11, 2 * 512 * 4 * 2 * 2, 1)                     \
  X(3_12, 512 * 5 * 5 * 2 * 2 * 3, 1)                 \
  X(3_13, 10 * 5 * 8 * 8 * 2 * 5 * 2, 0)              \
  X(3_14, 256, 0)                                     \
  X(3_15, 64, 0)                                      \
  X(3_16, 4 * 9 * 7, 1)                               \
  X(3_17, 8 * 4 * 8 * 3 * 2 * 2 * 2 * 2, 1)           \
  X(3_18, 10 * 6 * 5 * 2, 0)                          \
  X(3_19, 32 * 5 * 3, 0)                              \
  X(3_20, 21 + 231 + 1771, 1)

/* Row ids (ROF_ROW_2_1n ...), offsets (ROF_OFF_...) and dimensions (ROF_DIM_...). */
enum {
#define ROF__ID(name, dim, item) ROF_ROW_##name,
  ROF_ROWS(ROF__ID)
#undef ROF__ID
  ROF_NROWS
};
enum {
#define ROF__OFF(name, dim, item) ROF_OFF_##name, ROF_LAST_##name = ROF_OFF_##name + (dim) - 1,
  ROF_ROWS(ROF__OFF)
#undef ROF__OFF
  ROF_FEATURES /* the total dimension */
};
enum {
#define ROF__DIM(name, dim, item) ROF_DIM_##name = (dim),
  ROF_ROWS(ROF__DIM)
#undef ROF__DIM
  ROF__DIM_END
};

enum {
  ROF_MAX_ACTIVE = 512 /* active features of one hand, at most (about 150 occur) */
};

/* The hand after the candidate move. */
typedef struct rof_hand {
  uint8_t c[TK_KINDS]; /* concealed counts: 3k+1 tiles (13, 10, 7, 4 or 1) */
  uint8_t nmelds;      /* 4 - k: called melds and closed kans */
  uint8_t red;         /* red fives among the concealed tiles */
  tk_call melds[4];    /* type (TK_CALL_*: KAKAN counts as an open kan), kind (lowest of a chi),
                          red fives among its tiles */
} rof_hand;

/* Furiten context bits (rof_ctx.furiten). */
enum { ROF_FURITEN_OTHER = 1 /* temporary or riichi furiten already in force */ };

/* The player's context, the same for every candidate of one decision but for the candidate's
 * own discard (rof_ctx_discard adds it). */
typedef struct rof_ctx {
  uint8_t seat_wind;  /* 0 E .. 3 N */
  uint8_t round_wind; /* 0 E .. 3 N */
  uint8_t turn;       /* the player's own discards so far this hand (its river length) */
  uint8_t riichi_ok;  /* riichi would be allowed by the table: not yet declared, >= 1000 points,
                         >= 4 live tiles (the hand's own condition, closed and tenpai, is checked
                         on the hand) */
  uint8_t furiten;    /* ROF_FURITEN_* bits */
  uint8_t ndora;      /* dora indicators */
  uint8_t dora[TK_MAX_INDICATORS]; /* the indicator kinds (tk_dora_of gives the dora) */
  uint8_t seen[TK_KINDS]; /* copies visible outside the concealed hand: rivers, every meld
                             (the player's own included), dora indicators */
  uint64_t river;     /* kinds in the player's own river (furiten on a wait, suji waits) */
} rof_ctx;

/* The values the rows are made of (docs/riichi-oneplayer.md defines each), exposed for tests. */
typedef struct rof_comp {
  int8_t sh;            /* normal-form shanten (0..8; -1 never occurs on 3k+1 tiles) */
  int8_t sh_chiitoi;    /* 0..6, or 7 when impossible (melds called) */
  int8_t sh_kokushi;    /* 0..13, or 14 when impossible */
  int8_t sh_all;        /* all forms */
  int8_t sh_tanyao;     /* toward tanyao; 14 when impossible (a called meld with 1/9/honor) */
  int8_t sh_chanta;     /* toward chanta; 14 when impossible */
  int8_t sh_suit;       /* toward honitsu/chinitsu in the most numerous suit; 14 when impossible */
  uint8_t calls;        /* melds (closed kans included) */
  uint8_t open;         /* a chi, pon or open kan */
  uint8_t has_chi;
  uint8_t ukeire;       /* unseen copies of the kinds that lower the normal-form shanten */
  uint8_t ukeire_suit[4]; /* the same per colour m, p, s, honors */
  uint8_t ukeire_yaochu;  /* the same restricted to 1/9/honor kinds */
  uint64_t ukeire_mask;
  uint8_t riichi;       /* riichi possible: ctx.riichi_ok, closed, tenpai (any form) */
  /* the ryanmen-first decomposition of the concealed tiles (called melds count as melds) */
  uint8_t melds;        /* melds, called ones included */
  uint8_t ryanmen;      /* ryanmen partials (two consecutive ranks, neither 1-2 nor 8-9) */
  uint8_t bad;          /* kanchan and penchan partials */
  uint8_t pairs;        /* pairs (not in a composite) */
  uint8_t rpair;        /* ryanmen + pair composites (3-4-4, 3-3-4) */
  uint8_t bpair;        /* bad shape + pair composites (1-3-3, 1-1-3, 1-2-2, 1-1-2) */
  uint8_t nisolated;    /* isolated tiles */
  uint8_t isolated[14]; /* their kinds, ascending */
  uint8_t pair_kind[7]; /* kinds of the pairs, ascending */
  uint8_t over_ryanmen; /* pairs of ryanmen partials sharing a wait */
  uint8_t over_bad;     /* pairs of partials, one bad, sharing a wait */
  uint8_t perfect;      /* 0 neither, 1 perfect 1-shanten, 2 perfect 2-shanten */
  uint8_t good_pairs;   /* pairs whose use as the head keeps the normal-form shanten */
  uint8_t good_triplets;/* concealed triplets kept as a meld without raising it */
  uint8_t ctriplets;    /* concealed kinds held 3+ times */
  uint8_t triplets;     /* concealed triplets + called pons and kans */
  uint8_t dead_pairs;   /* pairs with no copy left to make a triplet */
  uint8_t yakuhai_trip; /* yakuhai triplets, concealed or called */
  uint8_t yakuhai_pairs;/* yakuhai held exactly twice */
  uint8_t yakuhai_iso;  /* bit mask: haku, hatsu, chun, seat-or-round wind held once */
  uint8_t dora;         /* dora held (concealed and melds) */
  uint8_t tanyao_dora;  /* of which on 2..8 tiles (red fives included) */
  uint8_t tanyao_ok, chanta_ok;
  uint8_t tanyao_tiles; /* tiles of ranks 2..8 (concealed + 3 per meld) */
  uint8_t chanta_tiles; /* tiles of 1-2-3 / 7-8-9 / honors (concealed + 3 per fitting meld) */
  uint8_t chanta_blocks;/* decomposition blocks and melds that fit chanta */
  uint8_t tanyao_pairs; /* pairs of 2..8 kinds */
  uint8_t suit_count;   /* tiles of the most numerous number suit (concealed + melds) */
  uint8_t suit;         /* that suit */
  uint8_t has_honor;    /* honors held or called */
  uint8_t sanshoku_max; /* most of the 9 kinds of one sanshoku held */
  uint8_t ittsu_max;    /* most of the 9 kinds of one ittsu held */
  uint8_t yaku;         /* 0 has a yaku, 1 none, 2 on some waits only */
  uint8_t nwaits;       /* winning kinds (tenpai) */
  uint8_t waits[13];
  uint8_t wait_han[13]; /* han of a ron on each wait (0 without a yaku) */
  uint8_t wait_tsumo[13]; /* han of a tsumo on each wait */
  uint8_t wait_left[13];  /* unseen copies of each wait */
  uint8_t win_yaku;     /* unseen winning copies with a yaku on ron */
  uint8_t win_noyaku;   /* unseen winning copies without */
  uint8_t furiten;      /* a wait in the own river, or ctx furiten */
  uint8_t special_form; /* tenpai only through chiitoitsu or kokushi */
} rof_comp;

/* The hand and context of the player deciding in `v` (its concealed tiles as they are now). */
void rof_hand_of_view(const tk_riichi_view *v, rof_hand *h);
void rof_ctx_of_view(const tk_riichi_view *v, rof_ctx *x);
/* The context after the candidate discards a tile of kind `kind`: it joins the river and the
 * visible tiles (the turn number stays the decision's, the same for every candidate). */
void rof_ctx_discard(rof_ctx *x, int kind);

/* Computes the components of `h` in `x`. Returns 0, or TK_EINVAL (detail in `err`, which may be
 * NULL) when the hand is not 3k+1 concealed tiles with 4-k melds or a count exceeds 4. */
int rof_components(const rof_hand *h, const rof_ctx *x, rof_comp *out, tk_error *err);
/* Every active feature of `h` in `x`, ascending and distinct, into `f` (ROF_MAX_ACTIVE).
 * Returns their number, or TK_EINVAL as rof_components. `comp` (may be NULL) receives the
 * components. */
int rof_features(const rof_hand *h, const rof_ctx *x, uint32_t *f, rof_comp *comp, tk_error *err);

/* For tests and benchmarks: on (the default is off), this thread's extractions compute every
 * value from scratch with the plainest calls (no memo of per-suit searches, the library sort);
 * off, they use memos and cheaper calls that give the same components and the same features. */
void rof_reference_mode(int on);

/* Row tables for tests, the trainer and the docs: name ("2.18"), offset, dimension, per-item. */
const char *rof_row_name(int row);
uint32_t rof_row_offset(int row);
uint32_t rof_row_dim(int row);
int rof_row_per_item(int row);
/* The row an index belongs to, or -1 when >= ROF_FEATURES. */
int rof_row_of(uint32_t index);

/* Shanten toward a restricted target set, by exchange distance (used for the tanyao, chanta and
 * one-suit shanten; exposed to test it against the kernel's normal-form shanten): the least
 * number of tiles to draw, less one, to complete 4 - nmelds melds and a pair out of the allowed
 * groups: sequences starting at kind k for bit k of `seqs`, triplets and pairs of kind k for bit
 * k of `trips` / `pairs`. 14 when no target exists. */
int rof_target_shanten(const uint8_t c[TK_KINDS], int nmelds, uint64_t seqs, uint64_t trips,
                       uint64_t pairs);

/* Rank of a count pattern among those of its length (each count 0..cap, total <= 14), in
 * lexicographic order; exposed for the tests of rows 3.3 (cap 4, n = 2..6) and 3.4 (cap 2, n 9). */
uint32_t rof_pattern_rank(const uint8_t *v, int n, int cap);

#endif
