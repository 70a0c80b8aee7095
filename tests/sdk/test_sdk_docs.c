/* tests/sdk/test_sdk_docs.c — the agent pages against the headers they describe. For every
 * struct that crosses the plugin boundary (each game's info, view, legal-action, action and
 * result structs and the structs inside them; tk_game_head and tk_agent_descriptor in docs/sdk.md),
 * the fields are read from the public header and the page's section for that struct (the
 * heading naming it in backquotes, up to the next heading) must
 * name every field in backquotes; a table row whose first cell names a field the struct does not
 * have fails too (a removed or renamed field). Each page must also state its game's types
 * version ("types version N"). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/daifugo.h"
#include "taikai/kuhn.h"
#include "taikai/riichi.h"
#include "taikai/solo.h"
#include "unit.h"

enum { MAX_FIELDS = 64, NAME_MAX_LEN = 48 };

typedef struct fields {
  int n;
  char name[MAX_FIELDS][NAME_MAX_LEN];
} fields;

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (s) s[n] = '\0';
  fclose(f);
  return s;
}

/* Blanks comments and preprocessor lines (in place), so that only declarations remain. */
static void strip(char *s) {
  for (char *p = s; *p; p++) {
    if (p[0] == '/' && p[1] == '*') {
      char *e = strstr(p + 2, "*/");
      char *end = e ? e + 2 : p + strlen(p);
      for (; p < end; p++)
        if (*p != '\n') *p = ' ';
      p--;
    } else if (p[0] == '/' && p[1] == '/') {
      for (; *p && *p != '\n'; p++) *p = ' ';
      p--;
    } else if (*p == '#' && (p == s || p[-1] == '\n')) {
      for (; *p && *p != '\n'; p++) *p = ' ';
      p--;
    }
  }
}

/* The field names of `typedef struct NAME { ... } NAME;` in the stripped header `h`. Returns
 * the number found, -1 if the struct is not there. */
static int struct_fields(const char *h, const char *name, fields *out) {
  char open[128];
  snprintf(open, sizeof open, "typedef struct %s {", name);
  const char *p = strstr(h, open);
  if (!p) return -1;
  p += strlen(open);
  const char *end = strchr(p, '}');
  if (!end) return -1;
  out->n = 0;
  while (p < end) {
    while (p < end && isspace((unsigned char)*p)) p++; /* a long comment, blanked by strip */
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (!semi) break;
    /* One declaration: "type a[4], b;" — each comma-separated declarator's identifier. */
    char decl[512];
    size_t len = (size_t)(semi - p) < sizeof decl - 1 ? (size_t)(semi - p) : sizeof decl - 1;
    memcpy(decl, p, len);
    decl[len] = '\0';
    char *fp = strstr(decl, "(*");
    if (fp) { /* a function pointer "ret (*name)(args)": its name only */
      char *b = fp + 2, *e = b;
      while (isalnum((unsigned char)*e) || *e == '_') e++;
      if (e > b && out->n < MAX_FIELDS) {
        snprintf(out->name[out->n], NAME_MAX_LEN, "%.*s", (int)(e - b), b);
        out->n++;
      }
      p = semi + 1;
      continue;
    }
    for (char *b; (b = strchr(decl, '['));) { /* drop array bounds */
      char *e = strchr(b, ']');
      if (!e) break;
      memmove(b, e + 1, strlen(e + 1) + 1);
    }
    char *save = NULL;
    for (char *piece = strtok_r(decl, ",", &save); piece; piece = strtok_r(NULL, ",", &save)) {
      char *e = piece + strlen(piece);
      while (e > piece && !(isalnum((unsigned char)e[-1]) || e[-1] == '_')) e--;
      char *b = e;
      while (b > piece && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
      if (b < e && out->n < MAX_FIELDS) {
        snprintf(out->name[out->n], NAME_MAX_LEN, "%.*s", (int)(e - b), b);
        out->n++;
      }
    }
    p = semi + 1;
  }
  return out->n;
}

/* The section of `doc` under the heading that names `name` in backquotes: [*from, *to). */
static int section(const char *doc, const char *name, const char **from, const char **to) {
  char tag[128];
  snprintf(tag, sizeof tag, "`%s`", name);
  for (const char *line = doc; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    if (line[0] == '#') {
      const char *hit = strstr(line, tag);
      if (hit && hit < line + len) {
        *from = line + len;
        const char *q = *from;
        while (*q) {
          q++;
          if (q[-1] == '\n' && q[0] == '#') break;
        }
        *to = q;
        return 0;
      }
    }
    line += len + (nl ? 1 : 0);
  }
  return -1;
}

/* Checks page `doc_name` against struct `name` of header `header_name`. */
static void check(const char *header_name, const char *doc_name, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/include/taikai/%s", TK_SOURCE_DIR, header_name);
  char *h = read_all(path);
  snprintf(path, sizeof path, "%s/%s", TK_SOURCE_DIR, doc_name);
  char *doc = read_all(path);
  if (!h || !doc) {
    TK_FAILF("cannot read %s or include/taikai/%s", doc_name, header_name);
    free(h);
    free(doc);
    return;
  }
  strip(h);
  fields f;
  const char *from, *to;
  if (struct_fields(h, name, &f) <= 0) {
    TK_FAILF("include/taikai/%s: no fields found for struct %s", header_name, name);
  } else if (section(doc, name, &from, &to)) {
    TK_FAILF("%s: no heading names `%s` (include/taikai/%s)", doc_name, name, header_name);
  } else {
    size_t n = (size_t)(to - from);
    char *sec = malloc(n + 1);
    memcpy(sec, from, n);
    sec[n] = '\0';
    for (int i = 0; i < f.n; i++) {
      char tag[64];
      snprintf(tag, sizeof tag, "`%s`", f.name[i]);
      if (!strstr(sec, tag))
        TK_FAILF("%s, section `%s`: field %s (include/taikai/%s) is not documented", doc_name,
                 name, f.name[i], header_name);
      else
        CU_PASS(tag);
    }
    /* Table rows "| `x` |": x must be a field. */
    for (const char *r = sec; (r = strstr(r, "\n| `"));) {
      r += 4;
      const char *e = strchr(r, '`');
      if (!e) break;
      char cell[NAME_MAX_LEN];
      snprintf(cell, sizeof cell, "%.*s", (int)(e - r), r);
      int known = 0;
      for (int i = 0; i < f.n; i++) known |= !strcmp(cell, f.name[i]);
      if (!known)
        TK_FAILF("%s, section `%s`: row `%s` names no field of %s (include/taikai/%s)", doc_name,
                 name, cell, name, header_name);
    }
    free(sec);
  }
  free(h);
  free(doc);
}

static void check_version(const char *doc_name, unsigned version) {
  char path[1024], want[64];
  snprintf(path, sizeof path, "%s/%s", TK_SOURCE_DIR, doc_name);
  char *doc = read_all(path);
  snprintf(want, sizeof want, "types version %u", version);
  if (!doc || !strstr(doc, want)) TK_FAILF("%s does not say \"%s\"", doc_name, want);
  else CU_PASS(want);
  free(doc);
}

static void agent_abi(void) {
  check("agent.h", "docs/sdk.md", "tk_agent_descriptor");
  check("agent.h", "docs/sdk.md", "tk_game_head");
}

static void kuhn(void) {
  const char *s[] = {"tk_kuhn_info", "tk_kuhn_view", "tk_kuhn_legal", "tk_kuhn_action",
                     "tk_kuhn_result", NULL};
  for (int i = 0; s[i]; i++) check("kuhn.h", "docs/agent-kuhn.md", s[i]);
  check_version("docs/agent-kuhn.md", TK_KUHN_TYPES_VERSION);
}

static void solo(void) {
  const char *s[] = {"tk_solo_info", "tk_solo_view", "tk_solo_legal", "tk_solo_action",
                     "tk_solo_result", NULL};
  for (int i = 0; s[i]; i++) check("solo.h", "docs/agent-solo.md", s[i]);
  check_version("docs/agent-solo.md", TK_SOLO_TYPES_VERSION);
}

static void riichi(void) {
  const char *s[] = {"tk_riichi_info", "tk_riichi_view", "tk_riichi_meld", "tk_riichi_discard",
                     "tk_riichi_legal", "tk_riichi_action", "tk_riichi_result",
                     "tk_riichi_stats", NULL};
  for (int i = 0; s[i]; i++) check("riichi.h", "docs/agent-riichi.md", s[i]);
  check_version("docs/agent-riichi.md", TK_RIICHI_TYPES_VERSION);
}

static void daifugo(void) {
  const char *s[] = {"tk_daifugo_info", "tk_daifugo_view", "tk_daifugo_played",
                     "tk_daifugo_legal", "tk_daifugo_move", "tk_daifugo_totals", NULL};
  for (int i = 0; s[i]; i++) check("daifugo.h", "docs/agent-daifugo.md", s[i]);
  check_version("docs/agent-daifugo.md", TK_DAIFUGO_TYPES_VERSION);
}

/* The checker itself: a field left out of a section, and a row naming no field, are caught. */
static void checker_catches(void) {
  const char *h_text = "typedef struct tk_x {\n  uint8_t a, b[3]; /* c; */\n  tk_y d[2][4];\n"
                       "  int32_t e;\n  int (*f)(void *self, const void *g, int h);\n} tk_x;\n";
  char *h = strdup(h_text);
  strip(h);
  fields f;
  TK_EQ(struct_fields(h, "tk_x", &f), 5, "fields of tk_x");
  if (f.n == 5) {
    CU_ASSERT_STRING_EQUAL(f.name[0], "a");
    CU_ASSERT_STRING_EQUAL(f.name[1], "b");
    CU_ASSERT_STRING_EQUAL(f.name[2], "d");
    CU_ASSERT_STRING_EQUAL(f.name[3], "e");
    CU_ASSERT_STRING_EQUAL(f.name[4], "f");
  }
  const char *doc = "# T\n## `tk_x`\n| `a` | x |\n### sub\n`b`\n## `tk_z`\n`d` `e`\n";
  const char *from, *to;
  CU_ASSERT_EQUAL_FATAL(section(doc, "tk_x", &from, &to), 0);
  char sec[128];
  snprintf(sec, sizeof sec, "%.*s", (int)(to - from), from);
  CU_ASSERT_PTR_NOT_NULL(strstr(sec, "`a`"));
  CU_ASSERT_PTR_NULL(strstr(sec, "`b`")); /* a sub-heading (a nested struct's table) ends it */
  CU_ASSERT_PTR_NULL(strstr(sec, "`d`"));
  CU_ASSERT_EQUAL(section(doc, "tk_w", &from, &to), -1);
  free(h);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"the checker finds fields and sections", checker_catches},
      {"docs/sdk.md: tk_agent_descriptor, tk_game_head", agent_abi},
      {"docs/agent-kuhn.md", kuhn},
      {"docs/agent-solo.md", solo},
      {"docs/agent-riichi.md", riichi},
      {"docs/agent-daifugo.md", daifugo},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("sdk_docs", tests);
}
