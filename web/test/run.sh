#!/usr/bin/env bash
# The web table tested in a real browser: builds the WebAssembly package (dev profile, quicker to
# compile: `cargo run -p xtask -- web` builds the size-optimised one), builds `dbcore` with the
# page embedded, installs what is missing (Debian's chromium, playwright-core from npm, into a
# cache outside the repository), then runs web/test/browser.mjs: the page from static files and
# from `dbcore serve --http`. Screenshots and results go to $DBCORE_WEB_TEST_OUT (default
# target/web-test/). `--bench` also prints the numbers of issue #43.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out="${DBCORE_WEB_TEST_OUT:-$root/target/web-test}"
cache="${DBCORE_WEB_TEST_CACHE:-$HOME/.cache/dbcore-web-test}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"

if [ ! -x /usr/bin/chromium ]; then
    echo "installing Debian's chromium"
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null; then
    echo "node is needed (Debian's nodejs)"
    apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
# playwright-core at the version web/test/package-lock.json pins, installed once into the cache.
want=$(node -e 'console.log(require(process.argv[1]).packages["node_modules/playwright-core"].version)' "$root/web/test/package-lock.json")
have=$(node -e 'try{console.log(require(process.argv[1]).version)}catch{console.log("")}' "$cache/node_modules/playwright-core/package.json")
if [ "$want" != "$have" ]; then
    echo "installing playwright-core $want into $cache"
    mkdir -p "$cache"
    cp "$root/web/test/package.json" "$root/web/test/package-lock.json" "$cache/"
    (cd "$cache" && npm ci --no-audit --no-fund --silent)
fi

cargo run -q -p xtask -- web --dev
cargo build -q -p dbcore-cli --bin dbcore
# The program now embeds the page: its test of `/` checks the embedded files.
cargo test -q -p dbcore-cli --lib static_files

rm -rf "$out"
mkdir -p "$out"
node "$root/web/test/browser.mjs" --out "$out" --cli "$target_dir/debug/dbcore" \
    --modules "$cache/package.json" "$@"
