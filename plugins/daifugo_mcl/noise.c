/* plugins/daifugo_mcl/noise.c — `daifugo_mcl_teacher_noise`: how well can any ranking imitate a
 * Monte Carlo teacher? It asks daifugo_mc again, with fresh seeds, the play decisions a teacher
 * recorded (taikai run --records), on the positions daifugo_mcl_train keeps
 * (dmcl_training_position), and prints:
 * - the agreement of each fresh decision with the recorded one: the teacher agreeing with itself,
 *   a ceiling for a learner that sees only the position (a ranking cannot predict the playouts'
 *   noise);
 * - the agreement between the fresh decisions (the same ceiling, measured among repeats);
 * - with --oracle N2, the agreement of the recorded decision and of the first repeat with a
 *   decision of N2 playouts (how often the teacher's noise moves it off the better move);
 * - the distribution of the margin between the best and the second-best candidate's mean score
 *   (−2 … +2) in the first repeat, and how often a shortcut decided.
 *
 * With --repeats 0 nothing is asked: only the features' ties are counted (any teacher).
 *
 *   daifugo_mcl_teacher_noise RECORDS... [--teacher LABEL]... [--seed S] [--skip K]
 *       [--positions M] [--playouts N] [--repeats R] [--oracle N2] [--one-unit-per-wall]
 *
 * The positions are the trainer's: every kept position, shuffled as the trainer's run with the
 * same seed shuffles them, then positions K .. K+M-1 of that order (the trainer's held-out set
 * of run 1 is --seed 1 --skip 50000 --positions 10000). Repeat r of the position at ordinal i
 * (its index among the kept positions, in record order) draws from tk_rng_seed2(S', i * (R + 1)
 * + r) with S' = tk_mix64(S), the oracle from stream i * (R + 1) + R: the output does not depend
 * on the order of work. The teacher's parameters other than the playouts are daifugo_mc's
 * defaults (the record does not hold them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../daifugo_mc/dmc.h"
#include "features.h"
#include "opts.h"
#include "tools.h"
#include "taikai/daifugo.h"
#include "taikai/records.h"
#include "taikai/rng.h"

#define MAX_FILES 64
#define MAX_TEACHERS 16
#define NAME "daifugo_mcl_teacher_noise"

typedef struct opts {
  const char *files[MAX_FILES], *teachers[MAX_TEACHERS];
  int nfiles, nteachers, one_per_wall;
  unsigned long long seed;
  long skip, positions, playouts, repeats, oracle;
} opts;

typedef struct tally {
  long n, shortcut, self_agree, pair_agree, pairs, oracle_teacher, oracle_first;
  long self_agree_class;  /* repeats whose move has the recorded move's features */
  long tied;              /* positions where another candidate has the recorded move's features */
  double inv_class;       /* sum of 1 / (candidates with the recorded move's features) */
  long margin[5]; /* margin < 0.02, < 0.05, < 0.1, < 0.2, >= 0.2 (no shortcut) */
} tally;

/* Calls fn on each kept position of every file in record order with its ordinal. Returns 0, or
 * the exit status of an error (printed). */
typedef void (*visit_fn)(void *ctx, size_t ordinal, const tk_daifugo_view *v,
                         const tk_daifugo_legal *l, int first, int teacher);

typedef struct walk {
  visit_fn fn;
  void *ctx;
  size_t ordinal;
} walk;

static int on_play(void *ctx, const char *path, uint64_t unit, const tk_daifugo_view *v,
                   const tk_daifugo_legal *l, int why, int first, int teacher) {
  walk *w = ctx;
  if (why != DMCL_KEEP) return 0;
  if (w->fn) w->fn(w->ctx, w->ordinal, v, l, first, first + teacher);
  w->ordinal++;
  return 0;
}

static int each_position(const opts *o, visit_fn fn, void *ctx, size_t *count) {
  walk w = {fn, ctx, 0};
  for (int f = 0; f < o->nfiles; f++) {
    int rc = dmcl_each_play(NAME, o->files[f], o->teachers, o->nteachers, o->one_per_wall,
                            on_play, &w);
    if (rc) return rc;
  }
  *count = w.ordinal;
  return 0;
}

typedef struct job {
  const opts *o;
  const uint8_t *chosen; /* per ordinal: 1 if in the sample */
  uint64_t seed;
  dmc_params p, po;
  dmc_stats st;
  tally t;
  size_t done, total;
} job;

static void one(void *ctx, size_t ordinal, const tk_daifugo_view *v, const tk_daifugo_legal *l,
                int first, int teacher) {
  job *j = ctx;
  if (!j->chosen[ordinal]) return;
  const opts *o = j->o;
  /* the candidates' feature lists: moves with equal lists are the same to any ranking */
  static uint8_t f[TK_DAIFUGO_MAX_LEGAL][DMCL_MAX_ACTIVE];
  static int nf[TK_DAIFUGO_MAX_LEGAL];
  dmcl_pos p;
  dmcl_pos_of_view(v, &p);
  for (int k = first; k < l->n; k++) nf[k] = dmcl_features(&p, &l->a[k], f[k]);
#define SAME(a, b) (nf[a] == nf[b] && !memcmp(f[a], f[b], (size_t)nf[a]))
  int cls = 0;
  for (int k = first; k < l->n; k++) cls += SAME(k, teacher);
  j->t.inv_class += 1.0 / cls;
  j->t.tied += cls > 1;
  int pick[64];
  uint64_t streams = (uint64_t)o->repeats + 1;
  for (long r = 0; r < o->repeats; r++) {
    tk_rng rng;
    tk_rng_seed2(&rng, j->seed, ordinal * streams + (uint64_t)r);
    pick[r] = dmc_decide(&j->p, v, l, NULL, NULL, &rng, r == 0 ? &j->st : NULL);
    j->t.self_agree += pick[r] == teacher;
    j->t.self_agree_class += pick[r] >= first && SAME(pick[r], teacher);
  }
#undef SAME
  for (long a = 0; a < o->repeats; a++)
    for (long b = a + 1; b < o->repeats; b++) j->t.pair_agree += pick[a] == pick[b], j->t.pairs++;
  if (o->repeats == 0) {
  } else if (j->st.shortcut) {
    j->t.shortcut++;
  } else {
    double m1 = -INFINITY, m2 = -INFINITY;
    for (int k = 0; k < j->st.ncand; k++) {
      double m = j->st.mean[k];
      if (m > m1) m2 = m1, m1 = m;
      else if (m > m2) m2 = m;
    }
    double gap = m1 - m2;
    j->t.margin[gap < 0.02 ? 0 : gap < 0.05 ? 1 : gap < 0.1 ? 2 : gap < 0.2 ? 3 : 4]++;
  }
  if (o->oracle) {
    tk_rng rng;
    tk_rng_seed2(&rng, j->seed, ordinal * streams + (uint64_t)o->repeats);
    int best = dmc_decide(&j->po, v, l, NULL, NULL, &rng, NULL);
    j->t.oracle_teacher += best == teacher;
    if (o->repeats) j->t.oracle_first += best == pick[0];
  }
  j->t.n++;
  if (++j->done % 500 == 0) fprintf(stderr, NAME ": %zu of %zu positions\n", j->done, j->total);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: " NAME " RECORDS... [--teacher LABEL]... [--seed S] [--skip K]\n"
          "         [--positions M] [--playouts N] [--repeats R] [--oracle N2]\n"
          "         [--one-unit-per-wall]\n"
          "Asks daifugo_mc again, with fresh seeds, the play decisions a Monte Carlo teacher\n"
          "recorded (taikai run --records), on the positions daifugo_mcl_train keeps, shuffled\n"
          "as its run with seed S shuffles them, positions K .. K+M-1; prints how often the\n"
          "fresh decisions agree with the recorded one and with each other (the ceiling of any\n"
          "learner's agreement), with a decision of N2 playouts if --oracle is given, and the\n"
          "margin between the best two candidates. Defaults: seed 1, skip 50000, positions\n"
          "10000 (the trainer's held-out set of run 1), playouts 3000, repeats 2 (0: only the\n"
          "features' ties, for any teacher), no oracle.\n");
}

/* p ± z·sqrt(p(1-p)/n), the normal interval, printed as a share. */
static void share(const char *what, long k, long n) {
  double p = n ? (double)k / (double)n : 0, se = n ? sqrt(p * (1 - p) / (double)n) : 0;
  printf("%-46s %6.4f ± %.4f (%ld of %ld)\n", what, p, 1.96 * se, k, n);
}

int main(int argc, char **argv) {
  static opts o;
  uint64_t seed = 1, skip = 50000, positions = 10000, playouts = 3000, repeats = 2, oracle = 0;
  dmcl_list teachers = {o.teachers, 0, MAX_TEACHERS};
  const tk_opt table[] = {
      {.name = "teacher", .kind = TK_OPT_CALL, .dest = &teachers, .call = dmcl_append_opt,
       .value = "LABEL", .help = "the teacher (repeatable; default all)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "the trainer's seed of run 1"},
      {.name = "skip", .kind = TK_OPT_U64, .dest = &skip, .value = "K", .max = 100000000,
       .help = "positions skipped"},
      {.name = "positions", .kind = TK_OPT_U64, .dest = &positions, .value = "M", .min = 1,
       .max = 100000000, .help = "positions asked"},
      {.name = "playouts", .kind = TK_OPT_U64, .dest = &playouts, .value = "N", .min = 1,
       .max = DMC_MAX_PLAYOUTS, .help = "playouts per decision"},
      {.name = "repeats", .kind = TK_OPT_U64, .dest = &repeats, .value = "R", .max = 64,
       .help = "fresh decisions per position"},
      {.name = "oracle", .kind = TK_OPT_U64, .dest = &oracle, .value = "N2", .min = 1,
       .max = DMC_MAX_PLAYOUTS, .help = "playouts of the oracle's decision"},
      {.name = "one-unit-per-wall", .kind = TK_OPT_FLAG, .dest = &o.one_per_wall,
       .help = "the first unit of each wall only"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(NAME, table, argc, argv, o.files, MAX_FILES, &o.nfiles);
  if (!prc && o.nfiles > MAX_FILES) {
    fprintf(stderr, NAME ": at most %d records files\n", MAX_FILES);
    prc = 2;
  }
  if (prc == 1) usage(stdout);
  if (prc == 2) usage(stderr);
  if (prc) return prc == 1 ? 0 : 2;
  o.nteachers = teachers.n;
  o.seed = seed, o.skip = (long)skip, o.positions = (long)positions;
  o.playouts = (long)playouts, o.repeats = (long)repeats, o.oracle = (long)oracle;
  if (!o.nfiles) {
    usage(stderr);
    return 2;
  }
  size_t np = 0;
  int rc = each_position(&o, NULL, NULL, &np);
  if (rc) return rc;
  if (np < (size_t)(o.skip + o.positions)) {
    fprintf(stderr, NAME ": %zu positions kept; --skip %ld and --positions %ld need %ld\n", np,
            o.skip, o.positions, o.skip + o.positions);
    return 2;
  }
  /* the trainer's order for run 1 with seed S */
  size_t *idx = malloc(np * sizeof *idx);
  uint8_t *chosen = calloc(np, 1);
  if (!idx || !chosen) {
    fprintf(stderr, NAME ": out of memory\n");
    return 1;
  }
  tk_rng rng;
  dmcl_shuffle(idx, np, o.seed, &rng);
  for (long i = 0; i < o.positions; i++) chosen[idx[o.skip + i]] = 1;
  free(idx);
  static job j;
  j.o = &o;
  j.chosen = chosen;
  j.seed = tk_mix64(o.seed);
  j.p = dmc_default_params();
  j.p.playouts = (int)o.playouts;
  j.po = j.p;
  j.po.playouts = (int)(o.oracle ? o.oracle : 1);
  j.total = (size_t)o.positions;
  rc = each_position(&o, one, &j, &np);
  if (rc) {
    free(chosen);
    return rc;
  }
  const tally *t = &j.t;
  printf("%zu kept positions; %ld asked again (seed %llu, skip %ld), daifugo_mc with %ld "
         "playouts, %ld repeats\n", np, t->n, o.seed, o.skip, o.playouts, o.repeats);
  if (o.repeats) {
    share("a shortcut decided (the repeat is certain)", t->shortcut, t->n);
    share("a repeat agrees with the recorded decision", t->self_agree, t->n * o.repeats);
    if (t->pairs) share("two repeats agree", t->pair_agree, t->pairs);
    share("a repeat's move has the recorded move's features", t->self_agree_class,
          t->n * o.repeats);
  }
  share("another candidate has the recorded move's features", t->tied, t->n);
  printf("%-46s %6.4f\n", "mean of 1 / (candidates with those features)",
         t->n ? t->inv_class / (double)t->n : 0);
  if (o.oracle) {
    char what[96];
    snprintf(what, sizeof what, "the recorded decision agrees with %ld playouts", o.oracle);
    share(what, t->oracle_teacher, t->n);
    snprintf(what, sizeof what, "repeat 1 agrees with %ld playouts", o.oracle);
    if (o.repeats) share(what, t->oracle_first, t->n);
  }
  if (!o.repeats) {
    free(chosen);
    return 0;
  }
  static const char *const bins[5] = {"< 0.02", "0.02 - 0.05", "0.05 - 0.1", "0.1 - 0.2",
                                      ">= 0.2"};
  long decided = t->n - t->shortcut;
  printf("margin between the best two means of repeat 1 (score -2 .. +2), %ld decisions "
         "without a shortcut:\n", decided);
  for (int b = 0; b < 5; b++) {
    char what[64];
    snprintf(what, sizeof what, "  %s", bins[b]);
    share(what, t->margin[b], decided);
  }
  free(chosen);
  return 0;
}
