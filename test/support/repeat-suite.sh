#!/usr/bin/env bash
# Runs a test suite N times in a row, each run starting its services afresh, and stops at the
# first failing run. Issue 16's "done when": the HTTP conformance suite (every endpoint's statuses,
# limits and error shapes checked against the served OpenAPI document, the 5 MB early 413 against
# a fresh `diff-review serve` among them) passes 50 times in a row.
# Usage: bash test/support/repeat-suite.sh [RUNS] [vitest path ...]   (default: 50 test/service/http)
set -uo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-50}"
shift || true
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(test/service/http)
node esbuild.config.mjs >/dev/null
for ((i = 1; i <= runs; i++)); do
  started=$SECONDS
  if ! out=$(npx vitest run "${paths[@]}" --project default 2>&1); then
    printf '%s\n' "$out" | tail -40
    echo "run $i of $runs failed after $((i - 1)) passing runs in a row"
    exit 1
  fi
  echo "run $i: $(printf '%s\n' "$out" | sed "s/\x1b\[[0-9;]*m//g" | grep -E "^ *Tests " | xargs) ($((SECONDS - started)) s)"
done
echo "$runs of $runs runs passed in a row"
