#!/usr/bin/env bash
# Debian's Chromium for the browser end-to-end tests (driven by playwright-core; no browser download).
#
#   chromium.sh install     prints nothing on success; idempotent (a no-op once /usr/bin/chromium exists)
set -euo pipefail
COMPONENT=chromium
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-install}" in
  install) ensure_cmd chromium chromium ;;
  *) die "usage: chromium.sh install" ;;
esac
