/* plugins/riichi_oneplayer/components.c — the components of a hand that paper 000's rows read
 * (rof_components, features.h): the shanten restricted to each yaku's tiles, the ryanmen-first
 * decomposition, and the yaku status. How each is read: docs/riichi-oneplayer.md. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "features.h"
#include "features_internal.h"


/* ------------------------------------------------------------------ restricted shanten */

/* Per group (a suit or the honors): best[nb][np] = the most held tiles that nb blocks and np
 * pairs (0..1) of the allowed kinds can cover. The search takes the lowest held tile not yet
 * decided and either leaves every remaining copy of it uncovered or covers it with a block
 * containing it (a triplet or pair of it, a sequence starting 0, 1 or 2 ranks below it), which
 * also covers one held copy of each of its higher ranks: copies of a rank are interchangeable,
 * so covering greedily loses nothing, and every target is reached. A kind is never needed more
 * than 4 times. */
typedef struct tgt_search {
  uint8_t v[9];       /* held tiles not yet decided */
  uint8_t need[9];    /* copies the chosen blocks use */
  int len;            /* 9 or 7 */
  int maxb;           /* blocks allowed */
  uint32_t seqs, trips, pairs; /* allowed, bit r = rank r of the group */
  int left;           /* sum of v */
  int best[5][2];
} tgt_search;

static void tgt_rec(tgt_search *s, int nb, int np, int matched) {
  if (matched > s->best[nb][np]) s->best[nb][np] = matched;
  if (!s->left) return;
  /* bound: this node can only improve entries with more blocks or pairs, by at most the tiles
   * left; stop when none of them is below that */
  int reach = matched + s->left, useful = 0;
  for (int b = nb; b <= s->maxb && !useful; b++)
    for (int p = np; p < 2 && !useful; p++) useful = s->best[b][p] < reach;
  if (!useful) return;
  int i = 0;
  while (i < s->len && !s->v[i]) i++;
  uint8_t *v = s->v, *need = s->need;
  int keep = v[i];
  v[i] = 0; /* leave every copy of rank i uncovered */
  s->left -= keep;
  tgt_rec(s, nb, np, matched);
  s->left += keep;
  v[i] = (uint8_t)keep;
  if (nb < s->maxb && (s->trips >> i & 1) && need[i] + 3 <= 4) {
    int take = imin(v[i], 3);
    v[i] = (uint8_t)(v[i] - take);
    need[i] = (uint8_t)(need[i] + 3);
    s->left -= take;
    tgt_rec(s, nb + 1, np, matched + take);
    s->left += take;
    need[i] = (uint8_t)(need[i] - 3);
    v[i] = (uint8_t)(v[i] + take);
  }
  if (!np && (s->pairs >> i & 1) && need[i] + 2 <= 4) {
    int take = imin(v[i], 2);
    v[i] = (uint8_t)(v[i] - take);
    need[i] = (uint8_t)(need[i] + 2);
    s->left -= take;
    tgt_rec(s, nb, 1, matched + take);
    s->left += take;
    need[i] = (uint8_t)(need[i] - 2);
    v[i] = (uint8_t)(v[i] + take);
  }
  if (nb >= s->maxb) return;
  for (int st = i - 2; st <= i; st++) {
    if (st < 0 || st + 2 >= s->len || !(s->seqs >> st & 1)) continue;
    if (need[st] >= 4 || need[st + 1] >= 4 || need[st + 2] >= 4) continue;
    int took[3] = {0, 0, 0}, take = 0;
    for (int r = st; r <= st + 2; r++) {
      need[r]++;
      if (r >= i && v[r]) { v[r]--; took[r - st] = 1; take++; }
    }
    s->left -= take;
    tgt_rec(s, nb + 1, np, matched + take);
    s->left += take;
    for (int r = st; r <= st + 2; r++) {
      need[r]--;
      v[r] = (uint8_t)(v[r] + took[r - st]);
    }
  }
}

/* A small per-thread memo of the per-group searches (a direct-mapped cache: a pure function's
 * results, so the answers never depend on what it holds). */
typedef struct tgt_memo {
  uint64_t key;
  int8_t best[5][2];
} tgt_memo;
enum { TGT_MEMO_BITS = 16 };
static _Thread_local tgt_memo tgt_cache[1 << TGT_MEMO_BITS];

int rof_target_shanten(const uint8_t c[TK_KINDS], int nmelds, uint64_t seqs, uint64_t trips,
                       uint64_t pairs) {
  int N = 4 - nmelds;
  if (N < 0) return 14;
  int f[5][2];
  for (int b = 0; b <= 4; b++) f[b][0] = f[b][1] = -1000;
  f[0][0] = 0;
  for (int g = 0; g < 4; g++) {
    int base = 9 * g, len = g < 3 ? 9 : 7;
    uint32_t gseqs = g < 3 ? (uint32_t)(seqs >> base) & 0x7f : 0;
    uint32_t gtrips = (uint32_t)(trips >> base) & ((1u << len) - 1);
    uint32_t gpairs = (uint32_t)(pairs >> base) & ((1u << len) - 1);
    /* Held tiles of kinds no allowed group contains are never covered: the best covers are
     * the same without them (the search can only leave them), so the fast path drops them: the
     * memo then sees fewer distinct patterns and the searches are smaller. A group left with no
     * tile adds nothing (its only entry is best[0][0] = 0): it is skipped. */
    uint32_t cover = gtrips | gpairs | gseqs | gseqs << 1 | gseqs << 2;
    uint8_t v[9];
    uint32_t code = 0;
    for (int r = 0; r < len; r++) {
      v[r] = rof__plain_mode || (cover >> r & 1) ? c[base + r] : 0;
      code = code * 5 + v[r];
    }
    if (!rof__plain_mode && !code) continue;
    /* the per-group search is a pure function of these: memoised */
    uint64_t key = 1ULL << 63 | (uint64_t)N << 59 | (uint64_t)(g == 3) << 58 |
                   (uint64_t)gseqs << 51 | (uint64_t)gtrips << 42 | (uint64_t)gpairs << 33 | code;
    tgt_memo *mm =
        &tgt_cache[(key ^ key >> 29 ^ key >> 47) * 0x9e3779b97f4a7c15ULL >> (64 - TGT_MEMO_BITS)];
    int best[5][2];
    if (!rof__plain_mode && mm->key == key) {
      for (int b = 0; b <= 4; b++)
        for (int p = 0; p < 2; p++) best[b][p] = mm->best[b][p];
    } else {
      tgt_search s;
      memset(&s, 0, sizeof s);
      s.len = len;
      for (int r = 0; r < s.len; r++) {
        s.v[r] = v[r];
        s.left += s.v[r];
      }
      s.maxb = N;
      s.seqs = gseqs;
      s.trips = gtrips;
      s.pairs = gpairs;
      for (int b = 0; b <= 4; b++) s.best[b][0] = s.best[b][1] = -100;
      tgt_rec(&s, 0, 0, 0);
      for (int b = 0; b <= 4; b++)
        for (int p = 0; p < 2; p++) best[b][p] = s.best[b][p];
      if (!rof__plain_mode) {
        mm->key = key;
        for (int b = 0; b <= 4; b++)
          for (int p = 0; p < 2; p++) mm->best[b][p] = (int8_t)best[b][p];
      }
    }
    int nf[5][2];
    for (int b = 0; b <= 4; b++) nf[b][0] = nf[b][1] = -1000;
    for (int b1 = 0; b1 <= N; b1++)
      for (int p1 = 0; p1 < 2; p1++) {
        if (f[b1][p1] < 0) continue;
        for (int b2 = 0; b1 + b2 <= N; b2++)
          for (int p2 = 0; p1 + p2 < 2; p2++)
            if (best[b2][p2] >= 0 && f[b1][p1] + best[b2][p2] > nf[b1 + b2][p1 + p2])
              nf[b1 + b2][p1 + p2] = f[b1][p1] + best[b2][p2];
      }
    memcpy(f, nf, sizeof f);
  }
  /* the blocks and pair not covering a held tile are free: any allowed one (a suit's allowed
   * sequence, else an allowed triplet), as long as one exists */
  int any_block = (seqs | trips) != 0, any_pair = pairs != 0;
  int best = -1;
  for (int b = 0; b <= N; b++)
    for (int p = 0; p < 2; p++) {
      if (f[b][p] < 0) continue;
      if (b < N && !any_block) continue;
      if (p == 0 && !any_pair) continue;
      if (f[b][p] > best) best = f[b][p];
    }
  if (best < 0) return 14;
  return clip(3 * N + 2 - best - 1, -1, 14);
}

/* ------------------------------------------------------------------ ryanmen-first decomposition */

enum { B_MELD, B_RYANMEN, B_BAD, B_PAIR, B_RPAIR, B_BPAIR, B_ISO };

typedef struct block {
  uint8_t type, lo, hi; /* kinds spanned */
} block;

typedef struct decomp {
  int n[7];       /* blocks per type */
  int nb;
  block b[14];
} decomp;

/* The choice key: most melds, then most ryanmen (plain or in a composite), then most other
 * partials and pairs, then most composites (ties: the first found in the search order). */
static long key_of(const int n[7]) {
  return (long)n[B_MELD] * 1000000 + (long)(n[B_RYANMEN] + n[B_RPAIR]) * 10000 +
         (long)(n[B_BAD] + n[B_BPAIR] + n[B_PAIR]) * 100 + (n[B_RPAIR] + n[B_BPAIR]);
}

typedef struct dsearch {
  uint8_t v[9];
  int len, base, honors;
  decomp cur, best;
  long best_key;
  int left; /* tiles not yet placed */
} dsearch;

static void dpush(dsearch *s, int type, int lo, int hi) {
  s->cur.n[type]++;
  block *b = &s->cur.b[s->cur.nb++];
  b->type = (uint8_t)type;
  b->lo = (uint8_t)(s->base + lo);
  b->hi = (uint8_t)(s->base + hi);
}
static void dpop(dsearch *s) { s->cur.n[s->cur.b[--s->cur.nb].type]--; }

static void drec(dsearch *s) {
  int i = 0;
  while (i < s->len && !s->v[i]) i++;
  if (i == s->len) {
    long k = key_of(s->cur.n);
    if (k > s->best_key) { s->best_key = k; s->best = s->cur; }
    return;
  }
  /* bound: even if every tile left became melds, the meld count cannot beat the best's */
  if (s->best_key >= 0 && s->cur.n[B_MELD] + s->left / 3 < s->best.n[B_MELD]) return;
  uint8_t *v = s->v;
  int num = !s->honors;
#define TRY(type, lo, hi, ...)                                               \
  do {                                                                       \
    static const int8_t take_[] = {__VA_ARGS__};                             \
    int ok_ = 1, nt_ = (int)sizeof take_;                                    \
    for (int t_ = 0; t_ < nt_; t_++)                                         \
      if (i + take_[t_] >= s->len || !v[i + take_[t_]]--) ok_ = 0;           \
    if (ok_) {                                                               \
      s->left -= nt_;                                                        \
      dpush(s, type, i + (lo), i + (hi));                                    \
      drec(s);                                                               \
      dpop(s);                                                               \
      s->left += nt_;                                                        \
    }                                                                        \
    for (int t_ = 0; t_ < nt_; t_++)                                         \
      if (i + take_[t_] < s->len) v[i + take_[t_]]++;                        \
  } while (0)
  /* v[x]-- above ran only while the index was in range; a failed take (count 0) was still
   * decremented and is restored by the loop after */
  TRY(B_MELD, 0, 0, 0, 0, 0);
  if (num) {
    TRY(B_MELD, 0, 2, 0, 1, 2);
    int ryan = i >= 1 && i <= 6; /* i, i+1 both within 2..8 */
    TRY(ryan ? B_RPAIR : B_BPAIR, 0, 1, 0, 0, 1);
    TRY(ryan ? B_RPAIR : B_BPAIR, 0, 1, 0, 1, 1);
    TRY(B_BPAIR, 0, 2, 0, 0, 2);
    TRY(B_BPAIR, 0, 2, 0, 2, 2);
    TRY(ryan ? B_RYANMEN : B_BAD, 0, 1, 0, 1);
    TRY(B_BAD, 0, 2, 0, 2);
  }
  TRY(B_PAIR, 0, 0, 0, 0);
  TRY(B_ISO, 0, 0, 0);
#undef TRY
}

/* A per-thread memo of the per-group searches, direct-mapped: the best decomposition of a group
 * is a pure function of its counts (the key: the group, and its counts in base 5, plus one). */
typedef struct dmemo {
  uint32_t key;
  uint8_t n[7], nb;
  block b[14];
} dmemo;
enum { DMEMO_BITS = 13 };
static _Thread_local dmemo dcache[1 << DMEMO_BITS];

/* Decomposes every group of `c` and merges them (the key is a sum over groups, so the best of
 * the whole is the best of each group). */
static void decompose(const uint8_t c[TK_KINDS], decomp *out) {
  memset(out, 0, sizeof *out);
  for (int g = 0; g < 4; g++) {
    int len = g < 3 ? 9 : 7;
    dmemo *mm = NULL;
    if (!rof__plain_mode) {
      uint32_t code = 0;
      for (int r = 0; r < len; r++) code = code * 5 + c[9 * g + r];
      if (!code) continue;
      uint32_t key = ((uint32_t)g << 22 | code) + 1;
      mm = &dcache[(key * 0x9e3779b1u) >> (32 - DMEMO_BITS)];
      if (mm->key == key) {
        for (int t = 0; t < 7; t++) out->n[t] += mm->n[t];
        for (int j = 0; j < mm->nb && out->nb < 14; j++) out->b[out->nb++] = mm->b[j];
        continue;
      }
      mm->key = key;
    }
    dsearch s;
    memset(&s, 0, sizeof s);
    s.len = g < 3 ? 9 : 7;
    s.base = 9 * g;
    s.honors = g == 3;
    for (int r = 0; r < s.len; r++) {
      s.v[r] = c[s.base + r];
      s.left += s.v[r];
    }
    if (!s.left) continue;
    s.best_key = -1;
    drec(&s);
    if (mm) {
      for (int t = 0; t < 7; t++) mm->n[t] = (uint8_t)s.best.n[t];
      mm->nb = (uint8_t)imin(s.best.nb, 14);
      memcpy(mm->b, s.best.b, sizeof mm->b);
    }
    for (int t = 0; t < 7; t++) out->n[t] += s.best.n[t];
    for (int j = 0; j < s.best.nb && out->nb < 14; j++) out->b[out->nb++] = s.best.b[j];
  }
}

/* The kinds a partial waits on, as a bit mask (kinds of its own suit). */
static uint64_t partial_waits(const block *b) {
  int lo = b->lo, r = lo % 9;
  if (b->hi - b->lo == 2) return 1ULL << (lo + 1); /* kanchan */
  uint64_t m = 0;
  if (r > 0) m |= 1ULL << (lo - 1);
  if (r + 1 < 8) m |= 1ULL << (lo + 2);
  return m;
}

/* ------------------------------------------------------------------ components */


static int meld_tanyao(const tk_call *m) {
  if (m->type == TK_CALL_CHI) return tk_kind_number(m->kind) >= 2 && tk_kind_number(m->kind) <= 6;
  return !tk_kind_is_yaochu(m->kind);
}
static int meld_chanta(const tk_call *m) {
  if (m->type == TK_CALL_CHI) return tk_kind_number(m->kind) == 1 || tk_kind_number(m->kind) == 7;
  return tk_kind_is_yaochu(m->kind);
}


/* Does a block fit chanta: its tiles within 1-3 or within 7-9 of one suit, or honors; a
 * complete meld or a pair must also hold a 1/9/honor. */
static int block_chanta(const block *b) {
  if (b->lo >= 27) return 1;
  int rl = tk_kind_number(b->lo), rh = tk_kind_number(b->hi);
  int within = (rh <= 3) || (rl >= 7);
  if (!within) return 0;
  if (b->type == B_MELD || b->type == B_PAIR) return tk_kind_is_yaochu(b->lo) || tk_kind_is_yaochu(b->hi);
  return 1;
}


static int std_shanten(const uint8_t c[TK_KINDS]) {
  return rof__plain_mode ? tk_shanten_forms(c, TK_FORM_STANDARD) : tk_shanten_standard(c);
}

/* The hand's own errors: more than 4 melds or 4 copies, a tile count that does not fit the
 * melds, a meld that is none. 0, or TK_EINVAL with err set. */
static int check_hand(const rof_hand *h, tk_error *err) {
  if (h->nmelds > 4) return tk_error_set(err, TK_EINVAL, -1, "oneplayer features: hand.nmelds = %d (at most 4)",
                        h->nmelds);
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (h->c[k] > 4) return tk_error_set(err, TK_EINVAL, -1, "oneplayer features: hand.c[%d] = %d (at most 4)", k,
                          h->c[k]);
    n += h->c[k];
  }
  if (n != 3 * (4 - h->nmelds) + 1)
    return tk_error_set(err, TK_EINVAL, -1,
                        "oneplayer features: hand.c holds %d tiles with %d melds (want %d)", n,
                        h->nmelds, 3 * (4 - h->nmelds) + 1);
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    if (m->type > TK_CALL_KAKAN || m->kind >= TK_KINDS ||
        (m->type == TK_CALL_CHI && (m->kind >= 27 || m->kind % 9 > 6)))
      return tk_error_set(err, TK_EINVAL, -1,
                          "oneplayer features: hand.melds[%d] = (type %d, kind %d) is no meld", i,
                          m->type, m->kind);
  }
  return 0;
}

/* all[]: every tile of the hand, melds included; the shanten of each form, the normal form's
 * effective tiles, and whether riichi is open to the hand. */
static void shape(const rof_hand *h, const rof_ctx *x, rof_comp *o, uint8_t all[TK_KINDS]) {
  const uint8_t *c = h->c;
  /* every tile of the hand, melds included (a kan counts 4) */
  memcpy(all, c, TK_KINDS);
  o->calls = h->nmelds;
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    for (int k = m->kind; k <= imin(m->kind + 2, TK_KINDS - 1); k++) {
      int t = meld_tiles(m, k);
      all[k] = (uint8_t)imin(all[k] + t, 4);
    }
    if (m->type != TK_CALL_ANKAN) o->open = 1;
    if (m->type == TK_CALL_CHI) o->has_chi = 1;
  }

  /* shanten */
  if (rof__plain_mode) {
    o->sh = (int8_t)tk_shanten_forms(c, TK_FORM_STANDARD);
    o->sh_all = (int8_t)tk_shanten(c);
    o->sh_chiitoi = (int8_t)(h->nmelds ? 7 : tk_shanten_forms(c, TK_FORM_CHIITOI));
    o->sh_kokushi = (int8_t)(h->nmelds ? 14 : tk_shanten_forms(c, TK_FORM_KOKUSHI));
  } else {
    /* the same values through the cheaper calls: tk_shanten is the least of the three forms,
     * and with a meld called (fewer than 13 concealed tiles) it is the standard form's */
    o->sh = (int8_t)tk_shanten_standard(c);
    o->sh_chiitoi = (int8_t)(h->nmelds ? 7 : tk_shanten_forms(c, TK_FORM_CHIITOI));
    o->sh_kokushi = (int8_t)(h->nmelds ? 14 : tk_shanten_forms(c, TK_FORM_KOKUSHI));
    int least = o->sh;
    if (!h->nmelds) least = imin(least, imin(o->sh_chiitoi, o->sh_kokushi));
    o->sh_all = (int8_t)least;
  }

  /* effective tiles of the normal form */
  int cnt = 0;
  o->ukeire_mask = tk_ukeire(c, x->seen, TK_FORM_STANDARD, &cnt, NULL);
  o->ukeire = (uint8_t)clip(cnt, 0, 255);
  for (int k = 0; k < TK_KINDS; k++)
    if (o->ukeire_mask >> k & 1) {
      int left = 4 - c[k] - x->seen[k];
      if (left < 0) left = 0;
      o->ukeire_suit[tk_kind_suit(k)] = (uint8_t)(o->ukeire_suit[tk_kind_suit(k)] + left);
      if (tk_kind_is_yaochu(k)) o->ukeire_yaochu = (uint8_t)(o->ukeire_yaochu + left);
    }
  o->riichi = x->riichi_ok && !o->open && o->sh_all == 0;
}

/* The ryanmen-first decomposition *d and what it counts: melds, partials, pairs, isolated
 * tiles, overlapping waits, the perfect 1/2-shanten, heads and triplets. */
static void blocks(const rof_hand *h, const rof_ctx *x, rof_comp *o, decomp *d) {
  const uint8_t *c = h->c;
  /* decomposition */
  decompose(c, d);
  o->melds = (uint8_t)(d->n[B_MELD] + h->nmelds);
  o->ryanmen = (uint8_t)d->n[B_RYANMEN];
  o->bad = (uint8_t)d->n[B_BAD];
  o->pairs = (uint8_t)d->n[B_PAIR];
  o->rpair = (uint8_t)d->n[B_RPAIR];
  o->bpair = (uint8_t)d->n[B_BPAIR];
  int np = 0;
  for (int j = 0; j < d->nb; j++) {
    const block *b = &d->b[j];
    if (b->type == B_ISO) o->isolated[o->nisolated++] = b->lo;
    if (b->type == B_PAIR && np < 7) o->pair_kind[np++] = b->lo;
  }
  /* blocks come group by group in ascending order of their lowest kind: sort the lists */
  for (int a = 1; a < o->nisolated; a++)
    for (int b = a; b > 0 && o->isolated[b - 1] > o->isolated[b]; b--) {
      uint8_t t = o->isolated[b]; o->isolated[b] = o->isolated[b - 1]; o->isolated[b - 1] = t;
    }
  for (int a = 1; a < np; a++)
    for (int b = a; b > 0 && o->pair_kind[b - 1] > o->pair_kind[b]; b--) {
      uint8_t t = o->pair_kind[b]; o->pair_kind[b] = o->pair_kind[b - 1]; o->pair_kind[b - 1] = t;
    }
  for (int a = 0; a < d->nb; a++) {
    const block *p = &d->b[a];
    if (p->type != B_RYANMEN && p->type != B_BAD) continue;
    for (int b = a + 1; b < d->nb; b++) {
      const block *q = &d->b[b];
      if (q->type != B_RYANMEN && q->type != B_BAD) continue;
      if (!(partial_waits(p) & partial_waits(q))) continue;
      if (p->type == B_RYANMEN && q->type == B_RYANMEN) o->over_ryanmen++;
      else o->over_bad++;
    }
  }
  if (o->sh == 1 && o->melds == 2 && o->ryanmen >= 1 && o->pairs >= 1 && o->rpair >= 1)
    o->perfect = 1;
  else if (o->sh == 2 && o->melds == 1 && o->ryanmen >= 2 && o->pairs >= 1 && o->rpair >= 1)
    o->perfect = 2;

  /* pairs as the head, triplets as a meld: the normal-form shanten with the choice fixed. A
   * pair k is fixed as the head by moving it onto a kind h that holds nothing and has no held
   * neighbour: such a pair can only be the head or an idle pair, and the shanten of that hand
   * is the shanten with k's pair as the head. A triplet is fixed as a meld by removing it (the
   * kernel counts the removed tiles as a called meld). */
  int free_h = -1;
  for (int k = TK_EAST; k < TK_KINDS && free_h < 0; k++)
    if (!c[k]) free_h = k;
  for (int k = 0; k < 27 && free_h < 0; k++) {
    int r = k % 9, lone = !c[k];
    for (int dd = -2; dd <= 2 && lone; dd++)
      if (r + dd >= 0 && r + dd < 9 && c[k + dd]) lone = 0;
    if (lone) free_h = k;
  }
  uint8_t t[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) {
    if (c[k] >= 2) {
      if (free_h < 0) o->good_pairs++; /* no free kind (never seen in practice): count it */
      else {
        memcpy(t, c, TK_KINDS);
        t[k] = (uint8_t)(t[k] - 2);
        t[free_h] = 2;
        if (std_shanten(t) == o->sh) o->good_pairs++;
      }
    }
    if (c[k] >= 3) {
      o->ctriplets++;
      memcpy(t, c, TK_KINDS);
      t[k] = (uint8_t)(t[k] - 3);
      if (std_shanten(t) == o->sh) o->good_triplets++;
    }
  }
  o->triplets = o->ctriplets;
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].type != TK_CALL_CHI) o->triplets++;
  for (int k = 0; k < TK_KINDS; k++)
    if (c[k] == 2 && 4 - 2 - x->seen[k] <= 0) o->dead_pairs++;
}

/* The yaku parts: yakuhai, dora, tanyao, chanta, one suit, sanshoku and ittsu. */
static void yaku_parts(const rof_hand *h, const rof_ctx *x, rof_comp *o, const uint8_t all[TK_KINDS],
                       const decomp *d) {
  const uint8_t *c = h->c;
  /* yakuhai */
  for (int k = TK_EAST; k < TK_KINDS; k++) {
    if (!is_yakuhai(k, x)) continue;
    if (c[k] >= 3) o->yakuhai_trip++;
    if (c[k] == 2) o->yakuhai_pairs++;
    if (c[k] == 1) o->yakuhai_iso |= (uint8_t)(k >= TK_HAKU ? 1 << (k - TK_HAKU) : 8);
  }
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].type != TK_CALL_CHI && is_yakuhai(h->melds[i].kind, x)) o->yakuhai_trip++;

  /* dora */
  int red_melds = 0;
  for (int i = 0; i < h->nmelds; i++) red_melds += h->melds[i].red;
  int dora = h->red + red_melds, tdora = dora;
  for (int i = 0; i < x->ndora; i++) {
    int dk = tk_dora_of(x->dora[i]);
    dora += all[dk];
    if (!tk_kind_is_yaochu(dk)) tdora += all[dk];
  }
  o->dora = (uint8_t)clip(dora, 0, 255);
  o->tanyao_dora = (uint8_t)clip(tdora, 0, 255);

  /* tanyao, chanta, one suit */
  o->tanyao_ok = o->chanta_ok = 1;
  for (int i = 0; i < h->nmelds; i++) {
    if (!meld_tanyao(&h->melds[i])) o->tanyao_ok = 0;
    if (!meld_chanta(&h->melds[i])) o->chanta_ok = 0;
  }
  uint64_t simples = 0, yaochu = 0, tseq = 0, cseq = 0, seq_starts = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (tk_kind_is_yaochu(k)) yaochu |= 1ULL << k;
    else simples |= 1ULL << k;
    int r = tk_kind_number(k);
    if (r >= 2 && r <= 6) tseq |= 1ULL << k;
    if (r == 1 || r == 7) cseq |= 1ULL << k;
    if (r >= 1 && r <= 7) seq_starts |= 1ULL << k;
  }
  o->sh_tanyao = (int8_t)(o->tanyao_ok ? rof_target_shanten(c, h->nmelds, tseq, simples, simples) : 14);
  o->sh_chanta = (int8_t)(o->chanta_ok ? rof_target_shanten(c, h->nmelds, cseq, yaochu, yaochu) : 14);
  int suitn[3] = {0, 0, 0};
  for (int k = 0; k < TK_KINDS; k++) {
    int tiles = c[k];
    if (k < 27) suitn[k / 9] += tiles;
    else if (tiles) o->has_honor = 1;
    if (!tk_kind_is_yaochu(k)) o->tanyao_tiles = (uint8_t)(o->tanyao_tiles + tiles);
    int r = tk_kind_number(k);
    if (k >= 27 || r <= 3 || r >= 7) o->chanta_tiles = (uint8_t)(o->chanta_tiles + tiles);
    if (k < 27 && r >= 2 && r <= 8 && c[k] == 2) o->tanyao_pairs++;
  }
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    if (m->kind < 27) suitn[m->kind / 9] += 3;
    else o->has_honor = 1;
    if (meld_tanyao(m)) o->tanyao_tiles = (uint8_t)(o->tanyao_tiles + 3);
    if (meld_chanta(m)) {
      o->chanta_tiles = (uint8_t)(o->chanta_tiles + 3);
      o->chanta_blocks++;
    }
  }
  for (int j = 0; j < d->nb; j++)
    if (d->b[j].type != B_ISO && block_chanta(&d->b[j])) o->chanta_blocks++;
  int s = 0;
  for (int g = 1; g < 3; g++)
    if (suitn[g] > suitn[s]) s = g;
  o->suit = (uint8_t)s;
  o->suit_count = (uint8_t)suitn[s];
  int suit_ok = 1;
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].kind < 27 && h->melds[i].kind / 9 != s) suit_ok = 0;
  if (suit_ok) {
    uint64_t sk = ((1ULL << 9) - 1) << (9 * s), hon = ((1ULL << 7) - 1) << 27;
    o->sh_suit = (int8_t)rof_target_shanten(c, h->nmelds, sk & seq_starts, sk | hon, sk | hon);
  } else
    o->sh_suit = 14;

  /* sanshoku and ittsu: distinct kinds held (melds included) */
  for (int r = 0; r < 7; r++) {
    int m = 0;
    for (int g = 0; g < 3; g++)
      for (int dd = 0; dd < 3; dd++) m += all[9 * g + r + dd] > 0;
    if (m > o->sanshoku_max) o->sanshoku_max = (uint8_t)m;
  }
  for (int g = 0; g < 3; g++) {
    int m = 0;
    for (int r = 0; r < 9; r++) m += all[9 * g + r] > 0;
    if (m > o->ittsu_max) o->ittsu_max = (uint8_t)m;
  }
}

/* Tenpai: the han of a ron and of a tsumo on each wait, the yaku status and furiten. */
static void waits(const rof_hand *h, const rof_ctx *x, rof_comp *o) {
  const uint8_t *c = h->c;
  uint8_t t[TK_KINDS]; /* the hand with one wait added */
  /* waits: han of a ron and of a tsumo on each (no riichi: the yaku the hand itself holds) */
  o->yaku = o->yakuhai_trip ? 0 : 1;
  if (o->sh_all == 0) {
    uint64_t w = tk_waits(c);
    tk_win_ctx wc;
    memset(&wc, 0, sizeof wc);
    wc.ruleset = TK_RULES_TENHOU;
    wc.round_wind = x->round_wind;
    wc.seat_wind = x->seat_wind;
    wc.ndora = (uint8_t)imin(x->ndora, TK_MAX_INDICATORS);
    memcpy(wc.dora, x->dora, TK_MAX_INDICATORS);
    int with = 0;
    for (int k = 0; k < TK_KINDS && o->nwaits < 13; k++) {
      if (!(w >> k & 1)) continue;
      memcpy(t, c, TK_KINDS);
      t[k]++;
      int hans[2];
      for (int ron = 1; ron >= 0; ron--) {
        tk_score sc;
        wc.ron = (uint8_t)ron;
        wc.win_tile = (uint8_t)k;
        int rc = tk_score_counts(t, k, h->red, h->melds, h->nmelds, &wc, &sc, NULL);
        hans[ron] = rc ? 0 : sc.yakuman ? 13 : sc.han;
      }
      int left = 4 - c[k] - x->seen[k];
      if (left < 0) left = 0;
      int i = o->nwaits++;
      o->waits[i] = (uint8_t)k;
      o->wait_han[i] = (uint8_t)hans[1];
      o->wait_tsumo[i] = (uint8_t)hans[0];
      o->wait_left[i] = (uint8_t)left;
      if (hans[1] > 0) { with++; o->win_yaku = (uint8_t)(o->win_yaku + left); }
      else o->win_noyaku = (uint8_t)(o->win_noyaku + left);
    }
    o->yaku = with == o->nwaits ? 0 : with == 0 ? 1 : 2;
    o->furiten = (x->furiten & ROF_FURITEN_OTHER) || (w & x->river);
    o->special_form = o->sh > 0;
  }
}

int rof_components(const rof_hand *h, const rof_ctx *x, rof_comp *o, tk_error *err) {
  memset(o, 0, sizeof *o);
  int rc = check_hand(h, err);
  if (rc) return rc;
  uint8_t all[TK_KINDS];
  decomp d;
  shape(h, x, o, all);
  blocks(h, x, o, &d);
  yaku_parts(h, x, o, all, &d);
  waits(h, x, o);
  return 0;
}
