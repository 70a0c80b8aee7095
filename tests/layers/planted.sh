#!/usr/bin/env bash
# tests/layers/planted.sh — check_layers.sh must refuse an upward include: on a copy of the
# sources, each planted include below (a file of a lower layer naming a header of a higher one)
# must make it exit 1 and name the file and the header; the unplanted copy must pass.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$repo/include" "$repo/arenas" "$repo/plugins" "$repo/harness" "$tmp/"
bash "$here/check_layers.sh" "$tmp" > /dev/null || { echo "the unplanted copy fails"; exit 1; }
fail=0
plant() { # FILE HEADER: FILE of a lower layer includes HEADER of a higher one
  cp "$tmp/$1" "$tmp/$1.orig"
  printf '#include "%s"\n' "$2" >> "$tmp/$1"
  if out=$(bash "$here/check_layers.sh" "$tmp" 2>&1); then
    echo "not refused: $1 including $2"
    fail=1
  elif ! grep -q "^$1:[0-9]*: includes \"$2\"" <<< "$out"; then
    echo "refused without naming $1 and $2: $out"
    fail=1
  fi
  mv "$tmp/$1.orig" "$tmp/$1"
}
plant harness/core/game.c html.h               # core -> report
plant harness/core/loop.h summary.h            # core -> stats, in a header
plant harness/stats/tally.c runargs.h          # stats -> run
plant harness/records/logtext.c spec.h         # data -> core
plant harness/games/riichi/riichi.c import.h   # a game's adapter -> its tools
plant harness/games/riichi/riichi_log.c game.h # a game's log reader -> core
plant plugins/greedy/greedy.c loop.h           # a plugin -> the referee
plant arenas/solo/solo.c logtext.h             # an engine -> data
plant harness/run/mpi.c commands.h             # run -> cmd
[ $fail -eq 0 ] && echo "planted.sh: every planted upward include refused"
exit $fail
