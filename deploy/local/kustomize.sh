#!/usr/bin/env bash
# kustomize, built from its Go module and cached: tests/k8s renders k8s/base and the overlays with it.
#
#   kustomize.sh install | installed | path | version
#
# `path` prints the binary's path (after building it when missing). The version is pinned in kustomize/go.mod.
set -euo pipefail
COMPONENT=kustomize
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODULE=sigs.k8s.io/kustomize/kustomize/v5
VERSION="$(go_mod_version "$DEPLOY_LOCAL_DIR/kustomize" "$MODULE" kustomize)"
BIN="$PLATFORM_CACHE_DIR/bin/kustomize"
BUILD="$PLATFORM_CACHE_DIR/build/kustomize"

installed() { bin_stamped "$BIN" "$VERSION"; }

install() {
  installed && return 0
  with_lock kustomize-install install_locked
}

install_locked() {
  installed && return 0
  command -v go >/dev/null 2>&1 || die "the Go toolchain (go) is required to build kustomize"
  log "building kustomize $VERSION into $BIN (about a minute the first time)"
  mkdir -p "$BUILD" "$(dirname "$BIN")"
  rm -rf "$BUILD/bin"
  # Unlike FerretDB's, this module's versions are listed by the proxy, so `go install module@version` works; it
  # runs outside any module (GOWORK/GOFLAGS off) so that nothing of the caller's tree takes part in the build.
  if ! (cd "$BUILD" && GOBIN="$BUILD/bin" GOWORK=off GOFLAGS= CGO_ENABLED=0 go install -trimpath "$MODULE@$VERSION") >"$BUILD/build.log" 2>&1; then
    show_log_tail "$BUILD/build.log" 30
    die "go install $MODULE@$VERSION failed"
  fi
  mv "$BUILD/bin/kustomize" "$BIN"
  printf '%s\n' "$VERSION" >"$BIN.version"
  log "kustomize $("$BIN" version) ready"
}

case "${1:-}" in
  install) install ;;
  installed) installed ;;
  path)
    install
    printf '%s\n' "$BIN"
    ;;
  version)
    install
    "$BIN" version
    ;;
  *)
    echo "usage: $(basename "$0") install|installed|path|version" >&2
    exit 2
    ;;
esac
