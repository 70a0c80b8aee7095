/* plugins/riichi_mcp/mcp_io.h — the example file of the MCP/BCP han predictors (paper 000 §5.1),
 * written by riichi_mcp_records and read by riichi_mcp_train.
 *
 * Layout (little-endian):
 *   header  = "TKMCPEX1" u32:format(1) u32:feature_version u32:opponents u32:max_turn
 *             u64:seed u8[32]:sha256 of the policy weights u32:crc32 (of the header before it)
 *   record* = varint:hand_delta u8:label varint:n varint[n]:index_delta u32:crc32 (of the
 *             record before it)
 * hand_delta is the hand index minus the previous record's plus one (the first record: the hand
 * index + 1), so records are in strictly increasing hand order; index_delta is the feature index
 * minus the previous one (the first: the index itself), so indices are strictly ascending and
 * below ROF_FEATURES. A file ends after a whole record; a record cut short or failing its
 * checksum is a torn tail (the generator truncates it on resume, the trainer refuses it). */
#ifndef RIICHI_MCP_IO_H
#define RIICHI_MCP_IO_H

#include <stdint.h>
#include <stdio.h>

#include "taikai/common.h"

#define MCX_MAGIC "TKMCPEX1"
enum { MCX_FORMAT = 1, MCX_HEADER_BYTES = 8 + 4 * 4 + 8 + 32 + 4, MCX_MAX_FEATURES = 512,
       MCX_CLASSES = 5 };
enum { MCX_OPP_TSUMOGIRI = 0, MCX_OPP_POLICY = 1 };

typedef struct mcx_header {
  uint32_t feature_version, opponents, max_turn;
  uint64_t seed;
  uint8_t weights_sha[32];
} mcx_header;

typedef struct mcx_example {
  uint64_t hand;    /* the hand index it came from */
  uint8_t label;    /* 0 no win, 1, 2, 3, 4 (>= 4 han or yakuman) */
  uint16_t n;       /* active features */
  uint32_t f[MCX_MAX_FEATURES];
} mcx_example;

/* Encodes `h` into buf (MCX_HEADER_BYTES). */
void mcx_header_encode(const mcx_header *h, uint8_t *buf);
/* Encodes `e` (after the record of hand `prev_hand`, or prev_hand = -1 for the first: pass
 * UINT64_MAX) into buf (at least mcx_record_max bytes). Returns its length. */
enum { MCX_RECORD_MAX = 10 + 1 + 3 + 5 * MCX_MAX_FEATURES + 4 };
size_t mcx_record_encode(const mcx_example *e, uint64_t prev_hand, uint8_t *buf);

typedef struct mcx_reader {
  FILE *f;
  const char *path;
  mcx_header h;
  uint64_t prev_hand;  /* UINT64_MAX before the first record */
  uint64_t records;    /* whole records read */
  long good_end;       /* file offset after the last whole record */
} mcx_reader;

/* Opens `path` and reads its header. Returns 0, or TK_EIO / TK_EPARSE naming the file and the
 * field. */
int mcx_open(mcx_reader *r, const char *path, tk_error *err);
/* Reads the next record. Returns 1 with `e` filled, 0 at a clean end of file, or TK_EPARSE
 * (a torn or corrupt record: the message names the file, the record number and the field). */
int mcx_next(mcx_reader *r, mcx_example *e, tk_error *err);
void mcx_close(mcx_reader *r);

#endif
