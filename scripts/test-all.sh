#!/usr/bin/env bash
# Every test of dbcore: Rust (format, lints, docs, unit/rules/property tests, header drift),
# C (ASan+UBSan build, plain build under valgrind, C++ header check, the C example) and Python
# (maturin build, pytest, mypy.stubtest); what a user installs (the wheel, the C archive and
# the program that `xtask dist` writes, installed and used with no Rust on the PATH, and the
# release workflow linted); the web table in headless Chromium (web/test/run.sh); with
# DBCORE_FUZZ_SECONDS=N also a short run of every fuzz target
# (fuzz/run.sh).
# Installs what it needs itself. Exits non-zero if any
# step fails and ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

venv="${DBCORE_VENV:-$PWD/.venv}"
passed=0
failed=0
failures=()
start=$(date +%s)

step() {
    local name=$1
    shift
    echo
    echo "==> $name"
    local t0
    t0=$(date +%s)
    if "$@"; then
        passed=$((passed + 1))
        echo "<== $name: ok ($(( $(date +%s) - t0 ))s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "<== $name: FAILED ($(( $(date +%s) - t0 ))s)"
    fi
}

step "cargo fmt --check" cargo fmt --all -- --check
step "cargo clippy -D warnings" cargo clippy --workspace --all-targets -- -D warnings
step "cargo doc -D warnings (dbcore)" env RUSTDOCFLAGS="-D warnings" cargo doc -p dbcore --no-deps
step "cargo test --workspace" cargo test --workspace
# The web table's wasm package compiles in a target folder of its own, in the background, while
# the steps below run: they are mostly one core (gcc and valgrind, the table tools, pytest), and
# the browser step at the end then finds it built (web/test/run.sh --prepare).
web_wasm_target="${CARGO_TARGET_DIR:-$PWD/target}/web-wasm"
mkdir -p "$web_wasm_target"
DBCORE_WEB_WASM_TARGET_DIR="$web_wasm_target" bash web/test/run.sh --prepare \
    >"$web_wasm_target/prepare.log" 2>&1 &
web_prepare=$!

# The committed header, schema files, golden traces and army lists are checked against their
# generators by tests of xtask-chores inside `cargo test --workspace` above, so they have no
# step of their own here. (Such a step built xtask-chores, which the C step's
# `install --debug` now builds instead and the later steps reuse: the saving is the
# generators' run, about a minute, not the build.)
step "C tests (ASan+UBSan, valgrind, C++ header, examples, install with pkg-config and CMake)" bash tests/c/run.sh
step "table-tool examples (TTS Lua over HTTP, Vassal Java over stdio)" bash tests/protocol/run_examples.sh
step "Python tests (maturin, pytest, stubtest)" bash dbcore-py/run_tests.sh "$venv"
# After the C and Python steps: `dist --profile dev` reuses the libraries, the program and the
# wheel's compile they made, and the CMake they installed.
step "what a user installs (xtask dist: wheel, C archive, program; one version; release.yml)" bash tests/dist/run.sh "$venv"
# Last, since its package changes what `dbcore` embeds: the web table in headless Chromium
# (the dev wasm package, the page from static files and from `dbcore serve --http`). It needs
# only the wasm32 target, Chromium and playwright-core (no glue generator to compile), which the
# background preparation above has compiled and installed; if it failed, the step does it again.
if ! wait "$web_prepare"; then
    echo "the web table's preparation failed (the browser step tries again):"
    tail -n 30 "$web_wasm_target/prepare.log"
fi
web_step() { DBCORE_WEB_WASM_TARGET_DIR="$web_wasm_target" bash web/test/run.sh; }
step "the web table in a real browser (wasm, headless Chromium)" web_step
# Live fuzzing (a nightly toolchain, cargo-fuzz and an instrumented build: about six minutes
# before the first input) is asked for with DBCORE_FUZZ_SECONDS=N; without it the run stays
# under its twenty-minute budget, and `cargo test` above has already replayed every committed
# fuzz input and every crash found, on stable (dbcore-ffi/tests/suite/fuzz_corpus.rs).
fuzz_seconds=${DBCORE_FUZZ_SECONDS:-0}
if [ "$fuzz_seconds" -gt 0 ] 2>/dev/null; then
    step "fuzz targets, ${fuzz_seconds}s each (nightly, cargo-fuzz)" bash fuzz/run.sh "$fuzz_seconds"
else
    echo
    echo "== live fuzzing not asked for (DBCORE_FUZZ_SECONDS=N fuzzes every target N s); the"
    echo "   committed corpora were replayed on stable by cargo test (fuzz_corpus)"
fi

echo
echo "dbcore test run took $(( $(date +%s) - start ))s"
for f in "${failures[@]}"; do echo "failed: $f"; done
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
