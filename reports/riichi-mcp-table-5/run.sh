#!/bin/sh
# Regenerates reports/riichi-mcp-table-5.md: paper 000's table 5 and figures 3-5 (MCP and BCP,
# section 5), from nothing but the build. Run from the repository's root:
#
#   sh reports/riichi-mcp-table-5/run.sh
#
# Every step is deterministic (the same bytes for any -j) and skipped or resumed when its output
# is already there, so the command can be stopped and run again. Costs on this project's 2-core
# machine with JOBS=2 are in the report. Settings (environment):
#   BUILD  build folder (build)            WORK   records and weights (runs/riichi-mcp)
#   JOBS   worker processes (2)            NT, NP examples with tsumogiri / policy opponents
#   HANDS  hands of table 5 (10000)        CURVE  hands of each learning-curve point (2000)
# The record files (about 225 bytes an example) and the weights stay in WORK; the evaluations'
# JSON and the trainers' logs are written under reports/riichi-mcp-table-5/.
set -eu
B=${BUILD:-build}
W=${WORK:-runs/riichi-mcp}
J=${JOBS:-2}
NT=${NT:-2224000}
NP=${NP:-1112000}
HANDS=${HANDS:-10000}
CURVE=${CURVE:-2000}
# Snapshots along the learning curve (training examples; 10 % of the hands are held out, so
# NT = 2,224,000 examples give 2.0e6 training examples and NP = 1,112,000 give 1.0e6).
SNAPS_T=10000,30000,100000,300000,1000000
SNAPS_P=10000,30000,100000,300000
R=reports/riichi-mcp-table-5
mkdir -p "$W" "$R/train" "$R/eval"

echo "== records (seed 1; 10 % of the hands are held out by the trainer)"
"$B/riichi_mcp_records" --out "$W/tsumogiri.bin" -n "$NT" --seed 1 --opponents tsumogiri -j "$J"
"$B/riichi_mcp_records" --out "$W/policy.bin" -n "$NP" --seed 1 --opponents policy -j "$J"

# train NAME RECORDS MODEL SNAPSHOTS: FOBOS-AdaGrad, eta0 0.01 (docs/riichi-mcp.md, "eta0 at
# 10^6 examples": the best of 0.003 .. 0.1 by log loss and by success), one pass.
train() {
  if [ -s "$W/$1.tkw" ] && [ -s "$R/train/$1.log" ]; then return 0; fi
  echo "== train $1"
  "$B/riichi_mcp_train" "$W/$2" --model "$3" --eta 0.01 --out "$W/$1.tkw" \
      --snapshots "$4" > "$R/train/$1.log.tmp"
  mv "$R/train/$1.log.tmp" "$R/train/$1.log"
}
train mcp-vs-tsumogiri tsumogiri.bin mcp "$SNAPS_T"
train mcp policy.bin mcp "$SNAPS_P"
train bcp policy.bin bcp "$SNAPS_P"

# evaluate OUT HANDS OPPONENTS MODEL-FLAGS...: the policy and target mode h = 1..4 on the same
# hands (seed 1001, not the records' seed), with --compare's play statistics.
evaluate() {
  out=$1 n=$2 opp=$3
  shift 3
  if [ -s "$R/eval/$out.json" ]; then return 0; fi
  echo "== evaluate $out"
  "$B/riichi_mcp_eval" -n "$n" --seed 1001 --opponents "$opp" "$@" --compare -j "$J" \
      --out "$R/eval/$out.json.tmp" > "$R/eval/$out.txt"
  mv "$R/eval/$out.json.tmp" "$R/eval/$out.json"
}
evaluate table-5-tsumogiri "$HANDS" tsumogiri --mcp "$W/mcp-vs-tsumogiri.tkw"
evaluate table-5-policy "$HANDS" policy --mcp "$W/mcp.tkw" --bcp "$W/bcp.tkw"
for s in $(echo "$SNAPS_T" | tr , ' '); do
  evaluate "curve-tsumogiri-$s" "$CURVE" tsumogiri --mcp "$W/mcp-vs-tsumogiri.tkw.$s"
done
for s in $(echo "$SNAPS_P" | tr , ' '); do
  evaluate "curve-policy-$s" "$CURVE" policy --mcp "$W/mcp.tkw.$s" --bcp "$W/bcp.tkw.$s"
done

echo "== report"
python3 "$R/report.py" "$R" > reports/riichi-mcp-table-5.md.tmp
mv reports/riichi-mcp-table-5.md.tmp reports/riichi-mcp-table-5.md
sha256sum "$W"/*.tkw
echo "wrote reports/riichi-mcp-table-5.md"
