#!/usr/bin/env bash
# tests/layers/check_layers.sh [ROOT] — every #include "..." of the sources under ROOT (default:
# the repository) goes down the layers, never up. Layers, lowest first (harness/CMakeLists.txt):
#   0 public   include/taikai/*.h and the engines, arenas/
#   1 data     harness/records/, a game's log reader (harness/games/G/*_log.[ch], the sources
#              its CMakeLists.txt adds to taikai_data), and the plugins (plugins/: agents and
#              trainers may use the data library, never the referee)
#   2 core     harness/core/, a game's adapter (tk_game_adapters) and its G_cmd.h (declarations
#              its table names)
#   3 stats    harness/stats/
#   4 report   harness/report/
#   5 run      harness/run/, a game's tools (tk_game_tools) and their headers
#   6 cmd      harness/cmd/
# A header is found the way the build finds it: beside the including file, then by its name in
# the folders above (a plugin's own "folder/x.h" under plugins/). Prints each upward include as
# FILE:LINE: includes HEADER (layer of HEADER above layer of FILE) and exits 1 (a path such as
# "../x/y.h" is judged by the file it names). Exit 0: none.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
names=(public data core stats report run cmd)

declare -A hdr=()   # header name -> layer
declare -A src=()   # game source -> layer (from its CMakeLists.txt)
for h in include/taikai/*.h; do hdr["taikai/${h##*/}"]=0; done
for h in harness/records/*.h; do [ -e "$h" ] && hdr["${h##*/}"]=1; done
i=2
for d in core stats report run cmd; do
  for h in harness/$d/*.h; do [ -e "$h" ] && hdr["${h##*/}"]=$i; done
  i=$((i + 1))
done
for g in harness/games/*/; do
  for h in "$g"*.h; do
    [ -e "$h" ] || continue
    case ${h##*/} in
      *_log.h) hdr["${h##*/}"]=1 ;;
      *_cmd.h) hdr["${h##*/}"]=2 ;;
      *) hdr["${h##*/}"]=5 ;;
    esac
  done
  # the sources of each target named in the game's CMakeLists.txt
  if [ -f "$g/CMakeLists.txt" ]; then
    while read -r target files; do
      case $target in
        taikai_data) l=1 ;; tk_game_adapters) l=2 ;; tk_game_tools) l=5 ;; *) continue ;;
      esac
      for f in $files; do src["$g$f"]=$l; done
    done < <(tr '\n' ' ' < "$g/CMakeLists.txt" | grep -o 'target_sources([a-z_]* PRIVATE [^)]*)' |
             sed 's/target_sources(\([a-z_]*\) PRIVATE \([^)]*\))/\1 \2/')
  fi
done

layer_of_file() { # the layer of source or header $1, or -1 when it is not under a layer
  local f=$1
  case $f in
    include/*|arenas/*) echo 0 ;;
    plugins/*|harness/records/*) echo 1 ;;
    harness/core/*) echo 2 ;; harness/stats/*) echo 3 ;; harness/report/*) echo 4 ;;
    harness/run/*) echo 5 ;; harness/cmd/*) echo 6 ;;
    harness/games/*)
      if [ -n "${src[$f]:-}" ]; then echo "${src[$f]}"
      elif [ -n "${hdr[${f##*/}]:-}" ] && [[ $f == *.h ]]; then echo "${hdr[${f##*/}]}"
      else echo 5; fi ;;
    *) echo -1 ;;
  esac
}

bad=0
while IFS= read -r f; do
  fl=$(layer_of_file "$f")
  [ "$fl" -ge 0 ] || continue
  while IFS=: read -r line inc; do
    inc=${inc#*\"}
    inc=${inc%%\"*}
    dir=$(dirname "$f")
    if [ -e "$dir/$inc" ]; then
      hl=$(layer_of_file "$(realpath -m --relative-to=. "$dir/$inc")")
    elif [ -n "${hdr[$inc]:-}" ]; then
      hl=${hdr[$inc]}
    elif [ -e "plugins/$inc" ] || compgen -G "plugins/*/$inc" > /dev/null; then
      hl=1
    else
      continue # generated or outside the tree
    fi
    if [ "$hl" -gt "$fl" ]; then
      echo "$f:$line: includes \"$inc\" (layer ${names[$hl]} above layer ${names[$fl]})"
      bad=1
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true)
done < <(find include arenas plugins harness -name '*.[ch]' | sort)
if [ $bad -ne 0 ]; then
  echo "check_layers: upward includes (see harness/CMakeLists.txt for the layers)" >&2
  exit 1
fi
echo "check_layers: every include goes down the layers"
