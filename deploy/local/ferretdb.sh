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
# WAL with synchronous=NORMAL: commits survive a crash of FerretDB or of any app, not a power loss, and no
# longer wait for an fsync each (measured: 15.7 ms -> see docs/performance.md per conditional update).
# Bumping PATCH_LEVEL below restarts instances started with other settings.
SQLITE_PRAGMAS="_pragma=synchronous(normal)"

# Bump when the local patch below changes, so that cached binaries are rebuilt.
PATCH_LEVEL=atomic-writes-id-pushdown-3
installed() {
  [[ -x "$BIN" ]] && "$BIN" --version 2>/dev/null | grep -qx "version: $VERSION" &&
    [[ "$(cat "$BIN.patch-level" 2>/dev/null)" == "$PATCH_LEVEL" ]]
}

# FerretDB 1.x applies an update by querying, changing the document in Go and writing it back, with no
# isolation between concurrent writers: two updates of one document race and one is lost (measured: 49 of
# 50 concurrent pairs), and conditional updates (compare-and-set) all "match". MongoDB guarantees
# single-document atomicity and the platform relies on it (outbox clears, leases, versioned updates), so
# the local build serialises FerretDB's update, findAndModify and delete handlers with one mutex. Reads
# and inserts are unaffected. See docs/adr/0006-ferretdb-atomic-writes.md.
# Second patch: the SQLite backend uses the primary key only when the filter is exactly {_id}; any other
# key with it (a conditional update {_id, version}) scans and decodes the whole collection. The handlers
# re-apply the full filter to what the backend returns, so pushing down the _id equality whenever the
# filter has one is always correct.
patch_atomic_writes() {
  local handler="$1/internal/handler" f
  cat >"$handler/platform_write_lock.go" <<'GO'
package handler

import "sync"

// writeMu serialises read-modify-write operations (local platform patch: single-document atomicity).
var writeMu sync.Mutex
GO
  for f in msg_update msg_findandmodify msg_delete; do
    sed -i -E 's/^(func \(h \*Handler\) Msg(Update|FindAndModify|Delete)\(connCtx context\.Context, msg \*wire\.OpMsg\) \(\*wire\.OpMsg, error\) \{)$/\1\n\twriteMu.Lock()\n\tdefer writeMu.Unlock()/' "$handler/$f.go"
    grep -q 'writeMu.Lock()' "$handler/$f.go" || die "could not patch $f.go of FerretDB $VERSION"
  done
  local collection="$1/internal/backends/sqlite/collection.go"
  sed -i 's/^\tif params\.Filter\.Len() == 1 {$/\tif params.Filter.Len() > 0 \&\& params.Filter.Has("_id") {/' "$collection"
  [[ "$(grep -c 'params.Filter.Has("_id")' "$collection")" == 2 ]] || die "could not patch the _id pushdown of FerretDB $VERSION"
}

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
  patch_atomic_writes "$src"
  mkdir -p "$(dirname "$BIN")"
  if ! (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -buildvcs=false \
    -o "$BIN.tmp" ./cmd/ferretdb) >"$BUILD/build.log" 2>&1; then
    show_log_tail "$BUILD/build.log" 30
    die "go build of FerretDB $VERSION failed"
  fi
  mv "$BIN.tmp" "$BIN"
  printf '%s\n' "$PATCH_LEVEL" >"$BIN.patch-level"
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
    # A binary rebuilt since this instance started (a new patch level) replaces it.
    if [[ "$(stat -c %Y "$BIN")" -gt "$(date -d "$(ps -o lstart= -p "$pid")" +%s 2>/dev/null || echo 0)" ]]; then
      log "the running instance (pid $pid) predates $BIN; restarting it"
      stop_locked
      start_locked
      return
    fi
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
    "$BIN" --handler=sqlite --sqlite-url="file:$DATA/?$SQLITE_PRAGMAS" --listen-addr="$HOST:$PORT" \
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
