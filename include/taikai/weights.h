/* taikai/weights.h — the weights file of a learned agent, shared by its plugin and its trainer.
 *
 * Where weights live: a learned agent's folder holds its plugin, its feature code, its trainer
 * and its default weights file; the build copies the file beside the plugin's shared object,
 * whose descriptor names it (tk_agent_descriptor.weights). The referee resolves the file (the
 * agent's "weights" parameter, else that default), records its SHA-256 with the run, and passes
 * its path to create as "weights"; a plugin run outside the referee finds its default beside
 * itself (tk_weights_beside).
 *
 * Format 1, dense (little-endian):
 *   "TKWEIGHT" u32:format(1) char[32]:model u32:feature_version u32:ndims u32[ndims]:shape
 *   f64[prod(shape)]:values u32:crc32 (of everything before it)
 * A file is refused at load when anything differs from what the plugin expects — the model
 * name, the feature-set version, the shape — or it is cut short, has bytes left over, or fails
 * its checksum; the message names the file and the field.
 *
 * Format 2, sparse (little-endian), for models whose weights are mostly zero:
 *   "TKWEIGHT" u32:format(2) char[32]:model u32:feature_version u32:ndims u32[ndims]:shape
 *   u64:nnz  varint[nnz]:index deltas  f32[nnz]:values  u32:crc32 (of everything before it)
 * The shape is the dense logical shape; an entry's index is its row-major position in it
 * (below prod(shape)), and the entries absent from the file are zero. The indices are strictly
 * increasing and delta-coded as unsigned LEB128 varints (7 bits a byte, low group first, the
 * high bit set on every byte but the last, at most 10 bytes): the first varint is index[0]
 * itself, each next one index[i] - index[i-1] >= 1. The values are IEEE-754 binary32, so a
 * writer holding doubles stores their float32 rounding (round to nearest): deterministic, the
 * same doubles give the same bytes. The model name is NUL-padded to 32 bytes, as in format 1.
 * Besides format 1's checks, a file is refused when an index is not increasing or not below
 * prod(shape), a varint runs past the file or 64 bits, or a value is not finite.
 *
 * Sparse data written before format 2 is a format-1 file of shape [nnz, 2]: nnz rows of
 * (index, value) as f64, the index a whole number, strictly increasing. The sparse reader below
 * accepts it too (values exactly as stored). */
#ifndef TAIKAI_WEIGHTS_H
#define TAIKAI_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* These functions come from the static library taikai_data, linked into the referee, trainers
 * and plugins; a plugin built with hidden visibility keeps them to itself. */
#ifndef TK_DATA_API
#define TK_DATA_API
#endif

#define TK_WEIGHTS_FORMAT 1u
enum { TK_WEIGHTS_MAX_DIMS = 4 };

typedef struct tk_weights {
  char model[32];             /* e.g. "solo_linear" */
  uint32_t feature_version;   /* the version of the feature code that produced them */
  uint32_t ndims;
  uint32_t shape[TK_WEIGHTS_MAX_DIMS];
  size_t count;               /* product of the shape */
  double *values;             /* owned */
} tk_weights;

/* A shape entry that accepts the file's own size in that dimension (a sparse file's row count,
 * say); w->shape then holds it. */
#define TK_WEIGHTS_ANY 0u

/* Loads `path`, checking it against the expected model name, feature version and shape
 * (ndims entries, each a size or TK_WEIGHTS_ANY). Returns 0 with `w` filled (free with
 * tk_weights_free), or TK_EIO / TK_EPARSE / TK_EABI naming the file and the field: a value
 * that is not finite is TK_EPARSE naming its index; a path that is not a regular file (a FIFO,
 * /dev/zero) is TK_EINVAL at once, a missing one TK_ENOTFOUND (tk_file_open). */
TK_DATA_API int tk_weights_load(const char *path, const char *model, uint32_t feature_version,
                           uint32_t ndims, const uint32_t *shape, tk_weights *w, tk_error *err);
/* Writes `w` to `path` (through a temporary file renamed over it). Returns 0 or TK_EIO. */
TK_DATA_API int tk_weights_save(const char *path, const tk_weights *w, tk_error *err);
TK_DATA_API void tk_weights_free(tk_weights *w);

#define TK_WEIGHTS_FORMAT_SPARSE 2u

/* A sparse model: the header of its file and its nonzero entries. */
typedef struct tk_weights_sparse {
  char model[32];             /* e.g. "riichi_mcp" */
  uint32_t feature_version;
  uint32_t ndims;
  uint32_t shape[TK_WEIGHTS_MAX_DIMS]; /* the dense logical shape */
  uint64_t count;             /* product of the shape: every index is below it */
  size_t nnz;                 /* entries stored */
  uint64_t *index;            /* nnz, strictly increasing; owned when loaded */
  double *values;             /* nnz; owned when loaded */
  uint32_t format;            /* set by the loader: the file's format, 1 ([nnz, 2] rows) or 2 */
} tk_weights_sparse;

/* Writes `s` (header fields, count, nnz, index, values) to `path` as format 2, through a
 * temporary file renamed over it. Each value is stored as its float32 rounding, a zero one
 * included. Returns 0; TK_EINVAL when an index is not increasing or not below s->count, or a
 * value is not finite or beyond float32's range (naming the entry and the value); TK_EIO. */
TK_DATA_API int tk_weights_sparse_save(const char *path, const tk_weights_sparse *s,
                                       tk_error *err);
/* Writes the dense `w` (w->count doubles in row-major order of w->shape) to `path` as format 2:
 * the entries whose float32 rounding is not zero. *nnz (may be NULL) receives their number.
 * Returns 0 or as tk_weights_sparse_save. */
TK_DATA_API int tk_weights_sparse_save_dense(const char *path, const tk_weights *w, size_t *nnz,
                                             tk_error *err);
/* Loads a sparse file, format 2 or format-1 [nnz, 2] rows, checking the model name, the feature
 * version and, for format 2, the dense shape (ndims entries, each an exact size: rows carry no
 * shape, so theirs is taken to be this one and their indices are checked against it). Returns 0
 * with `s` filled (free with tk_weights_sparse_free; values are the stored float32 widened, or
 * the rows' f64), or TK_EIO / TK_EPARSE / TK_EABI / TK_ENOMEM naming the file, the field and
 * the value (a value not finite: TK_EPARSE), or tk_weights_load's TK_EINVAL / TK_ENOTFOUND. */
TK_DATA_API int tk_weights_sparse_load(const char *path, const char *model,
                                       uint32_t feature_version, uint32_t ndims,
                                       const uint32_t *shape, tk_weights_sparse *s,
                                       tk_error *err);
/* As tk_weights_sparse_load, then scatters into the caller's `dense` (prod(shape) doubles):
 * on success every entry is set, the file's values at their indices and zero elsewhere; on
 * failure `dense` is untouched. *nnz (may be NULL) receives the number of entries stored. */
TK_DATA_API int tk_weights_sparse_load_dense(const char *path, const char *model,
                                             uint32_t feature_version, uint32_t ndims,
                                             const uint32_t *shape, double *dense, size_t *nnz,
                                             tk_error *err);
/* Frees what a load allocated; a no-op on NULL and on a struct already freed. */
TK_DATA_API void tk_weights_sparse_free(tk_weights_sparse *s);

/* The path of file `name` in the folder of the shared object that holds `symbol` (a function
 * of the calling plugin), via dladdr. Returns 0, or TK_ENOTFOUND. */
TK_DATA_API int tk_weights_beside(const void *symbol, const char *name, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
