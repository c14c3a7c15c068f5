#!/usr/bin/env bash
# Makes the second real FastAPI the tests compare with: Debian trixie's FastAPI 0.115 + pydantic 2 +
# uvicorn + PyJWT on Python 3.13, in a chroot made by debootstrap from Debian's own archive (no PyPI).
#   bash scripts/fastapi-trixie.sh          makes it once, then reuses it; prints its folder
# The folder is $FASTAPI_TRIXIE, by default ~/.cache/agent-console-mock/trixie (outside the project: about
# 300 MB). test/fastapi/trixie.ts starts apps in it; the tests that need it are skipped, saying so, without it.
# Needs root (chroot, debootstrap) and debootstrap (`apt-get install -y debootstrap`, done here when missing).
set -euo pipefail

root=${FASTAPI_TRIXIE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-console-mock/trixie}
probe() { chroot "$root" python3 -c 'import fastapi, uvicorn, jwt' 2>/dev/null; }

fail() {
  echo "fastapi-trixie: $1" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "making and entering the chroot needs root (run it as root, or with sudo)"
if [ -d "$root" ] && probe; then
  echo "$root"
  exit 0
fi

if ! command -v debootstrap >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; } ||
    fail "debootstrap is missing and could not be installed: run \`apt-get install -y debootstrap\`"
fi

# A half-made folder (an interrupted run) is made again from nothing; the new one replaces it only when complete.
echo "━━ Making Debian trixie's FastAPI in $root (debootstrap, about a minute)" >&2
rm -rf "$root.partial"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include=python3-fastapi,python3-uvicorn,python3-jwt \
  trixie "$root.partial" http://deb.debian.org/debian >&2 ||
  fail "debootstrap failed (it needs Debian's archive, http://deb.debian.org); see its output above"
rm -rf "$root"
mv "$root.partial" "$root"
probe || fail "the chroot at $root cannot import fastapi, uvicorn and jwt"
echo "$root"
