/* plugins/riichi_mcp/target.c — target mode and the weights file read back (target.h). */
#include "target.h"

#include <stdlib.h>
#include <string.h>

#include "taikai/weights.h"

int mcm_load(const char *path, int kind, mcm_model *m, tk_error *err) {
  if (mcm_init_predict(m, kind, ROF_FEATURES))
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  const uint32_t shape[2] = {(uint32_t)m->K, m->D};
  tk_weights_sparse w;
  int rc = tk_weights_sparse_load(path, kind == MCM_MCP ? "riichi_mcp" : "riichi_bcp",
                                  ROF_FEATURE_VERSION, 2, shape, &w, err);
  if (rc) {
    mcm_free(m);
    return rc;
  }
  for (size_t i = 0; i < w.nnz; i++) { /* file entry k * D + j, memory j * K + k */
    size_t k = (size_t)(w.index[i] / m->D), j = (size_t)(w.index[i] % m->D);
    m->w[j * (size_t)m->K + k] = w.values[i];
  }
  tk_weights_sparse_free(&w);
  return 0;
}

int mct_decide(const tk_riichi_view *v, const tk_riichi_legal *l, const mcm_model *m, int target,
               rop_choice *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  out->action = -1;
  out->discard = TK_TILE_NONE;
  if (target < 1 || target > 4)
    return tk_error_set(err, TK_EINVAL, -1, "target mode: target %d is not in 1..4", target);
  if (!l->n) return tk_error_set(err, TK_EINVAL, -1, "target mode: the legal list is empty");
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON) {
      out->action = i;
      return 0;
    }
  static _Thread_local rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, cands, ROP_MAX_CANDS);
  out->ncands = n;
  uint8_t riichi_of[0x80];
  int any_riichi = rop_riichi_of(l, riichi_of);
  uint32_t f[ROF_MAX_ACTIVE];
  int best = -1;
  double best_p = 0;
  for (int i = 0; i < n; i++) {
    const rop_cand *c = &cands[i];
    int tile = l->a[c->action].tile & 0x7f;
    if (any_riichi && (l->a[c->action].type != TK_RIICHI_DISCARD || riichi_of[tile] == 0xff)) continue;
    int nf = rof_features(&c->hand, &c->ctx, f, NULL, err);
    if (nf < 0) return nf;
    double ge[5];
    mcm_predict_ge(m, f, nf, ge);
    if (best < 0 || ge[target] > best_p) {
      best = i;
      best_p = ge[target];
    }
  }
  if (best < 0) {
    out->action = tk_riichi_fallback(l);
    return 0;
  }
  out->action = cands[best].action;
  out->discard = cands[best].discard;
  out->score = best_p;
  if (any_riichi) out->action = riichi_of[l->a[cands[best].action].tile & 0x7f];
  return 0;
}
