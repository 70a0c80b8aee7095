#!/bin/sh
# Every weights file shipped beside a plugin (plugins/*/*.tkw) is documented: its full SHA-256
# is written in that plugin's README.md or in docs/*.md, beside the command that makes it. A
# file retrained or replaced without its documentation fails here, naming the file and hash.
#   sh tests/test_weights_documented.sh SOURCE_ROOT
set -u
ROOT=${1:?usage: test_weights_documented.sh SOURCE_ROOT}
n=0
bad=0
for f in "$ROOT"/plugins/*/*.tkw; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  h=$(sha256sum "$f" | cut -c1-64)
  d=$(dirname "$f")
  if ! cat "$d/README.md" "$ROOT"/docs/*.md 2> /dev/null | grep -q "$h"; then
    echo "test_weights_documented: ${f#"$ROOT"/}: its SHA-256 $h is written neither in" \
         "plugins/$(basename "$d")/README.md nor in docs/" >&2
    bad=$((bad + 1))
  fi
done
if [ "$n" -eq 0 ]; then
  echo "test_weights_documented: no weights files under $ROOT/plugins" >&2
  exit 1
fi
echo "test_weights_documented: $n weights files, $((n - bad)) documented"
[ "$bad" -eq 0 ]
