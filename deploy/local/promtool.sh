#!/usr/bin/env bash
# promtool, Prometheus's own checker for rule files, scrape configurations and PromQL, built from the Go module
# and cached. tests/k8s/observability.test.ts runs it on deploy/observability/.
#
#   promtool.sh install | installed | path
#
# `path` prints the binary's path (after installing it when missing).
set -euo pipefail
COMPONENT=promtool
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=github.com/prometheus/prometheus
TEMPLATE="$DEPLOY_LOCAL_DIR/promtool"
VERSION="$(go_mod_version "$TEMPLATE" "$MODULE" Prometheus)"
BIN="$PLATFORM_CACHE_DIR/bin/promtool"
BUILD="$PLATFORM_CACHE_DIR/build/promtool"

installed() { bin_stamped "$BIN" "$VERSION"; }

install() {
  installed && return 0
  with_lock promtool-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  log "building promtool $VERSION into $BIN (a few minutes the first time)"
  local src="$BUILD/src-$VERSION" release
  module_source "$TEMPLATE" "$BUILD" "$MODULE" "$src"
  # The Go module v0.3MM.P is Prometheus 3.MM.P; `promtool --version` reports the release.
  release="$(sed -E 's/^v0\.3([0-9]{2})\.([0-9]+)$/3.\1.\2/; s/^3\.0([0-9])/3.\1/' <<<"$VERSION")"
  # GOWORK=off: the module ships a go.work of its own (for its documentation examples), which -mod=mod refuses.
  go_build "$src" "$BIN" promtool GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 -- \
    -ldflags "-X github.com/prometheus/common/version.Version=$release" ./cmd/promtool
  printf '%s\n' "$VERSION" >"$BIN.version"
  rm -rf "$src"
  log "promtool $release ready"
}

case "${1:-}" in
  install) install ;;
  installed) installed ;;
  path)
    install
    printf '%s\n' "$BIN"
    ;;
  *)
    echo "usage: $(basename "$0") install|installed|path" >&2
    exit 2
    ;;
esac
