/* plugins/riichi_nn002/train.c — build/riichi_nn002_train: paper 002's network (nn.h) trained on
 * the discards of mjai logs (real Tenhou records through `taikai import tenhou`, or taikai's own
 * logs), and its figures: agreement with the players on the training positions (the paper's
 * measure) and on held-out games, the per-kind histogram of its discards beside the players'
 * (the paper's fig. 6), and two baselines.
 *
 * Examples: every discard of every player at its own turn (a discard or a riichi declaration)
 * with more than one kind to choose from; the input is the view before the discard (nn_encode),
 * the target the discarded kind. Forced discards (in riichi, one legal tile) are left out. Games
 * are numbered in the order read (as riichi_oneplayer_train numbers them); game g is held out
 * when g % M == M - 1 (--holdout M). Training is online, in the order read, --epochs passes. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn.h"
#include "opts.h"
#include "riichi_log.h"
#include "taikai/sha256.h"

#define PROG "riichi_nn002_train"

typedef struct example {
  uint32_t off;  /* its active inputs: pool[off .. off + n) */
  uint16_t n;
  uint8_t target;
  uint8_t held;
  uint8_t hand[NN_KINDS];
} example;

typedef struct data {
  example *e;
  size_t n, cap;
  uint16_t *pool;
  size_t np, capp;
  unsigned long long games, bad_games, decisions;
  int holdout, skip_bad, oom;
  int cur_held;
} data;

static int push(data *d, const tk_riichi_view *v, int target) {
  if (d->n == d->cap) {
    size_t c = d->cap ? 2 * d->cap : 4096;
    example *e = realloc(d->e, c * sizeof *e);
    if (!e) return -1;
    d->e = e, d->cap = c;
  }
  if (d->np + NN_MAX_ACTIVE > d->capp) {
    size_t c = d->capp ? 2 * d->capp : 1 << 20;
    uint16_t *p = realloc(d->pool, c * sizeof *p);
    if (!p) return -1;
    d->pool = p, d->capp = c;
  }
  example *e = &d->e[d->n++];
  e->off = (uint32_t)d->np;
  e->n = (uint16_t)nn_encode(v, d->pool + d->np);
  d->np += e->n;
  e->target = (uint8_t)target;
  e->held = (uint8_t)d->cur_held;
  memcpy(e->hand, v->hand, NN_KINDS);
  return 0;
}

static size_t game_start; /* d->n at the start of the current replay pass */

static void on_begin(void *ctx) {
  data *d = ctx;
  d->n = game_start; /* a second pass replaces the first's decisions */
}

static void on_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                        int line) {
  (void)line;
  data *d = ctx;
  if (a->type != TK_RIICHI_DISCARD && a->type != TK_RIICHI_RIICHI) return;
  tk_riichi_legal l;
  tk_riichi_legal_of(g, seat, &l);
  uint64_t kinds = 0;
  for (int i = 0; i < l.n; i++)
    if (l.a[i].type == TK_RIICHI_DISCARD || l.a[i].type == TK_RIICHI_RIICHI)
      kinds |= 1ull << tk_tile_kind(l.a[i].tile);
  if (!(kinds & (kinds - 1))) return; /* one kind: forced */
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  d->decisions++;
  if (push(d, &v, tk_tile_kind(a->tile))) d->oom = 1;
}

static int on_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  data *d = ctx;
  unsigned long long game = d->games++;
  d->cur_held = game % (unsigned long long)d->holdout == (unsigned long long)d->holdout - 1;
  game_start = d->n;
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, d};
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay_game(path, text, len, first, &hooks, NULL, &err);
  if (d->oom || e == TK_ENOMEM) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  if (e) {
    fprintf(stderr, PROG ": %s%s\n", err.msg, tk_riichi_log_skip_note(d->skip_bad));
    d->n = game_start;
    if (!d->skip_bad) return 2;
    d->bad_games++;
  }
  return 0;
}

static const char *kind_name(int k) {
  static char buf[NN_KINDS][4];
  static const char *const honor[7] = {"E", "S", "W", "N", "P", "F", "C"};
  if (k >= 27) return honor[k - 27];
  snprintf(buf[k], sizeof buf[k], "%d%c", k % 9 + 1, "mps"[k / 9]);
  return buf[k];
}

/* Agreement of the model on the examples with held == which (-1: all), over at most `limit`. */
static double agreement(const nn_model *m, const data *d, int which, size_t limit, double *h,
                        unsigned long long hist[NN_KINDS], size_t *count) {
  size_t n = 0, hit = 0;
  for (size_t i = 0; i < d->n && n < limit; i++) {
    const example *e = &d->e[i];
    if (which >= 0 && e->held != which) continue;
    double o[NN_KINDS];
    nn_forward(m, d->pool + e->off, e->n, h, o);
    int k = nn_pick(o, e->hand);
    hit += k == e->target;
    if (hist && k >= 0) hist[k]++;
    n++;
  }
  if (count) *count = n;
  return n ? (double)hit / (double)n : 0;
}

int main(int argc, char **argv) {
  const char *in[64], *out = NULL, *eval = NULL;
  int nin = 0, hidden = 820, epochs = 1, holdout = 10, improved = 0, skip_bad = 0, balanced = 0;
  double eta = 0.01, init = 0.05;
  uint64_t seed = 1;
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .value = "FILE", .once = 1,
       .help = "train and write the weights to FILE"},
      {.name = "evaluate", .kind = TK_OPT_STRING, .dest = &eval, .value = "FILE", .once = 1,
       .help = "measure the weights in FILE instead of training"},
      {.name = "hidden", .kind = TK_OPT_INT, .dest = &hidden, .value = "M", .min = 1,
       .max = 100000, .help = "hidden units (820, the paper's best)"},
      {.name = "eta", .kind = TK_OPT_DOUBLE, .dest = &eta, .value = "R", .lo = 0, .hi = 10,
       .help = "learning rate (0.01, the paper's)"},
      {.name = "epochs", .kind = TK_OPT_INT, .dest = &epochs, .value = "N", .min = 1, .max = 1000,
       .help = "passes over the training examples (1, the paper's)"},
      {.name = "init", .kind = TK_OPT_DOUBLE, .dest = &init, .value = "A", .lo = 0, .hi = 10,
       .help = "initial weights uniform in [-A, A] (0.05)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "the initial weights' seed (1)"},
      {.name = "holdout", .kind = TK_OPT_INT, .dest = &holdout, .value = "M", .min = 2,
       .max = 1000000, .help = "hold out games g with g % M == M-1 (10)"},
      {.name = "balanced", .kind = TK_OPT_INT, .dest = &balanced, .value = "N", .min = 0,
       .max = 100000000, .help = "train on at most N examples of each kind (0: all; the "
                                 "paper's balanced runs: 300, 5000)"},
      {.name = "improved", .kind = TK_OPT_FLAG, .dest = &improved,
       .help = "beyond the paper: biases, softmax outputs, cross-entropy"},
      {.name = "skip-bad-games", .kind = TK_OPT_FLAG, .dest = &skip_bad,
       .help = "leave out a game the engine cannot replay (else stop)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(PROG, opts, argc, argv, in, 64, &nin);
  if (prc == 1) {
    printf("usage: " PROG " INPUT... --out FILE [options]     train paper 002's network\n"
           "       " PROG " INPUT... --evaluate FILE [...]  measure a weights file\n"
           "INPUT: an mjai log (*.jsonl, *.jsonl.gz), a folder of logs (taikai import tenhou's "
           "output), or a run folder (its logs/)\n");
    tk_opts_help(stdout, opts);
    return 0;
  }
  if (!prc && (!nin || nin > 64 || !out == !eval)) {
    fprintf(stderr, PROG ": give inputs (at most 64) and one of --out and --evaluate (see " PROG
            " --help)\n");
    prc = 2;
  }
  if (prc) return 2;
  data d;
  memset(&d, 0, sizeof d);
  d.holdout = holdout;
  d.skip_bad = skip_bad;
  for (int i = 0; i < nin; i++) {
    tk_error err;
    tk_error_clear(&err);
    int rc = tk_riichi_log_games(in[i], on_game, &d, &err);
    if (rc) {
      if (rc < 0) fprintf(stderr, PROG ": %s\n", err.msg);
      return rc == 1 || rc == TK_ENOMEM ? 1 : 2;
    }
  }
  size_t ntrain = 0, nheld = 0;
  unsigned long long human[NN_KINDS] = {0};
  for (size_t i = 0; i < d.n; i++) {
    ntrain += !d.e[i].held, nheld += d.e[i].held;
    if (!d.e[i].held) human[d.e[i].target]++;
  }
  printf("read %llu games (%llu left out: the engine cannot replay them): %zu discard positions "
         "(%zu training, %zu held out: games %% %d == %d)\n",
         d.games, d.bad_games, d.n, ntrain, nheld, holdout, holdout - 1);
  if (!ntrain) {
    fprintf(stderr, PROG ": no training position in the inputs\n");
    return 1;
  }
  /* baselines: the most discarded kind; the most discarded kind among those in hand */
  int top = 0;
  for (int k = 1; k < NN_KINDS; k++) top = human[k] > human[top] ? k : top;
  size_t b1[2] = {0}, b2[2] = {0}, n2[2] = {0};
  for (size_t i = 0; i < d.n; i++) {
    const example *e = &d.e[i];
    int best = -1;
    for (int k = 0; k < NN_KINDS; k++)
      if (e->hand[k] && (best < 0 || human[k] > human[best])) best = k;
    b1[e->held] += e->target == top;
    b2[e->held] += e->target == best;
    n2[e->held]++;
  }
  printf("baselines (training / held out): always %s, the most discarded kind: %.2f %% / %.2f %%; "
         "the most discarded kind in hand: %.2f %% / %.2f %%\n", kind_name(top),
         100.0 * b1[0] / (double)(n2[0] ? n2[0] : 1), 100.0 * b1[1] / (double)(n2[1] ? n2[1] : 1),
         100.0 * b2[0] / (double)(n2[0] ? n2[0] : 1), 100.0 * b2[1] / (double)(n2[1] ? n2[1] : 1));
  tk_error err;
  tk_error_clear(&err);
  nn_model m;
  if (eval) {
    if (nn_load(eval, &m, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
  } else {
    tk_rng rng;
    tk_rng_seed(&rng, seed);
    if (nn_init(&m, hidden, improved, init, &rng, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
  }
  double *h = malloc((size_t)m.hidden * sizeof *h);
  if (!h) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  if (!eval) {
    /* the training examples, at most `balanced` of each kind, in the order read */
    size_t *order = malloc(ntrain * sizeof *order), nt = 0;
    unsigned long long per[NN_KINDS] = {0};
    for (size_t i = 0; i < d.n && order; i++)
      if (!d.e[i].held && (!balanced || per[d.e[i].target]++ < (unsigned long long)balanced))
        order[nt++] = i;
    if (!order) {
      fprintf(stderr, PROG ": out of memory\n");
      return 1;
    }
    printf("training: %d hidden, %s, eta %g, %d epoch(s), %zu examples%s, init U(-%g, %g) seed "
           "%llu\n", m.hidden, improved ? "improved (biases, softmax, cross-entropy)"
                                          : "the paper's (no biases, sigmoid, squared error)",
           eta, epochs, nt, balanced ? " (balanced)" : "", init, init, (unsigned long long)seed);
    printf("  examples seen   mean loss   agreement: training (first 10,000)   held out\n");
    clock_t t0 = clock();
    size_t seen = 0, step = (nt * (size_t)epochs + 9) / 10;
    double loss = 0;
    size_t lossn = 0;
    for (int ep = 0; ep < epochs; ep++)
      for (size_t j = 0; j < nt; j++) {
        const example *e = &d.e[order[j]];
        double o[NN_KINDS];
        loss += nn_step(&m, d.pool + e->off, e->n, e->target, eta, h, o);
        lossn++;
        if (++seen % step == 0 || seen == nt * (size_t)epochs) {
          printf("  %13zu   %9.5f   %35.2f %%   %7.2f %%\n", seen, loss / (double)lossn,
                 100 * agreement(&m, &d, 0, 10000, h, NULL, NULL),
                 100 * agreement(&m, &d, 1, (size_t)-1, h, NULL, NULL));
          fflush(stdout);
          loss = 0, lossn = 0;
        }
      }
    printf("training CPU %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(order);
    char hex[TK_SHA256_HEX];
    if (nn_save(out, &m, &err) || tk_sha256_file(out, hex, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
    printf("wrote %s: sha256 %s\n", out, hex);
  }
  unsigned long long mine[NN_KINDS] = {0};
  size_t ct, ch;
  double at = agreement(&m, &d, 0, (size_t)-1, h, NULL, &ct);
  double ah = agreement(&m, &d, 1, (size_t)-1, h, mine, &ch);
  printf("agreement with the players: training positions %.2f %% (%zu), held out %.2f %% (%zu)\n",
         100 * at, ct, 100 * ah, ch);
  unsigned long long held_human[NN_KINDS] = {0};
  for (size_t i = 0; i < d.n; i++)
    if (d.e[i].held) held_human[d.e[i].target]++;
  printf("discards by kind on the held-out positions (players / network):\n");
  for (int k = 0; k < NN_KINDS; k++)
    printf("  %-2s %6llu %6llu%s", kind_name(k), held_human[k], mine[k], k % 4 == 3 ? "\n" : "");
  printf("\n");
  nn_free(&m);
  free(h);
  free(d.e);
  free(d.pool);
  return 0;
}
