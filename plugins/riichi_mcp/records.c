/* plugins/riichi_mcp/records.c — `riichi_mcp_records`: writes the MCP/BCP training examples
 * (gen.h: one per accepted hand; mcp_io.h: the file).
 *
 *   riichi_mcp_records --out FILE -n COUNT [--seed S] [--opponents tsumogiri|policy]
 *                      [--weights FILE] [--max-turn T] [-j N]
 *
 * Writes examples until FILE holds COUNT. Hands are visited in index order 0, 1, 2, ...; hand i
 * depends on (S, i) only, so the file is the same bytes for every N: the hands are cut into
 * chunks of MCR_CHUNK, worker w (a process, tk_proc_spawn) plays chunks w, w + N, ..., and the parent
 * writes them in chunk order. When FILE exists its header must match the parameters; its torn
 * tail (a record cut short) is cut off and the run goes on after its last whole record.
 * Prints the hands played, the reasons hands gave no example, and the CPU time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "opts.h"
#include "taikai/proc.h"
#include "taikai/sha256.h"
#include "../riichi_oneplayer/weights_io.h"

enum { MCR_CHUNK = 32, MCR_MAX_JOBS = 64 };

static const char *const WHY[MCG_NWHY] = {"example", "ended before the random decision",
                                          "in riichi at it", "a win legal at it",
                                          "random call overridden"};

typedef struct chunk_stats {
  uint64_t why[MCG_NWHY], decisions, labels[MCX_CLASSES], at_call;
} chunk_stats;

/* Plays hands [first, first + MCR_CHUNK) and writes to `out` (fd): u32 byte count, then that
 * many bytes: chunk_stats, then the examples as (u64 hand, u8 label, u16 n, u32 f[n]). */
static int run_chunk(const mcg_params *p, uint64_t first, int fd, uint8_t *buf, size_t cap) {
  chunk_stats st;
  memset(&st, 0, sizeof st);
  size_t len = 4 + sizeof st;
  static mcx_example e;
  tk_error err;
  tk_error_clear(&err);
  for (uint64_t h = first; h < first + MCR_CHUNK; h++) {
    mcg_result r;
    int rc = mcg_play(p, h, &e, &r, &err);
    if (rc < 0) {
      fprintf(stderr, "riichi_mcp_records: hand %llu: %s\n", (unsigned long long)h, err.msg);
      return rc;
    }
    st.why[r.why]++;
    st.decisions += r.decisions;
    if (rc == MCG_EXAMPLE && r.random_phase == TK_RIICHI_PHASE_REACT) st.at_call++;
    if (rc == MCG_EXAMPLE) {
      st.labels[e.label]++;
      if (len + 11 + 4 * (size_t)e.n > cap) return TK_ENOMEM;
      memcpy(buf + len, &e.hand, 8);
      buf[len + 8] = e.label;
      memcpy(buf + len + 9, &e.n, 2);
      memcpy(buf + len + 11, e.f, 4 * (size_t)e.n);
      len += 11 + 4 * (size_t)e.n;
    }
  }
  uint32_t n = (uint32_t)(len - 4);
  memcpy(buf, &n, 4);
  memcpy(buf + 4, &st, sizeof st);
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, buf + off, len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return TK_EIO;
    }
    off += (size_t)w;
  }
  return 0;
}

/* A worker (a child of tk_proc_spawn): plays chunks j, j + nj, ... from hand `first` and writes
 * them on descriptor 3 until it is stopped. */
typedef struct chunks {
  const mcg_params *p;
  uint64_t first;
  int j, nj;
  uint8_t *buf;
  size_t cap;
} chunks;

static int chunks_main(void *arg) {
  const chunks *c = arg;
  for (uint64_t k = (uint64_t)c->j;; k += (uint64_t)c->nj)
    if (run_chunk(c->p, c->first + k * MCR_CHUNK, 3, c->buf, c->cap)) return 1;
}

static int read_all(int fd, void *p, size_t n) {
  for (size_t off = 0; off < n;) {
    ssize_t r = read(fd, (char *)p + off, n - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    off += (size_t)r;
  }
  return 0;
}

/* Prints the usage after "riichi_mcp_records: MSG" to stderr and returns 2; with msg NULL
 * (--help), the usage alone to stdout, returning 1. */
static int usage(const char *msg) {
  if (msg) fprintf(stderr, "riichi_mcp_records: %s\n", msg);
  fprintf(msg ? stderr : stdout,
          "usage: riichi_mcp_records --out FILE -n COUNT [--seed S] "
          "[--opponents tsumogiri|policy] [--weights FILE] [--max-turn T] [-j N]\n");
  return msg ? 2 : 1;
}

/* The command line. */
typedef struct config {
  const char *out, *weights, *opp;
  uint64_t count, seed, jobs, max_turn;
  int opponents; /* mcg_opponents_of(opp) */
} config;

/* Parses the command line into c: 0, 1 after --help (printed), 2 on a usage error (printed). */
static int parse_config(int argc, char **argv, config *c) {
  *c = (config){.opp = "policy", .seed = 1, .jobs = 1, .max_turn = 18};
  int have_n = 0;
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &c->out, .value = "FILE"},
      {.name = "weights", .kind = TK_OPT_STRING, .dest = &c->weights, .value = "FILE"},
      {.name = "opponents", .kind = TK_OPT_STRING, .dest = &c->opp, .value = "tsumogiri|policy"},
      {.name = "count", .short_name = 'n', .kind = TK_OPT_U64, .dest = &c->count,
       .given = &have_n, .value = "COUNT"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &c->seed, .value = "S"},
      {.name = "jobs", .short_name = 'j', .kind = TK_OPT_U64, .dest = &c->jobs, .value = "N",
       .min = 1, .max = MCR_MAX_JOBS},
      {.name = "max-turn", .kind = TK_OPT_U64, .dest = &c->max_turn, .value = "T", .min = 1,
       .max = 30},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog("riichi_mcp_records", opts, argc, argv, NULL, 0, NULL);
  if (prc == 1) return usage(NULL);
  if (prc) return prc;
  if (!c->out || !have_n) return usage("--out and -n are required");
  c->opponents = mcg_opponents_of(c->opp);
  if (c->opponents < 0) {
    fprintf(stderr, "riichi_mcp_records: --opponents: '%s' is not tsumogiri or policy\n", c->opp);
    return 2;
  }
  return 0;
}

/* Opens c->out for the examples: a new file with header h, or an existing one (resumed) whose
 * header must equal h, its torn tail cut. Sets *have (the records it holds) and *prev_hand (the
 * hand of its last, UINT64_MAX if none). Returns the file, or NULL (printed). */
static FILE *open_output(const config *c, const mcx_header *h, uint64_t *have,
                         uint64_t *prev_hand) {
  const char *out = c->out;
  tk_error err;
  tk_error_clear(&err);
  *have = 0;
  *prev_hand = UINT64_MAX;
  if (access(out, F_OK) != 0) {
    FILE *f = fopen(out, "wb");
    if (f) {
      uint8_t hb[MCX_HEADER_BYTES];
      mcx_header_encode(h, hb);
      fwrite(hb, 1, sizeof hb, f);
    } else {
      fprintf(stderr, "riichi_mcp_records: %s: cannot open for writing\n", out);
    }
    return f;
  }
  mcx_reader r;
  if (mcx_open(&r, out, &err)) {
    fprintf(stderr, "riichi_mcp_records: %s (refusing to append)\n", err.msg);
    return NULL;
  }
  const char *field = NULL;
  if (r.h.feature_version != h->feature_version) field = "feature_version";
  else if (r.h.opponents != h->opponents) field = "opponents";
  else if (r.h.max_turn != h->max_turn) field = "max_turn";
  else if (r.h.seed != h->seed) field = "seed";
  else if (memcmp(r.h.weights_sha, h->weights_sha, 32)) field = "weights sha256";
  if (field) {
    fprintf(stderr, "riichi_mcp_records: %s: header field %s differs from this run's; "
                    "refusing to append\n", out, field);
    mcx_close(&r);
    return NULL;
  }
  static mcx_example e;
  int rc;
  while ((rc = mcx_next(&r, &e, &err)) == 1) *prev_hand = e.hand;
  long good = r.good_end;
  *have = r.records;
  mcx_close(&r);
  if (rc < 0) {
    fprintf(stderr, "riichi_mcp_records: %s; cutting the file after record %llu\n", err.msg,
            (unsigned long long)*have);
    if (truncate(out, good)) {
      fprintf(stderr, "riichi_mcp_records: %s: cannot truncate\n", out);
      return NULL;
    }
  }
  FILE *f = fopen(out, "ab");
  if (!f) fprintf(stderr, "riichi_mcp_records: %s: cannot open for writing\n", out);
  return f;
}

/* What a run wrote and saw. */
typedef struct progress {
  uint64_t have, prev_hand; /* records in the file, the hand of the last */
  uint64_t hands, written;  /* hands played (whole chunks), records written */
  chunk_stats tot;          /* the chunks' counters, summed */
} progress;

/* Starts c->jobs workers playing chunks from hand next_hand and appends their examples to f, in
 * hand order, until the file holds c->count. Returns 0, or 1 (printed). */
static int collect(const config *c, const mcg_params *p, uint64_t next_hand, FILE *f,
                   progress *pg) {
  size_t cap = 4 + sizeof(chunk_stats) + (size_t)MCR_CHUNK * (11 + 4 * MCX_MAX_FEATURES);
  uint8_t *buf = malloc(cap);
  int nj = (int)c->jobs;
  tk_proc_ending workers[MCR_MAX_JOBS];
  int fds[MCR_MAX_JOBS];
  int pids_started = 0;
  if (pg->have < c->count) {
    pids_started = 1;
    for (int j = 0; j < nj; j++) {
      int pp[2];
      if (pipe(pp)) return 1;
      chunks ch = {p, next_hand, j, nj, buf, cap};
      tk_proc_opts o = {.fn = chunks_main, .arg = &ch, .map = {-1, -1, -1}, .keep = &pp[1],
                        .nkeep = 1};
      pid_t pid;
      tk_error perr;
      tk_error_clear(&perr);
      if (tk_proc_spawn(&o, &pid, &perr)) {
        fprintf(stderr, "riichi_mcp_records: %s\n", perr.msg);
        return 1;
      }
      close(pp[1]);
      workers[j] = (tk_proc_ending){.pid = pid, .stdin_fd = -1};
      fds[j] = pp[0];
    }
  }
  uint8_t rec[MCX_RECORD_MAX];
  static mcx_example e;
  int status = 0;
  for (uint64_t k = 0; pg->have < c->count; k++) {
    int fd = fds[k % (uint64_t)nj];
    uint32_t n;
    chunk_stats st;
    if (read_all(fd, &n, 4) || n > cap || read_all(fd, buf, n)) {
      fprintf(stderr, "riichi_mcp_records: worker %d failed\n", (int)(k % (uint64_t)nj));
      status = 1;
      break;
    }
    memcpy(&st, buf, sizeof st);
    size_t off = sizeof st;
    while (off < n && pg->have < c->count) {
      memcpy(&e.hand, buf + off, 8);
      e.label = buf[off + 8];
      memcpy(&e.n, buf + off + 9, 2);
      memcpy(e.f, buf + off + 11, 4 * (size_t)e.n);
      off += 11 + 4 * (size_t)e.n;
      size_t len = mcx_record_encode(&e, pg->prev_hand, rec);
      if (fwrite(rec, 1, len, f) != len) {
        fprintf(stderr, "riichi_mcp_records: %s: write failed\n", c->out);
        status = 1;
        break;
      }
      pg->prev_hand = e.hand;
      pg->have++;
      pg->written++;
      pg->tot.labels[e.label]++;
    }
    for (int i = 0; i < MCG_NWHY; i++) pg->tot.why[i] += st.why[i];
    pg->tot.decisions += st.decisions;
    pg->tot.at_call += st.at_call;
    pg->hands += MCR_CHUNK;
    if (status) break;
  }
  if (fclose(f)) status = 1;
  int started = nj > 0 && pids_started;
  for (int j = 0; started && j < nj; j++) close(fds[j]);
  if (started) tk_proc_end(workers, nj, 0, 1000); /* SIGTERM at once, SIGKILL 1 s later */
  free(buf);
  return status;
}

int main(int argc, char **argv) {
  config c;
  int prc = parse_config(argc, argv, &c);
  if (prc) return prc == 1 ? 0 : 2;
  char wpath[4096];
  tk_error err;
  tk_error_clear(&err);
  double *w = NULL;
  if (mcg_load_policy(c.weights, wpath, sizeof wpath, &w, &err)) {
    fprintf(stderr, "riichi_mcp_records: %s\n", err.msg);
    return 1;
  }
  char hex[TK_SHA256_HEX];
  if (tk_sha256_file(wpath, hex, &err)) {
    fprintf(stderr, "riichi_mcp_records: %s\n", err.msg);
    return 1;
  }
  mcx_header h = {ROF_FEATURE_VERSION, (uint32_t)c.opponents, (uint32_t)c.max_turn, c.seed, {0}};
  for (int i = 0; i < 32; i++) {
    unsigned b;
    sscanf(hex + 2 * i, "%2x", &b);
    h.weights_sha[i] = (uint8_t)b;
  }
  progress pg;
  memset(&pg, 0, sizeof pg);
  FILE *f = open_output(&c, &h, &pg.have, &pg.prev_hand);
  if (!f) return 1;
  uint64_t next_hand = pg.prev_hand == UINT64_MAX ? 0 : pg.prev_hand + 1;
  mcg_params p;
  mcg_params_init(&p, c.seed, c.opponents, w);
  p.max_turn = (int)c.max_turn;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int status = collect(&c, &p, next_hand, f, &pg);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  struct rusage ru, rc;
  getrusage(RUSAGE_SELF, &ru);
  getrusage(RUSAGE_CHILDREN, &rc);
  double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + rc.ru_utime.tv_sec +
                        rc.ru_stime.tv_sec) +
               1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec + rc.ru_utime.tv_usec +
                               rc.ru_stime.tv_usec);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("%s: %llu examples (%llu new) from seed %llu, opponents %s, weights sha256 %s\n", c.out,
         (unsigned long long)pg.have, (unsigned long long)pg.written, (unsigned long long)c.seed,
         c.opp, hex);
  printf("hands played (whole chunks, some beyond the last example): %llu; decisions %llu\n",
         (unsigned long long)pg.hands, (unsigned long long)pg.tot.decisions);
  for (int i = 1; i < MCG_NWHY; i++)
    printf("  no example, %s: %llu\n", WHY[i], (unsigned long long)pg.tot.why[i]);
  printf("examples whose random move was at a call opportunity (in the chunks read): %llu\n",
         (unsigned long long)pg.tot.at_call);
  printf("new labels 0..4:");
  for (int k = 0; k < MCX_CLASSES; k++) printf(" %llu", (unsigned long long)pg.tot.labels[k]);
  printf("\nwall %.2f s, CPU %.2f s (all processes), %.1f new examples per CPU second\n", wall,
         cpu, cpu > 0 ? (double)pg.written / cpu : 0.0);
  free(w);
  return status;
}
