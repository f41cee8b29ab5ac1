#!/usr/bin/env bash
# Splits a solve into jobs here (it takes a moment), then submits them as a
# Slurm job array and a combine job that runs when every job has finished.
# Change the settings below, or give them in the environment.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# ---- settings ---------------------------------------------------------
KETE=${KETE:-$here/../../target/release/kete}
# The position to solve, as kete solve's options (variant, its options, --fen).
SOLVE_ARGS=${SOLVE_ARGS:-"--variant kalah --pits 6 --seeds 4"}
# Moves from the root to the jobs: more plies, more and smaller jobs.
SPLIT=${SPLIT:-2}
# The jobs folder (jobs.json, results/, value.txt), on a path every node sees.
JOBS=${JOBS:-$PWD/kete-solve-jobs}
# Options for each job's solve, e.g. "--egtb /shared/kalah-6-16.db --hash 1024".
JOB_ARGS=${JOB_ARGS:-}
SBATCH_ARGS=${SBATCH_ARGS:-}
# WAIT=1: wait for the combine job to finish (for scripts and CI).
WAIT=${WAIT:-0}
# Most tasks in one job array: Slurm refuses array indices from its
# MaxArraySize on (1001 by default), so more jobs go in several arrays.
ARRAY_MAX=${ARRAY_MAX:-1000}
# -----------------------------------------------------------------------

export KETE JOBS JOB_ARGS
eval "set -- $SOLVE_ARGS"
n=$("$KETE" solve "$@" --split "$SPLIT" --jobs "$JOBS" | awk '/^jobs / {print $2}')
if [ -z "$n" ] || [ "$n" -lt 1 ]; then
  echo "submit-solve: the split made no jobs (the game ends sooner): solve it directly" >&2
  exit 1
fi
mkdir -p "$JOBS/logs"
# Arrays of at most ARRAY_MAX tasks; task t of the array from OFFSET solves
# job OFFSET + t.
arrays=()
for ((offset = 0; offset < n; offset += ARRAY_MAX)); do
  count=$((n - offset < ARRAY_MAX ? n - offset : ARRAY_MAX))
  # shellcheck disable=SC2086
  id=$(cd "$JOBS/logs" && sbatch --parsable --export=ALL,OFFSET=$offset $SBATCH_ARGS \
    --array="0-$((count - 1))" "$here/solve-job.sbatch")
  id=${id%%;*}
  arrays+=("$id")
  echo "submitted: jobs $offset-$((offset + count - 1)) as job $id (array 0-$((count - 1)))"
done
array=$(IFS=:; echo "${arrays[*]}")
wait_flag=()
if [ "$WAIT" = 1 ]; then wait_flag=(--wait); fi
# shellcheck disable=SC2086
combine=$(cd "$JOBS/logs" && sbatch --parsable --export=ALL $SBATCH_ARGS "${wait_flag[@]}" \
  --kill-on-invalid-dep=yes --dependency="afterok:$array" "$here/solve-combine.sbatch")
echo "submitted: combine job ${combine%%;*} (after $array)"
echo "result: $JOBS/value.txt"
