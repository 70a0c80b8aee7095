/* harness/core/run_dir.c — the output folder of a run: deciding whether a folder may take a run
 * (new, the same tournament to continue, or another one to refuse, saying what differs), and
 * writing whole files atomically (a temporary file renamed over the target), so that a killed
 * referee never leaves a half-written spec.json, summary.json or report.md. */
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
    d->len += (size_t)snprintf(d->buf + d->len, d->cap - d->len, "%s%s: %s there, %s here",
                               d->count > 1 ? "; " : "", path, a, b);
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
  json_error_t jerr;
  json_t *old = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
  if (!json_is_object(old)) {
    json_decref(old);
    return tk_error_set(err, TK_EINVAL, -1, "%s: not a taikai spec.json (%s): cannot tell which "
                        "tournament this folder holds; use another --out folder", path,
                        jerr.text);
  }
  json_t *now = tk_run_resolved_spec(r);
  char what[600] = "";
  diff_out d = {what, sizeof what, 0, 0};
  diff("", old, now, &d);
  json_decref(old);
  json_decref(now);
  if (d.count)
    return tk_error_set(err, TK_EINVAL, -1, "%s holds another tournament's run: cannot resume "
                        "it, will not overwrite it; its spec.json differs: %s", dir, what);
  *existing = 1;
  return 0;
}

int tk_write_atomic(const char *dir, const char *name, const char *text, size_t len,
                    tk_error *err) {
  char path[TK_PATH_MAX], tmp[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", tmp, strerror(errno));
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, text + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int e = errno;
      close(fd);
      unlink(tmp);
      return tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", tmp, strerror(e));
    }
    off += (size_t)w;
  }
  int bad = fsync(fd) != 0;
  int e = errno;
  if (close(fd) && !bad) bad = 1, e = errno;
  if (!bad && rename(tmp, path)) bad = 1, e = errno;
  if (bad) {
    unlink(tmp);
    return tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path, strerror(e));
  }
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
