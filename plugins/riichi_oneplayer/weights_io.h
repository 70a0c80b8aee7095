/* plugins/riichi_oneplayer/weights_io.h — the one-player policy's weights file, shared by the
 * riichi_oneplayer plugin and its trainer.
 *
 * The policy has ROF_FEATURES (8,442,546) weights, 67 MB as dense doubles, but a perceptron
 * trained on 10^4 .. 10^6 decisions leaves most of them zero. So the file keeps the nonzero
 * entries only. The writer keeps the project's format 1 (taikai/weights.h) as rows: model
 * "riichi_oneplayer", feature version ROF_FEATURE_VERSION, shape [nnz, 2], nnz rows of
 * (index, weight) as f64, 16 bytes per nonzero weight, so the committed default weights are
 * reproduced byte for byte. The reader is the shared sparse one (tk_weights_sparse_load): it
 * takes those rows (values exactly as stored) and format-2 sparse files of dense shape
 * [ROF_FEATURES] (float32 values). A file is refused when the format's checks fail (model,
 * feature version, ndims, shape, length, checksum), or an index is not a whole number below
 * ROF_FEATURES, strictly increasing (rows: 'values[i][0]'), or a weight is not finite; the
 * message names the file, the field and the value. */
#ifndef RIICHI_ONEPLAYER_WEIGHTS_IO_H
#define RIICHI_ONEPLAYER_WEIGHTS_IO_H

#include <stddef.h>

#include "features.h"

#define ROP_MODEL "riichi_oneplayer"

/* Loads `path` into a dense vector of ROF_FEATURES doubles (*out, owned: free()), the entries
 * absent from the file zero. *nnz (may be NULL) receives the number of rows. Returns 0, or a
 * TK_E* code with the file and the field in `err`. */
int rop_weights_load(const char *path, double **out, size_t *nnz, tk_error *err);

/* Writes the nonzero entries of the dense vector `w` (ROF_FEATURES doubles) to `path` (through
 * a temporary file renamed over it). *nnz (may be NULL) receives their number. Returns 0 or a
 * TK_E* code. */
int rop_weights_save(const char *path, const double *w, size_t *nnz, tk_error *err);

#endif
