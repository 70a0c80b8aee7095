/* plugins/riichi_sampler/rsamp.c — the samplers by name (rsamp.h) and what they share. */
#include "rsamp.h"

#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "autoregressive.h"
#include "diffusion.h"
#include "rsamp_internal.h"
#include "taikai/weights.h"
#include "constrained.h"

/* Each sampler of this library: its name and its opener (NULL: the engine's, no ctx). */
static const struct {
  const char *name;
  rs_open_fn open;
} table[] = {
    {"uniform", NULL},
    {"tenpai", NULL},
    {"constrained", rs_open_constrained}, /* constrained.c */
    {"weighted", rs_open_weighted},       /* weighted.c */
    {"diffusion", rs_df_open},
    {"autoregressive", rs_ar_open},
};

const char *rs_sampler_names(void) {
  static char buf[256];
  if (!buf[0])
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
      if (i) strcat(buf, ", ");
      strcat(buf, table[i].name);
    }
  return buf;
}

int rs_sampler_known(const char *name) {
  for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].name, name)) return 1;
  return 0;
}

int rs_sampler_open(const char *name, const char *options_json, const char *file,
                    rs_sampler **out, tk_error *err) {
  *out = NULL;
  size_t i = 0;
  while (name && i < sizeof table / sizeof table[0] && strcmp(table[i].name, name)) i++;
  if (!name || i == sizeof table / sizeof table[0])
    return tk_error_set(err, TK_EINVAL, -1, "sampler '%s': unknown (known: %s)",
                        name ? name : "(null)", rs_sampler_names());
  rs_sampler *s = calloc(1, sizeof *s);
  if (!s) return tk_error_set(err, TK_ENOMEM, -1, "sampler '%s': out of memory", name);
  snprintf(s->name, sizeof s->name, "%s", name);
  int rc = 0;
  if (!table[i].open) {
    const tk_riichi_sampler *e = tk_riichi_sampler_find(name);
    if (options_json && strspn(options_json, " \t\r\n{}") != strlen(options_json))
      rc = tk_error_set(err, TK_EINVAL, -1, "sampler '%s' takes no options (got %.80s)", name,
                        options_json);
    else if (file && file[0])
      rc = tk_error_set(err, TK_EINVAL, -1, "sampler '%s' takes no weights file (got '%s')",
                        name, file);
    else
      s->s = *e;
  } else {
    rc = table[i].open(s, options_json, file, err);
  }
  if (rc) {
    rs_sampler_close(s);
    return rc;
  }
  *out = s;
  return 0;
}

void rs_sampler_close(rs_sampler *s) {
  if (!s) return;
  if (s->free_ctx && s->s.ctx) s->free_ctx(s->s.ctx);
  free(s);
}

int rs_unseen(const tk_riichi_view *v, const tk_riichi_rules *rules, uint8_t unseen[TK_KINDS],
              uint8_t *red_unseen) {
  tk_riichi_rules r = rules ? *rules : tk_riichi_default_rules();
  int cnt[TK_KINDS], red[3];
  for (int k = 0; k < TK_KINDS; k++) cnt[k] = 4;
  for (int u = 0; u < 3; u++) red[u] = r.red_fives ? 1 : 0;
#define SEE(t)                                                                      \
  do {                                                                              \
    int k_ = tk_tile_kind(t);                                                       \
    if (k_ >= TK_KINDS || --cnt[k_] < 0) return -1;                                 \
    if (tk_tile_is_red(t) && (k_ >= 27 || k_ % 9 != 4 || --red[k_ / 9] < 0)) return -1; \
  } while (0)
  for (int i = 0; i < v->nhand; i++) SEE(v->tiles[i]);
  for (int i = 0; i < v->ndora && i < 5; i++) SEE(v->dora[i]);
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < v->nriver[s] && i < TK_RIICHI_MAX_RIVER; i++)
      if (!(v->river[s][i].flags & TK_RIICHI_CALLED)) SEE(v->river[s][i].tile);
    for (int i = 0; i < v->nmelds[s] && i < 4; i++)
      for (int j = 0; j < 4; j++)
        if (v->melds[s][i].tiles[j] != TK_TILE_NONE) SEE(v->melds[s][i].tiles[j]);
  }
#undef SEE
  uint8_t rb = 0;
  for (int k = 0; k < TK_KINDS; k++) unseen[k] = (uint8_t)cnt[k];
  for (int u = 0; u < 3; u++) rb |= (uint8_t)((red[u] > 0) << u);
  if (red_unseen) *red_unseen = rb;
  return 0;
}

int rs_concealed(const tk_riichi_view *v, int s) {
  return s == v->seat ? v->nhand : 13 - 3 * v->nmelds[s];
}

int rs_default_file(const void *anchor, const char *name, const char *who, char *out, size_t cap,
                    tk_error *err) {
  char alt[4096];
  snprintf(alt, sizeof alt, "plugins/%s", name);
  if (!tk_weights_beside(anchor, name, out, cap) && !access(out, R_OK)) return 0;
  if (!tk_weights_beside(anchor, alt, out, cap) && !access(out, R_OK)) return 0;
  return tk_error_set(err, TK_ENOTFOUND, -1, "%s: its default weights file %s is found neither "
                      "beside the shared object nor in plugins/ beside the program", who, name);
}
