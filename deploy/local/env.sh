#!/usr/bin/env bash
# Prints the endpoints of the local dependencies as shell exports:
#   eval "$(deploy/local/env.sh)"
# Honors the same PLATFORM_HOST / PLATFORM_*_PORT overrides as the start scripts. Starts nothing.
set -euo pipefail
COMPONENT="env"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

h="$PLATFORM_HOST"
printf 'export KAFKA_BROKERS=%s\n' "$h:$PLATFORM_KAFKA_PORT"
# Clients bootstrapped at KAFKA_PROXY_ADDRESS reach the broker only through a proxy listening there that
# forwards to KAFKA_PROXIED_LISTENER (tests/e2e cut it to take the broker away from one process).
printf 'export KAFKA_PROXY_ADDRESS=%s\n' "$h:$PLATFORM_KAFKA_PROXY_PORT"
printf 'export KAFKA_PROXIED_LISTENER=%s\n' "$h:$PLATFORM_KAFKA_PROXIED_PORT"
printf 'export MONGO_URL=%s\n' "mongodb://$h:$PLATFORM_MONGO_PORT"
if [[ "${PLATFORM_FERRETDB_BACKEND:-postgresql}" == postgresql ]]; then
  printf 'export FERRETDB_POSTGRES_URL=%s\n' "postgres://platform@$h:$PLATFORM_POSTGRES_PORT/ferretdb"
fi
printf 'export REDIS_URL=%s\n' "redis://$h:$PLATFORM_REDIS_PORT"
printf 'export SMTP_URL=%s\n' "smtp://$h:$PLATFORM_SMTP_PORT"
printf 'export MAILBOX_URL=%s\n' "http://$h:$PLATFORM_MAILBOX_PORT"
printf 'export S3_URL=%s\n' "http://$h:$PLATFORM_S3_PORT"
printf 'export S3_ACCESS_KEY_ID=%s\n' "$PLATFORM_S3_ACCESS_KEY_ID"
printf 'export S3_SECRET_ACCESS_KEY=%s\n' "$PLATFORM_S3_SECRET_ACCESS_KEY"
printf 'export GCS_URL=%s\n' "http://$h:$PLATFORM_GCS_PORT"
# Not SCHEMA_REGISTRY_URL: with that set, every app would write the registry's wire format (ADR 0021).
printf 'export LOCAL_SCHEMA_REGISTRY_URL=%s\n' "http://$h:$PLATFORM_SCHEMA_REGISTRY_PORT/apis/ccompat/v7"
