/* plugins/riichi_opp/oppf.c — the opponent models' features (oppf.h): the discard
 * order of a view, the per-seat summary, and the tenpai / wait / loss vectors. Every value is a
 * small count or a 0/1 flag scaled to about [0, 1]; the names below are the documentation of
 * each index. */
#include "oppf.h"

#include <string.h>

static const char *const TENPAI_NAMES[RM_OPPF_NT] = {
    "bias", "open melds = 1", "open melds = 2", "open melds >= 3", "closed kans",
    "discards 0-6 (/6)", "discards 6-12 (/6)", "discards 12-24 (/12)", "open x discards 0-6",
    "open x discards 6-12", "open x discards 12-24", "tiles left (/70)",
    "tsumogiri of the last 3 (/3)", "tsumogiri of the last 6 (/6)", "3-7 tiles of the last 6 (/6)",
    "3-7 from the hand of the last 3 (/3)", "terminals/honors of the first 6 (/6)",
    "dora in melds (/4)", "value-honor melds", "one-suit melds", "discards since the last call (/6)",
    "dealer", "another seat in riichi", "tsumogiri run at the end (/6)"};

static const char *const WAIT_NAMES[RM_OPPF_NW] = {
    "bias", "1/9", "2/8", "3/7", "4-6", "value honor", "other wind", "visible (/4)", "visible = 3",
    "visible = 4", "full suji", "half suji (4-6)", "live two-sided sides (/2)", "no chance",
    "closed wait possible", "passed after its riichi", "passed since its last discard",
    "suji of the reference tile", "within 2 of the reference tile", "own discards within 2 (/4)",
    "suit in its first 6 discards (/6)", "suit share of its discards", "dora", "within 2 of a dora",
    "one-suit melds, in the suit or honor", "one-suit melds, other suit",
    "late (9+ discards) x terminal or honor", "open", "open x value honor", "tiles left (/70)"};

static const char *const LOSS_NAMES[RM_OPPF_NL] = {
    "bias", "riichi", "double riichi", "ippatsu open", "dealer", "open", "melds (/4)",
    "dora in melds", "value-honor melds", "one-suit melds", "all pons", "all 2-8 melds",
    "dora indicators - 1", "discards (/18)"};

const char *rm_oppf_name(int model, int i) {
  if (model == 0 && i >= 0 && i < RM_OPPF_NT) return TENPAI_NAMES[i];
  if (model == 1 && i >= 0 && i < RM_OPPF_NW) return WAIT_NAMES[i];
  if (model == 2 && i >= 0 && i < RM_OPPF_NL) return LOSS_NAMES[i];
  return "?";
}

static int kind(uint8_t t) { return tk_tile_kind(t); }

/* Does seat c hold a meld called from seat `from` of tile t that `used` has not matched yet?
 * Returns its index or -1. */
static int caller_meld(const tk_riichi_view *v, int c, int from, uint8_t t, unsigned used) {
  for (int m = 0; m < v->nmelds[c] && m < 4; m++) {
    const tk_riichi_meld *x = &v->melds[c][m];
    if (used >> m & 1 || x->type == TK_CALL_ANKAN) continue;
    if (x->from == from && x->called == t) return m;
  }
  return -1;
}

void rm_oppf_view_init(const tk_riichi_view *v, rm_oppf_view *pv) {
  for (int k = 0; k < TK_KINDS; k++) pv->visible[k] = (uint8_t)(v->seen[k] + v->hand[k]);
  pv->dora = 0;
  for (int i = 0; i < v->ndora && i < 5; i++) pv->dora |= 1ULL << tk_dora_of(kind(v->dora[i]));
  pv->any_riichi = 0;
  int idx[4] = {0, 0, 0, 0}, total = 0, n[4];
  unsigned used[4] = {0, 0, 0, 0};
  for (int s = 0; s < 4; s++) {
    n[s] = v->nriver[s] < TK_RIICHI_MAX_RIVER ? v->nriver[s] : TK_RIICHI_MAX_RIVER;
    total += n[s];
    pv->call_at[s] = -1;
    if (v->riichi[s]) pv->any_riichi |= (uint8_t)(1u << s);
  }
  int cur = v->dealer & 3, t = 0;
  while (t < total && idx[cur] < n[cur]) {
    const tk_riichi_discard *d = &v->river[cur][idx[cur]];
    pv->order[cur][idx[cur]++] = (int16_t)t;
    int next = (cur + 1) & 3;
    if (d->flags & TK_RIICHI_CALLED)
      for (int j = 1; j < 4; j++) {
        int c = (cur + j) & 3, m = caller_meld(v, c, cur, d->tile, used[c]);
        if (m < 0) continue;
        used[c] |= 1u << m;
        pv->call_at[c] = (int16_t)t;
        next = c;
        break;
      }
    t++;
    cur = next;
  }
  for (int s = 0; s < 4; s++)
    while (idx[s] < n[s]) pv->order[s][idx[s]++] = (int16_t)t++;
}

int rm_oppf_class(const tk_riichi_view *v, int o, int k) {
  if (k >= TK_EAST) {
    int seat_wind = TK_EAST + ((o - v->dealer) & 3), round_wind = TK_EAST + (v->round_wind & 3);
    return k >= TK_HAKU || k == seat_wind || k == round_wind ? RM_OPPF_YAKUHAI : RM_OPPF_OTAKAZE;
  }
  static const uint8_t by_number[9] = {RM_OPPF_T19, RM_OPPF_T28, RM_OPPF_T37,
                                       RM_OPPF_T456, RM_OPPF_T456, RM_OPPF_T456,
                                       RM_OPPF_T37, RM_OPPF_T28, RM_OPPF_T19};
  return by_number[k % 9];
}

/* Kinds that seats other than o discarded after place `after` of the sequence. */
static uint64_t passed_after(const tk_riichi_view *v, const rm_oppf_view *pv, int o, int after) {
  uint64_t m = 0;
  for (int s = 0; s < 4; s++) {
    if (s == o) continue;
    for (int i = v->nriver[s] - 1; i >= 0; i--) {
      if (i >= TK_RIICHI_MAX_RIVER) continue;
      if (pv->order[s][i] <= after) break;
      m |= 1ULL << kind(v->river[s][i].tile);
    }
  }
  return m;
}

/* The meld summary of seat o: counts, dora, value honors, one-suit, all-pons, all 2-8. */
static void seat_melds(const tk_riichi_view *v, const rm_oppf_view *pv, int o, rm_oppf_seat *s) {
  int suit = -1, mixed = 0, pons = 0, simples = 1;
  for (int m = 0; m < v->nmelds[o] && m < 4; m++) {
    const tk_riichi_meld *x = &v->melds[o][m];
    if (x->type == TK_CALL_ANKAN) s->n_ankan++;
    else s->n_open++;
    int k0 = kind(x->tiles[0]);
    if (x->type != TK_CALL_CHI) {
      pons++;
      if (k0 >= TK_EAST && rm_oppf_class(v, o, k0) == RM_OPPF_YAKUHAI) s->yakuhai_melds++;
    }
    for (int j = 0; j < 4; j++) {
      uint8_t t = x->tiles[j];
      if (t == TK_TILE_NONE) continue;
      int k = kind(t);
      s->dora_melds += (uint8_t)((pv->dora >> k & 1) + tk_tile_is_red(t));
      if (tk_kind_is_yaochu(k)) simples = 0;
    }
    if (k0 < TK_EAST) {
      if (suit >= 0 && suit != k0 / 9) mixed = 1;
      suit = k0 / 9;
    }
  }
  s->open = s->n_open > 0;
  s->honitsu = s->open && !mixed ? suit : -1;
  s->toitoi = v->nmelds[o] >= 2 && pons == v->nmelds[o];
  s->tanyao = s->open && simples;
}

void rm_oppf_seat_init(const tk_riichi_view *v, const rm_oppf_view *pv, int o, rm_oppf_seat *s) {
  memset(s, 0, sizeof *s);
  s->o = o;
  int n = v->nriver[o] < TK_RIICHI_MAX_RIVER ? v->nriver[o] : TK_RIICHI_MAX_RIVER;
  s->nriver = (uint8_t)n;
  s->ref = -1;
  for (int i = 0; i < n; i++) {
    const tk_riichi_discard *d = &v->river[o][i];
    int k = kind(d->tile);
    s->river |= 1ULL << k;
    s->all_suit[k / 9]++;
    if (i < 6) s->early_suit[k / 9]++;
    if (!(d->flags & TK_RIICHI_TSUMOGIRI)) s->ref = k;
  }
  if (v->riichi[o] && v->riichi_index[o] < n) {
    s->ref = kind(v->river[o][v->riichi_index[o]].tile);
    s->passed_riichi = passed_after(v, pv, o, pv->order[o][v->riichi_index[o]]);
  }
  s->passed_last = passed_after(v, pv, o, n ? pv->order[o][n - 1] : -1);
  for (int k = 0; k < 27; k++) {
    int lo = k - k % 9, cnt = 0;
    for (int j = k - 2; j <= k + 2; j++)
      if (j != k && j >= lo && j < lo + 9) cnt += (int)(s->river >> j & 1);
    s->near[k] = (uint8_t)cnt;
  }
  seat_melds(v, pv, o, s);
}

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

void rm_oppf_tenpai(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s,
                    float x[RM_OPPF_NT]) {
  const tk_riichi_discard *r = v->river[s->o];
  int n = s->nriver, tg3 = 0, tg6 = 0, mid6 = 0, midte3 = 0, yao6 = 0, run = 0, since = 0;
  for (int i = 0; i < n; i++) {
    int k = kind(r[i].tile), tg = (r[i].flags & TK_RIICHI_TSUMOGIRI) != 0;
    int num = tk_kind_number(k), mid = num >= 3 && num <= 7;
    if (i >= n - 3) tg3 += tg, midte3 += mid && !tg;
    if (i >= n - 6) tg6 += tg, mid6 += mid;
    if (i < 6) yao6 += tk_kind_is_yaochu(k);
    run = tg ? run + 1 : 0;
    if (pv->call_at[s->o] >= 0 && pv->order[s->o][i] > pv->call_at[s->o]) since++;
  }
  float t1 = clampf((float)n / 6, 0, 1), t2 = clampf((float)(n - 6) / 6, 0, 1);
  float t3 = clampf((float)(n - 12) / 12, 0, 1), open = s->open;
  x[0] = 1;
  x[1] = s->n_open == 1;
  x[2] = s->n_open == 2;
  x[3] = s->n_open >= 3;
  x[4] = s->n_ankan;
  x[5] = t1, x[6] = t2, x[7] = t3;
  x[8] = open * t1, x[9] = open * t2, x[10] = open * t3;
  x[11] = (float)v->tiles_left / 70;
  x[12] = (float)tg3 / 3;
  x[13] = (float)tg6 / 6;
  x[14] = (float)mid6 / 6;
  x[15] = (float)midte3 / 3;
  x[16] = (float)yao6 / 6;
  x[17] = clampf((float)s->dora_melds / 4, 0, 1);
  x[18] = s->yakuhai_melds;
  x[19] = s->honitsu >= 0;
  x[20] = clampf((float)since / 6, 0, 1) * open;
  x[21] = s->o == v->dealer;
  x[22] = (pv->any_riichi & ~(1u << s->o)) != 0;
  x[23] = clampf((float)run / 6, 0, 1);
}

/* The suji, kabe and closed-wait features of number kind k (x[10..14]). */
static void wait_shape(const rm_oppf_view *pv, const rm_oppf_seat *s, int k, float x[]) {
  int num = k % 9 + 1, lo_exists = num >= 3, hi_exists = num <= 7;
  int lo_suji = lo_exists && num >= 4 && (s->river >> (k - 3) & 1);
  int hi_suji = hi_exists && num <= 6 && (s->river >> (k + 3) & 1);
  /* a two-sided wait on k from below (k-2, k-1) or above (k+1, k+2); num 3 and 7 also cover
   * the edge waits 12 and 89, which no suji protects */
  int lo_kabe = lo_exists && (pv->visible[k - 1] >= 4 || pv->visible[k - 2] >= 4);
  int hi_kabe = hi_exists && (pv->visible[k + 1] >= 4 || pv->visible[k + 2] >= 4);
  int sides = lo_exists + hi_exists, suji = (lo_exists && lo_suji) + (hi_exists && hi_suji);
  /* full suji: every side with a suji partner is covered; 3 and 7 count as 1-side (4 / 6) */
  int need_lo = lo_exists && num >= 4, need_hi = hi_exists && num <= 6;
  int need = need_lo + need_hi;
  x[10] = need > 0 && suji == need;
  x[11] = need == 2 && suji == 1;
  x[12] = (float)((lo_exists && !lo_suji && !lo_kabe) + (hi_exists && !hi_suji && !hi_kabe)) / 2;
  x[13] = sides > 0 && (!lo_exists || lo_kabe) && (!hi_exists || hi_kabe);
  x[14] = num >= 2 && num <= 8 && pv->visible[k - 1] < 4 && pv->visible[k + 1] < 4;
}

void rm_oppf_wait(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s, int k,
                  float x[RM_OPPF_NW]) {
  memset(x, 0, sizeof(float) * RM_OPPF_NW);
  int cls = rm_oppf_class(v, s->o, k), vis = pv->visible[k], suit = k / 9, honor = k >= TK_EAST;
  x[0] = 1;
  x[1 + cls] = 1;
  x[7] = (float)vis / 4;
  x[8] = vis == 3;
  x[9] = vis >= 4;
  if (!honor) wait_shape(pv, s, k, x);
  x[15] = (float)(s->passed_riichi >> k & 1);
  x[16] = (float)(s->passed_last >> k & 1);
  if (s->ref >= 0 && !honor && s->ref / 9 == suit) {
    int d = s->ref > k ? s->ref - k : k - s->ref;
    x[17] = d == 3;
    x[18] = d == 1 || d == 2;
  }
  x[19] = honor ? 0 : (float)s->near[k] / 4;
  x[20] = (float)s->early_suit[suit] / 6;
  x[21] = s->nriver ? (float)s->all_suit[suit] / s->nriver : 0;
  x[22] = (float)(pv->dora >> k & 1);
  if (!honor)
    for (int j = k - 2; j <= k + 2; j++)
      if (j != k && j >= suit * 9 && j < suit * 9 + 9 && (pv->dora >> j & 1)) x[23] = 1;
  if (s->honitsu >= 0) {
    x[24] = honor || suit == s->honitsu;
    x[25] = !x[24];
  }
  x[26] = s->nriver >= 9 && (honor || cls == RM_OPPF_T19);
  x[27] = s->open;
  x[28] = s->open && cls == RM_OPPF_YAKUHAI;
  x[29] = (float)v->tiles_left / 70;
}

void rm_oppf_loss(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s,
                  float x[RM_OPPF_NL]) {
  (void)pv;
  int o = s->o;
  x[0] = 1;
  x[1] = v->riichi[o] != 0;
  x[2] = v->riichi[o] == 2;
  x[3] = v->ippatsu[o] != 0;
  x[4] = o == v->dealer;
  x[5] = s->open;
  x[6] = (float)(s->n_open + s->n_ankan) / 4;
  x[7] = s->dora_melds;
  x[8] = s->yakuhai_melds;
  x[9] = s->honitsu >= 0;
  x[10] = s->toitoi;
  x[11] = s->tanyao;
  x[12] = v->ndora > 0 ? (float)(v->ndora - 1) : 0;
  x[13] = (float)s->nriver / 18;
}
