/* harness/core/loader.h — finding and loading agent plugins (dlopen RTLD_NOW|RTLD_LOCAL), and every
 * check made before a run: entry symbol, ABI version, descriptor size, required fields, the
 * metadata's characters (name, version, game, description), the game, parameter names and
 * types, and a trial create. Every refusal names the file and the reason. A loaded plugin
 * carries the SHA-256 of its file, its identity in a run's spec.json. */
#ifndef TAIKAI_HARNESS_LOADER_H
#define TAIKAI_HARNESS_LOADER_H

#include <jansson.h>

#include "taikai/agent.h"
#include "taikai/sha256.h"

enum { TK_PATH_MAX = 4096, TK_PLUGIN_NAME_MAX = 63, TK_PLUGIN_VERSION_MAX = 63 };

typedef struct tk_plugin {
  char path[TK_PATH_MAX];          /* the file loaded */
  void *handle;                    /* dlopen handle, NULL once closed */
  const tk_agent_descriptor *desc; /* the plugin's descriptor, valid while loaded: a copy of
                                    * the struct_size bytes it declares, the fields appended
                                    * after those NULL (owned, in `own`) */
  tk_agent_descriptor *own;
  char sha256[TK_SHA256_HEX];      /* hash of the file's bytes, read just before dlopen */
} tk_plugin;

/* Finds plugin `name_or_path`: a string containing '/' or ending in ".so" is a path (tried as
 * given, then relative to `spec_dir` if not NULL); otherwise `<dir>/<name>.so` in each folder of
 * $TAIKAI_PLUGIN_PATH (':'-separated), then `plugins/` beside the taikai executable, then the
 * installed plugin folder (`../lib/taikai/plugins` from the executable's folder, as the install
 * layout has it; only if it exists). Writes the path to `out`. Returns 0 or TK_ENOTFOUND (message lists where it looked). */
int tk_plugin_find(const char *name_or_path, const char *spec_dir, char *out, size_t cap,
                   tk_error *err);

/* The folders searched for plugins by name, in order, written into `dirs` (at most `max`);
 * returns their number. Pointers stay valid until the next call. */
int tk_plugin_dirs(const char **dirs, int max);

/* Loads `path`, records its SHA-256 and checks its descriptor; `game` (may be NULL) is the game
 * it must play. The metadata must be text a report can show: `name` 1 to 63 characters among
 * a-z 0-9 _ -, `game` the same; `version` (1 to 63 bytes, no '|') and `description` (may be
 * NULL) valid UTF-8 without control characters. Returns 0, or TK_EIO (unreadable, or dlopen
 * failed), TK_ENOTFOUND (no entry symbol), TK_EABI (version, size or a missing field),
 * TK_EINVAL (metadata, wrong game, bad params_json); nothing stays loaded then. */
int tk_plugin_open(tk_plugin *p, const char *path, const char *game, tk_error *err);
/* Whether `s` is valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF) holding no
 * control character (U+0000-001F, U+007F-009F). Returns 0, or -1 with the first problem and its
 * byte offset in `why` (e.g. "byte 0xff at offset 3 is not UTF-8"). */
int tk_plugin_text_check(const char *s, char *why, size_t cap);

/* Unloads (a closed or zeroed plugin is fine). */
void tk_plugin_close(tk_plugin *p);

/* Merges the spec's `params` (object; may be NULL) over the plugin's defaults. Unknown names
 * and values whose JSON type differs from the default's are refused (TK_EINVAL; `label` names
 * the agent in the message). Returns 0 with `*resolved` a new object. */
int tk_plugin_params(const tk_plugin *p, const char *label, json_t *params, json_t **resolved,
                     tk_error *err);

/* Creates and destroys one instance with `params_json`, to refuse a failing create before the
 * run. Returns 0 or TK_EINVAL with the plugin's own reason. */
int tk_plugin_try_create(const tk_plugin *p, const char *params_json, uint64_t seed,
                         tk_error *err);

#endif
