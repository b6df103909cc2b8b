#!/usr/bin/env bash
# Installs hexcore with its test extras (release build) and runs every test:
# the Rust unit tests of the core crate, then the Python suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
cargo test --release --quiet -p hexcore-core
python3 -m ruff check python tests benches
python3 -m pytest -q "$@"
