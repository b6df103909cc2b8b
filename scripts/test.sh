#!/usr/bin/env bash
# Installs hexcore with its test, docs and train extras (release build; train
# brings PyTorch, so the tiny training runs of tests/train/test_train.py run here too) and runs every
# check: Rust formatting and lints, the Rust tests of the core crate, the Python
# lint, the documentation site (mkdocs build --strict), then the Python suite.
# The Ray tests start a local Ray, so they run in a second pass inside a private
# network namespace holding only the loopback device (scripts/in-private-network);
# in the first pass they are skipped. Before them, the instructions of fixed workloads are
# counted under valgrind and checked against benches/instructions.json
# (scripts/check_instructions.py), and the thread team's tests run under Miri.
# Last, one Linux wheel is built and installed into a fresh environment
# without Rust (scripts/build-wheels.sh, scripts/check-wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test,docs,train]"
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    rustup component add rustfmt clippy
fi
cargo fmt --all --check
# the games' folders are declared through a macro (lib.rs, for_each_game!), where cargo fmt does not look
rustfmt --edition 2021 --check rust/core/src/games/*/mod.rs rust/py/src/games/*.rs
cargo clippy --release --quiet --all-targets -p hexcore-core -p hexcore-py -- -D warnings
cargo test --release --quiet -p hexcore-core
python3 -m ruff check python tests benches scripts docs
NO_MKDOCS_2_WARNING=1 python3 -m mkdocs build --strict --quiet --site-dir target/site
HEXCORE_SITE=target/site python3 -m pytest -q "$@"
if [ -z "${HEXCORE_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
    && ! command -v google-chrome >/dev/null 2>&1; then
    echo "warning: no chromium here (apt-get install chromium): the serve page's browser tests (tests/serve/test_browser.py) did not run" >&2
fi
if [ $# -eq 0 ]; then
    # instructions of fixed workloads against benches/instructions.json (about a minute)
    if command -v valgrind >/dev/null 2>&1; then
        python3 scripts/check_instructions.py
    else
        echo "warning: valgrind is not installed here: the instruction counts (scripts/check_instructions.py) were not checked" >&2
    fi
    # the thread team's tests under Miri where nightly has it (docs/development.md says why these flags)
    if cargo +nightly miri --version >/dev/null 2>&1; then
        MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-ignore-leaks -Zmiri-permissive-provenance" \
            cargo +nightly miri test --quiet -p hexcore-core --no-default-features --lib parallel::
    else
        echo "warning: Miri is not installed here (rustup +nightly component add miri rust-src): the thread team was not checked under Miri" >&2
    fi
    if bash scripts/in-private-network true; then
        bash scripts/in-private-network python3 -m pytest -q -p no:cacheprovider tests/distributed/test_ray.py
    else
        echo "warning: no private network namespace (unshare --net) here: the Ray tests did not run" >&2
    fi
    # one wheel (x86_64, manylinux2014) is enough here; the release workflow builds and tests every platform
    HEXCORE_WHEEL_TARGETS=x86_64-unknown-linux-gnu HEXCORE_SDIST=0 bash scripts/build-wheels.sh target/wheels
    bash scripts/check-wheel.sh target/wheels/hexcore-"$(python3 -c 'import hexcore; print(hexcore.__version__)')"-*manylinux*x86_64*.whl
fi
