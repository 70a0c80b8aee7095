/* plugins/riichi_sampler/obs.c — the observation and target encodings of obs.h. */
#include "obs.h"

#include <pthread.h>
#include <string.h>

#include "rsamp.h"

enum { O_SEATS = 34, O_DORA = 34 + 4 * RS_OBS_SEAT, O_UNSEEN = O_DORA + 34,
       O_LEFT = O_UNSEEN + 34, O_WIND = O_LEFT + 1, O_SWIND = O_WIND + 4, O_SCORE = O_SWIND + 4 };
_Static_assert(O_SCORE + 4 == RS_OBS_DIM, "obs layout");

/* The scale of raw byte i (a pure function: no shared state, so any thread may encode). */
static float scale_of(int i) {
  if (i >= O_SEATS && i < O_DORA) {
    int j = (i - O_SEATS) % RS_OBS_SEAT;
    if (j == 136) return 1;
    if (j == 137 || j == 138) return 1.0f / 24;
    return 0.25f;
  }
  if (i == O_LEFT) return 1.0f / 70;
  if (i >= O_WIND && i < O_SCORE) return 1;
  if (i >= O_SCORE) return 1.0f / 50;
  return 0.25f;
}

static float scale[RS_OBS_DIM];
static pthread_once_t scale_once = PTHREAD_ONCE_INIT;
static void scale_init(void) {
  for (int i = 0; i < RS_OBS_DIM; i++) scale[i] = scale_of(i);
}

const float *rs_obs_scale(void) {
  pthread_once(&scale_once, scale_init);
  return scale;
}

static uint8_t clamp8(int x) { return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x); }

int rs_obs_raw(const tk_riichi_view *v, const tk_riichi_rules *rules, uint8_t raw[RS_OBS_DIM]) {
  memset(raw, 0, RS_OBS_DIM);
  for (int k = 0; k < TK_KINDS; k++) raw[k] = v->hand[k];
  for (int r = 0; r < 4; r++) {
    int s = rs_seat_of(v->seat, r);
    uint8_t *b = raw + O_SEATS + r * RS_OBS_SEAT;
    int nr = v->nriver[s] < TK_RIICHI_MAX_RIVER ? v->nriver[s] : TK_RIICHI_MAX_RIVER;
    for (int i = 0; i < nr; i++) {
      int k = tk_tile_kind(v->river[s][i].tile);
      if (k >= TK_KINDS) continue;
      b[(v->river[s][i].flags & TK_RIICHI_TSUMOGIRI) ? 34 + k : k]++;
      if (i < 6) b[68 + k]++;
    }
    for (int i = 0; i < v->nmelds[s] && i < 4; i++)
      for (int j = 0; j < 4; j++)
        if (v->melds[s][i].tiles[j] != TK_TILE_NONE) {
          int k = tk_tile_kind(v->melds[s][i].tiles[j]);
          if (k < TK_KINDS) b[102 + k]++;
        }
    b[136] = v->riichi[s] != 0;
    b[137] = v->riichi[s] ? clamp8(v->riichi_index[s]) : 0;
    b[138] = clamp8(v->nriver[s]);
    b[139] = v->nmelds[s];
  }
  for (int i = 0; i < v->ndora && i < 5; i++) {
    int k = tk_tile_kind(v->dora[i]);
    if (k < TK_KINDS) raw[O_DORA + k]++;
  }
  uint8_t unseen[TK_KINDS];
  int rc = rs_unseen(v, rules, unseen, NULL);
  if (!rc) memcpy(raw + O_UNSEEN, unseen, TK_KINDS);
  raw[O_LEFT] = v->tiles_left;
  raw[O_WIND + (v->round_wind & 3)] = 1;
  raw[O_SWIND + (v->seat_wind & 3)] = 1;
  for (int r = 0; r < 4; r++) raw[O_SCORE + r] = clamp8(v->scores[rs_seat_of(v->seat, r)] / 1000);
  return rc ? -1 : 0;
}

int rs_obs_encode(const tk_riichi_view *v, const tk_riichi_rules *rules, float c[RS_OBS_DIM]) {
  uint8_t raw[RS_OBS_DIM];
  int rc = rs_obs_raw(v, rules, raw);
  for (int i = 0; i < RS_OBS_DIM; i++) c[i] = raw[i] * scale_of(i);
  return rc;
}

void rs_x0_raw(const tk_riichi_game *g, int viewer, uint8_t raw[RS_X_DIM]) {
  for (int r = 0; r < 4; r++) {
    const tk_riichi_player *p = &g->p[rs_seat_of(viewer, r)];
    uint8_t *row = raw + r * RS_X_ROW;
    memcpy(row, p->hand, TK_KINDS);
    memset(row + TK_KINDS, 0, TK_KINDS);
    for (int u = 0; u < 3; u++)
      if (p->red >> u & 1) row[TK_KINDS + 9 * u + 4] = 1;
  }
}

void rs_x0_row(const uint8_t hand[TK_KINDS], unsigned red, float row[RS_X_ROW]) {
  for (int k = 0; k < TK_KINDS; k++) row[k] = hand[k] * 0.25f, row[TK_KINDS + k] = 0;
  for (int u = 0; u < 3; u++)
    if (red >> u & 1) row[TK_KINDS + 9 * u + 4] = 1;
}
