#!/usr/bin/env bash
# The web table tested in a real browser: builds the WebAssembly package (dev profile, quicker to
# compile: `cargo run -p xtask -- web` builds the size-optimised one) and `dbcore` with the page
# embedded, installs what is missing (Debian's chromium with apt-get, playwright-core from npm
# into a cache outside the repository; both while cargo compiles), then runs
# web/test/browser.mjs: the page from static files and from `dbcore serve --http`. Screenshots
# and results go to $DBCORE_WEB_TEST_OUT (default web-test/ in cargo's target folder). `--bench`
# also prints the numbers of issue #43.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target_dir="${CARGO_TARGET_DIR:-$root/target}"
out="${DBCORE_WEB_TEST_OUT:-$target_dir/web-test}"
cache="${DBCORE_WEB_TEST_CACHE:-$HOME/.cache/dbcore-web-test}"
mkdir -p "$out"

t0=$(date +%s)
took() { echo "web test: $1 ($(( $(date +%s) - t0 ))s)"; }

# The browser and the test runner are fetched while cargo compiles (network, not CPU).
install_tools() {
    local missing=()
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing ${missing[*]} from Debian's packages"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    # playwright-core at the version web/test/package-lock.json pins, installed once.
    local want have
    want=$(node -e 'console.log(require(process.argv[1]).packages["node_modules/playwright-core"].version)' "$root/web/test/package-lock.json")
    have=$(node -e 'try{console.log(require(process.argv[1]).version)}catch{console.log("")}' "$cache/node_modules/playwright-core/package.json")
    if [ "$want" != "$have" ]; then
        echo "installing playwright-core $want into $cache"
        mkdir -p "$cache"
        cp "$root/web/test/package.json" "$root/web/test/package-lock.json" "$cache/"
        (cd "$cache" && npm ci --no-audit --no-fund --silent)
    fi
}
# The WebAssembly build may have a target folder of its own (DBCORE_WEB_WASM_TARGET_DIR), so that
# it can be compiled ahead, beside other work, by `run.sh --prepare`.
wasm_target_dir="${DBCORE_WEB_WASM_TARGET_DIR:-$target_dir}"

# `--prepare`: install the browser and the runner and compile the wasm package's crates (into
# the wasm target folder, without writing web/pkg/, so no other build sees the page change),
# then stop. scripts/test-all.sh runs it in the background while its one-core steps (C under
# valgrind, the table tools, pytest) run; the browser step then finds everything built.
if [ "${1:-}" = --prepare ]; then
    install_tools >"$out/install.log" 2>&1 &
    installer=$!
    rustup target list --installed | grep -qx wasm32-unknown-unknown ||
        rustup target add wasm32-unknown-unknown
    CARGO_TARGET_DIR="$wasm_target_dir" cargo build -q -p xtask
    CARGO_TARGET_DIR="$wasm_target_dir" CARGO_PROFILE_DEV_DEBUG=false \
        cargo build -q -p dbcore-wasm --lib --target wasm32-unknown-unknown
    took "the WebAssembly package's crates compiled ahead"
    wait "$installer" || { cat "$out/install.log"; exit 1; }
    took "chromium and playwright-core"
    exit 0
fi

install_tools >"$out/install.log" 2>&1 &
installer=$!

CARGO_TARGET_DIR="$wasm_target_dir" cargo run -q -p xtask -- web --dev
took "the WebAssembly package"
cargo build -q -p dbcore-cli --bin dbcore
took "dbcore with the page embedded"
if ! wait "$installer"; then
    cat "$out/install.log"
    echo "web test: installing chromium or playwright-core failed"
    exit 1
fi
cat "$out/install.log"
took "chromium and playwright-core"

find "$out" -maxdepth 1 -name '*.png' -delete
node "$root/web/test/browser.mjs" --out "$out" --cli "$target_dir/debug/dbcore" \
    --modules "$cache/package.json" "$@"
took "the browser test"
