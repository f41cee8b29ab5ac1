#!/usr/bin/env bash
# kete for Python as a wheel a lab can hand round: built once with maturin,
# checked with auditwheel, installed into a fresh virtualenv by a pip that
# cannot see cargo, and tested there. Runs alone (`bash .ci/wheel.sh`) after
# `cargo build --release` (the tests compare with target/release/kete).
set -euo pipefail
cd "$(dirname "$0")/.."
# One interpreter for the tools, the wheel's tag and the fresh virtualenv
# (a wheel is built per CPython version: python/Cargo.toml).
py=$(python3 -c 'import sys; print(sys.executable)')
tools=target/wheel-tools
if ! "$tools/bin/maturin" --version 2>/dev/null | grep -qx 'maturin 1.16.0'; then
  rm -rf "$tools"
  "$py" -m venv "$tools"
  # The maturin pinned in python/pyproject.toml.
  "$tools/bin/pip" install -q maturin==1.16.0 auditwheel
fi
# The build: release, its own Cargo target directory. manylinux_2_34: linked
# against Debian 12's glibc (2.36), the extension needs symbols of glibc 2.34
# (pthread_create and others, moved into libc then), so older tags fail
# maturin's symbol check; an older tag needs an older glibc to link against
# (a manylinux container, or maturin --zig). It links only libc, libm,
# libgcc_s and ld-linux, which every manylinux system has, so maturin's
# default --auditwheel repair has nothing to bundle.
rm -rf target/wheels
CARGO_TARGET_DIR="$PWD/target/wheel" nice "$tools/bin/maturin" build --quiet \
  --release --manifest-path python/Cargo.toml --interpreter "$py" \
  --compatibility manylinux_2_34 --out target/wheels
whl=$(echo target/wheels/kete-*.whl)
tag=${whl%.whl}
tag=${tag#target/wheels/kete-*-}
echo "wheel: $whl, tag $tag"
# auditwheel's own reading of the symbols must agree with the tag.
shown=$("$tools/bin/auditwheel" show "$whl")
echo "$shown"
if ! tr '\n' ' ' <<<"$shown" | grep -q "platform tag: \"${tag##*-}\""; then
  echo "wheel: auditwheel does not agree with the tag ${tag##*-}" >&2
  exit 1
fi
# A machine without Rust: a PATH with no cargo, rustc or rustup on it.
clean=/usr/local/bin:/usr/bin:/bin
for tool in cargo rustc rustup; do
  if PATH=$clean command -v "$tool" >/dev/null; then
    echo "wheel: $tool is on $clean" >&2
    exit 1
  fi
done
# A fresh virtualenv every run; binaries only, so nothing is built from
# source. --no-compile: the venv is used once, and compiling all of SciPy's
# and matplotlib's bytecode up front took longer than the install.
venv=target/wheel-venv
rm -rf "$venv"
"$py" -m venv "$venv"
PATH=$clean "$venv/bin/pip" install -q --no-compile --only-binary=:all: \
  "$whl[plot,test,rl,openspiel]"
# The tests must import the installed kete, not the source folder python/kete.
where=$(PATH="$PWD/$venv/bin:$clean" "$venv/bin/python" -c 'import kete; print(kete.__file__)')
echo "wheel: kete from $where"
case "$where" in
  "$PWD/$venv/"*) ;;
  *) echo "wheel: kete is not the installed one" >&2; exit 1 ;;
esac
PATH="$PWD/$venv/bin:$clean" KETE_BIN="$PWD/target/release/kete" \
  "$venv/bin/python" -m pytest -p no:cacheprovider python/tests
