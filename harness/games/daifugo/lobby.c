/* harness/games/daifugo/lobby.c — accepting UECda clients side by side (lobby.h). Owns the connections
 * between their accept and their player id: a list of pending handshakes in accept order, each
 * with the bytes of its profile read so far and its deadline, polled together with the listening
 * socket. Invariant: a pending connection is non-blocking; a seated one is blocking again. */
#include "lobby.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

typedef struct pending {
  int fd;
  int64_t deadline;                     /* CLOCK_MONOTONIC ms: its handshake limit */
  size_t got;                           /* bytes of the profile read */
  uint8_t buf[TK_UECDA_TABLE_BYTES];
  char addr[64];                        /* "HOST:PORT" */
  short revents;                        /* of the last poll */
} pending;

typedef struct lobby {
  pending *p;
  int n;                                /* pending connections, in accept order */
  FILE *notes;
  const char *who;
} lobby;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int set_blocking(int fd, int blocking) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0) return -1;
  return fcntl(fd, F_SETFL, blocking ? fl & ~O_NONBLOCK : fl | O_NONBLOCK);
}

static void addr_of(const struct sockaddr_storage *ss, char *out, size_t cap) {
  char host[INET6_ADDRSTRLEN] = "?";
  unsigned port = 0;
  if (ss->ss_family == AF_INET) {
    const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
    snprintf(out, cap, "%s:%u", host, port);
  } else if (ss->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
    inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
    snprintf(out, cap, "[%s]:%u", host, port);
  } else {
    snprintf(out, cap, "?");
  }
}

/* Closes pending connection i (the list keeps its accept order), with a note when `why`. */
static void drop(lobby *l, int i, const char *why) {
  pending *q = &l->p[i];
  if (why)
    fprintf(l->notes, "%s: a client from %s sent %zu of the 480 bytes of its profile table%s: "
            "closed\n", l->who, q->addr, q->got, why);
  close(q->fd);
  memmove(q, q + 1, (size_t)(l->n - i - 1) * sizeof *q);
  l->n--;
}

/* Accepts what the backlog holds, up to TK_LOBBY_PENDING_MAX pending; `limit_ms` from now is
 * each one's deadline (0: close each at once, every seat being taken). Returns 0, 1 when the
 * process has no descriptor left (accept again once one is freed), or -1 with errno. */
static int accept_all(lobby *l, int listen_fd, int limit_ms) {
  while (l->n < TK_LOBBY_PENDING_MAX) {
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept(listen_fd, (struct sockaddr *)&ss, &sl);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      if (errno == EMFILE || errno == ENFILE) return 1;
      return -1;
    }
    pending *q = &l->p[l->n];
    memset(q, 0, sizeof *q);
    q->fd = fd;
    addr_of(&ss, q->addr, sizeof q->addr);
    if (!limit_ms) {
      fprintf(l->notes, "%s: a client from %s waited in the backlog until every seat was taken: "
              "closed\n", l->who, q->addr);
      close(fd);
      continue;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    set_blocking(fd, 0);
    tk_uecda_nodelay(fd);
    q->deadline = now_ms() + limit_ms;
    l->n++;
  }
  return 0;
}

/* Reads what pending connection i has sent. Returns 1 when its profile is whole, 0 when it
 * waits for more, -1 when it was closed (noted). */
static int read_profile(lobby *l, int i) {
  pending *q = &l->p[i];
  for (;;) {
    ssize_t r = recv(q->fd, q->buf + q->got, sizeof q->buf - q->got, 0);
    if (r > 0) {
      q->got += (size_t)r;
      if (q->got == sizeof q->buf) return 1;
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    drop(l, i, ""); /* the peer closed, or the connection failed */
    return -1;
  }
}

int tk_lobby_fill(int listen_fd, int n, const int32_t ids[], int handshake_ms, FILE *notes,
                  const char *who, tk_lobby_guest guests[], tk_error *err) {
  if (n <= 0) return 0; /* no seat to fill: the backlog is left as it is */
  lobby l = {.p = calloc(TK_LOBBY_PENDING_MAX, sizeof(pending)), .notes = notes, .who = who};
  struct pollfd *pfd = calloc(TK_LOBBY_PENDING_MAX + 1, sizeof *pfd);
  if (!l.p || !pfd) {
    free(l.p), free(pfd);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory for the handshakes");
  }
  int listen_fl = fcntl(listen_fd, F_GETFL);
  set_blocking(listen_fd, 0);
  int seated = 0, rc = 0, no_fd = 0;
  char note[96];
  while (seated < n) {
    if (tk_run_stop_signal) {
      rc = tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d while waiting for clients",
                        (int)tk_run_stop_signal);
      break;
    }
    int64_t now = now_ms(), next = -1;
    for (int i = 0; i < l.n;) {
      if (l.p[i].deadline <= now) {
        snprintf(note, sizeof note, " within the handshake limit (%d ms)", handshake_ms);
        drop(&l, i, note);
        no_fd = 0;
        continue;
      }
      if (next < 0 || l.p[i].deadline < next) next = l.p[i].deadline;
      i++;
    }
    int k = 0, listening = l.n < TK_LOBBY_PENDING_MAX && !no_fd;
    if (listening) pfd[k++] = (struct pollfd){.fd = listen_fd, .events = POLLIN};
    for (int i = 0; i < l.n; i++) pfd[k++] = (struct pollfd){.fd = l.p[i].fd, .events = POLLIN};
    int ready = poll(pfd, (nfds_t)k, next < 0 ? -1 : (int)(next - now));
    if (ready < 0) {
      if (errno == EINTR) continue;
      rc = tk_error_set(err, TK_EIO, -1, "poll while waiting for clients: %s", strerror(errno));
      break;
    }
    for (int i = 0; i < l.n; i++) l.p[i].revents = pfd[i + listening].revents;
    /* the handshakes, in accept order: the k-th whole good profile takes ids[k] */
    for (int i = 0; i < l.n && seated < n;) {
      if (!l.p[i].revents) {
        i++;
        continue;
      }
      int whole = read_profile(&l, i);
      if (whole < 0) {
        no_fd = 0;
        continue;
      }
      if (!whole) {
        i++;
        continue;
      }
      pending *q = &l.p[i];
      tk_uecda_table t;
      tk_uecda_unpack(q->buf, &t);
      if (t.c[0][0] != TK_UECDA_PROTOCOL) {
        fprintf(notes, "%s: a client from %s sent protocol %ld, not 20070: closed\n", who,
                q->addr, (long)t.c[0][0]);
        drop(&l, i, NULL);
        no_fd = 0;
        continue;
      }
      tk_lobby_guest *g = &guests[seated];
      memset(g, 0, sizeof *g);
      for (int c = 0; c < TK_UECDA_NAME_MAX && t.c[1][c]; c++)
        g->name[c] = t.c[1][c] > 32 && t.c[1][c] < 127 ? (char)t.c[1][c] : '?';
      snprintf(g->addr, sizeof g->addr, "%s", q->addr);
      if (set_blocking(q->fd, 1) || tk_uecda_send_int(q->fd, ids[seated])) {
        fprintf(notes, "%s: a client from %s closed before its player id: %s\n", who, q->addr,
                strerror(errno));
        drop(&l, i, NULL);
        no_fd = 0;
        continue;
      }
      g->fd = q->fd;
      seated++;
      memmove(q, q + 1, (size_t)(l.n - i - 1) * sizeof *q); /* the guest's now */
      l.n--;
    }
    if (seated < n && listening && pfd[0].revents) {
      int a = accept_all(&l, listen_fd, handshake_ms);
      if (a < 0) {
        rc = tk_error_set(err, TK_EIO, -1, "accept: %s", strerror(errno));
        break;
      }
      if (a && !l.n) {
        rc = tk_error_set(err, TK_EIO, -1, "accept: %s", strerror(EMFILE));
        break;
      }
      no_fd = a;
    }
  }
  /* every seat taken (or a failure): the rest are closed, the backlog's too */
  while (l.n) drop(&l, 0, rc ? NULL : "; every seat is taken");
  if (!rc) accept_all(&l, listen_fd, 0);
  if (listen_fl >= 0) fcntl(listen_fd, F_SETFL, listen_fl);
  if (rc)
    for (int k = 0; k < seated; k++) close(guests[k].fd);
  free(l.p);
  free(pfd);
  return rc;
}
