/* harness/run/run_dir.c — the output folder of a run: deciding whether a folder may take a run
 * (new, the same tournament to continue, or another one to refuse, saying what differs: the
 * spec, or the bytes of a file that makes an agent what it is), and writing whole files
 * atomically (a temporary file renamed over the target), so that a killed referee never leaves
 * a half-written spec.json, summary.json or report.md. */
#define _DEFAULT_SOURCE 1 /* flock */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "readfile.h"
#include "taikai/file.h"

static int exists(const char *dir, const char *name) {
  char p[TK_PATH_MAX];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return stat(p, &st) == 0;
}

typedef struct diff_out {
  char *buf;
  size_t cap, len;
  int count;
  const char *there, *here; /* how each side is named: "there" / "here", "in DIR" */
} diff_out;

static void diff_add(diff_out *d, const char *path, const json_t *there, const json_t *here) {
  if (d->count++ >= 3) {
    if (d->count == 4 && d->len + 8 < d->cap) d->len += (size_t)snprintf(d->buf + d->len, d->cap - d->len, "; ...");
    return;
  }
  char a[80], b[80];
  if (there) tk_json_brief(there, a, sizeof a);
  else snprintf(a, sizeof a, "(absent)");
  if (here) tk_json_brief(here, b, sizeof b);
  else snprintf(b, sizeof b, "(absent)");
  if (d->len < d->cap)
    d->len += (size_t)snprintf(d->buf + d->len, d->cap - d->len, "%s%s: %s %s, %s %s",
                               d->count > 1 ? "; " : "", path, a, d->there, b, d->here);
  if (d->len >= d->cap) d->len = d->cap - 1;
}

/* Lists the differences between `there` (the folder's) and `here` (this run's). */
static void diff(const char *path, const json_t *there, const json_t *here, diff_out *d) {
  char sub[256];
  if (json_is_object(there) && json_is_object(here)) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)here, key, v) {
      if (!*path && !strcmp(key, "output")) continue; /* where it lives, not what it is */
      snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
      json_t *o = json_object_get(there, key);
      if (!o) diff_add(d, sub, NULL, v);
      else diff(sub, o, v, d);
    }
    json_object_foreach((json_t *)there, key, v) {
      if (!*path && !strcmp(key, "output")) continue;
      if (json_object_get(here, key)) continue;
      snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
      diff_add(d, sub, v, NULL);
    }
  } else if (json_is_array(there) && json_is_array(here)) {
    size_t n = json_array_size(there) > json_array_size(here) ? json_array_size(there)
                                                              : json_array_size(here);
    for (size_t i = 0; i < n; i++) {
      snprintf(sub, sizeof sub, "%s[%zu]", path, i);
      json_t *a = json_array_get(there, i), *b = json_array_get(here, i);
      if (!a || !b) diff_add(d, sub, a, b);
      else diff(sub, a, b, d);
    }
  } else if (!json_equal((json_t *)there, (json_t *)here)) {
    diff_add(d, *path ? path : "(spec)", there, here);
  }
}

/* Removes each agent's "files" from resolved spec `spec` and returns them, one array element
 * per agent (null for an agent without them), as a new array. */
static json_t *take_files(json_t *spec) {
  json_t *out = json_array(), *agents = json_object_get(spec, "agents");
  for (size_t i = 0; i < json_array_size(agents); i++) {
    json_t *a = json_array_get(agents, i), *f = json_object_get(a, "files");
    json_array_append(out, f ? f : json_null());
    if (f) json_object_del(a, "files");
  }
  return out;
}

int tk_spec_diff(const json_t *there, const json_t *here, const char *there_word,
                 const char *here_word, char *what, size_t cap) {
  json_t *a = json_deep_copy(there), *b = json_deep_copy(here);
  json_decref(take_files(a));
  json_decref(take_files(b));
  what[0] = '\0';
  diff_out d = {what, cap, 0, 0, there_word, here_word};
  diff("", a, b, &d);
  json_decref(a);
  json_decref(b);
  return d.count;
}

/* The entry of `files` with role `role`, or NULL. */
static json_t *file_of(const json_t *files, const char *role) {
  for (size_t i = 0; i < json_array_size(files); i++) {
    json_t *f = json_array_get(files, i);
    const char *r = json_string_value(json_object_get(f, "role"));
    if (r && !strcmp(r, role)) return f;
  }
  return NULL;
}

static const char *str_of(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "?";
}

void tk_spec_files_diff(const json_t *there, const json_t *here, tk_file_diff *d) {
  memset(d, 0, sizeof *d);
  json_t *agents = json_object_get(here, "agents"), *old_agents = json_object_get(there, "agents");
  for (size_t i = 0; i < json_array_size(agents); i++) {
    json_t *ag = json_array_get(agents, i);
    json_t *old = json_object_get(json_array_get(old_agents, i), "files");
    json_t *now = json_object_get(ag, "files");
    if (!now && !old) continue; /* an external seat (a client of `taikai serve`): no file */
    d->agent = (int)i;
    d->label = str_of(ag, "label");
    int hashed = json_is_array(old) && json_array_size(old) > 0;
    for (size_t k = 0; hashed && k < json_array_size(old); k++)
      hashed = json_string_length(json_object_get(json_array_get(old, k), "sha256")) == 64;
    if (!hashed) {
      d->kind = TK_FILES_UNHASHED;
      return;
    }
    for (size_t k = 0; k < json_array_size(now); k++) {
      json_t *f = json_array_get(now, k), *o = file_of(old, str_of(f, "role"));
      d->role = str_of(f, "role");
      d->path = str_of(f, "path");
      d->here = str_of(f, "sha256");
      if (!o) {
        d->kind = TK_FILES_ADDED;
        return;
      }
      d->there = str_of(o, "sha256");
      if (strcmp(d->there, d->here)) {
        d->kind = TK_FILES_CHANGED;
        return;
      }
    }
    for (size_t k = 0; k < json_array_size(old); k++) {
      json_t *o = json_array_get(old, k);
      if (!file_of(now, str_of(o, "role"))) {
        d->kind = TK_FILES_REMOVED;
        d->role = str_of(o, "role");
        d->path = str_of(o, "path");
        d->there = str_of(o, "sha256");
        d->here = NULL;
        return;
      }
    }
  }
  d->kind = TK_FILES_SAME;
}

/* Compares the files of every agent (`there`: the folder's spec.json, `here`: this run's) by
 * role and hash; the paths only inform. Returns 0 or TK_EINVAL naming the agent, the file and
 * both hashes (as much of them as a tk_error has room for). */
static int check_files(const char *dir, const json_t *there, const json_t *here, tk_error *err) {
  tk_file_diff fd;
  tk_spec_files_diff(there, here, &fd);
  const char *label = fd.label, *role = fd.role, *path = fd.path;
  switch (fd.kind) {
    case TK_FILES_SAME:
      return 0;
    case TK_FILES_UNHASHED:
      return tk_error_set(err, TK_EINVAL, -1, "%s: spec.json records no sha256 for agent "
                          "'%s' (a run from before taikai recorded plugin hashes): cannot tell "
                          "which build played its games; start a new folder", dir, label);
    case TK_FILES_ADDED:
      return tk_error_set(err, TK_EINVAL, -1, "%s: agent '%s': %s file %s was not part of the "
                          "run when it started: start a new folder", dir, label, role, path);
    case TK_FILES_REMOVED:
      return tk_error_set(err, TK_EINVAL, -1, "%s: agent '%s': the run started with %s file "
                          "%s, which this run does not have: start a new folder", dir, label,
                          role, path);
    default:
      break;
  }
  const char *a = fd.there, *b = fd.here;
  const char *fix = strcmp(role, "plugin") ? "restore the file as it was"
                                           : "rebuild the plugin as it was";
  /* the first form that fits in a tk_error: whole hashes, then 16 digits, then also the
   * file's name without its folder (spec.json holds the whole path), then also the output
   * folder's last component (the user named it on the command line) */
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t dlen = strlen(dir);
  while (dlen > 1 && dir[dlen - 1] == '/') dlen--;
  size_t dstart = dlen;
  while (dstart > 0 && dir[dstart - 1] != '/') dstart--;
  char msg[4 * TK_ERROR_MSG_MAX + 2 * TK_PATH_MAX];
  for (int form = 0; form < 4; form++) {
    int digits = form ? 16 : 64;
    int len = snprintf(msg, sizeof msg, "%.*s: agent '%s': %s changed since the run started "
                       "(sha256 %.*s%s in spec.json, now %.*s%s): start a new folder or %s",
                       form == 3 ? (int)(dlen - dstart) : (int)strlen(dir),
                       form == 3 ? dir + dstart : dir, label, form >= 2 ? base : path, digits,
                       a, form ? "..." : "", digits, b, form ? "..." : "", fix);
    if (len >= 0 && len < TK_ERROR_MSG_MAX) break;
  }
  return tk_error_set(err, TK_EINVAL, -1, "%s", msg);
}

int tk_outdir_check(const tk_run *r, const char *dir, int resume, int *existing,
                    tk_error *err) {
  *existing = 0;
  struct stat st;
  if (!dir || !*dir) return tk_error_set(err, TK_EINVAL, -1, "--out: empty folder name");
  if (stat(dir, &st) != 0) {
    if (errno != ENOENT)
      return tk_error_set(err, TK_EIO, -1, "%s: output folder: %s", dir, strerror(errno));
    if (resume)
      return tk_error_set(err, TK_EINVAL, -1, "%s: no such folder: nothing to resume", dir);
    return 0;
  }
  if (!S_ISDIR(st.st_mode))
    return tk_error_set(err, TK_EINVAL, -1, "%s: output folder: exists and is not a folder", dir);
  if (access(dir, W_OK | X_OK))
    return tk_error_set(err, TK_EIO, -1, "%s: output folder: not writable: %s", dir,
                        strerror(errno));
  if (!exists(dir, "spec.json")) {
    if (exists(dir, "games.jsonl") || exists(dir, "summary.json"))
      return tk_error_set(err, TK_EINVAL, -1, "%s: holds taikai results (games.jsonl or "
                          "summary.json) but no spec.json: cannot tell which tournament they "
                          "belong to; use another --out folder", dir);
    if (resume)
      return tk_error_set(err, TK_EINVAL, -1, "%s: no spec.json: nothing to resume", dir);
    return 0; /* an existing folder without a run */
  }
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/spec.json", dir);
  tk_error jerr;
  tk_error_clear(&jerr);
  json_t *old = tk_json_load_path(path, JSON_REJECT_DUPLICATES, &jerr);
  if (!json_is_object(old)) {
    json_decref(old);
    return tk_error_set(err, TK_EINVAL, -1, "%s (not a taikai spec.json): cannot tell which "
                        "tournament this folder holds; use another --out folder",
                        old ? path : jerr.msg);
  }
  /* the results files must be regular files too: a resume reads games.jsonl to its end */
  static const char *const results[] = {"games.jsonl", "games.chain", "summary.json",
                                         "records.tkr", "logs/run.index", "logs/run.jsonl",
                                         "logs/run.jsonl.gz"};
  for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
    char rp[TK_PATH_MAX + 16];
    snprintf(rp, sizeof rp, "%s/%s", dir, results[i]);
    int rc = exists(dir, results[i]) ? tk_file_check(rp, TK_FILE_ANY_SIZE, err) : 0;
    if (rc) {
      json_decref(old);
      return rc;
    }
  }
  /* the spec first (what differs there says most), then the files' bytes */
  json_t *now = tk_run_resolved_spec(r);
  /* a shard's spec file: where it was played from, not what it is */
  json_object_del(json_object_get(old, "shard"), "spec");
  json_object_del(json_object_get(now, "shard"), "spec");
  /* more walls than the folder's run: the same tournament, extended (not a shard: its walls
   * are a share of the tournament's) */
  int extend = 0;
  json_t *ow = json_object_get(old, "walls"), *nw = json_object_get(now, "walls");
  if (json_is_integer(ow) && json_is_integer(nw) && json_integer_value(nw) > json_integer_value(ow) &&
      !json_object_get(old, "shard") && !json_object_get(now, "shard")) {
    extend = 1;
    json_object_set(old, "walls", nw);
    json_t *nu = json_object_get(now, "units"); /* walls × seatings per wall */
    if (nu && json_object_get(old, "units")) json_object_set(old, "units", nu);
  }
  char what[600] = "";
  int rc = 0;
  if (tk_spec_diff(old, now, "there", "here", what, sizeof what))
    rc = tk_error_set(err, TK_EINVAL, -1, "%s holds another tournament's run: cannot resume "
                      "it, will not overwrite it; its spec.json differs: %s", dir, what);
  else
    rc = check_files(dir, old, now, err);
  json_decref(old);
  json_decref(now);
  if (rc) return rc;
  *existing = extend ? 2 : 1;
  return 0;
}

int tk_outdir_lock(const char *dir, tk_error *err) {
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/.taikai.lock", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return tk_error_set(err, TK_EIO, -1, "%s: cannot create: %s", path, strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB)) {
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK)
      return tk_error_set(err, TK_EINVAL, -1, "%s: another taikai run is writing into this "
                          "folder", dir);
    return tk_error_set(err, TK_EIO, -1, "%s: cannot lock: %s", path, strerror(e));
  }
  return fd;
}
