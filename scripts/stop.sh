#!/usr/bin/env bash
# `npm stop`: stops the apps started by `npm start` (SIGTERM: they finish in-flight work first).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}/apps"
# shellcheck source=apps.sh
source "$root/scripts/apps.sh"
for entry in "${APPS[@]}"; do
  name="${entry%%|*}"
  pidfile="$state/$name.pid"
  [[ -f $pidfile ]] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "[stop] $name stopped"
  fi
  rm -f "$pidfile"
done
