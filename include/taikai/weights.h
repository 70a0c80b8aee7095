/* taikai/weights.h — the weights file of a learned agent, shared by its plugin and its trainer.
 *
 * Where weights live: a learned agent's folder holds its plugin, its feature code, its trainer
 * and its default weights file; the build copies the file beside the plugin's shared object,
 * whose descriptor names it (tk_agent_descriptor.weights). The referee resolves the file (the
 * agent's "weights" parameter, else that default), records its SHA-256 with the run, and passes
 * its path to create as "weights"; a plugin run outside the referee finds its default beside
 * itself (tk_weights_beside).
 *
 * The format (little-endian):
 *   "TKWEIGHT" u32:format(1) char[32]:model u32:feature_version u32:ndims u32[ndims]:shape
 *   f64[prod(shape)]:values u32:crc32 (of everything before it)
 * A file is refused at load when anything differs from what the plugin expects — the model
 * name, the feature-set version, the shape — or it is cut short, has bytes left over, or fails
 * its checksum; the message names the file and the field. */
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
 * tk_weights_free), or TK_EIO / TK_EPARSE / TK_EABI naming the file and the field. */
TK_DATA_API int tk_weights_load(const char *path, const char *model, uint32_t feature_version,
                           uint32_t ndims, const uint32_t *shape, tk_weights *w, tk_error *err);
/* Writes `w` to `path` (through a temporary file renamed over it). Returns 0 or TK_EIO. */
TK_DATA_API int tk_weights_save(const char *path, const tk_weights *w, tk_error *err);
TK_DATA_API void tk_weights_free(tk_weights *w);

/* The path of file `name` in the folder of the shared object that holds `symbol` (a function
 * of the calling plugin), via dladdr. Returns 0, or TK_ENOTFOUND. */
TK_DATA_API int tk_weights_beside(const void *symbol, const char *name, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
