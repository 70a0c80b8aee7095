/* harness/cmd/plugins.c — `taikai plugins [DIR|FILE]...`: what each plugin is (with the SHA-256
 * of its file, as a run's spec.json records it), or why it is refused. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "loader.h"
#include "opts.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai plugins [DIR|FILE]...\n"
          "\n"
          "Lists the agents taikai can load: name, version, game, description, parameters\n"
          "with their defaults and the SHA-256 of the file (what a run's spec.json records to\n"
          "tell builds apart). FILE is a plugin (.so); DIR is searched for *.so files. Without\n"
          "arguments, lists the folders searched for plugins named in specs: $TAIKAI_PLUGIN_PATH,\n"
          "then plugins/ beside the taikai executable, then the installed agents'\n"
          "../lib/taikai/plugins from the executable's folder (when it exists). A plugin that\n"
          "would be refused is shown with the reason; the exit status is then 1.\n");
}

static int show(const char *path) {
  tk_plugin p;
  tk_error err;
  tk_error_clear(&err);
  if (tk_plugin_open(&p, path, NULL, &err)) {
    printf("%s\n  refused: %s\n", path, err.msg);
    return 1;
  }
  const tk_agent_descriptor *d = p.desc;
  printf("%s %s  (game %s)  %s\n", d->name, d->version, d->game, path);
  if (d->description) printf("  %s\n", d->description);
  printf("  params: %s\n", d->params_json);
  printf("  sha256: %s\n", p.sha256);
  tk_plugin_close(&p);
  return 0;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int show_dir(const char *dir, int quiet_missing) {
  DIR *d = opendir(dir);
  if (!d) {
    if (!quiet_missing) fprintf(stderr, "taikai plugins: %s: cannot open folder\n", dir);
    return quiet_missing ? 0 : 1;
  }
  char **names = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len > 3 && !strcmp(e->d_name + len - 3, ".so")) {
      char **nn = realloc(names, (n + 1) * sizeof *names);
      if (!nn) break;
      names = nn;
      names[n++] = strdup(e->d_name);
    }
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    char path[TK_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    bad |= show(path);
    free(names[i]);
  }
  free(names);
  return bad;
}

int tk_cmd_plugins(int argc, char **argv) {
  int bad = 0, any = 0;
  const tk_opt none[] = {{.name = NULL}};
  const char **paths = calloc((size_t)argc, sizeof *paths);
  int npaths = 0, prc = paths ? tk_opts_parse("plugins", none, argc, argv, paths, argc, &npaths) : 2;
  if (prc == 1) usage(stdout);
  if (prc) {
    free(paths);
    return prc == 1 ? 0 : 2;
  }
  for (int i = 0; i < npaths; i++) {
    struct stat st;
    any = 1;
    if (stat(paths[i], &st)) {
      fprintf(stderr, "taikai plugins: %s: no such file or folder\n", paths[i]);
      bad = 1;
    } else if (S_ISDIR(st.st_mode)) {
      bad |= show_dir(paths[i], 0);
    } else {
      bad |= show(paths[i]);
    }
  }
  free(paths);
  if (!any) {
    const char *dirs[16];
    int n = tk_plugin_dirs(dirs, 16);
    char copy[16][TK_PATH_MAX];
    for (int i = 0; i < n; i++) snprintf(copy[i], sizeof copy[i], "%s", dirs[i]);
    for (int i = 0; i < n; i++) {
      printf("# %s\n", copy[i]);
      bad |= show_dir(copy[i], 1);
    }
  }
  return bad ? 1 : 0;
}
