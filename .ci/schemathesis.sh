#!/usr/bin/env bash
# API fuzzing: schemathesis runs every check of its catalogue against a release build
# serving a fresh SQLite file, with a fresh key, driven by /v2/openapi.json.
#   bash .ci/schemathesis.sh            # MAX_EXAMPLES per operation (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_EXAMPLES=${MAX_EXAMPLES:-60}

command -v st >/dev/null || python3 -m pip install -q schemathesis
cargo build --release -q -p tidemark

work=$(mktemp -d)
cleanup() {
  [[ -n "${server_pid:-}" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

export TIDEMARK_DATABASE_URL="sqlite://$work/fuzz.db"
export TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE=1000000
export TIDEMARK_RATE_LIMITS__DEFAULT_PER_MINUTE=1000000
export TIDEMARK_RATE_LIMITS__INFER_PER_MINUTE=1000000
export TIDEMARK_LOG__FILTER=warn,tidemark::commands=info
key=$(./target/release/tidemark keys create --account fuzz)
./target/release/tidemark serve --listen 127.0.0.1:0 >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/stderr" 2>/dev/null && break
  sleep 0.1
done
address=$(grep -o 'listening on http://[0-9.:]*' "$work/stderr" | head -1 | sed 's|listening on http://||')
[[ -n "$address" ]] || { cat "$work/stderr"; echo "server did not start" >&2; exit 1; }

st --config-file .ci/schemathesis.toml run "http://$address/v2/openapi.json" \
  --url "http://$address" \
  --checks all \
  --max-examples "$MAX_EXAMPLES" \
  --seed 20261122 \
  --header "Authorization: Token $key" \
  --no-color
