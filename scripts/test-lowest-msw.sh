#!/usr/bin/env bash
# Runs the tiers where msw does the work against the lowest msw the peer range allows: `msw` (the
# in-process tests less the verifier's, which loads no msw) and `browser`. The unit tests load no
# msw, and the process tier runs the same code through the CLI: they add time, not msw coverage.
# In a throw-away copy of the project (its own node_modules, so the working tree's install is left alone):
#   bash scripts/test-lowest-msw.sh [version]     (default: the floor of peerDependencies.msw)
# The copy holds what git would commit (tracked and untracked files, not ignored ones), so no
# node_modules, dist/ or reports. It ends with the tier summary and `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The floor of the range's first alternative: "^2.12.10 || ^3.0.0" gives 2.12.10.
version=${1:-$(node -p "require('./package.json').peerDependencies.msw.split('||')[0].trim().replace(/^[\\^~>=\\s]+/, '')")}
label="msw $version"
work=$(mktemp -d "${TMPDIR:-/tmp}/acm-lowest-msw-XXXXXX")
# The disk tests run the CLI as `nobody` (root ignores permissions): the copy must be readable by it.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

# Records a failure before the tiers could run, in the same form as test-all.mjs.
fail() {
  echo "test-lowest-msw: $1" >&2
  [ -n "${TEST_ALL_RESULTS:-}" ] && printf 'install (%s)\t%s\t0\n' "$label" "$1" >>"$TEST_ALL_RESULTS"
  echo
  echo "0 passed, 1 failed"
  exit 1
}

echo "━━ The msw and browser tiers against $label, in $work"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$root" ls-files -z --cached --others --exclude-standard | tar -C "$root" -cf - --null -T - --ignore-failed-read 2>/dev/null | tar -xf - -C "$work" || fail "copying the project failed"
else
  tar -cf - --exclude=./node_modules --exclude=./dist --exclude=./.dev . | tar -xf - -C "$work" || fail "copying the project failed"
fi

cd "$work"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
npm ci --no-progress --loglevel=error || fail "npm ci failed"
npm install --no-save --no-progress --loglevel=error "msw@$version" || fail "npm install msw@$version failed"
installed=$(node -p "require('msw/package.json').version")
[ "$installed" = "$version" ] || fail "msw $installed installed, not $version"
echo "msw $installed installed"

node scripts/test-all.mjs msw browser --label "$label"
