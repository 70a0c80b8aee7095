/* plugins/riichi_sampler/obs.h — what the learned samplers see (the observation c) and what they
 * produce (the target x0), paper 003's representation.
 *
 * c, RS_OBS_DIM numbers, each a small whole number ("raw", one byte) times a fixed scale, so
 * that trainers store a position in RS_OBS_DIM bytes. Seats are viewer-relative: r = 0 the
 * viewer, 1 the next seat (shimocha), 2 across, 3 the previous seat. In order:
 *   [0, 34)          the viewer's concealed tiles per kind / 4
 *   per r = 0..3, RS_OBS_SEAT numbers from 34 + r x RS_OBS_SEAT:
 *     +0   [34]      hand-cut discards per kind / 4 (called ones included: they were discarded)
 *     +34  [34]      tsumogiri discards per kind / 4
 *     +68  [34]      discards among the seat's first 6 per kind / 4 (early discards say most
 *                    about a hand's shape)
 *     +102 [34]      tiles of the seat's melds per kind / 4
 *     +136           riichi (1 riichi or double)
 *     +137           river index of the riichi declaration / 24 (0 without riichi)
 *     +138           river length / 24
 *     +139           melds / 4
 *   then from 34 + 4 x RS_OBS_SEAT:
 *     [34]           dora indicators per kind / 4
 *     [34]           copies the viewer cannot see per kind / 4 (rs_unseen)
 *     1              live tiles left / 70
 *     4              round wind one-hot, 4 the viewer's seat wind one-hot
 *     4              scores, viewer-relative, / 1000 clamped to 0..255, x 1/50
 *
 * x0, RS_X_DIM = 4 x 2 x 34 numbers in [0, 1]: for r = 0..3 (the viewer's own row included, as
 * the paper does) the concealed count of each kind / 4, then a red flag per kind (1 when the
 * seat conceals the red five of that kind's suit; only kinds 4, 13, 22 can be 1). The diffusion
 * works on 2 x0 - 1. */
#ifndef RIICHI_SAMPLER_OBS_H
#define RIICHI_SAMPLER_OBS_H

#include <stdint.h>

#include "taikai/riichi.h"

#define RS_OBS_VERSION 1u
enum {
  RS_OBS_SEAT = 140,
  RS_OBS_DIM = 34 + 4 * RS_OBS_SEAT + 34 + 34 + 1 + 4 + 4 + 4,
  RS_X_ROW = 2 * TK_KINDS,   /* one seat's 2 x 34 */
  RS_X_DIM = 4 * RS_X_ROW
};

/* The raw bytes of c for `v` (rules: NULL = the default; they decide the red fives counted
 * unseen). Returns 0, or -1 for an inconsistent view (raw then holds what was encoded). */
int rs_obs_raw(const tk_riichi_view *v, const tk_riichi_rules *rules, uint8_t raw[RS_OBS_DIM]);
/* The scale of each raw byte: c[i] = raw[i] x rs_obs_scale()[i]. */
const float *rs_obs_scale(void);
/* c itself. */
int rs_obs_encode(const tk_riichi_view *v, const tk_riichi_rules *rules, float c[RS_OBS_DIM]);

/* The raw target of game `g` seen by `viewer`: counts 0..4 and red flags 0/1 per seat row
 * (viewer-relative), RS_X_DIM bytes; x0[i] = raw[i] / 4 for counts, raw[i] for flags. */
void rs_x0_raw(const tk_riichi_game *g, int viewer, uint8_t raw[RS_X_DIM]);
/* One seat's row from counts and red bits (bit u: suit u's red five). */
void rs_x0_row(const uint8_t hand[TK_KINDS], unsigned red, float row[RS_X_ROW]);

#endif
