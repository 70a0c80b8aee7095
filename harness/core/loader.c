/* harness/core/loader.c — plugin search, dlopen and descriptor checks (see loader.h).
 * Invariant: a tk_plugin with a non-NULL handle has passed every check in tk_plugin_open. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"
#include "loader.h"

static int is_file(const char *p) { return access(p, R_OK) == 0; }

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The installed plugin folder relative to the executable's folder (set by CMake from the
 * install layout, e.g. "../lib/taikai/plugins"), so that a moved install still finds it. */
#ifndef TK_INSTALL_PLUGIN_DIR
#define TK_INSTALL_PLUGIN_DIR "../lib/taikai/plugins"
#endif

int tk_plugin_dirs(const char **dirs, int max) {
  static char env[TK_PATH_MAX], exe[TK_PATH_MAX], installed[TK_PATH_MAX];
  int n = 0;
  const char *e = getenv("TAIKAI_PLUGIN_PATH");
  if (e && *e) {
    snprintf(env, sizeof env, "%s", e);
    for (char *save = NULL, *tok = strtok_r(env, ":", &save); tok && n < max;
         tok = strtok_r(NULL, ":", &save))
      dirs[n++] = tok;
  }
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 16);
  if (len > 0 && n < max) {
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      char joined[TK_PATH_MAX + 64];
      snprintf(joined, sizeof joined, "%s/" TK_INSTALL_PLUGIN_DIR, exe);
      if (!realpath(joined, installed)) installed[0] = '\0'; /* no such folder */
      strcpy(slash, "/plugins");
      dirs[n++] = exe;
      /* Only when it exists: a build tree has none, and listing it would only add noise. */
      if (n < max && installed[0] && is_dir(installed)) dirs[n++] = installed;
    }
  }
  return n;
}

int tk_plugin_find(const char *name, const char *spec_dir, char *out, size_t cap,
                   tk_error *err) {
  size_t len = strlen(name);
  if (strchr(name, '/') || (len > 3 && !strcmp(name + len - 3, ".so"))) {
    /* "x.so" in the current folder: "./x.so", since dlopen searches the library path for a
     * name without '/' */
    snprintf(out, cap, "%s%s", strchr(name, '/') ? "" : "./", name);
    if (is_file(out)) return 0;
    if (spec_dir && name[0] != '/') {
      snprintf(out, cap, "%s/%s", spec_dir, name);
      if (is_file(out)) return 0;
    }
    return tk_error_set(err, TK_ENOTFOUND, -1, "%s: plugin file not found", name);
  }
  const char *dirs[16];
  int n = tk_plugin_dirs(dirs, 16);
  char where[1024] = "";
  for (int i = 0; i < n; i++) {
    snprintf(out, cap, "%s/%s.so", dirs[i], name);
    if (is_file(out)) return 0;
    size_t w = strlen(where);
    snprintf(where + w, sizeof where - w, "%s%s", w ? ", " : "", dirs[i]);
  }
  return tk_error_set(err, TK_ENOTFOUND, -1,
                      "plugin '%s' not found (looked for %s.so in: %s; set TAIKAI_PLUGIN_PATH "
                      "or give a path)",
                      name, name, n ? where : "no folders");
}

int tk_plugin_text_check(const char *s, char *why, size_t cap) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; u[i];) {
    unsigned c = u[i];
    int len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
              : (c & 0xf8) == 0xf0 ? 4 : 0;
    uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    int k = 1;
    for (; len && k < len && (u[i + k] & 0xc0) == 0x80; k++) cp = cp << 6 | (u[i + k] & 0x3f);
    static const uint32_t shortest[5] = {0, 0, 0x80, 0x800, 0x10000};
    int bad_form = !len || k < len || cp < shortest[len] || cp > 0x10ffff ||
                   (cp >= 0xd800 && cp <= 0xdfff);
    if (bad_form) {
      snprintf(why, cap, "byte 0x%02x at offset %zu is not UTF-8", c, i);
      return -1;
    }
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      snprintf(why, cap, "control character U+%04X at offset %zu", (unsigned)cp, i);
      return -1;
    }
    i += (size_t)len;
  }
  return 0;
}

/* `s` quoted for a message: printable ASCII as is, '"' and '\\' escaped, other bytes \xNN. */
static void quoted(const char *s, char *out, size_t cap) {
  size_t n = 0;
  if (cap < 8) return;
  out[n++] = '"';
  for (const unsigned char *u = (const unsigned char *)s; *u && n + 6 < cap; u++) {
    if (*u == '"' || *u == '\\') n += (size_t)snprintf(out + n, cap - n, "\\%c", *u);
    else if (*u >= 0x20 && *u < 0x7f) out[n++] = (char)*u;
    else n += (size_t)snprintf(out + n, cap - n, "\\x%02x", *u);
  }
  out[n++] = '"';
  out[n] = '\0';
}

/* Whether `s` is 1 to TK_PLUGIN_NAME_MAX characters among a-z 0-9 _ -. */
static int name_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > TK_PLUGIN_NAME_MAX) return 0;
  return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* The first problem of the descriptor's text fields, written to `why`; 0 if none. */
static int metadata_problem(const tk_agent_descriptor *d, char *why, size_t cap) {
  char q[96], detail[96];
  const char *fields[2] = {"name", "game"};
  const char *values[2] = {d->name, d->game};
  for (int i = 0; i < 2; i++)
    if (!name_ok(values[i])) {
      quoted(values[i], q, sizeof q);
      snprintf(why, cap, "descriptor field '%s' is %s: expected 1 to %d characters among a-z, "
               "0-9, _ and -", fields[i], q, TK_PLUGIN_NAME_MAX);
      return 1;
    }
  quoted(d->version, q, sizeof q);
  if (!d->version[0] || strlen(d->version) > TK_PLUGIN_VERSION_MAX || strchr(d->version, '|')) {
    snprintf(why, cap, "descriptor field 'version' is %s: expected 1 to %d bytes without '|'", q,
             TK_PLUGIN_VERSION_MAX);
    return 1;
  }
  if (tk_plugin_text_check(d->version, detail, sizeof detail)) {
    snprintf(why, cap, "descriptor field 'version' is %s: %s", q, detail);
    return 1;
  }
  if (d->description && tk_plugin_text_check(d->description, detail, sizeof detail)) {
    quoted(d->description, q, 40);
    snprintf(why, cap, "descriptor field 'description' (%s...): %s", q, detail);
    return 1;
  }
  return 0;
}

static int refuse(tk_plugin *p, tk_error *err, int code, const char *fmt, const char *a,
                  const char *b) {
  char msg[TK_ERROR_MSG_MAX];
  snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
  tk_error_set(err, code, -1, "%s: %s", p->path, msg);
  if (p->handle) dlclose(p->handle);
  p->handle = NULL;
  p->desc = NULL;
  free(p->own);
  p->own = NULL;
  return code;
}

int tk_plugin_open(tk_plugin *p, const char *path, const char *game, tk_error *err) {
  memset(p, 0, sizeof *p);
  snprintf(p->path, sizeof p->path, "%s", path);
  tk_error herr;
  tk_error_clear(&herr);
  if (tk_sha256_file(path, p->sha256, &herr)) { /* "<path>: cannot open: <reason>" */
    const char *reason = strrchr(herr.msg, ':');
    return refuse(p, err, TK_EIO, "cannot load: %.120s%s", reason ? reason + 2 : herr.msg, NULL);
  }
  dlerror();
  p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!p->handle) return refuse(p, err, TK_EIO, "cannot load: %s%s", dlerror(), NULL);
  dlerror();
  void *sym = dlsym(p->handle, TK_AGENT_ENTRY_SYMBOL);
  if (!sym)
    return refuse(p, err, TK_ENOTFOUND,
                  "not a taikai plugin: no symbol '" TK_AGENT_ENTRY_SYMBOL "' (%s)%s", dlerror(),
                  NULL);
  tk_agent_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry); /* object-to-function pointer, as POSIX allows */
  const tk_agent_descriptor *d = entry();
  if (!d) return refuse(p, err, TK_EABI, "%s%s", TK_AGENT_ENTRY_SYMBOL "() returned NULL", NULL);
  char a[64], b[64];
  if (d->abi_version != TK_AGENT_ABI_VERSION) {
    snprintf(a, sizeof a, "%u", (unsigned)d->abi_version);
    snprintf(b, sizeof b, "%u", (unsigned)TK_AGENT_ABI_VERSION);
    return refuse(p, err, TK_EABI, "ABI version %s, this taikai supports version %s (rebuild "
                  "the plugin against this taikai's include/taikai/agent.h)", a, b);
  }
  if (d->struct_size < TK_AGENT_DESCRIPTOR_V2_BASE) {
    snprintf(a, sizeof a, "%u", (unsigned)d->struct_size);
    snprintf(b, sizeof b, "%u", (unsigned)TK_AGENT_DESCRIPTOR_V2_BASE);
    return refuse(p, err, TK_EABI, "descriptor size %s bytes, ABI version 2 needs %s", a, b);
  }
  /* the fields the plugin declares; those appended after its struct_size stay NULL */
  if (!(p->own = calloc(1, sizeof *p->own)))
    return refuse(p, err, TK_ENOMEM, "out of memory%s%s", NULL, NULL);
  memcpy(p->own, d, d->struct_size < sizeof *p->own ? d->struct_size : sizeof *p->own);
  d = p->own;
  const char *missing = !d->name ? "name" : !d->version ? "version" : !d->game ? "game"
                        : !d->params_json ? "params_json" : !d->create ? "create"
                        : !d->destroy ? "destroy" : !d->act ? "act" : NULL;
  if (missing) return refuse(p, err, TK_EABI, "descriptor field '%s' is NULL%s", missing, NULL);
  char why[TK_ERROR_MSG_MAX];
  if (metadata_problem(d, why, sizeof why))
    return refuse(p, err, TK_EINVAL, "%.180s (the name, version and description appear in reports "
                  "and spec.json)%s", why, NULL);
  if (game && strcmp(d->game, game))
    return refuse(p, err, TK_EINVAL, "plays game '%s', the spec's game is '%s'", d->game, game);
  const tk_game *g = tk_game_find(d->game);
  if (!g)
    return refuse(p, err, TK_EINVAL, "plays game '%s', which this taikai does not know (%s)",
                  d->game, tk_game_names());
  if (d->types_version != g->types_version) {
    char msg[160];
    snprintf(msg, sizeof msg, "built against %s types version %u, this taikai has version %u",
             g->name, (unsigned)d->types_version, (unsigned)g->types_version);
    return refuse(p, err, TK_EABI, "%s (rebuild the plugin against this taikai's headers)%s",
                  msg, NULL);
  }
  json_t *defaults = json_loads(d->params_json, 0, NULL);
  int ok = json_is_object(defaults);
  json_decref(defaults);
  if (!ok) return refuse(p, err, TK_EINVAL, "params_json is not a JSON object%s%s", NULL, NULL);
  p->desc = d;
  return 0;
}

void tk_plugin_close(tk_plugin *p) {
  if (!p) return;
  if (p->handle) dlclose(p->handle);
  p->handle = NULL;
  p->desc = NULL;
  free(p->own);
  p->own = NULL;
}

static const char *type_name(const json_t *v) {
  switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
  }
}

int tk_plugin_params(const tk_plugin *p, const char *label, json_t *params, json_t **resolved,
                     tk_error *err) {
  *resolved = NULL;
  json_t *out = json_loads(p->desc->params_json, 0, NULL);
  if (!json_is_object(out)) {
    json_decref(out);
    return tk_error_set(err, TK_EINVAL, -1, "%s: params_json is not a JSON object", p->path);
  }
  const char *key;
  json_t *v;
  json_object_foreach(params, key, v) {
    json_t *def = json_object_get(out, key);
    char val[96];
    if (!def) {
      char names[160] = "";
      const char *k2;
      json_t *v2;
      json_object_foreach(out, k2, v2) {
        size_t w = strlen(names);
        snprintf(names + w, sizeof names - w, "%s%s", w ? ", " : "", k2);
      }
      tk_error_set(err, TK_EINVAL, -1, "%s: agent '%s': unknown parameter '%s' (%s has %s)",
                   p->path, label, key, p->desc->name, names[0] ? names : "no parameters");
      json_decref(out);
      return TK_EINVAL;
    }
    int same = json_typeof(def) == json_typeof(v) || (json_is_boolean(def) && json_is_boolean(v)) ||
               (json_is_real(def) && json_is_integer(v));
    if (!same) {
      char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      snprintf(val, sizeof val, "%s", s ? s : "?");
      free(s);
      tk_error_set(err, TK_EINVAL, -1, "%s: agent '%s': parameter '%s' must be %s, got %s",
                   p->path, label, key, type_name(def), val);
      json_decref(out);
      return TK_EINVAL;
    }
    if (json_is_real(def) && json_is_integer(v))
      json_object_set_new(out, key, json_real((double)json_integer_value(v)));
    else
      json_object_set(out, key, v);
  }
  *resolved = out;
  return 0;
}

int tk_plugin_try_create(const tk_plugin *p, const char *params_json, uint64_t seed,
                         tk_error *err) {
  tk_error e;
  tk_error_clear(&e);
  tk_agent_instance *inst = p->desc->create(params_json, seed, &e);
  if (!inst)
    return tk_error_set(err, TK_EINVAL, -1, "%s: create failed: %s", p->path,
                        e.msg[0] ? e.msg : "(no reason given)");
  p->desc->destroy(inst);
  return 0;
}
