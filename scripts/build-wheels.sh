#!/usr/bin/env bash
# Builds hexcore's Linux wheels and its sdist into OUTDIR (default dist/).
#
#   bash scripts/build-wheels.sh [OUTDIR]
#
# One abi3 wheel per target (CPython >= 3.10), linked by zig against glibc 2.17
# so that it is tagged manylinux2014 (maturin refuses the tag if any symbol
# needs a newer glibc), then checked with `auditwheel show`. The targets are
# x86_64 and aarch64 unless HEXCORE_WHEEL_TARGETS names others (space
# separated Rust target triples; HEXCORE_SDIST=0 skips the sdist).
# Needs cargo with rustup; installs maturin, ziglang and auditwheel from PyPI.
set -euo pipefail
out="$(realpath -m "${1:-dist}")"
cd "$(dirname "$0")/.."
targets="${HEXCORE_WHEEL_TARGETS:-x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu}"
python3 -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" ziglang auditwheel
# maturin is a program (python -m maturin only finds it beside the interpreter that installed it);
# it runs zig as `python -m ziglang` with the interpreter named here, the one that has ziglang
export CARGO_ZIGBUILD_PYTHON_PATH="${CARGO_ZIGBUILD_PYTHON_PATH:-$(command -v python3)}"
mkdir -p "$out"
for target in $targets; do
    if ! rustup target list --installed | grep -qx "$target"; then
        rustup target add "$target"
    fi
    maturin build --release --zig --target "$target" --compatibility manylinux2014 --out "$out"
done
if [ "${HEXCORE_SDIST:-1}" != 0 ]; then
    maturin sdist --out "$out"
fi
for wheel in "$out"/hexcore-*manylinux*.whl; do
    python3 -m auditwheel show "$wheel"
done
ls -l "$out"
