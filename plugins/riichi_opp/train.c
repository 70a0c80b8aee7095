/* plugins/riichi_opp/train.c — `riichi_opp_train`: learns the opponent models of opp.h from mjai
 * logs, and reports their held-out accuracy and calibration.
 *
 *   riichi_opp_train INPUT... --out FILE [--sample N] [--wait-sample N] [--defence-sample N]
 *                    [--seed S] [--games-per-wall G] [--holdout M] [--lambda L] [--max-games N]
 *                    [--skip-bad-games]
 *   riichi_opp_train INPUT... --evaluate FILE [...]: the held-out figures of FILE, no training
 *
 * Inputs: mjai logs (*.jsonl, *.jsonl.gz: one game or many, gzip members one after another),
 * folders of them, or run folders (`taikai run --logs=run,gz`: their logs/). Each game is
 * replayed through the engine (tk_riichi_log_replay_hooked), where every hand is known.
 *
 * Examples. At every decision of a seat v that must discard (SELF phase), for each other seat o,
 * one position (v's view, o's true hand) is kept with probability 1/N (--sample; a hash of the
 * seed, the game, the decision and o decides, so the same command keeps the same positions):
 * - tenpai: the tenpai features of o, labelled by o's hand (shanten 0 with a wait);
 * - waits (when o is tenpai, and kept again with probability 1/--wait-sample): one row per kind
 *   not in o's river, labelled 1 when a discard of that kind now would let o win by ron: it
 *   completes o's hand, o is not furiten (its river, a passed win) and the win has a yaku;
 * - loss (when o can ron some kind): the log of the mean over those kinds of the ron payment
 *   the kernel scores for o's hand in the true context (riichi, ippatsu, dora, the ura
 *   indicators under them, the seat and round winds; no honba, no sticks).
 * Defence positions (held-out games only, v not in riichi, another seat in riichi, v discarding;
 * kept with probability 1/--defence-sample): v's view and the kinds that would deal in.
 *
 * Split: game g (numbered in the order read, from 0) is on wall g / G (--games-per-wall, 24: a
 * round-robin of four agents plays each wall 24 times in a row); walls with wall % M == M - 1
 * are held out (--holdout, 10), walls with wall % M == M - 2 choose the L2 strength of each
 * model (the one with the least validation loss on a grid), and the final fit uses every wall
 * not held out. Tenpai and waits: logistic regression by Newton's method; loss: ridge
 * regression on the log payment, its exponential scaled by the mean exp(residual). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"
#include "riichi_log.h"
#include "train.h"

typedef struct config {
  const char *inputs[256];
  int ninputs;
  const char *out, *evaluate;
  int sample, wait_sample, defence_sample, per_wall, holdout, skip_bad;
  unsigned long long seed, max_games;
  double lambda; /* < 0: chosen on the validation walls */
} config;

typedef struct defpos {
  tk_riichi_view v;
  uint64_t dealin; /* kinds a discard of which deals in now */
  uint8_t played;  /* the kind v discarded */
} defpos;

typedef struct data {
  rows tenpai, wait, loss;
  defpos *def;
  size_t ndef, capdef;
  unsigned long long games, bad_games, decisions, riichi_seen, riichi_not_tenpai;
} data;

typedef struct hook {
  const config *c;
  data *d;
  uint64_t game;
  int split;
  uint32_t dec;
  size_t n0[3], ndef0; /* row counts when the game began (a second pass starts again there) */
} hook;

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* Keep this (game, decision, slot) with probability 1/n? */
static int keep(const config *c, uint64_t game, uint32_t dec, int slot, int n) {
  if (n <= 1) return 1;
  return mix(mix(mix(c->seed) ^ game) ^ ((uint64_t)dec << 4 | (unsigned)slot)) % (uint64_t)n == 0;
}

/* The kinds a discard of which seat o could ron now (its waits, not furiten, with a yaku), and
 * through *pay the mean ron payment over them (0 when none). */
static uint64_t ron_kinds(const tk_riichi_game *g, int o, double *pay) {
  const tk_riichi_player *p = &g->p[o];
  *pay = 0;
  if (p->shanten != 0 || !p->waits || p->furiten || (p->waits & p->discarded)) return 0;
  tk_win_ctx x;
  memset(&x, 0, sizeof x);
  x.ruleset = TK_RULES_TENHOU;
  x.ron = 1;
  x.riichi = p->riichi == 1;
  x.double_riichi = p->riichi == 2;
  x.ippatsu = p->ippatsu;
  x.last_tile = tk_riichi_tiles_left(g) == 0;
  x.round_wind = (uint8_t)(g->round / 4 % 4);
  x.seat_wind = (uint8_t)((o - g->round % 4 + 4) % 4);
  x.ndora = g->ndora;
  for (int i = 0; i < g->ndora && i < 5; i++) {
    x.dora[i] = (uint8_t)tk_tile_kind(g->wall[TK_RIICHI_DORA_POS + i]);
    if (p->riichi) x.ura[i] = (uint8_t)tk_tile_kind(g->wall[TK_RIICHI_URA_POS + i]);
  }
  if (p->riichi) x.nura = g->ndora;
  tk_call cl[4];
  int red = 0;
  for (int s = 0; s < 3; s++) red += p->red >> s & 1;
  for (int i = 0; i < p->nmelds && i < 4; i++) {
    const tk_riichi_meld *m = &p->melds[i];
    cl[i].type = m->type;
    cl[i].kind = (uint8_t)tk_tile_kind(m->tiles[0]);
    cl[i].red = 0;
    for (int j = 0; j < 4; j++)
      if (m->tiles[j] != TK_TILE_NONE && tk_tile_is_red(m->tiles[j])) cl[i].red++;
  }
  uint64_t mask = 0;
  double sum = 0;
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!(p->waits >> k & 1)) continue;
    uint8_t c[TK_KINDS];
    memcpy(c, p->hand, TK_KINDS);
    c[k]++;
    x.win_tile = (uint8_t)k;
    tk_score sc;
    if (tk_score_counts(c, k, red, cl, p->nmelds, &x, &sc, NULL)) continue;
    mask |= 1ULL << k;
    sum += sc.pay_ron;
    n++;
  }
  *pay = n ? sum / n : 0;
  return mask;
}

static void push_defence(data *d, const tk_riichi_view *v, uint64_t dealin, int played) {
  if (d->ndef == d->capdef) {
    size_t cap = d->capdef ? 2 * d->capdef : 1024;
    defpos *n = realloc(d->def, cap * sizeof *n);
    if (!n) {
      fprintf(stderr, "riichi_opp_train: out of memory (%zu defence positions)\n", cap);
      exit(1);
    }
    d->def = n;
    d->capdef = cap;
  }
  defpos *x = &d->def[d->ndef++];
  x->v = *v;
  x->dealin = dealin;
  x->played = (uint8_t)played;
}

/* The rows of seat o at viewer decision `dec` (v's view). */
static void seat_rows(hook *h, const tk_riichi_game *g, const tk_riichi_view *v,
                      const rm_oppf_view *pv, int o) {
  data *d = h->d;
  const tk_riichi_player *p = &g->p[o];
  int tenpai = p->shanten == 0 && p->waits != 0;
  if (p->riichi) {
    d->riichi_seen++;
    d->riichi_not_tenpai += !tenpai;
  }
  rm_oppf_seat s;
  rm_oppf_seat_init(v, pv, o, &s);
  float x[RM_OPPF_NW];
  int riichi = v->riichi[o] != 0, tag = (riichi ? TAG_RIICHI : 0) | (s.open ? TAG_OPEN : 0);
  rm_oppf_tenpai(v, pv, &s, x);
  rows_push(&d->tenpai, x, (float)tenpai, h->split, tag);
  if (!tenpai) return;
  double pay;
  uint64_t ron = ron_kinds(g, o, &pay);
  if (keep(h->c, h->game, h->dec, 4 + o, h->c->wait_sample))
    for (int k = 0; k < TK_KINDS; k++) {
      if (s.river >> k & 1) continue;
      rm_oppf_wait(v, pv, &s, k, x);
      rows_push(&d->wait, x, (float)(ron >> k & 1), h->split, tag);
    }
  if (ron) {
    rm_oppf_loss(v, pv, &s, x);
    rows_push(&d->loss, x, (float)log(pay), h->split, tag);
  }
}

static void on_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                        int line) {
  (void)line;
  hook *h = ctx;
  if (g->phase != TK_RIICHI_PHASE_SELF || seat != g->turn) return;
  h->dec++;
  h->d->decisions++;
  const config *c = h->c;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  rm_oppf_view pv;
  rm_oppf_view_init(&v, &pv);
  for (int o = 0; o < 4; o++)
    if (o != seat && keep(c, h->game, h->dec, o, c->sample)) seat_rows(h, g, &v, &pv, o);
  int discard = a->type == TK_RIICHI_DISCARD || a->type == TK_RIICHI_RIICHI;
  if (h->split != SPLIT_TEST || v.riichi[seat] || !(pv.any_riichi & ~(1u << seat)) || !discard ||
      !keep(c, h->game, h->dec, 8, c->defence_sample))
    return;
  uint64_t dealin = 0;
  for (int o = 0; o < 4; o++) {
    double pay;
    if (o != seat) dealin |= ron_kinds(g, o, &pay);
  }
  push_defence(h->d, &v, dealin, tk_tile_kind(a->tile));
}

static void on_begin(void *ctx) {
  hook *h = ctx;
  h->d->tenpai.n = h->n0[0], h->d->wait.n = h->n0[1], h->d->loss.n = h->n0[2];
  h->d->ndef = h->ndef0;
  h->dec = 0;
}

static int on_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  hook *h = ctx;
  const config *c = h->c;
  if (!len) return 0; /* an empty file: no game */
  if (c->max_games && h->game >= c->max_games) return 0;
  uint64_t wall = h->game / (uint64_t)c->per_wall, m = (uint64_t)c->holdout;
  h->split = wall % m == m - 1 ? SPLIT_TEST : wall % m == m - 2 ? SPLIT_VAL : SPLIT_TRAIN;
  h->n0[0] = h->d->tenpai.n, h->n0[1] = h->d->wait.n, h->n0[2] = h->d->loss.n;
  h->ndef0 = h->d->ndef;
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, h};
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay_game(path, text, len, first, &hooks, NULL, &err);
  h->game++;
  h->d->games++;
  if (e == TK_ENOMEM) {
    fprintf(stderr, "riichi_opp_train: out of memory\n");
    return 1;
  }
  if (e) {
    fprintf(stderr, "riichi_opp_train: %s%s\n", err.msg, tk_riichi_log_skip_note(c->skip_bad));
    on_begin(h);
    if (!c->skip_bad) return 2;
    h->d->bad_games++;
  }
  return 0;
}

/* ------------------------------------------------------------------ fitting */

static const double GRID[] = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2};
enum { NGRID = sizeof GRID / sizeof GRID[0] };

static size_t count_sel(const rows *r, unsigned splits, int mask, int want) {
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++) n += rows_sel(r, i, splits, mask, want);
  return n;
}

/* Fits one logistic model (rows with (tag & mask) == want): the L2 strength chosen on the
 * validation walls unless --lambda fixes it, then the fit on every wall not held out. */
static int train_logistic(const config *c, const char *what, const rows *r, int mask, int want,
                          double *w) {
  double lambda = c->lambda;
  if (lambda < 0 && count_sel(r, 1u << SPLIT_VAL, mask, want) == 0) {
    lambda = 1e-4;
    printf("%s: no validation rows: lambda %g\n", what, lambda);
  }
  if (lambda < 0) {
    double best = INFINITY;
    for (int i = 0; i < NGRID; i++) {
      memset(w, 0, sizeof(double) * (size_t)r->d);
      int it = fit_logistic(r, 1u << SPLIT_TRAIN, mask, want, GRID[i], w);
      double v = logistic_loss(r, 1u << SPLIT_VAL, mask, want, w);
      printf("%s: lambda %-6g validation log loss %.5f (%d Newton steps)\n", what, GRID[i], v, it);
      if (it > 0 && v < best) best = v, lambda = GRID[i];
    }
  }
  memset(w, 0, sizeof(double) * (size_t)r->d);
  int it = fit_logistic(r, SPLITS_FIT, mask, want, lambda, w);
  printf("%s: lambda %g, %zu training rows, %d Newton steps\n", what, lambda,
         count_sel(r, SPLITS_FIT, mask, want), it);
  if (it < 0) {
    fprintf(stderr, "riichi_opp_train: %s: the fit failed (Hessian not positive definite)\n", what);
    return 2;
  }
  return 0;
}

static int train_loss(const config *c, const rows *r, double *w, double *smear) {
  double lambda = c->lambda;
  if (lambda < 0) {
    double best = INFINITY;
    lambda = 1e-4;
    for (int i = 0; i < NGRID && count_sel(r, 1u << SPLIT_VAL, 0, 0); i++) {
      if (fit_ridge(r, 1u << SPLIT_TRAIN, GRID[i], w)) continue;
      double v = ridge_mse(r, 1u << SPLIT_VAL, w);
      printf("loss: lambda %-6g validation MSE of log points %.5f\n", GRID[i], v);
      if (v < best) best = v, lambda = GRID[i];
    }
  }
  if (fit_ridge(r, SPLITS_FIT, lambda, w)) {
    fprintf(stderr, "riichi_opp_train: loss: no rows to fit, or the fit failed\n");
    return 2;
  }
  double s = 0;
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!(SPLITS_FIT >> r->split[i] & 1)) continue;
    double z = 0;
    for (int j = 0; j < r->d; j++) z += w[j] * r->x[i * (size_t)r->d + j];
    s += exp(r->y[i] - z);
    n++;
  }
  *smear = n ? s / (double)n : 1;
  printf("loss: lambda %g, %zu training rows, smearing factor %.4f\n", lambda, n, *smear);
  return 0;
}

static void print_weights(const rm_opp *m) {
  printf("weights (feature: tenpai)\n");
  for (int i = 0; i < RM_OPPF_NT; i++) printf("  %-40s %9.4f\n", rm_oppf_name(0, i), m->tenpai[i]);
  printf("weights (feature: wait if riichi, wait if not)\n");
  for (int i = 0; i < RM_OPPF_NW; i++)
    printf("  %-40s %9.4f %9.4f\n", rm_oppf_name(1, i), m->wait[1][i], m->wait[0][i]);
  printf("weights (feature: log loss points)\n");
  for (int i = 0; i < RM_OPPF_NL; i++) printf("  %-40s %9.4f\n", rm_oppf_name(2, i), m->loss[i]);
}

/* ------------------------------------------------------------------ held-out figures */

static double dotw(const double *w, const float *x, int d) {
  double s = 0;
  for (int i = 0; i < d; i++) s += w[i] * x[i];
  return s;
}

static double pred_tenpai(const rm_opp *m, const float *x, int tag) {
  return tag & TAG_RIICHI ? 1.0 : rm_opp_sigmoid(dotw(m->tenpai, x, RM_OPPF_NT));
}

static double pred_wait(const rm_opp *m, const float *x, int tag) {
  return rm_opp_sigmoid(dotw(m->wait[(tag & TAG_RIICHI) != 0], x, RM_OPPF_NW));
}

/* eval_binary over the held-out rows with (tag & mask) == want, the constant being the rate of
 * the same rows of the fitted walls; `pn` (may be NULL) receives the mean prediction on the
 * positive and on the negative rows. */
static void eval_rows(const char *title, const rows *r, int mask, int want, const rm_opp *m,
                      double (*pred)(const rm_opp *, const float *, int), int table,
                      double pn[2]) {
  size_t n = 0, nfit = 0;
  double pos = 0, sp[2] = {0, 0}, cnt[2] = {0, 0};
  for (size_t i = 0; i < r->n; i++) {
    if (rows_sel(r, i, SPLITS_FIT, mask, want)) nfit++, pos += r->y[i];
    n += rows_sel(r, i, 1u << SPLIT_TEST, mask, want);
  }
  double *p = malloc((n ? n : 1) * sizeof *p);
  float *y = malloc((n ? n : 1) * sizeof *y);
  if (!p || !y) {
    fprintf(stderr, "riichi_opp_train: out of memory\n");
    exit(1);
  }
  size_t k = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!rows_sel(r, i, 1u << SPLIT_TEST, mask, want)) continue;
    p[k] = pred(m, r->x + i * (size_t)r->d, r->tag[i]);
    y[k] = r->y[i];
    int c = y[k] > 0.5f;
    sp[c] += p[k], cnt[c]++;
    k++;
  }
  eval_binary(stdout, title, p, y, n, nfit ? pos / (double)nfit : 0.5, table);
  if (pn) {
    pn[1] = cnt[1] ? sp[1] / cnt[1] : 0, pn[0] = cnt[0] ? sp[0] / cnt[0] : 0;
    printf("  mean prediction on true waits %.4f (%.0f rows), on the other kinds %.4f (%.0f rows)\n",
           pn[1], cnt[1], pn[0], cnt[0]);
  }
  free(p), free(y);
}

static int by_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static void report_loss(const rows *r, const rm_opp *m) {
  size_t nfit = 0, n = 0;
  double mean = 0;
  float *fit = malloc((r->n ? r->n : 1) * sizeof *fit);
  if (!fit) exit(1);
  for (size_t i = 0; i < r->n; i++)
    if (SPLITS_FIT >> r->split[i] & 1) fit[nfit] = expf(r->y[i]), mean += fit[nfit++];
  mean = nfit ? mean / (double)nfit : 0;
  qsort(fit, nfit, sizeof *fit, by_float);
  double median = nfit ? fit[nfit / 2] : 0, e_model = 0, e_mean = 0, e_med = 0, sy = 0, sp = 0;
  free(fit);
  for (size_t i = 0; i < r->n; i++) {
    if (r->split[i] != SPLIT_TEST) continue;
    double y = exp(r->y[i]), p = exp(dotw(m->loss, r->x + i * (size_t)r->d, r->d)) * m->smear;
    e_model += fabs(p - y), e_mean += fabs(mean - y), e_med += fabs(median - y);
    sy += y, sp += p;
    n++;
  }
  double dn = n ? (double)n : 1;
  printf("loss: %zu held-out rows, mean payment %.0f (predicted %.0f); mean absolute error %.0f "
         "points, constant mean %.0f: %.0f, constant median %.0f: %.0f\n",
         n, sy / dn, sp / dn, e_model / dn, mean, e_mean / dn, median, e_med / dn);
}

/* The deal-in rate, at the held-out positions where another seat is in riichi, of the viewer's
 * tile the model thinks safest (least rm_opp_dealin over the kinds it holds; ties: the lower
 * kind), of a uniformly random tile of its hand (exact expectation), and of the discard made. */
static void report_defence(const data *d, const rm_opp *m) {
  double safest = 0, random = 0, played = 0, oracle = 0, hard = 0, hard_safest = 0,
         hard_random = 0;
  clock_t t0 = clock();
  for (size_t i = 0; i < d->ndef; i++) {
    const defpos *x = &d->def[i];
    rm_opp_threat t[4];
    rm_opp_assess(m, &x->v, t);
    int best = -1, tiles = 0, bad = 0;
    double lo = 2;
    for (int k = 0; k < TK_KINDS; k++) {
      if (!x->v.hand[k]) continue;
      double p = rm_opp_dealin(t, x->v.seat, k, NULL);
      if (p < lo) lo = p, best = k;
      tiles += x->v.hand[k];
      bad += (int)(x->dealin >> k & 1) * x->v.hand[k];
    }
    safest += best >= 0 && (x->dealin >> best & 1);
    random += tiles ? (double)bad / tiles : 0;
    played += (double)(x->dealin >> x->played & 1);
    oracle += bad == tiles;
    /* positions where no held kind is in the river of every seat in riichi (no sure tile) */
    uint64_t sure = ~0ULL;
    for (int o = 0; o < 4; o++) {
      if (o == x->v.seat || !x->v.riichi[o]) continue;
      uint64_t river = 0;
      for (int j = 0; j < x->v.nriver[o] && j < TK_RIICHI_MAX_RIVER; j++)
        river |= 1ULL << tk_tile_kind(x->v.river[o][j].tile);
      sure &= river;
    }
    int has_sure = 0;
    for (int k = 0; k < TK_KINDS; k++) has_sure |= x->v.hand[k] && (sure >> k & 1);
    if (!has_sure) {
      hard++;
      hard_safest += best >= 0 && (x->dealin >> best & 1);
      hard_random += tiles ? (double)bad / tiles : 0;
    }
  }
  double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC, n = d->ndef ? (double)d->ndef : 1;
  printf("defence: %zu held-out positions with another seat in riichi: deal-in rate of the "
         "model's safest tile %.4f, of a random tile %.4f, of the discard played %.4f; every "
         "tile deals in at %.4f of them\n",
         d->ndef, safest / n, random / n, played / n, oracle / n);
  double nh = hard ? hard : 1;
  printf("defence without a sure tile (no held kind in every riichi seat's river): %.0f "
         "positions: model's safest tile %.4f, random tile %.4f\n", hard, hard_safest / nh,
         hard_random / nh);
  printf("speed: rm_opp_assess + 34 rm_opp_dealin: %.2f us per view (CPU, %zu views)\n",
         d->ndef ? cpu * 1e6 / (double)d->ndef : 0.0, d->ndef);
}

static void report(const data *d, const rm_opp *m) {
  printf("== held-out walls ==\n");
  eval_rows("tenpai (all)", &d->tenpai, 0, 0, m, pred_tenpai, 1, NULL);
  eval_rows("tenpai (riichi: 1 by rule)", &d->tenpai, TAG_RIICHI, TAG_RIICHI, m, pred_tenpai, 0,
            NULL);
  eval_rows("tenpai (no riichi)", &d->tenpai, TAG_RIICHI, 0, m, pred_tenpai, 1, NULL);
  eval_rows("tenpai (open)", &d->tenpai, TAG_RIICHI | TAG_OPEN, TAG_OPEN, m, pred_tenpai, 0, NULL);
  eval_rows("tenpai (closed, no riichi)", &d->tenpai, TAG_RIICHI | TAG_OPEN, 0, m, pred_tenpai, 0,
            NULL);
  double pn[2];
  eval_rows("waits (all)", &d->wait, 0, 0, m, pred_wait, 1, pn);
  eval_rows("waits (riichi)", &d->wait, TAG_RIICHI, TAG_RIICHI, m, pred_wait, 0, pn);
  eval_rows("waits (no riichi)", &d->wait, TAG_RIICHI, 0, m, pred_wait, 0, pn);
  report_loss(&d->loss, m);
  report_defence(d, m);
}

/* ------------------------------------------------------------------ options */

static int usage(const char *why) {
  FILE *f = why ? stderr : stdout;
  if (why) fprintf(f, "riichi_opp_train: %s\n", why);
  fprintf(f,
          "usage: riichi_opp_train INPUT... --out FILE [--sample N] [--wait-sample N] "
          "[--defence-sample N] [--seed S] [--games-per-wall G] [--holdout M] [--lambda L] "
          "[--max-games N] [--skip-bad-games]\n"
          "       riichi_opp_train INPUT... --evaluate FILE [...]: the held-out figures of FILE\n"
          "INPUT: an mjai log (*.jsonl, *.jsonl.gz; one game or many), a folder of logs, or a run "
          "folder (taikai run --logs=run,gz: its logs/)\n"
          "  --sample N          keep each (discard decision, other seat) position with "
          "probability 1/N (1)\n"
          "  --wait-sample N     of the kept tenpai positions, give 1/N their 34 wait rows (1)\n"
          "  --defence-sample N  keep 1/N of the held-out defence positions (1)\n"
          "  --seed S            the sampling hash's seed (1)\n"
          "  --games-per-wall G  consecutive games on one wall (24)\n"
          "  --holdout M         walls with wall %% M == M-1 held out, M-2 for validation (10)\n"
          "  --lambda L          a fixed L2 strength (default: chosen on the validation walls)\n"
          "  --max-games N       read only the first N games (0: all)\n"
          "  --skip-bad-games    leave out games the engine cannot replay (counted)\n");
  return why ? 2 : 1;
}

static int parse(int argc, char **argv, config *c) {
  *c = (config){.sample = 1, .wait_sample = 1, .defence_sample = 1, .per_wall = 24,
                .holdout = 10, .seed = 1, .lambda = -1};
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &c->out, .once = 1, .value = "FILE"},
      {.name = "evaluate", .kind = TK_OPT_STRING, .dest = &c->evaluate, .once = 1, .value = "FILE"},
      {.name = "sample", .kind = TK_OPT_INT, .dest = &c->sample, .min = 1, .max = 1000000, .value = "N"},
      {.name = "wait-sample", .kind = TK_OPT_INT, .dest = &c->wait_sample, .min = 1, .max = 1000000,
       .value = "N"},
      {.name = "defence-sample", .kind = TK_OPT_INT, .dest = &c->defence_sample, .min = 1,
       .max = 1000000, .value = "N"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &c->seed, .value = "S"},
      {.name = "games-per-wall", .kind = TK_OPT_INT, .dest = &c->per_wall, .min = 1, .max = 1000000,
       .value = "G"},
      {.name = "holdout", .kind = TK_OPT_INT, .dest = &c->holdout, .min = 3, .max = 1000000,
       .value = "M"},
      {.name = "lambda", .kind = TK_OPT_DOUBLE, .dest = &c->lambda, .lo = 0, .hi = INFINITY,
       .value = "L"},
      {.name = "max-games", .kind = TK_OPT_U64, .dest = &c->max_games, .value = "N"},
      {.name = "skip-bad-games", .kind = TK_OPT_FLAG, .dest = &c->skip_bad},
      {.name = NULL},
  };
  int rc = tk_opts_parse_prog("riichi_opp_train", opts, argc, argv, c->inputs, 256, &c->ninputs);
  if (rc == 1) return usage(NULL);
  if (rc) return rc;
  if (c->ninputs > 256) return usage("too many inputs (256 at most)");
  if (!c->ninputs) return usage("no INPUT");
  if (!c->out == !c->evaluate) return usage("give one of --out and --evaluate");
  return 0;
}

int main(int argc, char **argv) {
  config c;
  int rc = parse(argc, argv, &c);
  if (rc) return rc == 1 ? 0 : rc;
  rm_opp *loaded = NULL;
  if (c.evaluate) {
    tk_error err;
    tk_error_clear(&err);
    if (rm_opp_load(c.evaluate, &loaded, &err)) {
      fprintf(stderr, "riichi_opp_train: %s\n", err.msg);
      return 2;
    }
  }
  data d;
  memset(&d, 0, sizeof d);
  d.tenpai.d = RM_OPPF_NT, d.wait.d = RM_OPPF_NW, d.loss.d = RM_OPPF_NL;
  hook h = {.c = &c, .d = &d};
  clock_t t0 = clock();
  for (int i = 0; i < c.ninputs && !rc; i++) {
    tk_error err;
    tk_error_clear(&err);
    rc = tk_riichi_log_games(c.inputs[i], on_game, &h, &err); /* on_game's 1 or 2, or a TK_E */
    if (rc < 0) {
      fprintf(stderr, "riichi_opp_train: %s\n", err.msg);
      rc = rc == TK_ENOMEM ? 1 : 2;
    }
  }
  double read_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (rc) {
    rm_opp_free(loaded);
    return rc;
  }
  printf("read %llu games (%llu skipped) in %.1f s CPU: %llu discard decisions, %zu tenpai rows, "
         "%zu wait rows, %zu loss rows, %zu defence positions\n",
         d.games, d.bad_games, read_s, d.decisions, d.tenpai.n, d.wait.n, d.loss.n, d.ndef);
  printf("rule check: %llu riichi positions, %llu of them not tenpai\n", d.riichi_seen,
         d.riichi_not_tenpai);
  rm_opp model;
  if (!rc && !c.evaluate) {
    t0 = clock();
    memset(&model, 0, sizeof model);
    rc = train_logistic(&c, "tenpai", &d.tenpai, TAG_RIICHI, 0, model.tenpai);
    if (!rc) rc = train_logistic(&c, "wait (riichi)", &d.wait, TAG_RIICHI, TAG_RIICHI, model.wait[1]);
    if (!rc) rc = train_logistic(&c, "wait (no riichi)", &d.wait, TAG_RIICHI, 0, model.wait[0]);
    if (!rc) rc = train_loss(&c, &d.loss, model.loss, &model.smear);
    rm_opp_prepare(&model);
    printf("trained in %.1f s CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (!rc) print_weights(&model);
    tk_error err;
    tk_error_clear(&err);
    if (!rc && rm_opp_save(&model, c.out, &err)) {
      fprintf(stderr, "riichi_opp_train: %s\n", err.msg);
      rc = 2;
    }
    if (!rc) printf("wrote %s\n", c.out);
  }
  if (!rc) report(&d, c.evaluate ? loaded : &model);
  rm_opp_free(loaded);
  rows_free(&d.tenpai), rows_free(&d.wait), rows_free(&d.loss);
  free(d.def);
  return rc;
}
