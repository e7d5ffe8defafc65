#!/usr/bin/env bash
# Debian's PostgreSQL 15 cluster "15/main" for the fault tests and their measured numbers.
#   bash scripts/debian-postgres.sh start   installs postgresql-15 if missing, starts the cluster,
#                                           gives role postgres a password (kept outside the
#                                           repository, mode 0600) and prints TEST_DATABASE_URL
#   bash scripts/debian-postgres.sh url     prints TEST_DATABASE_URL again
#   bash scripts/debian-postgres.sh stop    stops the cluster
# The reliability scenarios stop and start the cluster themselves when TEST_POSTGRES_CLUSTER=15/main
# (they run pg_ctlcluster, so run them as root or as the postgres user).
set -euo pipefail
VERSION=15
CLUSTER=main
PORT=${PGPORT_DEBIAN:-5432}
STATE_DIR=${XDG_STATE_HOME:-$HOME/.local/state}/blog-api
PASSWORD_FILE=$STATE_DIR/debian-postgres-$VERSION-password
here=$(cd "$(dirname "$0")" && pwd)

url() {
  echo "postgres://postgres:$(cat "$PASSWORD_FILE")@127.0.0.1:$PORT/postgres"
}

case "${1:-}" in
  start)
    bash "$here/ensure-debian-packages.sh" "/usr/lib/postgresql/$VERSION/bin/postgres=postgresql-$VERSION" >&2
    if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$VERSION/$CLUSTER"; then
      pg_createcluster "$VERSION" "$CLUSTER" --port "$PORT" >&2
    fi
    pg_ctlcluster "$VERSION" "$CLUSTER" start 2>/dev/null || pg_ctlcluster "$VERSION" "$CLUSTER" status >&2
    mkdir -p "$STATE_DIR"
    if [ ! -s "$PASSWORD_FILE" ]; then
      (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$PASSWORD_FILE")
    fi
    # Over the local socket as the postgres user (peer authentication), so no password is needed here.
    runuser -u postgres -- psql -q -p "$PORT" -v ON_ERROR_STOP=1 \
      -c "ALTER ROLE postgres PASSWORD '$(cat "$PASSWORD_FILE")'" >&2
    url
    ;;
  url) url ;;
  stop) pg_ctlcluster "$VERSION" "$CLUSTER" stop -m fast 2>/dev/null || true ;;
  *)
    echo "usage: $0 start|url|stop" >&2
    exit 2
    ;;
esac
