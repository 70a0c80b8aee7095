/* taikai/mahjong.h — the mahjong rules kernel shared by one-player and four-player mahjong:
 * tiles and notation, shanten, effective tiles, complete-hand decomposition, yaku, fu and
 * points (Tenhou ruleset, and the one-player ruleset of Kaizu 2015).
 *
 * Invariants: a tile *kind* is 0..33 (1m..9m, 1p..9p, 1s..9s, E S W N, P F C); a *tile* is a
 * kind, with TK_TILE_RED or-ed in for a red five. A hand is usually held as counts per kind
 * (uint8_t[34]), each at most 4. No function here allocates or does I/O; the shanten tables
 * are built once, on first use (about 0.1 s), and are then read-only and thread-safe. */
#ifndef TAIKAI_MAHJONG_H
#define TAIKAI_MAHJONG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- tiles */

enum {
  TK_KINDS = 34,      /* tile kinds */
  TK_TILE_RED = 0x40, /* flag or-ed into a five's kind for a red five */
  TK_TILE_NONE = 0xff
};

enum tk_kind {
  TK_1M = 0, TK_5M = 4, TK_9M = 8,
  TK_1P = 9, TK_5P = 13, TK_9P = 17,
  TK_1S = 18, TK_5S = 22, TK_9S = 26,
  TK_EAST = 27, TK_SOUTH = 28, TK_WEST = 29, TK_NORTH = 30,
  TK_HAKU = 31, TK_HATSU = 32, TK_CHUN = 33
};

typedef uint8_t tk_tile;

static inline int tk_tile_kind(tk_tile t) { return t & 0x3f; }
static inline int tk_tile_is_red(tk_tile t) { return (t & TK_TILE_RED) != 0; }
static inline int tk_kind_suit(int k) { return k / 9; }          /* 0 m, 1 p, 2 s, 3 honors */
static inline int tk_kind_number(int k) { return k < 27 ? k % 9 + 1 : 0; } /* 1..9, 0 honor */
static inline int tk_kind_is_honor(int k) { return k >= 27; }
static inline int tk_kind_is_terminal(int k) { return k < 27 && (k % 9 == 0 || k % 9 == 8); }
static inline int tk_kind_is_yaochu(int k) { return k >= 27 || k % 9 == 0 || k % 9 == 8; }
/* The dora indicated by indicator kind `k` (9m→1m, N→E, C→P). */
TK_API int tk_dora_of(int k);

/* Parses the compact notation ("123m456p789s1234567z", 0m/0p/0s = red fives; honors 1z..7z =
 * E S W N P F C). Whitespace is not allowed. Writes at most `cap` tiles to `out` in string
 * order and returns their number, or TK_EPARSE with `err` naming the offending character and
 * its 0-based position, or TK_ERANGE if more than `cap` tiles. */
TK_API int tk_tiles_parse(const char *s, tk_tile *out, int cap, tk_error *err);
/* Writes the compact notation of `n` tiles (grouped by runs of the same suit, in the given
 * order) into `buf` (NUL-terminated, truncated to `cap`). Returns the full length. */
TK_API int tk_tiles_format(const tk_tile *t, int n, char *buf, size_t cap);
/* Compact notation of one tile ("5m", "0p", "7z"), a static string. */
TK_API const char *tk_tile_str(tk_tile t);
/* mjai name of one tile ("5m", "5mr", "E", "P", "F", "C"), a static string. */
TK_API const char *tk_tile_mjai(tk_tile t);
/* Parses one mjai tile name; returns the tile or TK_EPARSE. */
TK_API int tk_tile_from_mjai(const char *s, tk_error *err);
/* Parses one tile in either notation ("5m", "0m", "5mr", "E", "1z"); returns it or TK_EPARSE. */
TK_API int tk_tile_parse1(const char *s, tk_error *err);
/* Adds `n` tiles to `counts` (kinds); returns TK_ERANGE if any kind would exceed 4. */
TK_API int tk_counts_add(uint8_t counts[TK_KINDS], const tk_tile *t, int n, tk_error *err);
/* Sum of counts. */
TK_API int tk_counts_total(const uint8_t counts[TK_KINDS]);

/* ---------------------------------------------------------------- shanten */

/* Hand forms, for tk_shanten_forms. */
enum { TK_FORM_STANDARD = 1, TK_FORM_CHIITOI = 2, TK_FORM_KOKUSHI = 4, TK_FORM_ALL = 7 };

/* Builds the shanten tables if not yet built (also done lazily by every shanten call).
 * Idempotent and thread-safe. */
TK_API void tk_shanten_init(void);

/* Shanten of the concealed counts `c` (1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 tiles; the called
 * melds are implied by the count: 4 - n/3 of them), for the forms in `forms`. Seven pairs and
 * thirteen orphans are considered only for 13 or 14 tiles. Exact: shanten = (the least number
 * of tiles that must be drawn to reach a complete hand, discarding others) - 1, where a
 * complete hand never holds a fifth copy of a kind; so -1 is complete, 0 tenpai. Returns
 * TK_EINVAL for a count that no hand can have. */
TK_API int tk_shanten_forms(const uint8_t c[TK_KINDS], unsigned forms);
/* The minimum over all forms. */
TK_API int tk_shanten(const uint8_t c[TK_KINDS]);
/* The standard form only: the same answer as tk_shanten_forms(c, TK_FORM_STANDARD), without
 * the seven-pairs and thirteen-orphans work. */
TK_API int tk_shanten_standard(const uint8_t c[TK_KINDS]);

/* For a hand of 3k+1 tiles: the kinds that lower the shanten, as a bit mask (bit k = kind k),
 * and through `*count` the number of such tiles still unseen: for each kind,
 * 4 - c[k] - seen[k] (never below 0). `seen` holds the copies visible outside the hand
 * (rivers, melds, dora indicators) and may be NULL. `*shanten` (may be NULL) receives the
 * hand's shanten. Forms as in tk_shanten_forms. */
TK_API uint64_t tk_ukeire(const uint8_t c[TK_KINDS], const uint8_t *seen, unsigned forms,
                          int *count, int *shanten);

/* For a hand of 3k+2 tiles: out[k] = the shanten (all forms) after discarding one k, for every
 * kind held; 99 for kinds not held. Faster than one tk_shanten per discard (the other suits'
 * rows are shared). Returns the number of kinds held, or TK_EINVAL for a count that is not
 * 3k+2. */
TK_API int tk_shanten_discards(const uint8_t c[TK_KINDS], int out[TK_KINDS]);

/* For a hand of 3k+1 tiles: out[k] = the shanten (all forms) after drawing one k, for every kind
 * with fewer than 4 copies held; 99 for kinds held 4 times. Faster than one tk_shanten per draw:
 * the other suits' rows are shared, and a kind with no copy held within two of it in its suit
 * (an honor not held) changes only the seven-pairs and thirteen-orphans counts, which are
 * counted, not searched. Returns the hand's own shanten, or TK_EINVAL for a count that is not
 * 3k+1. */
TK_API int tk_shanten_draws(const uint8_t c[TK_KINDS], int out[TK_KINDS]);

/* For a tenpai hand of 3k+1 tiles: the kinds that complete it, as a bit mask. A kind whose four
 * copies are all in the hand never appears. */
TK_API uint64_t tk_waits(const uint8_t c[TK_KINDS]);

/* ---------------------------------------------------------------- decomposition */

enum tk_group_type { TK_GROUP_SEQ = 0, TK_GROUP_TRIPLET = 1, TK_GROUP_QUAD = 2, TK_GROUP_PAIR = 3 };
enum tk_hand_form { TK_HAND_STANDARD = 0, TK_HAND_CHIITOI = 1, TK_HAND_KOKUSHI = 2 };

/* One complete arrangement of concealed tiles. For the standard form: `pair` and `nmelds`
 * sequences/triplets (`kind` is the lowest kind of a sequence). For seven pairs the seven pair
 * kinds are in `melds[].kind` order... see `pairs`. For thirteen orphans `pair` is the kind
 * held twice. */
typedef struct tk_decomp {
  uint8_t form;        /* enum tk_hand_form */
  uint8_t pair;        /* kind of the pair (standard, kokushi) */
  uint8_t nmelds;      /* concealed melds (standard) */
  uint8_t meld_type[4];/* TK_GROUP_SEQ or TK_GROUP_TRIPLET */
  uint8_t meld_kind[4];/* lowest kind of each meld */
  uint8_t pairs[7];    /* the seven pair kinds (chiitoi), ascending */
} tk_decomp;

/* Is the concealed part complete (3k+2 tiles: k melds and a pair; or, for 14 tiles, seven
 * distinct pairs or thirteen orphans)? */
TK_API int tk_is_complete(const uint8_t c[TK_KINDS]);
/* Enumerates every distinct decomposition of the concealed counts `c` (3k+2 tiles) into
 * melds + pair, seven pairs and thirteen orphans. Writes at most `cap` to `out` and returns
 * how many exist (0 if not complete). Melds are listed in ascending (kind, type) order. */
TK_API int tk_decompose(const uint8_t c[TK_KINDS], tk_decomp *out, int cap);

/* ---------------------------------------------------------------- scoring */

typedef enum tk_ruleset {
  TK_RULES_TENHOU = 0, /* four-player riichi, Tenhou rules (docs/riichi.md) */
  TK_RULES_SOLO = 1    /* one-player mahjong, Kaizu 2015 table 2.1/2.2 (specs/solo.md) */
} tk_ruleset;

/* Called (or closed-kan) melds. */
enum tk_call_type { TK_CALL_CHI = 0, TK_CALL_PON, TK_CALL_MINKAN, TK_CALL_ANKAN, TK_CALL_KAKAN };

typedef struct tk_call {
  uint8_t type; /* enum tk_call_type */
  uint8_t kind; /* lowest kind (chi) or the kind (pon, kans) */
  uint8_t red;  /* red fives among its tiles */
} tk_call;

/* Yaku: id, name (lower-case romaji, as in JSON output), closed han, open han (0 = closed
 * only), yakuman (1 = a yakuman; han then counts yakuman multiples). */
#define TK_YAKU_MAP(X)                             \
  X(RIICHI, "riichi", 1, 0, 0)                     \
  X(DOUBLE_RIICHI, "double_riichi", 2, 0, 0)       \
  X(IPPATSU, "ippatsu", 1, 0, 0)                   \
  X(MENZEN_TSUMO, "menzen_tsumo", 1, 0, 0)         \
  X(PINFU, "pinfu", 1, 0, 0)                       \
  X(TANYAO, "tanyao", 1, 1, 0)                     \
  X(IIPEIKOU, "iipeikou", 1, 0, 0)                 \
  X(HAKU, "haku", 1, 1, 0)                         \
  X(HATSU, "hatsu", 1, 1, 0)                       \
  X(CHUN, "chun", 1, 1, 0)                         \
  X(SEAT_WIND, "seat_wind", 1, 1, 0)               \
  X(ROUND_WIND, "round_wind", 1, 1, 0)             \
  X(HAITEI, "haitei", 1, 1, 0)                     \
  X(HOUTEI, "houtei", 1, 1, 0)                     \
  X(RINSHAN, "rinshan", 1, 1, 0)                   \
  X(CHANKAN, "chankan", 1, 1, 0)                   \
  X(CHIITOITSU, "chiitoitsu", 2, 0, 0)             \
  X(SANSHOKU, "sanshoku", 2, 1, 0)                 \
  X(ITTSU, "ittsu", 2, 1, 0)                       \
  X(CHANTA, "chanta", 2, 1, 0)                     \
  X(TOITOI, "toitoi", 2, 2, 0)                     \
  X(SANANKOU, "sanankou", 2, 2, 0)                 \
  X(SANSHOKU_DOUKOU, "sanshoku_doukou", 2, 2, 0)   \
  X(SANKANTSU, "sankantsu", 2, 2, 0)               \
  X(HONROUTOU, "honroutou", 2, 2, 0)               \
  X(SHOUSANGEN, "shousangen", 2, 2, 0)             \
  X(HONITSU, "honitsu", 3, 2, 0)                   \
  X(JUNCHAN, "junchan", 3, 2, 0)                   \
  X(RYANPEIKOU, "ryanpeikou", 3, 0, 0)             \
  X(CHINITSU, "chinitsu", 6, 5, 0)                 \
  X(KOKUSHI, "kokushi", 1, 0, 1)                   \
  X(SUUANKOU, "suuankou", 1, 0, 1)                 \
  X(DAISANGEN, "daisangen", 1, 1, 1)               \
  X(SHOUSUUSHII, "shousuushii", 1, 1, 1)           \
  X(DAISUUSHII, "daisuushii", 1, 1, 1)             \
  X(TSUUIISOU, "tsuuiisou", 1, 1, 1)               \
  X(RYUUIISOU, "ryuuiisou", 1, 1, 1)               \
  X(CHINROUTOU, "chinroutou", 1, 1, 1)             \
  X(CHUUREN, "chuuren", 1, 0, 1)                   \
  X(SUUKANTSU, "suukantsu", 1, 1, 1)               \
  X(TENHOU, "tenhou", 1, 0, 1)                     \
  X(CHIIHOU, "chiihou", 1, 0, 1)                   \
  X(DORA, "dora", 0, 0, 0)                         \
  X(AKA_DORA, "aka_dora", 0, 0, 0)                 \
  X(URA_DORA, "ura_dora", 0, 0, 0)

enum tk_yaku {
#define TK__YAKU_ENUM(id, name, closed, open, yakuman) TK_YAKU_##id,
  TK_YAKU_MAP(TK__YAKU_ENUM)
#undef TK__YAKU_ENUM
  TK_YAKU_COUNT
};

/* Lower-case romaji name of a yaku, or NULL for an unknown id. */
TK_API const char *tk_yaku_name(int yaku);

enum tk_limit {
  TK_LIMIT_NONE = 0,
  TK_LIMIT_MANGAN,
  TK_LIMIT_HANEMAN,
  TK_LIMIT_BAIMAN,
  TK_LIMIT_SANBAIMAN,
  TK_LIMIT_KAZOE, /* kazoe yakuman: 13+ han without a yakuman */
  TK_LIMIT_YAKUMAN /* one or more yakuman: see tk_score.yakuman */
};
/* "none", "mangan", "haneman", "baiman", "sanbaiman", "kazoe_yakuman", "yakuman",
 * "double_yakuman", "triple_yakuman", ... for (limit, yakuman count); static string. */
TK_API const char *tk_limit_name(int limit, int yakuman);

enum { TK_MAX_INDICATORS = 5 };

/* Everything about a win besides the tiles. Zero-initialise, then set what applies. */
typedef struct tk_win_ctx {
  uint8_t ruleset;       /* tk_ruleset */
  uint8_t win_tile;      /* tk_tile: the winning tile (must be among the concealed tiles) */
  uint8_t ron;           /* 1 = won on a discard (or a robbed kan), 0 = tsumo */
  uint8_t riichi;        /* declared riichi */
  uint8_t double_riichi; /* declared riichi on the first uninterrupted turn (implies riichi) */
  uint8_t ippatsu;
  uint8_t last_tile;     /* haitei (tsumo) / houtei (ron) */
  uint8_t rinshan;       /* won on the replacement tile after a kan (tsumo) */
  uint8_t chankan;       /* robbed an added kan (ron) */
  uint8_t first_draw;    /* tenhou (dealer) / chiihou (non-dealer): uninterrupted first draw */
  uint8_t round_wind;    /* 0 E, 1 S, 2 W, 3 N */
  uint8_t seat_wind;     /* 0 E (dealer), 1 S, 2 W, 3 N */
  uint8_t ndora;         /* dora indicators (kan dora included) */
  uint8_t nura;          /* ura-dora indicators (counted only with riichi) */
  uint8_t dora[TK_MAX_INDICATORS]; /* indicator kinds */
  uint8_t ura[TK_MAX_INDICATORS];
  uint16_t honba;
  uint16_t sticks;       /* riichi sticks on the table, collected by the winner */
} tk_win_ctx;

enum { TK_MAX_YAKU = 24 };

typedef struct tk_score {
  int16_t han;          /* total han including dora; for yakuman hands 0 */
  int16_t fu;           /* rounded fu (0 for yakuman) */
  int16_t yakuman;      /* number of yakuman (stacked); 0 if none */
  int16_t limit;        /* enum tk_limit */
  int32_t base;         /* basic points (fu * 2^(han+2), limited); solo: the table's points */
  int32_t pay_ron;      /* ron: paid by the discarder, without honba */
  int32_t pay_dealer;   /* non-dealer tsumo: paid by the dealer, without honba */
  int32_t pay_non_dealer; /* non-dealer tsumo: paid by each non-dealer, without honba */
  int32_t pay_all;      /* dealer tsumo: paid by each player, without honba */
  int32_t total;        /* all the winner receives: payments + honba + sticks */
  uint8_t nyaku;
  uint8_t yaku[TK_MAX_YAKU];     /* enum tk_yaku, in the order of TK_YAKU_MAP */
  uint8_t yaku_han[TK_MAX_YAKU]; /* han of each (yakuman: multiples; dora: count) */
  tk_decomp decomp;     /* the decomposition that scored highest */
  uint8_t win_group;    /* which group the winning tile completed: 0..3 melds, 4 pair, 5 other */
  uint8_t fu_wait;      /* fu from the wait shape (0 or 2) */
} tk_score;

/* Scores a win. `concealed` are the n concealed tiles including the winning tile
 * (3k+2 of them with 4-k calls); `calls` the called melds and closed kans. Picks the
 * decomposition and winning-tile interpretation with the highest payment (ties: more han,
 * then more fu). Returns 0 with `out` filled; TK_ENOTCOMPLETE if the tiles are not a
 * complete hand; TK_ENOYAKU if complete but without a yaku (out->han = 0, dora not
 * counted); TK_EINVAL for inconsistent input (detail in `err`). */
TK_API int tk_score_hand(const tk_tile *concealed, int n, const tk_call *calls, int ncalls,
                         const tk_win_ctx *ctx, tk_score *out, tk_error *err);

/* The same from counts: concealed counts (winning tile included), the winning kind, and the
 * number of red fives among the concealed tiles, for hot loops. */
TK_API int tk_score_counts(const uint8_t c[TK_KINDS], int win_kind, int red_concealed,
                           const tk_call *calls, int ncalls, const tk_win_ctx *ctx,
                           tk_score *out, tk_error *err);

/* One-player ruleset points for (han, fu): ceil100(6 * fu * 2^(han+2)) while below 12000,
 * then 12000 / 18000 / 24000 / 36000 / 48000 (Kaizu 2015 table 2.2). */
TK_API int tk_solo_points(int han, int fu);

#ifdef __cplusplus
}
#endif
#endif
