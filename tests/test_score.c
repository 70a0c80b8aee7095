/* tests/test_score.c — yaku, fu and points. The hand-checked cases live in
 * tests/data/score_cases.txt (format described at its top) and are fed through the same
 * argument parser as `taikai hand`; the rest checks the one-player points table, refused
 * inputs, and properties of random wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handargs.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "unit.h"

typedef struct score_case {
  char id[96];
  char args[512];
  char result[16];
  char yaku[512];
  int han, fu, yakuman, total;
  char limit[32];
  char pay[128];
  int line;
} score_case;

static void trim(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) s[--n] = '\0';
}

/* yaku "a:1 b:2" as a sorted canonical string, for an order-free comparison */
static void canon_yaku(const char *in, char *out, size_t cap) {
  char items[TK_MAX_YAKU + 8][48];
  int n = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", in);
  for (char *tok = strtok(buf, " "); tok && n < TK_MAX_YAKU + 8; tok = strtok(NULL, " "))
    snprintf(items[n++], sizeof items[0], "%s", tok);
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && strcmp(items[j - 1], items[j]) > 0; j--) {
      char t[48];
      memcpy(t, items[j], sizeof t);
      memcpy(items[j], items[j - 1], sizeof t);
      memcpy(items[j - 1], t, sizeof t);
    }
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    strncat(out, items[i], cap - strlen(out) - 1);
    if (i + 1 < n) strncat(out, " ", cap - strlen(out) - 1);
  }
}

/* What the cases cover, checked so that the corpus cannot silently lose a yaku. */
static int seen_yaku[TK_YAKU_COUNT];
static int seen_limit[TK_LIMIT_YAKUMAN + 3];
static int seen_pay[4]; /* ron, dealer/non_dealer, all, points */

static void note_coverage(const score_case *c) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", c->yaku);
  for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    char *colon = strchr(tok, ':');
    if (colon) *colon = '\0';
    for (int y = 0; y < TK_YAKU_COUNT; y++)
      if (!strcmp(tok, tk_yaku_name(y))) seen_yaku[y]++;
  }
  for (int l = 0; l <= TK_LIMIT_YAKUMAN; l++)
    for (int m = 1; m <= 3; m++)
      if (!strcmp(c->limit, tk_limit_name(l, m))) seen_limit[l == TK_LIMIT_YAKUMAN ? l + m - 1 : l]++;
  if (!strncmp(c->pay, "ron=", 4)) seen_pay[0]++;
  if (!strncmp(c->pay, "dealer=", 7)) seen_pay[1]++;
  if (!strncmp(c->pay, "all=", 4)) seen_pay[2]++;
  if (!strncmp(c->pay, "points=", 7)) seen_pay[3]++;
}

static int run_case(const score_case *c) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", c->args);
  char *argv[64];
  int argc = 0;
  argv[argc++] = "hand";
  for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " ")) argv[argc++] = tok;
  argv[argc] = NULL;
  tk_hand_args a;
  tk_error err;
  tk_error_clear(&err);
  if (tk_hand_args_parse(argc, argv, &a, &err) < 0) {
    TK_FAILF("case %s (line %d): arguments refused: %s", c->id, c->line, err.msg);
    return 0;
  }
  tk_score s;
  tk_error_clear(&err);
  int rc = tk_score_hand(a.tiles, a.ntiles, a.calls, a.ncalls, &a.ctx, &s, &err);
  if (!strcmp(c->result, "incomplete") || !strcmp(c->result, "noyaku")) {
    int want = c->result[0] == 'i' ? TK_ENOTCOMPLETE : TK_ENOYAKU;
    if (rc != want) {
      TK_FAILF("case %s (line %d): expected %s, got %d (%s) han %d", c->id, c->line, c->result, rc,
               rc ? err.msg : "scored", s.han);
      return 0;
    }
    return 1;
  }
  if (rc != 0) {
    TK_FAILF("case %s (line %d): not scored: %s", c->id, c->line, err.msg);
    return 0;
  }
  int ok = 1;
  char got[512] = "", want[512], gotc[512];
  for (int i = 0; i < s.nyaku; i++) {
    char item[48];
    snprintf(item, sizeof item, "%s%s:%d", i ? " " : "", tk_yaku_name(s.yaku[i]), s.yaku_han[i]);
    strncat(got, item, sizeof got - strlen(got) - 1);
  }
  canon_yaku(got, gotc, sizeof gotc);
  canon_yaku(c->yaku, want, sizeof want);
  if (strcmp(gotc, want)) {
    TK_FAILF("case %s (line %d): yaku [%s], expected [%s]", c->id, c->line, gotc, want);
    ok = 0;
  }
  if (s.han != c->han || s.fu != c->fu || s.yakuman != c->yakuman) {
    TK_FAILF("case %s (line %d): %d han %d fu %d yakuman, expected %d han %d fu %d yakuman", c->id, c->line, s.han,
             s.fu, s.yakuman, c->han, c->fu, c->yakuman);
    ok = 0;
  }
  const char *lim = tk_limit_name(s.limit, s.yakuman);
  if (strcmp(lim, c->limit)) {
    TK_FAILF("case %s (line %d): limit %s, expected %s", c->id, c->line, lim, c->limit);
    ok = 0;
  }
  char pay[128];
  if (a.ctx.ruleset == TK_RULES_SOLO) snprintf(pay, sizeof pay, "points=%d", s.total);
  else if (a.ctx.ron) snprintf(pay, sizeof pay, "ron=%d", s.pay_ron);
  else if (a.ctx.seat_wind == 0) snprintf(pay, sizeof pay, "all=%d", s.pay_all);
  else snprintf(pay, sizeof pay, "dealer=%d non_dealer=%d", s.pay_dealer, s.pay_non_dealer);
  if (strcmp(pay, c->pay)) {
    TK_FAILF("case %s (line %d): pay %s, expected %s", c->id, c->line, pay, c->pay);
    ok = 0;
  }
  if (s.total != c->total) {
    TK_FAILF("case %s (line %d): total %d, expected %d", c->id, c->line, s.total, c->total);
    ok = 0;
  }
  return ok;
}

static void test_cases(void) {
  const char *path = TK_TEST_DATA "/score_cases.txt";
  FILE *f = fopen(path, "r");
  if (!f) {
    TK_FAILF("cannot open %s", path);
    return;
  }
  char line[1024];
  score_case c;
  int in = 0, lineno = 0, cases = 0, passed = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    trim(line);
    if (!line[0] || line[0] == '#') continue;
    char *sp = strchr(line, ' ');
    const char *val = sp ? sp + 1 : "";
    if (sp) *sp = '\0';
    if (!strcmp(line, "case")) {
      memset(&c, 0, sizeof c);
      snprintf(c.id, sizeof c.id, "%s", val);
      c.line = lineno;
      in = 1;
    } else if (!in) {
      TK_FAILF("%s:%d: '%s' outside a case", path, lineno, line);
    } else if (!strcmp(line, "args")) snprintf(c.args, sizeof c.args, "%s", val);
    else if (!strcmp(line, "result")) snprintf(c.result, sizeof c.result, "%s", val);
    else if (!strcmp(line, "yaku")) snprintf(c.yaku, sizeof c.yaku, "%s", val);
    else if (!strcmp(line, "han")) c.han = atoi(val);
    else if (!strcmp(line, "fu")) c.fu = atoi(val);
    else if (!strcmp(line, "yakuman")) c.yakuman = atoi(val);
    else if (!strcmp(line, "limit")) snprintf(c.limit, sizeof c.limit, "%s", val);
    else if (!strcmp(line, "pay")) snprintf(c.pay, sizeof c.pay, "%s", val);
    else if (!strcmp(line, "total")) c.total = atoi(val);
    else if (!strcmp(line, "why")) {
    } else if (!strcmp(line, "end")) {
      cases++;
      passed += run_case(&c);
      note_coverage(&c);
      in = 0;
    } else {
      TK_FAILF("%s:%d: unknown field '%s'", path, lineno, line);
    }
  }
  fclose(f);
  printf("\n    %d of %d hand-checked scoring cases pass\n", passed, cases);
  if (cases < 150) TK_FAILF("only %d scoring cases in %s (at least 150 expected)", cases, path);
  else CU_PASS("enough cases");
  for (int y = 0; y < TK_YAKU_COUNT; y++)
    if (seen_yaku[y] < 2) TK_FAILF("yaku %s appears in %d cases (at least 2 expected)", tk_yaku_name(y), seen_yaku[y]);
  for (int l = TK_LIMIT_NONE; l <= TK_LIMIT_YAKUMAN + 1; l++)
    if (!seen_limit[l]) TK_FAILF("no case reaches limit %d (%s)", l, l <= TK_LIMIT_YAKUMAN ? tk_limit_name(l, 1) : "double_yakuman");
  static const char *const PAY[4] = {"ron", "non-dealer tsumo", "dealer tsumo", "solo points"};
  for (int p = 0; p < 4; p++)
    if (seen_pay[p] < 5) TK_FAILF("only %d cases pay as %s (at least 5 expected)", seen_pay[p], PAY[p]);
}

/* Table 2.2 of Kaizu 2015, every cell. */
static void test_solo_points(void) {
  static const int FU[6] = {20, 25, 30, 40, 50, 60};
  static const int T[4][6] = {
      {0, 0, 1500, 2000, 2400, 2900},
      {2000, 2400, 2900, 3900, 4800, 5800},
      {3900, 4800, 5800, 7700, 9600, 11600},
      {7700, 9600, 11600, 12000, 12000, 12000},
  };
  for (int h = 1; h <= 4; h++)
    for (int i = 0; i < 6; i++)
      if (T[h - 1][i]) TK_EQ(tk_solo_points(h, FU[i]), T[h - 1][i], "table 2.2 cell");
  TK_EQ(tk_solo_points(3, 70), 12000, "3 han 70 fu reaches the cap");
  TK_EQ(tk_solo_points(5, 30), 12000, "5 han");
  TK_EQ(tk_solo_points(6, 30), 18000, "6 han");
  TK_EQ(tk_solo_points(7, 30), 18000, "7 han");
  TK_EQ(tk_solo_points(8, 30), 24000, "8 han");
  TK_EQ(tk_solo_points(10, 30), 24000, "10 han");
  TK_EQ(tk_solo_points(11, 30), 36000, "11 han");
  TK_EQ(tk_solo_points(12, 30), 36000, "12 han");
  TK_EQ(tk_solo_points(13, 30), 48000, "13 han");
  TK_EQ(tk_solo_points(20, 30), 48000, "20 han");
}

static int score_str(const char *tiles, const char *win, tk_win_ctx *ctx, tk_score *s, tk_error *e) {
  tk_tile t[14];
  int n = tk_tiles_parse(tiles, t, 14, NULL);
  ctx->win_tile = (uint8_t)tk_tile_parse1(win, NULL);
  return tk_score_hand(t, n, NULL, 0, ctx, s, e);
}

/* One-player rules: yakuman are a fixed 13 han and never stack. */
static void test_solo_yakuman(void) {
  tk_win_ctx x;
  tk_score s;
  memset(&x, 0, sizeof x);
  x.ruleset = TK_RULES_SOLO;
  /* daisangen + tsuuiisou + suuankou: three yakuman under Tenhou rules, one here */
  TK_EQ(score_str("111z555z666z777z22z", "2z", &x, &s, NULL), 0, "solo triple yakuman hand");
  TK_EQ(s.yakuman, 1, "solo yakuman count");
  TK_EQ(s.total, 48000, "solo yakuman points");
  CU_ASSERT_STRING_EQUAL(tk_limit_name(s.limit, s.yakuman), "yakuman");
  x.ruleset = TK_RULES_TENHOU;
  x.seat_wind = 1;
  TK_EQ(score_str("111z555z666z777z22z", "2z", &x, &s, NULL), 0, "tenhou triple yakuman hand");
  TK_EQ(s.yakuman, 3, "tenhou stacks yakuman");
  TK_EQ(s.total, 3 * (16000 + 2 * 8000), "non-dealer tsumo triple yakuman: 3 x 32000");
}

static void test_refused(void) {
  tk_win_ctx x;
  tk_score s;
  tk_error e;
  memset(&x, 0, sizeof x);
  x.seat_wind = 1;
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s11223z", "3z", &x, &s, &e), TK_ENOTCOMPLETE, "incomplete");
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s11222z", "5m", &x, &s, &e), TK_EINVAL, "winning tile not held");
  x.ippatsu = 1;
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s11222z", "2z", &x, &s, &e), TK_EINVAL, "ippatsu without riichi");
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "ippatsu"));
  memset(&x, 0, sizeof x);
  x.rinshan = 1;
  x.ron = 1;
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s11222z", "2z", &x, &s, &e), TK_EINVAL, "rinshan ron");
  memset(&x, 0, sizeof x);
  x.ruleset = TK_RULES_SOLO;
  x.ron = 1;
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s11222z", "2z", &x, &s, &e), TK_EINVAL, "solo ron");
  /* a complete hand with only dora is no win */
  memset(&x, 0, sizeof x);
  x.seat_wind = 1;
  x.ron = 1;
  x.ndora = 1;
  x.dora[0] = TK_1M;
  tk_error_clear(&e);
  TK_EQ(score_str("123m456p789s22m687s", "7s", &x, &s, &e), TK_ENOYAKU, "dora alone (kanchan, so no pinfu)");
  /* open riichi is refused */
  memset(&x, 0, sizeof x);
  x.riichi = 1;
  tk_call pon = {TK_CALL_PON, TK_CHUN, 0};
  tk_tile t[11];
  int n = tk_tiles_parse("123m456p789s11z", t, 11, NULL);
  x.win_tile = TK_EAST;
  tk_error_clear(&e);
  TK_EQ(tk_score_hand(t, n, &pon, 1, &x, &s, &e), TK_EINVAL, "riichi with a pon");
  /* five copies across hand and calls */
  memset(&x, 0, sizeof x);
  tk_call pon1 = {TK_CALL_PON, TK_1M, 0};
  n = tk_tiles_parse("111m456p789s11z", t, 11, NULL);
  x.win_tile = TK_EAST;
  tk_error_clear(&e);
  TK_EQ(tk_score_hand(t, n, &pon1, 1, &x, &s, &e), TK_EINVAL, "six 1m");
}

/* Random wins: the payments add up; the chosen reading rebuilds the hand; tile list and
 * counts entry points agree; the winning tile lies in the group the score names. */
static void test_random_wins(void) {
  tk_rng r;
  tk_rng_seed(&r, 31);
  int scored = 0;
  for (int it = 0; it < 50000; it++) {
    uint8_t c[TK_KINDS] = {0};
    int ok = 1;
    for (int m = 0; m < 4; m++) {
      if (tk_rng_below(&r, 3)) {
        int k = 9 * (int)tk_rng_below(&r, 3) + (int)tk_rng_below(&r, 7);
        for (int j = 0; j < 3; j++) ok &= ++c[k + j] <= 4;
      } else {
        int k = (int)tk_rng_below(&r, TK_KINDS);
        ok &= (c[k] += 3) <= 4;
      }
    }
    int p = (int)tk_rng_below(&r, TK_KINDS);
    ok &= (c[p] += 2) <= 4;
    if (!ok) continue;
    tk_tile t[14];
    int n = 0;
    for (int k = 0; k < TK_KINDS; k++)
      for (int j = 0; j < c[k]; j++) t[n++] = (tk_tile)k;
    tk_win_ctx x;
    memset(&x, 0, sizeof x);
    x.win_tile = t[tk_rng_below(&r, 14)];
    x.ron = (uint8_t)tk_rng_below(&r, 2);
    x.seat_wind = (uint8_t)tk_rng_below(&r, 4);
    x.round_wind = (uint8_t)tk_rng_below(&r, 4);
    x.riichi = (uint8_t)tk_rng_below(&r, 2);
    x.honba = (uint16_t)tk_rng_below(&r, 3);
    x.sticks = (uint16_t)tk_rng_below(&r, 3);
    tk_score s1, s2;
    int rc1 = tk_score_hand(t, n, NULL, 0, &x, &s1, NULL);
    int rc2 = tk_score_counts(c, x.win_tile, 0, NULL, 0, &x, &s2, NULL);
    if (rc1 != rc2 || (rc1 == 0 && memcmp(&s1, &s2, sizeof s1))) {
      TK_FAILF("hand %d: tile list and counts entry points disagree", it);
      return;
    }
    if (rc1 != 0) continue;
    scored++;
    int paid = x.ron ? s1.pay_ron : x.seat_wind == 0 ? 3 * s1.pay_all : s1.pay_dealer + 2 * s1.pay_non_dealer;
    if (s1.total != paid + 300 * x.honba + 1000 * x.sticks) {
      TK_FAILF("hand %d: total %d does not add up", it, s1.total);
      return;
    }
    if (s1.pay_ron % 100 || s1.pay_all % 100 || s1.pay_dealer % 100 || s1.pay_non_dealer % 100) {
      TK_FAILF("hand %d: a payment not rounded to 100", it);
      return;
    }
    int yh = 0;
    for (int i = 0; i < s1.nyaku; i++)
      if (s1.yaku[i] < TK_YAKU_KOKUSHI || s1.yaku[i] > TK_YAKU_CHIIHOU) yh += s1.yaku_han[i];
    if (!s1.yakuman && yh != s1.han) {
      TK_FAILF("hand %d: yaku han add to %d, han is %d", it, yh, s1.han);
      return;
    }
    if (!s1.yakuman && s1.fu % 10 && s1.fu != 25) {
      TK_FAILF("hand %d: fu %d not rounded", it, s1.fu);
      return;
    }
    const tk_decomp *d = &s1.decomp;
    if (d->form == TK_HAND_STANDARD && s1.win_group < 4) {
      int k = d->meld_kind[s1.win_group], w = tk_tile_kind(x.win_tile);
      int in = d->meld_type[s1.win_group] == TK_GROUP_SEQ ? (w >= k && w <= k + 2) : w == k;
      if (!in) {
        TK_FAILF("hand %d: the winning tile is not in the group the score names", it);
        return;
      }
    }
    if (d->form == TK_HAND_STANDARD && s1.win_group == 4 && d->pair != tk_tile_kind(x.win_tile)) {
      TK_FAILF("hand %d: tanki reading on a tile that is not the pair", it);
      return;
    }
  }
  if (scored < 10000) TK_FAILF("only %d random hands scored", scored);
  else CU_PASS("random wins");
}

static CU_TestInfo tests[] = {
    {"hand-checked cases (tests/data/score_cases.txt)", test_cases},
    {"one-player points table", test_solo_points},
    {"one-player yakuman", test_solo_yakuman},
    {"refused inputs", test_refused},
    {"random wins", test_random_wins},
    CU_TEST_INFO_NULL,
};

int main(void) { return tk_unit_run("score", tests); }
