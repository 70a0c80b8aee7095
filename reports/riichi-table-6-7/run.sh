#!/bin/sh
# Regenerates reports/riichi-table-6-7.md's runs and tables: paper 000's tables 6-7 (each
# han-model opening x1 against the previous program x3) and table 10's case study, from nothing
# but the build and ../shared/data. Run from the repository's root:
#
#   sh reports/riichi-table-6-7/run.sh
#
# Every step is deterministic (the same bytes for any -j) and skipped when its output is
# already there, so the command can be stopped and run again. Settings (environment):
#   BUILD  build folder (build)          WORK  corpora, shards, the merged run (runs/riichi-table-6-7)
#   JOBS   worker processes (2)          SHARDS  shards of 40 played, 5 walls each (12: the report's)
# The tables-6-7 tournament is played as shards K/40 of arenas/riichi/table-6-7.json (200 walls),
# K = 1 .. SHARDS, then merged (--partial: the first SHARDS x 5 walls); costs are in the report.
set -eu
B=${BUILD:-build}
W=${WORK:-runs/riichi-table-6-7}
J=${JOBS:-2}
S=${SHARDS:-12}
R=reports/riichi-table-6-7
mkdir -p "$W"

echo "== penalty corpora and tables (plugins/riichi_score/README.md)"
[ -s "$W/self-play/summary.json" ] ||
  "$B/taikai" run arenas/riichi/penalty-self-play.json -j "$J" --logs=run,gz --quiet --no-html --out "$W/self-play"
[ -s "$W/teacher/summary.json" ] ||
  "$B/taikai" run arenas/riichi/penalty-teacher.json -j "$J" --logs=run,gz --quiet --no-html --out "$W/teacher"
[ -d "$W/human" ] || "$B/taikai" import tenhou ../shared/data/tenhou-mjlog --out "$W/human" > /dev/null
for t in self-play teacher human; do
  [ -s "$W/penalty-$t.tkw" ] || "$B/riichi_penalty_train" --out "$W/penalty-$t.tkw" "$W/$t" > "$R/penalty-$t.txt"
  if cmp -s "$W/penalty-$t.tkw" "plugins/riichi_score/riichi_penalty_$t.tkw"; then
    echo "   $t: the same bytes as the shipped table"
  else
    echo "   $t: DIFFERS from plugins/riichi_score/riichi_penalty_$t.tkw"
  fi
done

echo "== the MCP vs tsumogiri model (plugins/riichi_mcp/README.md)"
[ -s "$W/tsumogiri.bin" ] ||
  "$B/riichi_mcp_records" --out "$W/tsumogiri.bin" -n 334000 --seed 1 --opponents tsumogiri -j "$J"
[ -s "$W/mcp-vs-tsumogiri.tkw" ] ||
  "$B/riichi_mcp_train" "$W/tsumogiri.bin" --model mcp --eta 0.01 --out "$W/mcp-vs-tsumogiri.tkw" > "$W/mcp-vs-tsumogiri.log"
if cmp -s "$W/mcp-vs-tsumogiri.tkw" plugins/riichi_mcp/riichi_mcp_vs_tsumogiri.tkw; then
  echo "   the same bytes as the shipped model"
else
  echo "   DIFFERS from plugins/riichi_mcp/riichi_mcp_vs_tsumogiri.tkw"
fi

echo "== tables 6-7: shards 1..$S of 40"
k=1
while [ "$k" -le "$S" ]; do
  "$B/taikai" run arenas/riichi/table-6-7.json -j "$J" --shard "$k/40" --quiet --no-html \
      --out "$W/shard-$k" > /dev/null || "$B/taikai" run arenas/riichi/table-6-7.json -j "$J" \
      --shard "$k/40" --quiet --no-html --out "$W/shard-$k" --resume > /dev/null
  k=$((k + 1))
done
rm -rf "$R/run"
"$B/taikai" merge $(k=1; while [ "$k" -le "$S" ]; do printf '%s ' "$W/shard-$k"; k=$((k + 1)); done) \
    --partial --quiet --out "$R/run"
gzip -n -f "$R/run/games.jsonl"

echo "== table 10 on constructed positions, and the opening's time per decision"
"$B/riichi_mcp_bench" --table-10 > "$R/table-10.txt"
"$B/riichi_mcp_bench" --decisions 300 --plies 1 > "$R/decisions.txt"
"$B/riichi_mcp_bench" --decisions 30 --plies 3 > "$R/timing.txt"
"$B/riichi_mcp_bench" --decisions 6 --plies 4 >> "$R/timing.txt"
python3 "$R/tables.py" "$R/run/summary.json" > "$R/tables.md"
echo "done: $R/run/report.md, $R/tables.md, $R/table-10.txt, $R/decisions.txt, $R/timing.txt"
