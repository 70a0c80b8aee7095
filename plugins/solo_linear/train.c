/* plugins/solo_linear/train.c — `solo_linear_train`: trains solo_linear's weights by averaged
 * perceptron on the decisions of a teacher in a decision-record file (taikai run --records),
 * and reports the agreement with the teacher on held-out walls.
 *
 *   solo_linear_train RECORDS --teacher LABEL --out FILE [--epochs N] [--holdout M] [--seed S]
 *
 * The units whose wall % M == M - 1 are held out (M = 10: a tenth); the rest are the training
 * set, visited in an order shuffled from S in each epoch. A decision is a multiclass example:
 * the teacher's discard against every other legal discard; where the current weights rank
 * another discard strictly first (ties go to the lowest kind, as the agent plays), the weights
 * move towards the teacher's features and away from that discard's. The weights written are
 * the average over every step (the averaged perceptron), which the same command reproduces
 * byte for byte. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features.h"
#include "opts.h"
#include "taikai/solo.h"
#include "taikai/records.h"
#include "taikai/rng.h"
#include "taikai/weights.h"

/* A decision with the features of every legal discard computed once (ukeire is the costly
 * part): candidate i is kind kind[i], with nf[i] active features f[i][..]. */
typedef struct example {
  uint8_t n, teacher;           /* candidates; the teacher's candidate index */
  uint8_t kind[14], nf[14];
  uint16_t f[14][SL_MAX_ACTIVE];
} example;

static void example_of(const tk_solo_view *v, const tk_solo_legal *l, int teacher_kind,
                       example *e) {
  memset(e, 0, sizeof *e);
  e->n = (uint8_t)(l->n > 14 ? 14 : l->n);
  e->teacher = 0xff;
  for (int i = 0; i < e->n; i++) {
    int f[SL_MAX_ACTIVE];
    e->kind[i] = l->kinds[i];
    e->nf[i] = (uint8_t)sl_features(v, l->kinds[i], f);
    for (int j = 0; j < e->nf[i]; j++) e->f[i][j] = (uint16_t)f[j];
    if (l->kinds[i] == teacher_kind) e->teacher = (uint8_t)i;
  }
}

/* Checks the recorded decision's fields that the features index with: a 14-tile hand of at most
 * four copies a kind, unseen counts that leave room for it, and legal kinds held. Returns NULL or
 * what is wrong, written into `why` (the field and its value). */
static const char *decision_error(const tk_solo_view *v, const tk_solo_legal *l, char *why,
                                  size_t cap) {
  int held = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (v->hand[k] > 4 || v->unseen[k] > 4 - v->hand[k]) {
      snprintf(why, cap, "view.hand[%d] %u, view.unseen[%d] %u (at most 4 in all)", k,
               v->hand[k], k, v->unseen[k]);
      return why;
    }
    held += v->hand[k];
  }
  if (held != 14) {
    snprintf(why, cap, "view.hand holds %d tiles, not 14", held);
    return why;
  }
  if (l->n < 1 || l->n > 14) {
    snprintf(why, cap, "legal.n %u out of range (1..14)", l->n);
    return why;
  }
  for (int i = 0; i < l->n; i++)
    if (l->kinds[i] >= TK_KINDS || !v->hand[l->kinds[i]]) {
      snprintf(why, cap, "legal.kinds[%d] %u is not a kind held", i, l->kinds[i]);
      return why;
    }
  return NULL;
}

/* The candidate the weights rank first (ties: the lowest kind, the first in legal order), as
 * sl_best plays. */
static int best_of(const double *w, const example *e) {
  int best = 0;
  double top = 0;
  for (int i = 0; i < e->n; i++) {
    double s = 0;
    for (int j = 0; j < e->nf[i]; j++) s += w[e->f[i][j]];
    if (i == 0 || s > top) best = i, top = s;
  }
  return best;
}

typedef struct set {
  example *x;
  size_t n, cap;
} set;

static int push(set *s, const example *e) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 4096;
    example *nx = realloc(s->x, cap * sizeof *nx);
    if (!nx) return -1;
    s->x = nx;
    s->cap = cap;
  }
  s->x[s->n++] = *e;
  return 0;
}

static double agreement(const double *w, const set *s) {
  size_t agree = 0;
  for (size_t i = 0; i < s->n; i++) agree += best_of(w, &s->x[i]) == s->x[i].teacher;
  return s->n ? (double)agree / (double)s->n : 0.0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: solo_linear_train RECORDS --teacher LABEL --out FILE [--epochs N] "
             "[--holdout M] [--seed S]\n");
}

/* Reads the decisions of the agent labelled `teacher` from the records file `in` into train and
 * held (walls % holdout == holdout - 1 held out). Returns 0, 1 on a bad decision or a read
 * error, 2 when the teacher is not in the file or a set is empty (each printed). */
static int read_sets(const char *in, const char *teacher, long holdout, set *train, set *held) {
  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  if (tk_records_open_game(in, "solo", TK_SOLO_TYPES_VERSION, sizeof(tk_solo_view),
                           sizeof(tk_solo_legal), sizeof(tk_solo_action), &r, &err)) {
    fprintf(stderr, "solo_linear_train: %s\n", err.msg);
    return 2;
  }
  const tk_records_header *h = tk_records_header_of(r);
  int who = -1;
  for (uint32_t i = 0; i < h->nagents; i++)
    if (!strcmp(h->agent[i], teacher)) who = (int)i;
  if (who < 0) {
    fprintf(stderr, "solo_linear_train: %s: no agent labelled '%s' (agents:", in, teacher);
    for (uint32_t i = 0; i < h->nagents; i++) fprintf(stderr, " %s", h->agent[i]);
    fprintf(stderr, ")\n");
    tk_records_close(r);
    return 2;
  }
  tk_records_unit u;
  int rc;
  while ((rc = tk_records_next(r, &u, &err)) == 1) {
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      if ((int)d.agent != who) continue;
      tk_solo_view v;
      tk_solo_legal l;
      tk_solo_action act;
      memcpy(&v, d.view, sizeof v);
      memcpy(&l, d.legal, sizeof l);
      memcpy(&act, d.action, sizeof act);
      char why[128];
      if (decision_error(&v, &l, why, sizeof why)) {
        fprintf(stderr, "solo_linear_train: %s: unit %llu: decision %u: %s\n", in,
                (unsigned long long)u.unit, i, why);
        tk_records_close(r);
        return 1;
      }
      example e;
      example_of(&v, &l, act.discard, &e);
      if (e.teacher == 0xff) {
        fprintf(stderr, "solo_linear_train: %s: unit %llu: the teacher's discard is not among "
                "the legal ones recorded\n", in, (unsigned long long)u.unit);
        tk_records_close(r);
        return 1;
      }
      if (push(u.wall % (uint64_t)holdout == (uint64_t)holdout - 1 ? held : train, &e)) {
        fprintf(stderr, "solo_linear_train: out of memory\n");
        tk_records_close(r);
        return 1;
      }
    }
  }
  tk_records_close(r);
  if (rc < 0 || !train->n || !held->n) {
    if (rc < 0) fprintf(stderr, "solo_linear_train: %s\n", err.msg);
    else fprintf(stderr, "solo_linear_train: %s: %zu training and %zu held-out decisions of '%s'; "
                 "need some of each\n", in, train->n, held->n, teacher);
    return rc < 0 ? 1 : 2;
  }
  return 0;
}

/* The averaged perceptron over `epochs` shuffles (seeded by `seed`) of train, its weights into
 * avg, one line per epoch on stdout. Returns 0, or 1 when out of memory. */
static int train_perceptron(const set *train, const set *held, long epochs,
                            unsigned long long seed, double avg[SL_FEATURES]) {
  /* w the current weights, acc the sum of c * update (the standard trick), the average
   * w - acc / c after c steps */
  double w[SL_FEATURES] = {0}, acc[SL_FEATURES] = {0};
  double c = 1;
  size_t *order = malloc(train->n * sizeof *order);
  if (!order) return 1;
  for (size_t i = 0; i < train->n; i++) order[i] = i;
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  for (long ep = 1; ep <= epochs; ep++) {
    for (size_t i = train->n - 1; i > 0; i--) { /* Fisher-Yates */
      size_t j = (size_t)tk_rng_below(&rng, (uint32_t)(i + 1));
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    size_t mistakes = 0;
    for (size_t i = 0; i < train->n; i++, c++) {
      const example *e = &train->x[order[i]];
      int guess = best_of(w, e);
      if (guess == e->teacher) continue;
      mistakes++;
      for (int k = 0; k < e->nf[e->teacher]; k++) w[e->f[e->teacher][k]] += 1, acc[e->f[e->teacher][k]] += c;
      for (int k = 0; k < e->nf[guess]; k++) w[e->f[guess][k]] -= 1, acc[e->f[guess][k]] -= c;
    }
    for (int f = 0; f < SL_FEATURES; f++) avg[f] = w[f] - acc[f] / c;
    printf("epoch %ld: %zu mistakes in training; agreement: training %.2f %%, held out %.2f %%\n",
           ep, mistakes, 100 * agreement(avg, train), 100 * agreement(avg, held));
  }
  free(order);
  return 0;
}

int main(int argc, char **argv) {
  const char *in = NULL, *teacher = NULL, *out = NULL;
  uint64_t epochs = 5, holdout = 10, seed = 1;
  const tk_opt opts[] = {
      {.name = "teacher", .kind = TK_OPT_STRING, .dest = &teacher, .value = "LABEL",
       .help = "the agent whose discards are learned"},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .value = "FILE",
       .help = "the weights file written"},
      {.name = "epochs", .kind = TK_OPT_U64, .dest = &epochs, .value = "N", .min = 1,
       .max = LONG_MAX, .help = "passes over the training set (default 5)"},
      {.name = "holdout", .kind = TK_OPT_U64, .dest = &holdout, .value = "M", .min = 2,
       .max = LONG_MAX, .help = "one wall in M held out (default 10)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "the shuffles' seed (default 1)"},
      {.name = NULL},
  };
  int npos = 0, prc = tk_opts_parse_prog("solo_linear_train", opts, argc, argv, &in, 1, &npos);
  if (prc == 1) usage(stdout);
  if (prc) {
    if (prc == 2) usage(stderr);
    return prc == 1 ? 0 : 2;
  }
  if (!in || !teacher || !out) {
    usage(stderr);
    return 2;
  }
  set train = {0}, held = {0};
  double avg[SL_FEATURES];
  int rc = read_sets(in, teacher, (long)holdout, &train, &held);
  if (rc) goto done;
  printf("%s: %zu training decisions, %zu held out (walls %% %ld == %ld), teacher '%s'\n", in,
         train.n, held.n, (long)holdout, (long)holdout - 1, teacher);
  if ((rc = train_perceptron(&train, &held, (long)epochs, seed, avg))) goto done;
  tk_weights tw;
  memset(&tw, 0, sizeof tw);
  snprintf(tw.model, sizeof tw.model, "%s", SL_MODEL);
  tw.feature_version = SL_FEATURE_VERSION;
  tw.ndims = 1;
  tw.shape[0] = SL_FEATURES;
  tw.count = SL_FEATURES;
  tw.values = avg;
  tk_error err;
  tk_error_clear(&err);
  if (tk_weights_save(out, &tw, &err)) {
    fprintf(stderr, "solo_linear_train: %s\n", err.msg);
    rc = 1;
    goto done;
  }
  printf("held-out agreement with '%s': %.2f %% (%zu decisions); wrote %s\n", teacher,
         100 * agreement(avg, &held), held.n, out);
done:
  free(train.x);
  free(held.x);
  return rc;
}
