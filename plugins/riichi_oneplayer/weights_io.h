/* plugins/riichi_oneplayer/weights_io.h — the one-player policy's weights file, shared by the
 * riichi_oneplayer plugin and its trainer.
 *
 * The policy has ROF_FEATURES (8,442,546) weights, 67 MB as dense doubles, but a perceptron
 * trained on 10^4 .. 10^6 decisions leaves most of them zero. So the file keeps the nonzero
 * entries only, in the project's weights format (taikai/weights.h) without changing it: model
 * "riichi_oneplayer", feature version ROF_FEATURE_VERSION, shape [nnz, 2], the values nnz rows
 * of (index, weight), the index a whole number stored as a double (exact below 2^53), strictly
 * ascending and below ROF_FEATURES. 16 bytes per nonzero weight. A file is refused when the
 * format's checks fail (model, feature version, ndims, shape[1], length, checksum: the message
 * names the file and the field), or when a row's index is not such a number (named as
 * 'values[i][0]'). */
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
