#!/usr/bin/env bash
# Stops the local dependencies started by up.sh (or by the component scripts). Data stays in
# $PLATFORM_STATE_DIR; see README.md to reset it.
#   deploy/local/down.sh [kafka|ferretdb|redis|smtp|s3|gcs|apicurio ...]   (default: all seven)
set -euo pipefail
COMPONENT=down
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

components=("$@")
((${#components[@]})) || components=(kafka ferretdb redis smtp s3 gcs apicurio)

declare -A pids=()
for c in "${components[@]}"; do
  [[ -x "$DEPLOY_LOCAL_DIR/$c.sh" ]] || die "unknown component '$c' (expected kafka, ferretdb, postgres, redis, smtp, s3, gcs or apicurio)"
  "$DEPLOY_LOCAL_DIR/$c.sh" stop &
  pids[$c]=$!
done
failed=()
for c in "${components[@]}"; do
  wait "${pids[$c]}" || failed+=("$c")
done
# FerretDB's PostgreSQL goes last, once FerretDB no longer uses it.
if [[ " ${components[*]} " == *" ferretdb "* && " ${components[*]} " != *" postgres "* ]]; then
  "$DEPLOY_LOCAL_DIR/postgres.sh" stop || failed+=(postgres)
fi
((${#failed[@]} == 0)) || die "could not stop: ${failed[*]}"
log "stopped: ${components[*]}"
