/* harness/games/riichi/import.h — Tenhou mjlog records converted into taikai's mjai JSON lines (the
 * format of harness/games/riichi/riichi_log.h), so that `taikai replay` and every mjai tool read them.
 * The converter is pure text in, lines out; the command (`taikai import tenhou`) adds files,
 * folders and gzip. */
#ifndef TAIKAI_HARNESS_IMPORT_H
#define TAIKAI_HARNESS_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "taikai/common.h"

typedef struct tk_tenhou_import {
  int hands; /* INIT tags converted */
  int wins;  /* AGARI tags converted */
  int draws; /* RYUUKYOKU tags converted */
  int ended; /* 1 when the record has its game end (an owari attribute) */
} tk_tenhou_import;

/* Converts one Tenhou mjlog record (the XML text `xml` of `len` bytes) into mjai JSON lines
 * written to `out`: start_game (names from UN, the rules from GO under "taikai_rules"),
 * start_kyoku, tsumo, dahai (tsumogiri when the discard is the tile just drawn), chi, pon,
 * daiminkan, kakan, ankan, dora, reach, reach_accepted, hora (the record's own fu, han, yaku,
 * limit, points, ura indicators, liable seat, deltas and scores), ryukyoku, end_kyoku and
 * end_game (the owari scores). An open kan's indicator, which Tenhou writes before the
 * discard that turns it, is written after that discard (the order taikai's engine and the
 * mjai logs use). `name` labels errors. Returns 0 with `st` (may be NULL) filled; TK_EPARSE
 * or TK_EINVAL with `err` naming the tag (its number in the record and its text), the
 * attribute and the value; TK_EIO when `out` fails; TK_ENOMEM. */
int tk_tenhou_import_text(const char *xml, size_t len, const char *name, FILE *out,
                          tk_tenhou_import *st, tk_error *err);

#endif
