/* tests/referee/test_ref_param_types.c — every built plugin's params_json declares each number's
 * type as the plugin parses it. The referee checks a spec's parameter against the type of its
 * default (harness/core/loader.c, tk_plugin_params): a default written as an integer refuses
 * 0.5 before the plugin sees it. So for each integer default, the plugin given that value plus
 * or minus one half must refuse it too; a plugin that accepts it wanted a real default ("beta": 1.0),
 * else a user's real value is refused by the referee for no reason of the plugin's. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "unit.h"

static int is_plugin(const char *name) {
  size_t n = strlen(name);
  return n > 3 && !strcmp(name + n - 3, ".so");
}

static void integer_defaults_refuse_fractions(void) {
  DIR *d = opendir(TK_PLUGIN_DIR);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  int plugins = 0, checked = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!is_plugin(e->d_name)) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", TK_PLUGIN_DIR, e->d_name);
    tk_plugin p;
    tk_error err;
    tk_error_clear(&err);
    if (tk_plugin_open(&p, path, NULL, &err)) continue; /* a fixture that is no agent */
    json_t *defaults = json_loads(p.desc->params_json, 0, NULL);
    /* only plugins that start with their defaults (an external bot's wants a command) */
    if (!json_is_object(defaults) || tk_plugin_try_create(&p, p.desc->params_json, 1, &err)) {
      json_decref(defaults);
      tk_plugin_close(&p);
      continue;
    }
    plugins++;
    const char *key;
    json_t *v;
    json_object_foreach(defaults, key, v) {
      if (!json_is_integer(v)) continue;
      for (int side = -1; side <= 1; side += 2) { /* a half below and above: one may be out of
                                                     range (beta's 1.5) */
        double x = (double)json_integer_value(v) + 0.5 * side;
        json_t *params = json_deep_copy(defaults);
        json_object_set_new(params, key, json_real(x));
        char *text = json_dumps(params, JSON_COMPACT);
        tk_error_clear(&err);
        if (!tk_plugin_try_create(&p, text, 1, &err))
          TK_FAILF("%s: parameter '%s' is declared an integer (%lld) but the plugin accepts %.1f: "
                   "write its default as a real number", p.desc->name, key,
                   (long long)json_integer_value(v), x);
        free(text);
        json_decref(params);
      }
      checked++;
    }
    json_decref(defaults);
    tk_plugin_close(&p);
  }
  closedir(d);
  printf("\n  %d plugins, %d integer parameters checked\n", plugins, checked);
  if (plugins < 20 || checked < 10)
    TK_FAILF("only %d plugins and %d integer parameters found in %s", plugins, checked,
             TK_PLUGIN_DIR);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"integer defaults: the plugin refuses a fraction too", integer_defaults_refuse_fractions},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ref_param_types", tests);
}
