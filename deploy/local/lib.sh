# shellcheck shell=bash
# Shared helpers for deploy/local/*.sh. Source it; do not run it.
#
#   PLATFORM_CACHE_DIR  downloads and builds (default ~/.cache/platform): bin/, kafka-libs/, build/
#   PLATFORM_STATE_DIR  data, logs and pid files (default ~/.local/state/platform): <component>/
#
# Every script that sources this file sets COMPONENT first and uses `set -euo pipefail`.

DEPLOY_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PLATFORM_CACHE_DIR="${PLATFORM_CACHE_DIR:-$HOME/.cache/platform}"
PLATFORM_STATE_DIR="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}"
# Every server listens on this address only. Loopback by default; the scripts are not meant for anything else.
PLATFORM_HOST="${PLATFORM_HOST:-127.0.0.1}"
export PLATFORM_CACHE_DIR PLATFORM_STATE_DIR PLATFORM_HOST

# Endpoint defaults (override by exporting the variable before calling any script, env.sh included).
PLATFORM_KAFKA_PORT="${PLATFORM_KAFKA_PORT:-9092}"
PLATFORM_KAFKA_CONTROLLER_PORT="${PLATFORM_KAFKA_CONTROLLER_PORT:-9093}"
# A second Kafka client listener (PROXIED) that advertises PLATFORM_KAFKA_PROXY_PORT, where a test's TCP proxy
# listens and forwards to it: the broker outage tests cut that proxy, not the shared broker.
PLATFORM_KAFKA_PROXIED_PORT="${PLATFORM_KAFKA_PROXIED_PORT:-9094}"
PLATFORM_KAFKA_PROXY_PORT="${PLATFORM_KAFKA_PROXY_PORT:-9095}"
PLATFORM_MONGO_PORT="${PLATFORM_MONGO_PORT:-27017}"
PLATFORM_POSTGRES_PORT="${PLATFORM_POSTGRES_PORT:-15432}"
PLATFORM_REDIS_PORT="${PLATFORM_REDIS_PORT:-6379}"
PLATFORM_SMTP_PORT="${PLATFORM_SMTP_PORT:-1025}"
PLATFORM_MAILBOX_PORT="${PLATFORM_MAILBOX_PORT:-8025}"
PLATFORM_S3_PORT="${PLATFORM_S3_PORT:-9000}"
PLATFORM_GCS_PORT="${PLATFORM_GCS_PORT:-4443}"
PLATFORM_SCHEMA_REGISTRY_PORT="${PLATFORM_SCHEMA_REGISTRY_PORT:-8081}"
# The local S3 server's one access key: fixed test credentials, not secrets (the server is on loopback).
PLATFORM_S3_ACCESS_KEY_ID="${PLATFORM_S3_ACCESS_KEY_ID:-AKIALOCALPLATFORM01}"
PLATFORM_S3_SECRET_ACCESS_KEY="${PLATFORM_S3_SECRET_ACCESS_KEY:-local-platform-s3-secret-key}"

COMPONENT="${COMPONENT:-platform}"

log() { printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "$COMPONENT" "$*" >&2; }
warn() { log "WARNING: $*"; }
die() {
  log "ERROR: $*"
  exit 1
}

# Directory of this component's runtime state (created on demand).
state_dir() {
  local d="$PLATFORM_STATE_DIR/$COMPONENT"
  mkdir -p "$d"
  printf '%s\n' "$d"
}

pid_file() { printf '%s/%s.pid\n' "$(state_dir)" "$COMPONENT"; }

# Prints the pid recorded in $1 when it is a number; fails otherwise.
read_pid() {
  local f="$1" pid
  [[ -s "$f" ]] || return 1
  pid="$(tr -d '[:space:]' <"$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  printf '%s\n' "$pid"
}

# True when process $1 is alive and its command line contains $2 (guards against pid reuse).
pid_matches() {
  local pid="$1" marker="$2" cmdline
  kill -0 "$pid" 2>/dev/null || return 1
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmdline" == *"$marker"* ]]
}

# find_by_marker MARKER: pid of a live process (not this shell) whose command line contains MARKER.
find_by_marker() {
  local marker="$1" p pid
  for p in /proc/[0-9]*; do
    pid="${p#/proc/}"
    [[ "$pid" == "$$" || "$pid" == "${BASHPID:-}" ]] && continue
    if pid_matches "$pid" "$marker"; then
      printf '%s\n' "$pid"
      return 0
    fi
  done
  return 1
}

# is_running MARKER: true when the pid file names a live process whose command line contains MARKER.
# A stale pid file (dead process, reused pid, garbage) is removed; a process of ours whose pid file
# was lost or clobbered is found again by MARKER and its pid file rewritten.
is_running() {
  local marker="$1" f pid
  f="$(pid_file)"
  if [[ -e "$f" ]]; then
    if pid="$(read_pid "$f")" && pid_matches "$pid" "$marker"; then
      return 0
    fi
    log "removing stale pid file $f"
    rm -f "$f"
  fi
  if pid="$(find_by_marker "$marker")"; then
    log "found a running instance (pid $pid) without a valid pid file; adopting it"
    printf '%s\n' "$pid" >"$f"
    return 0
  fi
  return 1
}

running_pid() { read_pid "$(pid_file)"; }

# port_open HOST PORT: something accepts TCP connections there.
port_open() {
  # shellcheck disable=SC2016 # expanded by the inner shell
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
}

# Who listens on a TCP port (for error messages); empty when unknown.
port_owner() {
  local port="$1"
  local owners
  if command -v ss >/dev/null 2>&1; then
    owners="$(ss -Hltnp "sport = :$port" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/\1/p')" || true
    printf '%s\n' "${owners%%$'\n'*}"
  fi
}

# wait_for_port HOST PORT [TIMEOUT_S]
wait_for_port() {
  local host="$1" port="$2" timeout="${3:-30}" deadline
  deadline=$((SECONDS + timeout))
  until port_open "$host" "$port"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

# wait_until TIMEOUT_S PID CMD...: run CMD until it succeeds; fail on timeout or as soon as PID dies
# (PID may be empty for daemons that fork).
wait_until() {
  local timeout="$1" pid="$2" deadline
  shift 2
  deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      log "process $pid exited while starting"
      return 1
    fi
    ((SECONDS < deadline)) || {
      log "no answer after ${timeout}s"
      return 1
    }
    sleep 0.25
  done
}

# wait_while_progressing TIMEOUT_S CAP_S PID LOG CMD...: like wait_until, but TIMEOUT_S counts from the last time
# LOG grew, up to CAP_S in all. A broker recovering hundreds of partitions after an unclean stop (or starting
# beside a build that holds both cores) is slow but busy; one that has hung writes nothing.
wait_while_progressing() {
  local timeout="$1" cap="$2" pid="$3" logf="$4" idle_deadline hard_deadline size last_size=-1
  shift 4
  idle_deadline=$((SECONDS + timeout))
  hard_deadline=$((SECONDS + cap))
  until "$@" >/dev/null 2>&1; do
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      log "process $pid exited while starting"
      return 1
    fi
    size="$(stat -c %s "$logf" 2>/dev/null || echo 0)"
    if ((size != last_size)); then
      ((last_size < 0)) || idle_deadline=$((SECONDS + timeout))
      last_size="$size"
    fi
    ((SECONDS < idle_deadline)) || {
      log "no answer, and nothing written to $(basename "$logf") for ${timeout}s"
      return 1
    }
    ((SECONDS < hard_deadline)) || {
      log "no answer after ${cap}s"
      return 1
    }
    sleep 0.25
  done
}

# probe KIND ARGS...: protocol-level checks (kafka, mongo, smtp, http, tcp), see probe.py.
probe() { python3 "$DEPLOY_LOCAL_DIR/probe.py" "$@"; }

# launch_daemon PIDFILE LOGFILE CMD...: start CMD detached (own session, no stdin, output to LOGFILE,
# immune to SIGHUP) and record its pid. The process writes its own pid before exec, so the pid is
# right even when setsid has to fork. fd 9 (the component lock) is not inherited.
launch_daemon() {
  local pidf="$1" logf="$2"
  shift 2
  rm -f "$pidf"
  # shellcheck disable=SC2016 # expanded by the inner shell
  setsid bash -c 'echo $$ >"$1"; shift; exec nohup "$@"' _ "$pidf" "$@" </dev/null >>"$logf" 2>&1 9>&- &
  local _
  for _ in $(seq 1 50); do
    [[ -s "$pidf" ]] && return 0
    sleep 0.1
  done
  die "could not start $1 (no pid file $pidf); see $logf"
}

# stop_pid PID [TIMEOUT_S]: SIGTERM, wait, then SIGKILL.
stop_pid() {
  local pid="$1" timeout="${2:-20}" deadline
  kill -TERM "$pid" 2>/dev/null || return 0
  deadline=$((SECONDS + timeout))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      warn "pid $pid did not stop within ${timeout}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
  done
}

# stop_running MARKER TIMEOUT_S [SIGNAL]: stop our running instance (SIGNAL first when given, then SIGTERM and,
# after TIMEOUT_S, SIGKILL) and remove its pid file; says so when none runs.
stop_running() {
  local marker="$1" timeout="$2" signal="${3:-}" pid
  if ! is_running "$marker"; then
    log "not running"
    return 0
  fi
  pid="$(running_pid)"
  log "stopping (pid $pid)"
  [[ -z "$signal" ]] || kill "-$signal" "$pid" 2>/dev/null || true
  stop_pid "$pid" "$timeout"
  rm -f "$(pid_file)"
  log "stopped"
}

# with_lock NAME CMD...: run CMD holding an exclusive lock (serialises concurrent installs/starts).
# The lock is on fd 9, which launch_daemon closes for the daemons.
with_lock() {
  local name="$1"
  shift
  mkdir -p "$PLATFORM_CACHE_DIR/locks"
  (
    exec 9>"$PLATFORM_CACHE_DIR/locks/$name.lock"
    flock -w 900 9 || die "timed out waiting for lock $name"
    "$@"
  )
}

# apt_install PKG...: apt-get install, running apt-get update first only when the install fails.
apt_install() {
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to apt-get install $*"
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  log "apt-get install $*"
  if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1; then
    log "apt-get install failed; running apt-get update and retrying"
    "${sudo[@]}" apt-get update -q >/dev/null 2>&1 || warn "apt-get update failed"
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >&2 || die "apt-get install $* failed"
  fi
}

# ensure_cmd CMD PKG: install Debian package PKG when CMD is missing (apt runs one at a time).
ensure_cmd() {
  local cmd="$1" pkg="$2"
  command -v "$cmd" >/dev/null 2>&1 && return 0
  with_lock apt _ensure_cmd_locked "$cmd" "$pkg"
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd still missing after installing $pkg"
}
_ensure_cmd_locked() {
  command -v "$1" >/dev/null 2>&1 || apt_install "$2"
}

# The service log to show when something fails.
show_log_tail() {
  local f="$1" n="${2:-40}"
  [[ -s "$f" ]] || return 0
  log "last $n lines of $f:"
  tail -n "$n" "$f" | sed 's/^/    /' >&2
}

# maven_runtime_jars POM DEST JAR_GLOB WHAT: the runtime jars of POM (and their dependencies) from Maven Central
# into DEST, fetched again only when POM changes (its hash is kept in DEST) or the main jar is missing.
maven_runtime_jars() {
  local pom="$1" dest="$2" glob="$3" what="$4" hash tmp mvn_log
  hash="$(sha256sum "$pom" | cut -c1-64)"
  if [[ -f "$dest/.pom.sha256" && "$(cat "$dest/.pom.sha256")" == "$hash" ]] && compgen -G "$dest/$glob" >/dev/null; then
    return 0
  fi
  log "fetching the $what jars from Maven Central into $dest"
  tmp="$dest.tmp.$$"
  mvn_log="$PLATFORM_CACHE_DIR/$(basename "$dest")-mvn.log"
  rm -rf "$tmp"
  mkdir -p "$PLATFORM_CACHE_DIR"
  if ! mvn -q -B -Dstyle.color=never -f "$pom" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mvn_log" 2>&1; then
    show_log_tail "$mvn_log" 30
    rm -rf "$tmp"
    die "mvn dependency:copy-dependencies failed"
  fi
  printf '%s\n' "$hash" >"$tmp/.pom.sha256"
  rm -rf "$dest"
  mv "$tmp" "$dest"
  log "$what jars ready ($(find "$dest" -name '*.jar' | wc -l) jars)"
}

# go_module_dir TEMPLATE_DIR WORK_DIR MODULE: copies the throwaway go.mod from TEMPLATE_DIR into WORK_DIR,
# downloads MODULE at the version it requires and prints the module's directory in the module cache.
# (`go install module/cmd@version` cannot be used here: the proxy refuses the module's version list.)
go_module_dir() {
  local template="$1" work="$2" module="$3" dir
  command -v go >/dev/null 2>&1 || die "the Go toolchain (go) is required to build $module"
  mkdir -p "$work"
  cp "$template/go.mod" "$work/go.mod"
  rm -f "$work/go.sum"
  dir="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$module" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("Dir") or ""); sys.exit(1 if d.get("Error") else 0)')" ||
    die "go mod download $module failed"
  [[ -d "$dir" ]] || die "go mod download $module gave no directory"
  printf '%s\n' "$dir"
}

# go_mod_version TEMPLATE_DIR MODULE WHAT: the version of MODULE that TEMPLATE_DIR/go.mod pins (its `require` line).
go_mod_version() {
  local template="$1" module="$2" what="$3" version
  version="$(sed -n "s|^require $module \(v[0-9.]*\)\$|\1|p" "$template/go.mod")"
  [[ -n "$version" ]] || die "no $what version in $template/go.mod"
  printf '%s\n' "$version"
}

# module_source TEMPLATE_DIR BUILD_DIR MODULE DEST: a writable copy in DEST of MODULE at the version TEMPLATE_DIR/go.mod
# pins (downloaded with go_module_dir; the module cache itself is read-only).
module_source() {
  local template="$1" build="$2" module="$3" dest="$4" dir
  dir="$(go_module_dir "$template" "$build" "$module")"
  rm -rf "$dest" "$dest.tmp"
  mkdir -p "$(dirname "$dest")"
  cp -r "$dir" "$dest.tmp"
  chmod -R u+w "$dest.tmp"
  mv "$dest.tmp" "$dest"
}

# go_build SRC OUT WHAT [VAR=VALUE...] -- [GO_BUILD_ARGS...]: `go build -trimpath` in SRC, with those variables in its
# environment, into OUT (replaced only once the build succeeded). Its output goes to build.log beside SRC, whose
# tail is shown when the build fails.
go_build() {
  local src="$1" out="$2" what="$3" build_log vars=()
  shift 3
  while [[ "${1:-}" != -- ]]; do
    (($#)) || die "go_build: no -- after the variables"
    vars+=("$1")
    shift
  done
  shift
  build_log="$(dirname "$src")/build.log"
  mkdir -p "$(dirname "$out")"
  if ! (cd "$src" && env "${vars[@]}" go build -trimpath -o "$out.tmp" "$@") >"$build_log" 2>&1; then
    show_log_tail "$build_log" 30
    die "go build of $what failed"
  fi
  mv "$out.tmp" "$out"
}

# bin_stamped BIN STAMP: BIN is there and was built from STAMP (a version, or a hash of its inputs), which the
# build wrote to BIN.version.
bin_stamped() { [[ -x "$1" && "$(cat "$1.version" 2>/dev/null)" == "$2" ]]; }

# resume_running MARKER WHERE: when our instance already runs, says so and waits until it answers (with the
# script's `ready`, START_TIMEOUT and fail_start); false when none runs.
resume_running() {
  local marker="$1" where="$2"
  is_running "$marker" || return 1
  log "already running (pid $(running_pid)) at $where"
  wait_until "$START_TIMEOUT" "$(running_pid)" ready || fail_start
}

# Common `status` output. Exit codes: 0 running and answering, 1 running but not answering, 3 not running.
print_status() {
  local marker="$1" endpoint="$2"
  shift 2
  if is_running "$marker"; then
    if "$@" >/dev/null 2>&1; then
      echo "$COMPONENT: running (pid $(running_pid)), answering at $endpoint"
      return 0
    fi
    echo "$COMPONENT: running (pid $(running_pid)) but NOT answering at $endpoint"
    return 1
  fi
  if "$@" >/dev/null 2>&1; then
    echo "$COMPONENT: not started by these scripts, but something answers at $endpoint"
    return 0
  fi
  echo "$COMPONENT: not running"
  return 3
}

usage_component() {
  echo "usage: $(basename "$0") install|installed|start|ready|stop|status" >&2
  exit 2
}
