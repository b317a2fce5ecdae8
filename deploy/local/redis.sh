#!/usr/bin/env bash
# Redis 7 (Debian package redis-server) as our own loopback instance, not the system service.
#
#   redis.sh install | start | stop | status
#
# Env: PLATFORM_REDIS_PORT (6379), PLATFORM_REDIS_START_TIMEOUT (20 s).
set -euo pipefail
COMPONENT=redis
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST="$PLATFORM_HOST"
PORT="$PLATFORM_REDIS_PORT"
START_TIMEOUT="${PLATFORM_REDIS_START_TIMEOUT:-20}"
SD="$(state_dir)"
LOGF="$SD/redis.log"
# redis-server rewrites its process title to "redis-server 127.0.0.1:6379", so the marker is the address.
MARKER="redis-server $HOST:$PORT"

install() {
  command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && return 0
  with_lock apt install_locked
}

install_locked() {
  command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && return 0
  apt_install redis-server redis-tools
  # On machines where package installs start services, Debian's own instance would hold port 6379.
  if [[ -s /run/redis/redis-server.pid ]] && kill -0 "$(cat /run/redis/redis-server.pid)" 2>/dev/null; then
    log "stopping the redis-server system service that the package started"
    service redis-server stop >/dev/null 2>&1 || kill "$(cat /run/redis/redis-server.pid)" 2>/dev/null || true
  fi
  log "installed $(redis-server --version | cut -d' ' -f1-3)"
}

ready() { [[ "$(redis-cli -h "$HOST" -p "$PORT" ping 2>/dev/null)" == "PONG" ]]; }

start() {
  install
  with_lock redis-run start_locked
}

start_locked() {
  local pid
  if is_running "$MARKER"; then
    pid="$(running_pid)"
    if ready; then
      log "already running (pid $pid) at $HOST:$PORT"
      return 0
    fi
    wait_until "$START_TIMEOUT" "$pid" ready || fail_start
    return 0
  fi
  if port_open "$HOST" "$PORT"; then
    if ready; then
      warn "a Redis server not started by these scripts already answers at $HOST:$PORT ($(port_owner "$PORT")); using it"
      return 0
    fi
    die "port $HOST:$PORT is taken by another process: $(port_owner "$PORT")"
  fi
  log "starting (log $LOGF)"
  rm -f "$(pid_file)"
  # redis daemonizes itself and writes the pid file; no persistence (a cache and a queue for tests).
  # shellcheck disable=SC2094 # redis appends to its log itself; we only add its early stderr
  redis-server --port "$PORT" --bind "$HOST" --daemonize yes --dir "$SD" \
    --pidfile "$(pid_file)" --logfile "$LOGF" --save "" --appendonly no \
    </dev/null >>"$LOGF" 2>&1 9>&- || fail_start
  wait_until "$START_TIMEOUT" "" ready || fail_start
  is_running "$MARKER" || fail_start
  log "ready at $HOST:$PORT (pid $(running_pid))"
}

fail_start() {
  show_log_tail "$LOGF"
  die "Redis did not come up at $HOST:$PORT"
}

stop() { with_lock redis-run stop_locked; }

stop_locked() {
  if is_running "$MARKER"; then
    local pid
    pid="$(running_pid)"
    log "stopping (pid $pid)"
    redis-cli -h "$HOST" -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
    stop_pid "$pid" 10
    rm -f "$(pid_file)"
    log "stopped"
  else
    log "not running"
  fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  ready) ready ;;
  stop) stop ;;
  status) print_status "$MARKER" "$HOST:$PORT" ready ;;
  *) usage_component ;;
esac
