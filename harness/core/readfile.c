/* harness/core/readfile.c — JSON files read through taikai/file.h (readfile.h). */
#include <stdio.h>
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
