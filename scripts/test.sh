#!/usr/bin/env bash
# npm test: typecheck, lint, then unit, API and browser tests. Any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-postgresql-nginx.sh
echo "== typecheck"
npx tsc --noEmit
echo "== lint"
npx biome check .
echo "== tests"
npx vitest run "$@"
