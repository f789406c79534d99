#!/usr/bin/env bash
# Build the C library and test it from C: install it (the dev build) into tests/c/build/prefix
# with `cargo run -p xtask -- install --debug` and check the layout and the SONAME; run the tests
# once with AddressSanitizer + UndefinedBehaviorSanitizer, once plain under valgrind; check the
# header compiles as C++; build and run examples/c/odds.c, table.c and replay.c. Then install the
# same build again into a fresh temporary prefix and build the examples against it as a user
# would, with pkg-config (examples/c/pkg-config) and with CMake (examples/c/cmake,
# find_package(dbcore)), and run them without LD_LIBRARY_PATH. (What that checks is the install's
# layout and linking, which a release build lays out the same way: building one as well would
# compile dbcore a second time, minutes of CI, for nothing the tests look at.) CMake comes from
# PyPI into the project's virtualenv (DBCORE_VENV, default .venv) when it is not on PATH.
# Exits non-zero on any failure. Run from anywhere: bash tests/c/run.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="$root/tests/c/build"
mkdir -p "$build"

CC="${CC:-gcc}"
CXX="${CXX:-g++}"
# What a Rust static library needs from the system on Linux.
LIBS=(-lpthread -ldl -lm)

step() { printf '\n== %s\n' "$*"; }

# The SONAME the header's version calls for: libdbcore.so.MAJOR, and libdbcore.so.0.MINOR
# while MAJOR is 0 (dbcore-ffi/build.rs).
major="$(awk '/^#define DBCORE_VERSION_MAJOR /{print $3}' "$root/include/dbcore.h")"
minor="$(awk '/^#define DBCORE_VERSION_MINOR /{print $3}' "$root/include/dbcore.h")"
patch="$(awk '/^#define DBCORE_VERSION_PATCH /{print $3}' "$root/include/dbcore.h")"
if [ "$major" = 0 ]; then soname="libdbcore.so.0.$minor"; else soname="libdbcore.so.$major"; fi

# Every file an install lays out, the symlinks pointing the right way, the SONAME set.
check_install() {
    local p=$1
    for f in include/dbcore.h lib/libdbcore.a "lib/libdbcore.so.$major.$minor.$patch" \
        lib/pkgconfig/dbcore.pc lib/pkgconfig/dbcore-static.pc \
        lib/cmake/dbcore/dbcoreConfig.cmake lib/cmake/dbcore/dbcoreConfigVersion.cmake; do
        test -f "$p/$f" || { echo "install: $p/$f is missing" >&2; return 1; }
    done
    test "$(readlink "$p/lib/libdbcore.so")" = "$soname"
    test "$(readlink "$p/lib/$soname")" = "libdbcore.so.$major.$minor.$patch"
    cmp -s "$p/include/dbcore.h" "$root/include/dbcore.h"
    readelf -d "$p/lib/libdbcore.so" | grep -qF "Library soname: [$soname]" ||
        { echo "install: $p/lib/libdbcore.so has not the SONAME $soname" >&2; return 1; }
}

step "cargo run -p xtask -- install --debug (the library the tests link, as installed)"
prefix="$build/prefix"
cargo run -q -p xtask -- install --prefix "$prefix" --debug
check_install "$prefix"
lib="$prefix/lib/libdbcore.a"
so="$prefix/lib/libdbcore.so"
echo "$so: SONAME $soname"
CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -g -I"$prefix/include")

step "header compiles as C11, as C23 (typed enums) and as C++"
"$CC" "${CFLAGS[@]}" -fsyntax-only -x c "$root/include/dbcore.h"
if echo 'int x;' | "$CC" -std=c2x -fsyntax-only -x c - 2>/dev/null; then
    "$CC" -std=c2x -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c "$root/include/dbcore.h"
fi
"$CXX" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ "$root/include/dbcore.h"

step "the shared library exports exactly the functions the header declares"
exported="$(nm -D --defined-only "$so" | awk '{print $3}' | grep '^dbcore_' | sort)"
declared="$(grep -oE '^[A-Za-z][A-Za-z0-9_ *]*\bdbcore_[a-z0-9_]+\(' "$root/include/dbcore.h" \
    | grep -oE 'dbcore_[a-z0-9_]+' | sort -u)"
if [ "$exported" != "$declared" ]; then
    diff <(printf '%s\n' "$exported") <(printf '%s\n' "$declared") || true
    echo "libdbcore.so and include/dbcore.h disagree (left: library, right: header)" >&2
    exit 1
fi
echo "$(printf '%s\n' "$declared" | wc -l) functions"

# The golden traces the C tests replay (a record in, the same events out).
golden=("$root"/tests/golden/*.json "$root"/tests/golden/dbaix/*.json)
# Under valgrind, one golden of each kind the C test reads: the three scripted bounds, the
# whole battle test_driver compares its own game with (seed 2), the two whole games from lists
# (pre-battle included: the test wants two) and the DBAix game. The other whole battles, Big
# Battle and Giant (the largest traces) go through the same C calls with longer inputs and took
# most of the step's minutes there; ASan replays every golden.
valgrind_golden=()
for g in "${golden[@]}"; do
    case "$(basename "$g")" in
        into_contact.json | opening_bounds.json | road_and_river.json | whole_battle_seed_2.json | \
            whole_game_*.json | dbaix_*.json) valgrind_golden+=("$g") ;;
    esac
done

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
    "$build/test_dbcore" "${valgrind_golden[@]}"

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
# --fair-sched=yes: valgrind runs one thread at a time, and without a fair lock the test's
# polling thread can keep the workers from running for many minutes (seen once: ten minutes,
# against about a minute with it).
valgrind --fair-sched=yes --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    --suppressions="$root/tests/c/valgrind-rust-std.supp" "$build/test_simulate"

step "narration tests under ASan + UBSan, then valgrind"
"$CC" "${CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer "$root/tests/c/test_narrate.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_narrate_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$build/test_narrate_asan" "$root/tests/golden"
"$CC" "${CFLAGS[@]}" -O1 "$root/tests/c/test_narrate.c" "$lib" "${LIBS[@]}" -o "$build/test_narrate"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$build/test_narrate" "$root/tests/golden"

step "game sessions (a whole DBA battle, DBAix game and BUGS! encounter from legal_actions) under ASan + UBSan, then valgrind"
"$CC" "${CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer "$root/tests/c/test_game.c" "$lib" "${LIBS[@]}" \
    -o "$build/test_game_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$build/test_game_asan" "$root"
"$CC" "${CFLAGS[@]}" -O1 "$root/tests/c/test_game.c" "$lib" "${LIBS[@]}" -o "$build/test_game"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$build/test_game" "$root" short

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
# (The JSON utilities hand members back in the order dbcore writes them.)
grep -q '^  {"event":"pips_rolled","army":0,"die":5,"pips":5}$' <<<"$out"
grep -q '^bound 4, army 1 to move, phase awaiting_pips$' <<<"$out"
grep -q '^army 1 rolls its PIP die (seed 7):$' <<<"$out"
grep -q '^5 PIPs to spend$' <<<"$out"
if "$build/replay" "$build/no-such-record.json" 2>/dev/null; then
    echo "replay read a file that does not exist" >&2
    exit 1
fi

step "install into a fresh temporary prefix; pkg-config and CMake builds run without LD_LIBRARY_PATH"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fresh="$tmp/prefix"
# The dev build the tests above linked (already built: this only lays it out again).
cargo run -q -p xtask -- install --prefix "$fresh" --debug
check_install "$fresh"
strict=(-std=c11 -Wall -Wextra -Wpedantic -Werror -O2)
# What the narrate example prints for the demonstration battle with seed 1, 12 bounds.
check_narrate() {
    local out
    out="$(env -u LD_LIBRARY_PATH "$@" 1 12)"
    grep -qx 'the Romans roll 2 PIPs' <<<"$out"
    grep -qx -- '-- bound 2: the Britons move' <<<"$out"
    grep -qx '    Britons 3Wb #103 recoils 0.50 BW' <<<"$out"
    grep -qx '161 events; verdict null' <<<"$out"
}
check_odds() {
    env -u LD_LIBRARY_PATH "$@" Sp Ps |
        grep -q "Sp doubled Ps: 9, won: 17, tied: 4, lost: 6, doubled by Ps: 0"
}

echo "-- pkg-config (examples/c/pkg-config/Makefile)"
PKG_CONFIG_PATH="$fresh/lib/pkgconfig" pkg-config --modversion dbcore | grep -qx "$major.$minor.$patch"
mkdir -p "$tmp/pc"
make -s -C "$root/examples/c/pkg-config" OUT="$tmp/pc" PKG_CONFIG_PATH="$fresh/lib/pkgconfig" \
    CC="$CC" CFLAGS="${strict[*]}"
readelf -d "$tmp/pc/narrate" | grep -qF "Shared library: [$soname]"
readelf -d "$tmp/pc/narrate" | grep -qF "[$fresh/lib]"
if readelf -d "$tmp/pc/odds_static" | grep -q libdbcore; then
    echo "odds_static needs libdbcore.so: it should have the static library in it" >&2
    exit 1
fi
check_narrate "$tmp/pc/narrate"
check_odds "$tmp/pc/odds_static"
echo "narrate (shared, RPATH) and odds_static (static) built with pkg-config and ran"

echo "-- CMake (examples/c/cmake, find_package(dbcore))"
cmake=cmake
if ! command -v cmake >/dev/null 2>&1; then
    venv="${DBCORE_VENV:-$root/.venv}"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    if [ ! -x "$venv/bin/cmake" ]; then
        echo "cmake is missing: installing it from PyPI into $venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "cmake>=3.16,<5"
    fi
    cmake="$venv/bin/cmake"
fi
"$cmake" --version | head -n 1
"$cmake" -S "$root/examples/c/cmake" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$fresh" \
    -DCMAKE_INSTALL_PREFIX="$tmp/app" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >"$tmp/cmake.log" ||
    { cat "$tmp/cmake.log"; exit 1; }
"$cmake" --build "$tmp/cmake-build" >>"$tmp/cmake.log" || { cat "$tmp/cmake.log"; exit 1; }
"$cmake" --install "$tmp/cmake-build" >>"$tmp/cmake.log" || { cat "$tmp/cmake.log"; exit 1; }
check_narrate "$tmp/cmake-build/narrate"
# The installed programs keep their RPATH (CMAKE_INSTALL_RPATH_USE_LINK_PATH).
check_narrate "$tmp/app/bin/narrate"
check_odds "$tmp/app/bin/odds_static"
echo "narrate and odds_static built with CMake, installed and ran"
# The version file: 0.MINOR is met by this install, another minor and a newer patch are not.
mkdir -p "$tmp/want"
printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(want NONE)' \
    'find_package(dbcore ${WANT} REQUIRED)' >"$tmp/want/CMakeLists.txt"
wants() {
    rm -rf "$tmp/want/build"
    "$cmake" -S "$tmp/want" -B "$tmp/want/build" -DCMAKE_PREFIX_PATH="$fresh" -DWANT="$1" \
        >/dev/null 2>&1
}
wants "$major.$minor" && wants "$major.$minor.$patch" ||
    { echo "find_package(dbcore $major.$minor) failed against the install" >&2; exit 1; }
if wants "$major.$((minor + 1))" || wants "$major.$minor.$((patch + 1))" || wants "$((major + 1))"; then
    echo "find_package(dbcore) accepted a version this install does not meet" >&2
    exit 1
fi
echo "find_package(dbcore VERSION) accepts $major.$minor and refuses other versions"

# The last line of a passing run is the plain summary.
step "all C checks passed"
"$build/test_dbcore" "${golden[@]}" | tail -n 1
