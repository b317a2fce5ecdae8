#!/usr/bin/env bash
# FerretDB 1.24 (MongoDB wire protocol) with its SQLite backend on loopback, built from the Go module.
#
#   ferretdb.sh install | start | stop | status
#
# Env: PLATFORM_MONGO_PORT (27017), PLATFORM_FERRETDB_LOG_LEVEL (warn), PLATFORM_FERRETDB_START_TIMEOUT (30 s).
set -euo pipefail
COMPONENT=ferretdb
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=github.com/FerretDB/FerretDB
TEMPLATE="$DEPLOY_LOCAL_DIR/ferretdb"
VERSION="$(sed -n 's|^require github.com/FerretDB/FerretDB \(v[0-9.]*\)$|\1|p' "$TEMPLATE/go.mod")"
[[ -n "$VERSION" ]] || die "no FerretDB version in $TEMPLATE/go.mod"
BIN="$PLATFORM_CACHE_DIR/bin/ferretdb"
BUILD="$PLATFORM_CACHE_DIR/build/ferretdb"
HOST="$PLATFORM_HOST"
PORT="$PLATFORM_MONGO_PORT"
LOG_LEVEL="${PLATFORM_FERRETDB_LOG_LEVEL:-warn}"
START_TIMEOUT="${PLATFORM_FERRETDB_START_TIMEOUT:-30}"
SD="$(state_dir)"
DATA="$SD/data"
LOGF="$SD/ferretdb.log"
MARKER="$BIN --handler=sqlite --sqlite-url=file:$DATA/"

installed() { [[ -x "$BIN" ]] && "$BIN" --version 2>/dev/null | grep -qx "version: $VERSION"; }

install() {
  installed && return 0
  with_lock ferretdb-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  [[ -e "$BIN" ]] && log "$BIN is not a working FerretDB $VERSION; rebuilding"
  log "building FerretDB $VERSION into $BIN (about a minute the first time)"
  local dir src
  dir="$(go_module_dir "$TEMPLATE" "$BUILD" "$MODULE")"
  src="$BUILD/src-$VERSION"
  copy_module_source "$dir" "$src"
  # The module zip has no build/version/version.txt (it is generated from git in FerretDB's own
  # builds); without it the binary panics at start. Build inside the source as the main module.
  printf '%s\n' "$VERSION" >"$src/build/version/version.txt"
  printf '%s\n' "local-build" >"$src/build/version/package.txt"
  mkdir -p "$(dirname "$BIN")"
  if ! (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -buildvcs=false \
    -o "$BIN.tmp" ./cmd/ferretdb) >"$BUILD/build.log" 2>&1; then
    show_log_tail "$BUILD/build.log" 30
    die "go build of FerretDB $VERSION failed"
  fi
  mv "$BIN.tmp" "$BIN"
  installed || die "$BIN --version does not report $VERSION"
  log "built $BIN"
}

ready() { probe mongo "$HOST" "$PORT"; }

start() {
  install
  with_lock ferretdb-run start_locked
}

start_locked() {
  local pid
  if is_running "$MARKER"; then
    pid="$(running_pid)"
    if ready; then
      log "already running (pid $pid) at $HOST:$PORT"
      return 0
    fi
    log "running (pid $pid) but not answering yet; waiting"
    wait_until "$START_TIMEOUT" "$pid" ready || fail_start
    return 0
  fi
  if port_open "$HOST" "$PORT"; then
    if ready; then
      warn "a MongoDB-compatible server not started by these scripts already answers at $HOST:$PORT ($(port_owner "$PORT")); using it"
      return 0
    fi
    die "port $HOST:$PORT is taken by another process: $(port_owner "$PORT")"
  fi
  mkdir -p "$DATA"
  log "starting (data in $DATA, log $LOGF)"
  # The telemetry is off and the debug HTTP listener is disabled: nothing leaves the machine.
  launch_daemon "$(pid_file)" "$LOGF" \
    "$BIN" --handler=sqlite --sqlite-url="file:$DATA/" --listen-addr="$HOST:$PORT" \
    --state-dir="$SD" --telemetry=disable --debug-addr=- --log-level="$LOG_LEVEL" --log-format=text
  pid="$(running_pid)"
  wait_until "$START_TIMEOUT" "$pid" ready || fail_start
  log "ready at $HOST:$PORT (pid $pid)"
}

fail_start() {
  show_log_tail "$LOGF"
  die "FerretDB did not come up at $HOST:$PORT"
}

stop() { with_lock ferretdb-run stop_locked; }

stop_locked() {
  if is_running "$MARKER"; then
    local pid
    pid="$(running_pid)"
    log "stopping (pid $pid)"
    stop_pid "$pid" 20
    rm -f "$(pid_file)"
    log "stopped"
  else
    log "not running"
  fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status) print_status "$MARKER" "$HOST:$PORT" ready ;;
  *) usage_component ;;
esac
