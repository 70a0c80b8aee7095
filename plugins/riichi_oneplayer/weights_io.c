/* plugins/riichi_oneplayer/weights_io.c — the sparse weights file (weights_io.h): read through
 * the shared sparse reader, written as format-1 rows. */
#include "weights_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/weights.h"

int rop_weights_load(const char *path, double **out, size_t *nnz, tk_error *err) {
  *out = NULL;
  double *d = malloc(ROF_FEATURES * sizeof *d);
  if (!d) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  const uint32_t shape[1] = {ROF_FEATURES};
  int rc = tk_weights_sparse_load_dense(path, ROP_MODEL, ROF_FEATURE_VERSION, 1, shape, d, nnz,
                                        err);
  if (rc) {
    free(d);
    return rc;
  }
  *out = d;
  return 0;
}

int rop_weights_save(const char *path, const double *w, size_t *nnz, tk_error *err) {
  size_t n = 0;
  for (size_t i = 0; i < ROF_FEATURES; i++) n += w[i] != 0;
  tk_weights tw;
  memset(&tw, 0, sizeof tw);
  snprintf(tw.model, sizeof tw.model, "%s", ROP_MODEL);
  tw.feature_version = ROF_FEATURE_VERSION;
  tw.ndims = 2;
  tw.shape[0] = (uint32_t)n;
  tw.shape[1] = 2;
  tw.count = 2 * n;
  tw.values = malloc((2 * n + 1) * sizeof *tw.values);
  if (!tw.values) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  size_t k = 0;
  for (size_t i = 0; i < ROF_FEATURES; i++)
    if (w[i] != 0) {
      tw.values[k++] = (double)i;
      tw.values[k++] = w[i];
    }
  int rc = tk_weights_save(path, &tw, err);
  free(tw.values);
  if (!rc && nnz) *nnz = n;
  return rc;
}
