/* plugins/riichi_sampler/autoregressive.c — the autoregressive baseline (autoregressive.h). */
#include "autoregressive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsamp_internal.h"
#include "taikai/weights.h"

int rs_ar_load(rs_ar *m, const char *path, tk_error *err) {
  memset(m, 0, sizeof *m);
  int rc = rs_mlp_load(path, RS_AR_MODEL, RS_OBS_VERSION, &m->net, m->sha256, err);
  if (rc) return rc;
  if (m->net.n[0] != RS_AR_IN || m->net.n[m->net.nl] != TK_KINDS) {
    rs_mlp_free(&m->net);
    return tk_error_set(err, TK_EABI, -1, "weights %s: network %d -> %d, expected %d -> %d", path,
                        m->net.n[0], m->net.n[m->net.nl], RS_AR_IN, TK_KINDS);
  }
  int W = 0;
  for (int l = 0; l <= m->net.nl; l++) W = m->net.n[l] > W ? m->net.n[l] : W;
  m->buf = malloc((2 * (size_t)W + RS_AR_IN + TK_KINDS) * sizeof *m->buf);
  if (!m->buf) {
    rs_mlp_free(&m->net);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  return 0;
}

void rs_ar_free(rs_ar *m) {
  rs_mlp_free(&m->net);
  free(m->buf);
  m->buf = NULL;
}

void rs_ar_input(const float c[RS_OBS_DIM], const uint8_t sofar[3][TK_KINDS], int i, int left,
                 float in[RS_AR_IN]) {
  memcpy(in, c, RS_OBS_DIM * sizeof *in);
  float *p = in + RS_OBS_DIM;
  for (int j = 0; j < 3; j++)
    for (int k = 0; k < TK_KINDS; k++) *p++ = sofar[j][k] * 0.25f;
  for (int j = 0; j < 3; j++) *p++ = j == i ? 1.0f : 0.0f;
  *p = left / 14.0f;
}

int rs_ar_hands(rs_ar *m, const float c[RS_OBS_DIM], const int need[3],
                const uint8_t unseen[TK_KINDS], uint8_t red_unseen, tk_rng *rng,
                uint8_t hands[3][TK_KINDS], uint8_t red[3]) {
  int W = 0;
  for (int l = 0; l <= m->net.nl; l++) W = m->net.n[l] > W ? m->net.n[l] : W;
  float *sc = m->buf, *in = sc + 2 * (size_t)W, *o = in + RS_AR_IN;
  int avail[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) avail[k] = unseen[k];
  memset(hands, 0, 3 * TK_KINDS);
  for (int i = 0; i < 3; i++)
    for (int left = need[i]; left > 0; left--) {
      rs_ar_input(c, (const uint8_t(*)[TK_KINDS])hands, i, left, in);
      rs_mlp_forward_from(&m->net, 0, 1, in, o, sc);
      double mx = -1e300, p[TK_KINDS], z = 0;
      for (int k = 0; k < TK_KINDS; k++)
        if (avail[k] && o[k] > mx) mx = o[k];
      if (mx == -1e300) return -1;
      for (int k = 0; k < TK_KINDS; k++) z += p[k] = avail[k] ? rs_exp(o[k] - mx) : 0;
      double u = tk_rng_double(rng) * z;
      int k = 0;
      while (k < TK_KINDS - 1 && (u >= p[k] || !avail[k])) u -= p[k++];
      while (!avail[k]) k--; /* rounding at the end of the range */
      hands[i][k]++, avail[k]--;
    }
  for (int i = 0; i < 3; i++) {
    red[i] = 0;
    for (int s = 0; s < 3; s++) {
      int k = 9 * s + 4;
      if ((red_unseen >> s & 1) && hands[i][k] && unseen[k] &&
          tk_rng_below(rng, unseen[k]) < hands[i][k])
        red[i] |= (uint8_t)(1u << s);
    }
  }
  return 0;
}

int rs_ar_sample(void *ctx, const tk_riichi_view *v, const tk_riichi_rules *rules, tk_rng *rng,
                 int k, tk_riichi_game *out, tk_error *err) {
  rs_ar *m = ctx;
  uint8_t unseen[TK_KINDS], red_unseen;
  if (rs_unseen(v, rules, unseen, &red_unseen))
    return tk_error_set(err, TK_EINVAL, -1, "autoregressive: inconsistent view");
  float c[RS_OBS_DIM];
  rs_obs_encode(v, rules, c);
  int need[3];
  for (int i = 0; i < 3; i++) need[i] = rs_concealed(v, rs_seat_of(v->seat, i + 1));
  for (int j = 0; j < k; j++) {
    uint8_t h3[3][TK_KINDS], r3[3], hands[4][TK_KINDS], red[4] = {0};
    /* red fives: a seat holding the red one is told only when that red copy is unseen; with two
     * or more seats drawing it (n / u each), tk_riichi_from_view_hands serves seats in order */
    if (rs_ar_hands(m, c, need, unseen, red_unseen, rng, h3, r3))
      return tk_error_set(err, TK_EINVAL, -1, "autoregressive: the unseen tiles cannot fill the "
                          "hands");
    memset(hands, 0, sizeof hands);
    unsigned given = 0;
    for (int i = 0; i < 3; i++) {
      int s = rs_seat_of(v->seat, i + 1);
      memcpy(hands[s], h3[i], TK_KINDS);
      red[s] = r3[i];
      given |= 1u << s;
    }
    m->samples++;
    int rc = tk_riichi_from_view_hands(&out[j], v, rules, given, (const uint8_t(*)[TK_KINDS])hands,
                                       red, rng, err);
    if (rc) return rc;
  }
  return 0;
}

static void ar_free_ctx(void *ctx) {
  rs_ar_free(ctx);
  free(ctx);
}

int rs_ar_open(rs_sampler *s, const char *options_json, const char *file, tk_error *err) {
  if (options_json && strspn(options_json, " \t\r\n{}") != strlen(options_json))
    return tk_error_set(err, TK_EINVAL, -1, "sampler 'autoregressive' takes no options (got "
                        "%.80s)", options_json);
  char path[4096];
  if (file && file[0]) {
    snprintf(path, sizeof path, "%s", file);
  } else if (rs_default_file((const void *)rs_ar_open, "riichi_autoregressive.tkw",
                             "sampler 'autoregressive'", path, sizeof path, err)) {
    return TK_ENOTFOUND;
  }
  rs_ar *m = calloc(1, sizeof *m);
  if (!m) return tk_error_set(err, TK_ENOMEM, -1, "sampler 'autoregressive': out of memory");
  int rc = rs_ar_load(m, path, err);
  if (rc) {
    free(m);
    return rc;
  }
  s->s.name = "autoregressive";
  s->s.sample = rs_ar_sample;
  s->s.ctx = m;
  s->free_ctx = ar_free_ctx;
  snprintf(s->file, sizeof s->file, "%s", path);
  memcpy(s->file_sha256, m->sha256, 32);
  return 0;
}
