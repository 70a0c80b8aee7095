/* harness/games/daifugo/lobby.h — the UECda handshake of `taikai serve`, many connections at once: every
 * connection is accepted as it comes and reads its profile table (480 bytes, protocol 20070)
 * side by side with the others under one poll(), each within its own handshake limit, so a
 * connection that says nothing, or says it slowly, never delays another's handshake. The k-th
 * good profile is answered with the k-th player id; the others are closed with a line naming
 * their address. */
#ifndef TAIKAI_HARNESS_LOBBY_H
#define TAIKAI_HARNESS_LOBBY_H

#include <stdint.h>
#include <stdio.h>

#include "uecda.h"

enum {
  TK_LOBBY_HANDSHAKE_MS = 5000, /* the default handshake limit */
  TK_LOBBY_PENDING_MAX = 256    /* connections handshaking at once; more wait in the backlog */
};

typedef struct tk_lobby_guest {
  int fd;                           /* the connection (blocking, TCP_NODELAY); the caller's */
  char name[TK_UECDA_NAME_MAX + 1]; /* the profile's name ('?' for unprintable characters) */
  char addr[64];                    /* the peer, "HOST:PORT" */
} tk_lobby_guest;

/* Accepts connections on `listen_fd` until `n` of them sent a good profile: the k-th is sent
 * ids[k] and fills guests[k]. A connection that closes, sends another protocol, fails to take
 * its id, or has no whole profile `handshake_ms` after its accept is closed with a line on
 * `notes` (prefixed `who`) naming its address; so are the connections still handshaking, and
 * those waiting in the backlog, once the n-th is seated. Returns 0; or TK_ESTATE when
 * tk_run_stop_signal is set, TK_EIO when poll or accept fails, TK_ENOMEM, with `err` (every
 * connection closed, the guests' too). With n 0 it returns 0 at once. */
int tk_lobby_fill(int listen_fd, int n, const int32_t ids[], int handshake_ms, FILE *notes,
                  const char *who, tk_lobby_guest guests[], tk_error *err);

#endif
