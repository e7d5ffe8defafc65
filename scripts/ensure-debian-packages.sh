#!/usr/bin/env bash
# Installs Debian packages the tests and the topology need when their command is missing and we
# may (root with apt-get, as on CI), so that a fresh machine needs nothing installed by hand.
# Usage: ensure-debian-packages.sh COMMAND=PACKAGE [COMMAND=PACKAGE ...]
#   e.g. ensure-debian-packages.sh haproxy=haproxy pgbouncer=pgbouncer \
#          /usr/lib/postgresql/15/bin/postgres=postgresql-15
# COMMAND is a name looked up on PATH, or an absolute path that must exist: a package without a
# command (a Python module, say) is named by one of its files, which need not be executable.
set -euo pipefail

missing=()
for pair in "$@"; do
  command_name="${pair%%=*}"
  package="${pair#*=}"
  if [[ "$command_name" == /* ]]; then
    [ -e "$command_name" ] && continue
  else
    command -v "$command_name" >/dev/null 2>&1 && continue
  fi
  missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${missing[*]} (once per machine)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Debian's postgresql-common creates and starts a cluster "main" on install; policy-rc.d
  # keeps that server stopped, since nothing here may rely on a server someone else started.
  policy=/usr/sbin/policy-rc.d
  created_policy=false
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && created_policy=true
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ "$created_policy" = true ]; then rm -f "$policy"; fi
  exit 0
fi

echo "Missing: ${missing[*]}. Install these Debian packages (or their equivalents) and run again." >&2
exit 1
