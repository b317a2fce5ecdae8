#!/usr/bin/env bash
# End-to-end smoke check of the running local dependencies (run up.sh first). Touches only
# throwaway names: a topic smoke-<random>, a Redis key smoke:<random>, one mail to smoke-<random>@example.test.
#   deploy/local/smoke.sh      exit 0 and "N passed, 0 failed" when every check passes
set -euo pipefail
COMPONENT=smoke
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

h="$PLATFORM_HOST"
id="$(date +%s)-$$"
passed=0
failed=0
check() {
  local name="$1"
  shift
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    log "ok   $name ($((SECONDS - t0))s)"
  else
    failed=$((failed + 1))
    log "FAIL $name"
  fi
}

kafka_topic() {
  local topics
  "$DEPLOY_LOCAL_DIR/kafka.sh" topics --create --topic "smoke-$id" --partitions 1 >/dev/null &&
    topics="$("$DEPLOY_LOCAL_DIR/kafka.sh" topics --list)" &&
    [[ $'\n'"$topics"$'\n' == *$'\n'"smoke-$id"$'\n'* ]] &&
    "$DEPLOY_LOCAL_DIR/kafka.sh" topics --delete --topic "smoke-$id" >/dev/null
}

redis_roundtrip() {
  [[ "$(redis-cli -h "$h" -p "$PLATFORM_REDIS_PORT" ping)" == PONG ]] &&
    [[ "$(redis-cli -h "$h" -p "$PLATFORM_REDIS_PORT" set "smoke:$id" v EX 60)" == OK ]] &&
    [[ "$(redis-cli -h "$h" -p "$PLATFORM_REDIS_PORT" get "smoke:$id")" == v ]]
}

mail_roundtrip() {
  python3 - "$h" "$PLATFORM_SMTP_PORT" "$PLATFORM_MAILBOX_PORT" "$id" <<'EOF'
import json, smtplib, sys, time, urllib.parse, urllib.request
from email.message import EmailMessage

host, smtp_port, http_port, run_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
to = f"smoke-{run_id}@example.test"
msg = EmailMessage()
msg["From"] = "platform-smoke@example.test"
msg["To"] = to
msg["Subject"] = f"smoke {run_id}"
msg.set_content("plain part")
msg.add_alternative("<p>html part</p>", subtype="html")
with smtplib.SMTP(host, smtp_port, timeout=5) as smtp:
    smtp.login("any-user", "any-password")  # the local server accepts any credentials
    smtp.send_message(msg)

api = f"http://{host}:{http_port}/api/v1"
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
query = urllib.parse.quote(f"to:{to}")
for _ in range(20):
    found = json.load(opener.open(f"{api}/search?query={query}", timeout=5))["messages"]
    if found:
        break
    time.sleep(0.1)
else:
    sys.exit("mail not found in the mailbox")
one = json.load(opener.open(f"{api}/message/{found[0]['ID']}", timeout=5))
assert one["Subject"] == f"smoke {run_id}", one["Subject"]
assert one["Text"].strip() == "plain part", one["Text"]
assert "html part" in one["HTML"], one["HTML"]
assert one["To"][0]["Address"] == to
# remove only this message, leave others' mail alone
req = urllib.request.Request(f"{api}/messages", method="DELETE",
                             data=json.dumps({"IDs": [found[0]["ID"]]}).encode(),
                             headers={"Content-Type": "application/json"})
opener.open(req, timeout=5)
EOF
}

check "kafka: broker metadata" probe kafka "$h" "$PLATFORM_KAFKA_PORT"
check "kafka: create, list, delete a topic" kafka_topic
check "ferretdb: ping over the MongoDB wire protocol" probe mongo "$h" "$PLATFORM_MONGO_PORT"
check "redis: ping, set, get" redis_roundtrip
check "smtp: send a mail, read it back over the HTTP API" mail_roundtrip

echo "$passed passed, $failed failed"
((failed == 0))
