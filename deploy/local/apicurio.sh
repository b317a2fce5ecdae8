#!/usr/bin/env bash
# Schema registry: Apicurio Registry 2.4 (Maven Central's io.apicurio:apicurio-registry-app, built here into a
# runnable Quarkus application) with in-memory storage, on loopback. Its Confluent-compatible API is at
# /apis/ccompat/v7; the platform writes the Confluent wire format when SCHEMA_REGISTRY_URL names it (ADR 0021).
#
#   apicurio.sh install | installed | start | stop | status | ready | url
#
# Env: PLATFORM_SCHEMA_REGISTRY_PORT (8081), PLATFORM_APICURIO_HEAP (-Xmx384m), PLATFORM_APICURIO_START_TIMEOUT (90 s).
# In-memory storage: a restart forgets every schema (tests register what they use).
set -euo pipefail
COMPONENT=apicurio
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

POM="$DEPLOY_LOCAL_DIR/apicurio/pom.xml"
EXTRA_PROPS="$DEPLOY_LOCAL_DIR/apicurio/application.properties"
APP_DIR="$PLATFORM_CACHE_DIR/apicurio-registry"
BUILD_DIR="$PLATFORM_CACHE_DIR/build/apicurio"
HOST="$PLATFORM_HOST"
PORT="$PLATFORM_SCHEMA_REGISTRY_PORT"
HEAP="${PLATFORM_APICURIO_HEAP:--Xmx384m}"
START_TIMEOUT="${PLATFORM_APICURIO_START_TIMEOUT:-90}"
SD="$(state_dir)"
LOGF="$SD/apicurio.log"
MARKER="$APP_DIR/quarkus-run.jar"
API="http://$HOST:$PORT/apis/ccompat/v7"

# The build is redone when the pom, the added settings or this script change.
build_hash() { cat "$POM" "$EXTRA_PROPS" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-64; }

installed() { [[ -f "$APP_DIR/quarkus-run.jar" && -f "$APP_DIR/.build.sha256" && "$(cat "$APP_DIR/.build.sha256")" == "$(build_hash)" ]]; }

install() { installed || with_lock apicurio-install install_locked; }

install_locked() {
  installed && return 0
  ensure_cmd java openjdk-17-jre-headless
  ensure_cmd mvn maven
  local version mvn_log="$PLATFORM_CACHE_DIR/apicurio-mvn.log"
  version="$(sed -n 's|.*<apicurio.version>\(.*\)</apicurio.version>.*|\1|p' "$POM")"
  [[ -n "$version" ]] || die "no <apicurio.version> in $POM"
  log "building Apicurio Registry $version from Maven Central into $APP_DIR (a few minutes the first time)"
  rm -rf "$BUILD_DIR"
  mkdir -p "$BUILD_DIR/src/main/resources" "$BUILD_DIR/app-jar"
  cp "$POM" "$BUILD_DIR/pom.xml"
  # The registry's own settings live in its jar, where Quarkus does not read build settings from: the
  # application being built here must carry them.
  if ! mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="io.apicurio:apicurio-registry-app:$version" \
    -DoutputDirectory="$BUILD_DIR/app-jar" >"$mvn_log" 2>&1; then
    show_log_tail "$mvn_log" 30
    die "mvn dependency:copy io.apicurio:apicurio-registry-app:$version failed"
  fi
  {
    unzip -p "$BUILD_DIR/app-jar/apicurio-registry-app-$version.jar" application.properties
    printf '\n'
    cat "$EXTRA_PROPS"
  } >"$BUILD_DIR/src/main/resources/application.properties"
  if ! (cd "$BUILD_DIR" && mvn -B -Dstyle.color=never package -DskipTests) >"$mvn_log" 2>&1; then
    show_log_tail "$mvn_log" 30
    die "building Apicurio Registry failed (log $mvn_log)"
  fi
  rm -rf "$APP_DIR.tmp"
  mv "$BUILD_DIR/target/quarkus-app" "$APP_DIR.tmp"
  build_hash >"$APP_DIR.tmp/.build.sha256"
  rm -rf "$APP_DIR"
  mv "$APP_DIR.tmp" "$APP_DIR"
  rm -rf "$BUILD_DIR"
  log "Apicurio Registry $version built ($(du -sh "$APP_DIR" | cut -f1))"
}

ready() { probe http "$API/subjects"; }

start() {
  install
  with_lock apicurio-run start_locked
}

start_locked() {
  if is_running "$MARKER"; then
    log "already running (pid $(running_pid)) at $API"
    wait_until "$START_TIMEOUT" "$(running_pid)" ready || fail_start
    return 0
  fi
  if port_open "$HOST" "$PORT"; then
    if ready; then
      warn "a schema registry not started by this script answers at $API; using it"
      return 0
    fi
    die "port $HOST:$PORT is taken by another process: $(port_owner "$PORT")"
  fi
  mkdir -p "$SD"
  log "starting Apicurio Registry (log $LOGF)"
  # shellcheck disable=SC2086 # HEAP may hold several JVM flags
  launch_daemon "$(pid_file)" "$LOGF" \
    java $HEAP -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dquarkus.http.host="$HOST" -Dquarkus.http.port="$PORT" \
    -jar "$APP_DIR/quarkus-run.jar"
  wait_until "$START_TIMEOUT" "$(running_pid)" ready || fail_start
  log "ready at $API (pid $(running_pid))"
}

fail_start() {
  show_log_tail "$LOGF" 40
  die "Apicurio Registry did not come up at $API"
}

stop() { with_lock apicurio-run stop_running "$MARKER" 20; }

case "${1:-}" in
  install) install ;;
  installed) installed ;;
  start) start ;;
  ready) ready ;;
  stop) stop ;;
  url) echo "$API" ;;
  status) print_status "$MARKER" "$API" ready ;;
  *) usage_component ;;
esac
