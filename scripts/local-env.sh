#!/usr/bin/env bash
# Prints `export` lines for running the platform on this machine: dependency endpoints (deploy/local) and
# local secrets, generated once into the state folder (0600, never in the repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}"
secrets="$state/secrets.env"
mkdir -p "$state"
# Each secret is generated once, when missing (older files gain the ones added since).
for name in API_KEY_PEPPER SECRETS_SEALING_KEY OAUTH_ACCESS_TOKEN_KEYS OAUTH_SECRET_PEPPER SESSION_SECRET; do
  if ! grep -q "^$name=" "$secrets" 2>/dev/null; then
    value="$(head -c 48 /dev/urandom | base64 -w0 | tr -d '/+=')"
    (umask 077 && echo "$name=${value:0:43}" >>"$secrets")
  fi
done
bash "$root/deploy/local/env.sh"
while IFS='=' read -r name value; do
  [[ -n $name ]] && printf 'export %s=%q\n' "$name" "$value"
done <"$secrets"
echo "export MONGO_DB=\${MONGO_DB:-platform}"
