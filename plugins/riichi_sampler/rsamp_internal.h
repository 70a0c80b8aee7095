/* plugins/riichi_sampler/rsamp_internal.h — how a sampler of this library is opened (rsamp.c's
 * table). Not used outside the library. */
#ifndef RIICHI_SAMPLER_RSAMP_INTERNAL_H
#define RIICHI_SAMPLER_RSAMP_INTERNAL_H

#include "rsamp.h"

/* Fills s->s (name, sample, ctx), s->free_ctx and, for a learned sampler, s->file and
 * s->file_sha256, from the options (JSON object text or NULL) and the weights file (NULL or
 * "": the default). Returns 0 or a TK_E* code with err set, naming the option and value. */
typedef int (*rs_open_fn)(rs_sampler *s, const char *options_json, const char *file,
                          tk_error *err);

#endif
