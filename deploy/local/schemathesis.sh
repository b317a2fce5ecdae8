#!/usr/bin/env bash
# Schemathesis, the property-based fuzzer the test suite runs against every gateway's /openapi.json, from PyPI
# into a virtual environment of its own under the cache folder (the machine's Python packages are left alone).
#
#   schemathesis.sh install     prints the path of `st` on stdout; idempotent (a no-op once that version is there)
set -euo pipefail
COMPONENT=schemathesis
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
VENV="$PLATFORM_CACHE_DIR/schemathesis-$VERSION"

# The venv's scripts name their interpreter by its path, so it is built where it stays; a stamp written last
# tells a finished install from one cut short (which is built again).
_install() {
  [[ -f "$VENV/.installed" ]] && return 0
  command -v python3 >/dev/null 2>&1 || die "python3 is needed for schemathesis"
  log "installing schemathesis $VERSION into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2 ||
    die "pip install schemathesis==$VERSION failed"
  touch "$VENV/.installed"
}

case "${1:-install}" in
  install)
    [[ -f "$VENV/.installed" ]] || with_lock schemathesis _install
    echo "$VENV/bin/st"
    ;;
  *) die "usage: schemathesis.sh install" ;;
esac
