/* plugins/riichi_efr/train.c — build/riichi_efr_train: learns the EFR model (efr.h) from the hand
 * boundaries of complete east-only games in mjai logs, writes its weights file, and evaluates a
 * weights file: held-out log loss against the prior and the empirical tables, calibration, the
 * Monte-Carlo cross-check and table 10's anchor (efr_check.h).
 *
 * Split by wall: game g (numbered in the order read) belongs to wall g / --games-per-wall; walls
 * with wall % M == M - 1 (M = --holdout) are held out, walls with wall % M == M - 2 validate the
 * L2 strength, which is then refitted on every wall not held out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "efr_check.h"
#include "efr_data.h"
#include "efr_fit.h"
#include "opts.h"
#include "taikai/sha256.h"

#define PROG "riichi_efr_train"

static void usage(FILE *f) {
  fprintf(f,
          "usage: " PROG " [options] --out FILE INPUT...   learn the EFR model, write its weights\n"
          "       " PROG " [options] --eval FILE INPUT...  evaluate a weights file\n"
          "INPUT: an mjai log (*.jsonl, *.jsonl.gz; one game or many), a folder of logs, or a\n"
          "run folder (its logs/, e.g. logs/run.jsonl.gz of taikai run --logs=run,gz)\n");
}

typedef struct cfg {
  uint64_t per_wall, holdout, iterations, sims, seed;
  double lambda;
  int lambda_given;
  uint8_t on[EFR_GROUPS];
} cfg;

/* --groups: a comma-separated list of feature groups (efr_group_name), or "all". */
static int parse_groups(void *dest, const char *spelling, const char *value, tk_error *err) {
  uint8_t *on = dest;
  memset(on, 0, EFR_GROUPS);
  if (!strcmp(value, "all")) {
    memset(on, 1, EFR_GROUPS);
    return 0;
  }
  for (const char *p = value; *p;) {
    size_t n = strcspn(p, ",");
    int g = 0;
    while (g < EFR_GROUPS && !(strlen(efr_group_name[g]) == n && !strncmp(p, efr_group_name[g], n)))
      g++;
    if (g == EFR_GROUPS)
      return tk_error_set(err, TK_EINVAL, -1, "%s: '%.*s' is not a feature group (diff, phase, "
                          "pooled, bias, sticks, honba, rank, own, top, or all)", spelling, (int)n, p);
    on[g] = 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

/* The examples of the boundaries of `d`, split into held out, validation and the rest. */
static int split(const efr_data *d, const cfg *c, efr_set *train, efr_set *valid, efr_set *held,
                 tk_error *err) {
  for (size_t i = 0; i < d->npt; i++) {
    const efr_point *p = &d->pt[i];
    uint64_t wall = p->game / c->per_wall, k = wall % c->holdout;
    efr_set *s = k == c->holdout - 1 ? held : k == c->holdout - 2 ? valid : train;
    for (int seat = 0; seat < 4; seat++)
      if (efr_set_add(s, &p->s, seat, p->rank[seat], err)) return TK_ENOMEM;
  }
  return 0;
}

/* Appends the examples of `b` to `a`. */
static int join(efr_set *a, const efr_set *b, tk_error *err) {
  for (size_t i = 0; i < b->n; i++) {
    if (efr_set_add(a, &(rm_efr_state){0}, 0, 1, err)) return TK_ENOMEM;
    memcpy(a->f + (a->n - 1) * EFR_ACTIVE, b->f + i * EFR_ACTIVE, EFR_ACTIVE * sizeof *a->f);
    a->y[a->n - 1] = b->y[i];
    a->rel[a->n - 1] = b->rel[i];
  }
  return 0;
}

/* The hands of the training walls (the cross-check draws from them). */
static size_t train_hands(efr_data *d, const cfg *c) {
  size_t k = 0;
  for (size_t i = 0; i < d->nhand; i++) {
    uint64_t wall = d->hand[i].game / c->per_wall;
    if (wall % c->holdout < c->holdout - 2) d->hand[k++] = d->hand[i];
  }
  return k;
}

/* The held-out comparison of the model `w` with the baselines. */
static int baselines(const double *w, const efr_set *train, const efr_set *held, tk_error *err) {
  double prior[4][4];
  efr_prior(train, prior);
  static const double ks[] = {1, 4, 16, 64};
  efr_table_cmp t;
  if (efr_table_compare(train, held, w, ks, 4, &t, err)) return TK_ENOMEM;
  printf("held-out log loss (nats per seat and boundary, %zu examples):\n", held->n);
  printf("  model                                   %.4f\n", efr_loss(w, held));
  printf("  (a) prior P(rank | relative seat)       %.4f\n", efr_prior_loss(prior, held));
  for (int k = 0; k < 4; k++)
    printf("  smoothed table, k = %-3.0f                %.4f   (cell counts + k pseudo-counts "
           "spread as P(rank | round, seat, current rank))\n", ks[k], t.smoothed[k]);
  printf("  (b) on the %zu examples (%.1f %%) whose cell (round, relative seat, three 1,000-point "
         "bins) has training data:\n      empirical table (add-1/2) %.4f, model %.4f\n",
         t.covered, held->n ? 100.0 * (double)t.covered / (double)held->n : 0, t.table, t.model);
  return 0;
}

/* How many hands, applied by rm_efr_apply to their boundary, give the next boundary of their game
 * (or, after the last, end it): the outcomes the cross-check draws follow the engine's rules. */
static void replay_check(const efr_data *d) {
  size_t ok = 0, n = 0;
  for (size_t i = 0; i < d->nhand && i < d->npt; i++) {
    rm_efr_state x = d->pt[i].s;
    int over = rm_efr_apply(&x, &d->hand[i]);
    int last = i + 1 == d->npt || d->pt[i + 1].game != d->pt[i].game;
    const rm_efr_state *y = last ? NULL : &d->pt[i + 1].s;
    n++;
    ok += last ? over
               : !over && !memcmp(x.scores, y->scores, sizeof x.scores) && x.round == y->round &&
                     x.honba == y->honba && x.sticks == y->sticks;
  }
  printf("outcomes: %zu of %zu hands replayed by rm_efr_apply reach their game's next boundary "
         "(or its end)\n", ok, n);
}

/* Nanoseconds per rm_efr_value call over the held-out situations (one run, this machine). */
static void speed(const rm_efr *m, const efr_data *d) {
  if (!d->npt) return;
  volatile double sink = 0;
  size_t calls = 0;
  clock_t t0 = clock();
  while (calls < 4000000)
    for (size_t i = 0; i < d->npt && calls < 4000000; i++, calls += 4)
      for (int seat = 0; seat < 4; seat++) sink += rm_efr_value(m, &d->pt[i].s, seat);
  double ns = 1e9 * (double)(clock() - t0) / CLOCKS_PER_SEC / (double)calls;
  printf("speed: %.0f ns CPU per rm_efr_value call (%zu calls)\n", ns, calls);
}

static int evaluate(const rm_efr *m, const cfg *c, efr_data *d, const efr_set *train,
                    const efr_set *held, tk_error *err) {
  const double *w = efr_values(m);
  replay_check(d);
  speed(m, d);
  if (baselines(w, train, held, err)) return 1;
  efr_calibration(stdout, w, held);
  size_t nh = train_hands(d, c);
  if (!nh) {
    fprintf(stderr, PROG ": no hands in the training walls: no cross-check\n");
    return 1;
  }
  double mad;
  efr_crosscheck(stdout, m, d->hand, nh, (int)c->sims, c->seed, &mad);
  efr_anchor(stdout, m, d->hand, nh, (int)c->sims * 10, c->seed);
  return 0;
}

static int fit_and_save(const char *out, const cfg *c, const efr_set *train,
                        const efr_set *valid, double *w, tk_error *err) {
  /* from the strongest down, stopping two steps past the best */
  static const double grid[] = {1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6};
  double best = c->lambda, best_loss = INFINITY;
  clock_t t0 = clock();
  double *best_w = malloc((size_t)EFR_FEATURES * 4 * sizeof *best_w);
  if (!best_w) return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
  memset(w, 0, (size_t)EFR_FEATURES * 4 * sizeof *w);
  memcpy(best_w, w, (size_t)EFR_FEATURES * 4 * sizeof *w);
  if (!c->lambda_given) { /* each fit starts from the last (a path of weaker penalties) */
    printf("L2 strength on the validation walls (%zu examples):\n", valid->n);
    int worse = 0;
    for (size_t i = 0; i < sizeof grid / sizeof grid[0] && worse < 2; i++) {
      int it = efr_fit(train, grid[i], c->on, (int)c->iterations, NULL, w);
      double l = efr_loss(w, valid);
      printf("  lambda %-8.0e  validation log loss %.5f  train %.5f  (%d iterations)\n",
             grid[i], l, efr_loss(w, train), it);
      fflush(stdout);
      if (l < best_loss) {
        best_loss = l, best = grid[i], worse = 0;
        memcpy(best_w, w, (size_t)EFR_FEATURES * 4 * sizeof *w);
      } else {
        worse++;
      }
    }
  }
  memcpy(w, best_w, (size_t)EFR_FEATURES * 4 * sizeof *w);
  free(best_w);
  efr_set all = {0};
  if (join(&all, train, err) || join(&all, valid, err)) {
    efr_set_free(&all);
    return 1;
  }
  int it = efr_fit(&all, best, c->on, (int)c->iterations, NULL, w);
  printf("fitted lambda %.0e on %zu examples (training and validation walls): %d iterations, "
         "train log loss %.5f, %.1f s CPU in all\n", best, all.n, it, efr_loss(w, &all),
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  efr_set_free(&all);
  char hex[TK_SHA256_HEX];
  if (efr_save(out, w, err) || tk_sha256_file(out, hex, err)) return 1;
  printf("wrote %s: sha256 %s\n", out, hex);
  return 0;
}

int main(int argc, char **argv) {
  const char *in[64], *out = NULL, *eval = NULL;
  int nin = 0;
  cfg c = {.per_wall = 24, .holdout = 10, .iterations = 400, .sims = 2000, .seed = 20261128};
  memset(c.on, 1, EFR_GROUPS);
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .value = "FILE", .once = 1,
       .help = "write the fitted weights to FILE"},
      {.name = "eval", .kind = TK_OPT_STRING, .dest = &eval, .value = "FILE", .once = 1,
       .help = "evaluate the weights in FILE instead of fitting"},
      {.name = "games-per-wall", .kind = TK_OPT_U64, .dest = &c.per_wall, .value = "N",
       .min = 1, .max = 1000000, .help = "consecutive games that share a wall (24)"},
      {.name = "holdout", .kind = TK_OPT_U64, .dest = &c.holdout, .value = "M", .min = 3,
       .max = 1000000, .help = "hold out walls % M == M-1, validate on M-2 (10)"},
      {.name = "lambda", .kind = TK_OPT_DOUBLE, .dest = &c.lambda, .value = "L", .lo = 0,
       .hi = 1, .given = &c.lambda_given, .help = "L2 strength (default: chosen on validation)"},
      {.name = "iterations", .kind = TK_OPT_U64, .dest = &c.iterations, .value = "N", .min = 1,
       .max = 100000, .help = "L-BFGS iterations at most (400)"},
      {.name = "groups", .kind = TK_OPT_CALL, .dest = c.on, .value = "LIST", .once = 1,
       .call = parse_groups, .help = "feature groups to fit: diff,phase,pooled,bias,sticks,"
                                     "honba,rank,own,top or all (all)"},
      {.name = "sims", .kind = TK_OPT_U64, .dest = &c.sims, .value = "N", .min = 10,
       .max = 10000000, .help = "Monte-Carlo games per cross-check state (2000)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &c.seed, .value = "S",
       .help = "the cross-check's seed (20261128)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(PROG, opts, argc, argv, in, 64, &nin);
  if (!prc && nin > 64) {
    fprintf(stderr, PROG ": at most 64 inputs\n");
    prc = 2;
  }
  if (prc == 1) {
    usage(stdout);
    tk_opts_help(stdout, opts);
    return 0;
  }
  if (!prc && (!nin || !out == !eval)) {
    fprintf(stderr, PROG ": give one of --out and --eval, and at least one input (see " PROG
            " --help)\n");
    prc = 2;
  }
  if (prc) return 2;
  tk_error err;
  tk_error_clear(&err);
  efr_data d = {0};
  clock_t t0 = clock();
  for (int i = 0; i < nin; i++)
    if (efr_data_read(in[i], &d, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      efr_data_free(&d);
      return 1;
    }
  printf("read %llu games (%llu without end_game, skipped): %zu hand boundaries, %zu hands "
         "(%.1f s CPU)\n", (unsigned long long)d.games, (unsigned long long)d.incomplete, d.npt,
         d.nhand, (double)(clock() - t0) / CLOCKS_PER_SEC);
  efr_set train = {0}, valid = {0}, held = {0};
  double *w = malloc((size_t)EFR_FEATURES * 4 * sizeof *w);
  rm_efr *m = NULL;
  int rc = 1;
  if (!w || split(&d, &c, &train, &valid, &held, &err)) {
    fprintf(stderr, PROG ": out of memory\n");
    goto done;
  }
  printf("examples (seat x boundary): %zu training, %zu validation, %zu held out (walls of %llu "
         "games, %% %llu)\n", train.n, valid.n, held.n, (unsigned long long)c.per_wall,
         (unsigned long long)c.holdout);
  if (!train.n || !held.n || (!valid.n && !eval && !c.lambda_given)) {
    fprintf(stderr, PROG ": need training, validation and held-out examples\n");
    goto done;
  }
  if (eval ? rm_efr_load(eval, &m, &err)
           : fit_and_save(out, &c, &train, &valid, w, &err) || efr_from_values(w, &m, &err)) {
    fprintf(stderr, PROG ": %s\n", err.msg);
    goto done;
  }
  rc = evaluate(m, &c, &d, &train, &held, &err);
  if (rc) fprintf(stderr, PROG ": %s\n", err.msg);
done:
  rm_efr_free(m);
  free(w);
  efr_set_free(&train), efr_set_free(&valid), efr_set_free(&held);
  efr_data_free(&d);
  return rc;
}
