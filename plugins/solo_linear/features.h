/* plugins/solo_linear/features.h — the features of the solo_linear agent, shared by its plugin
 * and its trainer (train.c), so that both score a discard the same way.
 *
 * A discard k of the 14-tile hand of a tk_solo_view is described by binary features of the
 * hand after it (see features.c for the list): its shanten crossed with its unseen effective
 * tiles, the kind of tile thrown, its copies held, its neighbours in the suit, dora, and the
 * turn crossed with the shanten. A linear model scores a discard by the sum of the weights of
 * its active features. Changing the list changes SL_FEATURE_VERSION, which the weights file
 * records: weights of another version are refused. */
#ifndef SOLO_LINEAR_FEATURES_H
#define SOLO_LINEAR_FEATURES_H

#include "taikai/solo.h"

#define SL_MODEL "solo_linear"
#define SL_FEATURE_VERSION 1u
enum { SL_FEATURES = 496, SL_MAX_ACTIVE = 12 };

/* The active features of discarding kind `k` (held) from `v`'s hand, written to `out`; returns
 * how many. */
int sl_features(const tk_solo_view *v, int k, int out[SL_MAX_ACTIVE]);

/* The score of discarding k: the sum of `w` over its active features. */
double sl_score(const double *w, const tk_solo_view *v, int k);

/* The best-scoring legal discard (ties: the lowest kind). */
int sl_best(const double *w, const tk_solo_view *v, const tk_solo_legal *l);

#endif
