#!/usr/bin/env bash
# npm test: lint, then unit, API and browser tests with the typecheck running beside them. Any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-postgresql-nginx.sh
echo "== lint"
npx biome check .

# The typecheck (TypeScript 7's native tsc, about 12 CPU-seconds) runs beside the tests, on one thread so it
# takes no more than the one core; its report is printed after theirs.
typecheck_report=$(mktemp)
trap 'rm -f "$typecheck_report"' EXIT
npm run -s typecheck > "$typecheck_report" 2>&1 &
typecheck=$!

echo "== tests (the typecheck runs beside them)"
tests_status=0
npx vitest run "$@" || tests_status=$?

typecheck_status=0
wait "$typecheck" || typecheck_status=$?
echo "== typecheck"
cat "$typecheck_report"
if [ "$typecheck_status" -ne 0 ]; then echo "typecheck failed"; fi
if [ "$tests_status" -ne 0 ] || [ "$typecheck_status" -ne 0 ]; then exit 1; fi
echo "typecheck passed"
