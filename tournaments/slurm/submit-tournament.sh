#!/usr/bin/env bash
# Submits a tournament as a Slurm job array of shards and a merge job that
# runs when every shard has finished. Change the settings below, or give them
# in the environment (SHARDS=16 ./submit-tournament.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# ---- settings ---------------------------------------------------------
# How many shards (array tasks); each plays the game pairs K-1, K-1+N, ….
SHARDS=${SHARDS:-4}
# The binaries, on a path every node sees.
KETE=${KETE:-$here/../../target/release/kete}
KETE_ARENA=${KETE_ARENA:-$here/../../target/release/kete-arena}
# Output: OUT/shard-K for each shard, OUT/merged for the whole tournament.
OUT=${OUT:-$PWD/kete-tournament}
# The tournament, as kete-arena's options (without --shard, --out and
# --concurrency, which the shard script sets).
ARENA_ARGS=${ARENA_ARGS:-"--variant kalah --engine cmd=$KETE name=d3 depth=3 --engine cmd=$KETE name=d2 depth=2 --games 2 --rounds 8 --openings random plies=2 seed=1"}
# Extra sbatch options for every job (partition, account, time limit, …).
SBATCH_ARGS=${SBATCH_ARGS:-}
# WAIT=1: wait for the merge job to finish (for scripts and CI).
WAIT=${WAIT:-0}
# -----------------------------------------------------------------------

export KETE_ARENA OUT ARENA_ARGS
mkdir -p "$OUT"
# shellcheck disable=SC2086
array=$(cd "$OUT" && sbatch --parsable --export=ALL $SBATCH_ARGS \
  --array="1-$SHARDS" "$here/tournament-shard.sbatch")
array=${array%%;*}
wait_flag=()
if [ "$WAIT" = 1 ]; then wait_flag=(--wait); fi
echo "submitted: shards job $array (array 1-$SHARDS)"
# shellcheck disable=SC2086
merge=$(cd "$OUT" && sbatch --parsable --export=ALL $SBATCH_ARGS "${wait_flag[@]}" \
  --kill-on-invalid-dep=yes --dependency="afterok:$array" "$here/tournament-merge.sbatch")
echo "submitted: merge job ${merge%%;*} (after $array)"
echo "results: $OUT/merged/report.md"
