/* harness/cmd/bench_pool.c — `taikai bench pool`: what the worker pool costs and how it would
 * scale. Runs a spec through the whole referee into a temporary folder (games.jsonl,
 * games.chain, summary.json written as by `taikai run`), then prints the parent's CPU per unit,
 * the spread of the units' CPU, and the speed-up that tk_pool_model projects from them at more
 * workers. With --model it projects from unit times saved by an earlier --times. See
 * docs/scaling.md. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "pool.h"

static const int PROJECT[] = {2, 4, 8, 16, 32};

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai bench pool SPEC [--walls N] [-j N] [--times FILE]\n"
          "       taikai bench pool --model FILE --parent-us P [--fixed-ms F]\n\n"
          "Plays SPEC (its walls, or N) in -j worker processes (default 2) into a temporary\n"
          "folder, removed afterwards, and prints the parent's CPU per unit (its own time,\n"
          "workers not counted: pipes, reordering, lines, games.chain, tallies), the units'\n"
          "CPU (mean, spread, longest), and the speed-up the pool's model projects at 2 to 32\n"
          "workers with a core each (docs/scaling.md). --times writes each unit's CPU in ns,\n"
          "one a line in unit order; --model projects from such a file, a parent cost of P\n"
          "microseconds per unit and F milliseconds of fixed cost, without playing.\n"
          "The fixed cost is what no worker count shortens: preparing the run (plugins, the\n"
          "game's tables, trial creates), the parent's work outside the pool (spec.json,\n"
          "summary.json, report.md) and one worker's start and end (creating its agents).\n");
}

/* CPU time (user + system) in ns of this process (`who` RUSAGE_SELF) or of its reaped children
 * (RUSAGE_CHILDREN). */
static int64_t cpu_ns(int who) {
  struct rusage ru;
  if (getrusage(who, &ru)) return 0;
  return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
         ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* Prints the spread of t[0..n) and the speed-ups projected with `parent_ns` per unit and
 * `fixed_ns` of the run that no worker count shortens (docs/scaling.md): at J workers
 * T(J) = fixed + tk_pool_model(J), against T(1) = fixed + the units' CPU (one worker, the
 * parent beside it on a core of its own). */
static void project(const int64_t *t, uint64_t n, int64_t parent_ns, int64_t fixed_ns) {
  double sum = 0, sq = 0;
  int64_t max = 0;
  for (uint64_t i = 0; i < n; i++) {
    sum += (double)t[i];
    sq += (double)t[i] * (double)t[i];
    if (t[i] > max) max = t[i];
  }
  double mean = sum / (double)n, var = sq / (double)n - mean * mean;
  double sd = var > 0 ? sqrt(var) : 0;
  printf("  unit CPU: %llu units, mean %.3f ms, sd %.3f ms (cv %.2f), longest %.3f ms (%.1f x "
         "the mean), total %.2f s\n",
         (unsigned long long)n, mean / 1e6, sd / 1e6, mean > 0 ? sd / mean : 0, (double)max / 1e6,
         mean > 0 ? (double)max / mean : 0, sum / 1e9);
  printf("  parent: %.1f us per unit (%.2f %% of a unit's mean CPU)\n", (double)parent_ns / 1e3,
         mean > 0 ? 100 * (double)parent_ns / mean : 0);
  printf("  projected with a core per worker (tk_pool_model), fixed %.3f s:\n"
         "           pool alone                whole run\n", (double)fixed_ns / 1e9);
  for (size_t k = 0; k < sizeof PROJECT / sizeof PROJECT[0]; k++) {
    int64_t span = tk_pool_model(t, n, PROJECT[k], parent_ns);
    if (span <= 0) continue;
    double s = sum / (double)span, w = (sum + (double)fixed_ns) / (double)(span + fixed_ns);
    printf("    -j %-3d %6.2f x (%.3f of linear)   %6.2f x (%.3f of linear)\n", PROJECT[k], s,
           s / PROJECT[k], w, w / PROJECT[k]);
  }
}

static int model_only(const char *path, double parent_us, double fixed_ms) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "taikai bench pool: %s: %s\n", path, strerror(errno));
    return 2;
  }
  uint64_t n = 0, cap = 1024;
  int64_t *t = malloc(cap * sizeof *t);
  long long v;
  while (t && fscanf(f, "%lld", &v) == 1) {
    if (n == cap) {
      int64_t *nt = realloc(t, (cap *= 2) * sizeof *t);
      if (!nt) free(t);
      t = nt;
      if (!t) break;
    }
    t[n++] = v < 0 ? 0 : (int64_t)v;
  }
  fclose(f);
  if (!t || !n) {
    fprintf(stderr, "taikai bench pool: %s: no unit times\n", path);
    free(t);
    return 2;
  }
  printf("pool model: %s\n", path);
  project(t, n, (int64_t)(parent_us * 1e3), (int64_t)(fixed_ms * 1e6));
  free(t);
  return 0;
}

int tk_bench_pool(int argc, char **argv) {
  long walls = 0, jobs = 2;
  const char *spec_path = NULL, *times = NULL, *model = NULL;
  double parent_us = -1, fixed_ms = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--walls") && v) {
      walls = atol(v), i++;
    } else if (!strcmp(argv[i], "-j") && v) {
      jobs = atol(v), i++;
    } else if (!strcmp(argv[i], "--times") && v) {
      times = v, i++;
    } else if (!strcmp(argv[i], "--model") && v) {
      model = v, i++;
    } else if (!strcmp(argv[i], "--parent-us") && v) {
      parent_us = atof(v), i++;
    } else if (!strcmp(argv[i], "--fixed-ms") && v) {
      fixed_ms = atof(v), i++;
    } else if (argv[i][0] != '-' && !spec_path) {
      spec_path = argv[i];
    } else {
      fprintf(stderr, "taikai bench pool: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (model) {
    if (parent_us < 0) {
      fprintf(stderr, "taikai bench pool: --model needs --parent-us\n");
      return 2;
    }
    return model_only(model, parent_us, fixed_ms);
  }
  if (!spec_path || walls < 0 || jobs < 1 || jobs > 1024) {
    usage(stderr);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  tk_spec spec;
  if (tk_spec_load(spec_path, &spec, &err)) {
    fprintf(stderr, "taikai bench pool: %s\n", err.msg);
    return 2;
  }
  if (walls) spec.walls = (uint64_t)walls;
  char dirbuf[4096], tmp[4200];
  snprintf(dirbuf, sizeof dirbuf, "%s", spec_path);
  const char *tmpdir = getenv("TMPDIR");
  snprintf(tmp, sizeof tmp, "%s/taikai-bench-pool-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(tmp)) {
    fprintf(stderr, "taikai bench pool: %s: %s\n", tmp, strerror(errno));
    tk_spec_free(&spec);
    return 1;
  }
  int64_t self0 = cpu_ns(RUSAGE_SELF), kids0 = cpu_ns(RUSAGE_CHILDREN);
  tk_run run;
  if (tk_run_prepare(&run, &spec, dirname(dirbuf), &err)) {
    fprintf(stderr, "taikai bench pool: refused: %s\n", err.msg);
    rmdir(tmp);
    return 2;
  }
  uint64_t first = 0, end = 0;
  tk_run_units(&run, &first, &end);
  uint64_t n = end - first;
  int64_t *t = calloc(n ? n : 1, sizeof *t);
  if (!t) {
    fprintf(stderr, "taikai bench pool: out of memory\n");
    tk_run_free(&run);
    rmdir(tmp);
    return 1;
  }
  tk_pool_keep_unit_cpu(t, n);
  tk_run_opts o = {.jobs = (int)jobs, .out_dir = tmp, .progress = 0, .no_html = 1,
                   .cmd = "taikai bench pool"};
  json_t *sum = NULL;
  int64_t self1 = cpu_ns(RUSAGE_SELF), kids1 = cpu_ns(RUSAGE_CHILDREN);
  int rc = tk_run_execute(&run, &o, &sum, &err);
  int64_t self2 = cpu_ns(RUSAGE_SELF), kids2 = cpu_ns(RUSAGE_CHILDREN);
  tk_pool_keep_unit_cpu(NULL, 0);
  tk_remove_flat_dir(tmp);
  json_decref(sum);
  if (rc) {
    fprintf(stderr, "taikai bench pool: %s\n", err.msg);
    free(t);
    tk_run_free(&run);
    return 1;
  }
  tk_pool_stats st;
  tk_pool_last_stats(&st);
  int64_t parent_ns = st.units ? st.parent_cpu_ns / (int64_t)st.units : 0;
  /* fixed: preparing (the parent and its trial creates), the parent outside the pool, and one
   * worker's CPU outside its units (its start, its agents' create and destroy) */
  int64_t prepare = (self1 - self0) + (kids1 - kids0);
  int64_t outside = (self2 - self1) - st.parent_cpu_ns;
  int64_t per_worker = st.jobs ? ((kids2 - kids1) - st.unit_cpu_ns) / st.jobs : 0;
  if (outside < 0) outside = 0;
  if (per_worker < 0) per_worker = 0;
  int64_t fixed = prepare + outside + per_worker;
  printf("pool: %s, %llu walls, %llu units, -j %d: %.2f s wall, %llu commands (%.1f units "
         "each)\n",
         spec_path, (unsigned long long)run.spec.walls, (unsigned long long)st.units, st.jobs,
         (double)st.wall_ns / 1e9, (unsigned long long)st.commands,
         st.commands ? (double)st.units / (double)st.commands : 0);
  printf("  parent CPU: %.3f s (%.2f %% of the units' %.2f s)\n", (double)st.parent_cpu_ns / 1e9,
         st.unit_cpu_ns ? 100 * (double)st.parent_cpu_ns / (double)st.unit_cpu_ns : 0,
         (double)st.unit_cpu_ns / 1e9);
  printf("  fixed: %.3f s = preparing %.3f s + the parent outside the pool %.3f s + a worker "
         "outside its units %.3f s\n", (double)fixed / 1e9, (double)prepare / 1e9,
         (double)outside / 1e9, (double)per_worker / 1e9);
  if (st.units) project(t, st.units, parent_ns, fixed);
  if (times) {
    FILE *f = fopen(times, "w");
    if (!f) {
      fprintf(stderr, "taikai bench pool: %s: %s\n", times, strerror(errno));
      rc = 1;
    } else {
      for (uint64_t i = 0; i < st.units; i++) fprintf(f, "%lld\n", (long long)t[i]);
      if (fclose(f)) rc = 1;
    }
  }
  free(t);
  tk_run_free(&run);
  return rc ? 1 : 0;
}
