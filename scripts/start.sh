#!/usr/bin/env bash
# `npm start`: installs what is missing, provisions and starts the dependencies and every app (in the
# background, logs under the state folder), waits until the gateways answer, and prints the URLs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export TURBO_TELEMETRY_DISABLED=1
state="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}/apps"
mkdir -p "$state"

bash scripts/ensure-node-modules.sh
# Only the servers the running apps use: the tools (promtool, the OpenTelemetry collector) and the schema
# registry serve the tests, which provision them themselves.
bash deploy/local/up.sh kafka ferretdb redis smtp s3 gcs
built_at=$SECONDS
echo "[start] building the apps (TypeScript; about 2 minutes on a fresh clone, seconds when nothing changed)"
npx turbo run build --output-logs=errors-only >/dev/null
echo "[start] built in $((SECONDS - built_at))s"
eval "$(bash scripts/local-env.sh)"
# shellcheck source=apps.sh
source scripts/apps.sh
# Every app shares this machine's cores. V8 gives each process four helper threads for its collections; on few
# cores one process's concurrent marking then takes them from another's requests (docs/performance.md,
# redirect-throughput; ADR 0029). One helper each, unless NODE_OPTIONS already sizes the pool.
[[ ${NODE_OPTIONS:-} == *--v8-pool-size* ]] || export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--v8-pool-size=1"

for entry in "${APPS[@]}"; do
  IFS='|' read -r name script extra <<<"$entry"
  pidfile="$state/$name.pid"
  if [[ -f $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "[start] $name already running (pid $(cat "$pidfile"))"
    continue
  fi
  # shellcheck disable=SC2086 # $extra is a list of VAR=value words
  env $extra nohup node "$script" >>"$state/$name.log" 2>&1 &
  echo $! >"$pidfile"
  echo "[start] $name started (pid $!, log $state/$name.log)"
done

for url in http://127.0.0.1:3002/readyz http://127.0.0.1:3001/readyz http://127.0.0.1:3000/readyz http://127.0.0.1:3003/readyz http://127.0.0.1:3004/readyz http://127.0.0.1:3005/readyz http://127.0.0.1:3006/readyz; do
  for _ in $(seq 1 120); do
    if curl -fsS -m 2 "$url" >/dev/null 2>&1; then break; fi
    sleep 0.5
  done
  curl -fsS -m 2 "$url" >/dev/null || { echo "[start] $url did not become ready; see $state/*.log" >&2; exit 1; }
done

cat <<MSG

The platform is running:
  user management API   http://127.0.0.1:3002      (OpenAPI: http://127.0.0.1:3002/openapi.json)
  scheduling API        http://127.0.0.1:3001      (OAuth metadata: /.well-known/oauth-authorization-server; OpenAPI: /openapi.json)
  scheduling web app    http://127.0.0.1:3000      (developer settings: /settings/developer/oauth)
  image compression API http://127.0.0.1:3003      (OpenAPI: http://127.0.0.1:3003/openapi.json; two image workers)
  notifications API     http://127.0.0.1:3004/api/v2 (OpenAPI: http://127.0.0.1:3004/openapi.json; watch: WebSocket or SSE)
  link-shortening API   http://127.0.0.1:3005/v4  (OpenAPI: http://127.0.0.1:3005/openapi.json)
  short links           http://localhost:3006/<hash> (the redirector; clicks on Kafka topic links.clicks)
  S3 / GCS (store)      $S3_URL (key $S3_ACCESS_KEY_ID) / $GCS_URL
  mailbox (SMTP sink)   $MAILBOX_URL
  logs                  $state/*.log

Create an API key:      npm run -s cli -- keys create usermgmt     (or: images; notifications and links print a user's token)
Create a web user:      npm run -s cli -- users create --email you@example.com --name You [--admin] <<<'a long password'
Create an organization: npm run -s cli -- orgs create --name Acme --owner you@example.com
Stop the apps:          npm stop        (dependencies: npm run deps:down)
MSG
