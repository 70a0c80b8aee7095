/* plugins/riichi_sampler/rsamp.h — paper 003's opponent-hand samplers behind tk_riichi_sampler
 * (taikai/riichi.h), opened by name, and what they share. A static library (tk_riichi_sampler)
 * linked by riichi_mc (its "sampler" and "sampler_options" parameters), the evaluation tool
 * build/riichi_sampler_eval and the trainers.
 *
 * Samplers (docs/riichi-samplers.md):
 *   "uniform", "tenpai"   the engine's (tk_riichi_sampler_find);
 *   "constrained"         S1: a riichi seat's concealed hand closed tenpai, no wait in its own
 *                         river, consistent with its tsumogiri after riichi; Metropolis moves;
 *   "weighted"            S2: constrained proposals importance-resampled by the likelihood of
 *                         each owner's discards under a fixed policy;
 *   "diffusion"           paper 003's learned sampler (DDPM over the 4 x 2 x 34 representation);
 *   "autoregressive"      the paper's autoregressive baseline, in the same spirit (see its file).
 * Every sampler draws with the rng it is given alone: the same view and rng state give the same
 * games. Its ctx is owned by the rs_sampler and is mutable scratch: one rs_sampler serves one
 * thread. */
#ifndef RIICHI_SAMPLER_RSAMP_H
#define RIICHI_SAMPLER_RSAMP_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/riichi.h"
#include "taikai/rng.h"

/* An opened sampler: `s` is what agents call (s.sample(s.ctx, ...)). */
typedef struct rs_sampler {
  tk_riichi_sampler s;
  char name[32];
  char file[4096];        /* a learned sampler's weights file ("" for the others) */
  uint8_t file_sha256[32];/* its SHA-256 (zero for the others) */
  void (*free_ctx)(void *ctx);
} rs_sampler;

/* The names rs_sampler_open knows, comma-separated, for messages. */
const char *rs_sampler_names(void);
/* Is `name` one of them? */
int rs_sampler_known(const char *name);

/* Opens the sampler `name` with its options `options_json` (a JSON object as text, or NULL for
 * the defaults; each sampler documents its keys and refuses unknown ones by name) and, for a
 * learned sampler, its weights `file` (NULL or "": the default file, found beside the shared
 * object that links this library, as tk_weights_beside finds it). Returns 0 with *out set (free
 * with rs_sampler_close), or TK_EINVAL / TK_ENOTFOUND / TK_EIO / TK_ENOMEM with err naming the
 * sampler, the option or the file and the value. */
int rs_sampler_open(const char *name, const char *options_json, const char *file,
                    rs_sampler **out, tk_error *err);
void rs_sampler_close(rs_sampler *s);

/* The path of a default weights file `name`: beside the shared object that holds `anchor` (a
 * function of the caller's: a plugin's folder, build/plugins/), else in plugins/ beside it (a
 * program in build/, whose plugins and weights are in build/plugins/). Returns 0 with out set to
 * the first that exists, or TK_ENOTFOUND with err naming the file and `who`. */
int rs_default_file(const void *anchor, const char *name, const char *who, char *out, size_t cap,
                    tk_error *err);

/* What a position's samplers are measured against (build/riichi_sampler_eval) and trained on:
 * the viewer-relative order of the opponents, 1 = the next seat (shimocha), 2 = across (toimen),
 * 3 = the previous seat (kamicha). */
static inline int rs_seat_of(int viewer, int rel) { return (viewer + rel) & 3; }

/* The tiles the viewer of `v` cannot see, per kind (unseen[k]), and how many red fives of each
 * suit are among them (bit u of *red_unseen). Returns 0, or -1 for an inconsistent view. */
int rs_unseen(const tk_riichi_view *v, const tk_riichi_rules *rules, uint8_t unseen[TK_KINDS],
              uint8_t *red_unseen);

/* The number of concealed tiles seat s holds in the view's position (13 - 3 x its melds; the
 * viewer's own count is v->nhand). */
int rs_concealed(const tk_riichi_view *v, int s);

#endif
