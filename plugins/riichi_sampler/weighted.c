/* plugins/riichi_sampler/weighted.c — paper 003's S2 sampler: "constrained" proposals,
 * importance-resampled by the likelihood of each opponent's last hand-cut discard under a fixed
 * policy, the one-player policy's softmax (docs/riichi-samplers.md, "weighted"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "constrained.h"
#include "rsamp_internal.h"
#include "taikai/sha256.h"
#include "taikai/weights.h"
#include "riichi_oneplayer/policy.h"
#include "riichi_oneplayer/weights_io.h"

enum { RS_W_PROPOSALS = 16, RS_W_MAX_PROPOSALS = 4096 };
#define RS_W_TEMPERATURE 50.0 /* the likeliest on the test positions (docs) */
#define RS_W_POLICY "riichi_oneplayer.tkw"

typedef struct wctx {
  rs_cons_ctx base;   /* first: rs_sampler_cons_stats reads it */
  int proposals;
  double temperature;
  double *w;          /* the policy's weights, ROF_FEATURES doubles */
  /* scratch for one call */
  uint8_t (*hands)[4][TK_KINDS];
  uint8_t (*red)[4];
  double *logw;
} wctx;

/* What the likelihood of one opponent's discard needs, the same for every proposal: the
 * discard, the context the policy saw it in, the melds, and whether it declared riichi. */
typedef struct owner {
  int ok;             /* 0: this opponent contributes a factor 1 */
  int kind, red;      /* the discarded tile */
  int declared;       /* the discard declared riichi: only tenpai-keeping discards compete */
  rof_ctx ctx;        /* before the discard */
  rof_hand melds;     /* nmelds and melds (the counts are the proposal's) */
} owner;

/* Opponent o's last hand-cut discard, when the 14 - 3m tiles it held just before it are known
 * from its concealed tiles now: every later discard was tsumogiri (so no chi / pon came after
 * it: a call is followed by a hand-cut discard) and it has no kan (a kan after it would have
 * changed its concealed tiles without a hand-cut discard; one before it cannot be told apart).
 * The context is the view's as seen from o's seat, with its river cut at the discard and its
 * later discards taken out of the visible tiles; the other seats' later discards and any dora
 * indicator revealed since stay in it (an approximation, documented). */
static void owner_of(const tk_riichi_view *v, int o, owner *w) {
  memset(w, 0, sizeof *w);
  int d = -1;
  for (int i = v->nriver[o] - 1; i >= 0; i--)
    if (!(v->river[o][i].flags & TK_RIICHI_TSUMOGIRI)) {
      d = i;
      break;
    }
  if (d < 0) return;
  for (int i = 0; i < v->nmelds[o]; i++)
    if (v->melds[o][i].type >= TK_CALL_MINKAN) return;
  tk_riichi_view u = *v;
  u.seat = (uint8_t)o;
  u.seat_wind = (uint8_t)((o - v->dealer) & 3);
  u.nriver[o] = (uint8_t)d;
  u.furiten = 0;
  int declared = (v->river[o][d].flags & TK_RIICHI_DECLARED) != 0;
  if (v->riichi[o] && v->riichi_index[o] >= d) {
    u.riichi[o] = 0;
    u.scores[o] += 1000; /* the stick was paid after the declaration */
  }
  rof_ctx_of_view(&u, &w->ctx);
  for (int i = d; i < v->nriver[o]; i++)
    if (!(v->river[o][i].flags & TK_RIICHI_CALLED)) {
      int k = tk_tile_kind(v->river[o][i].tile);
      if (w->ctx.seen[k]) w->ctx.seen[k]--;
    }
  rof_hand_of_view(&u, &w->melds); /* its melds (the viewer's counts are overwritten) */
  memset(w->melds.c, 0, sizeof w->melds.c);
  w->melds.red = 0;
  w->kind = tk_tile_kind(v->river[o][d].tile);
  w->red = tk_tile_is_red(v->river[o][d].tile);
  w->declared = declared;
  w->ok = 1;
}

/* log P(the discard | the hand before it) under the softmax of the policy's scores over the
 * distinct kinds of that hand (a red five and a plain one are one candidate; a riichi
 * declaration competes only with the discards that keep tenpai), at temperature t. Returns 0 (a
 * factor 1) when the hand cannot hold the discard or the features fail. */
static double loglik(const double *pw, double temperature, const owner *w,
                     const uint8_t hand[TK_KINDS], int red_bits, int *used) {
  if (used) *used = 0;
  rof_hand h = w->melds;
  memcpy(h.c, hand, TK_KINDS);
  if (h.c[w->kind] >= 4) return 0;
  h.c[w->kind]++;
  unsigned rb = (unsigned)red_bits | (w->red ? 1u << (w->kind / 9) : 0u); /* red fives by suit */
  h.red = (uint8_t)__builtin_popcount(rb);
  double s[TK_KINDS], best = -INFINITY, sd = -INFINITY;
  int ns = 0;
  uint32_t f[ROF_MAX_ACTIVE];
  for (int k = 0; k < TK_KINDS; k++) {
    if (!h.c[k]) continue;
    rof_hand a = h;
    a.c[k]--;
    if (k < 27 && k % 9 == 4 && (rb >> (k / 9) & 1) && !a.c[k]) a.red--; /* plain fives go first */
    if (w->declared && tk_shanten(a.c) != 0) continue;
    rof_ctx x = w->ctx;
    rof_ctx_discard(&x, k);
    int nf = rof_features(&a, &x, f, NULL, NULL);
    if (nf < 0) return 0;
    double v = rop_score(pw, f, nf) / temperature;
    s[ns++] = v;
    if (v > best) best = v;
    if (k == w->kind) sd = v;
  }
  if (sd == -INFINITY) return 0;
  if (used) *used = 1;
  double z = 0;
  for (int i = 0; i < ns; i++) z += exp(s[i] - best);
  return sd - best - log(z);
}

double rs_weighted_loglik(const double *w, double temperature, const tk_riichi_view *v, int o,
                          const uint8_t hand[TK_KINDS], int red_bits, int *used) {
  owner own;
  if (used) *used = 0;
  if (o == v->seat) return 0;
  owner_of(v, o, &own);
  return own.ok ? loglik(w, temperature, &own, hand, red_bits, used) : 0;
}

static int sample_weighted(void *ctx, const tk_riichi_view *view, const tk_riichi_rules *rules,
                           tk_rng *rng, int k, tk_riichi_game *out, tk_error *err) {
  wctx *c = ctx;
  owner own[4];
  for (int o = 0; o < 4; o++) {
    if (o == view->seat) own[o].ok = 0;
    else owner_of(view, o, &own[o]);
  }
  /* k independent draws, each from `proposals` fresh proposals (sampling importance
   * resampling): resampling k from one batch would repeat its few heavy proposals */
  int m = c->proposals;
  for (int j = 0; j < k; j++) {
    unsigned given = 0;
    double best = -INFINITY;
    for (int i = 0; i < m; i++) {
      int rc = rs_constrained_hands(&c->base.o, view, rules, rng, c->hands[i], c->red[i], &given,
                                    &c->base.st, err);
      if (rc) return rc;
      double lw = 0;
      for (int o = 0; o < 4; o++)
        if (own[o].ok)
          lw += loglik(c->w, c->temperature, &own[o], c->hands[i][o], c->red[i][o], NULL);
      c->logw[i] = lw;
      if (lw > best) best = lw;
    }
    /* normalised weights, their effective sample size, then one draw */
    double sum = 0, sq = 0;
    for (int i = 0; i < m; i++) {
      c->logw[i] = exp(c->logw[i] - best);
      sum += c->logw[i];
      sq += c->logw[i] * c->logw[i];
    }
    c->base.st.ess_sum += sum * sum / sq;
    c->base.st.calls++;
    double u = tk_rng_double(rng) * sum, acc = 0;
    int pick = m - 1;
    for (int i = 0; i < m; i++) {
      acc += c->logw[i];
      if (u < acc) {
        pick = i;
        break;
      }
    }
    int rc = tk_riichi_from_view_hands(&out[j], view, rules, given, c->hands[pick], c->red[pick],
                                       rng, err);
    if (rc) return rc;
  }
  return 0;
}

static void free_wctx(void *p) {
  wctx *c = p;
  if (!c) return;
  free(c->w);
  free(c->hands);
  free(c->red);
  free(c->logw);
  free(c);
}

static int bad_value(const char *key, json_t *val, const char *want, tk_error *err) {
  char *txt = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
  tk_error_set(err, TK_EINVAL, -1, "sampler 'weighted': option '%s': bad value %s (%s)", key,
               txt ? txt : "?", want);
  free(txt);
  return TK_EINVAL;
}

/* The weights file: the "policy" option, else the `file` argument, else the default beside the
 * shared object that links this library (as riichi_mc finds its own), else in plugins/ beside
 * the program that links it (build/riichi_mc_bench, build/riichi_sampler_eval). */
int rs_open_weighted(rs_sampler *s, const char *options_json, const char *file, tk_error *err) {
  wctx *c = calloc(1, sizeof *c);
  if (!c) return tk_error_set(err, TK_ENOMEM, -1, "sampler 'weighted': out of memory");
  s->s.ctx = c;
  s->free_ctx = free_wctx;
  s->s.name = "weighted";
  s->s.sample = sample_weighted;
  c->base.o.sweeps = RS_CONS_SWEEPS;
  c->base.o.init_steps = RS_CONS_INIT_STEPS;
  c->proposals = RS_W_PROPOSALS;
  c->temperature = RS_W_TEMPERATURE;
  char policy[4096] = "";
  if (file && file[0]) snprintf(policy, sizeof policy, "%s", file);
  json_error_t jerr;
  json_t *j = json_loads(options_json && options_json[0] ? options_json : "{}", 0, &jerr);
  if (!j || !json_is_object(j)) {
    json_decref(j);
    return tk_error_set(err, TK_EINVAL, -1, "sampler 'weighted': options: %s",
                        j ? "expected a JSON object" : jerr.text);
  }
  const char *key;
  json_t *val;
  int rc = 0;
  json_object_foreach(j, key, val) {
    int r = rs_cons_option("weighted", key, val, &c->base.o, err);
    if (r < 0) {
      rc = r;
      break;
    }
    if (r) continue;
    if (!strcmp(key, "proposals")) {
      json_int_t x = json_is_integer(val) ? json_integer_value(val) : 0;
      if (x < 1 || x > RS_W_MAX_PROPOSALS) {
        rc = bad_value(key, val, "an integer in 1..4096", err);
        break;
      }
      c->proposals = (int)x;
    } else if (!strcmp(key, "temperature")) {
      double x = json_is_number(val) ? json_number_value(val) : -1;
      if (!(x > 0) || !isfinite(x)) {
        rc = bad_value(key, val, "a number > 0", err);
        break;
      }
      c->temperature = x;
    } else if (!strcmp(key, "policy")) {
      if (!json_is_string(val) || !json_string_value(val)[0]) {
        rc = bad_value(key, val, "a file name", err);
        break;
      }
      snprintf(policy, sizeof policy, "%s", json_string_value(val));
    } else {
      char *txt = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
      rc = tk_error_set(err, TK_EINVAL, -1,
                        "sampler 'weighted': unknown option '%s' (value %s; known: sweeps, "
                        "init_steps, proposals, temperature, policy)", key, txt ? txt : "?");
      free(txt);
      break;
    }
  }
  json_decref(j);
  if (rc) return rc;
  if (!policy[0]) {
    if (rs_default_file((const void *)rs_open_weighted, RS_W_POLICY, "sampler 'weighted'",
                        policy, sizeof policy, err))
      return TK_ENOTFOUND;
  }
  rc = rop_weights_load(policy, &c->w, NULL, err);
  if (rc) return rc;
  snprintf(s->file, sizeof s->file, "%s", policy);
  char hex[TK_SHA256_HEX];
  if (!tk_sha256_file(policy, hex, NULL))
    for (int i = 0; i < 32; i++) sscanf(hex + 2 * i, "%2hhx", &s->file_sha256[i]);
  c->hands = malloc(sizeof *c->hands * (size_t)c->proposals);
  c->red = malloc(sizeof *c->red * (size_t)c->proposals);
  c->logw = malloc(sizeof *c->logw * (size_t)c->proposals);
  if (!c->hands || !c->red || !c->logw)
    return tk_error_set(err, TK_ENOMEM, -1, "sampler 'weighted': out of memory");
  return 0;
}
