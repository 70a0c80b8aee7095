#!/bin/sh
# Regenerates reports/riichi-human.md's figures: paper 002's network trained on the real Tenhou
# records of ../shared/data/tenhou-mjlog (the paper's configuration, balanced data, 30 hidden
# units, the improved configuration), the one-player policy trained on the same records, and the
# two tournaments. Run from the repository's root:
#
#   sh reports/riichi-human/run.sh
#
# Every step is deterministic and skipped when its output is there. Settings (environment):
#   BUILD  build folder (build)     JOBS  worker processes (2)
# Trained weights (other than the shipped plugins/riichi_nn002/riichi_nn002.tkw) go to
# runs/riichi-human/, where the tournament specs look for them; the trainers' output and the runs
# go to reports/riichi-human/.
set -eu
B=${BUILD:-build}
J=${JOBS:-2}
W=runs/riichi-human
R=reports/riichi-human
mkdir -p "$W" "$R"

[ -d "$W/tenhou" ] || "$B/taikai" import tenhou ../shared/data/tenhou-mjlog --out "$W/tenhou" > /dev/null

# nn002 NAME FLAGS...: paper 002's network, trained on every tenth game held out
nn002() {
  n=$1
  shift
  [ -s "$R/nn002-$n.txt" ] && [ -s "$W/nn002-$n.tkw" ] && return 0
  echo "== nn002 $n"
  "$B/riichi_nn002_train" "$W/tenhou" --skip-bad-games --out "$W/nn002-$n.tkw" "$@" > "$R/nn002-$n.txt"
}
nn002 paper
nn002 balanced-300 --balanced 300
nn002 balanced-800 --balanced 800
nn002 balanced-5000 --balanced 5000
nn002 hidden-30 --hidden 30
nn002 improved --improved
if cmp -s "$W/nn002-paper.tkw" plugins/riichi_nn002/riichi_nn002.tkw; then
  echo "   nn002 paper: the same bytes as the shipped weights"
else
  echo "   nn002 paper: DIFFERS from plugins/riichi_nn002/riichi_nn002.tkw"
fi

echo "== the one-player policy trained on people, and the default weights on people's decisions"
if [ ! -s "$W/oneplayer-human.tkw" ] || [ ! -s "$R/oneplayer-human.txt" ]; then
  "$B/riichi_oneplayer_train" "$W/tenhou" --skip-bad-games --out "$W/oneplayer-human.tkw" > "$R/oneplayer-human.txt"
fi
if cmp -s "$W/oneplayer-human.tkw" plugins/riichi_oneplayer/riichi_oneplayer_human.tkw; then
  echo "   oneplayer human: the same bytes as the shipped weights"
else
  echo "   oneplayer human: DIFFERS from plugins/riichi_oneplayer/riichi_oneplayer_human.tkw"
fi
[ -s "$R/oneplayer-default-on-people.txt" ] ||
  "$B/riichi_oneplayer_train" "$W/tenhou" --skip-bad-games \
      --evaluate plugins/riichi_oneplayer/riichi_oneplayer.tkw > "$R/oneplayer-default-on-people.txt"

for s in nn002-vs-greedy oneplayer-human-vs-oneplayer; do
  if [ ! -s "$R/$s/summary.json" ]; then
    echo "== tournament $s"
    "$B/taikai" run "arenas/riichi/$s.json" -j "$J" --quiet --no-html --out "$R/$s" > /dev/null
    gzip -n -f "$R/$s/games.jsonl"
  fi
done
echo "done: $R/"
