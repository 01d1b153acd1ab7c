#!/usr/bin/env bash
# Lints the OpenAPI document Tidemark generates (`tidemark openapi`, the same bytes
# `/v2/openapi.json` serves) with Redocly's CLI, pinned in .ci/openapi/package-lock.json:
# the recommended rules, plus an example for every body and error, the servers and the
# deliveries under `webhooks` (.ci/openapi/redocly.yaml). Fails on any error.
set -euo pipefail
cd "$(dirname "$0")/.."
export TIDEMARK_BIN=${TIDEMARK_BIN:-./target/debug/tidemark}
[[ "$TIDEMARK_BIN" == ./target/debug/tidemark ]] && cargo build -q -p tidemark
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$TIDEMARK_BIN" openapi > "$work/openapi.json"
npm ci --prefix .ci/openapi --no-audit --no-fund --loglevel=error
.ci/openapi/node_modules/.bin/redocly lint --config .ci/openapi/redocly.yaml \
  "$work/openapi.json" --format=summary
