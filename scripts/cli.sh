#!/usr/bin/env bash
# `npm run -s cli -- <args>`: the platform CLI against the local dependencies. Only the command's own
# output goes to stdout (`keys create` prints the key alone), so scripts can capture it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ ! -f apps/cli/dist/main.js ]]; then
  bash scripts/ensure-node-modules.sh >&2
  TURBO_TELEMETRY_DISABLED=1 npx turbo run build --filter=@platform/cli... --output-logs=errors-only >&2
fi
eval "$(bash scripts/local-env.sh)"
exec node apps/cli/dist/main.js "$@"
