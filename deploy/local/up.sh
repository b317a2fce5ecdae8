#!/usr/bin/env bash
# Installs (cached) and starts the local dependencies on loopback, in parallel, and waits until each
# one answers. Running it again while they run is a quick no-op.
#   deploy/local/up.sh [kafka|ferretdb|redis|smtp|s3|gcs|apicurio|promtool|otelcol ...]   (default: all of them)
# promtool and otelcol are tools, not servers: they are only built into the cache (tests/k8s/observability.test.ts).
# Exit 0 when all answer; otherwise non-zero, naming each component that failed with the tail of its log.
# Then: eval "$(deploy/local/env.sh)"
set -euo pipefail
COMPONENT=up
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

components=("$@")
tools=(promtool otelcol)
((${#components[@]})) || components=(kafka ferretdb redis smtp s3 gcs apicurio "${tools[@]}")

run_dir="$PLATFORM_STATE_DIR/up"
mkdir -p "$run_dir"
start_all=$SECONDS

declare -A component_of=()
for c in "${components[@]}"; do
  [[ -x "$DEPLOY_LOCAL_DIR/$c.sh" ]] || die "unknown component '$c' (expected kafka, ferretdb, postgres, redis, smtp, s3, gcs, apicurio, promtool or otelcol)"
done
for c in "${components[@]}"; do
  action=start
  [[ " ${tools[*]} " == *" $c "* ]] && action=install
  "$DEPLOY_LOCAL_DIR/$c.sh" "$action" >"$run_dir/$c.log.$$" 2>&1 &
  component_of[$!]=$c
done

# Say what is still on its way while a cold cache downloads and builds (minutes): each running component's
# log is still named *.log.<pid> until it finishes.
(
  # The sleep holds no output open, so a pipe reading this script ends when it does.
  while sleep 20 >/dev/null 2>&1; do
    pending=("$run_dir"/*.log.$$)
    [[ -e ${pending[0]} ]] || break
    names=("${pending[@]##*/}")
    log "still provisioning after $((SECONDS - start_all))s: ${names[*]%%.log.*}"
  done
) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null || true' EXIT

# Report each component as it finishes.
failed=()
while ((${#component_of[@]})); do
  pid=""
  rc=0
  wait -n -p pid "${!component_of[@]}" || rc=$?
  [[ -n "$pid" ]] || break
  c="${component_of[$pid]}"
  unset "component_of[$pid]"
  mv -f "$run_dir/$c.log.$$" "$run_dir/$c.log"
  if ((rc == 0)); then
    log "$c: up ($((SECONDS - start_all))s)"
  else
    log "$c: FAILED (exit $rc)"
    failed+=("$c")
  fi
done

if ((${#failed[@]})); then
  for c in "${failed[@]}"; do
    log "FAILED: $c did not start. Output of '$c.sh start' ($run_dir/$c.log):"
    tail -n 60 "$run_dir/$c.log" | sed 's/^/    /' >&2
  done
  die "failed to start: ${failed[*]} (state and logs under $PLATFORM_STATE_DIR)"
fi

log "all up in $((SECONDS - start_all))s"
h="$PLATFORM_HOST"
for c in "${components[@]}"; do
  case "$c" in
    kafka) echo "  Kafka     KAFKA_BROKERS=$h:$PLATFORM_KAFKA_PORT" ;;
    ferretdb) echo "  FerretDB  MONGO_URL=mongodb://$h:$PLATFORM_MONGO_PORT" ;;
    redis) echo "  Redis     REDIS_URL=redis://$h:$PLATFORM_REDIS_PORT" ;;
    smtp)
      echo "  SMTP      SMTP_URL=smtp://$h:$PLATFORM_SMTP_PORT"
      echo "  Mailbox   MAILBOX_URL=http://$h:$PLATFORM_MAILBOX_PORT  (Mailpit web UI and /api/v1)"
      ;;
    s3) echo "  S3        S3_URL=http://$h:$PLATFORM_S3_PORT  (S3Proxy, key $PLATFORM_S3_ACCESS_KEY_ID)" ;;
    gcs) echo "  GCS       GCS_URL=http://$h:$PLATFORM_GCS_PORT  (fake-gcs-server)" ;;
    apicurio) echo "  Registry  LOCAL_SCHEMA_REGISTRY_URL=http://$h:$PLATFORM_SCHEMA_REGISTRY_PORT/apis/ccompat/v7  (Apicurio; apps use it only when SCHEMA_REGISTRY_URL is set)" ;;
  esac
done
# shellcheck disable=SC2016 # printed literally
echo '  Load them into a shell with: eval "$(deploy/local/env.sh)"'
