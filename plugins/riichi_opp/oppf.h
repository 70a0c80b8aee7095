/* plugins/riichi_opp/oppf.h — the public features of another seat o that the opponent
 * models read from one viewer's tk_riichi_view: the order of the hand's discards (rebuilt from
 * the rivers and the callers' melds), a per-seat summary, and the three feature vectors (tenpai,
 * one per tile kind for the waits, loss). Shared by the models (opp.c), the trainer and the
 * tests: a model is right only when it reads exactly the features it was trained on, so
 * RM_OPPF_VERSION changes with any change here and old model files are then refused.
 *
 * Everything is computed from the view alone: nothing hidden (another hand, the wall) is read.
 * No allocation; every function is pure. */
#ifndef RIICHI_OPP_FEATURES_H
#define RIICHI_OPP_FEATURES_H

#include <stdint.h>

#include "taikai/riichi.h"

enum {
  RM_OPPF_VERSION = 1,
  RM_OPPF_NT = 24, /* tenpai features */
  RM_OPPF_NW = 30, /* wait features of one (seat, kind) */
  RM_OPPF_NL = 14  /* loss features */
};

/* Wait classes of a kind for seat o (features 1..6 of the wait vector). */
enum { RM_OPPF_T19 = 0, RM_OPPF_T28, RM_OPPF_T37, RM_OPPF_T456, RM_OPPF_YAKUHAI, RM_OPPF_OTAKAZE };

/* What one view shows, computed once for all seats. */
typedef struct rm_oppf_view {
  uint8_t visible[TK_KINDS];              /* copies the viewer sees: seen + its own hand */
  uint64_t dora;                          /* dora kinds (of the revealed indicators) */
  int16_t order[4][TK_RIICHI_MAX_RIVER];  /* each discard's place in the hand's sequence */
  int16_t call_at[4];                     /* place of the discard the seat last called, or -1 */
  uint8_t any_riichi;                     /* bit s: seat s is in riichi */
} rm_oppf_view;

/* The summary of one seat o that its features read. */
typedef struct rm_oppf_seat {
  int o;
  uint64_t river;         /* kinds in o's river (furiten: o cannot ron them) */
  uint64_t passed_riichi; /* kinds another seat discarded after o's riichi declaration */
  uint64_t passed_last;   /* kinds another seat discarded after o's latest discard */
  int ref;                /* o's riichi declaration kind, else its latest discard from the hand
                             (not tsumogiri), else -1 */
  int honitsu;            /* the one number suit (0..2) of o's melds when o has called and
                             every meld is of that suit or honors; else -1 */
  uint8_t early_suit[4];  /* o's first 6 discards by suit (3 = honors) */
  uint8_t all_suit[4];    /* all o's discards by suit */
  uint8_t near[TK_KINDS]; /* kinds of o's river within 2 of the kind in its suit (0..4) */
  uint8_t nriver, n_open, n_ankan, open;
  uint8_t dora_melds;     /* dora (kinds and red fives) among o's meld tiles */
  uint8_t yakuhai_melds;  /* o's pons and kans of a value honor for o */
  uint8_t toitoi, tanyao; /* o has at least 2 melds, all pons/kans; o has called, every meld
                             tile 2-8 */
} rm_oppf_seat;

/* Fills `pv` from `v`. The order: from the dealer, each seat's next discard in turn; a discard
 * flagged CALLED passes the turn to the seat holding an unmatched meld called from it of that
 * tile (the first such in turn order); discards the walk cannot place come last. */
void rm_oppf_view_init(const tk_riichi_view *v, rm_oppf_view *pv);
/* Fills `s` for seat o of the view. */
void rm_oppf_seat_init(const tk_riichi_view *v, const rm_oppf_view *pv, int o, rm_oppf_seat *s);

/* The wait class of kind k for seat o (RM_OPPF_T19 ...). */
int rm_oppf_class(const tk_riichi_view *v, int o, int k);

/* The feature vectors (x[0] = 1, the bias). rm_oppf_names(0/1/2, i) names feature i of the
 * tenpai / wait / loss vector. */
void rm_oppf_tenpai(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s,
                    float x[RM_OPPF_NT]);
void rm_oppf_wait(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s, int k,
                  float x[RM_OPPF_NW]);
void rm_oppf_loss(const tk_riichi_view *v, const rm_oppf_view *pv, const rm_oppf_seat *s,
                  float x[RM_OPPF_NL]);
const char *rm_oppf_name(int model, int i);

#endif
