/* harness/core/readfile.c — JSON files read through taikai/file.h, files written whole
 * (readfile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readfile.h"
#include "taikai/file.h"

json_t *tk_json_load_path(const char *path, size_t flags, tk_error *err) {
  FILE *f;
  if (tk_file_fopen(path, "rb", TK_JSON_FILE_MAX, &f, err)) return NULL;
  json_error_t je;
  json_t *j = json_loadf(f, flags, &je);
  fclose(f);
  if (!j) tk_error_set(err, TK_EPARSE, -1, "%s: not JSON (line %d): %s", path, je.line, je.text);
  return j;
}

gzFile tk_games_open(const char *dir, char *path, size_t cap, tk_error *err) {
  snprintf(path, cap, "%s/games.jsonl", dir);
  if (tk_file_check(path, TK_FILE_ANY_SIZE, NULL) == TK_ENOTFOUND)
    snprintf(path, cap, "%s/games.jsonl.gz", dir);
  int fd = tk_file_open(path, TK_FILE_ANY_SIZE, NULL, err);
  if (fd < 0) return NULL;
  gzFile z = gzdopen(fd, "rb");
  if (!z) {
    close(fd);
    tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  return z;
}

int tk_mkdirs(const char *path, tk_error *err) {
  char buf[TK_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST)
        return tk_error_set(err, TK_EIO, -1, "%s: cannot create folder: %s", buf, strerror(errno));
      *p = c;
      if (!c) break;
    }
  }
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

void tk_remove_flat_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[TK_PATH_MAX + 300];
    while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
      }
    closedir(d);
  }
  rmdir(dir);
}
