/* tests/riichi/test_riichi_mjai.c — end to end: the riichi_mjai bridge playing the Python bot
 * tests/riichi/mjai_bot.py in `taikai run` duplicates against riichi_tsumogiri.
 *
 *   - `--wins none` (exact tsumogiri): games.jsonl is byte for byte that of riichi_tsumogiri
 *     in the bot's seats (same labels), with -j 1 and -j 2;
 *   - `--wins all` (tsumogiri plus tsumo and provably legal ron): the same bytes with -j 1 and
 *     -j 2, no fault and no illegal action, and every game the bot did not win is the pure
 *     tsumogiri game's line (a game changes only from the bot's first win). A tsumogiri hand
 *     never changes, so its wins are rare (0 in 3,200 hands of seed 7):
 *   - `--discard efficient --riichi --wins all` (least-shanten discards, riichi at tenpai) wins
 *     often: its tsumo, ron and reach answers are all accepted (wins, baseline deal-ins and
 *     riichi > 0, no fault), any -j;
 *   - a bot that answers garbage, an illegal discard, exits, closes its stdout or sleeps past
 *     time_limit_ms: a fault of its seat (kind "error", at once, or "timeout"), the line it sent
 *     named on stderr and in the fault's "message" in games.jsonl (none for a time-out: the
 *     worker is killed), every unit still played and written;
 *   - processes (tests/riichi/mjai_proc_bot.sh): a duplicate at -j 2 starts one bot per worker
 *     as the candidate, three as the baseline, each with no signal ignored or blocked, and no
 *     bot nor the setsid daemon each starts is left when taikai run returns;
 *   - spec.json records the bot's program (found through PATH) and its script with their
 *     SHA-256; a resume after the script changed is refused naming the agent, the file and
 *     both hashes, and goes on once the script is restored; bad "files" are refused.
 * Skips (passing, with a message) when python3 is not on PATH. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "referee/e2e_util.h"
#include "taikai/sha256.h"

#define BOT "python3 " TK_BOT

static int have_python;

static void spec(const char *name, const char *bot_args, const char *cand_plugin, int walls,
                 const char *extra) {
  char text[2048];
  if (!strcmp(cand_plugin, "riichi_mjai"))
    snprintf(text, sizeof text,
             "{\"game\": \"riichi\", \"seed\": 5, \"walls\": %d, \"format\": \"duplicate\",%s"
             " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},"
             " {\"plugin\": \"riichi_mjai\", \"label\": \"bot\", \"params\": {\"command\": \"%s %s\"}}],"
             " \"rules\": {\"length\": \"east\"}}\n",
             walls, extra, BOT, bot_args);
  else
    snprintf(text, sizeof text,
             "{\"game\": \"riichi\", \"seed\": 5, \"walls\": %d, \"format\": \"duplicate\",%s"
             " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},"
             " {\"plugin\": \"%s\", \"label\": \"bot\"}], \"rules\": {\"length\": \"east\"}}\n",
             walls, extra, cand_plugin);
  write_file(W(name), text);
}

static int run(const char *spec_name, const char *out, const char *j) {
  const char *args[] = {"run", W(spec_name), "--out", W(out), "-j", j, "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("taikai run %s -j %s: exit %d; stderr: %.600s", spec_name, j, rc, err_buf);
  return rc;
}

static void games_path(char *buf, size_t cap, const char *out) {
  snprintf(buf, cap, "%s/games.jsonl", W(out));
}

static void exact_tsumogiri(void) {
  if (!have_python) return;
  spec("none.json", "--wins none", "riichi_mjai", 6, "");
  spec("pure.json", "", "riichi_tsumogiri", 6, "");
  if (run("none.json", "none1", "1") || run("none.json", "none2", "2") ||
      run("pure.json", "pure", "2"))
    return;
  char a[1200], b[1200], c[1200];
  games_path(a, sizeof a, "none1");
  games_path(b, sizeof b, "none2");
  games_path(c, sizeof c, "pure");
  TK_EQ(same_bytes(a, b), 1, "games.jsonl of -j 1 and -j 2");
  TK_EQ(same_bytes(a, c), 1, "the bot's games are riichi_tsumogiri's, byte for byte");
}

static void with_wins(void) {
  if (!have_python) return;
  spec("wins.json", "--wins all", "riichi_mjai", 20, "");
  spec("pure40.json", "", "riichi_tsumogiri", 20, "");
  if (run("wins.json", "wins1", "1") || run("wins.json", "wins2", "2") ||
      run("pure40.json", "pure40", "2"))
    return;
  char a[1200], b[1200], c[1200];
  games_path(a, sizeof a, "wins1");
  games_path(b, sizeof b, "wins2");
  games_path(c, sizeof c, "pure40");
  TK_EQ(same_bytes(a, b), 1, "games.jsonl of -j 1 and -j 2");
  enum { N = 80 };
  static json_t *w[N], *p[N];
  int nw = load_lines(a, w, N), np = load_lines(c, p, N);
  TK_EQ(nw, N, "units of the run with wins");
  TK_EQ(np, N, "units of the pure tsumogiri run");
  long wins = 0, won_games = 0, same = 0;
  for (int u = 0; u < nw && u < np; u++) {
    json_t *seats = json_object_get(w[u], "seats");
    int bot_won = 0;
    for (size_t s = 0; s < json_array_size(seats); s++) {
      json_t *x = json_array_get(seats, s);
      if (json_object_get(x, "fault") || json_object_get(x, "illegal"))
        TK_FAILF("unit %d seat %zu: a fault or an illegal action: %s", u, s,
                 json_dumps(x, JSON_COMPACT));
      if (json_integer_value(json_object_get(x, "agent")) == 1) {
        long n = (long)json_integer_value(json_object_get(x, "wins"));
        wins += n;
        bot_won = n > 0;
      }
    }
    if (bot_won) {
      won_games++;
    } else {
      int eq = json_equal(w[u], p[u]);
      same += eq;
      if (!eq) TK_FAILF("unit %d: the bot did not win but the game differs from tsumogiri's", u);
    }
  }
  printf("\n  bot wins %ld in %ld of %d games; %ld other games identical to tsumogiri's\n", wins,
         won_games, nw, same);
  TK_EQ(same + won_games, nw, "every game accounted for");
  free_lines(w, nw);
  free_lines(p, np);
}

/* `--discard efficient --riichi --wins all`: wins and riichi are common, so tsumo, ron and the
 * two-line reach answers are exercised; every one must be legal (no fault, no illegal action);
 * -j independence. */
static void efficient(void) {
  if (!have_python) return;
  spec("eff.json", "--discard efficient --riichi --wins all", "riichi_mjai", 10, "");
  if (run("eff.json", "eff1", "1") || run("eff.json", "eff2", "2")) return;
  char a[1200], b[1200];
  games_path(a, sizeof a, "eff1");
  games_path(b, sizeof b, "eff2");
  TK_EQ(same_bytes(a, b), 1, "games.jsonl of -j 1 and -j 2");
  enum { N = 40 };
  static json_t *l[N];
  int n = load_lines(a, l, N);
  TK_EQ(n, N, "units");
  long wins = 0, base_deal_ins = 0, riichi = 0;
  for (int u = 0; u < n; u++) {
    json_t *seats = json_object_get(l[u], "seats");
    for (size_t s = 0; s < json_array_size(seats); s++) {
      json_t *x = json_array_get(seats, s);
      if (json_object_get(x, "fault") || json_object_get(x, "illegal"))
        TK_FAILF("unit %d seat %zu: a fault or an illegal action", u, s);
      if (json_integer_value(json_object_get(x, "agent")) == 1) {
        wins += (long)json_integer_value(json_object_get(x, "wins"));
        riichi += (long)json_integer_value(json_object_get(x, "riichi"));
      } else {
        base_deal_ins += (long)json_integer_value(json_object_get(x, "deal_ins"));
      }
    }
  }
  printf("\n  bot wins %ld in %d games, of which by ron %ld (the baseline's deal-ins); riichi %ld\n",
         wins, n, base_deal_ins, riichi);
  TK_EQ(wins > 0, 1, "tsumo or ron answers accepted");
  TK_EQ(base_deal_ins > 0, 1, "ron answers accepted");
  TK_EQ(riichi > 0, 1, "reach answers (reach, then the declaring dahai) accepted");
  free_lines(l, n);
}

/* A misbehaving bot: each unit in which it misbehaves is a fault of its seat with `kind`, whose
 * fault_info has a "message" holding `message_has` (NULL: no message). */
static void misbehave(const char *how, const char *kind, const char *stderr_has, const char *extra,
                      const char *message_has) {
  if (!have_python) return;
  char args[200], name[64], out[64];
  snprintf(args, sizeof args, "--misbehave %s --after 3 --tag t%ld", how, (long)getpid());
  snprintf(name, sizeof name, "%s.json", how);
  snprintf(out, sizeof out, "out-%s", how);
  spec(name, args, "riichi_mjai", 2, extra);
  if (run(name, out, "2")) return;
  char g[1200];
  games_path(g, sizeof g, out);
  json_t *l[8];
  int n = load_lines(g, l, 8);
  TK_EQ(n, 8, "every unit written");
  int faults = 0;
  for (int u = 0; u < n; u++) {
    json_t *seats = json_object_get(l[u], "seats");
    for (size_t s = 0; s < json_array_size(seats); s++) {
      json_t *x = json_array_get(seats, s);
      const char *f = json_string_value(json_object_get(x, "fault"));
      int bot = json_integer_value(json_object_get(x, "agent")) == 1;
      if (f && !bot) TK_FAILF("unit %d: a fault of the baseline: %s", u, f);
      if (!bot) continue;
      if (!f) {
        TK_FAILF("%s: unit %d: the bot's seat has no fault", how, u);
        continue;
      }
      faults++;
      if (strncmp(f, kind, strlen(kind)))
        TK_FAILF("%s: unit %d: fault \"%s\", expected kind %s", how, u, f, kind);
      const char *m = json_string_value(
          json_object_get(json_object_get(x, "fault_info"), "message"));
      if (message_has && (!m || !strstr(m, message_has)))
        TK_FAILF("%s: unit %d: the fault's message is %s%s%s, expected one holding \"%s\"", how,
                 u, m ? "\"" : "", m ? m : "absent", m ? "\"" : "", message_has);
      if (!message_has && m) TK_FAILF("%s: unit %d: a message \"%s\"", how, u, m);
    }
  }
  TK_EQ(faults, 8, "one fault of the bot's seat per unit");
  if (stderr_has && !strstr(err_buf, stderr_has))
    TK_FAILF("%s: stderr lacks \"%s\": %.600s", how, stderr_has, err_buf);
  free_lines(l, n);
}

static void garbage(void) {
  misbehave("garbage", "error", "riichi_mjai: seat", "",
            "an answer that is not one JSON object; the bot sent: this is not json");
  if (have_python && !strstr(err_buf, "the bot sent: this is not json"))
    TK_FAILF("stderr does not name the line: %.600s", err_buf);
}
static void illegal(void) {
  misbehave("illegal", "error", "an illegal action; the bot sent: {", "",
            "an illegal action; the bot sent: {\"type\": \"dahai\"");
}
static void exits(void) {
  misbehave("exit", "error", "the bot exited or closed its output; the bot sent: (nothing)", "",
            "the bot exited or closed its output; the bot sent: (nothing)");
}
static void closes_stdout(void) {
  /* the bot closes its stdout and lives on: charged at once (before, a time-out after 5 s) */
  misbehave("close", "error", "the bot exited or closed its output", " \"time_limit_ms\": 5000,",
            "the bot exited or closed its output; the bot sent: (nothing)");
}
static void sleeps(void) {
  misbehave("sleep", "timeout", NULL, " \"time_limit_ms\": 3000,", NULL);
  /* the bot sleeps 60 s: one still running now outlived its killed worker */
  char cmd[200];
  snprintf(cmd, sizeof cmd, "pgrep -f 'mjai_bot[.]py --misbehave sleep --after 3 --tag t%ld$' > /dev/null",
           (long)getpid());
  if (have_python && system(cmd) == 0) TK_FAILF("a bot outlived the worker killed for its time-out");
}

/* A duplicate of 2 walls at -j 2 with tests/riichi/mjai_proc_bot.sh as the bot (agent `bot_at`
 * of two, the other riichi_tsumogiri), each bot starting a setsid daemon; the bots' records in
 * the folder `dir`. Returns the number of bots started, or -1. */
static int proc_run(const char *name, int bot_at, const char *dir) {
  char text[8192], cmd[2000];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", W(dir), W(dir));
  TK_EQ(system(cmd), 0, cmd);
  snprintf(cmd, sizeof cmd, "{\"plugin\": \"riichi_mjai\", \"label\": \"bot\", \"params\": "
           "{\"command\": \"%s %s --daemon --wins none\"}}", TK_PROC_BOT, W(dir));
  const char *base = "{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"}";
  snprintf(text, sizeof text,
           "{\"game\": \"riichi\", \"seed\": 5, \"walls\": 2, \"format\": \"duplicate\","
           " \"agents\": [%s, %s], \"rules\": {\"length\": \"east\"}}\n",
           bot_at ? base : cmd, bot_at ? cmd : base);
  char specn[64], out[64];
  snprintf(specn, sizeof specn, "%s.json", name);
  snprintf(out, sizeof out, "out-%s", name);
  write_file(W(specn), text);
  if (run(specn, out, "2")) return -1;
  /* every bot started with default signals and an empty mask */
  char path[1400], line[256];
  snprintf(path, sizeof path, "%s/bots", W(dir));
  FILE *f = fopen(path, "r");
  int bots = 0;
  while (f && fgets(line, sizeof line, f)) {
    long pid;
    char ign[40], blk[40];
    bots++;
    if (sscanf(line, "%ld %39s %39s", &pid, ign, blk) != 3) {
      TK_FAILF("%s: a line that is not \"PID SIGIGN SIGBLK\": %s", path, line);
      continue;
    }
    if (strspn(ign, "0") != strlen(ign) || strspn(blk, "0") != strlen(blk))
      TK_FAILF("%s: bot %ld started with signals ignored (SigIgn %s) or blocked (SigBlk %s)",
               name, pid, ign, blk);
  }
  if (f) fclose(f);
  /* no daemon of a bot outlived the run */
  int daemons = 0;
  DIR *d = opendir(W(dir));
  struct dirent *e;
  while (d && (e = readdir(d))) { /* daemon-PID, PID a bot's: holds the daemon's pid */
    if (strncmp(e->d_name, "daemon-", 7)) continue;
    snprintf(path, sizeof path, "%s/%s", W(dir), e->d_name);
    char pidtext[64] = "";
    slurp(path, pidtext, sizeof pidtext);
    long pid = atol(pidtext);
    if (pid <= 0) continue; /* killed before it wrote its pid */
    daemons++;
    snprintf(path, sizeof path, "/proc/%ld", pid);
    if (access(path, F_OK) == 0) {
      TK_FAILF("%s: daemon %ld of a bot (%s) is still running after the run", name, pid,
               e->d_name);
      kill((pid_t)pid, SIGKILL);
    }
  }
  if (d) closedir(d);
  TK_EQ(daemons > 0, 1, "daemons whose pids were written");
  return bots;
}

/* The bot processes a run starts: as many as seats played at the same time by one instance
 * (1 per worker as a duplicate's candidate, 3 as its baseline), each with default signals,
 * and none of them, nor a daemon one started, left after the run. */
static void processes(void) {
  if (!have_python) return;
  int cand = proc_run("proc-cand", 1, "proc-cand");
  printf("\n  bots started: %d as the candidate, ", cand);
  TK_EQ(cand >= 1 && cand <= 2, 1, "bots started for the candidate at -j 2 (at most 1 a worker)");
  int base = proc_run("proc-base", 0, "proc-base");
  printf("%d as the baseline (-j 2)\n", base);
  TK_EQ(base >= 3 && base <= 6, 1, "bots started for the baseline at -j 2 (at most 3 a worker)");
  /* the bot's seats are riichi_tsumogiri's games byte for byte, the bot moving between seats */
  spec("proc-pure.json", "", "riichi_tsumogiri", 2, "");
  if (run("proc-pure.json", "proc-pure", "1")) return;
  char a[1200], b[1200];
  games_path(a, sizeof a, "out-proc-cand");
  games_path(b, sizeof b, "proc-pure");
  TK_EQ(same_bytes(a, b), 1, "the bot's games are riichi_tsumogiri's, byte for byte");
}

/* agents[1].files of `dir`'s spec.json: the sha256 of the file with `role` ("" if none), its path
 * into `path`. */
static void file_of(const char *dir, const char *role, char *sha, char *path, size_t cap) {
  char p[1300];
  snprintf(p, sizeof p, "%s/spec.json", dir);
  json_t *s = json_load_file(p, 0, NULL);
  sha[0] = path[0] = '\0';
  json_t *files = json_object_get(json_array_get(json_object_get(s, "agents"), 1), "files");
  for (size_t i = 0; i < json_array_size(files); i++) {
    json_t *f = json_array_get(files, i);
    if (strcmp(json_string_value(json_object_get(f, "role")), role)) continue;
    snprintf(sha, TK_SHA256_HEX, "%s", json_string_value(json_object_get(f, "sha256")));
    snprintf(path, cap, "%s", json_string_value(json_object_get(f, "path")));
  }
  json_decref(s);
}

/* The bot's program and script are part of the run's identity. */
static void identity(void) {
  if (!have_python) return;
  char bot[1300], text[4096], out[1300], specp[1300];
  snprintf(bot, sizeof bot, "%s", W("bot-copy.py"));
  char orig[1 << 16];
  slurp(TK_BOT, orig, sizeof orig);
  write_file(bot, orig);
  snprintf(text, sizeof text,
           "{\"game\": \"riichi\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\","
           " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},"
           " {\"plugin\": \"riichi_mjai\", \"label\": \"bot\","
           " \"params\": {\"command\": \"python3 -u %s --wins all\"}}],"
           " \"rules\": {\"length\": \"east\"}}\n", bot);
  snprintf(specp, sizeof specp, "%s", W("ident.json"));
  write_file(specp, text);
  snprintf(out, sizeof out, "%s", W("ident"));
  const char *args[] = {"run", specp, "--out", out, "--quiet", NULL};
  TK_EQ(taikai(args), 0, "the first run");
  char sha[TK_SHA256_HEX], path[1300], want[TK_SHA256_HEX];
  tk_error e;
  tk_error_clear(&e);
  file_of(out, "program", sha, path, sizeof path);
  if (!sha[0] || !strstr(path, "python3")) TK_FAILF("spec.json: program: '%s' %s", path, sha);
  else if (tk_sha256_file(path, want, &e) || strcmp(sha, want))
    TK_FAILF("program %s: sha256 %s in spec.json, %s on disk", path, sha, want);
  file_of(out, "script", sha, path, sizeof path);
  if (strcmp(path, bot)) TK_FAILF("spec.json: script '%s', expected '%s'", path, bot);
  else if (tk_sha256_file(bot, want, &e) || strcmp(sha, want))
    TK_FAILF("script: sha256 %s in spec.json, %s on disk", sha, want);
  /* the script changed: the resume is refused, naming agent, file and both hashes */
  char games[1400];
  snprintf(games, sizeof games, "%s/games.jsonl", out);
  write_file(games, ""); /* as if interrupted before its first unit */
  char changed[(1 << 16) + 32];
  snprintf(changed, sizeof changed, "%s# changed\n", orig);
  write_file(bot, changed);
  char now[TK_SHA256_HEX];
  tk_sha256_file(bot, now, &e);
  TK_EQ(taikai(args), 2, "resumed with a changed script");
  char msg[1600];
  snprintf(msg, sizeof msg, "agent 'bot': %s changed since the run started (sha256 %s in "
           "spec.json, now %s)", bot, sha, now);
  if (!strstr(err_buf, msg)) TK_FAILF("expected \"%s\" in: %.800s", msg, err_buf);
  write_file(bot, orig);
  TK_EQ(taikai(args), 0, "resumed with the script restored");
  /* "files": more files to hash, each a readable file */
  snprintf(text, sizeof text,
           "{\"game\": \"riichi\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\","
           " \"agents\": [{\"plugin\": \"riichi_tsumogiri\"},"
           " {\"plugin\": \"riichi_mjai\", \"label\": \"bot\","
           " \"params\": {\"command\": \"python3 %s\","
           " \"files\": [\"%s\", \"/nonexistent/model.pt\"]}}],"
           " \"rules\": {\"length\": \"east\"}}\n", bot, bot);
  write_file(specp, text);
  const char *bad[] = {"run", specp, "--out", W("ident-bad"), "--quiet", NULL};
  TK_EQ(taikai(bad) != 0, 1, "a file that does not exist");
  if (!strstr(err_buf, "parameter \"files\"[1]: \"/nonexistent/model.pt\" is not a readable file"))
    TK_FAILF("stderr: %.600s", err_buf);
}

static void bad_command(void) {
  write_file(W("nocmd.json"),
             "{\"game\": \"riichi\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\","
             " \"agents\": [{\"plugin\": \"riichi_tsumogiri\"},"
             " {\"plugin\": \"riichi_mjai\", \"params\": {\"command\": \"/nonexistent/bot --x\"}}],"
             " \"rules\": {\"length\": \"east\"}}\n");
  const char *args[] = {"run", W("nocmd.json"), "--out", W("nocmd"), "--quiet", NULL};
  int rc = taikai(args);
  TK_EQ(rc != 0, 1, "a command that does not exist is refused");
  if (!strstr(err_buf, "/nonexistent/bot"))
    TK_FAILF("the message does not name the program: %.600s", err_buf);
}

/* Heavy calling: tests/riichi/mjai_check_bot.py (it checks every event it receives and calls
 * itself) against riichi_caller (fixtures/caller.c: every chi, pon and kan it can), 30 walls with
 * --logs: no fault, every event the bot received equals the game's mjai log as its seat sees it,
 * up to its last decision in each hand (mjai_check_bot.py --compare), and the same bytes with
 * -j 2 and -j 1. */
static void heavy_calling(void) {
  if (!have_python) return;
  char dump[1200], text[4096];
  snprintf(dump, sizeof dump, "%s", W("calls-dump"));
  snprintf(text, sizeof text, "rm -rf '%s' && mkdir -p '%s'", dump, dump);
  TK_EQ(system(text), 0, text);
  snprintf(text, sizeof text,
           "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 30, \"format\": \"duplicate\","
           " \"agents\": [{\"plugin\": \"%s\", \"label\": \"caller\"},"
           " {\"plugin\": \"riichi_mjai\", \"label\": \"bot\", \"params\": {\"command\":"
           " \"python3 %s --dump %s\"}}], \"rules\": {\"length\": \"east\"}}\n",
           TK_CALLER, TK_CHECK_BOT, dump);
  write_file(W("calls.json"), text);
  const char *args[] = {"run", W("calls.json"), "--out", W("calls"), "--logs", "-j", "2",
                        "--quiet", NULL};
  int rc = taikai(args);
  if (rc) {
    TK_FAILF("taikai run calls.json: exit %d; stderr: %.600s", rc, err_buf);
    return;
  }
  char path[1200];
  games_path(path, sizeof path, "calls");
  enum { N = 120 };
  static json_t *g[N];
  int n = load_lines(path, g, N);
  TK_EQ(n, N, "units of the heavy-calling run");
  for (int u = 0; u < n; u++) {
    json_t *seats = json_object_get(g[u], "seats");
    for (size_t s = 0; s < json_array_size(seats); s++) {
      json_t *x = json_array_get(seats, s);
      if (json_object_get(x, "fault") || json_object_get(x, "illegal"))
        TK_FAILF("unit %d seat %zu: a fault or an illegal action: %s", u, s,
                 json_dumps(x, JSON_COMPACT));
    }
  }
  free_lines(g, n);
  snprintf(text, sizeof text, "python3 '%s' --compare '%s' '%s/logs' bot", TK_CHECK_BOT, dump,
           W("calls"));
  printf("\n  ");
  fflush(stdout);
  TK_EQ(system(text), 0, "the streams the bot received against the logs (mjai_check_bot.py --compare)");
  /* the same games with -j 1 (bots play other games, in other seats, in another order) */
  snprintf(text, sizeof text, "rm -rf '%s1' && mkdir -p '%s1'", dump, dump);
  TK_EQ(system(text), 0, text);
  snprintf(text, sizeof text,
           "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 30, \"format\": \"duplicate\","
           " \"agents\": [{\"plugin\": \"%s\", \"label\": \"caller\"},"
           " {\"plugin\": \"riichi_mjai\", \"label\": \"bot\", \"params\": {\"command\":"
           " \"python3 %s --dump %s1\"}}], \"rules\": {\"length\": \"east\"}}\n",
           TK_CALLER, TK_CHECK_BOT, dump);
  write_file(W("calls1.json"), text);
  if (run("calls1.json", "calls1", "1")) return;
  char path1[1200];
  games_path(path1, sizeof path1, "calls1");
  TK_EQ(same_bytes(path, path1), 1, "games.jsonl of -j 2 and -j 1");
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-mjai")) {
    fprintf(stderr, "cannot create the work folder\n");
    return 1;
  }
  have_python = system("python3 -c 'import json' > /dev/null 2>&1") == 0;
  if (!have_python) printf("SKIP: python3 not found: the mjai bot tests do not run\n");
  CU_TestInfo tests[] = {
      {"--wins none: riichi_tsumogiri's games byte for byte, any -j", exact_tsumogiri},
      {"--wins all: no fault, games without a bot win unchanged, any -j", with_wins},
      {"--discard efficient --riichi: tsumo, ron, reach accepted, no fault, any -j", efficient},
      {"garbage answer: a fault of the seat, its line on stderr", garbage},
      {"illegal discard: a fault of the seat", illegal},
      {"the bot exits: a fault of the seat", exits},
      {"the bot closes its stdout: a fault of the seat at once", closes_stdout},
      {"the bot sleeps past time_limit_ms: a timeout of the seat", sleeps},
      {"bots started per seat played at once, default signals, no process left", processes},
      {"heavy calling: every stream the bot received equals the log, no fault", heavy_calling},
      {"a command that does not exist is refused", bad_command},
      {"the bot's program and script in spec.json; a changed script refuses the resume", identity},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_mjai", tests);
}
