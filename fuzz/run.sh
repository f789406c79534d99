#!/usr/bin/env bash
# Run every cargo-fuzz target for a short bounded time from the committed corpus:
#
#   bash fuzz/run.sh [SECONDS_PER_TARGET [TARGET...]]     (default 20 seconds, every target)
#
# Installs what it needs first: the nightly toolchain (minimal profile) and cargo-fuzz. New
# inputs the fuzzers find go to a scratch directory, never into fuzz/corpus (minimise and commit
# them by hand: `cargo +nightly fuzz cmin TARGET`). A crash leaves its input in
# fuzz/artifacts/TARGET/ and fails the run; commit it under fuzz/regressions/TARGET/ with the
# fix, where `dbcore-ffi/tests/suite/fuzz_corpus.rs` replays it on stable.
set -euo pipefail

seconds=${1:-20}
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/fuzz"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "== installing the nightly toolchain"
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

target_dir="${CARGO_TARGET_DIR:-$root/target}/fuzz"
# glibc's records of thread-local destructors, reported while a server thread exits (lsan.supp).
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# The dev profile of this workspace (Cargo.toml: optimised at opt-level 1, line tables, debug
# assertions and overflow checks), built once for every target and reused by every run below.
# cargo-fuzz's default, a release build in one codegen unit, took minutes longer to compile
# than the targets are then fuzzed for.
build=(--dev --target-dir "$target_dir")
echo "== building the fuzz targets (nightly, AddressSanitizer, dev profile)"
cargo +nightly fuzz build "${build[@]}"

status=0
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
for t in "${targets[@]}"; do
    mkdir -p "$scratch/$t" "artifacts/$t"
    echo "== fuzzing $t for ${seconds}s"
    log="$scratch/$t.log"
    if cargo +nightly fuzz run "${build[@]}" "$t" "$scratch/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
        echo "$t: ok, ${runs:-?} runs, corpus $(ls "corpus/$t" | wc -l) committed + $(ls "$scratch/$t" | wc -l) new"
    else
        status=1
        tail -n 40 "$log"
        echo "$t: FAILED (the input is in fuzz/artifacts/$t/)"
    fi
done
exit $status
