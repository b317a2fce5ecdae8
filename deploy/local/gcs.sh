#!/usr/bin/env bash
# GCS-compatible object store for the image service's store option: fake-gcs-server (Go module), plain
# HTTP on loopback, filesystem backend. It speaks the JSON API (uploads, object reads) of Cloud Storage.
#
#   gcs.sh install | start | stop | status
#
# Env: PLATFORM_GCS_PORT (4443), PLATFORM_GCS_START_TIMEOUT (30 s).
set -euo pipefail
COMPONENT=gcs
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=github.com/fsouza/fake-gcs-server
TEMPLATE="$DEPLOY_LOCAL_DIR/gcs"
VERSION="$(go_mod_version "$TEMPLATE" "$MODULE" fake-gcs-server)"
BIN="$PLATFORM_CACHE_DIR/bin/fake-gcs-server"
BUILD="$PLATFORM_CACHE_DIR/build/fake-gcs-server"
HOST="$PLATFORM_HOST"
PORT="$PLATFORM_GCS_PORT"
START_TIMEOUT="${PLATFORM_GCS_START_TIMEOUT:-30}"
SD="$(state_dir)"
DATA="$SD/data"
LOGF="$SD/fake-gcs-server.log"
MARKER="$BIN -scheme http -host $HOST -port $PORT"

installed() { bin_stamped "$BIN" "$VERSION"; }

install() {
  installed && return 0
  with_lock gcs-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  log "building fake-gcs-server $VERSION into $BIN (about two minutes the first time)"
  local src="$BUILD/src-$VERSION"
  module_source "$TEMPLATE" "$BUILD" "$MODULE" "$src"
  go_build "$src" "$BIN" fake-gcs-server GOFLAGS=-mod=mod CGO_ENABLED=0 -- .
  printf '%s\n' "$VERSION" >"$BIN.version"
  rm -rf "$src"
}

ready() { probe http "http://$HOST:$PORT/storage/v1/b"; }

start() {
  install
  with_lock gcs-run start_locked
}

start_locked() {
  resume_running "$MARKER" "$HOST:$PORT" && return 0
  if port_open "$HOST" "$PORT"; then
    die "port $HOST:$PORT is taken by another process: $(port_owner "$PORT")"
  fi
  mkdir -p "$DATA"
  log "starting fake-gcs-server (log $LOGF)"
  launch_daemon "$(pid_file)" "$LOGF" \
    "$BIN" -scheme http -host "$HOST" -port "$PORT" -backend filesystem -filesystem-root "$DATA" \
    -external-url "http://$HOST:$PORT" -public-host "$HOST:$PORT" -log-level warn
  wait_until "$START_TIMEOUT" "$(running_pid)" ready || fail_start
  log "ready at http://$HOST:$PORT (pid $(running_pid))"
}

fail_start() {
  show_log_tail "$LOGF" 30
  die "fake-gcs-server did not come up at $HOST:$PORT"
}

stop() { with_lock gcs-run stop_running "$MARKER" 10; }

case "${1:-}" in
  install) install ;;
  start) start ;;
  installed) installed ;;
  ready) ready ;;
  stop) stop ;;
  status) print_status "$MARKER" "http://$HOST:$PORT" ready ;;
  *) usage_component ;;
esac
