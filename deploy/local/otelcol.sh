#!/usr/bin/env bash
# The OpenTelemetry Collector distribution of deploy/local/otelcol/builder-config.yaml, built with the
# collector's own builder (ocb, Go module go.opentelemetry.io/collector/cmd/builder) and cached.
# tests/k8s/observability.test.ts runs `otelcol-platform validate` on deploy/observability/otel-collector.yaml.
#
#   otelcol.sh install | installed | path
#
# `path` prints the binary's path (after installing it when missing).
set -euo pipefail
COMPONENT=otelcol
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=go.opentelemetry.io/collector/cmd/builder
TEMPLATE="$DEPLOY_LOCAL_DIR/otelcol"
MANIFEST="$TEMPLATE/builder-config.yaml"
VERSION="$(go_mod_version "$TEMPLATE" "$MODULE" builder)"
BIN="$PLATFORM_CACHE_DIR/bin/otelcol-platform"
BUILD="$PLATFORM_CACHE_DIR/build/otelcol"
# A changed manifest (components, versions) rebuilds the collector.
STAMP="$VERSION $(sha256sum "$MANIFEST" | cut -c1-64)"

installed() { bin_stamped "$BIN" "$STAMP"; }

install() {
  installed && return 0
  with_lock otelcol-install install_locked
}

install_locked() {
  installed && return 0
  ensure_cmd python3 python3
  log "building the collector (builder $VERSION) into $BIN (a few minutes the first time)"
  local src="$BUILD/src-$VERSION" builder="$BUILD/builder-$VERSION" dist="$BUILD/dist"
  if [[ ! -x "$builder" ]]; then
    module_source "$TEMPLATE" "$BUILD" "$MODULE" "$src"
    go_build "$src" "$builder" "the collector builder" GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 -- .
    rm -rf "$src"
  fi
  rm -rf "$dist"
  mkdir -p "$dist"
  sed "s|^  output_path: .*|  output_path: $dist|" "$MANIFEST" >"$BUILD/builder-config.yaml"
  # The builder writes the sources and go.mod, then runs `go mod tidy`, which fails here: it also wants the
  # test-only modules of the components (pkg/semconvtest), which the module proxy refuses. `tidy -e` leaves those
  # out, and nothing that is built needs them; so the builder's own tidy and compile are not relied on.
  (cd "$BUILD" && GOWORK=off "$builder" --config "$BUILD/builder-config.yaml" --skip-compilation) >"$BUILD/build.log" 2>&1 || true
  [[ -f "$dist/go.mod" && -f "$dist/components.go" ]] || {
    show_log_tail "$BUILD/build.log" 30
    die "the collector builder generated no sources"
  }
  if ! (cd "$dist" && GOWORK=off GOFLAGS=-mod=mod go mod tidy -e &&
    GOWORK=off CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$dist/otelcol-platform" .) >>"$BUILD/build.log" 2>&1; then
    show_log_tail "$BUILD/build.log" 30
    die "the collector build failed"
  fi
  mkdir -p "$(dirname "$BIN")"
  mv "$dist/otelcol-platform" "$BIN"
  printf '%s\n' "$STAMP" >"$BIN.version"
  log "collector ready: $("$BIN" --version)"
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
