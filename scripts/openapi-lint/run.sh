#!/usr/bin/env bash
# Lints the OpenAPI document built from the route table with Spectral (.spectral.yaml), failing
# on any warning. The document is written to the OS temp dir, not served: no server starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx tsc -p tsconfig.openapi-lint.json
out_dir="$(mktemp -d)"
trap 'rm -rf "$out_dir"' EXIT
node dist/openapi-lint/scripts/openapi-lint/write-openapi-document.js "$out_dir/openapi.json"
npx spectral lint --ruleset .spectral.yaml --fail-severity=warn "$out_dir/openapi.json"
