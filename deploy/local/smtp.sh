#!/usr/bin/env bash
# SMTP server with a readable mailbox: Mailpit, built from its Go module (web UI built with npm).
#
#   smtp.sh install | start | stop | status
#
# SMTP on 127.0.0.1:1025 (any or no AUTH, no TLS), HTTP API and web UI on 127.0.0.1:8025.
# Env: PLATFORM_SMTP_PORT (1025), PLATFORM_MAILBOX_PORT (8025), PLATFORM_MAILPIT_MAX (5000 messages kept),
#      PLATFORM_SMTP_START_TIMEOUT (20 s).
set -euo pipefail
COMPONENT=smtp
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=github.com/axllent/mailpit
TEMPLATE="$DEPLOY_LOCAL_DIR/smtp"
VERSION="$(go_mod_version "$TEMPLATE" "$MODULE" Mailpit)"
BIN="$PLATFORM_CACHE_DIR/bin/mailpit"
BUILD="$PLATFORM_CACHE_DIR/build/mailpit"
HOST="$PLATFORM_HOST"
SMTP_PORT="$PLATFORM_SMTP_PORT"
HTTP_PORT="$PLATFORM_MAILBOX_PORT"
MAX="${PLATFORM_MAILPIT_MAX:-5000}"
START_TIMEOUT="${PLATFORM_SMTP_START_TIMEOUT:-20}"
SD="$(state_dir)"
LOGF="$SD/mailpit.log"
MARKER="$BIN --smtp $HOST:$SMTP_PORT"

# Mailpit asks GitHub for its latest release (`version`, /api/v1/info, the UI's About box). Point its
# HTTP proxy at a closed loopback port so such calls fail at once instead of reaching out; loopback
# addresses are never proxied by Go, so nothing local is affected.
# shellcheck disable=SC2054 # the commas belong to NO_PROXY's value
OFFLINE_ENV=(env HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9
  https_proxy=http://127.0.0.1:9 NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1)
offline() { "${OFFLINE_ENV[@]}" "$@"; }

# The version is captured, then matched in bash: a pipe into an early-exiting reader fails now and then (SIGPIPE).
installed() {
  [[ -x "$BIN" ]] || return 1
  local version
  version="$(offline "$BIN" version 2>/dev/null)" || return 1
  [[ "$version" == *" $VERSION compiled with "* ]]
}

install() {
  installed && return 0
  with_lock mailpit-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  log "building Mailpit $VERSION into $BIN (about a minute the first time)"
  local src="$BUILD/src-$VERSION"
  module_source "$TEMPLATE" "$BUILD" "$MODULE" "$src"
  # The module zip carries the web UI sources but not the bundled assets (server/ui/dist, built by
  # esbuild in Mailpit's release pipeline). Build them; the HTTP API and SMTP work even without them.
  if command -v npm >/dev/null 2>&1 &&
    (cd "$src" && npm ci --no-audit --no-fund --loglevel=error && npm run build) >"$BUILD/ui.log" 2>&1; then
    rm -rf "$src/node_modules"
  else
    show_log_tail "$BUILD/ui.log" 15
    warn "could not build Mailpit's web UI assets; the SMTP server and the HTTP API work, the web page will not"
  fi
  go_build "$src" "$BIN" "Mailpit $VERSION" CGO_ENABLED=0 GOFLAGS=-mod=mod -- \
    -buildvcs=false -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$VERSION" .
  installed || die "$BIN version does not report $VERSION"
  log "built $BIN"
}

ready() {
  probe smtp "$HOST" "$SMTP_PORT" && probe http "http://$HOST:$HTTP_PORT/api/v1/messages?limit=1"
}

start() {
  install
  with_lock smtp-run start_locked
}

start_locked() {
  local pid p
  if is_running "$MARKER"; then
    pid="$(running_pid)"
    if ready; then
      log "already running (pid $pid): SMTP $HOST:$SMTP_PORT, mailbox http://$HOST:$HTTP_PORT"
      return 0
    fi
    wait_until "$START_TIMEOUT" "$pid" ready || fail_start
    return 0
  fi
  if port_open "$HOST" "$SMTP_PORT" || port_open "$HOST" "$HTTP_PORT"; then
    if ready; then
      warn "an SMTP server and mailbox not started by these scripts already answer at $HOST:$SMTP_PORT and :$HTTP_PORT; using them"
      return 0
    fi
    for p in "$SMTP_PORT" "$HTTP_PORT"; do
      port_open "$HOST" "$p" && die "port $HOST:$p is taken by another process: $(port_owner "$p")"
    done
  fi
  log "starting (mailbox database $SD/mailpit.db, log $LOGF)"
  launch_daemon "$(pid_file)" "$LOGF" "${OFFLINE_ENV[@]}" \
    "$BIN" --smtp "$HOST:$SMTP_PORT" --listen "$HOST:$HTTP_PORT" \
    --smtp-auth-accept-any --smtp-auth-allow-insecure --smtp-disable-rdns \
    --block-remote-css-and-fonts --database "$SD/mailpit.db" --max "$MAX"
  pid="$(running_pid)"
  wait_until "$START_TIMEOUT" "$pid" ready || fail_start
  log "ready (pid $pid): SMTP $HOST:$SMTP_PORT, mailbox http://$HOST:$HTTP_PORT"
}

fail_start() {
  show_log_tail "$LOGF"
  die "Mailpit did not come up at SMTP $HOST:$SMTP_PORT / HTTP $HOST:$HTTP_PORT"
}

stop() { with_lock smtp-run stop_locked; }

stop_locked() { stop_running "$MARKER" 20; }

case "${1:-}" in
  install) install ;;
  start) start ;;
  installed) installed ;;
  ready) ready ;;
  stop) stop ;;
  status) print_status "$MARKER" "smtp://$HOST:$SMTP_PORT http://$HOST:$HTTP_PORT" ready ;;
  *) usage_component ;;
esac
