/* plugins/riichi_oneplayer/policy.c — candidates and their scores (policy.h). */
#include "policy.h"

#include <string.h>

/* The kinds kuikae forbids after a call of `called` (the engine's rule, docs/riichi.md): the
 * called kind, and for a chi called at one end the kind that would complete the same run at the
 * other end (3 of 345 -> 6, 5 of 345 -> 2). `lo` is the chi's lowest kind. */
static uint64_t kuikae(int type, int called, int lo) {
  uint64_t mask = 1ULL << called;
  if (type == TK_RIICHI_CHI) {
    int n = called % 9;
    if (called == lo && n + 3 <= 8) mask |= 1ULL << (called + 3);
    if (called == lo + 2 && n - 3 >= 0) mask |= 1ULL << (called - 3);
  }
  return mask;
}

/* Removes one concealed tile `t` from h. */
static void take(rof_hand *h, int t) {
  h->c[tk_tile_kind(t)]--;
  if (tk_tile_is_red(t)) h->red--;
}

/* Red fives held concealed per suit, from the view's tiles. */
static unsigned red_suits(const tk_riichi_view *v) {
  unsigned m = 0;
  for (int i = 0; i < v->nhand && i < 14; i++)
    if (tk_tile_is_red(v->tiles[i])) m |= 1u << tk_kind_suit(tk_tile_kind(v->tiles[i]));
  return m;
}

/* Is `code` (a tile) held: a red five needs the red copy, a plain five a plain copy. */
static int holds(const uint8_t *c, unsigned reds, int code) {
  int k = code & 0x3f, suit = tk_kind_suit(k);
  if (!c[k]) return 0;
  int is5 = k == TK_5M || k == TK_5P || k == TK_5S;
  if (!is5) return !(code & TK_TILE_RED);
  int red_held = reds >> suit & 1;
  if (code & TK_TILE_RED) return red_held;
  return c[k] > red_held;
}

/* Appends one candidate per distinct discard of h (red and plain fives apart, kinds in `ban`
 * excluded), ascending by kind, the plain tile before the red one. */
static int discards_of(const rof_hand *h, unsigned reds, const rof_ctx *x, int action, uint64_t ban,
                       rop_cand *out, int n, int cap) {
  static const uint8_t fives[3] = {TK_5M, TK_5P, TK_5S};
  for (int k = 0; k < TK_KINDS && n < cap; k++) {
    if (ban >> k & 1) continue;
    for (int red = 0; red < 2 && n < cap; red++) {
      int code = red ? k | TK_TILE_RED : k;
      if (red && k != fives[0] && k != fives[1] && k != fives[2]) continue;
      if (!holds(h->c, reds, code)) continue;
      rop_cand *c = &out[n++];
      c->action = (uint8_t)action;
      c->discard = (uint8_t)code;
      c->hand = *h;
      c->ctx = *x;
      take(&c->hand, code);
      rof_ctx_discard(&c->ctx, k);
    }
  }
  return n;
}

int rop_candidates(const tk_riichi_view *v, const tk_riichi_legal *l, rop_cand *out, int cap) {
  rof_hand h;
  rof_ctx x;
  rof_hand_of_view(v, &h);
  rof_ctx_of_view(v, &x);
  unsigned reds = red_suits(v);
  int n = 0;
  if (v->phase == TK_RIICHI_PHASE_SELF) {
    /* discards: one per distinct tile (the first legal action of it), by tile code: the plain
     * kinds ascending, then the red fives */
    uint8_t seen_code[0x80];
    memset(seen_code, 0xff, sizeof seen_code);
    for (int i = 0; i < l->n; i++)
      if (l->a[i].type == TK_RIICHI_DISCARD && seen_code[l->a[i].tile & 0x7f] == 0xff)
        seen_code[l->a[i].tile & 0x7f] = (uint8_t)i;
    for (int code = 0; code < 0x80 && n < cap; code++) {
      if (seen_code[code] == 0xff) continue;
      rop_cand *c = &out[n++];
      c->action = seen_code[code];
      c->discard = TK_TILE_NONE;
      c->hand = h;
      c->ctx = x;
      take(&c->hand, code);
      rof_ctx_discard(&c->ctx, code & 0x3f);
    }
    for (int i = 0; i < l->n && n < cap; i++) {
      const tk_riichi_action *a = &l->a[i];
      int k = tk_tile_kind(a->tile);
      if (a->type == TK_RIICHI_ANKAN) {
        rop_cand *c = &out[n++];
        c->action = (uint8_t)i;
        c->discard = TK_TILE_NONE;
        c->hand = h;
        c->ctx = x;
        c->hand.c[k] = 0;
        int r = (reds >> tk_kind_suit(k) & 1) && (k == TK_5M || k == TK_5P || k == TK_5S);
        c->hand.red = (uint8_t)(c->hand.red - r);
        tk_call *m = &c->hand.melds[c->hand.nmelds++];
        m->type = TK_CALL_ANKAN;
        m->kind = (uint8_t)k;
        m->red = (uint8_t)r;
        c->ctx.seen[k] = 4;
      } else if (a->type == TK_RIICHI_KAKAN) {
        rop_cand *c = &out[n++];
        c->action = (uint8_t)i;
        c->discard = TK_TILE_NONE;
        c->hand = h;
        c->ctx = x;
        take(&c->hand, a->tile);
        for (int j = 0; j < c->hand.nmelds; j++)
          if (c->hand.melds[j].type == TK_CALL_PON && c->hand.melds[j].kind == k) {
            c->hand.melds[j].type = TK_CALL_KAKAN;
            c->hand.melds[j].red = (uint8_t)(c->hand.melds[j].red + tk_tile_is_red(a->tile));
          }
        c->ctx.seen[k] = 4;
      }
    }
    return n;
  }
  /* a call opportunity: pass first, then each call */
  for (int i = 0; i < l->n && n < cap; i++) {
    const tk_riichi_action *a = &l->a[i];
    if (a->type != TK_RIICHI_PASS) continue;
    rop_cand *c = &out[n++];
    c->action = (uint8_t)i;
    c->discard = TK_TILE_NONE;
    c->hand = h;
    c->ctx = x;
  }
  for (int i = 0; i < l->n && n < cap; i++) {
    const tk_riichi_action *a = &l->a[i];
    int k = tk_tile_kind(a->tile);
    if (a->type == TK_RIICHI_MINKAN) {
      rop_cand *c = &out[n++];
      c->action = (uint8_t)i;
      c->discard = TK_TILE_NONE;
      c->hand = h;
      c->ctx = x;
      int r = (reds >> tk_kind_suit(k) & 1) && (k == TK_5M || k == TK_5P || k == TK_5S);
      c->hand.c[k] = 0;
      c->hand.red = (uint8_t)(c->hand.red - r);
      tk_call *m = &c->hand.melds[c->hand.nmelds++];
      m->type = TK_CALL_MINKAN;
      m->kind = (uint8_t)k;
      m->red = (uint8_t)(r + tk_tile_is_red(a->tile));
      c->ctx.seen[k] = 4;
    } else if (a->type == TK_RIICHI_PON || a->type == TK_RIICHI_CHI) {
      rof_hand hc = h;
      rof_ctx xc = x;
      unsigned rc = reds;
      for (int j = 0; j < 2; j++) {
        take(&hc, a->consumed[j]);
        if (tk_tile_is_red(a->consumed[j])) rc &= ~(1u << tk_kind_suit(tk_tile_kind(a->consumed[j])));
        int ck = tk_tile_kind(a->consumed[j]);
        if (xc.seen[ck] < 4) xc.seen[ck]++;
      }
      int lo = k;
      for (int j = 0; j < 2; j++)
        if (tk_tile_kind(a->consumed[j]) < lo) lo = tk_tile_kind(a->consumed[j]);
      tk_call *m = &hc.melds[hc.nmelds++];
      m->type = (uint8_t)(a->type == TK_RIICHI_PON ? TK_CALL_PON : TK_CALL_CHI);
      m->kind = (uint8_t)(a->type == TK_RIICHI_PON ? k : lo);
      m->red = (uint8_t)(tk_tile_is_red(a->tile) + tk_tile_is_red(a->consumed[0]) +
                         tk_tile_is_red(a->consumed[1]));
      n = discards_of(&hc, rc, &xc, i, kuikae(a->type, k, lo), out, n, cap);
    }
  }
  return n;
}

int rop_riichi_of(const tk_riichi_legal *l, uint8_t riichi_of[0x80]) {
  memset(riichi_of, 0xff, 0x80);
  int any = 0;
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_RIICHI && riichi_of[l->a[i].tile & 0x7f] == 0xff) {
      riichi_of[l->a[i].tile & 0x7f] = (uint8_t)i;
      any = 1;
    }
  return any;
}

double rop_score(const double *w, const uint32_t *f, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[f[i]];
  return s;
}

int rop_decide(const tk_riichi_view *v, const tk_riichi_legal *l, const double *w, rop_choice *out,
               tk_error *err) {
  memset(out, 0, sizeof *out);
  out->action = -1;
  out->discard = TK_TILE_NONE;
  if (!l->n)
    return tk_error_set(err, TK_EINVAL, -1, "oneplayer policy: the legal list is empty");
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON) {
      out->action = i;
      return 0;
    }
  rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, cands, ROP_MAX_CANDS);
  out->ncands = n;
  /* riichi when legal: only the discards that allow it compete, and the riichi action is played */
  uint8_t riichi_of[0x80];
  int any_riichi = rop_riichi_of(l, riichi_of);
  uint32_t f[ROF_MAX_ACTIVE];
  int best = -1;
  double best_s = 0;
  for (int i = 0; i < n; i++) {
    const rop_cand *c = &cands[i];
    int tile = l->a[c->action].tile & 0x7f;
    if (any_riichi && (l->a[c->action].type != TK_RIICHI_DISCARD || riichi_of[tile] == 0xff))
      continue;
    int nf = rof_features(&c->hand, &c->ctx, f, NULL, err);
    if (nf < 0) return nf;
    double s = rop_score(w, f, nf);
    if (best < 0 || s > best_s) {
      best = i;
      best_s = s;
    }
  }
  if (best < 0) {
    /* no candidate (never for a legal list of the engine): the referee's fallback */
    out->action = tk_riichi_fallback(l);
    return 0;
  }
  const rop_cand *c = &cands[best];
  out->action = c->action;
  out->discard = c->discard;
  out->score = best_s;
  if (any_riichi) out->action = riichi_of[l->a[c->action].tile & 0x7f];
  return 0;
}
