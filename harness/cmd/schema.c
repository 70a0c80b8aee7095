/* harness/cmd/schema.c — `taikai schema`: the JSON Schema of a tournament spec, assembled from
 * the referee's part and each registered game's rules (tk_spec_schema, spec.h).
 * harness/spec.schema.json is its output, committed for editors and readers (test_ref_spec
 * checks that it is current). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "spec.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai schema\n"
          "\n"
          "Prints the JSON Schema (draft 2020-12) of the spec files of `taikai run` and\n"
          "`taikai serve`: the fields every spec shares and, for each game taikai knows, its\n"
          "\"rules\". harness/core/spec.c enforces the same rules (and names the field and\n"
          "value of every violation); this schema is for editors and readers.\n");
}

int tk_cmd_schema(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "taikai schema: unexpected argument '%s' (see taikai schema --help)\n",
            argv[1]);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  json_t *s = tk_spec_schema(&err);
  if (!s) {
    fprintf(stderr, "taikai schema: %s\n", err.msg);
    return 1;
  }
  int rc = json_dumpf(s, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) ? 1 : 0;
  json_decref(s);
  printf("\n");
  return rc;
}
