/* harness/core/readfile.c — JSON files read through taikai/file.h (readfile.h). */
#include <stdio.h>

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
