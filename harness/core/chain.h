/* harness/core/chain.h — games.chain: the digest chain that makes a run folder's games.jsonl
 * tamper-evident.
 *
 * games.chain is binary: a 64-byte header ("TKCHAIN1", the folder's first unit as 8 bytes
 * little-endian, the run's identity as 32 bytes, 16 zero bytes), then 32 bytes per unit:
 *   d(first) = SHA-256(identity || line(first)),  d(u) = SHA-256(d(u-1) || line(u))
 * where line(u) is unit u's games.jsonl line without its newline. The identity is the SHA-256
 * of the resolved spec (spec.json) with what does not make a tournament what it is left out:
 * "walls", "units", "output", "shard", "taikai_version" and the files' paths (their hashes
 * stay). So a shard's chain and the merged run's chain start from the same identity, and a run
 * extended to more walls keeps its chain.
 *
 * A line edited by hand, a line moved from another run, or a chain from another run is found
 * by a reader, which names the unit. The chain is not a signature: whoever can write the
 * folder can recompute it (`taikai verify` re-plays units instead). */
#ifndef TAIKAI_HARNESS_CHAIN_H
#define TAIKAI_HARNESS_CHAIN_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "taikai/common.h"
#include "taikai/sha256.h"

#define TK_CHAIN_FILE "games.chain"
enum { TK_CHAIN_HEADER = 64, TK_CHAIN_ENTRY = 32 };

/* The identity of a resolved spec (as tk_run_resolved_spec returns it or spec.json holds it). */
void tk_chain_identity(const json_t *resolved_spec, uint8_t id[TK_SHA256_BYTES]);

/* d = SHA-256(prev || line[0..len)). */
void tk_chain_next(const uint8_t prev[TK_SHA256_BYTES], const char *line, size_t len,
                   uint8_t d[TK_SHA256_BYTES]);

/* Writes a chain header for units from `first` on with identity `id`. Returns 0 or TK_EIO. */
int tk_chain_write_header(FILE *f, uint64_t first, const uint8_t id[TK_SHA256_BYTES]);

/* A chain being checked, entry by entry, against the lines of its games.jsonl. */
typedef struct tk_chain_check {
  FILE *f;                           /* the chain file, positioned at the next entry */
  char path[4096];                   /* for messages */
  uint64_t first;                    /* the unit of its first entry */
  uint64_t entries;                  /* complete entries in the file */
  uint64_t checked;                  /* entries checked so far */
  uint8_t prev[TK_SHA256_BYTES];     /* the last digest checked (the identity at first) */
} tk_chain_check;

/* Opens `path` to check lines of the run whose identity is `id` and whose first unit is
 * `first`. Returns 0; TK_ENOTFOUND when there is no such file; TK_EPARSE when it is not a
 * chain, or a chain of another run ("another tournament": its identity differs) or starting at
 * another unit (the message names the file and both values). */
int tk_chain_open(tk_chain_check *c, const char *path, uint64_t first,
                  const uint8_t id[TK_SHA256_BYTES], tk_error *err);

/* Checks the next line (unit c->first + c->checked). Returns 0 when its digest is the next
 * entry's; TK_ERANGE when the file has no more entries; TK_EPARSE when it differs ("unit U:
 * games.jsonl's line differs from what was written (its digest does not follow the chain in
 * games.chain)"). `what` names the games file in the message. */
int tk_chain_check_line(tk_chain_check *c, const char *what, const char *line, size_t len,
                        uint64_t unit, tk_error *err);

void tk_chain_close(tk_chain_check *c);

/* Checks a whole folder: every line of DIR/games.jsonl (or games.jsonl.gz) against
 * DIR/games.chain, with the identity of DIR/spec.json. Returns 0 and the units in `*units`;
 * TK_ENOTFOUND when the folder has no chain (a folder written before chains existed: the
 * message says so); TK_EPARSE naming the first unit that does not follow, or a line count that
 * differs from the chain's; TK_EIO. */
int tk_chain_verify_dir(const char *dir, uint64_t *units, tk_error *err);

/* For a command that reads a run folder's lines (`cmd`: "taikai report"): tk_chain_verify_dir
 * with its outcome printed. Returns 0 when the lines follow the chain, or when the folder has
 * no chain (a note on stderr: a folder written before chains were kept); 2 when a line does not
 * follow it (the reason on stderr). */
int tk_chain_vouch(const char *dir, const char *cmd);

#endif
