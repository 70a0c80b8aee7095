/* plugins/solo_search/best_hand.c — exact branch and bound for the best reachable hand
 * (best_hand.h states the problem and the order on hands).
 *
 * Standard hands are enumerated as a pair, then 4 melds in non-decreasing (kind, type) order
 * drawn from the remaining pool counts; seven pairs as 7 increasing kinds; thirteen orphans
 * by the kind held twice. Every node carries the yaku-relevant facts of the groups chosen so
 * far (an `acc`, passed by value) and is pruned when an upper bound on the key of every hand
 * below it — (R, P, U) from the yaku still possible, the dora still reachable, the largest fu
 * and the current tiles still usable, then the already fixed prefix of h — cannot beat the best
 * hand found. Leaves are scored exactly by the same rules as arenas/mahjong/score.c under
 * TK_RULES_SOLO (checked against tk_solo_score by tests/agents/test_best_hand.c). The pool
 * counts live in one mutable `search` with bit masks of the kinds holding >= 1 / >= 3 tiles,
 * updated on every take and put-back; nothing is allocated. */
#include <pthread.h>
#include <string.h>

#include "best_hand.h"

#define BIT(k) (1ULL << (k))
#define ALL34 ((1ULL << TK_KINDS) - 1)
/* sequence starts: 1..7 of each suit */
#define SEQ_OK (0x7FULL | 0x7FULL << 9 | 0x7FULL << 18)
#define HONORS (0x7FULL << 27)
#define WINDS (0xFULL << 27)
#define DRAGONS (0x7ULL << 31)
#define TERMINALS (BIT(0) | BIT(8) | BIT(9) | BIT(17) | BIT(18) | BIT(26))
#define YAOCHU (TERMINALS | HONORS)
#define GREEN (BIT(19) | BIT(20) | BIT(21) | BIT(23) | BIT(25) | BIT(32))
/* sequences holding a terminal: 123 and 789 of each suit */
#define SEQ_YAOCHU (BIT(0) | BIT(6) | BIT(9) | BIT(15) | BIT(18) | BIT(24))

/* SWAR popcount: without -mpopcnt, __builtin_popcountll is a libgcc call */
static inline int popc(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int min_i(int a, int b) { return a < b ? a : b; }
static inline int up10(int fu) { return (fu + 9) / 10 * 10; }

int tk__bh_points(int han, int fu) {
  if (han >= 13) return 48000;
  if (han >= 11) return 36000;
  if (han >= 8) return 24000;
  if (han >= 6) return 18000;
  if (han >= 5) return 12000;
  int p = (6 * fu) << (han + 2);
  p = (p + 99) / 100 * 100;
  return p < 12000 ? p : 12000;
}

int tk__bh_compare(int64_t r1, int p1, int u1, const uint8_t *h1, int64_t r2, int p2, int u2,
                   const uint8_t *h2) {
  if (r1 != r2) return r1 > r2 ? 1 : -1;
  if (p1 != p2) return p1 > p2 ? 1 : -1;
  if (u1 != u2) return u1 > u2 ? 1 : -1;
  for (int k = 0; k < TK_KINDS; k++)
    if (h1[k] != h2[k]) return h1[k] > h2[k] ? 1 : -1;
  return 0;
}

/* ------------------------------------------------------------------ suit capacity */

/* MELDS[x]: the most melds (sequences and triplets) that the tiles of one suit can form, for
 * x = sum_i count[i] * 5^i over its nine kinds. Built once per process (1.9 MB, ~30 ms). */
enum { SUIT_CONFIGS = 1953125 };
static uint8_t MELDS[SUIT_CONFIGS];
static const uint32_t POW5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
static pthread_once_t melds_once = PTHREAD_ONCE_INIT;

static void build_melds(void) {
  /* the lowest kind i holding tiles: one of its tiles is left out, or in a triplet, or in a
   * sequence starting at i; every smaller configuration is already known */
  for (uint32_t x = 1; x < SUIT_CONFIGS; x++) {
    int i = 0;
    uint32_t y = x;
    while (y % 5 == 0) y /= 5, i++;
    int n = (int)(y % 5), best = MELDS[x - POW5[i]];
    if (n >= 3 && 1 + MELDS[x - 3 * POW5[i]] > best) best = 1 + MELDS[x - 3 * POW5[i]];
    if (i <= 6 && (x / POW5[i + 1]) % 5 && (x / POW5[i + 2]) % 5 &&
        1 + MELDS[x - POW5[i] - POW5[i + 1] - POW5[i + 2]] > best)
      best = 1 + MELDS[x - POW5[i] - POW5[i + 1] - POW5[i + 2]];
    MELDS[x] = (uint8_t)best;
  }
}

void tk__bh_prepare(tk__bh_ctx *c, const uint8_t cur[TK_KINDS], int dora_indicator, int a,
                    int prefer_points) {
  pthread_once(&melds_once, build_melds);
  memset(c, 0, sizeof *c);
  c->prefer_points = prefer_points != 0;
  memcpy(c->cur, cur, TK_KINDS);
  c->dora = dora_indicator >= 0 && dora_indicator < TK_KINDS ? tk_dora_of(dora_indicator) : -1;
  c->a = a < 0 ? 0 : a > 1000 ? 1000 : a;
  int sh = tk_counts_total(cur) == 14 ? tk_shanten(cur) : 0;
  if (sh < 0) sh = 0; /* a complete hand: still at least one tile must change */
  c->umax = 13 - sh;
  c->min_draws = sh + 1;
  for (int k = TK_KINDS - 1; k >= 0; k--) c->cur_suffix[k] = (uint8_t)(c->cur_suffix[k + 1] + cur[k]);
}

/* ------------------------------------------------------------------ state */

typedef struct search {
  const tk__bh_ctx *c;
  tk__bh_best *best;
  uint8_t rem[TK_KINDS]; /* pool minus the tiles of the groups chosen */
  uint8_t h[TK_KINDS];   /* the tiles of the groups chosen */
  uint64_t m1, m2, m3;   /* kinds with rem >= 1, >= 2, >= 3 */
  int srem[4];           /* remaining tiles per suit (3: honors) */
  int used;              /* sum_k min(h[k], cur[k]) */
  int pair;
  int nm;
  uint8_t gt[4], gk[4];  /* melds: type (0 sequence, 1 triplet), kind (lowest) */
  unsigned gates;        /* yakuman the pool could hold at all (G_ bits) */
} search;

enum {
  G_SUUANKOU = 1, G_DAISANGEN = 2, G_DAISUUSHII = 4, G_TSUUIISOU = 8, G_RYUUIISOU = 16,
  G_CHINROUTOU = 32, G_CHUUREN = 64 /* << suit */
};

/* Taking one tile of kind k (rem[k] >= 1) and putting it back. */
static inline void take1(search *s, int k) {
  s->used += s->h[k] < s->c->cur[k];
  s->h[k]++;
  s->srem[k / 9]--;
  int r = --s->rem[k];
  if (r == 0) s->m1 &= ~BIT(k);
  else if (r == 1) s->m2 &= ~BIT(k);
  else if (r == 2) s->m3 &= ~BIT(k);
}

static inline void put1(search *s, int k) {
  s->h[k]--;
  s->used -= s->h[k] < s->c->cur[k];
  s->srem[k / 9]++;
  int r = ++s->rem[k];
  if (r == 1) s->m1 |= BIT(k);
  else if (r == 2) s->m2 |= BIT(k);
  else if (r == 3) s->m3 |= BIT(k);
}

/* Taking n tiles of kind k (rem[k] >= n) and putting them back. */
static inline void take(search *s, int k, int n) {
  int h = s->h[k], c = s->c->cur[k];
  s->used += min_i(h + n, c) - min_i(h, c);
  s->h[k] = (uint8_t)(h + n);
  s->srem[k / 9] -= n;
  int r = s->rem[k] -= (uint8_t)n;
  if (r < 3) s->m3 &= ~BIT(k);
  if (r < 2) s->m2 &= ~BIT(k);
  if (r < 1) s->m1 &= ~BIT(k);
}

static inline void put(search *s, int k, int n) {
  int h = s->h[k], c = s->c->cur[k];
  s->used += min_i(h - n, c) - min_i(h, c);
  s->h[k] = (uint8_t)(h - n);
  s->srem[k / 9] += n;
  int r = s->rem[k] += (uint8_t)n;
  if (r >= 1) s->m1 |= BIT(k);
  if (r >= 2) s->m2 |= BIT(k);
  if (r >= 3) s->m3 |= BIT(k);
}

/* Facts about the groups chosen so far (pair included). */
typedef struct acc {
  uint64_t seq_at, trip_at; /* bit k: a sequence starting at / a triplet of kind k */
  int8_t nseq, ntrip;
  int8_t peikou;  /* pairs of identical sequences */
  int8_t run;     /* copies of the last meld, when it is a sequence */
  int8_t simple;  /* every tile 2..8 */
  int8_t chanta;  /* every group holds a terminal or honor */
  int8_t honors;  /* an honor tile is used */
  int8_t suits;   /* bit s: numbered suit s is used */
  int8_t green;   /* every tile green (ryuuiisou) */
  int8_t term;    /* every tile a terminal (chinroutou) */
  int8_t vhan;    /* yakuhai han: dragon triplets 1, East triplet 2 (seat and round) */
  int8_t dragons, winds; /* dragon / wind triplets */
  int8_t fu;      /* fu of the triplets (concealed: 4 simple, 8 terminal or honor) and pair */
  int16_t last;   /* index 2*kind + type of the last meld, -1 before the first */
} acc;

static inline int is_value(int k) { return k >= TK_HAKU || k == TK_EAST; }

static acc pair_acc(int p) {
  acc a;
  memset(&a, 0, sizeof a);
  uint64_t b = BIT(p);
  a.simple = !(YAOCHU & b);
  a.chanta = (YAOCHU & b) != 0;
  a.honors = p >= 27;
  a.suits = (int8_t)(p < 27 ? 1 << (p / 9) : 0);
  a.green = (GREEN & b) != 0;
  a.term = (TERMINALS & b) != 0;
  a.fu = (int8_t)(p >= TK_HAKU ? 2 : p == TK_EAST ? 4 : 0);
  a.last = -1;
  return a;
}

static inline void acc_seq(acc *a, int k) {
  int r = k % 9;
  a->nseq++;
  a->seq_at |= BIT(k);
  a->simple &= r != 0 && r != 6;
  a->chanta &= r == 0 || r == 6;
  a->suits |= (int8_t)(1 << (k / 9));
  a->green &= k == 19;
  a->term = 0;
  a->run = (int8_t)(a->last == 2 * k ? a->run + 1 : 1);
  if (a->run == 2 || a->run == 4) a->peikou++;
  a->last = (int16_t)(2 * k);
}

static inline void acc_trip(acc *a, int k) {
  uint64_t b = BIT(k);
  int y = (YAOCHU & b) != 0;
  a->ntrip++;
  a->trip_at |= b;
  a->simple &= !y;
  a->chanta &= y;
  if (k >= 27) a->honors = 1;
  else a->suits |= (int8_t)(1 << (k / 9));
  a->fu = (int8_t)(a->fu + (y ? 8 : 4));
  a->vhan = (int8_t)(a->vhan + (k == TK_EAST ? 2 : k >= TK_HAKU ? 1 : 0));
  a->dragons = (int8_t)(a->dragons + (k >= TK_HAKU));
  a->winds = (int8_t)(a->winds + (k >= TK_EAST && k <= TK_NORTH));
  a->green &= (GREEN & b) != 0;
  a->term &= (TERMINALS & b) != 0;
  a->run = 0;
  a->last = (int16_t)(2 * k + 1);
}

/* ------------------------------------------------------------------ best so far */

static void offer(search *s, int points) {
  tk__bh_best *b = s->best;
  int64_t r = tk__bh_reward(s->c->a, points, s->used);
  int pp = s->c->prefer_points;
  if (b->found && tk__bh_compare(r, pp ? points : 0, s->used, s->h, b->reward,
                                 pp ? b->points : 0, b->used, b->hand) <= 0)
    return;
  b->found = 1;
  b->reward = r;
  b->points = points;
  b->used = s->used;
  memcpy(b->hand, s->h, TK_KINDS);
}

/* May a hand with key at most (points, used) and h[0..fixed-1] as now beat the best? */
static int may_beat(const search *s, int points, int used, int fixed) {
  const tk__bh_best *b = s->best;
  if (!b->found) return 1;
  int64_t r = tk__bh_reward(s->c->a, points, used);
  if (r != b->reward) return r > b->reward;
  if (s->c->prefer_points && points != b->points) return points > b->points;
  if (used != b->used) return used > b->used;
  for (int k = 0; k < fixed; k++)
    if (s->h[k] != b->hand[k]) return s->h[k] > b->hand[k];
  return 1;
}

/* ------------------------------------------------------------------ standard form */

/* Is the chosen hand (all 14 tiles in h) chuuren poutou? */
static int chuuren(const uint8_t *h, int suit) {
  const uint8_t *x = h + 9 * suit;
  if (x[0] < 3 || x[8] < 3) return 0;
  for (int i = 1; i < 8; i++)
    if (!x[i]) return 0;
  return 1;
}

static void leaf_standard(search *s, const acc *a) {
  const uint8_t *cur = s->c->cur, *h = s->h;
  int pair = s->pair;
  int single = a->suits && !(a->suits & (a->suits - 1));
  int yakuman = !a->suits || a->green || a->term || a->ntrip == 4 || a->dragons == 3 ||
                a->winds == 4 || (single && !a->honors && chuuren(h, ctz((unsigned)a->suits)));
  /* the winning tile: a kind drawn from the future, h[k] > cur[k], in some group */
  int plus2 = h[pair] > cur[pair], zero = 0, ryanmen = 0;
  for (int i = 0; i < 4; i++) {
    int k = s->gk[i];
    if (s->gt[i]) {
      zero |= h[k] > cur[k];
    } else {
      if (h[k] > cur[k]) {
        if (k % 9 == 6) plus2 = 1;
        else ryanmen = 1;
      }
      if (h[k + 1] > cur[k + 1]) plus2 = 1;
      if (h[k + 2] > cur[k + 2]) {
        if (k % 9 == 0) plus2 = 1;
        else ryanmen = 1;
      }
    }
  }
  if (!(plus2 | zero | ryanmen)) return; /* the current hand itself: not reachable */
  if (yakuman) {
    offer(s, 48000);
    return;
  }
  int han = 1 + a->simple + (a->peikou >= 2 ? 3 : a->peikou) + a->vhan;
  uint64_t q = a->seq_at, t = a->trip_at;
  if (q & (q >> 9) & (q >> 18) & 0x7F) han += 2;                       /* sanshoku */
  if (q & (q >> 3) & (q >> 6) & (BIT(0) | BIT(9) | BIT(18))) han += 2;  /* ittsu */
  if (a->chanta && a->nseq) han += a->honors ? 2 : 3;                   /* chanta, junchan */
  if (a->ntrip == 3) han += 2;                                          /* sanankou */
  if (t & (t >> 9) & (t >> 18) & 0x1FF) han += 2;                       /* sanshoku doukou */
  if (a->dragons == 2 && pair >= TK_HAKU) han += 2;                     /* shousangen */
  if (single) han += a->honors ? 3 : 6;                                 /* honitsu, chinitsu */
  if (s->c->dora >= 0) han += h[s->c->dora];
  int fu = 22 + a->fu, p = 0;
  if (plus2) p = tk__bh_points(han, up10(fu + 2));
  if (zero | ryanmen) {
    int q0 = tk__bh_points(han, up10(fu));
    if (q0 > p) p = q0;
  }
  if (ryanmen && a->nseq == 4 && !is_value(pair)) {
    int q1 = tk__bh_points(han + 1, 20); /* pinfu tsumo */
    if (q1 > p) p = q1;
  }
  offer(s, p);
}

/* The most melds the remaining tiles of suit `su` at kinds >= pk can form. */
static inline int suit_cap(const search *s, int su, int pk) {
  int lo = 9 * su, from = pk > lo ? pk - lo : 0;
  if (from > 8) return 0;
  uint32_t x = 0;
  for (int i = 8; i >= from; i--) x = x * 5 + s->rem[lo + i];
  return MELDS[x * POW5[from]];
}

/* The fewest sequences from `avail` (start bits) that complete sanshoku or ittsu with the chosen
 * ones `q` (4 if none can). */
static int seq_triple_missing(uint64_t q, uint64_t avail) {
  uint64_t have = q | avail;
  int best = 4;
  uint64_t cand = have & (have >> 9) & (have >> 18) & 0x7F; /* sanshoku: number n */
  while (cand) {
    int n = ctz(cand);
    cand &= cand - 1;
    int m = 3 - (int)(((q >> n) & 1) + ((q >> (n + 9)) & 1) + ((q >> (n + 18)) & 1));
    if (m < best) best = m;
  }
  for (int b = 0; b < 27; b += 9) /* ittsu in the suit starting at b */
    if ((have >> b & 1) && (have >> (b + 3) & 1) && (have >> (b + 6) & 1)) {
      int m = 3 - (int)(((q >> b) & 1) + ((q >> (b + 3)) & 1) + ((q >> (b + 6)) & 1));
      if (m < best) best = m;
    }
  return best;
}

/* The fewest triplets from `avail` that complete sanshoku doukou with the chosen ones `t`. */
static int doukou_missing(uint64_t t, uint64_t avail) {
  uint64_t have = t | avail;
  int best = 4;
  uint64_t cand = have & (have >> 9) & (have >> 18) & 0x1FF;
  while (cand) {
    int n = ctz(cand);
    cand &= cand - 1;
    int m = 3 - (int)(((t >> n) & 1) + ((t >> (n + 9)) & 1) + ((t >> (n + 18)) & 1));
    if (m < best) best = m;
  }
  return best;
}

#define SIMPLES (ALL34 & ~YAOCHU)
/* sequences of simples only: 234..678 of each suit */
#define SEQ_SIMPLE (0x3EULL | 0x3EULL << 9 | 0x3EULL << 18)

/* An upper bound on the points of every completion of `a` by r >= 1 melds of index >= j whose
 * sequences start in `sa` (those available twice: `sa2`) and whose triplets lie in `ta`;
 * pk = j / 2 is the lowest kind they use. Yaku that need sequences and yaku that need
 * triplets compete for the 4 melds, so the bound is the best over the final number of
 * sequences of (han of the yaku still possible with that many) at the largest fu. */
static int bound_standard(const search *s, const acc *a, int r, int pk, uint64_t sa,
                          uint64_t sa2, uint64_t ta) {
  unsigned g = s->gates;
  int nta = popc(ta);
  if (g) {
    if ((g & G_SUUANKOU) && !a->nseq && nta >= r) return 48000;
    if ((g & G_DAISANGEN) && a->dragons + popc(ta & DRAGONS) >= 3 && 3 - a->dragons <= r)
      return 48000;
    if ((g & G_DAISUUSHII) && a->winds + popc(ta & WINDS) >= 4 && 4 - a->winds <= r) return 48000;
    if ((g & G_TSUUIISOU) && !a->suits && popc(ta & HONORS) >= r) return 48000;
    if ((g & G_RYUUIISOU) && a->green) return 48000;
    if ((g & G_CHINROUTOU) && a->term && popc(ta & TERMINALS) >= r) return 48000;
    if (g >= G_CHUUREN && !a->honors && (!a->suits || !(a->suits & (a->suits - 1))) &&
        (g / G_CHUUREN) & (a->suits ? (unsigned)a->suits : 7u))
      return 48000;
  }
  /* what does not depend on the meld types */
  int common = 1; /* menzen tsumo */
  int tan = a->simple && ((sa & SEQ_SIMPLE) | (ta & SIMPLES)) != 0;
  int ch = a->chanta && ((sa & SEQ_YAOCHU) | (ta & YAOCHU)) != 0 ? (a->honors ? 2 : 3) : 0;
  common += tan > ch ? tan : ch;
  int ns = popc((unsigned)a->suits), hcap = popc(ta & HONORS);
  if (ns == 1) { /* the remaining melds must come from that suit (and honors) */
    int su = ctz((unsigned)a->suits), cap = suit_cap(s, su, pk);
    if (!a->honors && cap >= r) common += 6;
    else if (cap + hcap >= r) common += 3;
  } else if (ns == 0) { /* only honors so far */
    for (int su = 0; su < 3; su++)
      if (suit_cap(s, su, pk) + hcap >= r) {
        common += 3;
        break;
      }
  }
  int d = s->c->dora;
  if (d >= 0) {
    common += s->h[d];
    if (d >= pk) { /* a triplet holds 3 copies, a sequence 1; an honor only as a triplet */
      int rd = s->rem[d];
      common += d >= 27 ? (rd >= 3 ? 3 : 0) : rd >= 3 ? min_i(rd, r + 2) : min_i(rd, r);
    }
  }
  int last_kind = a->last >> 1;
  int odd = a->last >= 0 && !(a->last & 1) && (a->run & 1) && (sa >> last_kind & 1);
  int nsa2 = popc(sa2), e_avail = (ta >> TK_EAST) & 1, nd_avail = popc(ta & DRAGONS);
  int best = 0;
  int add_max = sa ? r : 0;
  int miss_seq = a->nseq + add_max >= 3 ? seq_triple_missing(a->seq_at, sa) : 4;
  int miss_trip = a->ntrip + min_i(r, nta) >= 3 ? doukou_missing(a->trip_at, ta) : 4;
  for (int add = 0; add <= add_max; add++) { /* add more sequences, r - add triplets */
    int tadd = r - add;
    if (tadd > nta) continue;
    int nseq = a->nseq + add, ntrip = a->ntrip + tadd;
    int han = common;
    if (nseq >= 2) {
      int pairs = a->peikou + min_i((add + odd) / 2, odd + nsa2);
      if (pairs > nseq / 2) pairs = nseq / 2;
      han += pairs >= 2 ? 3 : pairs;
    }
    if (nseq >= 3 && miss_seq <= add) han += 2;
    int vh = a->vhan, tt = tadd;
    if (tt && e_avail) vh += 2, tt--;
    vh += min_i(tt, nd_avail);
    han += vh;
    if (ntrip >= 3) han += 2 + (miss_trip <= tadd ? 2 : 0);
    if (s->pair >= TK_HAKU && a->dragons + min_i(tadd, nd_avail) >= 2) han += 2;
    int p = tk__bh_points(han, up10(22 + a->fu + 8 * tadd + 2));
    if (nseq == 4 && !is_value(s->pair)) {
      int q1 = tk__bh_points(han + 1, 20);
      if (q1 > p) p = q1;
    }
    if (p > best) best = p;
  }
  return best;
}

static void melds(search *s, acc a, int j, int r) {
  s->best->nodes++;
  if (r == 0) {
    leaf_standard(s, &a);
    return;
  }
  int pk = j >> 1;
  uint64_t ge = ALL34 & ~(BIT(pk) - 1);
  uint64_t sa = s->m1 & (s->m1 >> 1) & (s->m1 >> 2) & SEQ_OK & ge;
  if (j & 1) sa &= ~BIT(pk);
  uint64_t ta = s->m3 & ge;
  uint64_t any = sa | ta;
  if (!any) return;
  if (r < 4 && s->best->found) { /* r = 4: standard() has just bounded the pair */
    uint64_t sa2 = s->m2 & (s->m2 >> 1) & (s->m2 >> 2) & SEQ_OK & ge;
    int pub = bound_standard(s, &a, r, pk, sa, sa2, ta);
    int uub = s->used + min_i(3 * r, s->c->cur_suffix[pk]);
    if (uub > s->c->umax) uub = s->c->umax;
    if (!may_beat(s, pub, uub, pk)) return;
  }
  while (any) {
    int k = ctz(any);
    any &= any - 1;
    uint64_t ge_k = ALL34 & ~(BIT(k) - 1);
    if (sa >> k & 1) {
      take1(s, k), take1(s, k + 1), take1(s, k + 2);
      /* a child that needs melds but has none available is not visited */
      if (r == 1 || ((s->m1 & (s->m1 >> 1) & (s->m1 >> 2) & SEQ_OK) | s->m3) & ge_k) {
        s->gt[s->nm] = 0, s->gk[s->nm++] = (uint8_t)k;
        acc b = a;
        acc_seq(&b, k);
        if (r == 1) s->best->nodes++, leaf_standard(s, &b);
        else melds(s, b, 2 * k, r - 1);
        s->nm--;
      }
      put1(s, k), put1(s, k + 1), put1(s, k + 2);
    }
    if (ta >> k & 1) {
      take(s, k, 3);
      if (r == 1 || ((s->m1 & (s->m1 >> 1) & (s->m1 >> 2) & SEQ_OK & ~BIT(k)) | s->m3) & ge_k) {
        s->gt[s->nm] = 1, s->gk[s->nm++] = (uint8_t)k;
        acc b = a;
        acc_trip(&b, k);
        if (r == 1) s->best->nodes++, leaf_standard(s, &b);
        else melds(s, b, 2 * k + 1, r - 1);
        s->nm--;
      }
      put(s, k, 3);
    }
  }
}

/* Standard hands: every pair, best bound first (the answer does not depend on the order; a
 * good hand found early prunes more). */
static void standard(search *s, uint64_t m2) {
  int order[TK_KINDS], bound[TK_KINDS], n = 0;
  while (m2) {
    int p = ctz(m2);
    m2 &= m2 - 1;
    take(s, p, 2);
    s->pair = p;
    acc a = pair_acc(p);
    uint64_t sa = s->m1 & (s->m1 >> 1) & (s->m1 >> 2) & SEQ_OK;
    uint64_t sa2 = s->m2 & (s->m2 >> 1) & (s->m2 >> 2) & SEQ_OK;
    int b = (sa | s->m3) ? bound_standard(s, &a, 4, 0, sa, sa2, s->m3) : -1;
    put(s, p, 2);
    int i = n++;
    for (; i > 0 && bound[i - 1] < b; i--) order[i] = order[i - 1], bound[i] = bound[i - 1];
    order[i] = p, bound[i] = b;
  }
  for (int i = 0; i < n && bound[i] >= 0; i++) {
    int p = order[i];
    take(s, p, 2);
    if (s->best->found) {
      int uub = s->used + min_i(12, s->c->cur_suffix[0]);
      if (!may_beat(s, bound[i], uub < s->c->umax ? uub : s->c->umax, 0)) {
        put(s, p, 2);
        continue;
      }
    }
    s->pair = p;
    s->nm = 0;
    melds(s, pair_acc(p), 0, 4);
    put(s, p, 2);
  }
}

/* ------------------------------------------------------------------ seven pairs */

typedef struct cacc {
  int8_t n, simple, honors, suits, dora;
} cacc;

static int chiitoi_points(const cacc *a) {
  if (!a->suits) return 48000; /* tsuuiisou */
  int han = 3 + a->simple + 2 * a->dora; /* chiitoitsu 2, menzen tsumo 1 */
  if (!(a->suits & (a->suits - 1))) han += a->honors ? 3 : 6;
  return tk__bh_points(han, 25);
}

/* cand: kinds still selectable (pool >= 2, kind >= the next one); c2/c1: cur holds 2+ / 1. */
static void chiitoi(search *s, cacc a, uint64_t cand, uint64_t c2, uint64_t c1) {
  s->best->nodes++;
  int need = 7 - a.n;
  if (need == 0) {
    int win = 0; /* some pair drawn from the future */
    for (int k = 0; k < TK_KINDS && !win; k++) win = s->h[k] > s->c->cur[k];
    if (win) offer(s, chiitoi_points(&a));
    return;
  }
  if (popc(cand) < need) return;
  if (s->best->found) {
    int pub;
    if (!a.suits && popc(cand & HONORS) >= need) {
      pub = 48000;
    } else {
      int han = 3 + a.simple;
      int d = s->c->dora;
      if (a.dora || (d >= 0 && (cand >> d & 1))) han += 2;
      int ns = popc((unsigned)a.suits);
      if (ns <= 1) han += a.honors ? 3 : 6;
      pub = tk__bh_points(han, 25);
    }
    int n2 = popc(cand & c2), t2 = min_i(need, n2);
    int uub = s->used + 2 * t2 + min_i(need - t2, popc(cand & c1));
    int fixed = ctz(cand);
    if (!may_beat(s, pub, uub, fixed)) return;
  }
  uint64_t rest = cand;
  while (popc(rest) >= need) {
    int k = ctz(rest);
    rest &= rest - 1;
    take(s, k, 2);
    cacc b = a;
    b.n++;
    uint64_t bit = BIT(k);
    b.simple &= !(YAOCHU & bit);
    if (k >= 27) b.honors = 1;
    else b.suits |= (int8_t)(1 << (k / 9));
    if (k == s->c->dora) b.dora = 1;
    chiitoi(s, b, rest, c2, c1);
    put(s, k, 2);
  }
}

/* ------------------------------------------------------------------ thirteen orphans */

static const uint8_t YAOCHU_KINDS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static void kokushi(search *s) {
  for (int i = 0; i < 13; i++)
    if (!s->rem[YAOCHU_KINDS[i]]) return;
  for (int i = 0; i < 13; i++) take(s, YAOCHU_KINDS[i], 1);
  for (int i = 0; i < 13; i++) {
    int p = YAOCHU_KINDS[i];
    if (!s->rem[p]) continue;
    take(s, p, 1);
    int win = 0;
    for (int j = 0; j < 13 && !win; j++) win = s->h[YAOCHU_KINDS[j]] > s->c->cur[YAOCHU_KINDS[j]];
    if (win) offer(s, 48000);
    put(s, p, 1);
  }
  for (int i = 0; i < 13; i++) put(s, YAOCHU_KINDS[i], 1);
}

/* ------------------------------------------------------------------ entry */

int tk__bh_search(const tk__bh_ctx *c, const uint8_t fut[TK_KINDS], tk__bh_best *out) {
  memset(out, 0, sizeof *out);
  int nf = 0;
  for (int k = 0; k < TK_KINDS; k++) nf += fut[k];
  if (nf < c->min_draws) return 0;
  search s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.best = out;
  /* the pool, its masks, and the yakuman gates: what the pool could hold at all */
  const uint8_t *p = s.rem;
  uint64_t m2 = 0;
  int hon = 0, grn = 0, ter = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int n = c->cur[k] + fut[k];
    s.rem[k] = (uint8_t)n;
    uint64_t b = BIT(k);
    if (n >= 1) s.m1 |= b;
    if (n >= 2) m2 |= b;
    if (n >= 3) s.m3 |= b;
    s.srem[k / 9] += n;
    if (GREEN & b) grn += n;
    if (TERMINALS & b) ter += n;
    if (k >= 27) hon += n;
  }
  s.m2 = m2;
  if (popc(s.m3) >= 4) s.gates |= G_SUUANKOU;
  if ((s.m3 & DRAGONS) == DRAGONS) s.gates |= G_DAISANGEN;
  if ((s.m3 & WINDS) == WINDS) s.gates |= G_DAISUUSHII;
  if (hon >= 14) s.gates |= G_TSUUIISOU;
  if (grn >= 14) s.gates |= G_RYUUIISOU;
  if (ter >= 14) s.gates |= G_CHINROUTOU;
  for (int su = 0; su < 3; su++)
    if (chuuren(p, su)) s.gates |= (unsigned)G_CHUUREN << su;

  kokushi(&s);
  standard(&s, m2);
  if (popc(m2) >= 7) {
    uint64_t c2 = 0, c1 = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      if (c->cur[k] >= 2) c2 |= BIT(k);
      else if (c->cur[k] == 1) c1 |= BIT(k);
    }
    cacc a;
    memset(&a, 0, sizeof a);
    a.simple = 1;
    chiitoi(&s, a, m2, c2, c1);
  }
  return out->found;
}
