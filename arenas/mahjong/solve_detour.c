/* arenas/mahjong/solve_detour.c — the solver's detour mode (taikai/solve.h): the graph of the
 * hands its policy can reach from the decision, built breadth first, then V(h, t) for t = 1 .. T,
 * one draw at a time (its graph has cycles: a change of shape can be undone, so a hand cannot be
 * valued once for every t). Its values use the same keys, scores and comparisons as the other
 * modes (solve_internal.h). */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux), in solve_internal.h */
#include "solve_internal.h"

/* A node: a 3k+1-tile hand before a draw ("draw node") or a 3k+2-tile hand after it ("discard
 * node"). depth: the draws made before it on the shortest line from the decision, so that it is
 * only ever valued with at most T - depth draws left and a child that cannot win in those is
 * left out (its value is 0 there). */
typedef struct dnode {
  uint8_t h[TK_KINDS];
  int8_t sh;
  uint8_t depth;
  int32_t first, count; /* draw node: its draws in d->edge; discard node: its children in d->kid */
  int32_t total, stay;  /* draw node: the wall's tiles, and the weight of the draws thrown back */
} dnode;

typedef struct dedge {
  int32_t to, w; /* to: the discard node after the draw, or -1 (a win) */
  double pts;    /* the win's points (TK_SOLVE_POINTS) */
} dedge;

struct detour {
  table k13, k14; /* key -> node index (entry.p) */
  dnode *n13, *n14;
  size_t used13, cap13, used14, cap14;
  dedge *edge;
  size_t nedge, capedge;
  int32_t *kid;
  size_t nkid, capkid;
  double *v; /* per t: V of every draw node (then E), then B of every discard node (then E) */
  size_t capv;
};

/* The array p (*cap elements of `size` bytes, `used` in use) with room for one more: p itself,
 * or a larger copy (*cap updated), or NULL (no memory, or past the int32 indexes of the graph;
 * p is still valid). */
static void *grow(void *p, size_t *cap, size_t used, size_t size) {
  if (used < *cap) return p;
  if (used >= (size_t)INT32_MAX) return NULL;
  size_t c = *cap ? 2 * *cap : 1024;
  void *q = realloc(p, c * size);
  if (q) *cap = c;
  return q;
}

/* After a search: an array past 2^16 elements of which the search used less than 1/16 is cut to 4
 * times that use (as cleared_slots does for the tables: a run of small searches after a large
 * one does not hold the large one's memory). Returns the array to use. */
static void *shrunk(void *p, size_t *cap, size_t used, size_t size) {
  if (*cap <= (1u << 16) || 16 * used >= *cap) return p;
  size_t c = 4 * used > 1024 ? 4 * used : 1024;
  void *q = realloc(p, c * size);
  if (!q) return p;
  *cap = c;
  return q;
}

void tk__solve_detour_free(struct detour *d) {
  if (!d) return;
  free(d->k13.slot);
  free(d->k14.slot);
  free(d->n13);
  free(d->n14);
  free(d->edge);
  free(d->kid);
  free(d->v);
  free(d);
}

/* The tiles of h beyond the decision's counts. */
static int beyond_root(const tk_solver *s, const uint8_t *h) {
  int D = 0;
  for (int k = 0; k < TK_KINDS; k++)
    if (h[k] > s->root[k]) D += h[k] - s->root[k];
  return D;
}

/* The node of hand h (a draw node if `draw`), added unexpanded at `depth` if new; its index, or
 * -1 (the cap or no memory: s->aborted set). */
static long detour_node(tk_solver *s, const uint8_t *h, int sh, int depth, int draw) {
  struct detour *d = s->dt;
  key kk = pack(s, h, 0, s->objective == TK_SOLVE_WIN);
  table *tb = draw ? &d->k13 : &d->k14;
  entry *x = find(tb, &kk);
  if (x->k.w[3]) return (long)x->p;
  if ((long)(d->used13 + d->used14) >= s->max_states) {
    s->aborted = 1;
    return -1;
  }
  dnode **arr = draw ? &d->n13 : &d->n14;
  size_t *used = draw ? &d->used13 : &d->used14, *cap = draw ? &d->cap13 : &d->cap14;
  dnode *a = grow(*arr, cap, *used, sizeof **arr);
  if (!a || table_reserve(tb)) {
    if (a) *arr = a;
    s->aborted = 1;
    return -1;
  }
  *arr = a;
  long i = (long)(*used)++;
  dnode *n = &a[i];
  memcpy(n->h, h, TK_KINDS);
  n->sh = (int8_t)sh;
  n->depth = (uint8_t)depth;
  n->first = -1;
  n->count = n->total = n->stay = 0;
  x = find(tb, &kk);
  *x = (entry){kk, (double)i, 0};
  tb->used++;
  return i;
}

/* The draws of draw node i: a win, a discard node, or thrown back (stay). */
static void detour_draws(tk_solver *s, long i, int S0) {
  struct detour *d = s->dt;
  int T = s->draws;
  uint8_t h[TK_KINDS];
  memcpy(h, d->n13[i].h, TK_KINDS);
  int sh = d->n13[i].sh, depth = d->n13[i].depth;
  int first = (int)d->nedge, total = 0, stay = 0;
  if (sh < T - depth) {
    int free_moves = beyond_root(s, h) + sh - S0 < s->detours;
    int sd[TK_KINDS];
    tk_shanten_draws(h, sd);
    for (int k = 0; k < TK_KINDS && !s->aborted; k++) {
      int kept = h[k] > s->root[k] ? h[k] - s->root[k] : 0;
      int w = s->unseen[k] - kept;
      if (w <= 0) continue;
      total += w;
      int s14 = sd[k];
      long to;
      double pts = 0;
      h[k]++;
      if (s14 < 0) {
        to = -1;
        pts = points_of(s, h, k);
      } else if (s14 >= sh && !free_moves) {
        stay += w;
        to = -2;
      } else if (s14 < T - depth - 1) {
        to = detour_node(s, h, s14, depth + 1, 0);
      } else {
        to = -2; /* no hand after it can win in the draws left */
      }
      h[k]--;
      if (to == -2 || s->aborted) continue;
      dedge *e = grow(d->edge, &d->capedge, d->nedge, sizeof *d->edge);
      if (!e) {
        s->aborted = 1;
        break;
      }
      d->edge = e;
      d->edge[d->nedge++] = (dedge){(int32_t)to, w, pts};
    }
  }
  dnode *n = &d->n13[i];
  n->first = first;
  n->count = (int32_t)d->nedge - first;
  n->total = total;
  n->stay = stay;
}

/* The discards of discard node j: those keeping its shanten, and the others while detours are
 * left; each child that can still win. */
static void detour_discards(tk_solver *s, long j, int S0) {
  struct detour *d = s->dt;
  int T = s->draws;
  uint8_t h[TK_KINDS];
  memcpy(h, d->n14[j].h, TK_KINDS);
  int s14 = d->n14[j].sh, depth = d->n14[j].depth;
  int free_moves = beyond_root(s, h) + s14 - S0 < s->detours;
  int after[TK_KINDS];
  tk_shanten_discards(h, after);
  int first = (int)d->nkid;
  for (int k = 0; k < TK_KINDS && !s->aborted; k++) {
    if (!h[k] || (after[k] > s14 && !free_moves) || after[k] >= T - depth) continue;
    h[k]--;
    long c = detour_node(s, h, after[k], depth, 1);
    h[k]++;
    if (c < 0) break;
    int32_t *q = grow(d->kid, &d->capkid, d->nkid, sizeof *d->kid);
    if (!q) {
      s->aborted = 1;
      break;
    }
    d->kid = q;
    d->kid[d->nkid++] = (int32_t)c;
  }
  d->n14[j].first = first;
  d->n14[j].count = (int32_t)d->nkid - first;
}

/* The detour mode for the decision hand h (3k+2 tiles: every discard into out; 3k+1: the hand).
 * Returns 0, or -1 with s->aborted set (the cap: the caller falls back to the direct mode). */
int tk__solve_detour(tk_solver *s, uint8_t *h, int n, tk_solve_result *out) {
  if (!s->dt) {
    s->dt = calloc(1, sizeof *s->dt);
    if (!s->dt || table_init(&s->dt->k13, 1 << 12) || table_init(&s->dt->k14, 1 << 12)) {
      tk__solve_detour_free(s->dt);
      s->dt = NULL;
      s->aborted = 1;
      return -1;
    }
  }
  struct detour *d = s->dt;
  table_clear(&d->k13);
  table_clear(&d->k14);
  d->used13 = d->used14 = d->nedge = d->nkid = 0;
  int T = s->draws, pts = s->objective == TK_SOLVE_POINTS;
  int S0 = tk_shanten(h);
  long seed[14];
  out->n = 0;
  if (n % 3 == 1) {
    tk_solve_choice *c = &out->c[out->n];
    c->discard = -1;
    c->shanten = (int8_t)S0;
    seed[out->n++] = detour_node(s, h, S0, 0, 1);
  } else {
    for (int k = 0; k < TK_KINDS && !s->aborted; k++) {
      if (!h[k]) continue;
      h[k]--;
      int sh = tk_shanten(h);
      if (!s->keep_shanten || sh <= S0) {
        tk_solve_choice *c = &out->c[out->n];
        c->discard = (int8_t)k;
        c->shanten = (int8_t)sh;
        seed[out->n++] = detour_node(s, h, sh, 0, 1);
      }
      h[k]++;
    }
  }
  /* breadth first, so that a node is added at its least depth */
  size_t i13 = 0, i14 = 0;
  while (!s->aborted && (i13 < d->used13 || i14 < d->used14)) {
    for (size_t end = d->used13; i13 < end && !s->aborted; i13++) detour_draws(s, (long)i13, S0);
    for (size_t end = d->used14; i14 < end && !s->aborted; i14++) detour_discards(s, (long)i14, S0);
  }
  if (s->aborted) return -1;
  /* V by draws left: layer t holds V (then E) of the draw nodes, then B (then E) of the discard
     nodes, B being the best child's V with t - 1 draws left */
  size_t N13 = d->used13, N14 = d->used14, layer = (N13 + N14) * (pts ? 2 : 1);
  size_t need = layer * (size_t)(T + 1);
  if (need > d->capv) {
    double *v = realloc(d->v, need * sizeof *v);
    if (!v) {
      s->aborted = 1;
      return -1;
    }
    d->v = v;
    d->capv = need;
  }
  memset(d->v, 0, layer * sizeof *d->v); /* t = 0: nothing can be won */
  for (int t = 1; t <= T; t++) {
    const double *prev = d->v + layer * (size_t)(t - 1);
    double *cur = d->v + layer * (size_t)t;
    const double *pv = prev, *pe = prev + N13;
    double *vv = cur, *ve = cur + N13, *bv = cur + (pts ? 2 : 1) * N13, *be = bv + N14;
    for (size_t j = 0; j < N14; j++) {
      const dnode *x = &d->n14[j];
      double bp = 0, bq = 0;
      for (int c = 0; c < x->count; c++) {
        int32_t y = d->kid[x->first + c];
        double vp = pv[y], vq = pts ? pe[y] : 0;
        if (better(s, vp, vq, bp, bq)) {
          bp = vp;
          bq = vq;
        }
      }
      bv[j] = bp;
      if (pts) be[j] = bq;
    }
    for (size_t i = 0; i < N13; i++) {
      const dnode *x = &d->n13[i];
      double P = 0, E = 0;
      if (t > x->sh && x->total) {
        for (int c = 0; c < x->count; c++) {
          const dedge *g = &d->edge[x->first + c];
          if (g->to < 0) {
            P += g->w;
            E += g->w * g->pts;
          } else {
            P += g->w * bv[g->to];
            if (pts) E += g->w * be[g->to];
          }
        }
        P = (P + x->stay * pv[i]) / x->total;
        E = (E + x->stay * (pts ? pe[i] : 0)) / x->total;
      }
      vv[i] = P;
      if (pts) ve[i] = E;
    }
  }
  const double *last = d->v + layer * (size_t)T;
  for (int c = 0; c < out->n; c++) {
    out->c[c].win = last[seed[c]];
    out->c[c].points = pts ? last[N13 + seed[c]] : 0;
  }
  d->n13 = shrunk(d->n13, &d->cap13, N13, sizeof *d->n13);
  d->n14 = shrunk(d->n14, &d->cap14, N14, sizeof *d->n14);
  d->edge = shrunk(d->edge, &d->capedge, d->nedge, sizeof *d->edge);
  d->kid = shrunk(d->kid, &d->capkid, d->nkid, sizeof *d->kid);
  d->v = shrunk(d->v, &d->capv, need, sizeof *d->v);
  s->nodes += (long)N13;
  s->dstates = (long)N13;
  return 0;
}
