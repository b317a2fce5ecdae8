#!/usr/bin/env bash
# PostgreSQL (Debian's package) on loopback: the storage of the local FerretDB (ferretdb.sh starts it first).
#
#   postgres.sh install | installed | start | ready | stop | status
#
# Env: PLATFORM_POSTGRES_PORT (15432), PLATFORM_POSTGRES_START_TIMEOUT (30 s without an answer),
# PLATFORM_POSTGRES_START_CAP (900 s in all while the server answers that it is still starting: crash recovery).
# The cluster lives in $PLATFORM_STATE_DIR/postgres/data, tuned for a disposable local store (ADR 0010):
# synchronous_commit=off (a crash of PostgreSQL or of the machine can lose the last ~0.6 s of commits, never
# corrupts), fsync stays on. Trust authentication, on 127.0.0.1 and a Unix socket in the state folder only.
set -euo pipefail
COMPONENT=postgres
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST="$PLATFORM_HOST"
PORT="$PLATFORM_POSTGRES_PORT"
START_TIMEOUT="${PLATFORM_POSTGRES_START_TIMEOUT:-30}"
START_CAP="${PLATFORM_POSTGRES_START_CAP:-900}"
SD="$(state_dir)"
DATA="$SD/data"
LOGF="$SD/postgres.log"
# PostgreSQL refuses to run as root: then the cluster belongs to Debian's `postgres` system user.
RUN_AS=()
if [[ "$(id -u)" -eq 0 ]]; then RUN_AS=(setpriv --reuid=postgres --regid=postgres --init-groups --reset-env); fi
MARKER="-D $DATA"

pg_bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x "$d/postgres" && -x "$d/initdb" && -x "$d/pg_ctl" ]] && printf '%s\n' "$d"
  done | sort -V | tail -n1
}

installed() {
  [[ -n "$(pg_bindir)" ]] && command -v pg_isready >/dev/null 2>&1 && command -v psql >/dev/null 2>&1 &&
    { [[ "$(id -u)" -ne 0 ]] || { id postgres >/dev/null 2>&1 && command -v setfacl >/dev/null 2>&1; }; }
}

install() {
  installed && return 0
  with_lock apt install_locked
  installed || die "PostgreSQL is still missing after installing Debian's postgresql package"
}
install_locked() {
  installed || apt_install postgresql postgresql-client acl
}

# The system user needs to reach its data folder under this user's home: grant it search (x) only, by ACL,
# on each folder above that it cannot traverse yet. Nothing else of the home becomes readable.
grant_traversal() {
  local dir="$1"
  while [[ "$dir" != / ]]; do
    if ! "${RUN_AS[@]}" test -x "$dir"; then
      setfacl -m u:postgres:x "$dir" || die "could not let the postgres user traverse $dir (setfacl)"
    fi
    dir="$(dirname "$dir")"
  done
}

as_owner() { "${RUN_AS[@]}" env PATH="$(pg_bindir):/usr/bin:/bin" "$@"; }

ready() { pg_isready -q -h "$HOST" -p "$PORT" -d postgres -U platform -t 2; }

# wait_ready PID: until the server accepts connections. pg_isready exits 1 while the server answers but
# rejects connections (starting up, replaying WAL after an unclean stop, which beside a build can take
# minutes): that is progress, so only START_TIMEOUT without any answer fails, or START_CAP in all.
wait_ready() {
  local pid="$1" rc idle_deadline hard_deadline next_note
  idle_deadline=$((SECONDS + START_TIMEOUT))
  hard_deadline=$((SECONDS + START_CAP))
  next_note=$((SECONDS + 30))
  while true; do
    rc=0
    pg_isready -q -h "$HOST" -p "$PORT" -d postgres -U platform -t 2 || rc=$?
    ((rc == 0)) && return 0
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      log "process $pid exited while starting"
      return 1
    fi
    if ((rc == 1)); then
      idle_deadline=$((SECONDS + START_TIMEOUT))
      if ((SECONDS >= next_note)); then
        log "still starting (recovering after an unclean stop?): $(grep -E 'redo (starts|in progress|done)' "$LOGF" 2>/dev/null | tail -n1 | cut -c1-160)"
        next_note=$((SECONDS + 30))
      fi
    fi
    ((SECONDS < idle_deadline)) || {
      log "no answer after ${START_TIMEOUT}s"
      return 1
    }
    ((SECONDS < hard_deadline)) || {
      log "not accepting connections after ${START_CAP}s"
      return 1
    }
    sleep 0.5
  done
}

# pg_stat_statements counts the statements of each query shape: `npm run bench` reads from it how many SQL
# statements a command costs (docs/performance.md).
# Statistics within a second or two of a burst into a new table (autovacuum's analyze): without them the planner
# judges a table by its few main pages (the documents sit in TOAST), prefers a scan to the _id index, and pays
# for detoasting every row; a webhook burst of 2 000 spent 150 ms a query so (docs/performance.md).
render_settings() {
  cat <<CONF
listen_addresses = '$HOST'
port = $PORT
unix_socket_directories = '$SD'
max_connections = 200
shared_buffers = 256MB
effective_cache_size = 1GB
work_mem = 16MB
maintenance_work_mem = 128MB
synchronous_commit = off
wal_level = minimal
max_wal_senders = 0
wal_buffers = 16MB
checkpoint_timeout = 5min
max_wal_size = 1GB
random_page_cost = 1.1
jit = off
log_destination = 'stderr'
logging_collector = off
log_min_duration_statement = ${PLATFORM_POSTGRES_LOG_SLOW_MS:--1}
log_line_prefix = '%m [%p] '
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
pg_stat_statements.max = 10000
autovacuum_naptime = 1s
autovacuum_analyze_threshold = 100
autovacuum_analyze_scale_factor = 0.05
CONF
}

# Regenerated on every start, like Kafka's server.properties: edit this script, not the file.
write_settings() { render_settings >"$SD/platform.conf"; }

settings_changed() { [[ -f "$SD/platform.conf" ]] && ! render_settings | cmp -s - "$SD/platform.conf"; }

init_cluster() {
  [[ -s "$DATA/PG_VERSION" ]] && return 0
  log "initialising a cluster in $DATA"
  rm -rf "$DATA"
  mkdir -p "$DATA"
  if ((${#RUN_AS[@]})); then
    chown -R postgres:postgres "$SD"
    grant_traversal "$SD"
  fi
  as_owner initdb -D "$DATA" -U platform --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$SD/initdb.log" 2>&1 || {
    show_log_tail "$SD/initdb.log"
    die "initdb failed"
  }
  printf "include '%s'\n" "$SD/platform.conf" >>"$DATA/postgresql.conf"
}

start() {
  install
  with_lock postgres-run start_locked
}

start_locked() {
  if is_running "$MARKER" && settings_changed; then
    log "the settings have changed: restarting once to apply them"
    stop_locked
  fi
  if is_running "$MARKER"; then
    if ready; then
      log "already running (pid $(running_pid)) at $HOST:$PORT"
      return 0
    fi
    wait_ready "$(running_pid)" || fail_start
    return 0
  fi
  if port_open "$HOST" "$PORT"; then
    die "port $HOST:$PORT is taken by another process: $(port_owner "$PORT") (set PLATFORM_POSTGRES_PORT)"
  fi
  init_cluster
  write_settings
  if ((${#RUN_AS[@]})); then
    chown postgres:postgres "$SD" "$SD/platform.conf"
    touch "$LOGF" && chown postgres:postgres "$LOGF"
    grant_traversal "$SD"
  fi
  log "starting (data in $DATA, log $LOGF)"
  launch_daemon "$(pid_file)" "$LOGF" "${RUN_AS[@]}" env PATH="$(pg_bindir):/usr/bin:/bin" postgres -D "$DATA"
  local pid
  pid="$(running_pid)"
  wait_ready "$pid" || fail_start
  log "ready at $HOST:$PORT (pid $pid)"
}

fail_start() {
  show_log_tail "$LOGF"
  die "PostgreSQL did not come up at $HOST:$PORT"
}

# create_database NAME: idempotent.
create_database() {
  local name="$1" exists
  exists="$(psql -h "$HOST" -p "$PORT" -U platform -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$name'")"
  [[ "$exists" == 1 ]] || psql -h "$HOST" -p "$PORT" -U platform -d postgres -qc "CREATE DATABASE \"$name\"" >/dev/null
}

stop() { with_lock postgres-run stop_locked; }

# SIGINT is PostgreSQL's fast shutdown: sessions are ended, a checkpoint is written.
stop_locked() { stop_running "$MARKER" 30 INT; }

case "${1:-}" in
  install) install ;;
  installed) installed ;;
  start) start ;;
  ready) ready ;;
  stop) stop ;;
  status) print_status "$MARKER" "$HOST:$PORT" ready ;;
  create-database) create_database "${2:?database name}" ;;
  *) usage_component ;;
esac
