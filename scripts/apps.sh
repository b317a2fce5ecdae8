#!/usr/bin/env bash
# The apps that `npm start` runs on this machine: name, entry, extra environment.
# Kept in one place so start, stop and status agree.
APPS=(
  "usermgmt-worker|apps/usermgmt-worker/dist/main.js|"
  "webhook-dispatcher|apps/webhook-dispatcher/dist/main.js|EGRESS_ALLOW=127.0.0.0/8,::1"
  "usermgmt-gateway|apps/usermgmt-gateway/dist/main.js|PORT=3002"
  "oauth-worker|apps/oauth-worker/dist/main.js|"
  "notifier|apps/notifier/dist/main.js|"
  "scheduling-worker|apps/scheduling-worker/dist/main.js|"
  "scheduling-gateway|apps/scheduling-gateway/dist/main.js|PORT=3001"
  "scheduling-web|apps/scheduling-web/dist/main.js|PORT=3000"
  "image-worker-1|apps/image-worker/dist/main.js|EGRESS_ALLOW=127.0.0.0/8,::1 STORE_S3_ENDPOINT=${S3_URL:-} STORE_GCS_ENDPOINT=${GCS_URL:-} HEALTH_PORT=9401"
  "image-worker-2|apps/image-worker/dist/main.js|EGRESS_ALLOW=127.0.0.0/8,::1 STORE_S3_ENDPOINT=${S3_URL:-} STORE_GCS_ENDPOINT=${GCS_URL:-} HEALTH_PORT=9402"
  "images-gateway|apps/images-gateway/dist/main.js|PORT=3003"
  "notifications-gateway|apps/notifications-gateway/dist/main.js|PORT=3004"
  "links-worker|apps/links-worker/dist/main.js|"
  "analytics-aggregator|apps/analytics-aggregator/dist/main.js|"
  "links-gateway|apps/links-gateway/dist/main.js|PORT=3005 LINKS_DEFAULT_DOMAIN=localhost:3006 LINKS_SHORT_URL_SCHEME=http PUBLIC_BASE_URL=http://127.0.0.1:3005"
  "redirector|apps/redirector/dist/main.js|PORT=3006 LINKS_DEFAULT_DOMAIN=localhost:3006"
)
