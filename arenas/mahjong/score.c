/* arenas/mahjong/score.c — yaku, fu and points of a complete hand (Tenhou rules and the
 * one-player rules of Kaizu 2015).
 *
 * A win is scored by trying every decomposition of the concealed tiles and every group the
 * winning tile may have completed (pair, a sequence at each position, a triplet), and
 * keeping the reading that pays most (ties: more han, then more fu). A triplet completed by
 * ron is open for fu and for concealed-triplet yaku. Yakuman replace all other yaku; dora
 * count only once a hand has a yaku. Rule choices are listed in docs/hand.md ("Scoring rules"). */
#include <string.h>

#include "taikai/mahjong.h"

typedef struct yaku_info {
  const char *name;
  uint8_t closed, open, yakuman;
} yaku_info;

static const yaku_info YAKU[TK_YAKU_COUNT] = {
#define TK__YAKU_INFO(id, name, closed, open, yakuman) {name, closed, open, yakuman},
    TK_YAKU_MAP(TK__YAKU_INFO)
#undef TK__YAKU_INFO
};

const char *tk_yaku_name(int yaku) { return yaku >= 0 && yaku < TK_YAKU_COUNT ? YAKU[yaku].name : NULL; }

const char *tk_limit_name(int limit, int yakuman) {
  static const char *const MULTI[] = {"yakuman", "yakuman", "double_yakuman", "triple_yakuman",
                                      "quadruple_yakuman", "quintuple_yakuman", "sextuple_yakuman"};
  switch (limit) {
    case TK_LIMIT_NONE: return "none";
    case TK_LIMIT_MANGAN: return "mangan";
    case TK_LIMIT_HANEMAN: return "haneman";
    case TK_LIMIT_BAIMAN: return "baiman";
    case TK_LIMIT_SANBAIMAN: return "sanbaiman";
    case TK_LIMIT_KAZOE: return "kazoe_yakuman";
    case TK_LIMIT_YAKUMAN: return yakuman >= 0 && yakuman <= 6 ? MULTI[yakuman] : "multiple_yakuman";
    default: return "?";
  }
}

/* Yaku allowed by the one-player ruleset (table 2.1 of Kaizu 2015). */
static const uint64_t SOLO_YAKU =
    (1ULL << TK_YAKU_MENZEN_TSUMO) | (1ULL << TK_YAKU_TANYAO) | (1ULL << TK_YAKU_PINFU) |
    (1ULL << TK_YAKU_IIPEIKOU) | (1ULL << TK_YAKU_HAKU) | (1ULL << TK_YAKU_HATSU) |
    (1ULL << TK_YAKU_CHUN) | (1ULL << TK_YAKU_SEAT_WIND) | (1ULL << TK_YAKU_ROUND_WIND) |
    (1ULL << TK_YAKU_SANSHOKU) | (1ULL << TK_YAKU_ITTSU) | (1ULL << TK_YAKU_CHANTA) |
    (1ULL << TK_YAKU_CHIITOITSU) | (1ULL << TK_YAKU_SANANKOU) | (1ULL << TK_YAKU_SANSHOKU_DOUKOU) |
    (1ULL << TK_YAKU_SHOUSANGEN) | (1ULL << TK_YAKU_HONITSU) | (1ULL << TK_YAKU_JUNCHAN) |
    (1ULL << TK_YAKU_RYANPEIKOU) | (1ULL << TK_YAKU_CHINITSU) | (1ULL << TK_YAKU_KOKUSHI) |
    (1ULL << TK_YAKU_SUUANKOU) | (1ULL << TK_YAKU_DAISANGEN) | (1ULL << TK_YAKU_TSUUIISOU) |
    (1ULL << TK_YAKU_DAISUUSHII) | (1ULL << TK_YAKU_RYUUIISOU) | (1ULL << TK_YAKU_CHINROUTOU) |
    (1ULL << TK_YAKU_CHUUREN) | (1ULL << TK_YAKU_DORA);

int tk_solo_points(int han, int fu) {
  if (han >= 13) return 48000;
  if (han >= 11) return 36000;
  if (han >= 8) return 24000;
  if (han >= 6) return 18000;
  if (han >= 5) return 12000;
  long p = 6L * fu * (1L << (han + 2));
  p = (p + 99) / 100 * 100;
  return p < 12000 ? (int)p : 12000;
}

/* ---- the hand as a whole */

typedef struct hand {
  const tk_win_ctx *ctx;
  const tk_call *calls;
  int ncalls;
  uint8_t all[TK_KINDS]; /* concealed + called tiles (a kan as 4) */
  int open;              /* a call other than a closed kan */
  int nkans;
  int win;               /* winning kind */
  int tsumo;
  int solo;
  int dora, aka, ura;    /* counts, applied once the hand has a yaku */
  int all_honors, all_terminals, all_yaochu, no_yaochu, all_green;
  int suits;             /* bit s set when numbered suit s is present */
  int honors;
} hand;

/* One reading: groups (concealed melds, then calls) and the pair. */
typedef struct group {
  uint8_t type;      /* TK_GROUP_SEQ / TRIPLET / QUAD */
  uint8_t kind;
  uint8_t concealed; /* for fu and concealed-triplet yaku */
} group;

enum wait { W_RYANMEN, W_KANCHAN, W_PENCHAN, W_SHANPON, W_TANKI };

typedef struct tally {
  int han, yakuman, fu;
  uint8_t n;
  uint8_t id[TK_MAX_YAKU], h[TK_MAX_YAKU];
} tally;

static inline void add(tally *t, const hand *hd, int id, int han) {
  if (hd->solo && !(SOLO_YAKU >> id & 1)) return;
  if (t->n < TK_MAX_YAKU) {
    t->id[t->n] = (uint8_t)id;
    t->h[t->n++] = (uint8_t)han;
  }
  if (YAKU[id].yakuman)
    t->yakuman += han;
  else
    t->han += han;
}

static inline void add_yaku(tally *t, const hand *hd, int id) {
  add(t, hd, id, hd->open ? YAKU[id].open : YAKU[id].closed);
}

static inline int is_value_pair(const hand *hd, int k) {
  return k >= TK_HAKU || k == TK_EAST + hd->ctx->seat_wind || k == TK_EAST + hd->ctx->round_wind;
}

static void situational(tally *t, const hand *hd) {
  const tk_win_ctx *x = hd->ctx;
  if (x->double_riichi)
    add_yaku(t, hd, TK_YAKU_DOUBLE_RIICHI);
  else if (x->riichi)
    add_yaku(t, hd, TK_YAKU_RIICHI);
  if (x->ippatsu) add_yaku(t, hd, TK_YAKU_IPPATSU);
  if (!hd->open && hd->tsumo) add_yaku(t, hd, TK_YAKU_MENZEN_TSUMO);
  if (x->last_tile) add_yaku(t, hd, hd->tsumo ? TK_YAKU_HAITEI : TK_YAKU_HOUTEI);
  if (x->rinshan) add_yaku(t, hd, TK_YAKU_RINSHAN);
  if (x->chankan) add_yaku(t, hd, TK_YAKU_CHANKAN);
}

static void whole_hand_yakuman(tally *t, const hand *hd) {
  if (hd->all_honors) add(t, hd, TK_YAKU_TSUUIISOU, 1);
  if (hd->all_green) add(t, hd, TK_YAKU_RYUUIISOU, 1);
  if (hd->all_terminals) add(t, hd, TK_YAKU_CHINROUTOU, 1);
  if (hd->ctx->first_draw) add(t, hd, hd->ctx->seat_wind == 0 ? TK_YAKU_TENHOU : TK_YAKU_CHIIHOU, 1);
}

static void flush_yaku(tally *t, const hand *hd) {
  if (hd->suits && !(hd->suits & (hd->suits - 1))) add_yaku(t, hd, hd->honors ? TK_YAKU_HONITSU : TK_YAKU_CHINITSU);
  if (hd->no_yaochu) add_yaku(t, hd, TK_YAKU_TANYAO);
}

/* Chiitoitsu: fixed 25 fu. */
static void eval_chiitoi(const hand *hd, tally *t) {
  memset(t, 0, sizeof *t);
  whole_hand_yakuman(t, hd);
  if (t->yakuman) return;
  add_yaku(t, hd, TK_YAKU_CHIITOITSU);
  situational(t, hd);
  flush_yaku(t, hd);
  if (hd->all_yaochu) add_yaku(t, hd, TK_YAKU_HONROUTOU);
  t->fu = 25;
}

static void eval_standard(const hand *hd, const group *g, int pair, int wait, tally *t) {
  const tk_win_ctx *x = hd->ctx;
  memset(t, 0, sizeof *t);
  int seqs = 0, trips = 0, ankou = 0, dragons = 0, winds = 0;
  uint64_t seq_at = 0, trip_at = 0; /* bit k: a sequence starting at / a triplet or quad of kind k */
  int chanta_ok = pair < 27 ? tk_kind_is_terminal(pair) : 1;
  for (int i = 0; i < 4; i++) {
    int k = g[i].kind;
    if (g[i].type == TK_GROUP_SEQ) {
      seqs++;
      seq_at |= 1ULL << k;
      if (k % 9 != 0 && k % 9 != 6) chanta_ok = 0;
    } else {
      trips++;
      trip_at |= 1ULL << k;
      ankou += g[i].concealed;
      if (!tk_kind_is_yaochu(k)) chanta_ok = 0;
      if (k >= TK_HAKU) dragons++;
      else if (k >= TK_EAST) winds++;
    }
  }
  /* yakuman */
  whole_hand_yakuman(t, hd);
  if (ankou == 4) add(t, hd, TK_YAKU_SUUANKOU, 1);
  if (dragons == 3) add(t, hd, TK_YAKU_DAISANGEN, 1);
  if (winds == 4) add(t, hd, TK_YAKU_DAISUUSHII, 1);
  else if (winds == 3 && pair >= TK_EAST && pair <= TK_NORTH) add(t, hd, TK_YAKU_SHOUSUUSHII, 1);
  if (hd->nkans == 4) add(t, hd, TK_YAKU_SUUKANTSU, 1);
  if (!hd->ncalls && hd->suits && !(hd->suits & (hd->suits - 1)) && !hd->honors) {
    const uint8_t *s = hd->all + 9 * (__builtin_ctz((unsigned)hd->suits));
    int ok = s[0] >= 3 && s[8] >= 3;
    for (int i = 1; i < 8; i++) ok &= s[i] >= 1;
    if (ok) add(t, hd, TK_YAKU_CHUUREN, 1);
  }
  if (t->yakuman) return;

  /* regular yaku */
  int pinfu = !hd->open && seqs == 4 && wait == W_RYANMEN && !is_value_pair(hd, pair);
  situational(t, hd);
  if (pinfu) add_yaku(t, hd, TK_YAKU_PINFU);
  if (!hd->open) {
    int peikou = 0;
    for (int i = 0; i < 4; i++)
      if (g[i].type == TK_GROUP_SEQ) {
        int same = 0;
        for (int j = 0; j < i; j++) same += g[j].type == TK_GROUP_SEQ && g[j].kind == g[i].kind;
        peikou += same == 1 || same == 3; /* the 2nd and 4th copy of a sequence make a pair */
      }
    if (peikou == 2) add_yaku(t, hd, TK_YAKU_RYANPEIKOU);
    else if (peikou == 1) add_yaku(t, hd, TK_YAKU_IIPEIKOU);
  }
  if (trip_at >> TK_HAKU & 1) add_yaku(t, hd, TK_YAKU_HAKU);
  if (trip_at >> TK_HATSU & 1) add_yaku(t, hd, TK_YAKU_HATSU);
  if (trip_at >> TK_CHUN & 1) add_yaku(t, hd, TK_YAKU_CHUN);
  if (trip_at >> (TK_EAST + x->seat_wind) & 1) add_yaku(t, hd, TK_YAKU_SEAT_WIND);
  if (trip_at >> (TK_EAST + x->round_wind) & 1) add_yaku(t, hd, TK_YAKU_ROUND_WIND);
  /* the same number in all three suits: man bits & pin bits >> 9 & sou bits >> 18 */
  if (seq_at & (seq_at >> 9) & (seq_at >> 18) & 0x7f) add_yaku(t, hd, TK_YAKU_SANSHOKU);
  if ((seq_at & (seq_at >> 3) & (seq_at >> 6)) & ((1ULL << 0) | (1ULL << 9) | (1ULL << 18)))
    add_yaku(t, hd, TK_YAKU_ITTSU);
  if (chanta_ok && seqs) add_yaku(t, hd, hd->honors ? TK_YAKU_CHANTA : TK_YAKU_JUNCHAN);
  if (trips == 4) add_yaku(t, hd, TK_YAKU_TOITOI);
  if (ankou == 3) add_yaku(t, hd, TK_YAKU_SANANKOU);
  if (trip_at & (trip_at >> 9) & (trip_at >> 18) & 0x1ff) add_yaku(t, hd, TK_YAKU_SANSHOKU_DOUKOU);
  if (hd->nkans == 3) add_yaku(t, hd, TK_YAKU_SANKANTSU);
  if (hd->all_yaochu) add_yaku(t, hd, TK_YAKU_HONROUTOU);
  if (dragons == 2 && pair >= TK_HAKU) add_yaku(t, hd, TK_YAKU_SHOUSANGEN);
  flush_yaku(t, hd);

  /* fu */
  if (pinfu) {
    t->fu = hd->tsumo ? 20 : 30;
    return;
  }
  int fu = 20;
  if (!hd->open && !hd->tsumo) fu += 10;
  if (hd->tsumo) fu += 2;
  for (int i = 0; i < 4; i++) {
    if (g[i].type == TK_GROUP_SEQ) continue;
    int f = 2;
    if (tk_kind_is_yaochu(g[i].kind)) f *= 2;
    if (g[i].concealed) f *= 2;
    if (g[i].type == TK_GROUP_QUAD) f *= 4;
    fu += f;
  }
  if (pair >= TK_HAKU) fu += 2;
  if (pair == TK_EAST + x->seat_wind) fu += 2;
  if (pair == TK_EAST + x->round_wind) fu += 2;
  if (wait == W_KANCHAN || wait == W_PENCHAN || wait == W_TANKI) fu += 2;
  fu = (fu + 9) / 10 * 10;
  if (fu == 20) fu = 30; /* an open hand without fu (a closed one here would be pinfu) */
  t->fu = fu;
}

static inline int32_t ceil100(int64_t v) { return (int32_t)((v + 99) / 100 * 100); }

/* Fills han/fu/limit/base/payments from a tally (dora already included). */
static void settle(const hand *hd, const tally *t, tk_score *s) {
  const tk_win_ctx *x = hd->ctx;
  memset(s, 0, sizeof *s);
  /* one-player rules: a yakuman is a fixed 13 han and yakuman never stack */
  s->yakuman = (int16_t)(hd->solo && t->yakuman ? 1 : t->yakuman);
  s->han = (int16_t)(t->yakuman ? 0 : t->han);
  s->fu = (int16_t)(t->yakuman ? 0 : t->fu);
  s->nyaku = t->n;
  memcpy(s->yaku, t->id, t->n);
  memcpy(s->yaku_han, t->h, t->n);
  int han = s->han;
  int32_t base;
  if (t->yakuman) {
    s->limit = TK_LIMIT_YAKUMAN;
    base = 8000 * (hd->solo ? 1 : t->yakuman);
  } else if (han >= 13) {
    s->limit = TK_LIMIT_KAZOE;
    base = 8000;
  } else if (han >= 11) {
    s->limit = TK_LIMIT_SANBAIMAN;
    base = 6000;
  } else if (han >= 8) {
    s->limit = TK_LIMIT_BAIMAN;
    base = 4000;
  } else if (han >= 6) {
    s->limit = TK_LIMIT_HANEMAN;
    base = 3000;
  } else {
    base = s->fu * (1 << (han + 2));
    s->limit = TK_LIMIT_NONE;
    if (han >= 5 || base >= 2000) {
      s->limit = TK_LIMIT_MANGAN;
      base = 2000;
    }
  }
  s->base = base;
  if (hd->solo) {
    int pts = t->yakuman ? 48000 : tk_solo_points(han, s->fu);
    s->base = pts;
    if (!t->yakuman && han < 5) s->limit = pts >= 12000 ? TK_LIMIT_MANGAN : TK_LIMIT_NONE;
    s->total = pts;
    return;
  }
  int dealer = x->seat_wind == 0;
  int32_t got;
  if (!hd->tsumo) {
    s->pay_ron = ceil100((int64_t)base * (dealer ? 6 : 4));
    got = s->pay_ron;
  } else if (dealer) {
    s->pay_all = ceil100((int64_t)base * 2);
    got = 3 * s->pay_all;
  } else {
    s->pay_dealer = ceil100((int64_t)base * 2);
    s->pay_non_dealer = ceil100(base);
    got = s->pay_dealer + 2 * s->pay_non_dealer;
  }
  s->total = got + 300 * x->honba + 1000 * x->sticks;
}

static void add_dora(const hand *hd, tally *t) {
  if (t->yakuman || t->han == 0) return;
  if (hd->dora) add(t, hd, TK_YAKU_DORA, hd->dora);
  if (hd->aka && !hd->solo) add(t, hd, TK_YAKU_AKA_DORA, hd->aka);
  if (hd->ura) add(t, hd, TK_YAKU_URA_DORA, hd->ura);
}

/* Is candidate (t) better than the best so far (b, valid when have)? */
static int better(const tk_score *cand, const tk_score *best) {
  int32_t a = cand->total, b = best->total;
  if (a != b) return a > b;
  if (cand->yakuman != best->yakuman) return cand->yakuman > best->yakuman;
  if (cand->han != best->han) return cand->han > best->han;
  return cand->fu > best->fu;
}

static int check_ctx(const tk_win_ctx *x, int open, tk_error *err) {
  if (x->ruleset > TK_RULES_SOLO) return tk_error_set(err, TK_EINVAL, -1, "unknown ruleset %d", x->ruleset);
  if (x->seat_wind > 3 || x->round_wind > 3)
    return tk_error_set(err, TK_EINVAL, -1, "seat and round winds are 0..3 (E S W N)");
  if (x->ndora > TK_MAX_INDICATORS || x->nura > TK_MAX_INDICATORS)
    return tk_error_set(err, TK_EINVAL, -1, "at most %d dora and %d ura indicators", TK_MAX_INDICATORS,
                        TK_MAX_INDICATORS);
  for (int i = 0; i < x->ndora; i++)
    if (x->dora[i] >= TK_KINDS) return tk_error_set(err, TK_EINVAL, -1, "dora indicator %d is not a tile kind", i + 1);
  for (int i = 0; i < x->nura; i++)
    if (x->ura[i] >= TK_KINDS) return tk_error_set(err, TK_EINVAL, -1, "ura indicator %d is not a tile kind", i + 1);
  if (x->ruleset == TK_RULES_SOLO) {
    if (x->ron || x->riichi || x->double_riichi || x->ippatsu || x->last_tile || x->rinshan || x->chankan ||
        x->first_draw || x->seat_wind || x->round_wind || x->nura || x->honba || x->sticks)
      return tk_error_set(err, TK_EINVAL, -1,
                          "the solo ruleset has only closed self-drawn wins by the East dealer in the East "
                          "round: no ron, riichi, ippatsu, haitei, rinshan, chankan, tenhou, ura, honba or sticks");
    return 0;
  }
  if ((x->riichi || x->double_riichi) && open)
    return tk_error_set(err, TK_EINVAL, -1, "riichi needs a closed hand (closed kans only)");
  if (x->ippatsu && !(x->riichi || x->double_riichi))
    return tk_error_set(err, TK_EINVAL, -1, "ippatsu needs riichi");
  if (x->rinshan && x->ron) return tk_error_set(err, TK_EINVAL, -1, "rinshan is a self-drawn win");
  if (x->chankan && !x->ron) return tk_error_set(err, TK_EINVAL, -1, "chankan is a win on a discard (ron)");
  if (x->rinshan && x->last_tile) return tk_error_set(err, TK_EINVAL, -1, "rinshan and haitei cannot combine");
  if (x->chankan && x->last_tile) return tk_error_set(err, TK_EINVAL, -1, "chankan and houtei cannot combine");
  if (x->first_draw && (x->ron || open || x->riichi || x->double_riichi))
    return tk_error_set(err, TK_EINVAL, -1, "tenhou/chiihou are closed self-drawn wins without riichi");
  return 0;
}

int tk_score_counts(const uint8_t c[TK_KINDS], int win_kind, int red_concealed, const tk_call *calls,
                    int ncalls, const tk_win_ctx *ctx, tk_score *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  if (ncalls < 0 || ncalls > 4) return tk_error_set(err, TK_EINVAL, -1, "%d calls (at most 4)", ncalls);
  if (win_kind < 0 || win_kind >= TK_KINDS || !c[win_kind])
    return tk_error_set(err, TK_EINVAL, -1, "the winning tile is not among the concealed tiles");
  hand hd;
  memset(&hd, 0, sizeof hd);
  hd.ctx = ctx;
  hd.calls = calls;
  hd.ncalls = ncalls;
  hd.win = win_kind;
  hd.tsumo = !ctx->ron;
  hd.solo = ctx->ruleset == TK_RULES_SOLO;
  hd.aka = red_concealed;
  memcpy(hd.all, c, TK_KINDS);
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) n += c[k];
  if (n != 14 - 3 * ncalls)
    return tk_error_set(err, TK_EINVAL, -1, "%d concealed tiles with %d calls (expected %d)", n, ncalls,
                        14 - 3 * ncalls);
  for (int i = 0; i < ncalls; i++) {
    const tk_call *m = &calls[i];
    if (m->type > TK_CALL_KAKAN || m->kind >= TK_KINDS)
      return tk_error_set(err, TK_EINVAL, -1, "call %d is not a meld", i + 1);
    if (m->type == TK_CALL_CHI) {
      if (m->kind >= 27 || m->kind % 9 > 6)
        return tk_error_set(err, TK_EINVAL, -1, "call %d: a chi is a sequence of number tiles", i + 1);
      for (int j = 0; j < 3; j++) hd.all[m->kind + j]++;
    } else {
      hd.all[m->kind] += m->type == TK_CALL_PON ? 3 : 4;
    }
    if (m->type != TK_CALL_ANKAN) hd.open = 1;
    if (m->type >= TK_CALL_MINKAN) hd.nkans++;
    hd.aka += m->red;
  }
  if (hd.solo && (ncalls || red_concealed))
    return tk_error_set(err, TK_EINVAL, -1, "the solo ruleset has no calls and no red fives");
  for (int k = 0; k < TK_KINDS; k++)
    if (hd.all[k] > 4)
      return tk_error_set(err, TK_EINVAL, -1, "%d copies of %s (at most 4)", hd.all[k], tk_tile_str((tk_tile)k));
  int rc = check_ctx(ctx, hd.open, err);
  if (rc) return rc;

  hd.all_honors = hd.all_terminals = hd.all_yaochu = hd.no_yaochu = hd.all_green = 1;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!hd.all[k]) continue;
    int y = tk_kind_is_yaochu(k);
    hd.all_honors &= k >= 27;
    hd.all_terminals &= tk_kind_is_terminal(k);
    hd.all_yaochu &= y;
    hd.no_yaochu &= !y;
    hd.all_green &= k == 19 || k == 20 || k == 21 || k == 23 || k == 25 || k == TK_HATSU;
    if (k < 27) hd.suits |= 1 << (k / 9);
    else hd.honors = 1;
  }
  for (int i = 0; i < ctx->ndora; i++) hd.dora += hd.all[tk_dora_of(ctx->dora[i])];
  if (ctx->riichi || ctx->double_riichi)
    for (int i = 0; i < ctx->nura; i++) hd.ura += hd.all[tk_dora_of(ctx->ura[i])];

  tk_decomp dec[16];
  int nd = tk_decompose(c, dec, 16);
  if (nd == 0) return tk_error_set(err, TK_ENOTCOMPLETE, -1, "the tiles do not form a complete hand");
  if (nd > 16) nd = 16; /* at most a handful exist for 14 tiles */

  tk_score best, cand;
  int have = 0;
  tally t;
  for (int d = 0; d < nd; d++) {
    const tk_decomp *dc = &dec[d];
    if (dc->form == TK_HAND_KOKUSHI) {
      memset(&t, 0, sizeof t);
      add(&t, &hd, TK_YAKU_KOKUSHI, 1);
      if (ctx->first_draw) add(&t, &hd, ctx->seat_wind == 0 ? TK_YAKU_TENHOU : TK_YAKU_CHIIHOU, 1);
      settle(&hd, &t, &cand);
      cand.decomp = *dc;
      cand.win_group = 5;
      if (!have || better(&cand, &best)) best = cand, have = 1;
      continue;
    }
    if (dc->form == TK_HAND_CHIITOI) {
      eval_chiitoi(&hd, &t);
      if (!t.yakuman && t.han == 0) continue;
      add_dora(&hd, &t);
      settle(&hd, &t, &cand);
      cand.decomp = *dc;
      cand.win_group = 4;
      cand.fu_wait = 0;
      if (!have || better(&cand, &best)) best = cand, have = 1;
      continue;
    }
    group g[4];
    int nm = dc->nmelds;
    for (int i = 0; i < nm; i++) {
      g[i].type = dc->meld_type[i];
      g[i].kind = dc->meld_kind[i];
      g[i].concealed = 1;
    }
    for (int i = 0; i < ncalls; i++) {
      g[nm + i].kind = calls[i].kind;
      g[nm + i].type = calls[i].type == TK_CALL_CHI   ? TK_GROUP_SEQ
                       : calls[i].type == TK_CALL_PON ? TK_GROUP_TRIPLET
                                                      : TK_GROUP_QUAD;
      g[nm + i].concealed = calls[i].type == TK_CALL_ANKAN;
    }
    /* every group the winning tile may have completed */
    for (int wg = 0; wg <= nm; wg++) {
      int wait;
      if (wg == nm) {
        if (dc->pair != win_kind) continue;
        wait = W_TANKI;
      } else if (g[wg].type == TK_GROUP_TRIPLET) {
        if (g[wg].kind != win_kind) continue;
        wait = W_SHANPON;
      } else {
        int pos = win_kind - g[wg].kind;
        if (pos < 0 || pos > 2) continue;
        if (pos == 1) wait = W_KANCHAN;
        else if (pos == 0) wait = g[wg].kind % 9 == 6 ? W_PENCHAN : W_RYANMEN;
        else wait = g[wg].kind % 9 == 0 ? W_PENCHAN : W_RYANMEN;
      }
      if (wait == W_SHANPON && !hd.tsumo) g[wg].concealed = 0;
      eval_standard(&hd, g, dc->pair, wait, &t);
      if (wait == W_SHANPON) g[wg].concealed = 1;
      if (!t.yakuman && t.han == 0) continue;
      add_dora(&hd, &t);
      settle(&hd, &t, &cand);
      cand.decomp = *dc;
      cand.win_group = (uint8_t)(wg == nm ? 4 : wg);
      cand.fu_wait = (wait == W_KANCHAN || wait == W_PENCHAN || wait == W_TANKI) ? 2 : 0;
      if (!have || better(&cand, &best)) best = cand, have = 1;
    }
  }
  if (!have) {
    out->limit = TK_LIMIT_NONE;
    return tk_error_set(err, TK_ENOYAKU, -1, "a complete hand without yaku (dora are not yaku)");
  }
  *out = best;
  return 0;
}

int tk_score_hand(const tk_tile *concealed, int n, const tk_call *calls, int ncalls, const tk_win_ctx *ctx,
                  tk_score *out, tk_error *err) {
  uint8_t c[TK_KINDS] = {0};
  int red = 0, win_found = 0;
  for (int i = 0; i < n; i++) {
    int k = tk_tile_kind(concealed[i]);
    if (k >= TK_KINDS) return tk_error_set(err, TK_EINVAL, i, "tile %d is not a tile", i + 1);
    if (tk_tile_is_red(concealed[i])) {
      if (k != TK_5M && k != TK_5P && k != TK_5S)
        return tk_error_set(err, TK_EINVAL, i, "tile %d: only fives can be red", i + 1);
      red++;
    }
    if (c[k] >= 4) return tk_error_set(err, TK_EINVAL, i, "a fifth copy of %s", tk_tile_str((tk_tile)k));
    c[k]++;
    if (concealed[i] == ctx->win_tile) win_found = 1;
  }
  if (!win_found)
    return tk_error_set(err, TK_EINVAL, -1, "the winning tile %s is not among the concealed tiles",
                        tk_tile_str(ctx->win_tile));
  return tk_score_counts(c, tk_tile_kind(ctx->win_tile), red, calls, ncalls, ctx, out, err);
}
