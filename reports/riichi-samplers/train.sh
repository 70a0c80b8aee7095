#!/bin/sh
# Retrains the learned samplers' shipped weights (docs/riichi-samplers.md, "Shipped weights") from
# nothing but the build and ../shared/data, and says whether each is the same bytes as the shipped
# file. Run from the repository's root:
#
#   sh reports/riichi-samplers/train.sh
#
# Data: taikai's own games (the self-play and teacher corpora of reports/riichi-table-6-7/run.sh:
# 2,000 games of four one-player policies and 160 games of riichi_mc, played here when absent:
# about 40 CPU minutes) and the real Tenhou records (imported when absent). Every model holds out
# the games g % 10 == 9 of its inputs in the order read. Cost: about 21 minutes of one core
# (diffusion 8, direct 5, autoregressive 3, the Tenhou models 3 and 1), OpenBLAS on one thread.
# The trainer uses OpenBLAS when the build found it: on another CPU its kernels may round
# differently, and the weights then differ in their last bits (the sampler, on GSL's CBLAS, gives
# the same samples from the same weights everywhere).
# Settings (environment): BUILD (build), OUT (runs/riichi-samplers-train), JOBS (2).
set -eu
B=${BUILD:-build}
O=${OUT:-runs/riichi-samplers-train}
J=${JOBS:-2}
SP=runs/riichi-table-6-7/self-play
TE=runs/riichi-table-6-7/teacher
HU=runs/riichi-human/tenhou
mkdir -p "$O"
[ -s "$SP/summary.json" ] ||
  "$B/taikai" run arenas/riichi/penalty-self-play.json -j "$J" --logs=run,gz --quiet --no-html --out "$SP"
[ -s "$TE/summary.json" ] ||
  "$B/taikai" run arenas/riichi/penalty-teacher.json -j "$J" --logs=run,gz --quiet --no-html --out "$TE"
[ -d "$HU" ] || { mkdir -p "$(dirname "$HU")"; "$B/taikai" import tenhou ../shared/data/tenhou-mjlog --out "$HU" > /dev/null; }
export OPENBLAS_NUM_THREADS=1

# train FILE ARGS...: trains into $O/FILE (log $O/FILE.log) and compares it with the shipped one
train() {
  f=$1
  shift
  [ -s "$O/$f" ] || "$B/riichi_diffusion_train" "$@" --out "$O/$f" > "$O/$f.log"
  if cmp -s "$O/$f" "plugins/riichi_sampler/$f"; then
    echo "$f: the same bytes as the shipped file"
  else
    echo "$f: DIFFERS from plugins/riichi_sampler/$f"
  fi
}
train riichi_diffusion.tkw "$SP" "$TE" --layers 4 --hidden 192 --every 1 --epochs 12 --seed 1
train riichi_diffusion_human.tkw "$HU" --layers 4 --hidden 192 --every 1 --epochs 20 --holdout 10 \
  --seed 1 --skip-bad-games
train riichi_direct.tkw "$SP" "$TE" --model direct --layers 3 --hidden 192 --every 1 --epochs 8 --seed 1
train riichi_direct_human.tkw "$HU" --model direct --layers 3 --hidden 192 --every 1 --epochs 4 \
  --holdout 10 --seed 1 --skip-bad-games
train riichi_autoregressive.tkw "$SP" "$TE" --model autoregressive --layers 3 --hidden 192 --every 1 \
  --epochs 8 --seed 1
