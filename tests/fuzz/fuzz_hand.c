/* tests/fuzz/fuzz_hand.c — libFuzzer harness for `taikai hand` (harness/cmd/handargs.c and
 * harness/cmd/hand.c): the input is split into arguments at newlines (at most 40, as a shell
 * would pass them); tk_hand_args_parse must either refuse them with a message or accept a
 * consistent hand, and an accepted hand goes through the whole command (shanten, effective
 * tiles, waits, decomposition, yaku, fu and points; text and JSON output), whose output is
 * sent to /dev/null. Built with -DTAIKAI_FUZZ=ON (tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "handargs.h"

#define CHECK(c)                                                           \
  do {                                                                     \
    if (!(c)) {                                                            \
      fprintf(stderr, "fuzz_hand: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                             \
    }                                                                      \
  } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!freopen("/dev/null", "w", stdout)) abort();
  tk_shanten_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1024) return 0;
  char *buf = malloc(size + 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  char *argv[42];
  int argc = 0;
  argv[argc++] = "hand";
  for (char *p = buf, *save = NULL, *tok = strtok_r(p, "\n", &save); tok && argc < 41;
       tok = strtok_r(NULL, "\n", &save))
    argv[argc++] = tok;
  argv[argc] = NULL;
  tk_hand_args a;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_hand_args_parse(argc, argv, &a, &e);
  if (rc < 0) {
    CHECK(e.code == rc && e.msg[0]);
  } else if (!a.help) {
    CHECK(a.ncalls >= 0 && a.ncalls <= 4);
    CHECK(a.ntiles == 13 - 3 * a.ncalls || a.ntiles == 14 - 3 * a.ncalls);
    CHECK(tk_tile_kind(a.ctx.win_tile) < TK_KINDS);
    uint8_t c[TK_KINDS] = {0};
    for (int i = 0; i < a.ntiles; i++) c[tk_tile_kind(a.tiles[i])]++;
    for (int k = 0; k < TK_KINDS; k++) CHECK(c[k] + a.seen[k] <= 4);
    /* the whole command, as a user would run it: text, then JSON */
    char *argv2[43];
    int rc1 = tk_cmd_hand(argc, argv);
    /* a repeated flag is refused: add --json only when it is not there already; first, since
     * after a `--` it would be an argument, not the flag */
    int json = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) json |= !strcmp(argv[i], "--json");
    argv2[0] = argv[0];
    argv2[1] = "--json";
    memcpy(argv2 + 1 + !json, argv + 1, sizeof(char *) * (size_t)(argc - 1));
    argv2[argc + !json] = NULL;
    int rc2 = tk_cmd_hand(argc + !json, argv2);
    CHECK(rc1 == 0 || rc1 == 2);
    CHECK(rc1 == rc2);
  }
  free(buf);
  return 0;
}
