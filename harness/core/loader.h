/* harness/core/loader.h — finding and loading agent plugins (dlopen RTLD_NOW|RTLD_LOCAL), and every
 * check made before a run: entry symbol, ABI version, descriptor size, required fields, the
 * game, parameter names and types, and a trial create. Every refusal names the file and the
 * reason. */
#ifndef TAIKAI_HARNESS_LOADER_H
#define TAIKAI_HARNESS_LOADER_H

#include <jansson.h>

#include "taikai/agent.h"

enum { TK_PATH_MAX = 4096 };

typedef struct tk_plugin {
  char path[TK_PATH_MAX];          /* the file loaded */
  void *handle;                    /* dlopen handle, NULL once closed */
  const tk_agent_descriptor *desc; /* borrowed from the plugin, valid while loaded */
} tk_plugin;

/* Finds plugin `name_or_path`: a string containing '/' or ending in ".so" is a path (tried as
 * given, then relative to `spec_dir` if not NULL); otherwise `<dir>/<name>.so` in each folder of
 * $TAIKAI_PLUGIN_PATH (':'-separated), then `plugins/` beside the taikai executable. Writes the
 * path to `out`. Returns 0 or TK_ENOTFOUND (message lists where it looked). */
int tk_plugin_find(const char *name_or_path, const char *spec_dir, char *out, size_t cap,
                   tk_error *err);

/* The folders searched for plugins by name, in order, written into `dirs` (at most `max`);
 * returns their number. Pointers stay valid until the next call. */
int tk_plugin_dirs(const char **dirs, int max);

/* Loads `path` and checks its descriptor; `game` (may be NULL) is the game it must play.
 * Returns 0, or TK_EIO (dlopen failed), TK_ENOTFOUND (no entry symbol), TK_EABI (version, size
 * or a missing field), TK_EINVAL (wrong game, bad params_json); nothing stays loaded then. */
int tk_plugin_open(tk_plugin *p, const char *path, const char *game, tk_error *err);
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
