#!/usr/bin/env bash
# Installs a built wheel into a fresh virtual environment whose PATH holds no
# cargo or rustc, then runs `python -m hexcore` and a short smoke test there.
#
#   bash scripts/check-wheel.sh WHEEL
#
# pip is told to take binary packages only, so the install fails rather than
# compile anything. Prints the install time.
set -euo pipefail
wheel="$(realpath "$1")"
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
# only the new environment and the system's own folders: no ~/.cargo/bin, no pyenv shims
clean_path="$tmp/venv/bin:/usr/bin:/bin"
for tool in cargo rustc; do
    if PATH="$clean_path" command -v "$tool" >/dev/null; then
        echo "check-wheel: $tool is on the clean PATH ($clean_path)" >&2
        exit 1
    fi
done
cd "$tmp"
pip_install() { PATH="$clean_path" python -m pip install --quiet --disable-pip-version-check --only-binary :all: "$@"; }
# timed twice: the whole install as a user runs it (dependencies resolved and fetched from the index or
# pip's cache), then, uninstalled again with its dependencies left in place, the wheel alone
start=$EPOCHREALTIME
pip_install "$wheel"
end=$EPOCHREALTIME
awk -v w="$(basename "$wheel")" -v s="$start" -v e="$end" 'BEGIN { printf "check-wheel: installed %s with its dependencies in %.1f s\n", w, e - s }'
PATH="$clean_path" python -m pip uninstall --quiet --yes hexcore
start=$EPOCHREALTIME
pip_install --no-deps "$wheel"
end=$EPOCHREALTIME
awk -v s="$start" -v e="$end" 'BEGIN { printf "check-wheel: the wheel alone (dependencies present) in %.1f s\n", e - s }'
PATH="$clean_path" python -m hexcore --version
PATH="$clean_path" python -m hexcore
PATH="$clean_path" python "$root/scripts/smoke_test.py"
