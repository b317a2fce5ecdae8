#!/usr/bin/env bash
# FerretDB 1.24 (MongoDB wire protocol) on loopback, built from the Go module with the platform's patch, on
# PostgreSQL (postgres.sh, started first) or, when PLATFORM_FERRETDB_BACKEND=sqlite, on SQLite files.
#
#   ferretdb.sh install | installed | start | ready | stop | status
#
# Env: PLATFORM_MONGO_PORT (27017), PLATFORM_FERRETDB_BACKEND (postgresql | sqlite),
#      PLATFORM_FERRETDB_LOG_LEVEL (warn), PLATFORM_FERRETDB_START_TIMEOUT (30 s),
#      PLATFORM_FERRETDB_GOMAXPROCS (1), PLATFORM_FERRETDB_GOGC (400).
set -euo pipefail
COMPONENT=ferretdb
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=github.com/FerretDB/FerretDB
TEMPLATE="$DEPLOY_LOCAL_DIR/ferretdb"
PATCH="$TEMPLATE/platform.patch"
VERSION="$(go_mod_version "$TEMPLATE" "$MODULE" FerretDB)"
BIN="$PLATFORM_CACHE_DIR/bin/ferretdb"
BUILD="$PLATFORM_CACHE_DIR/build/ferretdb"
HOST="$PLATFORM_HOST"
PORT="$PLATFORM_MONGO_PORT"
BACKEND="${PLATFORM_FERRETDB_BACKEND:-postgresql}"
LOG_LEVEL="${PLATFORM_FERRETDB_LOG_LEVEL:-warn}"
START_TIMEOUT="${PLATFORM_FERRETDB_START_TIMEOUT:-30}"
SD="$(state_dir)"
LOGF="$SD/ferretdb.log"
case "$BACKEND" in
  postgresql)
    # pool_max_conns: each write of an existing document takes one more query (read under its lock).
    BACKEND_ARGS=(--handler=postgresql
      --postgresql-url="postgres://platform@$HOST:$PLATFORM_POSTGRES_PORT/ferretdb?pool_max_conns=64")
    ;;
  sqlite)
    # WAL with synchronous=NORMAL: commits survive a crash of FerretDB or of any app, not a power loss.
    BACKEND_ARGS=(--handler=sqlite --sqlite-url="file:$SD/data/?_pragma=synchronous(normal)")
    ;;
  *) die "PLATFORM_FERRETDB_BACKEND must be postgresql or sqlite, not '$BACKEND'" ;;
esac
MARKER="$BIN ${BACKEND_ARGS[0]} ${BACKEND_ARGS[1]%%\?*}"

# Go's runtime on a machine whose two cores every process shares (issue 41). With one P, a goroutine woken by
# the network runs on the thread that woke it: no spinning threads looking for work, fewer context switches
# and sysmon wake-ups, about a third of FerretDB's CPU before. A heap allowed to grow to five times what is live
# (50 MB) runs the collector a quarter as often. FerretDB's CPU per user creation: 1.76-1.85 ms with Go's
# defaults, 1.48 with one P, 1.28 with both (docs/performance.md). A running instance started with other
# settings is restarted with these.
GO_RUNTIME_ENV=("GOMAXPROCS=${PLATFORM_FERRETDB_GOMAXPROCS:-1}" "GOGC=${PLATFORM_FERRETDB_GOGC:-400}")
go_runtime_env_of() {
  local environ e
  environ="$(tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null)" || return 1
  for e in "${GO_RUNTIME_ENV[@]}"; do
    [[ $'\n'"$environ"$'\n' == *$'\n'"$e"$'\n'* ]] || return 1
  done
}

# The platform's patch (platform.patch, ADR 0006 and 0010): single-document atomicity with per-document
# locks instead of none (a delete of many locks and deletes 100 at a time), an upsert that races with an insert
# retried as MongoDB does, and filters pushed down to indexes (_id with =, equality through GIN indexes,
# $gt/$gte/$lt/$lte and $in through btree indexes; a filter naming documents by _id by its _id alone).
# Its hash is the patch level: a changed patch rebuilds the cached binary and restarts a running instance.
patch_level() { sha256sum "$PATCH" | cut -d' ' -f1; }

# The version is captured, then matched in bash: piping it into a reader that exits at its first match lets
# the writer die of SIGPIPE, which fails the whole check now and then under pipefail
# (tests/integration/provisioning.test.ts runs every such check in a loop).
installed() {
  [[ -x "$BIN" ]] || return 1
  local version
  version="$("$BIN" --version 2>/dev/null)" || return 1
  [[ $'\n'"$version"$'\n' == *$'\n'"version: $VERSION"$'\n'* ]] &&
    [[ "$(cat "$BIN.patch-level" 2>/dev/null)" == "$(patch_level)" ]]
}

install() {
  installed && return 0
  with_lock ferretdb-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  ensure_cmd patch patch
  [[ -e "$BIN" ]] && log "$BIN is not a working FerretDB $VERSION; rebuilding"
  log "building FerretDB $VERSION into $BIN (about a minute the first time)"
  local src="$BUILD/src-$VERSION"
  module_source "$TEMPLATE" "$BUILD" "$MODULE" "$src"
  # The module zip has no build/version/version.txt (it is generated from git in FerretDB's own
  # builds); without it the binary panics at start. Build inside the source as the main module.
  printf '%s\n' "$VERSION" >"$src/build/version/version.txt"
  printf '%s\n' "local-build" >"$src/build/version/package.txt"
  (cd "$src" && patch -p1 --quiet --forward <"$PATCH") >"$BUILD/patch.log" 2>&1 || {
    show_log_tail "$BUILD/patch.log"
    die "platform.patch no longer applies to FerretDB $VERSION"
  }
  go_build "$src" "$BIN" "FerretDB $VERSION" CGO_ENABLED=0 GOFLAGS=-mod=mod -- -buildvcs=false ./cmd/ferretdb
  patch_level >"$BIN.patch-level"
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
    # Its backend too: PostgreSQL restarts once when its settings changed (FerretDB reconnects), and comes back
    # if it was stopped under a running FerretDB.
    start_backend
    # A binary rebuilt since this instance started (a new patch level) replaces it.
    if [[ "$(stat -c %Y "$BIN")" -gt "$(date -d "$(ps -o lstart= -p "$pid")" +%s 2>/dev/null || echo 0)" ]]; then
      log "the running instance (pid $pid) predates $BIN; restarting it"
      stop_locked
      start_locked
      return
    fi
    if ! go_runtime_env_of "$pid"; then
      log "the running instance (pid $pid) has other Go runtime settings than ${GO_RUNTIME_ENV[*]}; restarting it"
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
  start_backend
  log "starting on $BACKEND (log $LOGF)"
  # The telemetry is off and the debug HTTP listener is disabled: nothing leaves the machine.
  launch_daemon "$(pid_file)" "$LOGF" \
    env "${GO_RUNTIME_ENV[@]}" "$BIN" "${BACKEND_ARGS[@]}" --listen-addr="$HOST:$PORT" \
    --state-dir="$SD" --telemetry=disable --debug-addr=- --log-level="$LOG_LEVEL" --log-format=text
  pid="$(running_pid)"
  wait_until "$START_TIMEOUT" "$pid" ready || fail_start
  log "ready at $HOST:$PORT (pid $pid)"
}

start_backend() {
  case "$BACKEND" in
    postgresql)
      "$DEPLOY_LOCAL_DIR/postgres.sh" start
      "$DEPLOY_LOCAL_DIR/postgres.sh" create-database ferretdb
      ;;
    sqlite) mkdir -p "$SD/data" ;;
  esac
}

fail_start() {
  show_log_tail "$LOGF"
  die "FerretDB did not come up at $HOST:$PORT"
}

stop() { with_lock ferretdb-run stop_locked; }

stop_locked() { stop_running "$MARKER" 20; }

case "${1:-}" in
  install) install ;;
  installed) installed ;;
  start) start ;;
  ready) ready ;;
  stop) stop ;;
  status) print_status "$MARKER" "$HOST:$PORT" ready ;;
  *) usage_component ;;
esac
