#!/usr/bin/env bash
# The full suite: install, provision real dependencies, build once, then lint/typecheck/unit/integration/e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-node-modules.sh

echo "[test] generated contracts are current"
node libs/contracts/scripts/generate-types.mjs --check

# Dependencies are provisioned (downloaded, built, started) while the code builds and is checked.
provision_log="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}/test-provision.log"
mkdir -p "$(dirname "$provision_log")"
echo "[test] provisioning Kafka, FerretDB, Redis, SMTP, S3, GCS, the schema registry and the test tools, Chromium for the browser tests, Schemathesis for the fuzz gate (log: $provision_log)"
(
  bash deploy/local/chromium.sh install
  bash deploy/local/schemathesis.sh install >/dev/null
  bash deploy/local/up.sh
) >"$provision_log" 2>&1 &
provision=$!

echo "[test] build"
npx turbo run build --output-logs=errors-only

echo "[test] lint + typecheck"
(npx eslint --max-warnings=0 . && npm run -s format:check) &
lint=$!
npx turbo run typecheck --output-logs=errors-only --concurrency=1 &
typecheck=$!
wait $lint
wait $typecheck

echo "[test] waiting for the dependencies"
if ! wait $provision; then
  tail -n 80 "$provision_log" >&2
  echo "[test] provisioning failed (log: $provision_log)" >&2
  exit 1
fi
tail -n 12 "$provision_log"
eval "$(bash deploy/local/env.sh)"

echo "[test] vitest"
npx vitest run
