/* plugins/riichi_mcp/train.c — `riichi_mcp_train`: trains MCP or BCP (model.h) on example files
 * of riichi_mcp_records (mcp_io.h) and reports the held-out log loss and calibration.
 *
 *   riichi_mcp_train FILE... --model mcp|bcp --out WEIGHTS [--lambda L] [--l2 X] [--eta E]
 *                    [--delta D] [--holdout M] [--holdout-max H] [--bins B] [--max N]
 *                    [--snapshots N1,N2,...] [--format 2|1]
 *
 * Every file is read through first: a torn or corrupt file, or one of another feature version,
 * is refused (named) before any training. Examples whose hand % M == M - 1 (M = 10) are held out
 * (the first H = 100,000 of them are kept for evaluation); the others are trained on in file
 * order, once: the hands are independent draws, so the file order is already a random order.
 * The per-example L2 strength λ_e is, by default, the paper's regulariser λ‖w‖²/N read
 * literally and spread over the N training examples: λ_e = 2λ / N² (λ = 0.01); --l2 sets λ_e
 * directly. η0 = 0.1, δ = 1e-6, zero initial weights, a bias feature.
 * Snapshots: after 10^5, 10^6 and 10^7 training examples (--snapshots lists others, at most 16),
 * when there are that many, the weights are written to WEIGHTS.<count> (WEIGHTS.100000, ...);
 * the final ones to WEIGHTS.
 * Weights file: the project's sparse format (taikai/weights.h, format 2), model "riichi_mcp" /
 * "riichi_bcp", feature version ROF_FEATURE_VERSION, dense shape [K, D]: entry k * D + j is the
 * weight of row k (MCP class 0..4, BCP ">= k + 1 han") and feature j (j = D - 1 = ROF_FEATURES
 * the bias). Training runs in double; the file holds each weight's float32 rounding (the
 * entries rounding to zero are left out), so the same examples give the same bytes. After the
 * final write the model is rounded the same way, and the held-out log loss is printed for both
 * (the calibration table is the rounded model's, the one the plugins load). --format 1 writes
 * the older [nnz, 2] rows of (k * D + j, w) as f64 instead (16 bytes per weight, unrounded). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../riichi_oneplayer/features.h"
#include "mcp_io.h"
#include "opts.h"
#include "model.h"
#include "taikai/sha256.h"
#include "taikai/weights.h"

typedef struct heldout {
  uint32_t *f;
  size_t nf, cap;
  size_t *start;
  uint8_t *label;
  size_t n, capn;
} heldout;

/* Prints the usage after "riichi_mcp_train: MSG" to stderr and returns 2; with msg NULL (--help),
 * the usage alone to stdout, returning 1. */
static int usage(const char *msg) {
  if (msg) fprintf(stderr, "riichi_mcp_train: %s\n", msg);
  fprintf(msg ? stderr : stdout,
          "usage: riichi_mcp_train FILE... --model mcp|bcp --out WEIGHTS "
          "[--lambda L] [--l2 X] [--eta E] [--delta D] [--holdout M] [--holdout-max H] "
          "[--bins B] [--max N] [--snapshots N1,N2,...] [--format 2|1]\n");
  return msg ? 2 : 1;
}

static double eval(const mcm_model *m, const heldout *H) {
  double s = 0;
  for (size_t i = 0; i < H->n; i++)
    s += mcm_loss(m, H->f + H->start[i], (int)(H->start[i + 1] - H->start[i]), H->label[i]);
  return H->n ? s / (double)H->n : NAN;
}

/* A weight as the file keeps it: format 2 stores the float32 rounding, format 1 the double. */
static double stored(double w, int format) {
  if (format == 1 || !(fabs(w) <= FLT_MAX)) return w; /* beyond float32: the writer refuses it */
  return (double)(float)w;
}

/* Writes the nonzero stored weights of `m` to `path` in `format`: rows k * D + j over the dense
 * shape [K, D]. Prints a refusal and returns -1 on failure. */
static int save(const mcm_model *m, const char *path, int format, size_t *nnz_out, char *hex) {
  size_t K = (size_t)m->K, nnz = 0;
  for (size_t i = 0; i < K * m->D; i++) nnz += stored(m->w[i], format) != 0;
  tk_weights_sparse s;
  memset(&s, 0, sizeof s);
  snprintf(s.model, sizeof s.model, "%s", m->kind == MCM_MCP ? "riichi_mcp" : "riichi_bcp");
  s.feature_version = ROF_FEATURE_VERSION;
  s.ndims = 2;
  s.shape[0] = (uint32_t)K;
  s.shape[1] = m->D;
  s.nnz = nnz;
  s.index = malloc((nnz + 1) * sizeof *s.index);
  s.values = malloc((nnz + 1) * sizeof *s.values);
  tk_error err;
  tk_error_clear(&err);
  int rc = 0;
  if (!s.index || !s.values) {
    rc = tk_error_set(&err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  } else {
    size_t r = 0;
    for (size_t k = 0; k < K; k++)
      for (size_t j = 0; j < m->D; j++)
        if (stored(m->w[j * K + k], format) != 0) {
          s.index[r] = k * m->D + j;
          s.values[r++] = m->w[j * K + k];
        }
    if (format == 2) {
      rc = tk_weights_sparse_save(path, &s, &err);
    } else { /* the [nnz, 2] f64 rows */
      tk_weights w;
      memset(&w, 0, sizeof w);
      memcpy(w.model, s.model, sizeof w.model);
      w.feature_version = s.feature_version;
      w.ndims = 2;
      w.shape[0] = (uint32_t)nnz;
      w.shape[1] = 2;
      w.count = 2 * nnz;
      w.values = malloc((2 * nnz + 1) * sizeof *w.values);
      if (!w.values) {
        rc = tk_error_set(&err, TK_ENOMEM, -1, "weights %s: out of memory", path);
      } else {
        for (size_t i = 0; i < nnz; i++) {
          w.values[2 * i] = (double)s.index[i];
          w.values[2 * i + 1] = s.values[i];
        }
        rc = tk_weights_save(path, &w, &err);
      }
      free(w.values);
    }
  }
  free(s.index);
  free(s.values);
  if (rc || tk_sha256_file(path, hex, &err)) {
    fprintf(stderr, "riichi_mcp_train: %s\n", err.msg);
    return -1;
  }
  *nnz_out = nnz;
  return 0;
}

/* The command line. */
typedef struct config {
  const char *files[256], *out;
  int nfiles, kind; /* kind: MCM_MCP or MCM_BCP */
  uint64_t snaps[16];
  int nsnaps;
  double lambda, l2, eta0, delta, M, Hmax, bins, maxn;
  int format; /* 1 or 2 */
} config;

/* --snapshots N1,N2,...: up to 16 counts > 0. */
static int snapshots_opt(void *dest, const char *spelling, const char *v, tk_error *err) {
  config *c = dest;
  c->nsnaps = 0;
  for (const char *q = v; *q;) {
    char *end;
    unsigned long long x = strtoull(q, &end, 10);
    if (end == q || x == 0 || c->nsnaps == 16 || (*end && *end != ','))
      return tk_error_set(err, TK_EINVAL, -1, "%s: bad list '%s' (up to 16 counts > 0, "
                          "comma-separated)", spelling, v);
    c->snaps[c->nsnaps++] = x;
    q = *end ? end + 1 : end;
  }
  return 0;
}

/* Parses the command line into c: 0, 1 after --help, 2 on a usage error (printed). */
static int parse_config(int argc, char **argv, config *c) {
  static const char *const MODELS[] = {"mcp", "bcp", NULL};
  static const char *const FORMATS[] = {"1", "2", NULL};
  int model = -1, format = 1; /* FORMATS[1]: "2" */
  *c = (config){.snaps = {100000, 1000000, 10000000}, .nsnaps = 3, .lambda = 0.01, .l2 = -1,
                .eta0 = 0.1, .delta = 1e-6, .M = 10, .Hmax = 100000, .bins = 10};
#define AT_LEAST(x) .kind = TK_OPT_DOUBLE, .lo = (x), .hi = INFINITY
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &c->out, .value = "WEIGHTS"},
      {.name = "model", .kind = TK_OPT_CHOICE, .dest = &model, .choices = MODELS,
       .value = "mcp|bcp"},
      {.name = "lambda", AT_LEAST(0), .dest = &c->lambda, .value = "L"},
      {.name = "l2", AT_LEAST(0), .dest = &c->l2, .value = "X"},
      {.name = "eta", AT_LEAST(1e-12), .dest = &c->eta0, .value = "E"},
      {.name = "delta", AT_LEAST(0), .dest = &c->delta, .value = "D"},
      {.name = "holdout", AT_LEAST(2), .dest = &c->M, .value = "M"},
      {.name = "holdout-max", AT_LEAST(0), .dest = &c->Hmax, .value = "H"},
      {.name = "bins", AT_LEAST(1), .dest = &c->bins, .value = "B"},
      {.name = "max", AT_LEAST(0), .dest = &c->maxn, .value = "N"},
      {.name = "snapshots", .kind = TK_OPT_CALL, .dest = c, .call = snapshots_opt,
       .value = "N1,N2,..."},
      {.name = "format", .kind = TK_OPT_CHOICE, .dest = &format, .choices = FORMATS,
       .value = "2|1"},
      {.name = NULL},
  };
#undef AT_LEAST
  int prc = tk_opts_parse_prog("riichi_mcp_train", opts, argc, argv, c->files, 256, &c->nfiles);
  if (prc == 1) return usage(NULL);
  if (prc) return prc;
  if (c->nfiles > 256) return usage("too many files (256 at most)");
  if (!c->nfiles || !c->out || model < 0) return usage("FILE..., --model and --out are required");
  c->kind = model ? MCM_BCP : MCM_MCP;
  c->format = format + 1;
  return 0;
}

/* Pass 1: reads every file whole (refusing a torn or foreign one, named), counts the training
 * examples (at most c->maxn when it is not 0) and their labels, and keeps the first c->Hmax
 * held-out examples in H. Returns 0, or 1 (printed, but for out of memory). */
static int read_heldout(const config *c, heldout *H, uint64_t *ntrain_out, uint64_t *nheld_out,
                        uint64_t labels[MCX_CLASSES]) {
  static mcx_example e;
  tk_error err;
  tk_error_clear(&err);
  uint64_t hm = (uint64_t)c->M, ntrain = 0, nheld = 0;
  for (int fi = 0; fi < c->nfiles; fi++) {
    mcx_reader r;
    if (mcx_open(&r, c->files[fi], &err)) {
      fprintf(stderr, "riichi_mcp_train: %s\n", err.msg);
      return 1;
    }
    if (r.h.feature_version != ROF_FEATURE_VERSION) {
      fprintf(stderr, "riichi_mcp_train: %s: header: feature_version %u, this trainer's is %u\n",
              c->files[fi], r.h.feature_version, ROF_FEATURE_VERSION);
      return 1;
    }
    int rc;
    while ((rc = mcx_next(&r, &e, &err)) == 1) {
      for (int i = 0; i < e.n; i++)
        if (e.f[i] >= ROF_FEATURES) {
          fprintf(stderr, "riichi_mcp_train: %s: record %llu: index %u >= %d\n", c->files[fi],
                  (unsigned long long)(r.records - 1), e.f[i], ROF_FEATURES);
          return 1;
        }
      if (e.hand % hm == hm - 1) {
        nheld++;
        if ((double)H->n >= c->Hmax) continue;
        if (H->n + 2 > H->capn) {
          H->capn = H->capn ? 2 * H->capn : 1024;
          H->start = realloc(H->start, H->capn * sizeof *H->start);
          H->label = realloc(H->label, H->capn);
        }
        if (H->nf + e.n > H->cap) {
          H->cap = (H->cap + e.n) * 2;
          H->f = realloc(H->f, H->cap * sizeof *H->f);
        }
        if (!H->start || !H->label || !H->f) return 1;
        H->start[H->n] = H->nf;
        memcpy(H->f + H->nf, e.f, e.n * sizeof *e.f);
        H->nf += e.n;
        H->label[H->n++] = e.label;
        H->start[H->n] = H->nf;
      } else if (c->maxn == 0 || (double)ntrain < c->maxn) {
        ntrain++;
        labels[e.label]++;
      }
    }
    mcx_close(&r);
    if (rc < 0) {
      fprintf(stderr, "riichi_mcp_train: %s (refused)\n", err.msg);
      return 1;
    }
  }
  *ntrain_out = ntrain;
  *nheld_out = nheld;
  return 0;
}

/* Pass 2: trains m on the first ntrain training examples of the files, once, in file order,
 * printing the held-out log loss at 1000, 10^4, ... examples and writing the snapshots; the
 * examples trained on into *seen_out and the CPU seconds of the updates into *cpu. Returns 0,
 * or 1. */
static int train_pass(const config *c, mcm_model *m, const heldout *H, uint64_t ntrain,
                      uint64_t *seen_out, double *cpu) {
  static mcx_example e;
  tk_error err;
  tk_error_clear(&err);
  uint64_t hm = (uint64_t)c->M, seen = 0, next_report = 1000;
  size_t nnz;
  char hex[TK_SHA256_HEX], path[4096];
  for (int fi = 0; fi < c->nfiles && seen < ntrain; fi++) {
    mcx_reader r;
    if (mcx_open(&r, c->files[fi], &err)) return 1;
    while (seen < ntrain && mcx_next(&r, &e, &err) == 1) {
      if (e.hand % hm == hm - 1) continue;
      clock_t c0 = clock();
      mcm_update(m, e.f, e.n, e.label);
      *cpu += (double)(clock() - c0) / CLOCKS_PER_SEC;
      seen++;
      if (seen == next_report || seen == ntrain) {
        printf("| %llu | %.5f |\n", (unsigned long long)seen, eval(m, H));
        next_report *= 10;
      }
      int snap = 0;
      for (int i = 0; i < c->nsnaps; i++) snap |= seen == c->snaps[i];
      if (snap) {
        mcm_finalize(m);
        snprintf(path, sizeof path, "%s.%llu", c->out, (unsigned long long)seen);
        if (save(m, path, c->format, &nnz, hex)) return 1;
        printf("snapshot %s: held-out log loss %.5f, %zu nonzero weights, sha256 %s\n", path,
               eval(m, H), nnz, hex);
      }
    }
    mcx_close(&r);
  }
  *seen_out = seen;
  return 0;
}

/* Prints, per class, bins of the predicted probability of m on H against the observed
 * frequency. */
static void print_calibration(const mcm_model *m, const heldout *H, int B, int kind) {
  double *sp = calloc((size_t)5 * B, sizeof *sp), *so = calloc((size_t)5 * B, sizeof *so);
  uint64_t *cnt = calloc((size_t)5 * B, sizeof *cnt);
  int ge = kind == MCM_BCP;
  for (size_t i = 0; i < H->n; i++) {
    double p[5];
    const uint32_t *f = H->f + H->start[i];
    int n = (int)(H->start[i + 1] - H->start[i]);
    mcm_predict(m, f, n, p);
    for (int h = ge; h < 5; h++) {
      int b = (int)(p[h] * B);
      if (b >= B) b = B - 1;
      int obs = ge ? H->label[i] >= h : H->label[i] == h;
      sp[h * B + b] += p[h];
      so[h * B + b] += obs;
      cnt[h * B + b]++;
    }
  }
  printf("\nheld-out calibration (%s): predicted vs observed frequency per bin\n\n",
         ge ? "P(>= h han)" : "P(h han), h = 0 no win, 4 = 4+");
  printf("| class | bin | examples | mean predicted | observed |\n|---|---|---|---|---|\n");
  for (int h = ge; h < 5; h++)
    for (int b = 0; b < B; b++)
      if (cnt[h * B + b])
        printf("| %s%d | %.2f-%.2f | %llu | %.4f | %.4f |\n", ge ? ">=" : "", h, (double)b / B,
               (double)(b + 1) / B, (unsigned long long)cnt[h * B + b],
               sp[h * B + b] / (double)cnt[h * B + b], so[h * B + b] / (double)cnt[h * B + b]);
  free(sp);
  free(so);
  free(cnt);
}

int main(int argc, char **argv) {
  static config c;
  int prc = parse_config(argc, argv, &c);
  if (prc) return prc == 1 ? 0 : 2;
  heldout H;
  memset(&H, 0, sizeof H);
  uint64_t ntrain = 0, nheld = 0, labels[MCX_CLASSES] = {0};
  if (read_heldout(&c, &H, &ntrain, &nheld, labels)) return 1;
  if (ntrain == 0) {
    fprintf(stderr, "riichi_mcp_train: no training examples in the files\n");
    return 1;
  }
  double lam_e = c.l2 >= 0 ? c.l2 : 2 * c.lambda / ((double)ntrain * (double)ntrain);
  mcm_model m;
  if (mcm_init(&m, c.kind, ROF_FEATURES, c.eta0, c.delta, lam_e)) {
    fprintf(stderr, "riichi_mcp_train: out of memory\n");
    return 1;
  }
  printf("%s: %llu training examples (labels 0..4: %llu %llu %llu %llu %llu), %llu held out "
         "(%zu evaluated); eta0 %g, delta %g, per-example L2 %g\n",
         c.kind == MCM_BCP ? "bcp" : "mcp", (unsigned long long)ntrain,
         (unsigned long long)labels[0], (unsigned long long)labels[1],
         (unsigned long long)labels[2], (unsigned long long)labels[3],
         (unsigned long long)labels[4], (unsigned long long)nheld, H.n, c.eta0, c.delta, lam_e);
  printf("| examples | held-out log loss |\n|---|---|\n| 0 | %.5f |\n", eval(&m, &H));
  double cpu = 0;
  uint64_t seen = 0;
  if (train_pass(&c, &m, &H, ntrain, &seen, &cpu)) return 1;
  size_t nnz;
  char hex[TK_SHA256_HEX];
  mcm_finalize(&m);
  if (save(&m, c.out, c.format, &nnz, hex)) return 1;
  printf("weights %s: %zu nonzero weights, sha256 %s\n", c.out, nnz, hex);
  double loss_double = eval(&m, &H);
  for (size_t i = 0; i < (size_t)m.K * m.D; i++) m.w[i] = stored(m.w[i], c.format);
  double loss_saved = eval(&m, &H);
  printf("held-out log loss %.6f with the weights in double, %.6f as saved (%s): %+.2e\n",
         loss_double, loss_saved, c.format == 2 ? "float32" : "double", loss_saved - loss_double);
  printf("training CPU %.3f s, %.2f us per example\n", cpu, 1e6 * cpu / (double)seen);
  print_calibration(&m, &H, (int)c.bins, c.kind);
  mcm_free(&m);
  free(H.f);
  free(H.start);
  free(H.label);
  return 0;
}
