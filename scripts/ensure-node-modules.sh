#!/usr/bin/env bash
# Installs npm packages when node_modules is missing or older than the lockfile (idempotent, cached by npm).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [[ ! -f $stamp || package-lock.json -nt $stamp ]]; then
  echo "[setup] installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
