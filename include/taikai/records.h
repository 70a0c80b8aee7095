/* taikai/records.h — decision records: every decision an agent made in a tournament (the view
 * it saw, the legal actions, the action it chose) and the outcome of its unit, as written by
 * `taikai run --records` to <out>/records.tkr, and a reader that streams them to a trainer.
 *
 * The format is game-neutral: the view, legal and action of a decision are the game's boundary
 * structs (taikai/solo.h, taikai/riichi.h, ...) stored as their bytes, whose sizes and the
 * game's types version the header states, so a reader built against other types refuses the
 * file instead of misreading it. All integers are little-endian.
 *
 *   file    = header unit*
 *   header  = "TKRECORD" u32:format(1) u32:abi_version u32:types_version
 *             u32:view_size u32:legal_size u32:action_size u32:nseats u32:nfields u32:nagents
 *             char[32]:game  u32:names_len  names   (names: the field names then the agent
 *             labels, each NUL-terminated, names_len bytes in all)
 *   unit    = "UNIT" u32:packed_len u32:raw_len u32:crc32(raw)  packed   (packed: raw deflated
 *             by zlib, packed_len bytes)
 *   raw     = u64:unit u64:wall u32:nseats u32:ndecisions
 *             nseats x (i32:agent i32:fault_kind i64[nfields]:fields)
 *             ndecisions x (u32:seat u32:agent view legal action)
 * Units appear in unit order, one per unit of games.jsonl (its result fields are the same). A
 * unit replayed after a fault holds the decisions of its final play only, and decisions made by
 * the fallback in a faulted seat, or substituted for illegal actions, are not recorded. */
#ifndef TAIKAI_RECORDS_H
#define TAIKAI_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* These functions come from the static library taikai_data, linked into the referee, trainers
 * and plugins; a plugin built with hidden visibility keeps them to itself. */
#ifndef TK_DATA_API
#define TK_DATA_API
#endif

#define TK_RECORDS_FORMAT 1u
/* What a reader accepts; a file beyond any of these is refused as corrupt. */
enum {
  TK_RECORDS_MAX_SEATS = 8,
  TK_RECORDS_MAX_FIELDS = 16,
  TK_RECORDS_MAX_AGENTS = 256,
  TK_RECORDS_MAX_STRUCT = 1 << 20, /* view, legal and action sizes */
  TK_RECORDS_MAX_NAMES = 1 << 20,  /* the header's names block */
  TK_RECORDS_FAULT_KINDS = 7,      /* fault_kind 0..6: none, crash, exit, timeout, memory,
                                    * illegal, error (the referee's tk_fault_kind) */
};

typedef struct tk_records_header {
  uint32_t format, abi_version, types_version;
  uint32_t view_size, legal_size, action_size;
  uint32_t nseats, nfields, nagents;
  char game[32];
  const char *field[TK_RECORDS_MAX_FIELDS];  /* field names (borrowed from the reader) */
  const char *agent[TK_RECORDS_MAX_AGENTS];  /* agent labels, by spec index */
} tk_records_header;

/* One unit, as the reader returns it (borrowed until the next call). */
typedef struct tk_records_unit {
  uint64_t unit, wall;
  uint32_t nseats, ndecisions;
  int32_t agent[TK_RECORDS_MAX_SEATS];      /* spec index of each seat's agent */
  int32_t fault_kind[TK_RECORDS_MAX_SEATS]; /* 0, or the seat's fault (it was forfeited) */
  int64_t field[TK_RECORDS_MAX_SEATS][TK_RECORDS_MAX_FIELDS]; /* games.jsonl's result fields */
  const uint8_t *decisions;                 /* ndecisions records (tk_records_decision) */
} tk_records_unit;

typedef struct tk_records_decision {
  uint32_t seat, agent;
  const void *view, *legal, *action; /* the game's structs; copy before use if alignment
                                      * matters (they are packed one after another) */
} tk_records_decision;

typedef struct tk_records tk_records;

/* Opens a records file (a regular file: tk_file_open refuses a FIFO or a device) and checks its
 * header. Returns 0 with an owned reader in *out, or TK_ENOTFOUND / TK_EINVAL / TK_EIO /
 * TK_EPARSE with the file and what is wrong (the header field and its value) in `err`. */
TK_DATA_API int tk_records_open(const char *path, tk_records **out, tk_error *err);
/* The file's header (borrowed). */
TK_DATA_API const tk_records_header *tk_records_header_of(const tk_records *r);
/* Checks that the file holds game `game` with these struct sizes and types version (a
 * trainer's guard). Returns 0 or TK_EABI naming both sides. */
TK_DATA_API int tk_records_expect(const tk_records *r, const char *game, uint32_t types_version,
                             size_t view_size, size_t legal_size, size_t action_size,
                             tk_error *err);
/* tk_records_open then tk_records_expect: a trainer's one call. Returns 0 with an owned reader in
 * *out, or the first error (the file, and what is wrong) with *out NULL. */
TK_DATA_API int tk_records_open_game(const char *path, const char *game, uint32_t types_version,
                                size_t view_size, size_t legal_size, size_t action_size,
                                tk_records **out, tk_error *err);
/* Reads the next unit. Returns 1 with *u filled, 0 at the end of the file, or TK_EPARSE for a
 * truncated or corrupt file, naming the file, the unit's byte offset, and the field and value
 * out of range. A unit returned has been checked whole: its seats' agents < nagents and
 * fault kinds < TK_RECORDS_FAULT_KINDS, and every decision's seat < nseats and agent < nagents
 * (the view, legal and action bytes are the game's to check). */
TK_DATA_API int tk_records_next(tk_records *r, tk_records_unit *u, tk_error *err);
/* Decision i (< u->ndecisions) of the unit last read. */
TK_DATA_API void tk_records_decision_at(const tk_records *r, const tk_records_unit *u, uint32_t i,
                                   tk_records_decision *d);
/* The byte offset just past the last unit read (where the next one starts). */
TK_DATA_API uint64_t tk_records_offset(const tk_records *r);
/* Closes the reader; NULL is a no-op. */
TK_DATA_API void tk_records_close(tk_records *r);

/* ---- writing (the referee) */

/* Writes the header to `f`. `fields` and `agents` are NULL-free arrays of nfields/nagents
 * names. Returns 0 or TK_EIO. */
TK_DATA_API int tk_records_write_header(FILE *f, const tk_records_header *h);

/* A unit being built: decisions appended one by one, then packed. */
typedef struct tk_records_builder {
  uint8_t *buf;         /* owned */
  size_t len, cap;
  uint32_t ndecisions;
  size_t view_size, legal_size, action_size;
  uint8_t *packed;      /* owned: the last packed unit */
  size_t packed_len, packed_cap;
} tk_records_builder;

TK_DATA_API void tk_records_builder_init(tk_records_builder *b, size_t view_size, size_t legal_size,
                                    size_t action_size);
TK_DATA_API void tk_records_builder_free(tk_records_builder *b);
/* Starts a unit (forgets any decisions appended since the last start). */
TK_DATA_API void tk_records_builder_reset(tk_records_builder *b);
/* Appends one decision. Returns 0 or TK_ENOMEM. */
TK_DATA_API int tk_records_builder_add(tk_records_builder *b, uint32_t seat, uint32_t agent,
                                  const void *view, const void *legal, const void *action);
/* Packs the unit (its outcome given here) into b->packed / b->packed_len: a whole "UNIT" block
 * ready to be written. Returns 0 or TK_ENOMEM. */
TK_DATA_API int tk_records_builder_pack(tk_records_builder *b, uint64_t unit, uint64_t wall,
                                   uint32_t nseats, uint32_t nfields, const int32_t *agent,
                                   const int32_t *fault_kind,
                                   const int64_t (*field)[TK_RECORDS_MAX_FIELDS]);

/* Counts the complete units at the start of a records file (stopping at the first truncated
 * or corrupt one) into *units. Returns 0, or the error of opening the file. */
TK_DATA_API int tk_records_count(const char *path, uint64_t *units, tk_error *err);

/* Scans the units of a records file left by an interrupted run and keeps the first `units`
 * (truncating the file after them, or after the header when units is 0). Returns 0, or
 * TK_EPARSE when the file holds fewer complete units than that (naming the file and the
 * count), or TK_EIO. */
TK_DATA_API int tk_records_truncate(const char *path, uint64_t units, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
