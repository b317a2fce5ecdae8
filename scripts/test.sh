#!/usr/bin/env bash
# The full suite: install, provision real dependencies, build once, then lint/typecheck/unit/integration/e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-node-modules.sh

echo "[test] generated contracts are current"
node libs/contracts/scripts/generate-types.mjs --check

echo "[test] build"
npx turbo run build --output-logs=errors-only

echo "[test] lint + typecheck"
(npx eslint --max-warnings=0 . && npm run -s format:check) &
lint=$!
npx turbo run typecheck --output-logs=errors-only --concurrency=1 &
typecheck=$!
wait $lint
wait $typecheck

echo "[test] provisioning Kafka, FerretDB, Redis and SMTP, Chromium for the browser tests, Schemathesis for the fuzz gate"
bash deploy/local/chromium.sh install
bash deploy/local/schemathesis.sh install >/dev/null
bash deploy/local/up.sh
eval "$(bash deploy/local/env.sh)"

echo "[test] vitest"
npx vitest run
