/* harness/core/readfile.h — the referee's reading of JSON files named by users or found in run
 * folders (spec.json, summary.json, reference tables): only regular files of bounded size
 * (taikai/file.h), so that a FIFO or a device is refused at once, never read forever; and its
 * writing of files that readers must see whole. */
#ifndef TAIKAI_HARNESS_READFILE_H
#define TAIKAI_HARNESS_READFILE_H

#include <jansson.h>
#include <zlib.h>

#include "loader.h" /* TK_PATH_MAX */
#include "taikai/common.h"

/* The most a JSON file of a run folder or a command's argument may hold. */
#define TK_JSON_FILE_MAX ((uint64_t)256 << 20)

/* Loads the JSON text at `path` with Jansson `flags`. Returns a new reference, or NULL with
 * `err` set: "<path>: cannot open: ..." (TK_ENOTFOUND when it does not exist), "<path>: is a
 * FIFO, not a regular file ...", or "<path>: not JSON (line L): ..." (TK_EPARSE). */
json_t *tk_json_load_path(const char *path, size_t flags, tk_error *err);

/* Opens a run folder's games for reading: DIR/games.jsonl, else DIR/games.jsonl.gz (a plain
 * file is read as it is), each through taikai/file.h (a FIFO or a device is refused, not read);
 * `path` gets the name opened. Returns the stream, or NULL with `err` set (TK_ENOTFOUND when
 * neither file exists). */
gzFile tk_games_open(const char *dir, char *path, size_t cap, tk_error *err);
/* mkdir -p. */
int tk_mkdirs(const char *path, tk_error *err);

/* Writes `len` bytes to <dir>/<name> through a temporary file in the same folder, fsync and
 * rename: readers see the old file or the whole new one. */
int tk_write_atomic(const char *dir, const char *name, const char *text, size_t len,
                    tk_error *err);

/* Removes the files directly in `dir` (one level: what a run leaves in a scratch folder), then
 * `dir`. Errors are ignored: a scratch folder left behind is harmless. */
void tk_remove_flat_dir(const char *dir);
#endif
