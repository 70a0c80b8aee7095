/* plugins/riichi_oneplayer/weights_io.c — the sparse weights file (weights_io.h). */
#include "weights_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/weights.h"

int rop_weights_load(const char *path, double **out, size_t *nnz, tk_error *err) {
  *out = NULL;
  /* more rows than features cannot pass the index checks below (ascending, below
   * ROF_FEATURES); the format's own checks come first, so a file of another shape is named by
   * its field */
  uint32_t shape[2] = {TK_WEIGHTS_ANY, 2};
  tk_weights w;
  int rc = tk_weights_load(path, ROP_MODEL, ROF_FEATURE_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  double *d = calloc(ROF_FEATURES, sizeof *d);
  if (!d) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  double prev = -1;
  for (uint32_t i = 0; i < w.shape[0]; i++) {
    double x = w.values[2 * (size_t)i], v = w.values[2 * (size_t)i + 1];
    if (!(x >= 0 && x < ROF_FEATURES && x == floor(x) && x > prev) || !isfinite(v)) {
      int bad_index = !(x >= 0 && x < ROF_FEATURES && x == floor(x) && x > prev);
      rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'values[%u][%d]': %.17g (%s)", path,
                        i, bad_index ? 0 : 1, bad_index ? x : v,
                        bad_index ? "an index must be a whole number below 8442546, ascending"
                                  : "a weight must be finite");
      free(d);
      tk_weights_free(&w);
      return rc;
    }
    d[(size_t)x] = v;
    prev = x;
  }
  if (nnz) *nnz = w.shape[0];
  tk_weights_free(&w);
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
