#!/usr/bin/env bash
# The table-tool examples against the real referee: the Tabletop Simulator Lua module
# (examples/tts, over HTTP, run by lua5.4 with LuaSocket and lua-cjson standing in for TTS's
# WebRequest and JSON) and the Vassal Java client (examples/vassal, over stdio, compiled with
# `javac --release 11`). Installs what it needs from Debian's packages if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v lua5.4 >/dev/null 2>&1 || missing+=(lua5.4)
lua5.4 -e 'require("socket.http")' >/dev/null 2>&1 || missing+=(lua-socket)
lua5.4 -e 'require("cjson")' >/dev/null 2>&1 || missing+=(lua-cjson)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# With xtask in the same build, Cargo resolves dbcore's features as for `cargo run -p xtask`
# (which the test run has already used, and xtask depends on dbcore-cli), so dbcore is not
# compiled again for the program alone.
cargo build -q -p dbcore-cli -p xtask
bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/dbcore"
setup=tests/golden/into_contact.json
work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "== TTS Lua module over HTTP"
"$bin" serve --http --port 0 >"$work/listening" 2>"$work/server.log" &
server=$!
for _ in $(seq 50); do
    [ -s "$work/listening" ] && break
    sleep 0.1
done
url=$(sed -n 's/.*"listening":"\(http:[^"]*\)\/rpc".*/\1/p' "$work/listening")
[ -n "$url" ] || { echo "the referee did not start"; cat "$work/server.log"; exit 1; }
lua5.4 examples/tts/test_referee.lua "$url" "$setup"

echo "== Vassal Java client over stdio"
javac --release 11 -Xlint:all -Werror -d "$work/classes" examples/vassal/DbcoreClient.java
java -cp "$work/classes" DbcoreClient "$bin" "$setup"
