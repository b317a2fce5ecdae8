#!/usr/bin/env bash
# Prints `export` lines for running the platform on this machine: dependency endpoints (deploy/local) and
# local secrets, generated once into the state folder (0600, never in the repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${PLATFORM_STATE_DIR:-$HOME/.local/state/platform}"
secrets="$state/secrets.env"
if [[ ! -f $secrets ]]; then
  mkdir -p "$state"
  umask 077
  {
    echo "API_KEY_PEPPER=$(head -c 32 /dev/urandom | base64 | tr -d '/+=' | head -c 43)"
    echo "SECRETS_SEALING_KEY=$(head -c 32 /dev/urandom | base64 | tr -d '/+=' | head -c 43)"
  } >"$secrets"
fi
bash "$root/deploy/local/env.sh"
while IFS='=' read -r name value; do
  [[ -n $name ]] && printf 'export %s=%q\n' "$name" "$value"
done <"$secrets"
echo "export MONGO_DB=\${MONGO_DB:-platform}"
