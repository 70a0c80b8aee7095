/* plugins/daifugo_mcl/setup.h — the learned playout policy's parameters and weights, read the same
 * way by every agent that plays with it (daifugo_mcl, daifugo_search). */
#ifndef DAIFUGO_MCL_SETUP_H
#define DAIFUGO_MCL_SETUP_H

#include "policy.h"
#include "taikai/common.h"
#include "taikai/weights.h"

/* The names dmcl_setup reads, NULL-terminated: "alpha", "learner", "weights", "hidden",
 * "playout_pass" (their meaning: plugins/daifugo_mcl/mcl.c's header comment). */
extern const char *const dmcl_setup_names[];

/* Reads those parameters of the JSON object text `params_json` (NULL = "{}"; other names are
 * ignored: the caller checks them), loads the weights they name ("" or absent: the file
 * `default_weights` in the folder of the plugin that holds `anchor`, a function of it) into `*w`
 * and builds `*pol` over them (α default 0.6, AP, 16 hidden units, the pass in the playouts).
 * Returns 0, or an error code with `err` naming agent `who`, the field and the value; on error
 * nothing is left to free. On success free with dmcl_setup_free. */
int dmcl_setup(const char *who, const char *params_json, const char *default_weights,
               const void *anchor, dmcl_policy *pol, tk_weights *w, tk_error *err);
void dmcl_setup_free(dmcl_policy *pol, tk_weights *w);

/* dmcl_setup for a program of the build (a trainer, a tool): the weights file `path` (NULL or
 * "": `default_weights` in plugins/ beside the running program, where the build copies them),
 * every other parameter at its default. A program that cannot locate itself is told to give
 * `option`. Returns 0, or an error code with `err` set. */
int dmcl_setup_program(const char *who, const char *path, const char *default_weights,
                       const char *option, dmcl_policy *pol, tk_weights *w, tk_error *err);

#endif
