#!/usr/bin/env bash
# API fuzzing: schemathesis runs every check of its catalogue against a build of the
# service (the debug build, unless TIDEMARK_BIN names one already built) serving a
# fresh SQLite file, with a fresh key, driven by /v2/openapi.json. Sending a
# test to a webhook and triggering a sample are left out: they POST to the URL they are
# given, and fuzzed URLs are on the internet (their input is checked by the HTTP tests,
# crates/tidemark/tests/http). The
# callbacks of lines and terminals take their own token instead of an API key: they are
# fuzzed in a second run, as the line TEST and the terminal USORFVIG with the token
# configured here.
# Each call gets a fresh Idempotency-Key when the one drawn is well formed
# (.ci/schemathesis_hooks.py says why).
#   bash .ci/schemathesis.sh            # MAX_EXAMPLES per operation (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_EXAMPLES=${MAX_EXAMPLES:-60}

command -v st >/dev/null || python3 -m pip install -q schemathesis
export PYTHONPATH="$PWD/.ci${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks
# The tests' debug build (no second, release, compilation in CI): fuzzing checks answers,
# not speed.
export TIDEMARK_BIN=${TIDEMARK_BIN:-./target/debug/tidemark}
[[ "$TIDEMARK_BIN" == ./target/debug/tidemark ]] && cargo build -q -p tidemark

work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
trap 'stop_tidemark; rm -rf "$work"' EXIT
export TIDEMARK_DATABASE_URL="sqlite://$work/tidemark.db"
export TIDEMARK_LOG__FILTER=warn,tidemark::commands=info
# The API alone: the dispatcher would deliver to the made-up URLs of fuzzed webhooks.
export TIDEMARK_ROLES=api
callback_token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
export TIDEMARK_ARRIVAL_NOTICES__CALLBACKS__TEST__TOKEN=$callback_token
export TIDEMARK_TERMINALS__CALLBACKS__USORFVIG__TOKEN=$callback_token
export TIDEMARK_CARRIERS__CALLBACKS__TEST__TOKEN=$callback_token
"$TIDEMARK_BIN" migrate
key=$("$TIDEMARK_BIN" keys create --account fuzz --create-account)
start_tidemark

st --config-file .ci/schemathesis.toml run "http://$address/v2/openapi.json" \
  --url "http://$address" \
  --checks all \
  --exclude-operation-id testWebhook \
  --exclude-operation-id triggerWebhook \
  --exclude-path-regex '-callbacks/' \
  --max-examples "$MAX_EXAMPLES" \
  --seed 20261122 \
  --header "Authorization: Token $key" \
  --no-color

st --config-file .ci/schemathesis.toml run "http://$address/v2/openapi.json" \
  --url "http://$address" \
  --checks all \
  --include-path-regex '-callbacks/' \
  --max-examples "$MAX_EXAMPLES" \
  --seed 20261122 \
  --header "Authorization: Bearer $callback_token" \
  --no-color
