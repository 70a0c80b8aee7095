#!/bin/sh
# harness/scripts/slurm-shards.sh — a taikai tournament as a Slurm job array of N shards and a
# job that merges them (docs/cluster.md).
#
#   harness/scripts/slurm-shards.sh SPEC N OUT [taikai run options...]
#
# submits, with sbatch:
#   - an array job of N tasks: task K runs `taikai run SPEC --shard K/N --out OUT.shards/K-of-N
#     -j <its CPUs> --quiet [options]` (K counts from 1 whatever the array's first index);
#   - a job that starts once every task succeeded (--dependency=afterok) and runs `taikai merge
#     OUT.shards/*-of-N --out OUT`: OUT is then what `taikai run SPEC --out OUT` writes.
# Submitting the same command again after a failure resumes: each shard folder continues, a
# finished shard is left as it is (OUT must not exist yet for the merge).
#
# Environment: TAIKAI (the taikai executable; default: `taikai` on PATH, resolved at submission),
# TAIKAI_SBATCH_OPTS (more sbatch options for both jobs, e.g. "--partition=cpu --time=2:00:00");
# sbatch's own SBATCH_* variables apply as usual. Inside the jobs the script is called again by
# Slurm: with SLURM_ARRAY_TASK_ID set it plays one shard; with --merge first it merges.
set -eu

usage() {
  echo "usage: $0 SPEC N OUT [taikai run options...]   (docs/cluster.md)" >&2
  exit 2
}

if [ "${1:-}" = "--merge" ]; then
  [ $# -eq 4 ] || usage
  spec=$2 n=$3 out=$4
  # only this array's shards: folders of another N would overlap
  exec "${TAIKAI:-taikai}" merge "$out.shards"/*-of-"$n" --out "$out" --quiet
fi

[ $# -ge 3 ] || usage
spec=$1 n=$2 out=$3
shift 3
case $n in '' | *[!0-9]*) echo "$0: N must be a number of shards, got '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "$0: N must be at least 1" >&2; exit 2; }

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # one task of the array: shard K of N
  k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
  if [ -n "${SLURM_ARRAY_TASK_COUNT:-}" ] && [ "$SLURM_ARRAY_TASK_COUNT" -ne "$n" ]; then
    echo "$0: the array has $SLURM_ARRAY_TASK_COUNT tasks, not N = $n" >&2
    exit 2
  fi
  mkdir -p "$out.shards"
  exec "${TAIKAI:-taikai}" run "$spec" --shard "$k/$n" --out "$out.shards/$k-of-$n" \
    -j "${SLURM_CPUS_PER_TASK:-1}" --quiet "$@"
fi

# submission: the array, then the merge once every task succeeded
taikai=${TAIKAI:-$(command -v taikai || true)}
[ -n "$taikai" ] || { echo "$0: no taikai on PATH: set TAIKAI to the executable" >&2; exit 2; }
case $taikai in /*) ;; *) taikai=$(cd "$(dirname "$taikai")" && pwd)/$(basename "$taikai") ;; esac
export TAIKAI="$taikai"
# shellcheck disable=SC2086 # TAIKAI_SBATCH_OPTS is a list of options
array=$(sbatch --parsable --array="1-$n" --job-name=taikai-shards ${TAIKAI_SBATCH_OPTS:-} \
  "$0" "$spec" "$n" "$out" "$@")
array=${array%%;*} # "jobid;cluster" on a federation
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=taikai-merge \
  ${TAIKAI_SBATCH_OPTS:-} "$0" --merge "$spec" "$n" "$out")
echo "submitted: shards job $array (array 1-$n), merge job ${merge%%;*} -> $out"
