/* arenas/common/file.c — the only way taikai opens a file it reads or hashes (taikai/file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "taikai/file.h"

static const char *kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

static int judge(const char *path, const struct stat *st, uint64_t max_bytes, tk_error *err) {
  if (!max_bytes) max_bytes = TK_FILE_MAX_BYTES;
  if (!S_ISREG(st->st_mode))
    return tk_error_set(err, TK_EINVAL, -1, "%s: is %s, not a regular file; taikai reads only "
                        "regular files", path, kind_of(st->st_mode));
  if ((uint64_t)st->st_size > max_bytes)
    return tk_error_set(err, TK_EINVAL, -1, "%s: is %llu bytes, more than the %llu this file "
                        "may have", path, (unsigned long long)st->st_size,
                        (unsigned long long)max_bytes);
  return 0;
}

static int open_failed(const char *path, int e, tk_error *err) {
  return tk_error_set(err, e == ENOENT ? TK_ENOTFOUND : TK_EIO, -1, "%s: cannot open: %s", path,
                      strerror(e));
}

int tk_file_check(const char *path, uint64_t max_bytes, tk_error *err) {
  struct stat st;
  if (stat(path, &st)) return open_failed(path, errno, err);
  return judge(path, &st, max_bytes, err);
}

int tk_file_open(const char *path, uint64_t max_bytes, uint64_t *size, tk_error *err) {
  /* O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return open_failed(path, errno, err);
  struct stat st;
  int rc;
  if (fstat(fd, &st)) rc = tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
  else rc = judge(path, &st, max_bytes, err);
  if (!rc) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
      rc = tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
  }
  if (rc) {
    close(fd);
    return rc;
  }
  if (size) *size = (uint64_t)st.st_size;
  return fd;
}

int tk_file_fopen(const char *path, const char *mode, uint64_t max_bytes, FILE **out,
                  tk_error *err) {
  *out = NULL;
  int fd = tk_file_open(path, max_bytes, NULL, err);
  if (fd < 0) return fd;
  if (!(*out = fdopen(fd, mode))) {
    int e = errno;
    close(fd);
    return tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(e));
  }
  return 0;
}
