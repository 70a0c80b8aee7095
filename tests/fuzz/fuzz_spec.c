/* tests/fuzz/fuzz_spec.c — libFuzzer harness for tournament specs (harness/core/spec.c and each
 * game's rules parser): tk_spec_parse on any bytes must either refuse them with a message that
 * names the file, or accept a spec whose resolved form (tk_spec_to_json, what spec.json holds)
 * parses again to the same resolved form; the game's rule options are then validated by its
 * driver like `taikai run` does. Built with -DTAIKAI_FUZZ=ON (tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "spec.h"

#define CHECK(c)                                                           \
  do {                                                                     \
    if (!(c)) {                                                            \
      fprintf(stderr, "fuzz_spec: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                             \
    }                                                                      \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_spec_parse(text, "fuzz.json", &s, &e);
  if (rc) {
    CHECK(rc < 0 && e.code == rc);
    CHECK(strstr(e.msg, "fuzz.json") != NULL);
    free(text);
    return 0;
  }
  CHECK(s.game && s.nagents >= 1 && s.nagents <= TK_SPEC_MAX_AGENTS && s.output);
  CHECK(s.walls >= 1);
  json_t *j = tk_spec_to_json(&s);
  CHECK(j);
  char *again = json_dumps(j, JSON_COMPACT);
  CHECK(again);
  tk_spec s2;
  tk_error_clear(&e);
  rc = tk_spec_parse(again, "fuzz.json", &s2, &e);
  if (rc) fprintf(stderr, "resolved spec refused: %s\n%s\n", e.msg, again);
  CHECK(rc == 0);
  json_t *j2 = tk_spec_to_json(&s2);
  CHECK(json_equal(j, j2));
  const tk_game *g = tk_game_find(s.game);
  if (g) {
    void *rules = calloc(1, g->rules_size ? g->rules_size : 1);
    json_t *resolved = NULL;
    tk_error_clear(&e);
    rc = g->parse_rules(s.rules, rules, &resolved, s.path, &e);
    if (rc) {
      CHECK(rc < 0 && strstr(e.msg, "rules"));
    } else {
      CHECK(json_is_object(resolved));
      /* the resolved rules are accepted again as they are */
      json_t *r2 = NULL;
      CHECK(g->parse_rules(resolved, rules, &r2, s.path, NULL) == 0);
      CHECK(json_equal(resolved, r2));
      json_decref(r2);
    }
    json_decref(resolved);
    free(rules);
  }
  json_decref(j);
  json_decref(j2);
  free(again);
  tk_spec_free(&s);
  tk_spec_free(&s2);
  free(text);
  return 0;
}
