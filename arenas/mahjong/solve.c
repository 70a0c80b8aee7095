/* arenas/mahjong/solve.c — the one-player expectimax (taikai/solve.h states the model).
 *
 * V(h, t) = (probability of completing, expected points) of the 3k+1-tile hand h with t draws
 * left, the player playing optimally: the mean over draws k (weight w[k], solve.h) of either the
 * win (a complete hand) or the best over discards d of V(h + k - d, t - 1). Values are memoised
 * on (h, t) in an open-addressed table (copies of a kind are interchangeable: the state is the
 * multiset). Pruning is exact: a hand of shanten s needs s + 1 draws, so V = 0 when s >= t. A
 * capped mode's search stops once it holds max_states states and the direct mode runs instead
 * (solve.h).
 *
 * Speed without changing a bit of any answer: in the direct mode, the best over the discards of
 * a drawn hand is memoised too, on its exact counts (many hands reach the same drawn hand), so its shanten
 * table, its children's keys and their lookups are done once; every sum and every comparison is
 * still made in the same order on the same values, and the first hand of a symmetry class to be
 * searched is the same, so the results are those of the plain expectimax above bit for bit
 * (tests/data/solve_reference.txt).
 *
 * The detour mode is in solve_detour.c; what the two files share (the solver's state, keys,
 * tables, scoring) in solve_internal.h. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "solve_internal.h"

#define KEY39 ((1ULL << 39) - 1)
enum { MAX_ORDINAL = (1 << 25) - 2 };

enum { TENPAI_SIDE = 137 };

/* pack(s, h - one d, 0, sym) for each kind d of ds[0..nc) (each held), into out: the same keys,
 * without packing the whole hand again for each child (only the discarded kind's suit, or the
 * honors, change). */
static void pack_children(const tk_solver *s, const uint8_t *h, const int *ds, int nc, int sym, key *out) {
  if (!sym) {
    uint64_t a0 = 0, a1 = 0;
    for (int i = 20; i >= 0; i--) a0 = a0 << 3 | h[i];
    for (int i = 33; i >= 21; i--) a1 = a1 << 3 | h[i];
    for (int j = 0; j < nc; j++) {
      int d = ds[j];
      out[j] = (key){{d <= 20 ? a0 - (1ULL << 3 * d) : a0, d <= 20 ? a1 : a1 - (1ULL << 3 * (d - 21)), 0, 1}};
    }
    return;
  }
  uint64_t f[3], b[3];
  for (int su = 0; su < 3; su++) {
    f[su] = b[su] = 0;
    const uint8_t *hs = h + 9 * su, *cs = s->cls + 9 * su;
    for (int i = 0; i < 9; i++) {
      uint64_t c = (uint64_t)(hs[i] * 25 + cs[i]);
      f[su] = f[su] << 7 | c;
      b[su] |= c << (7 * i);
    }
  }
  uint8_t hon[7];
  for (int i = 0; i < 7; i++) hon[i] = (uint8_t)(h[27 + i] * 25 + s->cls[27 + i]);
  uint64_t hw_h = honor_word(hon); /* h's own, for the children of a numbered discard */
  for (int j = 0; j < nc; j++) {
    int d = ds[j];
    uint64_t suit[3], hw = hw_h;
    for (int su = 0; su < 3; su++) {
      uint64_t ff = f[su], bb = b[su];
      if (d / 9 == su && d < 27) {
        int i = d % 9;
        ff -= 25ULL << (7 * (8 - i));
        bb -= 25ULL << (7 * i);
      }
      suit[su] = ff < bb ? ff : bb;
    }
    sort3(suit);
    if (d >= 27) {
      uint8_t x[7];
      memcpy(x, hon, 7);
      x[d - 27] = (uint8_t)(x[d - 27] - 25);
      hw = honor_word(x);
    }
    out[j] = (key){{suit[0], suit[1], suit[2], hw << 8 | 1}};
  }
}

static size_t hash16(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ULL;
  return (size_t)(x ^ x >> 32);
}

static slot16 *find16(table16 *tb, uint64_t a, uint64_t b) {
  size_t mask = tb->cap - 1;
  for (size_t j = hash16(a, b) & mask;; j = (j + 1) & mask) {
    slot16 *x = &tb->slot[j];
    if (!x->b || (x->a == a && (x->b & KEY39) == b)) return x;
  }
}

static int table16_init(table16 *tb, size_t cap) {
  tb->slot = big_alloc(cap * sizeof *tb->slot, 1);
  tb->cap = tb->slot ? cap : 0;
  tb->used = 0;
  return tb->slot ? 0 : TK_ENOMEM;
}

/* As table_reserve. */
static int table16_reserve(table16 *tb) {
  if (2 * (tb->used + 1) <= tb->cap) return 0;
  table16 nt;
  if (table16_init(&nt, tb->cap * 2)) return TK_ENOMEM;
  for (size_t i = 0; i < tb->cap; i++)
    if (tb->slot[i].b) *find16(&nt, tb->slot[i].a, tb->slot[i].b & KEY39) = tb->slot[i];
  nt.used = tb->used;
  free(tb->slot);
  *tb = nt;
  return 0;
}

/* As table_clear. */
static void table16_clear(table16 *tb) {
  tb->slot = cleared_slots(tb->slot, &tb->cap, tb->used, sizeof *tb->slot);
  tb->used = 0;
}

/* Hints the cache to fetch the slot where `k`'s probe starts (no effect on any result). */
static void prefetch_slot(const table *tb, const key *k) {
  __builtin_prefetch(&tb->slot[hash(k) & (tb->cap - 1)]);
}

tk_solver *tk_solver_new(void) {
  tk_solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->tenpai = calloc((size_t)TENPAI_SIDE * TENPAI_SIDE, sizeof *s->tenpai);
  if (!s->tenpai || table_init(&s->memo, 1 << 12) || table_init(&s->score, 1 << 10) ||
      table16_init(&s->after14, 1 << 12)) {
    tk_solver_free(s);
    return NULL;
  }
  return s;
}

void tk_solver_free(tk_solver *s) {
  if (!s) return;
  free(s->memo.slot);
  free(s->score.slot);
  free(s->after14.slot);
  free(s->vals);
  free(s->vals14);
  free(s->tenpai);
  tk__solve_detour_free(s->dt);
  free(s);
}

void tk_solve_riichi_init(tk_solve_riichi *r, int seat_wind, int round_wind,
                          const uint8_t *dora_kinds, int ndora, const tk_call *calls, int ncalls) {
  memset(r, 0, sizeof *r);
  r->w.ruleset = TK_RULES_TENHOU;
  r->w.seat_wind = (uint8_t)seat_wind;
  r->w.round_wind = (uint8_t)round_wind;
  for (int i = 0; i < ndora && i < TK_MAX_INDICATORS; i++) r->w.dora[r->w.ndora++] = dora_kinds[i];
  int open = 0;
  for (int i = 0; i < ncalls && i < 4; i++) {
    r->calls[r->ncalls++] = calls[i];
    open |= calls[i].type != TK_CALL_ANKAN;
  }
  r->w.riichi = !open;
}

double tk_solve_riichi_points(void *ctx, const uint8_t hand[TK_KINDS], int win_kind) {
  const tk_solve_riichi *r = ctx;
  tk_score sc;
  if (tk_score_counts(hand, win_kind, 0, r->calls, r->ncalls, &r->w, &sc, NULL)) return 0;
  return r->w.seat_wind == 0 ? 3.0 * sc.pay_all : sc.pay_dealer + 2.0 * sc.pay_non_dealer;
}

const char *tk_solve_mode_name(int mode) {
  static const char *const N[] = {"exact", "forward", "direct", "detour"};
  return mode >= 0 && mode <= 3 ? N[mode] : "?";
}

/* V(h, t) of the 3k+1-tile hand h of shanten sh into (*p, *e). h is restored on return. */
static void value(tk_solver *s, uint8_t *h, int sh, int t, double *p, double *e) {
  *p = *e = 0;
  if (sh >= t || s->aborted) return;
  key kk = pack(s, h, t, s->objective == TK_SOLVE_WIN);
  entry *x = find(&s->memo, &kk);
  if (x->k.w[3]) {
    *p = x->p;
    *e = x->e;
    return;
  }
  if ((long)s->memo.used >= s->max_states && s->mode < TK_SOLVE_DIRECT) {
    s->aborted = 1;
    return;
  }
  s->nodes++;
  int w[TK_KINDS], total = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int kept = h[k] > s->root[k] ? h[k] - s->root[k] : 0;
    w[k] = s->unseen[k] - kept;
    if (w[k] < 0) w[k] = 0;
    total += w[k];
  }
  double P = 0, E = 0;
  int sdraw[TK_KINDS];
  tk_shanten_draws(h, sdraw);
  for (int k = 0; k < TK_KINDS && total; k++) {
    if (!w[k]) continue;
    h[k]++;
    int s14 = sdraw[k];
    double bp = 0, be = 0;
    if (s14 < 0) {
      bp = 1;
      be = points_of(s, h, k);
    } else if (s14 >= t - 1) {
      /* every hand after a discard has shanten >= s14 and t - 1 draws: nothing to win */
    } else if (s->mode == TK_SOLVE_DIRECT && s14 >= sh) {
      h[k]--;
      value(s, h, sh, t - 1, &bp, &be);
      h[k]++;
    } else {
      int after[TK_KINDS];
      tk_shanten_discards(h, after);
      for (int d = 0; d < TK_KINDS; d++) {
        if (!h[d]) continue;
        h[d]--;
        int sd = after[d];
        if (sd < t - 1 && (s->mode == TK_SOLVE_EXACT || sd <= s14)) {
          double vp, ve;
          value(s, h, sd, t - 1, &vp, &ve);
          if (better(s, vp, ve, bp, be)) {
            bp = vp;
            be = ve;
          }
        }
        h[d]++;
      }
    }
    h[k]--;
    P += w[k] * bp;
    E += w[k] * be;
  }
  if (s->aborted) return;
  if (total) {
    *p = P / total;
    *e = E / total;
  }
  if (table_reserve(&s->memo)) {
    s->aborted = 1; /* out of memory: the next mode needs less */
    return;
  }
  x = find(&s->memo, &kk);
  *x = (entry){kk, *p, *e};
  s->memo.used++;
}

/* Reserves n doubles at the end of the arena (*v, *nv, *cap); returns their index or -1. */
static long arena_alloc(double **v, size_t *nv, size_t *cap, size_t n) {
  if (*nv + n > *cap) {
    size_t c = *cap ? 2 * *cap : 1 << 16;
    while (c < *nv + n) c *= 2;
    double *nvv = big_alloc(c * sizeof *nvv, 0);
    if (!nvv) return -1;
    if (*nv) memcpy(nvv, *v, *nv * sizeof *nvv);
    free(*v);
    *v = nvv;
    *cap = c;
  }
  long idx = (long)*nv;
  *nv += n;
  return idx;
}

static long vdirect(tk_solver *s, uint8_t *h, int sh, const key *kk);

/* The direct mode's 3k+2-tile hand h (shanten s14 >= 0, a draw that lowered the shanten): for
 * t = 1..T, the best over the discards keeping s14 of V(h - d, t - 1). Returns the index of
 * its vectors in s->vals14 (T + 1 doubles of win from t = 0, then as many of points for
 * TK_SOLVE_POINTS), or -1 (s->aborted set). Memoised on the exact counts: the vectors are a
 * function of h once its children are memoised. h is restored on return. */
static long best14(tk_solver *s, uint8_t *h, int s14, const key *kk) {
  int T = s->draws, pts = s->objective == TK_SOLVE_POINTS;
  long stride = (long)(T + 1) * (pts ? 2 : 1);
  slot16 *x = find16(&s->after14, kk->w[0], kk->w[1]);
  if (x->b) return (long)((x->b >> 39) - 1) * stride;
  double bp[TK_SOLVE_MAX_DRAWS + 1] = {0}, be[TK_SOLVE_MAX_DRAWS + 1] = {0};
  int after[TK_KINDS];
  tk_shanten_discards(h, after);
  /* the children's keys first, their slots and then their vectors prefetched; then the children
     in ascending kind, as always (the order decides nothing but the memory traffic) */
  key ck[14];
  int cd[14], nc = 0;
  for (int d = 0; d < TK_KINDS; d++)
    if (h[d] && after[d] <= s14) cd[nc++] = d;
  pack_children(s, h, cd, nc, s->objective == TK_SOLVE_WIN, ck);
  for (int i = 0; i < nc; i++) prefetch_slot(&s->memo, &ck[i]);
  for (int i = 0; i < nc; i++) {
    const entry *y = find(&s->memo, &ck[i]);
    if (y->k.w[3]) {
      const double *v = s->vals + (long)y->p + after[cd[i]] + 1;
      __builtin_prefetch(v);
      __builtin_prefetch(v + 8);
      __builtin_prefetch(v + 16);
    }
  }
  for (int i = 0; i < nc && !s->aborted; i++) {
    int d = cd[i];
    h[d]--;
    long c = vdirect(s, h, after[d], &ck[i]);
    h[d]++;
    if (c < 0) continue;
    /* the child's values are 0 for t - 1 <= its shanten, and (0, 0) is never better than the
       best so far: those t are skipped */
    const double *cp = s->vals + c;
    if (pts) {
      const double *ce = cp + T + 1;
      for (int t = after[d] + 2; t <= T; t++)
        if (better(s, cp[t - 1], ce[t - 1], bp[t], be[t])) {
          bp[t] = cp[t - 1];
          be[t] = ce[t - 1];
        }
    } else {
      for (int t = after[d] + 2; t <= T; t++)
        if (above(cp[t - 1], bp[t])) bp[t] = cp[t - 1];
    }
  }
  if (s->aborted) return -1;
  long idx = s->after14.used <= MAX_ORDINAL ? arena_alloc(&s->vals14, &s->nvals14, &s->capvals14, (size_t)stride) : -1;
  if (idx < 0 || table16_reserve(&s->after14)) {
    s->aborted = 1;
    return -1;
  }
  memcpy(s->vals14 + idx, bp, (size_t)(T + 1) * sizeof *bp);
  if (pts) memcpy(s->vals14 + idx + T + 1, be, (size_t)(T + 1) * sizeof *be);
  x = find16(&s->after14, kk->w[0], kk->w[1]);
  x->a = kk->w[0];
  x->b = kk->w[1] | (uint64_t)(idx / stride + 1) << 39;
  s->after14.used++;
  return idx;
}

/* The direct mode, whose moves all lower the shanten (a draw that does not is thrown back), so
 * its graph has no cycle but the self-loop of a thrown-back draw: each hand is expanded once,
 * for every t at once, V(h, t) = (sum over wins + sum over lowering draws k of the best child's
 * V(., t - 1) + (weight of the other draws) V(h, t - 1)) / W. Returns the index of h's vectors
 * in s->vals (T + 1 doubles of win from t = 0, then as many of points for TK_SOLVE_POINTS), or
 * -1 (out of memory: s->aborted set). h is restored on return. */
static long vdirect(tk_solver *s, uint8_t *h, int sh, const key *given) {
  int T = s->draws, pts = s->objective == TK_SOLVE_POINTS, n = (T + 1) * (pts ? 2 : 1);
  key kk = given ? *given : pack(s, h, 0, s->objective == TK_SOLVE_WIN);
  entry *x = find(&s->memo, &kk);
  if (x->k.w[3]) return (long)x->p;
  if ((long)s->memo.used >= s->max_direct) {
    s->aborted = 2; /* too large even for the direct mode */
    return -1;
  }
  s->nodes++;
  double P[TK_SOLVE_MAX_DRAWS + 1] = {0}, E[TK_SOLVE_MAX_DRAWS + 1] = {0};
  double stay = 0;
  int total = 0;
  if (sh < T) {
    int w[TK_KINDS];
    for (int k = 0; k < TK_KINDS; k++) {
      int kept = h[k] > s->root[k] ? h[k] - s->root[k] : 0;
      w[k] = s->unseen[k] - kept;
      if (w[k] < 0) w[k] = 0;
      total += w[k];
    }
    /* every draw's shanten first, and the slots of the drawn hands to expand prefetched */
    int sd[TK_KINDS];
    key ak[TK_KINDS];
    tk_shanten_draws(h, sd);
    uint64_t a0 = 0, a1 = 0; /* pack(s, h, 0, 0): a drawn hand's key is one count more */
    for (int i = 20; i >= 0; i--) a0 = a0 << 3 | h[i];
    for (int i = 33; i >= 21; i--) a1 = a1 << 3 | h[i];
    for (int k = 0; k < TK_KINDS; k++) {
      if (!w[k] || sd[k] < 0 || sd[k] >= sh || sd[k] >= T - 1) continue;
      ak[k] = (key){{k <= 20 ? a0 + (1ULL << 3 * k) : a0, k <= 20 ? a1 : a1 + (1ULL << 3 * (k - 21)), 0, 1}};
      __builtin_prefetch(&s->after14.slot[hash16(ak[k].w[0], ak[k].w[1]) & (s->after14.cap - 1)]);
    }
    for (int k = 0; k < TK_KINDS && !s->aborted; k++) {
      if (!w[k]) continue;
      h[k]++;
      int s14 = sd[k];
      if (s14 >= sh) {
        stay += w[k];
      } else if (s14 < 0) {
        double pk = points_of(s, h, k);
        for (int t = 1; t <= T; t++) P[t] += w[k];
        if (pts)
          for (int t = 1; t <= T; t++) E[t] += w[k] * pk;
      } else if (s14 < T - 1) {
        long b = best14(s, h, s14, &ak[k]);
        if (b < 0) {
          h[k]--;
          break;
        }
        /* bp[t] is 0 for t <= s14 + 1 (a child of shanten s14 needs s14 + 1 draws): adding
           w * 0 leaves the sums as they are, so those terms are skipped */
        const double *bp = s->vals14 + b;
        for (int t = s14 + 2; t <= T; t++) P[t] += w[k] * bp[t];
        if (pts) {
          const double *be = bp + T + 1;
          for (int t = s14 + 2; t <= T; t++) E[t] += w[k] * be[t];
        }
      }
      h[k]--;
    }
  }
  if (s->aborted) return -1;
  struct tenpai_vec *tv = NULL;
  if (!pts && sh == 0 && sh < T && total) {
    /* every t >= 1 has P[t] = the winning draws' weight, so the vector below is a function of
       (that weight, total): computed once per search */
    tv = &s->tenpai[(int)P[1] * TENPAI_SIDE + total];
    if (tv->gen == s->gen) {
      if (table_reserve(&s->memo)) {
        s->aborted = 1;
        return -1;
      }
      x = find(&s->memo, &kk);
      *x = (entry){kk, (double)tv->idx, 0};
      s->memo.used++;
      return tv->idx;
    }
  }
  long idx = arena_alloc(&s->vals, &s->nvals, &s->capvals, (size_t)n);
  if (idx < 0 || table_reserve(&s->memo)) {
    s->aborted = 1;
    return -1;
  }
  if (tv && idx <= INT32_MAX) *tv = (struct tenpai_vec){s->gen, (int32_t)idx};
  double *vp = s->vals + idx;
  vp[0] = 0;
  for (int t = 1; t <= T; t++) vp[t] = total ? (P[t] + stay * vp[t - 1]) / total : 0;
  if (pts) {
    double *ve = vp + T + 1;
    ve[0] = 0;
    for (int t = 1; t <= T; t++) ve[t] = total ? (E[t] + stay * ve[t - 1]) / total : 0;
  }
  x = find(&s->memo, &kk);
  *x = (entry){kk, (double)idx, 0};
  s->memo.used++;
  return idx;
}

/* The choice's values for the 3k+1-tile hand h in the current mode. */
static void root_value(tk_solver *s, uint8_t *h, tk_solve_choice *c) {
  if (s->mode != TK_SOLVE_DIRECT) {
    value(s, h, c->shanten, s->draws, &c->win, &c->points);
    return;
  }
  long idx = vdirect(s, h, c->shanten, NULL);
  c->win = idx >= 0 ? s->vals[idx + s->draws] : 0;
  c->points = idx >= 0 && s->objective == TK_SOLVE_POINTS ? s->vals[idx + 2 * s->draws + 1] : 0;
}

int tk_solve(tk_solver *s, const uint8_t hand[TK_KINDS], const uint8_t *seen,
             const tk_solve_opts *o, tk_solve_result *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int sk = seen ? seen[k] : 0;
    if (hand[k] > 4 || hand[k] + sk > 4)
      return tk_error_set(err, TK_EINVAL, -1, "solve: %d copies of %s held and %d seen (a set has 4)",
                          hand[k], tk_tile_str((tk_tile)k), sk);
    n += hand[k];
  }
  if (n < 1 || n > 14 || n % 3 == 0)
    return tk_error_set(err, TK_EINVAL, -1, "solve: %d tiles is not a hand (3k+1 or 3k+2, at most 14)", n);
  if (o->draws < 0 || o->draws > TK_SOLVE_MAX_DRAWS)
    return tk_error_set(err, TK_EINVAL, -1, "solve: draws %d is not from 0 to %d", o->draws, TK_SOLVE_MAX_DRAWS);
  if (o->first_mode == TK_SOLVE_DETOUR && (o->detours < 0 || o->detours > 2 * TK_SOLVE_MAX_DRAWS + 1))
    return tk_error_set(err, TK_EINVAL, -1, "solve: detours %d is not from 0 to %d", o->detours,
                        2 * TK_SOLVE_MAX_DRAWS + 1);
  if (o->objective != TK_SOLVE_WIN && o->objective != TK_SOLVE_POINTS)
    return tk_error_set(err, TK_EINVAL, -1, "solve: unknown objective %d", o->objective);
  s->closed = n >= 13;
  if (o->objective == TK_SOLVE_POINTS && !s->closed && !o->score)
    return tk_error_set(err, TK_EINVAL, -1, "solve: the solo points are scored for closed hands "
                        "only (%d tiles); give a scorer (tk_solve_opts.score) for open hands", n);
  if (o->score || s->score_custom) table_clear(&s->score);
  s->score_fn = o->objective == TK_SOLVE_POINTS ? o->score : NULL;
  s->score_ctx = o->score_ctx;
  s->score_custom = s->score_fn != NULL;
  memcpy(s->root, hand, TK_KINDS);
  for (int k = 0; k < TK_KINDS; k++) {
    s->unseen[k] = (uint8_t)(4 - hand[k] - (seen ? seen[k] : 0));
    s->cls[k] = (uint8_t)(hand[k] * 5 + s->unseen[k]);
  }
  s->objective = o->objective;
  s->dora = o->dora_indicator;
  s->max_states = o->max_states > 0 ? o->max_states : TK_SOLVE_DEFAULT_STATES;
  s->max_direct = o->max_direct_states > 0 ? o->max_direct_states : TK_SOLVE_DEFAULT_DIRECT_STATES;
  s->detours = o->detours;
  s->keep_shanten = n % 3 == 2 && o->keep_shanten;
  s->nodes = 0;
  uint8_t h[TK_KINDS];
  memcpy(h, hand, TK_KINDS);
  if (n % 3 == 2 && tk_shanten(h) < 0) {
    /* already complete: won, with the most valuable winning tile among those held */
    double best = 0;
    for (int k = 0; k < TK_KINDS && (s->closed || s->score_fn); k++)
      if (h[k]) {
        double v = points_raw(s, h, k);
        if (v > best) best = v;
      }
    out->n = 1;
    out->c[0] = (tk_solve_choice){.discard = -1, .shanten = -1, .win = 1, .points = best};
    return 0;
  }
  int first = o->first_mode >= TK_SOLVE_EXACT && o->first_mode <= TK_SOLVE_DETOUR ? o->first_mode : TK_SOLVE_EXACT;
  s->draws = o->draws;
  s->aborted = 0;
  /* Past a cap the search restarts: the detour mode with one detour fewer, down to one; then
     (and from the exact and forward modes) the direct mode. */
  for (s->mode = first;; s->mode = s->mode == TK_SOLVE_DETOUR && s->detours > 1 ? TK_SOLVE_DETOUR : TK_SOLVE_DIRECT) {
    if (s->mode == TK_SOLVE_DETOUR && s->aborted) s->detours--;
    table_clear(&s->memo);
    table16_clear(&s->after14);
    s->nvals = 0;
    if (++s->gen == 0) { /* wrapped: no entry may look current */
      memset(s->tenpai, 0, (size_t)TENPAI_SIDE * TENPAI_SIDE * sizeof *s->tenpai);
      s->gen = 1;
    }
    s->nvals14 = 0;
    s->aborted = 0;
    out->n = 0;
    if (s->mode == TK_SOLVE_DETOUR) {
      tk__solve_detour(s, h, n, out);
    } else if (n % 3 == 1) {
      tk_solve_choice *c = &out->c[out->n++];
      c->discard = -1;
      c->shanten = (int8_t)tk_shanten(h);
      root_value(s, h, c);
    } else {
      int s0 = s->keep_shanten ? tk_shanten(h) : 0;
      for (int d = 0; d < TK_KINDS && !s->aborted; d++) {
        if (!h[d]) continue;
        h[d]--;
        int sh = tk_shanten(h);
        if (!s->keep_shanten || sh <= s0) {
          tk_solve_choice *c = &out->c[out->n++];
          c->discard = (int8_t)d;
          c->shanten = (int8_t)sh;
          root_value(s, h, c);
        }
        h[d]++;
      }
    }
    if (!s->aborted || s->mode == TK_SOLVE_DIRECT) break;
  }
  if (s->aborted == 2)
    return tk_error_set(err, TK_ERANGE, -1, "solve: more than %ld states even in the direct mode (%d draws left)",
                        s->max_direct, o->draws);
  if (s->aborted) return tk_error_set(err, TK_ENOMEM, -1, "solve: out of memory");
  out->mode = s->mode;
  out->detours = s->mode == TK_SOLVE_DETOUR ? s->detours : 0;
  out->states = s->mode == TK_SOLVE_DETOUR ? s->dstates : (long)s->memo.used;
  out->nodes = s->nodes;
  out->best = 0;
  for (int i = 1; i < out->n; i++)
    if (better(s, out->c[i].win, out->c[i].points, out->c[out->best].win, out->c[out->best].points))
      out->best = i;
  return 0;
}
