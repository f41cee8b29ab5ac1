#!/usr/bin/env bash
# Runs kete's fuzz targets under AFL++ (cargo-afl), one after another:
#   bash fuzz/run.sh [CPU_SECONDS] [TARGET...]
# CPU_SECONDS per target (default 600) is processor time, not wall time:
# a target is stopped once AFL++ and the program it runs have used that
# much, so a busy machine makes a run longer, not smaller. Every target
# when none is named; run two scripts at once to use two cores.
# Needs `cargo install cargo-afl` (its `cargo afl config --build` builds
# AFL++ once). Findings land in target/fuzz-out/<target>/default/crashes
# and hangs; each one found becomes a file of fuzz/regressions/<target>/,
# which tests/fuzz_targets.rs replays on every `cargo test`.
set -euo pipefail
cd "$(dirname "$0")"
budget=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(position move_text protocol openings book records egtb_header settings web_api)
fi
export CARGO_TARGET_DIR=../target/fuzz-afl
cargo afl build --release --features afl
bin=$CARGO_TARGET_DIR/release/kete-fuzz
# No core dumps to wait for, no CPU governor to ask about: this runs on
# shared machines where neither can be set.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
ticks=$(getconf CLK_TCK)

# Process $1 and all its descendants (AFL++ starts the program it fuzzes in
# a session of its own, so the tree is followed by parent).
descendants() {
  ps -eo pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END { for (p in parent) { q = p; while (q in parent && q != root) q = parent[q]; if (q == root) print p } }'
}

# Processor seconds used so far by process $1's tree: each live process's
# own time plus what it has collected from children it reaped (fields 14-17
# of /proc/PID/stat), which counts every process once.
tree_cpu() {
  local total=0 pid stat rest
  for pid in $(descendants "$1"); do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    rest=${stat##*) }
    # shellcheck disable=SC2086
    set -- $rest
    total=$((total + ${12} + ${13} + ${14} + ${15}))
  done
  echo $((total / ticks))
}

for t in "${targets[@]}"; do
  out=../target/fuzz-out/$t
  # A second run goes on from the first one's queue.
  input=corpus/$t
  [ -d "$out/default/queue" ] && input=-
  # The program's own time report (GNU time, which waits for the whole
  # tree) gives the figure; the watcher below only decides when to stop.
  # 4 GiB of address space: a reader that trusts a size it reads fails
  # here instead of taking the machine's memory.
  /usr/bin/time -f '%U %S' -o "$out.cpu" \
    cargo afl fuzz -i "$input" -o "$out" -t 2000 -m 4096 -- "$bin" "$t" >"$out.log" 2>&1 &
  leader=$!
  while kill -0 "$leader" 2>/dev/null; do
    sleep 5
    if [ "$(tree_cpu "$leader")" -ge "$budget" ]; then
      # afl-fuzz saves its state and statistics on SIGINT.
      for pid in $(descendants "$leader"); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = afl-fuzz ] && kill -INT "$pid"
      done
      break
    fi
  done
  wait "$leader" || true
  cpu=$(awk '{printf "%.0f", $1 + $2}' "$out.cpu")
  stats=$out/default/fuzzer_stats
  # Every run's figures are kept: a target's CPU time is the sum of its runs.
  printf '%s %-12s cpu_time=%s %s\n' "$(date -u +%FT%TZ)" "$t" "$cpu" "$(awk -F' *: ' '/^(run_time|execs_done|corpus_count|saved_crashes|saved_hangs) /{printf "%s=%s ", $1, $2}' "$stats")" | tee -a ../target/fuzz-out/runs.log
done
