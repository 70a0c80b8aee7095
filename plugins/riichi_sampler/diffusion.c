/* plugins/riichi_sampler/diffusion.c — paper 003's diffusion sampler (diffusion.h). */
#include "diffusion.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_cblas.h"
#include "rsamp_internal.h"
#include "taikai/weights.h"

void rs_df_schedule(int T, double *abar, double *beta) {
  /* cos(a x pi / 2) = rs_cos2pi(a / 4): the same bits on every machine (rs_math.h) */
  const double s = 0.008;
  double f0 = rs_cos2pi(s / (1 + s) / 4);
  f0 *= f0;
  abar[0] = 1, beta[0] = 0;
  double prev = 1, prod = 1;
  for (int t = 1; t <= T; t++) {
    double f = rs_cos2pi(((double)t / T + s) / (1 + s) / 4);
    double ab = f * f / f0;
    double b = 1 - ab / prev;
    if (b > 0.999) b = 0.999;
    if (b < 0) b = 0;
    prev = ab;
    prod *= 1 - b;
    beta[t] = b, abar[t] = prod;
  }
}

void rs_df_temb(int t, int T, float e[RS_DF_TEMB]) {
  /* sin(a) = cos(a - pi / 2); in turns: a / (2 pi) - 1/4 */
  double x = 1000.0 * t / T / 6.283185307179586477;
  for (int i = 0; i < RS_DF_TEMB / 2; i++) {
    double f = rs_exp(-rs_log(1000.0) * i / (RS_DF_TEMB / 2 - 1));
    e[i] = (float)rs_cos2pi(x * f - 0.25), e[RS_DF_TEMB / 2 + i] = (float)rs_cos2pi(x * f);
  }
}

float rs_gauss(tk_rng *rng) {
  double u1 = 1.0 - tk_rng_double(rng), u2 = tk_rng_double(rng);
  return (float)(sqrt(-2.0 * rs_log(u1)) * rs_cos2pi(u2));
}

enum { C0 = RS_X_DIM, T0 = RS_X_DIM + RS_OBS_DIM, NULL0 = T0 + RS_DF_TEMB };

int rs_df_from_net(rs_diffusion *d, rs_mlp *net, int T, tk_error *err) {
  memset(d, 0, sizeof *d);
  d->net = *net;
  memset(net, 0, sizeof *net);
  d->guidance = 1;
  d->eta = 1;
  if (T < 1 || T > RS_DF_MAX_T || d->net.n[0] != RS_DF_IN || d->net.n[d->net.nl] != RS_X_DIM ||
      d->net.nl < 2) {
    rs_df_free(d);
    return tk_error_set(err, TK_EABI, -1, "diffusion: T %d, network %d -> %d (expected %d -> %d)",
                        T, d->net.n[0], d->net.n[d->net.nl], RS_DF_IN, RS_X_DIM);
  }
  d->T = T;
  d->net.meta[0] = T;
  rs_df_schedule(T, d->abar, d->beta);
  int H = d->net.n[1];
  d->tpart = calloc((size_t)(T + 1) * (size_t)H, sizeof *d->tpart);
  if (!d->tpart) {
    rs_df_free(d);
    return tk_error_set(err, TK_ENOMEM, -1, "diffusion: out of memory");
  }
  float mu[RS_X_DIM], sd[RS_X_DIM];
  for (int i = 0; i < RS_X_DIM; i++)
    mu[i] = (float)d->net.meta[16 + i], sd[i] = (float)d->net.meta[16 + RS_X_DIM + i];
  if (rs_df_precondition(d, d->net.meta[1] == 1 ? mu : NULL, sd, err)) {
    rs_df_free(d);
    return TK_ENOMEM;
  }
  rs_df_refresh(d);
  return 0;
}

int rs_df_precondition(rs_diffusion *d, const float *mu, const float *sd, tk_error *err) {
  size_t n = (size_t)(d->T + 1) * RS_X_DIM;
  if (!d->cmu) {
    d->cmu = malloc(n * sizeof *d->cmu), d->cskip = malloc(n * sizeof *d->cskip);
    d->cout = malloc(n * sizeof *d->cout);
    if (!d->cmu || !d->cskip || !d->cout)
      return tk_error_set(err, TK_ENOMEM, -1, "diffusion: out of memory");
  }
  d->precond = mu && sd;
  d->net.meta[1] = d->precond;
  for (int i = 0; i < RS_X_DIM && d->precond; i++) {
    d->net.meta[16 + i] = mu[i];
    d->net.meta[16 + RS_X_DIM + i] = sd[i];
  }
  for (int t = 0; t <= d->T; t++)
    for (int i = 0; i < RS_X_DIM; i++) {
      size_t at = (size_t)t * RS_X_DIM + i;
      if (!d->precond) {
        d->cmu[at] = 0, d->cskip[at] = 0, d->cout[at] = 1;
        continue;
      }
      double ab = d->abar[t], m = mu[i], s2 = (double)sd[i] * sd[i], den = ab * s2 + 1 - ab;
      double k = s2 * sqrt(ab) / den;
      d->cskip[at] = (float)k;
      d->cmu[at] = (float)(m - k * sqrt(ab) * m);
      d->cout[at] = (float)(sd[i] * sqrt(1 - ab) / sqrt(den));
    }
  return 0;
}

void rs_df_refresh(rs_diffusion *d) {
  int H = d->net.n[1];
  const float *W = rs_mlp_w(&d->net, 0);
  for (int t = 0; t <= d->T; t++) {
    float e[RS_DF_TEMB];
    rs_df_temb(t, d->T, e);
    cblas_sgemv(CblasRowMajor, CblasTrans, RS_DF_TEMB, H, 1.0f, W + (size_t)T0 * H, H, e, 1, 0.0f,
                d->tpart + (size_t)t * H, 1);
  }
}

int rs_df_load(rs_diffusion *d, const char *path, tk_error *err) {
  rs_mlp net;
  uint8_t sha[32];
  int rc = rs_mlp_load(path, RS_DF_MODEL, RS_OBS_VERSION, &net, sha, err);
  if (rc) return rc;
  rc = rs_df_from_net(d, &net, (int)net.meta[0], err);
  if (rc) return rc;
  memcpy(d->sha256, sha, 32);
  return 0;
}

void rs_df_free(rs_diffusion *d) {
  rs_mlp_free(&d->net);
  free(d->tpart);
  free(d->buf);
  free(d->cmu), free(d->cskip), free(d->cout);
  d->tpart = d->buf = d->cmu = d->cskip = d->cout = NULL;
}

void rs_df_input(const rs_diffusion *d, const float *x0s, const float *eps, int t,
                 const float *c, float in[RS_DF_IN]) {
  float a = (float)sqrt(d->abar[t]), b = (float)sqrt(1 - d->abar[t]);
  for (int i = 0; i < RS_X_DIM; i++) in[i] = a * x0s[i] + b * eps[i];
  if (c)
    memcpy(in + C0, c, RS_OBS_DIM * sizeof *in);
  else
    memset(in + C0, 0, RS_OBS_DIM * sizeof *in);
  rs_df_temb(t, d->T, in + T0);
  in[NULL0] = c ? 0.0f : 1.0f;
}

static float *scratch(rs_diffusion *d, size_t n) {
  if (n > d->bufcap) {
    float *b = realloc(d->buf, n * sizeof *b);
    if (!b) return NULL;
    d->buf = b, d->bufcap = n;
  }
  return d->buf;
}

int rs_df_sample_x0(rs_diffusion *d, const float c[RS_OBS_DIM], const float own[RS_X_ROW], int k,
                    tk_rng *rng, float *out, tk_error *err) {
  const rs_mlp *m = &d->net;
  int H = m->n[1], W = 0, cfg = d->guidance != 1.0;
  for (int l = 0; l <= m->nl; l++) W = m->n[l] > W ? m->n[l] : W;
  int rows = cfg ? 2 * k : k;
  /* hc: c's part of layer 0 plus its bias; hu: the unconditional's (the null input) */
  size_t need = 2 * (size_t)H + (size_t)rows * H + 2 * (size_t)rows * W + (size_t)rows * RS_X_DIM;
  float *buf = scratch(d, need);
  if (!buf) return tk_error_set(err, TK_ENOMEM, -1, "diffusion: out of memory");
  float *hc = buf, *hu = hc + H, *h0 = hu + H, *sc = h0 + (size_t)rows * H,
        *f = sc + 2 * (size_t)rows * W;
  const float *W0 = rs_mlp_w(m, 0), *b0 = rs_mlp_b(m, 0);
  memcpy(hc, b0, (size_t)H * sizeof *hc);
  cblas_sgemv(CblasRowMajor, CblasTrans, RS_OBS_DIM, H, 1.0f, W0 + (size_t)C0 * H, H, c, 1, 1.0f,
              hc, 1);
  for (int j = 0; j < H; j++) hu[j] = b0[j] + W0[(size_t)NULL0 * H + j];
  float *x = out; /* x_t lives in out */
  const int T = d->T;
  for (int r = 0; r < k; r++)
    for (int i = 0; i < RS_X_DIM; i++) x[(size_t)r * RS_X_DIM + i] = rs_gauss(rng);
  float a = (float)sqrt(d->abar[T]), b = (float)sqrt(1 - d->abar[T]);
  for (int r = 0; r < k; r++)
    for (int i = 0; i < RS_X_ROW; i++) {
      float *xi = &x[(size_t)r * RS_X_DIM + i];
      *xi = a * (2 * own[i] - 1) + b * *xi;
    }
  for (int t = T; t >= 1; t--) {
    /* layer 0: x_t's part once, then + c's (or the null's) part + t's part, SiLU */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, H, RS_X_DIM, 1.0f, x, RS_X_DIM,
                W0, H, 0.0f, h0, H);
    if (cfg) memcpy(h0 + (size_t)k * H, h0, (size_t)k * H * sizeof *h0);
    const float *tp = d->tpart + (size_t)t * H;
    for (int r = 0; r < rows; r++) {
      const float *cp = r < k ? hc : hu;
      float *hr = h0 + (size_t)r * H;
      for (int j = 0; j < H; j++) hr[j] = rs_silu(hr[j] + cp[j] + tp[j]);
    }
    rs_mlp_forward_from(m, 1, rows, h0, f, sc);
    /* x_{t-1} = sqrt(abp) x0^ + sqrt(1 - abp - sg^2) eps^ + sg z, eps^ = (x_t - sqrt(ab) x0^) /
     * sqrt(1 - ab), sg = eta sqrt((1 - abp) / (1 - ab) x (1 - ab / abp)) (Song et al.'s DDIM
     * family): eta = 1 is DDPM's ancestral step (the posterior q(x_{t-1} | x_t, x0^)), eta = 0
     * the deterministic DDIM step. */
    double ab = d->abar[t], abp = d->abar[t - 1];
    double sg = d->eta * sqrt((1 - abp) / (1 - ab) * (1 - ab / abp));
    double dir = 1 - abp - sg * sg;
    float ra = (float)sqrt(abp), rd = (float)sqrt(dir > 0 ? dir : 0), rs = (float)sg;
    float sab = (float)sqrt(ab), s1ab = (float)sqrt(1 - ab), w = (float)d->guidance;
    const float *km = d->cmu + (size_t)t * RS_X_DIM, *ks = d->cskip + (size_t)t * RS_X_DIM,
                *ko = d->cout + (size_t)t * RS_X_DIM;
    for (int r = 0; r < k; r++)
      for (int i = 0; i < RS_X_DIM; i++) {
        size_t at = (size_t)r * RS_X_DIM + i;
        float x0 = f[at];
        if (cfg) x0 = f[(size_t)k * RS_X_DIM + at] + w * (x0 - f[(size_t)k * RS_X_DIM + at]);
        x0 = km[i] + ks[i] * x[at] + ko[i] * x0;
        x0 = x0 < -1 ? -1 : x0 > 1 ? 1 : x0;
        float eps = (x[at] - sab * x0) / s1ab;
        x[at] = ra * x0 + rd * eps + (t > 1 && rs > 0 ? rs * rs_gauss(rng) : 0.0f);
      }
    /* inpainting: the own row at level t - 1 */
    float ia = (float)sqrt(abp), ib = (float)sqrt(1 - abp);
    for (int r = 0; r < k; r++)
      for (int i = 0; i < RS_X_ROW; i++) {
        float *xi = &x[(size_t)r * RS_X_DIM + i];
        *xi = ia * (2 * own[i] - 1) + (t > 1 ? ib * rs_gauss(rng) : 0.0f);
      }
  }
  for (size_t i = 0; i < (size_t)k * RS_X_DIM; i++) {
    float y = (x[i] + 1) * 0.5f;
    out[i] = y < 0 ? 0 : y > 1 ? 1 : y;
  }
  return 0;
}

typedef struct item {
  float score;
  uint8_t who, kind, count;
} item;

static int by_score(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->score != y->score) return x->score < y->score ? -1 : 1;
  if (x->who != y->who) return x->who - y->who;
  return x->kind - y->kind;
}

int rs_df_discretise(const float y[3][RS_X_ROW], const int need[3],
                     const uint8_t unseen[TK_KINDS], uint8_t red_unseen, tk_rng *rng,
                     uint8_t hands[3][TK_KINDS], uint8_t red[3]) {
  item it[3 * TK_KINDS];
  int n = 0;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < TK_KINDS; k++) {
      float v = y[i][k] * 4;
      int c = (int)floorf(v + 0.5f);
      c = c < 0 ? 0 : c > 4 ? 4 : c;
      it[n].score = fabsf(v - (float)c) * 0.25f;
      it[n].who = (uint8_t)i, it[n].kind = (uint8_t)k, it[n].count = (uint8_t)c;
      n++;
    }
  qsort(it, (size_t)n, sizeof *it, by_score);
  int left[3], avail[TK_KINDS];
  for (int i = 0; i < 3; i++) left[i] = need[i];
  for (int k = 0; k < TK_KINDS; k++) avail[k] = unseen[k];
  memset(hands, 0, 3 * TK_KINDS);
  for (int j = 0; j < n; j++) {
    int i = it[j].who, k = it[j].kind, c = it[j].count;
    if (c > left[i]) c = left[i];
    if (c > avail[k]) c = avail[k];
    hands[i][k] = (uint8_t)c;
    left[i] -= c, avail[k] -= c;
  }
  int filled = 0, pool = 0;
  for (int k = 0; k < TK_KINDS; k++) pool += avail[k];
  for (int i = 0; i < 3; i++)
    for (; left[i] > 0; left[i]--, filled++, pool--) {
      if (pool <= 0) return -1;
      int r = (int)tk_rng_below(rng, (uint32_t)pool), k = 0;
      while (r >= avail[k]) r -= avail[k++];
      hands[i][k]++, avail[k]--;
    }
  for (int i = 0; i < 3; i++) {
    red[i] = 0;
    for (int u = 0; u < 3; u++) {
      int k = 9 * u + 4;
      if ((red_unseen >> u & 1) && hands[i][k] && y[i][TK_KINDS + k] >= 0.5f)
        red[i] |= (uint8_t)(1u << u);
    }
  }
  return filled;
}

int rs_df_sample(void *ctx, const tk_riichi_view *v, const tk_riichi_rules *rules, tk_rng *rng,
                 int k, tk_riichi_game *out, tk_error *err) {
  rs_diffusion *d = ctx;
  uint8_t unseen[TK_KINDS], red_unseen;
  if (rs_unseen(v, rules, unseen, &red_unseen))
    return tk_error_set(err, TK_EINVAL, -1, "diffusion: inconsistent view");
  float c[RS_OBS_DIM], own[RS_X_ROW];
  rs_obs_encode(v, rules, c);
  unsigned ored = 0;
  for (int i = 0; i < v->nhand; i++)
    if (tk_tile_is_red(v->tiles[i])) ored |= 1u << (tk_tile_kind(v->tiles[i]) / 9);
  rs_x0_row(v->hand, ored, own);
  int need[3];
  for (int i = 0; i < 3; i++) need[i] = rs_concealed(v, rs_seat_of(v->seat, i + 1));
  /* in chunks, so that the scratch stays small for a large k */
  enum { CHUNK = 16 };
  float x[CHUNK * RS_X_DIM];
  for (int done = 0; done < k;) {
    int n = k - done < CHUNK ? k - done : CHUNK;
    int rc = rs_df_sample_x0(d, c, own, n, rng, x, err);
    if (rc) return rc;
    for (int j = 0; j < n; j++) {
      float y[3][RS_X_ROW];
      for (int i = 0; i < 3; i++) memcpy(y[i], x + (size_t)j * RS_X_DIM + (i + 1) * RS_X_ROW, sizeof y[i]);
      uint8_t h3[3][TK_KINDS], r3[3], hands[4][TK_KINDS], red[4] = {0};
      int filled = rs_df_discretise((const float(*)[RS_X_ROW])y, need, unseen, red_unseen, rng, h3, r3);
      if (filled < 0)
        return tk_error_set(err, TK_EINVAL, -1, "diffusion: the unseen tiles cannot fill the hands");
      d->samples++;
      d->short_samples += filled > 0;
      d->tiles_filled += (unsigned long long)filled;
      memset(hands, 0, sizeof hands);
      unsigned given = 0;
      for (int i = 0; i < 3; i++) {
        int s = rs_seat_of(v->seat, i + 1);
        memcpy(hands[s], h3[i], TK_KINDS);
        red[s] = r3[i];
        given |= 1u << s;
      }
      int rc2 = tk_riichi_from_view_hands(&out[done + j], v, rules, given,
                                          (const uint8_t(*)[TK_KINDS])hands, red, rng, err);
      if (rc2) return rc2;
    }
    done += n;
  }
  return 0;
}

static void df_free_ctx(void *ctx) {
  rs_df_free(ctx);
  free(ctx);
}

int rs_df_open(rs_sampler *s, const char *options_json, const char *file, tk_error *err) {
  double guidance = 1, eta = 1;
  if (options_json) {
    json_error_t je;
    json_t *o = json_loads(options_json, 0, &je);
    if (!o || !json_is_object(o)) {
      json_decref(o);
      return tk_error_set(err, TK_EINVAL, -1, "sampler 'diffusion': options are not a JSON object "
                          "(%.80s)", options_json);
    }
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
      double x = json_is_number(val) ? json_number_value(val) : -1;
      if (!strcmp(key, "guidance") && x >= 0 && x <= 20) {
        guidance = x;
      } else if (!strcmp(key, "eta") && x >= 0 && x <= 1) {
        eta = x;
      } else {
        int known = !strcmp(key, "guidance") || !strcmp(key, "eta");
        if (known)
          tk_error_set(err, TK_EINVAL, -1, "sampler 'diffusion': %s must be a number in [0, %s]",
                       key, strcmp(key, "eta") ? "20" : "1");
        else
          tk_error_set(err, TK_EINVAL, -1, "sampler 'diffusion': unknown option '%.64s' (known: "
                       "guidance, eta)", key);
        json_decref(o); /* after the message: key belongs to o */
        return TK_EINVAL;
      }
    }
    json_decref(o);
  }
  char path[4096];
  if (file && file[0]) {
    snprintf(path, sizeof path, "%s", file);
  } else if (rs_default_file((const void *)rs_df_open, "riichi_diffusion.tkw",
                             "sampler 'diffusion'", path, sizeof path, err)) {
    return TK_ENOTFOUND;
  }
  rs_diffusion *d = calloc(1, sizeof *d);
  if (!d) return tk_error_set(err, TK_ENOMEM, -1, "sampler 'diffusion': out of memory");
  int rc = rs_df_load(d, path, err);
  if (rc) {
    free(d);
    return rc;
  }
  d->guidance = guidance;
  d->eta = eta;
  s->s.name = "diffusion";
  s->s.sample = rs_df_sample;
  s->s.ctx = d;
  s->free_ctx = df_free_ctx;
  snprintf(s->file, sizeof s->file, "%s", path);
  memcpy(s->file_sha256, d->sha256, 32);
  return 0;
}
