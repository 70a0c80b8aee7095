/* tests/riichi/test_riichi_sampler.c — plugins/riichi_sampler: paper 003's samplers S1
 * "constrained" and S2 "weighted", and tk_riichi_from_view_hands they build on:
 * - tk_riichi_from_view_hands: the given hands are held exactly, the red five where asked (and
 *   not where plain copies suffice), impossible hands refused naming the seat and the kind, the
 *   viewer's legal actions unchanged, four copies of every kind;
 * - constrained: in every sample every opponent in closed riichi is tenpai with no wait in its
 *   river and no tile it let go by tsumogiri after riichi a wait, the samples consistent with the
 *   view, the same rng giving the same bytes; the Metropolis chain's distribution against exact
 *   enumeration (chi-square, fixed seed);
 * - weighted: the resampled hands make the owners' last hand-cut discards likelier than the
 *   proposals do, a constructed hand pair ordered as the policy must order it, determinism;
 * - options refused naming the sampler, the key and the value.
 * `test_riichi_sampler --bench` prints samples per second (CPU time) of every sampler on
 * positions with an opponent in riichi, and `--mix` the chain's total-variation distance to the
 * exact distribution by sweeps (docs/riichi-samplers.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "constrained.h"
#include "rsamp.h"
#include "riichi_oneplayer/weights_io.h"
#include "taikai/mahjong.h"
#include "unit.h"

/* ------------------------------------------------------------ positions */

/* A position: a game with a decision of `seat`, some other seat in closed riichi. */
typedef struct pos {
  tk_riichi_game g;
  int seat;
} pos;

enum { MAXPOS = 64 };
static pos POS[MAXPOS];
static int NPOS;

/* Closed greedy players: win when they can, declare riichi when they can, else discard the first
 * tile of least shanten; never call. */
static int choose(const tk_riichi_game *g, int seat, const tk_riichi_legal *l) {
  int pass = -1;
  for (int i = 0; i < l->n; i++) {
    int t = l->a[i].type;
    if (t == TK_RIICHI_TSUMO || t == TK_RIICHI_RON) return i;
    if (t == TK_RIICHI_PASS) pass = i;
  }
  if (pass >= 0) return pass;
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_RIICHI) return i;
  int sh[TK_KINDS], best = -1, bs = 99;
  tk_shanten_discards(g->p[seat].hand, sh);
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_DISCARD && sh[tk_tile_kind(l->a[i].tile)] < bs) {
      bs = sh[tk_tile_kind(l->a[i].tile)];
      best = i;
    }
  return best >= 0 ? best : tk_riichi_fallback(l);
}

static int closed_riichi(const tk_riichi_player *p) { return p->riichi && p->nmelds == p->nkans; }

/* Plays seeded games, keeping every 3rd decision of a seat while another is in closed riichi. */
static void positions(void) {
  if (NPOS) return;
  int kept = 0;
  for (uint64_t game = 0; NPOS < MAXPOS && game < 40; game++) {
    tk_riichi_game g;
    tk_error err = {0};
    if (tk_riichi_init(&g, NULL, 2026, game, NULL, &err)) break;
    for (int steps = 0; steps < 3000 && !tk_riichi_is_over(&g) && NPOS < MAXPOS; steps++) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        if (tk_riichi_deal(&g, NULL, NULL, &err)) break;
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      int facing = 0;
      for (int o = 0; o < 4; o++) facing |= o != s && closed_riichi(&g.p[o]);
      if (facing && kept++ % 3 == 0) POS[NPOS++] = (pos){g, s};
      if (tk_riichi_apply(&g, s, &l.a[choose(&g, s, &l)], NULL, &err)) break;
    }
  }
}

static void check_tiles(const tk_riichi_game *g, const char *what) {
  int cnt[TK_KINDS] = {0};
  for (int s = 0; s < 4; s++) {
    const tk_riichi_player *p = &g->p[s];
    for (int k = 0; k < TK_KINDS; k++) cnt[k] += p->hand[k];
    for (int m = 0; m < p->nmelds; m++)
      for (int j = 0; j < 4; j++)
        if (p->melds[m].tiles[j] != TK_TILE_NONE) cnt[tk_tile_kind(p->melds[m].tiles[j])]++;
    for (int i = 0; i < p->nriver; i++)
      if (!(p->river[i].flags & TK_RIICHI_CALLED)) cnt[tk_tile_kind(p->river[i].tile)]++;
  }
  for (int i = g->next_draw; i < TK_RIICHI_TILES; i++)
    if (g->wall[i] != TK_TILE_NONE) cnt[tk_tile_kind(g->wall[i])]++;
  for (int k = 0; k < TK_KINDS; k++)
    if (cnt[k] != 4) TK_FAILF("%s: kind %d has %d copies", what, k, cnt[k]);
}

/* The sample is consistent with the view: the viewer's legal actions, hand and visible tiles. */
static void check_view(const tk_riichi_game *s, const pos *p, const char *what) {
  tk_riichi_legal a, b;
  tk_riichi_legal_of(&p->g, p->seat, &a);
  tk_riichi_legal_of(s, p->seat, &b);
  if (memcmp(&a, &b, sizeof a)) TK_FAILF("%s: the viewer's legal actions differ", what);
  tk_riichi_view v, w;
  tk_riichi_view_of(&p->g, p->seat, &v);
  tk_riichi_view_of(s, p->seat, &w);
  if (memcmp(v.hand, w.hand, sizeof v.hand) || memcmp(v.seen, w.seen, sizeof v.seen))
    TK_FAILF("%s: the viewer's hand or the visible tiles differ", what);
  check_tiles(s, what);
}

/* ------------------------------------------------------------ tk_riichi_from_view_hands */

static void from_view_hands(void) {
  positions();
  TK_EQ(NPOS >= 30, 1, "positions with an opponent in closed riichi");
  int reds = 0, plains = 0;
  for (int i = 0; i < NPOS; i++) {
    const pos *p = &POS[i];
    tk_riichi_view v;
    tk_riichi_view_of(&p->g, p->seat, &v);
    uint8_t hands[4][TK_KINDS] = {{0}}, red[4] = {0};
    unsigned given = 0;
    for (int s = 0; s < 4; s++)
      if (s != p->seat) {
        given |= 1u << s;
        memcpy(hands[s], p->g.p[s].hand, TK_KINDS);
        red[s] = p->g.p[s].red;
      }
    tk_riichi_game g;
    tk_rng rng;
    tk_rng_seed(&rng, 7 + (uint64_t)i);
    tk_error err = {0};
    if (tk_riichi_from_view_hands(&g, &v, NULL, given, hands, red, &rng, &err)) {
      TK_FAILF("position %d: %s", i, err.msg);
      continue;
    }
    for (int s = 0; s < 4; s++)
      if (s != p->seat) {
        if (memcmp(g.p[s].hand, hands[s], TK_KINDS)) TK_FAILF("position %d: seat %d's hand", i, s);
        TK_EQ(g.p[s].red, red[s], "the red fives as given (the true hands)");
        TK_EQ(g.p[s].waits, p->g.p[s].waits, "the true hands' waits");
      }
    check_view(&g, p, "from_view_hands");
    /* red preference, one seat given: a five of a suit whose red copy is unseen */
    uint8_t unseen[TK_KINDS], ru;
    TK_EQ(rs_unseen(&v, NULL, unseen, &ru), 0, "unseen");
    for (int s = 0; s < 4; s++) {
      if (s == p->seat) continue;
      for (int u = 0; u < 3; u++) {
        int k = u * 9 + 4;
        if (!(ru >> u & 1) || !hands[s][k]) continue;
        uint8_t one[4] = {0};
        one[s] = (uint8_t)(1u << u);
        err = (tk_error){0};
        TK_EQ(tk_riichi_from_view_hands(&g, &v, NULL, 1u << s, hands, one, &rng, &err), 0, "red asked");
        TK_EQ(g.p[s].red >> u & 1, 1, "the red five held when asked");
        reds++;
        one[s] = 0;
        TK_EQ(tk_riichi_from_view_hands(&g, &v, NULL, 1u << s, hands, one, &rng, &err), 0, "plain");
        TK_EQ(g.p[s].red >> u & 1, hands[s][k] > unseen[k] - 1, "plain fives first");
        plains++;
      }
    }
    /* refusals: a kind over what is unseen, a hand of the wrong size */
    int o = (p->seat + 1) & 3;
    int k = 0;
    while (k < TK_KINDS - 1 && unseen[k] == 4) k++;
    uint8_t bad[4][TK_KINDS];
    memcpy(bad, hands, sizeof bad);
    bad[o][k] = (uint8_t)(unseen[k] + 1);
    err = (tk_error){0}; /* the first error set is kept: clear it before each refusal */
    TK_EQ(tk_riichi_from_view_hands(&g, &v, NULL, 1u << o, bad, NULL, &rng, &err), TK_EINVAL,
          "a kind over the unseen copies");
    char want[64];
    snprintf(want, sizeof want, "seat %d's hand holds %d of kind %d", o, unseen[k] + 1, k);
    if (!strstr(err.msg, want)) TK_FAILF("message '%s' lacks '%s'", err.msg, want);
    memcpy(bad, hands, sizeof bad);
    for (k = 0; !bad[o][k]; k++) {
    }
    bad[o][k]--;
    err = (tk_error){0};
    TK_EQ(tk_riichi_from_view_hands(&g, &v, NULL, 1u << o, bad, NULL, &rng, &err), TK_EINVAL,
          "a hand one tile short");
    snprintf(want, sizeof want, "seat %d's hand has", o);
    if (!strstr(err.msg, want)) TK_FAILF("message '%s' lacks '%s'", err.msg, want);
    err = (tk_error){0};
    TK_EQ(tk_riichi_from_view_hands(&g, &v, NULL, 1u << p->seat, hands, NULL, &rng, &err),
          TK_EINVAL, "the viewer's hand is never given");
  }
  TK_EQ(reds > 0 && plains > 0, 1, "red-five cases met");
}

/* ------------------------------------------------------------ constrained */

static double *W;
static void load_policy(void) {
  if (W) return;
  tk_error err = {0};
  if (rop_weights_load(TK_POLICY_FILE, &W, NULL, &err)) {
    fprintf(stderr, "test_riichi_sampler: %s\n", err.msg);
    exit(1);
  }
}

static rs_sampler *open_or_die(const char *name, const char *opts) {
  rs_sampler *s = NULL;
  tk_error err = {0};
  if (rs_sampler_open(name, opts, NULL, &s, &err)) {
    fprintf(stderr, "test_riichi_sampler: %s: %s\n", name, err.msg);
    exit(1);
  }
  return s;
}

/* Every opponent in closed riichi of sample g is as the constraints say. Returns the seats met. */
static int check_riichi_seats(const tk_riichi_game *g, int viewer, const char *what) {
  int met = 0;
  for (int o = 0; o < 4; o++) {
    const tk_riichi_player *p = &g->p[o];
    if (o == viewer || !closed_riichi(p)) continue;
    met++;
    if (tk_shanten(p->hand) != 0 || !p->waits) TK_FAILF("%s: seat %d not tenpai", what, o);
    if (p->waits & p->discarded) TK_FAILF("%s: seat %d has a wait in its river", what, o);
    for (int i = p->riichi_index + 1; i < p->nriver; i++)
      if ((p->river[i].flags & TK_RIICHI_TSUMOGIRI) &&
          (p->waits >> tk_tile_kind(p->river[i].tile) & 1))
        TK_FAILF("%s: seat %d let a wait go by tsumogiri after riichi", what, o);
  }
  return met;
}

static void constrained(void) {
  positions();
  const char *names[2] = {"constrained", "weighted"};
  char opts[512];
  snprintf(opts, sizeof opts, "{\"policy\": \"%s\", \"proposals\": 4}", TK_POLICY_FILE);
  for (int n = 0; n < 2; n++) {
    rs_sampler *s = open_or_die(names[n], n ? opts : NULL);
    int met = 0;
    for (int i = 0; i < NPOS; i++) {
      const pos *p = &POS[i];
      tk_riichi_view v;
      tk_riichi_view_of(&p->g, p->seat, &v);
      tk_riichi_game out[3], again[3];
      tk_rng a, b;
      tk_rng_seed(&a, 100 + (uint64_t)i);
      tk_rng_seed(&b, 100 + (uint64_t)i);
      tk_error err = {0};
      if (s->s.sample(s->s.ctx, &v, NULL, &a, 3, out, &err)) {
        TK_FAILF("%s position %d: %s", names[n], i, err.msg);
        continue;
      }
      TK_EQ(s->s.sample(s->s.ctx, &v, NULL, &b, 3, again, &err), 0, "again");
      if (memcmp(out, again, sizeof out)) TK_FAILF("%s position %d: the same rng, other bytes", names[n], i);
      for (int k = 0; k < 3; k++) {
        check_view(&out[k], p, names[n]);
        met += check_riichi_seats(&out[k], p->seat, names[n]);
      }
    }
    const rs_cons_stats *st = rs_sampler_cons_stats(s);
    TK_EQ(st != NULL, 1, "counters");
    TK_EQ(met >= NPOS * 3, 1, "riichi seats checked");
    TK_EQ(st->fallbacks, 0, "no fallback to the uniform hand on these positions");
    TK_EQ(st->accepted > 0 && st->accepted < st->proposals, 1, "the chain accepts and refuses");
    rs_sampler_close(s);
  }
  /* the uniform sampler breaks the constraints on the same positions (the check can fail) */
  const tk_riichi_sampler *u = tk_riichi_sampler_find("uniform");
  int bad = 0;
  for (int i = 0; i < NPOS; i++) {
    tk_riichi_view v;
    tk_riichi_view_of(&POS[i].g, POS[i].seat, &v);
    tk_riichi_game g;
    tk_rng r;
    tk_rng_seed(&r, (uint64_t)i);
    u->sample(NULL, &v, NULL, &r, 1, &g, NULL);
    for (int o = 0; o < 4; o++)
      bad += o != POS[i].seat && closed_riichi(&g.p[o]) && tk_shanten(g.p[o].hand) != 0;
  }
  TK_EQ(bad > NPOS / 2, 1, "uniform hands of riichi seats are mostly not tenpai");
}

/* The chain on a small case against exact enumeration: one seat of 13 tiles from a pool of the
 * 36 manzu, four East and four 1p (44 tiles, 11 kinds), 2m in its river. Under the target the
 * hand's counts h have probability prod_k C(4, h_k) / Z over the valid h (the tiles are distinct
 * objects and every arrangement of them with a valid hand is equally likely). */
enum { MIX_KINDS = 11 };
static const int MIX_KIND[MIX_KINDS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 27};
static const uint64_t MIX_RIVER = 1ULL << 1;

typedef struct wset {
  uint64_t waits;
  double p;     /* exact probability */
  long n;       /* samples */
} wset;

static int wset_find(wset *w, int *nw, uint64_t waits) {
  for (int i = 0; i < *nw; i++)
    if (w[i].waits == waits) return i;
  w[*nw] = (wset){waits, 0, 0};
  return (*nw)++;
}

/* The exact distribution of the wait set. */
static int exact_waits(wset *w, int cap) {
  static const double C4[5] = {1, 4, 6, 4, 1};
  int nw = 0, h[MIX_KINDS] = {0};
  double z = 0;
  /* every count vector of 13 tiles, each count 0..4 */
  for (;;) {
    int tot = 0;
    for (int i = 0; i < MIX_KINDS; i++) tot += h[i];
    if (tot == 13) {
      uint8_t c[TK_KINDS] = {0};
      double wt = 1;
      for (int i = 0; i < MIX_KINDS; i++) {
        c[MIX_KIND[i]] = (uint8_t)h[i];
        wt *= C4[h[i]];
      }
      if (rs_cons_valid(c, MIX_RIVER)) {
        int j = wset_find(w, &nw, tk_waits(c));
        if (nw > cap) abort();
        w[j].p += wt;
        z += wt;
      }
    }
    int i = 0;
    while (i < MIX_KINDS && h[i] == 4) h[i++] = 0;
    if (i == MIX_KINDS) break;
    h[i]++;
  }
  for (int i = 0; i < nw; i++) w[i].p /= z;
  return nw;
}

/* n chain samples, each from a fresh uniform start, counted into w. */
static void chain_waits(wset *w, int *nw, int cap, int n, int sweeps, uint64_t seed) {
  rs_cons_opts o = {sweeps, RS_CONS_INIT_STEPS};
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  rs_cons_stats st = {0};
  for (int t = 0; t < n; t++) {
    uint8_t all[44];
    int m = 0;
    for (int i = 0; i < MIX_KINDS; i++)
      for (int c = 0; c < 4; c++) all[m++] = (uint8_t)MIX_KIND[i];
    for (int i = m - 1; i > 0; i--) {
      int j = (int)tk_rng_below(&rng, (uint32_t)i + 1);
      uint8_t x = all[i];
      all[i] = all[j];
      all[j] = x;
    }
    rs_chain c;
    memset(&c, 0, sizeof c);
    c.nseat = 1;
    c.n[0] = 13;
    c.river[0] = MIX_RIVER;
    for (int i = 0; i < 13; i++) {
      c.tiles[0][i] = all[i];
      c.cnt[0][all[i]]++;
    }
    c.npool = m - 13;
    memcpy(c.pool, all + 13, (size_t)c.npool);
    rs_chain_run(&c, &o, &rng, &st);
    if (c.failed[0]) continue;
    int j = wset_find(w, nw, tk_waits(c.cnt[0]));
    if (*nw > cap) abort();
    w[j].n++;
  }
}

/* Pearson's chi-square over the wait sets, those of expected count < 5 merged into one class
 * (a wait set the enumeration never gives is counted there too, with its expected 0). */
static double chi_square(const wset *w, int nw, long n, int *df) {
  double chi = 0, oe = 0, oo = 0;
  int classes = 0;
  for (int i = 0; i < nw; i++) {
    double e = w[i].p * (double)n;
    if (e >= 5) {
      chi += (w[i].n - e) * (w[i].n - e) / e;
      classes++;
    } else {
      oe += e;
      oo += (double)w[i].n;
    }
  }
  if (oe > 0) {
    chi += (oo - oe) * (oo - oe) / oe;
    classes++;
  }
  *df = classes - 1;
  return chi;
}

static double tv(const wset *w, int nw, long n) {
  double d = 0;
  for (int i = 0; i < nw; i++) d += fabs(w[i].p - (double)w[i].n / (double)n);
  return d / 2;
}

/* The chi-square quantile of probability 1 - 1e-6 by Wilson and Hilferty (z = 4.753). */
static double chi_crit(int df) {
  double a = 2.0 / (9.0 * df);
  return df * pow(1 - a + 4.753 * sqrt(a), 3);
}

enum { WCAP = 4096 };

static void chain_vs_exact(void) {
  static wset w[WCAP];
  int nw = exact_waits(w, WCAP - 64);
  long n = 20000;
  chain_waits(w, &nw, WCAP - 1, (int)n, RS_CONS_SWEEPS, 2026);
  long got = 0;
  for (int i = 0; i < nw; i++) got += w[i].n;
  TK_EQ(got, n, "every chain found a valid start");
  int df;
  double chi = chi_square(w, nw, n, &df);
  double crit = chi_crit(df);
  printf("\n  chain vs exact: %d wait sets, chi-square %.1f, df %d, bound %.1f, TV %.4f\n", nw,
         chi, df, crit, tv(w, nw, n));
  if (chi > crit) TK_FAILF("chi-square %.1f over %.1f (df %d)", chi, crit, df);
}

/* ------------------------------------------------------------ weighted */

/* Over the positions, the mean log-likelihood of the owners' last hand-cut discards in the
 * samples: higher with "weighted" than with its own proposals ("constrained"). */
static void weighted(void) {
  positions();
  load_policy();
  char opts[512];
  snprintf(opts, sizeof opts, "{\"policy\": \"%s\", \"proposals\": 32}", TK_POLICY_FILE);
  rs_sampler *ws = open_or_die("weighted", opts);
  rs_sampler *cs = open_or_die("constrained", NULL);
  double sum[2] = {0, 0};
  long terms = 0;
  for (int i = 0; i < NPOS; i++) {
    const pos *p = &POS[i];
    tk_riichi_view v;
    tk_riichi_view_of(&p->g, p->seat, &v);
    for (int n = 0; n < 2; n++) {
      rs_sampler *s = n ? ws : cs;
      tk_riichi_game out[8];
      tk_rng r;
      tk_rng_seed(&r, 500 + (uint64_t)i);
      tk_error err = {0};
      if (s->s.sample(s->s.ctx, &v, NULL, &r, 8, out, &err)) {
        TK_FAILF("%s: %s", s->name, err.msg);
        continue;
      }
      for (int k = 0; k < 8; k++)
        for (int o = 0; o < 4; o++) {
          int used;
          double ll = rs_weighted_loglik(W, 1.0, &v, o, out[k].p[o].hand, out[k].p[o].red, &used);
          sum[n] += ll;
          terms += used && n;
        }
    }
  }
  printf("\n  mean log-likelihood of the last hand-cut discards: constrained %.3f, weighted %.3f"
         " (%ld factors)\n", sum[0] / terms, sum[1] / terms, terms);
  TK_EQ(terms > NPOS * 8, 1, "factors met");
  /* the bound: resampling uniformly (the weights ignored) gave means 0.5 apart on these
   * positions, the weights (at the default temperature) about 29 */
  if (!(sum[1] > sum[0] + 10.0 * terms))
    TK_FAILF("weighted %.3f not above constrained %.3f by 10 per factor", sum[1] / terms, sum[0] / terms);
  const rs_cons_stats *st = rs_sampler_cons_stats(ws);
  TK_EQ(st->calls, NPOS * 8, "one weighing per sample");
  TK_EQ(st->samples, (uint64_t)NPOS * 8 * 32, "32 fresh proposals per sample");
  rs_sampler_close(ws);
  rs_sampler_close(cs);
}

/* A constructed pair: the same discard (East) from a hand where it is an isolated honor and from
 * one where it breaks a pair of Easts. The policy must find it likelier from the first. */
static void weighted_pair(void) {
  positions();
  load_policy();
  /* a position's view; its opponent's river is rewritten to end with a hand-cut East */
  const pos *p = &POS[0];
  tk_riichi_view v;
  tk_riichi_view_of(&p->g, p->seat, &v);
  int o = (p->seat + 1) & 3;
  v.nmelds[o] = 0;
  v.riichi[o] = 0;
  v.nriver[o] = 3;
  v.river[o][0] = (tk_riichi_discard){26, 0};
  v.river[o][1] = (tk_riichi_discard){9, TK_RIICHI_TSUMOGIRI};
  v.river[o][2] = (tk_riichi_discard){TK_EAST, 0};
  /* isolated East: 123m 456m 78m 234p 56s 9s (+E) */
  uint8_t a[TK_KINDS] = {0}, b[TK_KINDS] = {0};
  int ha[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 22, 23};
  /* East pair broken: 123m 456m 78m 234p E 56s (+E) */
  int hb[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, TK_EAST, 22};
  for (int i = 0; i < 13; i++) a[ha[i]]++, b[hb[i]]++;
  int ua, ub;
  double la = rs_weighted_loglik(W, 1.0, &v, o, a, 0, &ua);
  double lb = rs_weighted_loglik(W, 1.0, &v, o, b, 0, &ub);
  printf("\n  log P(E | isolated) = %.3f, log P(E | paired) = %.3f\n", la, lb);
  TK_EQ(ua && ub, 1, "both hands give a factor");
  if (!(la > lb)) TK_FAILF("an isolated East (%.3f) not likelier than a paired one (%.3f)", la, lb);
  TK_EQ(la <= 0 && lb <= 0, 1, "log-probabilities");
  /* a tsumogiri discard after the hand-cut one keeps the hand known; a kan does not */
  v.nriver[o] = 4;
  v.river[o][3] = (tk_riichi_discard){17, TK_RIICHI_TSUMOGIRI};
  double la2 = rs_weighted_loglik(W, 1.0, &v, o, a, 0, &ua);
  TK_EQ(ua, 1, "tsumogiri after: still known");
  if (fabs(la2 - la) > 1.0) TK_FAILF("a later tsumogiri moved the factor from %.3f to %.3f", la, la2);
  v.river[o][3].flags = 0;
  v.river[o][3].tile = TK_EAST; /* now the last hand-cut is this East; hand a lacks nothing */
  rs_weighted_loglik(W, 1.0, &v, o, a, 0, &ua);
  TK_EQ(ua, 1, "the last hand-cut discard is the one weighed");
  v.nmelds[o] = 1;
  v.melds[o][0] = (tk_riichi_meld){TK_CALL_ANKAN, (uint8_t)o, TK_TILE_NONE, TK_TILE_NONE,
                                   {8, 8, 8, 8}};
  uint8_t c[TK_KINDS] = {0};
  for (int i = 0; i < 10; i++) c[ha[i]]++;
  rs_weighted_loglik(W, 1.0, &v, o, c, 0, &ua);
  TK_EQ(ua, 0, "a kan: the factor is 1");
  /* a smaller temperature sharpens: the isolated East's probability rises */
  v.nmelds[o] = 0;
  v.nriver[o] = 3;
  double cold = rs_weighted_loglik(W, 0.25, &v, o, a, 0, &ua);
  printf("  at temperature 0.25: %.3f\n", cold);
  TK_EQ(cold >= la - 1e-9 || la < log(0.5), 1, "a sharper softmax favours the likelier discard");
}

/* ------------------------------------------------------------ options */

static void options(void) {
  static const struct {
    const char *name, *opts, *want[3];
  } bad[] = {
      {"constrained", "{\"sweep\": 3}", {"'constrained'", "'sweep'", "3"}},
      {"constrained", "{\"sweeps\": -1}", {"'constrained'", "'sweeps'", "-1"}},
      {"constrained", "{\"sweeps\": \"many\"}", {"'constrained'", "'sweeps'", "\"many\""}},
      {"constrained", "{\"init_steps\": 0}", {"'constrained'", "'init_steps'", "0"}},
      {"constrained", "[1]", {"'constrained'", "object", ""}},
      {"weighted", "{\"proposals\": 0}", {"'weighted'", "'proposals'", "0"}},
      {"weighted", "{\"temperature\": 0}", {"'weighted'", "'temperature'", "0"}},
      {"weighted", "{\"temperature\": \"hot\"}", {"'weighted'", "'temperature'", "\"hot\""}},
      {"weighted", "{\"depth\": 2}", {"'weighted'", "'depth'", "2"}},
      {"weighted", "{\"policy\": 5}", {"'weighted'", "'policy'", "5"}},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    rs_sampler *s = NULL;
    tk_error err = {0};
    TK_EQ(rs_sampler_open(bad[i].name, bad[i].opts, NULL, &s, &err), TK_EINVAL, bad[i].opts);
    TK_EQ(s == NULL, 1, "nothing opened");
    for (int j = 0; j < 3; j++)
      if (!strstr(err.msg, bad[i].want[j])) TK_FAILF("%s: '%s' lacks %s", bad[i].opts, err.msg, bad[i].want[j]);
  }
  rs_sampler *s = NULL;
  tk_error err = {0};
  TK_EQ(rs_sampler_open("weighted", "{\"policy\": \"/nonexistent/p.tkw\"}", NULL, &s, &err) != 0, 1,
        "a missing policy file");
  if (!strstr(err.msg, "/nonexistent/p.tkw")) TK_FAILF("'%s' lacks the file", err.msg);
  TK_EQ(rs_sampler_known("constrained") && rs_sampler_known("weighted"), 1, "known by name");
  s = open_or_die("constrained", "{\"sweeps\": 0, \"init_steps\": 10}");
  rs_sampler_close(s);
}

/* ------------------------------------------------------------ bench */

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

static int bench(double seconds) {
  positions();
  char opts[512];
  snprintf(opts, sizeof opts, "{\"policy\": \"%s\"}", TK_POLICY_FILE);
  const char *names[4] = {"uniform", "tenpai", "constrained", "weighted"};
  printf("%d positions with an opponent in closed riichi; samples/s in CPU time, k = 1\n", NPOS);
  for (int n = 0; n < 4; n++) {
    rs_sampler *s = open_or_die(names[n], n == 3 ? opts : NULL);
    tk_rng r;
    tk_rng_seed(&r, 1);
    long done = 0;
    double t0 = cpu();
    while (cpu() - t0 < seconds)
      for (int i = 0; i < NPOS; i++, done++) {
        tk_riichi_view v;
        tk_riichi_view_of(&POS[i].g, POS[i].seat, &v);
        tk_riichi_game g;
        tk_error err = {0};
        if (s->s.sample(s->s.ctx, &v, NULL, &r, 1, &g, &err)) {
          fprintf(stderr, "%s: %s\n", names[n], err.msg);
          return 1;
        }
      }
    double dt = cpu() - t0;
    const rs_cons_stats *st = rs_sampler_cons_stats(s);
    printf("%-12s %10.0f samples/s", names[n], done / dt);
    if (st)
      printf("  (acceptance %.3f, fallbacks %llu of %llu seats, descent %.0f proposals/seat%s)",
             (double)st->accepted / (double)st->proposals, (unsigned long long)st->fallbacks,
             (unsigned long long)st->seats, (double)st->init_steps / (double)st->seats, "");
    if (st && st->calls) printf(", ESS %.2f of %d", st->ess_sum / (double)st->calls, (int)(st->samples / st->calls));
    printf("\n");
    rs_sampler_close(s);
  }
  return 0;
}

/* TV distance of the chain's wait sets to the exact ones, by sweeps (n samples each). */
static int mix(void) {
  static wset w[WCAP];
  int nw0 = exact_waits(w, WCAP - 64);
  const int sweeps[] = {0, 1, 2, 4, 8, 16, 32};
  long n = 20000;
  for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
    int nw = nw0;
    for (int j = 0; j < nw; j++) w[j].n = 0;
    double t0 = cpu();
    chain_waits(w, &nw, WCAP - 1, (int)n, sweeps[i], 99);
    double dt = cpu() - t0;
    int df;
    double chi = chi_square(w, nw, n, &df);
    printf("sweeps %2d: TV %.4f  chi-square %.1f (df %d, bound %.1f)  %.1f us/sample\n", sweeps[i],
           tv(w, nw, n), chi, df, chi_crit(df), 1e6 * dt / n);
  }
  /* the TV of n exact draws: the floor the chain is compared with */
  tk_rng rng;
  tk_rng_seed(&rng, 7);
  for (int j = 0; j < nw0; j++) w[j].n = 0;
  for (long t = 0; t < n; t++) {
    double u = tk_rng_double(&rng), acc = 0;
    int j = 0;
    while (j < nw0 - 1 && (acc += w[j].p) <= u) j++;
    w[j].n++;
  }
  int df;
  double chi = chi_square(w, nw0, n, &df);
  printf("exact draws: TV %.4f  chi-square %.1f (df %d)\n", tv(w, nw0, n), chi, df);
  /* real positions: the wait sets of the first riichi seat against a long chain (128 sweeps) */
  positions();
  const int rs[] = {0, 1, 4, 16, 64};
  enum { NP = 6, NS = 3000 };
  static wset ref[NP][WCAP];
  int nref[NP] = {0};
  double tvs[5] = {0}, floor_tv = 0;
  for (int q = 0; q < NP; q++) {
    const pos *p = &POS[q * (NPOS / NP)];
    tk_riichi_view v;
    tk_riichi_view_of(&p->g, p->seat, &v);
    int o = -1;
    for (int s2 = 0; s2 < 4 && o < 0; s2++)
      if (s2 != p->seat && closed_riichi(&p->g.p[s2])) o = s2;
    for (int pass = -2; pass < 5; pass++) {
      rs_cons_opts opt = {pass < 0 ? 128 : rs[pass], RS_CONS_INIT_STEPS};
      tk_rng r;
      tk_rng_seed(&r, 1000 + (uint64_t)pass);
      static wset tmp[WCAP];
      int nt = 0;
      wset *w2 = pass == -2 ? ref[q] : tmp;
      int *nw2 = pass == -2 ? &nref[q] : &nt;
      if (pass != -2) {
        memcpy(tmp, ref[q], sizeof(wset) * (size_t)nref[q]);
        nt = nref[q];
        for (int j = 0; j < nt; j++) tmp[j].n = 0;
      }
      for (int t = 0; t < NS; t++) {
        uint8_t hands[4][TK_KINDS], red[4];
        unsigned given;
        rs_constrained_hands(&opt, &v, NULL, &r, hands, red, &given, NULL, NULL);
        int j = wset_find(w2, nw2, tk_shanten(hands[o]) == 0 ? tk_waits(hands[o]) : 0);
        w2[j].n++;
      }
      if (pass == -2) continue;
      /* the distance between the two samples, with the reference as the "exact" one */
      for (int j = 0; j < *nw2; j++) w2[j].p = j < nref[q] ? (double)ref[q][j].n / NS : 0;
      double d = tv(w2, *nw2, NS);
      if (pass == -1) floor_tv += d / NP;
      else tvs[pass] += d / NP;
    }
  }
  printf("real positions (%d, %d samples each): TV to 128 sweeps: another 128-sweep run %.4f", NP, NS, floor_tv);
  for (int i = 0; i < 5; i++) printf(", %d sweeps %.4f", rs[i], tvs[i]);
  printf("\n");
  return 0;
}

/* The temperature: the mean log-likelihood, under the policy's softmax at T, of the true last
 * hand-cut discards given the true hands (the greedy players' own), and the ESS of "weighted"'s
 * weights at T. */
static int temperature(void) {
  positions();
  load_policy();
  const double ts[] = {1, 3, 10, 20, 30, 50, 100, 300};
  for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++) {
    double sum = 0;
    long n = 0;
    for (int i = 0; i < NPOS; i++) {
      tk_riichi_view v;
      tk_riichi_view_of(&POS[i].g, POS[i].seat, &v);
      for (int o = 0; o < 4; o++) {
        int used;
        double ll = rs_weighted_loglik(W, ts[t], &v, o, POS[i].g.p[o].hand, POS[i].g.p[o].red, &used);
        sum += ll;
        n += used;
      }
    }
    char opts[600];
    snprintf(opts, sizeof opts, "{\"policy\": \"%s\", \"temperature\": %g}", TK_POLICY_FILE, ts[t]);
    rs_sampler *s = open_or_die("weighted", opts);
    tk_rng r;
    tk_rng_seed(&r, 5);
    for (int i = 0; i < NPOS; i++) {
      tk_riichi_view v;
      tk_riichi_view_of(&POS[i].g, POS[i].seat, &v);
      tk_riichi_game g;
      s->s.sample(s->s.ctx, &v, NULL, &r, 1, &g, NULL);
    }
    const rs_cons_stats *st = rs_sampler_cons_stats(s);
    printf("T %5g: true hands' mean log-likelihood %.3f (%ld factors), ESS %.2f of 16\n", ts[t],
           sum / n, n, st->ess_sum / (double)st->calls);
    rs_sampler_close(s);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--temperature")) return temperature();
  if (argc > 1 && !strcmp(argv[1], "--bench")) return bench(argc > 2 ? atof(argv[2]) : 2.0);
  if (argc > 1 && !strcmp(argv[1], "--mix")) return mix();
  CU_TestInfo tests[] = {{"tk_riichi_from_view_hands", from_view_hands},
                         {"constrained: the constraints, the view, determinism", constrained},
                         {"constrained: the chain against exact enumeration", chain_vs_exact},
                         {"weighted: likelier discards", weighted},
                         {"weighted: a constructed pair of hands", weighted_pair},
                         {"options refused by name", options},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("riichi_sampler", tests);
}
