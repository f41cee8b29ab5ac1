#!/usr/bin/env bash
# kete for Python as a wheel a lab can hand round: built once with maturin,
# checked with auditwheel, installed into a fresh virtualenv by a pip that
# cannot see cargo, and tested there. Runs alone (`bash .ci/wheel.sh`) after
# `cargo build --release` (the tests compare with target/release/kete).
set -euo pipefail
cd "$(dirname "$0")/.."
# One interpreter for the tools and the full test run; the wheel is built
# for the stable ABI (python/Cargo.toml) and tested on every other CPython
# from 3.9 the machine has, at the end.
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
case "$tag" in
  cp39-abi3-*) ;;
  *) echo "wheel: not the one abi3 wheel for CPython 3.9 and newer: $tag" >&2; exit 1 ;;
esac
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

# The same wheel on every other CPython from 3.9 on this machine (pyenv's,
# or python3.N on the PATH): a fresh virtualenv each with numpy and pytest
# only (the extras' packages do not all exist for every version), and the
# tests of the package's own core. The interpreters tested are named, so a
# machine with fewer shows it.
core_tests=(test_positions.py test_vector.py test_pickle.py
  test_records.py test_errors.py test_stubs.py)
main_version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
tested=("$main_version")
candidates=()
if command -v pyenv >/dev/null; then
  candidates+=("$(pyenv root)"/versions/3.*/bin/python3)
fi
for minor in 9 10 11 12 13 14 15; do
  if found=$(command -v "python3.$minor"); then candidates+=("$found"); fi
done
for candidate in "${candidates[@]}"; do
  version=$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2]) if sys.version_info >= (3, 9) else None' 2>/dev/null) || continue
  case " ${tested[*]} " in *" $version "*) continue ;; esac
  [ -n "$version" ] && [ "$version" != None ] || continue
  tested+=("$version")
  other=target/wheel-venv-$version
  rm -rf "$other"
  "$candidate" -m venv "$other"
  PATH=$clean "$other/bin/pip" install -q --no-compile --only-binary=:all: "$whl" pytest
  echo "wheel: CPython $version ($candidate)"
  PATH="$PWD/$other/bin:$clean" KETE_BIN="$PWD/target/release/kete" \
    "$other/bin/python" -m pytest -q -p no:cacheprovider "${core_tests[@]/#/python/tests/}"
  rm -rf "$other"
done
echo "wheel: tested on CPython ${tested[*]}"
