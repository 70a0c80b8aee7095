/* harness/run/mpi.c — `taikai run SPEC --mpi` (and `taikai gate ... --mpi`) under mpirun.
 *
 * Every rank runs the same command line. Rank 0 is the referee of a local run: it decides the
 * output folder, writes every output file through tk_run_execute (its `play` hook is
 * master_play here) and plays no unit itself. The other ranks prepare the same run (spec,
 * plugins, trial creates), say hello with a fingerprint of it, and then play the ranges of
 * units rank 0 hands them, in one local worker pool fed with those ranges (tk_pool_feed: forked
 * workers, so a crashing plugin is isolated as in a local run), sending every unit's record, decision
 * records and game log back to rank 0. Rank 0 puts them in unit order and hands them to the
 * run's sink, so the files are those of a local run, byte for byte: every unit's result
 * depends only on the seed, its wall and its seating, never on who played it.
 *
 * Hand-out is dynamic (guided self-scheduling: a range is a share of the units left, in
 * proportion to the rank's workers) and each rank asks for its next range as soon as it starts
 * one, so a fast rank takes more of the run and no rank waits for a reply.
 *
 * A rank that dies: Open MPI (Debian's 4.1, no ULFM) ends the whole job; mpirun sends SIGTERM to
 * the ranks left, then SIGKILL a second later. Rank 0 takes the SIGTERM as a local run takes
 * one: games.jsonl keeps every line written (the units received in order), a partial
 * summary.json is written, and the same command, locally or under mpirun, continues the run.
 * Units received beyond a gap left by the dead rank are not written (as a local pool drops
 * its out-of-order units when stopped) and are played again on resume. docs/mpi.md says what
 * was tried with `mpirun --enable-recovery` and why taikai does not rely on it.
 *
 * Protocol (MPI_BYTE messages on MPI_COMM_WORLD):
 *   rank r -> 0: HELLO (a hello struct) once prepared or refused; REQUEST for more units;
 *                RESULT (a batch of units, each a result_head, the tk_unit_rec, the packed
 *                records and the log bytes);
 *                FAIL (the text of a referee failure); BYE when it stops.
 *   0 -> rank r: RANGE (two uint64: first, count), NONE (no units left), STOP (end now). */
#define _DEFAULT_SOURCE 1 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confine.h"
#include "runargs.h"

#ifndef TAIKAI_MPI

int tk_run_mpi(const tk_run_args *a, const char *cmd, tk_run_hook hook, void *hook_ctx) {
  fprintf(stderr, "taikai %s: --mpi: this taikai was built without MPI; build it with "
          "cmake -DTAIKAI_MPI=ON (Open MPI: apt-get install openmpi-bin libopenmpi-dev, or make "
          "test-mpi), see docs/mpi.md\n", cmd);
  return 2;
}

#else

#include <dirent.h>
#include <errno.h>
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "taikai/sha256.h"
#include "watch.h"

enum { TAG_HELLO = 1, TAG_REQUEST, TAG_RANGE, TAG_NONE, TAG_STOP, TAG_RESULT, TAG_FAIL, TAG_BYE };

/* Units rank 0 may hold out of order (received beyond the next one to write): bounds its
 * memory when a rank is slow; no range is handed out past it. */
enum { WINDOW = 4096 };
/* How long rank 0 waits for the ranks' goodbyes once the run has ended (a rank finishes the
 * unit it is playing first) before it aborts the job. */
enum { BYE_SECONDS = 120 };

typedef struct hello {
  int32_t ok;                  /* 1 prepared; 0 refused (text says why) */
  int32_t jobs;                /* its worker processes */
  uint64_t rec_size;           /* tk_unit_rec_size of the game: the same build on every rank */
  char fingerprint[TK_SHA256_HEX]; /* SHA-256 of the resolved spec (plugin hashes included) */
  char host[MPI_MAX_PROCESSOR_NAME];
  char text[TK_ERROR_MSG_MAX]; /* its messages when refused */
} hello;

typedef struct result_head {
  uint64_t unit;
  uint32_t rec_len, records_len, log_len, has_log;
} result_head;

/* Results a playing rank gathers into one message: sent once BATCH_BYTES are gathered, a unit
 * finishes BATCH_NS after the first of them, or a range ends. The send is non-blocking (the
 * rank plays on while rank 0 receives it); two buffers take turns. */
enum { BATCH_BYTES = 1 << 18 };
static const int64_t BATCH_NS = 50000000;

typedef struct batch {
  char *buf;
  size_t used, cap;
  int64_t since;               /* when its first result was added */
  MPI_Request req;             /* the send in flight, or MPI_REQUEST_NULL */
} batch;

enum { PEER_WORKING, PEER_WAITING, PEER_DONE, PEER_GONE };

typedef struct peer {
  int state;    /* PEER_WAITING: asked for units not yet handed; PEER_DONE: told NONE or STOP;
                 * PEER_GONE: said goodbye */
  int jobs;
  char host[MPI_MAX_PROCESSOR_NAME];
} peer;

typedef struct mpi_ctx {
  const tk_run_args *a;
  const char *cmd;
  int rank, size;
  /* rank 0 */
  tk_run_hook hook;            /* the command's own hook (taikai gate's stopping rule) */
  void *hook_ctx;
  peer *peers;                 /* by rank; [0] unused */
  int helloed;                 /* every hello received */
  /* other ranks */
  const tk_run *r;
  int hooked;                  /* the run was prepared: the hook ran */
  int status;                  /* this rank's exit status */
  int stopped;                 /* rank 0 said STOP */
  batch out[2];                /* results being gathered, and the last batch sent */
  int cur;                     /* out[cur] gathers */
  char *in;                    /* messages from rank 0 */
  size_t incap;
  char logs_tmp[TK_PATH_MAX];  /* --logs: this rank's own folder for them, "" otherwise */
} mpi_ctx;

static void sleep_ns(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

/* Waits for a message from `src` with `tag` (MPI_ANY_*: any). Polls with a short sleep rather
 * than blocking in MPI, so that a rank waiting for work leaves the cores to the workers (Open MPI
 * spins in blocking calls) and rank 0 sees SIGINT/SIGTERM. Returns 1 with *st, or 0 if
 * `stoppable` and a stop signal came, or the deadline (ns, 0: none) passed. */
static int wait_msg(int src, int tag, MPI_Status *st, int stoppable, int64_t deadline) {
  long nap = 20000;
  for (;;) {
    int flag = 0;
    MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
    if (flag) return 1;
    if (stoppable && tk_run_stop_signal) return 0;
    if (deadline && tk_now_ns() > deadline) return 0;
    sleep_ns(nap);
    if (nap < 2000000) nap *= 2;
  }
}

/* Receives the message `st` announced into *buf (grown as needed). Returns its length, or -1
 * when out of memory. */
static int recv_msg(const MPI_Status *st, char **buf, size_t *cap) {
  int n = 0;
  MPI_Get_count(st, MPI_BYTE, &n);
  if ((size_t)n + 1 > *cap) {
    size_t c = *cap ? *cap : 4096;
    while (c < (size_t)n + 1) c *= 2;
    char *b = realloc(*buf, c);
    if (!b) return -1;
    *buf = b;
    *cap = c;
  }
  MPI_Recv(*buf, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  (*buf)[n] = '\0';
  return n;
}

static void send_empty(int to, int tag) { MPI_Send(NULL, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD); }

/* SHA-256 of the run's resolved spec (what spec.json holds: the spec with its defaults, plugin
 * versions, taikai version, and each plugin and weights file's SHA-256). */
static void fingerprint(const tk_run *r, char hex[TK_SHA256_HEX]) {
  json_t *j = tk_run_resolved_spec(r);
  char *t = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  tk_sha256_bytes(t ? t : "", t ? strlen(t) : 0, hex);
  free(t);
  json_decref(j);
}

/* ------------------------------------------------------------------ rank 0 */

/* Writes unit `unit`'s game log as the worker of a local run does: a .tmp renamed when whole,
 * and the log of the other form (plain or gzip) removed. */
static int write_log(const tk_run *r, uint64_t unit, const char *bytes, size_t n,
                     tk_error *err) {
  char path[TK_PATH_MAX], tmp[TK_PATH_MAX + 8], other[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/unit-%08llu.jsonl%s", r->logs_dir, (unsigned long long)unit,
           r->logs_gzip ? ".gz" : "");
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  snprintf(other, sizeof other, "%s/unit-%08llu.jsonl%s", r->logs_dir, (unsigned long long)unit,
           r->logs_gzip ? "" : ".gz");
  FILE *f = fopen(tmp, "wb");
  int bad = !f || (n && fwrite(bytes, 1, n, f) != n);
  if (f && fclose(f)) bad = 1;
  if (bad || rename(tmp, path))
    return tk_error_set(err, TK_EIO, -1, "cannot write %s: %s", path, strerror(errno));
  unlink(other);
  return 0;
}

/* Receives every rank's hello; with `report`, prints why a rank cannot play this run. Returns
 * 0 if every rank prepared the run rank 0 prepared (`r`; NULL: rank 0 did not), else 1. */
static int collect_hellos(mpi_ctx *c, const tk_run *r, int report) {
  char mine[TK_SHA256_HEX] = "";
  size_t rec_size = r ? tk_unit_rec_size(r->game->nseats) : 0;
  if (r) fingerprint(r, mine);
  hello *h = malloc(sizeof *h);
  if (!h) {
    fprintf(stderr, "taikai %s: out of memory\n", c->cmd);
    return 1;
  }
  int bad = 0;
  for (int got = 1; got < c->size; got++) {
    MPI_Status st;
    wait_msg(MPI_ANY_SOURCE, TAG_HELLO, &st, 0, 0);
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    memset(h, 0, sizeof *h);
    MPI_Recv(h, (int)sizeof *h, MPI_BYTE, st.MPI_SOURCE, TAG_HELLO, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    h->host[sizeof h->host - 1] = h->text[sizeof h->text - 1] = '\0';
    peer *p = &c->peers[st.MPI_SOURCE];
    p->jobs = h->jobs > 0 ? h->jobs : 1;
    snprintf(p->host, sizeof p->host, "%s", h->host);
    if (!h->ok) { /* it could not prepare the run and waits for STOP only to leave cleanly:
                   * told now, its goodbye is awaited by master_finish */
      send_empty(st.MPI_SOURCE, TAG_STOP);
      p->state = PEER_DONE;
    }
    if (!report) continue;
    if (n != (int)sizeof *h) {
      fprintf(stderr, "taikai %s: --mpi: rank %d sent a hello of %d bytes, not %zu: every rank "
              "must run the same taikai build\n", c->cmd, st.MPI_SOURCE, n, sizeof *h);
      bad = 1;
    } else if (!h->ok) {
      size_t len = strlen(h->text);
      while (len && h->text[len - 1] == '\n') h->text[--len] = '\0';
      fprintf(stderr, "taikai %s: --mpi: rank %d (%s) cannot play this run; it said:\n%s\n",
              c->cmd, st.MPI_SOURCE, h->host, h->text[0] ? h->text : "(nothing)");
      bad = 1;
    } else if (h->rec_size != rec_size) {
      fprintf(stderr, "taikai %s: --mpi: rank %d (%s) runs another taikai build (unit records "
              "of %llu bytes, rank 0's %zu): every rank must run the same build\n", c->cmd,
              st.MPI_SOURCE, h->host, (unsigned long long)h->rec_size, rec_size);
      bad = 1;
    } else if (strcmp(h->fingerprint, mine)) {
      fprintf(stderr, "taikai %s: --mpi: rank %d (%s) prepared another tournament than rank 0 "
              "(resolved spec SHA-256 %.16s..., rank 0's %.16s...): the spec, the taikai "
              "version or a plugin or weights file differs there; every rank must see the same "
              "files\n", c->cmd, st.MPI_SOURCE, h->host, h->fingerprint, mine);
      bad = 1;
    }
  }
  free(h);
  c->helloed = 1;
  return bad;
}

/* The size of the next range for a rank with `jobs` workers: its share of half the units left
 * (so the ranges shrink as the run ends and the ranks finish together), at least eight units
 * per worker (fewer messages), and at most what the window leaves room for. */
static uint64_t range_size(const mpi_ctx *c, int jobs, uint64_t left, uint64_t room) {
  uint64_t total = 0;
  for (int i = 1; i < c->size; i++) total += (uint64_t)c->peers[i].jobs;
  if (!total) total = 1;
  uint64_t n = left * (uint64_t)jobs / (2 * total);
  if (n < 8 * (uint64_t)jobs) n = 8 * (uint64_t)jobs;
  uint64_t cap = WINDOW / (2 * (uint64_t)(c->size - 1));
  if (n > cap) n = cap;
  if (n > left) n = left;
  if (n > room) n = room;
  return n;
}

/* tk_run_opts.play on rank 0: hands out units [first, first + count) to the other ranks and
 * gives their records to `sink` in unit order. */
static int master_play(void *ctx, const tk_run *r, uint64_t first, uint64_t count,
                       tk_sink_fn sink, void *sink_ctx, tk_progress_fn progress,
                       void *progress_ctx, tk_error *err) {
  mpi_ctx *c = ctx;
  uint64_t end = first + count, next_hand = first, next_write = first;
  size_t rec_size = tk_unit_rec_size(r->game->nseats);
  char **ring = calloc(WINDOW, sizeof *ring);
  char *buf = NULL;
  size_t cap = 0;
  tk_unit_rec *rec = malloc(sizeof *rec);
  int rc = 0;
  if (!ring || !rec) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
  while (!rc && next_write < end) {
    /* hand out units to the ranks that asked */
    for (int i = 1; i < c->size && !rc; i++) {
      peer *p = &c->peers[i];
      if (p->state != PEER_WAITING) continue;
      if (next_hand >= end) {
        send_empty(i, TAG_NONE);
        p->state = PEER_DONE;
        continue;
      }
      uint64_t n = range_size(c, p->jobs, end - next_hand, next_write + WINDOW - next_hand);
      if (!n) continue; /* the window is full: it waits for the earliest units */
      uint64_t msg[2] = {next_hand, n};
      MPI_Send(msg, (int)sizeof msg, MPI_BYTE, i, TAG_RANGE, MPI_COMM_WORLD);
      next_hand += n;
      p->state = PEER_WORKING;
    }
    MPI_Status st;
    if (!wait_msg(MPI_ANY_SOURCE, MPI_ANY_TAG, &st, 1, 0)) {
      rc = tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d", (int)tk_run_stop_signal);
      break;
    }
    int n = recv_msg(&st, &buf, &cap);
    int from = st.MPI_SOURCE;
    peer *p = &c->peers[from];
    if (n < 0) {
      rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    } else if (st.MPI_TAG == TAG_REQUEST) {
      p->state = PEER_WAITING;
    } else if (st.MPI_TAG == TAG_FAIL) {
      rc = tk_error_set(err, TK_EFAULT, -1, "rank %d (%s): %s", from, p->host, buf);
    } else if (st.MPI_TAG == TAG_BYE) { /* told NONE, it has sent all it played */
      if (p->state != PEER_DONE)
        rc = tk_error_set(err, TK_EFAULT, -1, "rank %d (%s) left before the end of the run",
                          from, p->host);
      p->state = PEER_GONE;
    } else if (st.MPI_TAG != TAG_RESULT) {
      rc = tk_error_set(err, TK_EPARSE, -1, "rank %d (%s) sent an unexpected message (tag %d)",
                        from, p->host, st.MPI_TAG);
    } else {
      /* a batch of results: each a result_head and its bytes */
      size_t off = 0;
      while (!rc && off < (size_t)n) {
        result_head h;
        size_t len = 0;
        if ((size_t)n - off >= sizeof h) {
          memcpy(&h, buf + off, sizeof h);
          len = sizeof h + (size_t)h.rec_len + h.records_len + h.log_len;
        }
        if (!len || (size_t)n - off < len || h.rec_len != rec_size || h.unit < first ||
            h.unit >= next_hand || (h.has_log != 0) != (r->logs_dir != NULL)) {
          rc = tk_error_set(err, TK_EPARSE, -1, "rank %d (%s) sent a malformed result", from,
                            p->host);
        } else if (h.unit >= next_write && !ring[(h.unit - first) % WINDOW]) {
          char *keep = malloc(len);
          if (!keep) rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
          else ring[(h.unit - first) % WINDOW] = memcpy(keep, buf + off, len);
        }
        off += len;
      }
    }
    /* every unit now contiguous to the written ones, in unit order */
    uint64_t before = next_write;
    while (!rc && next_write < end && ring[(next_write - first) % WINDOW]) {
      char *m = ring[(next_write - first) % WINDOW];
      result_head h;
      memcpy(&h, m, sizeof h);
      memcpy(rec, m + sizeof h, h.rec_len);
      const char *records = m + sizeof h + h.rec_len, *log = records + h.records_len;
      if (h.has_log) rc = write_log(r, h.unit, log, h.log_len, err);
      if (!rc) rc = sink(sink_ctx, rec, records, h.records_len);
      free(m);
      ring[(next_write - first) % WINDOW] = NULL;
      next_write++;
    }
    if (progress && next_write != before) progress(progress_ctx, next_write - first, count);
  }
done:
  if (ring)
    for (int i = 0; i < WINDOW; i++) free(ring[i]);
  free(ring);
  free(buf);
  free(rec);
  return rc;
}

/* Rank 0's hook into tk_run_tournament: the command's own hook, then (once the run is prepared)
 * the ranks' hellos, and the play function. */
static int master_hook(void *ctx, tk_run *r, const char *dir, tk_run_opts *o) {
  mpi_ctx *c = ctx;
  if (c->hook && c->hook(c->hook_ctx, r, dir, o)) return 1;
  if (dir) return 0;
  if (collect_hellos(c, r, 1)) return 1;
  o->play = master_play;
  o->play_ctx = c;
  return 0;
}

/* After the run: tells every rank still playing or waiting to stop and waits for each one's
 * goodbye, dropping what they still send. */
static void master_finish(mpi_ctx *c) {
  for (int i = 1; i < c->size; i++)
    if (c->peers[i].state != PEER_GONE && c->peers[i].state != PEER_DONE) {
      send_empty(i, TAG_STOP);
      c->peers[i].state = PEER_DONE;
    }
  char *buf = NULL;
  size_t cap = 0;
  int64_t deadline = tk_now_ns() + (int64_t)BYE_SECONDS * 1000000000;
  for (;;) {
    int left = 0;
    for (int i = 1; i < c->size; i++) left += c->peers[i].state != PEER_GONE;
    if (!left) break;
    MPI_Status st;
    if (!wait_msg(MPI_ANY_SOURCE, MPI_ANY_TAG, &st, 0, deadline)) {
      fprintf(stderr, "taikai %s: --mpi: %d rank(s) did not stop within %d s of the end of the "
              "run (the outputs are written); aborting the job\n", c->cmd, left, BYE_SECONDS);
      free(buf);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (recv_msg(&st, &buf, &cap) < 0) MPI_Abort(MPI_COMM_WORLD, 1);
    if (st.MPI_TAG == TAG_BYE) c->peers[st.MPI_SOURCE].state = PEER_GONE;
  }
  free(buf);
}

/* ------------------------------------------------------------------ the other ranks */

/* Sends the results gathered so far (MPI_Isend; the other buffer's send is waited for first,
 * and this one's before its buffer is filled again). */
static void batch_send(mpi_ctx *c) {
  batch *b = &c->out[c->cur];
  if (!b->used) return;
  MPI_Isend(b->buf, (int)b->used, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &b->req);
  c->cur ^= 1;
  batch *next = &c->out[c->cur];
  MPI_Wait(&next->req, MPI_STATUS_IGNORE);
  next->used = 0;
}

/* Waits for every batch sent (before saying goodbye). */
static void batch_drain(mpi_ctx *c) {
  batch_send(c);
  for (int i = 0; i < 2; i++) {
    MPI_Wait(&c->out[i].req, MPI_STATUS_IGNORE);
    free(c->out[i].buf);
    c->out[i].buf = NULL;
  }
}

/* tk_pool_feed's sink on a playing rank: adds the unit's record, its decision records and its
 * game log to the batch for rank 0; stops the pool when rank 0 said STOP. */
static int worker_sink(void *ctx, tk_unit_rec *rec, const void *records, size_t records_len) {
  mpi_ctx *c = ctx;
  const tk_run *r = c->r;
  int flag = 0;
  MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  if (flag) {
    c->stopped = 1;
    return TK_ESTATE;
  }
  result_head h = {.unit = rec->unit, .rec_len = (uint32_t)tk_unit_rec_size(r->game->nseats),
                   .records_len = (uint32_t)records_len, .has_log = r->logs_dir != NULL};
  char path[TK_PATH_MAX];
  FILE *log = NULL;
  long log_len = 0;
  if (r->logs_dir) {
    snprintf(path, sizeof path, "%s/unit-%08llu.jsonl%s", r->logs_dir,
             (unsigned long long)rec->unit, r->logs_gzip ? ".gz" : "");
    if (!(log = fopen(path, "rb")) || fseek(log, 0, SEEK_END) || (log_len = ftell(log)) < 0 ||
        fseek(log, 0, SEEK_SET)) {
      if (log) fclose(log);
      return TK_EIO;
    }
    h.log_len = (uint32_t)log_len;
  }
  size_t n = sizeof h + h.rec_len + records_len + h.log_len;
  batch *b = &c->out[c->cur];
  if (b->used && b->used + n > BATCH_BYTES) {
    batch_send(c);
    b = &c->out[c->cur];
  }
  if (b->used + n > b->cap) {
    size_t cap = b->cap ? b->cap : BATCH_BYTES;
    while (cap < b->used + n) cap *= 2;
    char *nb = realloc(b->buf, cap);
    if (!nb) {
      if (log) fclose(log);
      return TK_ENOMEM;
    }
    b->buf = nb;
    b->cap = cap;
  }
  if (!b->used) b->since = tk_now_ns();
  char *m = b->buf + b->used;
  memcpy(m, &h, sizeof h);
  memcpy(m + sizeof h, rec, h.rec_len);
  if (records_len) memcpy(m + sizeof h + h.rec_len, records, records_len);
  if (log) {
    size_t got = h.log_len ? fread(m + sizeof h + h.rec_len + records_len, 1, h.log_len, log) : 0;
    fclose(log);
    if (got != h.log_len) return TK_EIO;
    unlink(path);
  }
  b->used += n;
  if (tk_now_ns() - b->since > BATCH_NS) batch_send(c);
  return 0;
}

/* tk_pool_feed's source on a playing rank: the ranges rank 0 hands out. Each range received is
 * answered at once by a request for the next, so one is always on its way. Before waiting, the
 * results gathered are sent (rank 0 may be waiting for them to hand out more). */
static int worker_feed(void *ctx, int wait, uint64_t *first, uint64_t *count) {
  mpi_ctx *c = ctx;
  batch *b = &c->out[c->cur];
  if (b->used && (wait || tk_now_ns() - b->since > BATCH_NS)) batch_send(c);
  long nap = 20000;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      int n = recv_msg(&st, &c->in, &c->incap);
      if (n < 0) return TK_ENOMEM;
      if (st.MPI_TAG == TAG_STOP) {
        c->stopped = 1;
        return TK_ESTATE;
      }
      if (st.MPI_TAG != TAG_RANGE || n != 2 * (int)sizeof(uint64_t)) return TK_FEED_END;
      uint64_t range[2];
      memcpy(range, c->in, sizeof range);
      send_empty(0, TAG_REQUEST);
      *first = range[0];
      *count = range[1];
      return 1;
    }
    if (!wait) return 0;
    sleep_ns(nap);
    if (nap < 2000000) nap *= 2;
  }
}

/* Plays the ranges rank 0 hands out, in one worker pool, until it says NONE or STOP. */
static void serve(mpi_ctx *c, tk_run *r, int jobs) {
  tk_error err;
  tk_error_clear(&err);
  send_empty(0, TAG_REQUEST);
  tk_confine_referee(&r->spec); /* an isolated seat's host must not reach this memory */
  int rc = tk_pool_feed(r, worker_feed, c, jobs, worker_sink, c, &err);
  batch_send(c);
  if (rc && !c->stopped) {
    if (!err.msg[0]) snprintf(err.msg, sizeof err.msg, "the worker pool failed (code %d)", rc);
    MPI_Send(err.msg, (int)strlen(err.msg) + 1, MPI_BYTE, 0, TAG_FAIL, MPI_COMM_WORLD);
    c->status = 1;
    MPI_Status st; /* rank 0 ends the run and says STOP */
    do wait_msg(0, MPI_ANY_TAG, &st, 0, 0);
    while (recv_msg(&st, &c->in, &c->incap) >= 0 && st.MPI_TAG != TAG_STOP);
  }
  free(c->in);
  c->in = NULL;
  batch_drain(c);
  send_empty(0, TAG_BYE);
}

static int stderr_saved = -1;
static FILE *stderr_capture;

/* Puts this rank's stderr back, and returns what was written meanwhile (up to `cap` bytes). */
static void stderr_restore(char *text, size_t cap) {
  if (text) text[0] = '\0';
  if (stderr_saved < 0) return;
  fflush(stderr);
  dup2(stderr_saved, 2);
  close(stderr_saved);
  stderr_saved = -1;
  if (text && stderr_capture) {
    rewind(stderr_capture);
    size_t n = fread(text, 1, cap - 1, stderr_capture);
    text[n] = '\0';
  }
  if (stderr_capture) fclose(stderr_capture);
  stderr_capture = NULL;
}

static void send_hello(int ok, int jobs, const tk_run *r, const char *text) {
  hello *h = calloc(1, sizeof *h);
  if (!h) MPI_Abort(MPI_COMM_WORLD, 1);
  h->ok = ok;
  h->jobs = jobs;
  if (r) {
    h->rec_size = tk_unit_rec_size(r->game->nseats);
    fingerprint(r, h->fingerprint);
  }
  int len = 0;
  MPI_Get_processor_name(h->host, &len);
  snprintf(h->text, sizeof h->text, "%s", text ? text : "");
  MPI_Send(h, (int)sizeof *h, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
  free(h);
}

/* A playing rank's hook: the run is prepared; say hello, play, and refuse to go on (its
 * tk_run_tournament frees the run and returns: this rank writes nothing). */
static int worker_hook(void *ctx, tk_run *r, const char *dir, tk_run_opts *o) {
  mpi_ctx *c = ctx;
  c->hooked = 1;
  c->r = r;
  char text[TK_ERROR_MSG_MAX];
  stderr_restore(text, sizeof text);
  if (c->a->logs) { /* each unit's log is written here by the pool, then sent to rank 0 */
    const char *tmp = getenv("TMPDIR");
    snprintf(c->logs_tmp, sizeof c->logs_tmp, "%s/taikai-mpi-logs-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c->logs_tmp) || !(r->logs_dir = strdup(c->logs_tmp))) {
      snprintf(text, sizeof text, "--logs: cannot create a folder %.900s for the logs: %s",
               c->logs_tmp, strerror(errno));
      c->logs_tmp[0] = '\0';
      send_hello(0, o->jobs, NULL, text);
      c->status = 2;
      return 1;
    }
    r->logs_gzip = c->a->logs == 2;
  }
  send_hello(1, o->jobs, r, NULL);
  serve(c, r, o->jobs);
  if (c->logs_tmp[0]) tk_remove_flat_dir(c->logs_tmp);
  return 1;
}

/* A rank other than 0: prepares the run as rank 0 does (its messages go to rank 0, which
 * prints them once), plays what it is handed, and ends the process. */
static _Noreturn void worker_main(mpi_ctx *c, const tk_run_args *a) {
  fflush(stderr);
  stderr_capture = tmpfile();
  if (stderr_capture && (stderr_saved = dup(2)) >= 0) dup2(fileno(stderr_capture), 2);
  tk_run_tournament(a, c->cmd, worker_hook, c);
  if (!c->hooked) { /* refused before the run was prepared: rank 0 prints why */
    char text[TK_ERROR_MSG_MAX];
    stderr_restore(text, sizeof text);
    send_hello(0, 1, NULL, text);
    c->status = 2;
    MPI_Status st;
    char *buf = NULL;
    size_t cap = 0;
    do wait_msg(0, MPI_ANY_TAG, &st, 0, 0);
    while (recv_msg(&st, &buf, &cap) >= 0 && st.MPI_TAG != TAG_STOP);
    free(buf);
    send_empty(0, TAG_BYE);
  }
  fflush(NULL);
  MPI_Finalize();
  exit(c->status);
}

int tk_run_mpi(const tk_run_args *a0, const char *cmd, tk_run_hook hook, void *hook_ctx) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
    fprintf(stderr, "taikai %s: --mpi: MPI_Init failed\n", cmd);
    return 1;
  }
  mpi_ctx c;
  memset(&c, 0, sizeof c);
  tk_run_args a = *a0;
  a.mpi = 0;
  c.a = &a;
  c.cmd = cmd;
  c.hook = hook;
  c.hook_ctx = hook_ctx;
  c.out[0].req = c.out[1].req = MPI_REQUEST_NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  if (c.size == 1) { /* one rank (or no mpirun): a local run */
    int rc = tk_run_tournament(&a, cmd, hook, hook_ctx);
    fflush(NULL);
    MPI_Finalize();
    return rc;
  }
  if (c.rank != 0) {
    a.quiet = 1;
    worker_main(&c, &a);
  }
  if (!(c.peers = calloc((size_t)c.size, sizeof *c.peers))) {
    fprintf(stderr, "taikai %s: out of memory\n", cmd);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int rc = tk_run_tournament(&a, cmd, master_hook, &c);
  if (!c.helloed) collect_hellos(&c, NULL, 0); /* refused before: rank 0 said why */
  master_finish(&c);
  free(c.peers);
  fflush(NULL);
  MPI_Finalize();
  return rc;
}

#endif
