#!/usr/bin/env bash
# Runs kete's fuzz targets under AFL++ (cargo-afl), one after another:
#   bash fuzz/run.sh [SECONDS] [TARGET...]
# SECONDS per target (default 600); every target when none is named.
# Needs `cargo install cargo-afl` (its `cargo afl config --build` builds
# AFL++ once). Findings land in target/fuzz-out/<target>/default/crashes
# and hangs; each one found becomes a file of fuzz/regressions/<target>/,
# which tests/fuzz_targets.rs replays on every `cargo test`.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
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
for t in "${targets[@]}"; do
  out=../target/fuzz-out/$t
  # A second run goes on from the first one's queue.
  input=corpus/$t
  [ -d "$out/default/queue" ] && input=-
  # 4 GiB of address space: a reader that trusts a size it reads fails
  # here instead of taking the machine's memory.
  cargo afl fuzz -i "$input" -o "$out" -V "$seconds" -t 2000 -m 4096 -- "$bin" "$t" >"$out.log" 2>&1 || true
  stats=$out/default/fuzzer_stats
  printf '%-12s %s\n' "$t" "$(awk -F' *: ' '/^(run_time|execs_done|corpus_count|saved_crashes|saved_hangs) /{printf "%s=%s ", $1, $2}' "$stats")"
done
