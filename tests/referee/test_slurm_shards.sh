#!/bin/sh
# tests/referee/test_slurm_shards.sh — harness/scripts/slurm-shards.sh end to end without Slurm:
# a fake sbatch records the two submissions (the array of 3 tasks, the merge after it); the
# tasks are then run as Slurm would run them (SLURM_ARRAY_TASK_ID 4 to 6 of an array starting
# at 4, one task with 2 CPUs), then the merge job; the merged folder must hold the bytes of a
# single `taikai run` of the spec. Also: a task of an array whose size is not N is refused.
#   test_slurm_shards.sh TAIKAI PLUGIN_DIR SCRIPT WORK_DIR
set -eu
taikai=$1 plugins=$2 script=$3 work=$4
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work/bin"
export TAIKAI_PLUGIN_PATH="$plugins"
export FAKE_SBATCH_LOG="$work/sbatch.log"
cat >"$work/bin/sbatch" <<'FAKE'
#!/bin/sh
# records each call, one argument a line and "--" after it, and answers a job id (101, 102, ...)
n=$(($(cat "$FAKE_SBATCH_LOG.count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_SBATCH_LOG.count"
for a in "$@"; do echo "$a"; done >>"$FAKE_SBATCH_LOG"
echo "--" >>"$FAKE_SBATCH_LOG"
echo "10$n"
FAKE
chmod +x "$work/bin/sbatch"
cat >"$work/spec.json" <<SPEC
{"game": "solo", "seed": 9, "walls": 20, "agents": [{"plugin": "greedy"}, {"plugin": "tsumogiri"}],
 "output": "$work/whole"}
SPEC
"$taikai" run "$work/spec.json" --quiet >/dev/null || fail "the whole run"

# submission
out="$work/merged"
PATH="$work/bin:$PATH" TAIKAI="$taikai" sh "$script" "$work/spec.json" 3 "$out" >"$work/submit.txt" ||
  fail "submission"
grep -q "shards job 101 (array 1-3), merge job 102" "$work/submit.txt" || fail "submit output: $(cat "$work/submit.txt")"
first=$(sed -n '1,/^--$/p' "$FAKE_SBATCH_LOG")
second=$(sed -n '/^--$/,$p' "$FAKE_SBATCH_LOG" | sed 1d)
echo "$first" | grep -qx -- "--array=1-3" || fail "no --array=1-3 in: $first"
echo "$first" | grep -qx -- "$work/spec.json" || fail "the spec not passed to the array: $first"
echo "$second" | grep -qx -- "--dependency=afterok:101" || fail "the merge does not wait: $second"
echo "$second" | grep -qx -- "--merge" || fail "the merge job is not --merge: $second"

# the array's tasks, as Slurm runs them (ids 4-6: K counts from the array's first index)
for id in 4 5 6; do
  cpus=1
  [ "$id" = 5 ] && cpus=2
  SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=$cpus \
    TAIKAI="$taikai" sh "$script" "$work/spec.json" 3 "$out" >/dev/null || fail "task $id"
done
[ -f "$out.shards/2-of-3/summary.json" ] || fail "no shard folder $out.shards/2-of-3"
grep -q '"index": 2' "$out.shards/2-of-3/spec.json" || fail "task 5 did not play shard 2"
if SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4 TAIKAI="$taikai" \
  sh "$script" "$work/spec.json" 3 "$out" 2>"$work/bad.txt"; then
  fail "an array of 4 tasks for 3 shards was accepted"
fi
grep -q "the array has 4 tasks, not N = 3" "$work/bad.txt" || fail "message: $(cat "$work/bad.txt")"

# the merge job
TAIKAI="$taikai" sh "$script" --merge "$work/spec.json" 3 "$out" >/dev/null || fail "merge"
for f in games.jsonl summary.json report.md; do
  cmp "$work/whole/$f" "$out/$f" || fail "$f differs from the whole run's"
done
echo "slurm-shards.sh: 3 tasks and the merge give the whole run's bytes"
