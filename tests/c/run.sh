#!/usr/bin/env bash
# Build the C ABI and test it from C: once with AddressSanitizer + UndefinedBehaviorSanitizer,
# once plain under valgrind; check the header compiles as C++; build and run examples/c/odds.c,
# examples/c/table.c and examples/c/replay.c.
# Exits non-zero on any failure. Run from anywhere: bash tests/c/run.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="$root/tests/c/build"
mkdir -p "$build"

CC="${CC:-gcc}"
CXX="${CXX:-g++}"
CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -g -I"$root/include")
# What a Rust static library needs from the system on Linux.
LIBS=(-lpthread -ldl -lm)

step() { printf '\n== %s\n' "$*"; }

step "cargo build -p dbcore-ffi"
cargo build -p dbcore-ffi
target_dir="${CARGO_TARGET_DIR:-$root/target}"
lib="$target_dir/debug/libdbcore_ffi.a"
test -f "$lib"

step "header compiles as C11, as C23 (typed enums) and as C++"
"$CC" "${CFLAGS[@]}" -fsyntax-only -x c "$root/include/dbcore.h"
if echo 'int x;' | "$CC" -std=c2x -fsyntax-only -x c - 2>/dev/null; then
    "$CC" -std=c2x -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c "$root/include/dbcore.h"
fi
"$CXX" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ "$root/include/dbcore.h"

step "the shared library exports exactly the functions the header declares"
so="$target_dir/debug/libdbcore_ffi.so"
exported="$(nm -D --defined-only "$so" | awk '{print $3}' | grep '^dbcore_' | sort)"
declared="$(grep -oE '^[A-Za-z][A-Za-z0-9_ *]*\bdbcore_[a-z0-9_]+\(' "$root/include/dbcore.h" \
    | grep -oE 'dbcore_[a-z0-9_]+' | sort -u)"
if [ "$exported" != "$declared" ]; then
    diff <(printf '%s\n' "$exported") <(printf '%s\n' "$declared") || true
    echo "libdbcore_ffi.so and include/dbcore.h disagree (left: library, right: header)" >&2
    exit 1
fi
echo "$(printf '%s\n' "$declared" | wc -l) functions"

# The golden traces the C tests replay (a record in, the same events out).
golden=("$root"/tests/golden/*.json "$root"/tests/golden/dbaix/*.json)

step "tests under ASan + UBSan"
"$CC" "${CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer "$root/tests/c/test_dbcore.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_dbcore_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/test_dbcore_asan" "${golden[@]}"

step "tests under valgrind"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind is missing: installing it"
    apt-get update -qq && apt-get install -y -qq valgrind
fi
"$CC" "${CFLAGS[@]}" -O1 "$root/tests/c/test_dbcore.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_dbcore"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$build/test_dbcore" "${golden[@]}"

step "army-list tests under ASan + UBSan, then valgrind"
"$CC" "${CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer "$root/tests/c/test_armies.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_armies_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$build/test_armies_asan"
"$CC" "${CFLAGS[@]}" -O1 "$root/tests/c/test_armies.c" "$lib" "${LIBS[@]}" -o "$build/test_armies"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$build/test_armies"

step "batch simulation tests under ASan + UBSan, then valgrind"
"$CC" "${CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer "$root/tests/c/test_simulate.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_simulate_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$build/test_simulate_asan"
"$CC" "${CFLAGS[@]}" -O1 "$root/tests/c/test_simulate.c" "$lib" "${LIBS[@]}" -o "$build/test_simulate"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    --suppressions="$root/tests/c/valgrind-rust-std.supp" "$build/test_simulate"

step "examples/c/odds.c"
"$CC" "${CFLAGS[@]}" "$root/examples/c/odds.c" "$lib" "${LIBS[@]}" -o "$build/odds"
"$build/odds" 4Bd 4Wb
out="$("$build/odds" Sp Ps)"
printf '%s\n' "$out"
grep -q "Sp doubled Ps: 9, won: 17, tied: 4, lost: 6, doubled by Ps: 0" <<<"$out"
if "$build/odds" 9Zz Ps 2>/dev/null; then
    echo "odds accepted an unknown code" >&2
    exit 1
fi

step "examples/c/table.c"
"$CC" "${CFLAGS[@]}" "$root/examples/c/table.c" "$lib" "${LIBS[@]}" -o "$build/table"
out="$("$build/table" "$root/examples/data/table.json" "$build/table.svg")"
printf '%s\n' "$out"
# DBA3.md §8.2: the Blades and Warband fight; §8.1: the Knights are in the Spears' zone;
# §3.1: the Psiloi are in the wood's bad going.
grep -q '^1: side 0 4Bd (general) at (7.50, 7.00) facing 0, good going, in close combat$' <<<"$out"
grep -A2 '^5: side 0 3Kn' <<<"$out" | grep -q 'in the threat zones of: \[6\]'
grep -q '^7: side 1 Ps .* bad going$' <<<"$out"
grep -q '</svg>' "$build/table.svg"
if "$build/table" "$build/no-such-table.json" 2>/dev/null; then
    echo "table read a file that does not exist" >&2
    exit 1
fi

step "examples/c/replay.c"
"$CC" "${CFLAGS[@]}" "$root/examples/c/replay.c" "$lib" "${LIBS[@]}" -o "$build/replay"
out="$("$build/replay" "$root/tests/golden/opening_bounds.json" 7)"
printf '%s\n' "$out"
# DBA3.md §6.2: the trace ends awaiting a PIP die, which the seeded dice supply.
# (The JSON utilities hand members back in key order.)
grep -q '^  {"army":0,"die":5,"event":"pips_rolled","pips":5}$' <<<"$out"
grep -q '^bound 4, army 1 to move, phase awaiting_pips$' <<<"$out"
grep -q '^army 1 rolls its PIP die (seed 7):$' <<<"$out"
grep -q '^5 PIPs to spend$' <<<"$out"
if "$build/replay" "$build/no-such-record.json" 2>/dev/null; then
    echo "replay read a file that does not exist" >&2
    exit 1
fi

# The last line of a passing run is the plain summary.
step "all C checks passed"
"$build/test_dbcore" "${golden[@]}" | tail -n 1
