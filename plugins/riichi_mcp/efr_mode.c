/* plugins/riichi_mcp/efr_mode.c — Score(x) openings and the one-player search (efr_mode.h). */
#include "efr_mode.h"

#include <math.h>
#include <string.h>

#include "taikai/mahjong.h"

enum { FIVE_M = 4, FIVE_P = 13, FIVE_S = 22 };

static void refresh(mce_ctx *c, const tk_riichi_view *v) {
  rm_efr_state z;
  memset(&z, 0, sizeof z);
  rs_state_of_view(v, &z);
  if (c->valid && c->seat == v->seat && !memcmp(&z, &c->z, sizeof z)) return;
  c->z = z;
  c->seat = v->seat;
  rs_situation_of(c->efr, c->pen, &z, v->seat, c->p.fu, &c->sit);
  c->valid = 1;
}

/* Score of the hand `h` in `x`; its components into comp (may be NULL). NAN on a bad hand. */
static double score_of(mce_ctx *c, const rof_hand *h, const rof_ctx *x, rof_comp *comp,
                       tk_error *err) {
  uint32_t f[ROF_MAX_ACTIVE];
  int nf = rof_features(h, x, f, comp, err);
  if (nf < 0) return NAN;
  double o[5], P[5];
  mcm_predict(c->han, f, nf, o);
  rs_han_probs(c->p.kind, o, P);
  c->st.evals++;
  return rs_score(&c->sit, P);
}

double mce_score_hand(mce_ctx *c, const rof_hand *h, const rof_ctx *x, tk_error *err) {
  return score_of(c, h, x, NULL, err);
}

/* The search (efr_mode.h). Each node works on its own copies. */
typedef struct child {
  rof_hand h;
  rof_ctx x;
  rof_comp comp;
  double score;
} child;

static double discard_node(mce_ctx *c, const child *n, uint8_t unseen[TK_KINDS], int j,
                           tk_error *err);

/* EFR after a tsumo win with the 14 tiles `h` on `kind`, or NAN when they do not win with a
 * yaku. */
static double tsumo_value(mce_ctx *c, const rof_hand *h, const rof_ctx *x, int kind) {
  tk_win_ctx wc;
  memset(&wc, 0, sizeof wc);
  wc.ruleset = TK_RULES_TENHOU;
  wc.round_wind = x->round_wind;
  wc.seat_wind = x->seat_wind;
  wc.ndora = x->ndora < TK_MAX_INDICATORS ? x->ndora : TK_MAX_INDICATORS;
  memcpy(wc.dora, x->dora, TK_MAX_INDICATORS);
  wc.win_tile = (uint8_t)kind;
  tk_score sc;
  if (tk_score_counts(h->c, kind, h->red, h->melds, h->nmelds, &wc, &sc, NULL)) return NAN;
  int han = sc.yakuman ? 13 * sc.yakuman : sc.han;
  if (han <= 0) return NAN;
  int rel = (c->seat - c->z.round) & 3;
  efr_hand w = rm_efr_win(han, sc.fu ? sc.fu : 30, rel, rel);
  c->st.wins++;
  return rm_efr_after(c->efr, &c->z, &w, c->seat);
}

/* The 13-tile hand after discarding `kind` from the 14 tiles `h` (a plain five first). */
static void discard_from(const rof_hand *h, int kind, rof_hand *out) {
  *out = *h;
  out->c[kind]--;
  int fives = out->c[FIVE_M] + out->c[FIVE_P] + out->c[FIVE_S];
  if (out->red > fives) out->red = (uint8_t)fives;
}

/* The draw node of 14 tiles `h` (context x: the discards so far), drawn `kind`, after j discards. */
static double draw_node(mce_ctx *c, const rof_hand *h, const rof_ctx *x, int kind,
                        const rof_comp *before, uint8_t unseen[TK_KINDS], int j, tk_error *err) {
  if (before->sh_all == 0)
    for (int i = 0; i < before->nwaits; i++)
      if (before->waits[i] == kind) {
        double w = tsumo_value(c, h, x, kind);
        if (!isnan(w)) return w;
      }
  child kids[TK_KINDS];
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!h->c[k]) continue;
    child *o = &kids[n];
    discard_from(h, k, &o->h);
    o->x = *x;
    rof_ctx_discard(&o->x, k);
    o->x.turn++;
    o->score = score_of(c, &o->h, &o->x, &o->comp, err);
    if (isnan(o->score)) return NAN;
    n++;
  }
  /* the `width` best by Score (selection: n <= 14) */
  double best = INFINITY;
  for (int w = 0; w < c->p.width && w < n; w++) {
    int m = w;
    for (int i = w + 1; i < n; i++)
      if (kids[i].score < kids[m].score) m = i;
    child t = kids[w];
    kids[w] = kids[m];
    kids[m] = t;
    double v = discard_node(c, &kids[w], unseen, j + 1, err);
    if (isnan(v)) return NAN;
    if (v < best) best = v;
  }
  return best;
}

/* The draws a discard node expands (efr_mode.h). */
static uint64_t expanded(const rof_comp *comp) {
  uint64_t m = comp->ukeire_mask;
  for (int i = 0; i < comp->nisolated; i++) {
    int k = comp->isolated[i];
    if (k >= 27) {
      m |= 1ull << k;
      continue;
    }
    int suit = k / 9, r = k % 9;
    for (int d = -2; d <= 2; d++)
      if (r + d >= 0 && r + d < 9) m |= 1ull << (suit * 9 + r + d);
  }
  return m;
}

static double discard_node(mce_ctx *c, const child *n, uint8_t unseen[TK_KINDS], int j,
                           tk_error *err) {
  if (j >= c->p.plies) return n->score;
  uint64_t m = expanded(&n->comp);
  double sum = 0, mass = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!(m >> k & 1) || !unseen[k] || n->h.c[k] >= 4) continue;
    rof_hand h = n->h;
    h.c[k]++;
    double w = unseen[k];
    unseen[k]--;
    double v = draw_node(c, &h, &n->x, k, &n->comp, unseen, j, err);
    unseen[k]++;
    if (isnan(v)) return NAN;
    sum += w * v;
    mass += w;
  }
  return mass > 0 ? sum / mass : n->score;
}

static int take_win(const tk_riichi_legal *l) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON) return i;
  return -1;
}

int mce_decide(mce_ctx *c, const tk_riichi_view *v, const tk_riichi_legal *l, int *action,
               double *value, tk_error *err) {
  c->st.decisions++;
  if (value) *value = NAN;
  if (!l->n) return tk_error_set(err, TK_EINVAL, -1, "efr mode: the legal list is empty");
  int w = take_win(l);
  if (w >= 0) {
    *action = w;
    return 0;
  }
  refresh(c, v);
  static _Thread_local rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, cands, ROP_MAX_CANDS);
  uint8_t riichi_of[0x80];
  int any_riichi = rop_riichi_of(l, riichi_of);
  int search = c->p.plies >= 2 && v->phase == TK_RIICHI_PHASE_SELF && !any_riichi;
  uint8_t unseen[TK_KINDS];
  if (search) {
    c->st.searches++;
    rof_hand now;
    rof_hand_of_view(v, &now);
    for (int k = 0; k < TK_KINDS; k++) {
      int u = 4 - now.c[k] - v->seen[k];
      unseen[k] = (uint8_t)(u > 0 ? u : 0);
    }
  }
  /* depth 1: every candidate; the search keeps the discards */
  static _Thread_local child kids[ROP_MAX_CANDS];
  int nk = 0, best = -1;
  double best_v = 0;
  for (int i = 0; i < n; i++) {
    const rop_cand *cd = &cands[i];
    const tk_riichi_action *a = &l->a[cd->action];
    int tile = a->tile & 0x7f;
    if (any_riichi && (a->type != TK_RIICHI_DISCARD || riichi_of[tile] == 0xff)) continue;
    if (search && a->type != TK_RIICHI_DISCARD) continue;
    child *o = &kids[nk];
    o->h = cd->hand;
    o->x = cd->ctx;
    o->score = score_of(c, &o->h, &o->x, &o->comp, err);
    if (isnan(o->score)) return TK_EINVAL;
    if (best < 0 || o->score < best_v) best = i, best_v = o->score;
    nk++;
  }
  if (search && nk > 0) {
    /* the `width` best discards by Score, each valued by the search */
    int idx[ROP_MAX_CANDS], ni = 0;
    for (int i = 0; i < n; i++)
      if (l->a[cands[i].action].type == TK_RIICHI_DISCARD) idx[ni++] = i;
    uint8_t used[ROP_MAX_CANDS] = {0};
    best = -1;
    for (int w2 = 0; w2 < c->p.width && w2 < nk; w2++) {
      int m = -1;
      for (int i = 0; i < nk; i++)
        if (!used[i] && (m < 0 || kids[i].score < kids[m].score)) m = i;
      used[m] = 1;
      double val = discard_node(c, &kids[m], unseen, 1, err);
      if (isnan(val)) return TK_EINVAL;
      if (best < 0 || val < best_v) best = idx[m], best_v = val;
    }
  }
  if (best < 0) {
    *action = tk_riichi_fallback(l);
    return 0;
  }
  *action = cands[best].action;
  if (any_riichi) *action = riichi_of[l->a[cands[best].action].tile & 0x7f];
  if (value) *value = best_v;
  return 0;
}
