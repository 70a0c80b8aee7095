#!/bin/sh
# tests/agents/test_solo_opt.sh — solo_opt end to end through `taikai run`: the direct mode and
# the detour mode (one detour) on the same 6 walls; every game played to its end without a fault;
# the detour agent's discards its own (they differ from the direct agent's somewhere: its values
# differ at nearly every early decision); the games the same bytes with 1 and 2 workers; bad
# parameters refused, the parameter named.
#   test_solo_opt.sh TAIKAI PLUGIN_DIR WORK_DIR
set -eu
taikai=$1 plugins=$2 work=$3
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
export TAIKAI_PLUGIN_PATH="$plugins"
cat >"$work/spec.json" <<SPEC
{"game": "solo", "seed": 20150101, "walls": 6, "format": "field",
 "agents": [{"plugin": "solo_opt", "label": "direct", "params": {"mode": "direct"}},
            {"plugin": "solo_opt", "label": "detour", "params": {"mode": "detour", "detours": 1, "max_states": 400000}}],
 "rules": {"draws": 18, "dora": true}}
SPEC
"$taikai" run "$work/spec.json" -j 1 --quiet --out "$work/one" >"$work/one.txt" 2>&1 || fail "run -j 1: $(cat "$work/one.txt")"
"$taikai" run "$work/spec.json" -j 2 --quiet --out "$work/two" >"$work/two.txt" 2>&1 || fail "run -j 2: $(cat "$work/two.txt")"
cmp -s "$work/one/games.jsonl" "$work/two/games.jsonl" || fail "1 and 2 workers played different games"
n=$(wc -l <"$work/one/games.jsonl")
[ "$n" -eq 12 ] || fail "$n games, expected 12 (6 walls, 2 agents)"
grep -q '"fault"' "$work/one/games.jsonl" && fail "a game ended in a fault: $(grep '"fault"' "$work/one/games.jsonl" | head -1)"
# the two agents' discards on the same walls
direct=$(grep '"direct"' "$work/one/games.jsonl" | sed 's/.*"discards"//' | cut -c1-400 | sort | md5sum)
detour=$(grep '"detour"' "$work/one/games.jsonl" | sed 's/.*"discards"//' | cut -c1-400 | sort | md5sum)
[ "$direct" != "$detour" ] || fail "the detour agent played the direct agent's games"
# bad parameters
bad() {
  cat >"$work/bad.json" <<SPEC
{"game": "solo", "seed": 1, "walls": 1, "agents": [{"plugin": "solo_opt", "params": $1}]}
SPEC
  if "$taikai" run "$work/bad.json" --quiet --out "$work/bad" >"$work/bad.txt" 2>&1; then
    fail "params $1 were accepted"
  fi
  grep -q "$2" "$work/bad.txt" || fail "params $1: the message does not name $2: $(cat "$work/bad.txt")"
  rm -rf "$work/bad"
}
bad '{"mode": "detour", "detours": -1}' 'detours -1 is not'
bad '{"mode": "detour", "detours": 50}' detours
bad '{"mode": "sideways"}' mode
echo "solo_opt: direct and detour games played, identical with 1 and 2 workers, bad params refused"
