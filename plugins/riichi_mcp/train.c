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

static int usage(const char *msg) {
  fprintf(stderr,
          "riichi_mcp_train: %s\nusage: riichi_mcp_train FILE... --model mcp|bcp --out WEIGHTS "
          "[--lambda L] [--l2 X] [--eta E] [--delta D] [--holdout M] [--holdout-max H] "
          "[--bins B] [--max N] [--snapshots N1,N2,...] [--format 2|1]\n",
          msg);
  return 2;
}

static int num(const char *flag, const char *s, double lo, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (!*s || *end || !(v >= lo) || !isfinite(v)) {
    fprintf(stderr, "riichi_mcp_train: %s: bad value '%s' (a number >= %g)\n", flag, s, lo);
    return -1;
  }
  *out = v;
  return 0;
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

int main(int argc, char **argv) {
  const char *files[256], *out = NULL, *model = NULL;
  int nfiles = 0;
  uint64_t snaps[16] = {100000, 1000000, 10000000};
  int nsnaps = 3;
  double lambda = 0.01, l2 = -1, eta0 = 0.1, delta = 1e-6, M = 10, Hmax = 100000, bins = 10,
         maxn = 0, format = 2;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      if (nfiles == 256) return usage("too many files (256 at most)");
      files[nfiles++] = a;
      continue;
    }
    if (i + 1 >= argc) return usage("a flag without its value");
    const char *v = argv[++i];
    int bad = 0;
    if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "--model")) model = v;
    else if (!strcmp(a, "--lambda")) bad = num(a, v, 0, &lambda);
    else if (!strcmp(a, "--l2")) bad = num(a, v, 0, &l2);
    else if (!strcmp(a, "--eta")) bad = num(a, v, 1e-12, &eta0);
    else if (!strcmp(a, "--delta")) bad = num(a, v, 0, &delta);
    else if (!strcmp(a, "--holdout")) bad = num(a, v, 2, &M);
    else if (!strcmp(a, "--holdout-max")) bad = num(a, v, 0, &Hmax);
    else if (!strcmp(a, "--bins")) bad = num(a, v, 1, &bins);
    else if (!strcmp(a, "--max")) bad = num(a, v, 0, &maxn);
    else if (!strcmp(a, "--format")) {
      bad = num(a, v, 1, &format);
      if (!bad && format != 1 && format != 2) {
        fprintf(stderr, "riichi_mcp_train: --format: bad value '%s' (1 or 2)\n", v);
        bad = 1;
      }
    }
    else if (!strcmp(a, "--snapshots")) {
      nsnaps = 0;
      for (const char *q = v; *q;) {
        char *end;
        unsigned long long x = strtoull(q, &end, 10);
        if (end == q || x == 0 || nsnaps == 16 || (*end && *end != ',')) {
          fprintf(stderr, "riichi_mcp_train: --snapshots: bad list '%s' (up to 16 counts > 0, "
                          "comma-separated)\n", v);
          return 2;
        }
        snaps[nsnaps++] = x;
        q = *end ? end + 1 : end;
      }
    }
    else {
      fprintf(stderr, "riichi_mcp_train: unknown flag '%s'\n", a);
      return 2;
    }
    if (bad) return 2;
  }
  if (!nfiles || !out || !model) return usage("FILE..., --model and --out are required");
  int kind;
  if (!strcmp(model, "mcp")) kind = MCM_MCP;
  else if (!strcmp(model, "bcp")) kind = MCM_BCP;
  else {
    fprintf(stderr, "riichi_mcp_train: --model: '%s' is not mcp or bcp\n", model);
    return 2;
  }
  uint64_t hm = (uint64_t)M;
  /* Pass 1: check every file whole, count the training examples, keep the held-out ones. */
  static mcx_example e;
  tk_error err;
  tk_error_clear(&err);
  heldout H;
  memset(&H, 0, sizeof H);
  uint64_t ntrain = 0, nheld = 0, labels[MCX_CLASSES] = {0};
  for (int fi = 0; fi < nfiles; fi++) {
    mcx_reader r;
    if (mcx_open(&r, files[fi], &err)) {
      fprintf(stderr, "riichi_mcp_train: %s\n", err.msg);
      return 1;
    }
    if (r.h.feature_version != ROF_FEATURE_VERSION) {
      fprintf(stderr, "riichi_mcp_train: %s: header: feature_version %u, this trainer's is %u\n",
              files[fi], r.h.feature_version, ROF_FEATURE_VERSION);
      return 1;
    }
    int rc;
    while ((rc = mcx_next(&r, &e, &err)) == 1) {
      for (int i = 0; i < e.n; i++)
        if (e.f[i] >= ROF_FEATURES) {
          fprintf(stderr, "riichi_mcp_train: %s: record %llu: index %u >= %d\n", files[fi],
                  (unsigned long long)(r.records - 1), e.f[i], ROF_FEATURES);
          return 1;
        }
      if (e.hand % hm == hm - 1) {
        nheld++;
        if ((double)H.n >= Hmax) continue;
        if (H.n + 2 > H.capn) {
          H.capn = H.capn ? 2 * H.capn : 1024;
          H.start = realloc(H.start, H.capn * sizeof *H.start);
          H.label = realloc(H.label, H.capn);
        }
        if (H.nf + e.n > H.cap) {
          H.cap = (H.cap + e.n) * 2;
          H.f = realloc(H.f, H.cap * sizeof *H.f);
        }
        if (!H.start || !H.label || !H.f) return 1;
        H.start[H.n] = H.nf;
        memcpy(H.f + H.nf, e.f, e.n * sizeof *e.f);
        H.nf += e.n;
        H.label[H.n++] = e.label;
        H.start[H.n] = H.nf;
      } else if (maxn == 0 || (double)ntrain < maxn) {
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
  if (ntrain == 0) {
    fprintf(stderr, "riichi_mcp_train: no training examples in the files\n");
    return 1;
  }
  double lam_e = l2 >= 0 ? l2 : 2 * lambda / ((double)ntrain * (double)ntrain);
  mcm_model m;
  if (mcm_init(&m, kind, ROF_FEATURES, eta0, delta, lam_e)) {
    fprintf(stderr, "riichi_mcp_train: out of memory\n");
    return 1;
  }
  printf("%s: %llu training examples (labels 0..4: %llu %llu %llu %llu %llu), %llu held out "
         "(%zu evaluated); eta0 %g, delta %g, per-example L2 %g\n",
         model, (unsigned long long)ntrain, (unsigned long long)labels[0],
         (unsigned long long)labels[1], (unsigned long long)labels[2],
         (unsigned long long)labels[3], (unsigned long long)labels[4], (unsigned long long)nheld,
         H.n, eta0, delta, lam_e);
  printf("| examples | held-out log loss |\n|---|---|\n| 0 | %.5f |\n", eval(&m, &H));
  /* Pass 2: train. */
  uint64_t seen = 0, next_report = 1000;
  double cpu = 0;
  size_t nnz;
  char hex[TK_SHA256_HEX], path[4096];
  for (int fi = 0; fi < nfiles && seen < ntrain; fi++) {
    mcx_reader r;
    if (mcx_open(&r, files[fi], &err)) return 1;
    while (seen < ntrain && mcx_next(&r, &e, &err) == 1) {
      if (e.hand % hm == hm - 1) continue;
      clock_t c0 = clock();
      mcm_update(&m, e.f, e.n, e.label);
      cpu += (double)(clock() - c0) / CLOCKS_PER_SEC;
      seen++;
      if (seen == next_report || seen == ntrain) {
        printf("| %llu | %.5f |\n", (unsigned long long)seen, eval(&m, &H));
        next_report *= 10;
      }
      int snap = 0;
      for (int i = 0; i < nsnaps; i++) snap |= seen == snaps[i];
      if (snap) {
        mcm_finalize(&m);
        snprintf(path, sizeof path, "%s.%llu", out, (unsigned long long)seen);
        if (save(&m, path, (int)format, &nnz, hex)) return 1;
        printf("snapshot %s: held-out log loss %.5f, %zu nonzero weights, sha256 %s\n", path,
               eval(&m, &H), nnz, hex);
      }
    }
    mcx_close(&r);
  }
  mcm_finalize(&m);
  if (save(&m, out, (int)format, &nnz, hex)) return 1;
  printf("weights %s: %zu nonzero weights, sha256 %s\n", out, nnz, hex);
  double loss_double = eval(&m, &H);
  for (size_t i = 0; i < (size_t)m.K * m.D; i++) m.w[i] = stored(m.w[i], (int)format);
  double loss_saved = eval(&m, &H);
  printf("held-out log loss %.6f with the weights in double, %.6f as saved (%s): %+.2e\n",
         loss_double, loss_saved, format == 2 ? "float32" : "double", loss_saved - loss_double);
  printf("training CPU %.3f s, %.2f us per example\n", cpu, 1e6 * cpu / (double)seen);

  /* Calibration: per class, bins of the predicted probability. */
  int B = (int)bins;
  double *sp = calloc((size_t)5 * B, sizeof *sp), *so = calloc((size_t)5 * B, sizeof *so);
  uint64_t *cnt = calloc((size_t)5 * B, sizeof *cnt);
  int ge = kind == MCM_BCP;
  for (size_t i = 0; i < H.n; i++) {
    double p[5];
    const uint32_t *f = H.f + H.start[i];
    int n = (int)(H.start[i + 1] - H.start[i]);
    mcm_predict(&m, f, n, p);
    for (int h = ge; h < 5; h++) {
      int b = (int)(p[h] * B);
      if (b >= B) b = B - 1;
      int obs = ge ? H.label[i] >= h : H.label[i] == h;
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
  mcm_free(&m);
  free(H.f);
  free(H.start);
  free(H.label);
  return 0;
}
