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

static int usage(const char *msg) {
  fprintf(stderr,
          "riichi_mcp_records: %s\nusage: riichi_mcp_records --out FILE -n COUNT [--seed S] "
          "[--opponents tsumogiri|policy] [--weights FILE] [--max-turn T] [-j N]\n",
          msg);
  return 2;
}

int main(int argc, char **argv) {
  const char *out = NULL, *weights = NULL, *opp = "policy";
  uint64_t count = 0, seed = 1, jobs = 1, max_turn = 18;
  int have_n = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) return usage("a flag without its value, or an unknown argument");
    const char *v = argv[++i];
    if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "--weights")) weights = v;
    else if (!strcmp(a, "--opponents")) opp = v;
    else if (!strcmp(a, "-n")) {
      if (mcg_parse_u64("riichi_mcp_records", a, v, &count)) return 2;
      have_n = 1;
    } else if (!strcmp(a, "--seed")) {
      if (mcg_parse_u64("riichi_mcp_records", a, v, &seed)) return 2;
    } else if (!strcmp(a, "-j")) {
      if (mcg_parse_u64("riichi_mcp_records", a, v, &jobs)) return 2;
    } else if (!strcmp(a, "--max-turn")) {
      if (mcg_parse_u64("riichi_mcp_records", a, v, &max_turn)) return 2;
    } else {
      fprintf(stderr, "riichi_mcp_records: unknown flag '%s'\n", a);
      return 2;
    }
  }
  if (!out || !have_n) return usage("--out and -n are required");
  if (jobs < 1 || jobs > MCR_MAX_JOBS) {
    fprintf(stderr, "riichi_mcp_records: -j: %llu is not in 1..%d\n", (unsigned long long)jobs,
            MCR_MAX_JOBS);
    return 2;
  }
  if (max_turn < 1 || max_turn > 30) {
    fprintf(stderr, "riichi_mcp_records: --max-turn: %llu is not in 1..30\n",
            (unsigned long long)max_turn);
    return 2;
  }
  int opponents = mcg_opponents_of(opp);
  if (opponents < 0) {
    fprintf(stderr, "riichi_mcp_records: --opponents: '%s' is not tsumogiri or policy\n", opp);
    return 2;
  }
  char wpath[4096];
  tk_error err;
  tk_error_clear(&err);
  double *w = NULL;
  if (mcg_load_policy(weights, wpath, sizeof wpath, &w, &err)) {
    fprintf(stderr, "riichi_mcp_records: %s\n", err.msg);
    return 1;
  }
  weights = wpath;
  char hex[TK_SHA256_HEX];
  if (tk_sha256_file(weights, hex, &err)) {
    fprintf(stderr, "riichi_mcp_records: %s\n", err.msg);
    return 1;
  }
  mcx_header h = {ROF_FEATURE_VERSION, (uint32_t)opponents, (uint32_t)max_turn, seed, {0}};
  for (int i = 0; i < 32; i++) {
    unsigned b;
    sscanf(hex + 2 * i, "%2x", &b);
    h.weights_sha[i] = (uint8_t)b;
  }

  /* Resume: check the header, find the last whole record, cut the torn tail. */
  uint64_t have = 0, next_hand = 0, prev_hand = UINT64_MAX;
  FILE *f = NULL;
  if (access(out, F_OK) == 0) {
    mcx_reader r;
    if (mcx_open(&r, out, &err)) {
      fprintf(stderr, "riichi_mcp_records: %s (refusing to append)\n", err.msg);
      return 1;
    }
    const char *field = NULL;
    if (r.h.feature_version != h.feature_version) field = "feature_version";
    else if (r.h.opponents != h.opponents) field = "opponents";
    else if (r.h.max_turn != h.max_turn) field = "max_turn";
    else if (r.h.seed != h.seed) field = "seed";
    else if (memcmp(r.h.weights_sha, h.weights_sha, 32)) field = "weights sha256";
    if (field) {
      fprintf(stderr, "riichi_mcp_records: %s: header field %s differs from this run's; "
                      "refusing to append\n", out, field);
      mcx_close(&r);
      return 1;
    }
    static mcx_example e;
    int rc;
    while ((rc = mcx_next(&r, &e, &err)) == 1) prev_hand = e.hand;
    long good = r.good_end;
    have = r.records;
    mcx_close(&r);
    if (rc < 0) {
      fprintf(stderr, "riichi_mcp_records: %s; cutting the file after record %llu\n", err.msg,
              (unsigned long long)have);
      if (truncate(out, good)) {
        fprintf(stderr, "riichi_mcp_records: %s: cannot truncate\n", out);
        return 1;
      }
    }
    next_hand = prev_hand == UINT64_MAX ? 0 : prev_hand + 1;
    f = fopen(out, "ab");
  } else {
    f = fopen(out, "wb");
    if (f) {
      uint8_t hb[MCX_HEADER_BYTES];
      mcx_header_encode(&h, hb);
      fwrite(hb, 1, sizeof hb, f);
    }
  }
  if (!f) {
    fprintf(stderr, "riichi_mcp_records: %s: cannot open for writing\n", out);
    return 1;
  }
  mcg_params p;
  mcg_params_init(&p, seed, opponents, w);
  p.max_turn = (int)max_turn;
  size_t cap = 4 + sizeof(chunk_stats) + (size_t)MCR_CHUNK * (11 + 4 * MCX_MAX_FEATURES);
  uint8_t *buf = malloc(cap);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);

  int nj = (int)jobs;
  tk_proc_ending workers[MCR_MAX_JOBS];
  int fds[MCR_MAX_JOBS];
  int pids_started = 0;
  if (have < count) {
    pids_started = 1;
    for (int j = 0; j < nj; j++) {
      int pp[2];
      if (pipe(pp)) return 1;
      chunks ch = {&p, next_hand, j, nj, buf, cap};
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
  chunk_stats tot;
  memset(&tot, 0, sizeof tot);
  uint64_t hands = 0, written = 0;
  uint8_t rec[MCX_RECORD_MAX];
  static mcx_example e;
  int status = 0;
  for (uint64_t k = 0; have < count; k++) {
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
    while (off < n && have < count) {
      memcpy(&e.hand, buf + off, 8);
      e.label = buf[off + 8];
      memcpy(&e.n, buf + off + 9, 2);
      memcpy(e.f, buf + off + 11, 4 * (size_t)e.n);
      off += 11 + 4 * (size_t)e.n;
      size_t len = mcx_record_encode(&e, prev_hand, rec);
      if (fwrite(rec, 1, len, f) != len) {
        fprintf(stderr, "riichi_mcp_records: %s: write failed\n", out);
        status = 1;
        break;
      }
      prev_hand = e.hand;
      have++;
      written++;
      tot.labels[e.label]++;
    }
    for (int i = 0; i < MCG_NWHY; i++) tot.why[i] += st.why[i];
    tot.decisions += st.decisions;
    tot.at_call += st.at_call;
    hands += MCR_CHUNK;
    if (status) break;
  }
  if (fclose(f)) status = 1;
  int started = nj > 0 && pids_started;
  for (int j = 0; started && j < nj; j++) close(fds[j]);
  if (started) tk_proc_end(workers, nj, 0, 1000); /* SIGTERM at once, SIGKILL 1 s later */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  struct rusage ru, rc;
  getrusage(RUSAGE_SELF, &ru);
  getrusage(RUSAGE_CHILDREN, &rc);
  double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + rc.ru_utime.tv_sec +
                        rc.ru_stime.tv_sec) +
               1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec + rc.ru_utime.tv_usec +
                               rc.ru_stime.tv_usec);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("%s: %llu examples (%llu new) from seed %llu, opponents %s, weights sha256 %s\n", out,
         (unsigned long long)have, (unsigned long long)written, (unsigned long long)seed, opp,
         hex);
  printf("hands played (whole chunks, some beyond the last example): %llu; decisions %llu\n",
         (unsigned long long)hands, (unsigned long long)tot.decisions);
  for (int i = 1; i < MCG_NWHY; i++)
    printf("  no example, %s: %llu\n", WHY[i], (unsigned long long)tot.why[i]);
  printf("examples whose random move was at a call opportunity (in the chunks read): %llu\n",
         (unsigned long long)tot.at_call);
  printf("new labels 0..4:");
  for (int c = 0; c < MCX_CLASSES; c++) printf(" %llu", (unsigned long long)tot.labels[c]);
  printf("\nwall %.2f s, CPU %.2f s (all processes), %.1f new examples per CPU second\n", wall,
         cpu, cpu > 0 ? (double)written / cpu : 0.0);
  free(buf);
  free(w);
  return status;
}
