#!/bin/sh
# Regenerates reports/daifugo-search.md's figures: the learned exchange policy's
# weights (retrained and compared with the shipped file), the speed of a decision, and the
# duplicate tournaments of daifugo_search against daifugo_mcl (the default and each ablation)
# and against daifugo_mc, the opponent model's fit to the field's recorded plays, then the
# ablation table. Run from the repository's root:
#
#   sh reports/daifugo-search/run.sh
#
# Every step is deterministic and skipped when its output is there (remove an output to redo
# it). Settings (environment):
#   BUILD  build folder (build)     JOBS  worker processes (2)
#   EXCHANGE_POSITIONS  the exchange teacher's positions (7000: about 750 CPU s)
# The champion's client is not part of this script: reports/daifugo-search/external/play.sh.
set -eu
B=${BUILD:-build}
J=${JOBS:-2}
N=${EXCHANGE_POSITIONS:-7000}
R=reports/daifugo-search
W=runs/daifugo-search
mkdir -p "$R" "$W"

echo "== the learned exchange policy"
[ -s "$W/exchange-positions.txt" ] ||
  "$B/daifugo_search_exchange_train" generate --out "$W/exchange-positions.txt" --positions "$N" --seed 1
[ -s "$W/exchange.tkw" ] ||
  "$B/daifugo_search_exchange_train" train --in "$W/exchange-positions.txt" --seed 1 \
      --out "$W/exchange.tkw" > "$R/exchange-train.txt"
[ -s "$R/exchange-eval.txt" ] ||
  "$B/daifugo_search_exchange_train" eval --in "$W/exchange-positions.txt" \
      --weights "$W/exchange.tkw" > "$R/exchange-eval.txt"
if cmp -s "$W/exchange.tkw" plugins/daifugo_search/daifugo_search_exchange.tkw; then
  echo "   the same bytes as plugins/daifugo_search/daifugo_search_exchange.tkw"
else
  echo "   DIFFERS from plugins/daifugo_search/daifugo_search_exchange.tkw"
fi

echo "== speed (CPU ms a decision, one core)"
[ -s "$R/bench.txt" ] || "$B/taikai" bench daifugo-mc > "$R/bench.txt"
[ -s "$R/bench-5000.txt" ] || "$B/taikai" bench daifugo-mc --playouts 5000 --worlds 0 > "$R/bench-5000.txt"

RUNS=
# (the runs of version 0.1.0 in v0.1.0/ are not replayed: the report says which commit does)
for s in search-vs-mcl search-estimation-vs-mcl search-estimation-playout-finish-vs-mcl \
         search-vs-mc search-estimation-vs-mc search-estimation-beta-0.3-vs-mc search-ap-mc-vs-mc \
         search-ap-mc-vs-mcl search-5000-vs-mcl; do
  if [ ! -s "$R/$s/summary.json" ]; then
    echo "== tournament $s"
    "$B/taikai" run "arenas/daifugo/$s.json" -j "$J" --quiet --no-html --out "$R/$s" > /dev/null
    gzip -n -f "$R/$s/games.jsonl"
  fi
  RUNS="$RUNS $R/$s"
done

echo "== the opponent model against the field's recorded plays"
if [ ! -s "$R/model-fit.txt" ]; then
  [ -s "$W/model-fit-records/records.tkr" ] ||
    "$B/taikai" run arenas/daifugo/search-model-fit-records.json -j "$J" --records --quiet \
        --no-html --out "$W/model-fit-records" > /dev/null
  "$B/daifugo_search_model_fit" --agent mcl "$W/model-fit-records/records.tkr" > "$R/model-fit.txt"
fi
cat "$R/model-fit.txt"

echo "== the ablation table"
# shellcheck disable=SC2086 # the run folders, one word each
python3 "$R/ablation.py" $RUNS > "$R/ablation.md"
cat "$R/ablation.md"
echo "done: $R/"
