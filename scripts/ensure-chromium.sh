#!/usr/bin/env bash
# The browser test (test/browser) drives headless Chromium through playwright-core, which
# downloads no browser of its own. It uses Debian's `chromium` package; this installs it when
# it is missing and we may (root with apt-get, as on CI), so `npm test` works on a fresh machine.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser test (once per machine)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  exit 0
fi

echo "The browser test needs Chromium: install Debian's 'chromium' package, or set CHROMIUM_PATH." >&2
