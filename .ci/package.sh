#!/usr/bin/env bash
# `cargo package` with verification (the packaged crate must build on its own,
# against crates.io), then the package's size, which must stay small: game
# records and other bulky data are kept out by Cargo.toml's `exclude`.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=$((3 * 1024 * 1024))
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
crate="target/package/kete-$version.crate"
rm -f "$crate"
mkdir -p target # a fresh clone has none yet
start=$(date +%s)
# --allow-dirty: a local run may have uncommitted edits; CI's clone has none.
if ! cargo package --allow-dirty >target/package.log 2>&1; then
  cat target/package.log >&2
  echo "package: cargo package failed" >&2
  exit 1
fi
grep -E '^ *(Packaged|Verifying|Finished)' target/package.log
seconds=$(( $(date +%s) - start ))
size=$(stat -c %s "$crate")
list=$(cargo package --list --allow-dirty 2>/dev/null)
for needed in LICENSE-MIT LICENSE-APACHE README.md Cargo.lock; do
  grep -qx "$needed" <<<"$list" || { echo "package: $needed is not in the package" >&2; exit 1; }
done
if grep -q 'games\.jsonl$' <<<"$list"; then
  echo "package: tournament game records are in the package" >&2
  exit 1
fi
echo "package: $crate, $(wc -l <<<"$list") files, $size bytes compressed, verified in ${seconds} s"
if [ "$size" -gt "$limit" ]; then
  echo "package: $size bytes is over the $limit-byte limit" >&2
  exit 1
fi
