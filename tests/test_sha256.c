/* tests/test_sha256.c — SHA-256: the FIPS 180-2 / NIST example vectors, lengths around the
 * padding boundaries (values from an independent implementation, Python's hashlib), the same
 * digest whatever the chunking of the stream, and whole files (a known file, a missing file, a
 * folder). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "taikai/sha256.h"
#include "unit.h"

static void expect_hex(const char *got, const char *want, const char *what) {
  if (strcmp(got, want)) TK_FAILF("%s: sha256 %s, expected %s", what, got, want);
  else CU_PASS(what);
}

static void test_nist_vectors(void) {
  char hex[TK_SHA256_HEX];
  tk_sha256_bytes("", 0, hex);
  expect_hex(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty");
  tk_sha256_bytes("abc", 3, hex);
  expect_hex(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
  const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  tk_sha256_bytes(m448, strlen(m448), hex);
  expect_hex(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits");
  const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                     "klmnopqrlmnopqrsmnopqrstnopqrstu";
  tk_sha256_bytes(m896, strlen(m896), hex);
  expect_hex(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1", "896 bits");
  /* one million 'a', streamed 1000 bytes at a time */
  char a[1000];
  memset(a, 'a', sizeof a);
  tk_sha256 c;
  uint8_t d[TK_SHA256_BYTES];
  tk_sha256_init(&c);
  for (int i = 0; i < 1000; i++) tk_sha256_update(&c, a, sizeof a);
  tk_sha256_final(&c, d);
  tk_sha256_hex(d, hex);
  expect_hex(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "10^6 a");
}

/* Messages of n 'a': the padding takes one block (n mod 64 < 56) or two. */
static void test_padding_boundaries(void) {
  static const struct {
    int n;
    const char *hex;
  } cases[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  char a[128], hex[TK_SHA256_HEX], what[32];
  memset(a, 'a', sizeof a);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tk_sha256_bytes(a, (size_t)cases[i].n, hex);
    snprintf(what, sizeof what, "%d x 'a'", cases[i].n);
    expect_hex(hex, cases[i].hex, what);
  }
}

/* The digest does not depend on how the stream is cut: 256,000 bytes in pieces of every size
 * from 0 to 200 bytes, cycling, against the one-shot digest and Python's. */
static void test_chunking(void) {
  size_t n = 256000;
  uint8_t *m = malloc(n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  for (size_t i = 0; i < n; i++) m[i] = (uint8_t)i;
  char whole[TK_SHA256_HEX], hex[TK_SHA256_HEX];
  tk_sha256_bytes(m, n, whole);
  expect_hex(whole, "b57b64b198d5d59ce5a22a9b9f25e72a7d081476d432051aa923f3dbebb90934", "0..255 x 1000");
  tk_sha256 c;
  uint8_t d[TK_SHA256_BYTES];
  tk_sha256_init(&c);
  size_t off = 0, piece = 0;
  while (off < n) {
    size_t k = piece % 201 < n - off ? piece % 201 : n - off;
    tk_sha256_update(&c, m + off, k);
    off += k;
    piece++;
  }
  tk_sha256_final(&c, d);
  tk_sha256_hex(d, hex);
  expect_hex(hex, whole, "chunked");
  free(m);
}

static void test_file(void) {
  char dir[] = "/tmp/tk-sha256-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char path[64], hex[TK_SHA256_HEX];
  snprintf(path, sizeof path, "%s/abc", dir);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("abc", f);
  fclose(f);
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_sha256_file(path, hex, &e), 0, e.msg);
  expect_hex(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "file abc");
  /* a file larger than the read buffer: 200,000 'a' written in pieces, hashed as bytes too */
  f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char a[1000], want[TK_SHA256_HEX];
  memset(a, 'a', sizeof a);
  for (int i = 0; i < 200; i++) fwrite(a, 1, sizeof a, f);
  fclose(f);
  tk_sha256 c;
  uint8_t d[TK_SHA256_BYTES];
  tk_sha256_init(&c);
  for (int i = 0; i < 200; i++) tk_sha256_update(&c, a, sizeof a);
  tk_sha256_final(&c, d);
  tk_sha256_hex(d, want);
  TK_EQ(tk_sha256_file(path, hex, &e), 0, e.msg);
  expect_hex(hex, want, "file of 200000 a");
  /* a missing file, a folder, a device: refused naming the path, an empty hex */
  snprintf(path, sizeof path, "%s/missing", dir);
  TK_EQ(tk_sha256_file(path, hex, &e), TK_ENOTFOUND, "missing file");
  CU_ASSERT_STRING_EQUAL(hex, "");
  if (!strstr(e.msg, path) || !strstr(e.msg, "No such file")) TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_sha256_file(dir, hex, &e), TK_EINVAL, "folder");
  if (!strstr(e.msg, dir) || !strstr(e.msg, "is a folder")) TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_sha256_file("/dev/zero", hex, &e), TK_EINVAL, "/dev/zero");
  if (!strstr(e.msg, "/dev/zero: is a character device")) TK_FAILF("message: %s", e.msg);
  snprintf(path, sizeof path, "%s/abc", dir);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"nist_vectors", test_nist_vectors},
      {"padding_boundaries", test_padding_boundaries},
      {"chunking", test_chunking},
      {"file", test_file},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("sha256", tests);
}
