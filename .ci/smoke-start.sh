#!/usr/bin/env bash
# The newcomer's second command, `npm start`, in the current directory: on the default SQLite
# file, on a free port. Passes when the service listens, stores an article and reads it back.
set -euo pipefail

work=$(mktemp -d)
log="$work/start.log"
# Its own session, so that npm, its shell and node stop together.
PORT=0 DATABASE_URL="sqlite:$work/smoke.sqlite" setsid npm start >"$log" 2>&1 &
leader=$!
stop() {
  kill -TERM -- "-$leader" 2>/dev/null || true
  # The service drains for a second after SIGTERM; leave nothing running (SIGKILL after 15 s).
  for _ in $(seq 75); do kill -0 -- "-$leader" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$leader" 2>/dev/null || true
  wait "$leader" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

port=
for _ in $(seq 240); do
  port=$(sed -n 's/.*"port":\([0-9]*\).*"msg":"blog article API is listening".*/\1/p' "$log" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$leader" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$port" ]; then
  echo "npm start did not reach 'listening':" >&2
  cat "$log" >&2
  exit 1
fi

base="http://127.0.0.1:$port"
created=$(curl -sS -X POST "$base/article/create" -H 'Content-Type: application/json' -d '{"content":"smoke test"}')
id=$(printf '%s' "$created" | sed -n 's/^{"statusCode":10000,"data":{"id":\([0-9]*\),.*/\1/p')
if [ -z "$id" ]; then
  echo "create did not succeed: $created" >&2
  exit 1
fi
read=$(curl -sS "$base/article/$id")
case "$read" in
  *'"content":"smoke test"'*) echo "npm start: serves on SQLite ($(node --version), npm $(npm --version)); article $id stored and read" ;;
  *) echo "article $id not read back: $read" >&2; exit 1 ;;
esac
