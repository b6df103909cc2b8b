#!/usr/bin/env bash
# Installs hexcore with its test extras (release build) and runs every check:
# Rust formatting and lints, the Rust tests of the core crate, the Python
# lint, then the Python suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    rustup component add rustfmt clippy
fi
cargo fmt --all --check
cargo clippy --release --quiet --all-targets -p hexcore-core -p hexcore-py -- -D warnings
cargo test --release --quiet -p hexcore-core
python3 -m ruff check python tests benches
python3 -m pytest -q "$@"
