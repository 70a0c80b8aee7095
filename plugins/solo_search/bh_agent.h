/* plugins/solo_search/bh_agent.h — the agent behind the komatsu and alpha plugins (Kaizu 2015,
 * Algorithms 4 and 5): N playouts, each sampling the future draws from the unseen tiles and
 * rewarding every held kind the best reachable hand (best_hand.h) leaves out; discard the kind
 * with the greatest total reward. Internal to the plugins (hidden visibility). */
#ifndef TAIKAI_PLUGINS_BH_AGENT_H
#define TAIKAI_PLUGINS_BH_AGENT_H

#include "best_hand.h"
#include "mc_common.h"
#include "taikai/agent.h"

typedef struct tk__bh_agent {
  const char *name;  /* "komatsu" or "alpha", for messages */
  int a;             /* alpha in thousandths (komatsu: 1000) */
  int playouts;      /* N */
  int tie_break;     /* TK__TIE_FIRST (lowest kind) or TK__TIE_RANDOM */
  int prefer_points; /* best-hand tie-break (best_hand.h); alpha's parameter, komatsu 0 */
  int sample_from;   /* TK__SAMPLE_* (mc_common.h) */
  int extra_draws;   /* future tiles imagined beyond the draws left (mc_common.h) */
  tk_rng rng;        /* re-seeded by every begin_game */
  int64_t value[TK_KINDS]; /* the last decision's total reward per kind */
  long searches;     /* best-hand searches run since create (statistics) */
  long nodes;        /* their search nodes */
} tk__bh_agent;

/* Creates an instance from `params_json` (tk__mc_parse: "playouts", "tie_break", "sample_from",
 * "extra_draws", and "alpha" and "prefer_points" unless `fixed_a` >= 0 fixes alpha in thousandths — komatsu passes 1000). `name`
 * is a static string. Returns NULL with `err` set on a bad parameter or no memory. */
TK__BH_HIDDEN tk_agent_instance *tk__bh_agent_create(const char *name, int fixed_a,
                                                     const char *params_json, uint64_t seed,
                                                     tk_error *err);
TK__BH_HIDDEN void tk__bh_agent_destroy(tk_agent_instance *self);
/* Re-seeds from tk_solo_info.head.seed. */
TK__BH_HIDDEN int tk__bh_agent_begin(tk_agent_instance *self, const void *info);
/* One decision (tk_solo_view, tk_solo_legal, tk_solo_action). */
TK__BH_HIDDEN int tk__bh_agent_act(tk_agent_instance *self, const void *view, const void *legal,
                                   void *action);
TK__BH_HIDDEN void tk__bh_agent_end(tk_agent_instance *self, const void *result);

/* The decision itself, for tests and benchmarks: fills agent->value and returns the kind to
 * discard. */
TK__BH_HIDDEN int tk__bh_agent_decide(tk__bh_agent *agent, const tk_solo_view *v,
                                      const tk_solo_legal *legal);

#endif
