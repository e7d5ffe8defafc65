#!/usr/bin/env bash
# Usage: .ci/clean-clone-on.sh <node major> <npm major> [jest projects, default: unit contract http soak]
# A clean clone of this checkout installed and tested with that Node.js line and that npm, as a
# newcomer with them would: `npm install`, `npm start` answers on SQLite, then the tests of those Jest
# projects. A clone of its own, so the checkout's node_modules stay as the main run made them.
set -euo pipefail
node_major=$1
npm_major=$2
projects=${3:-unit contract http soak}
checkout="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=.ci/use-node.sh
source "$checkout/.ci/use-node.sh"
use_node "$node_major" "$npm_major"

# The checkout's commit (what is committed: uncommitted changes are not in the clone).
git clone --quiet --no-checkout "$checkout" "$work/repo"
cd "$work/repo"
git checkout --quiet --detach "$(git -C "$checkout" rev-parse HEAD)"
step=$SECONDS
# The README's own command (the main run proves npm ci and the lock file).
npm install --no-audit --no-fund
echo "== Node $node_major: npm install: $((SECONDS - step)) s"
step=$SECONDS
bash .ci/smoke-start.sh
echo "== Node $node_major: npm start on SQLite: $((SECONDS - step)) s"
# Not npm test: its pretest would build and install Debian packages again, and the browser test
# does not depend on the Node.js line. npm start above has built dist/ for the HTTP tests.
step=$SECONDS
# shellcheck disable=SC2086 # one word per project
npx jest --selectProjects $projects
echo "== Node $node_major: jest $projects: $((SECONDS - step)) s"
echo "== Node $node_major, npm $npm_major: passed in $SECONDS s"
