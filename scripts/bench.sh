#!/usr/bin/env bash
# `npm run bench`: provisions dependencies, builds, runs every benchmark; JSON results in bench/results/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export TURBO_TELEMETRY_DISABLED=1
bash scripts/ensure-node-modules.sh
bash deploy/local/up.sh >/dev/null
eval "$(bash deploy/local/env.sh)"
npx turbo run build --output-logs=errors-only >/dev/null
node bench/dist/usermgmt-roundtrip.js
node bench/dist/webhook-throughput.js
node bench/dist/token-verify.js
node bench/dist/token-exchange.js
node bench/dist/image-corpus.js
node bench/dist/image-quality.js
node bench/dist/image-throughput.js
