#!/usr/bin/env bash
# `bash scripts/bench/first-start.sh [repo]`: a fresh clone's first `npm start` (until /__mock/health answers)
# against a second and a third. Prints the seconds of each. Not part of `npm test`.
set -euo pipefail
src=${1:-/work/main}
d=$(mktemp -d); git clone -q "$src" "$d"; cd "$d"
npm ci --no-progress >/dev/null 2>&1
measure() {
  local start end
  start=$(date +%s.%N)
  setsid npm start -- --port 4999 --quiet >/dev/null 2>&1 &
  local pid=$!
  until curl -fs http://127.0.0.1:4999/__mock/health >/dev/null 2>&1; do sleep 0.02; done
  end=$(date +%s.%N)
  kill -TERM -- -$pid 2>/dev/null || true; wait $pid 2>/dev/null || true; while curl -fs http://127.0.0.1:4999/__mock/health >/dev/null 2>&1; do sleep 0.05; done
  sleep 0.5
  echo "$end - $start" | bc
}
echo "first: $(measure)"
echo "second: $(measure)"
echo "third: $(measure)"
rm -rf "$d"
