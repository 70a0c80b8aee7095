/* plugins/riichi_sampler/direct.c — the direct shanten and wait predictor (direct.h). */
#include "direct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rs_direct_load(rs_direct *m, const char *path, tk_error *err) {
  memset(m, 0, sizeof *m);
  int rc = rs_mlp_load(path, RS_DIRECT_MODEL, RS_OBS_VERSION, &m->net, m->sha256, err);
  if (rc) return rc;
  if (m->net.n[0] != RS_OBS_DIM || m->net.n[m->net.nl] != RS_DIRECT_OUT) {
    rs_mlp_free(&m->net);
    return tk_error_set(err, TK_EABI, -1, "weights %s: network %d -> %d, expected %d -> %d", path,
                        m->net.n[0], m->net.n[m->net.nl], RS_OBS_DIM, RS_DIRECT_OUT);
  }
  return 0;
}

void rs_direct_free(rs_direct *m) { rs_mlp_free(&m->net); }

int rs_direct_predict(const rs_direct *m, const tk_riichi_view *v, double shanten[3][7],
                      double wait[3][34]) {
  memset(shanten, 0, 3 * sizeof shanten[0]);
  memset(wait, 0, 3 * sizeof wait[0]);
  int W = 0;
  for (int l = 0; l <= m->net.nl; l++) W = m->net.n[l] > W ? m->net.n[l] : W;
  float c[RS_OBS_DIM], out[RS_DIRECT_OUT], *sc = malloc(2 * (size_t)W * sizeof *sc);
  if (!sc) return -1;
  rs_obs_encode(v, NULL, c);
  rs_mlp_forward_from(&m->net, 0, 1, c, out, sc);
  free(sc);
  for (int i = 0; i < 3; i++) {
    const float *o = out + i * RS_DIRECT_PER;
    double mx = o[0], z = 0;
    for (int s = 1; s < RS_DIRECT_SH; s++) mx = o[s] > mx ? o[s] : mx;
    for (int s = 0; s < RS_DIRECT_SH; s++) z += shanten[i][s] = exp(o[s] - mx);
    for (int s = 0; s < RS_DIRECT_SH; s++) shanten[i][s] /= z;
    for (int k = 0; k < TK_KINDS; k++) wait[i][k] = 1 / (1 + exp(-(double)o[RS_DIRECT_SH + k]));
  }
  return 0;
}

double rs_direct_loss(const float out[RS_DIRECT_OUT], const uint8_t sh[3], const uint64_t wait[3],
                      float scale, float dout[RS_DIRECT_OUT]) {
  double loss = 0;
  for (int i = 0; i < 3; i++) {
    const float *o = out + i * RS_DIRECT_PER;
    float *d = dout + i * RS_DIRECT_PER;
    int y = sh[i] > 6 ? 6 : sh[i];
    double mx = o[0], z = 0, p[RS_DIRECT_SH];
    for (int s = 1; s < RS_DIRECT_SH; s++) mx = o[s] > mx ? o[s] : mx;
    for (int s = 0; s < RS_DIRECT_SH; s++) z += p[s] = exp(o[s] - mx);
    loss += -(o[y] - mx - log(z));
    for (int s = 0; s < RS_DIRECT_SH; s++) d[s] = scale * (float)(p[s] / z - (s == y));
    for (int k = 0; k < TK_KINDS; k++) {
      double x = o[RS_DIRECT_SH + k], t = (double)(wait[i] >> k & 1);
      /* log(1 + e^x) - t x, stably */
      loss += (x > 0 ? x + log1p(exp(-x)) : log1p(exp(x))) - t * x;
      d[RS_DIRECT_SH + k] = scale * (float)(1 / (1 + exp(-x)) - t);
    }
  }
  return loss;
}
