/* plugins/riichi_oneplayer/weights_io.c — the sparse weights file (weights_io.h). */
#include "weights_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/weights.h"

/* The shape the file declares (ndims at byte 48, shape[0] at 52), read before the checked load,
 * which needs the expected shape: the row count is the file's own. A file too short to hold them
 * gives 0, and the checked load then refuses it with its own message. */
static uint32_t declared_rows(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  uint8_t b[56];
  size_t n = fread(b, 1, sizeof b, f);
  fclose(f);
  if (n < sizeof b) return 0;
  return (uint32_t)b[52] | (uint32_t)b[53] << 8 | (uint32_t)b[54] << 16 | (uint32_t)b[55] << 24;
}

int rop_weights_load(const char *path, double **out, size_t *nnz, tk_error *err) {
  *out = NULL;
  /* more rows than features cannot pass the index checks below (ascending, below
   * ROF_FEATURES); the format's own checks come first, so a file of another shape is named by
   * its field */
  uint32_t shape[2] = {declared_rows(path), 2};
  tk_weights w;
  int rc = tk_weights_load(path, ROP_MODEL, ROF_FEATURE_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  double *d = calloc(ROF_FEATURES, sizeof *d);
  if (!d) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  double prev = -1;
  for (uint32_t i = 0; i < shape[0]; i++) {
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
  tk_weights_free(&w);
  if (nnz) *nnz = shape[0];
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
