/* plugins/daifugo_mcl/tools.h — what the programs of this folder (daifugo_mcl_train,
 * daifugo_mcl_teacher_noise) share besides the features: their repeated --teacher option, the walk over
 * a records file's play decisions (tools.c), and the order in which the trainer's run with a
 * given seed takes the kept positions, which the noise tool must repeat to work on the same
 * held-out set. */
#ifndef DAIFUGO_MCL_TOOLS_H
#define DAIFUGO_MCL_TOOLS_H

#include <stddef.h>
#include <stdlib.h>

#include "features.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"

/* Called by dmcl_each_play for each play decision of a teacher: `why` is
 * dmcl_training_position's verdict (never DMCL_NOT_LEGAL) and, when it is DMCL_KEEP, the
 * candidates are l->a[first .. l->n) and the teacher's move is l->a[first + teacher]. Returns 0 to go on, or an exit
 * status (its message printed) that stops the walk. */
typedef int (*dmcl_play_fn)(void *ctx, const char *path, uint64_t unit, const tk_daifugo_view *v,
                            const tk_daifugo_legal *l, int why, int first, int teacher);

/* Walks the play decisions of the agents labelled teachers[0..nteachers) (every agent when
 * nteachers is 0) in the records file `path`, in record order; with one_per_wall, the first unit
 * of each wall only. Messages are prefixed by `prog`. Returns 0; 2 when the file cannot be opened,
 * holds another game or lacks a teacher's label; 1 for a damaged file or a teacher's move that is
 * not among the recorded legal ones; or fn's status. */
int dmcl_each_play(const char *prog, const char *path, const char *const *teachers,
                   int nteachers, int one_per_wall, dmcl_play_fn fn, void *ctx);

/* A repeatable option's values (--teacher LABEL, once per label), filled by dmcl_append_opt. */
typedef struct dmcl_list {
  const char **v; /* the caller's array of cap entries; values borrow argv */
  int n, cap;
} dmcl_list;

/* A TK_OPT_CALL (opts.h) that appends value to the dmcl_list `dest`; refused past its cap. */
static inline int dmcl_append_opt(void *dest, const char *spelling, const char *value,
                                  tk_error *err) {
  dmcl_list *l = dest;
  if (l->n >= l->cap)
    return tk_error_set(err, TK_EINVAL, -1, "%s: at most %d given", spelling, l->cap);
  l->v[l->n++] = value;
  return 0;
}

/* idx = 0 .. n-1 shuffled by Fisher-Yates from tk_rng_seed(seed); *rng is left after it (the
 * trainer's NN draws its initial weights from it next). */
static inline void dmcl_shuffle(size_t *idx, size_t n, unsigned long long seed, tk_rng *rng) {
  tk_rng_seed(rng, seed);
  for (size_t i = 0; i < n; i++) idx[i] = i;
  for (size_t i = n - 1; i > 0 && n > 0; i--) {
    size_t j = (size_t)(tk_rng_next(rng) % (i + 1));
    size_t t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
}

#endif
