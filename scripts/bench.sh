#!/usr/bin/env bash
# `npm run bench`: provisions dependencies, builds, runs every benchmark; JSON results in bench/results/.
# The store-bound benchmarks run on the default store (FerretDB on PostgreSQL) and, in the same run, on the
# former default (FerretDB on SQLite, started here on its own port and state folder, stopped at the end).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export TURBO_TELEMETRY_DISABLED=1
bash scripts/ensure-node-modules.sh
bash deploy/local/up.sh >/dev/null
eval "$(bash deploy/local/env.sh)"
npx turbo run build --output-logs=errors-only >/dev/null

sqlite_port="${BENCH_SQLITE_MONGO_PORT:-27018}"
sqlite_store=(env PLATFORM_FERRETDB_BACKEND=sqlite PLATFORM_MONGO_PORT="$sqlite_port"
  PLATFORM_STATE_DIR="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}/bench-sqlite" bash deploy/local/ferretdb.sh)
"${sqlite_store[@]}" start >/dev/null
trap '"${sqlite_store[@]}" stop >/dev/null 2>&1 || true' EXIT
export BENCH_STORES="postgresql=$MONGO_URL,sqlite=mongodb://${PLATFORM_HOST:-127.0.0.1}:$sqlite_port"

only="${BENCH_ONLY:-}"
for bench in store-ops usermgmt-roundtrip webhook-throughput token-verify token-exchange image-corpus image-quality image-throughput png-shrink qr-render qr-image-throughput watch-fanout redirect-throughput shorten-throughput analytics-ingest; do
  if [[ -z "$only" || " $only " == *" $bench "* ]]; then node "bench/dist/$bench.js"; fi
done
