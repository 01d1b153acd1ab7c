#!/usr/bin/env bash
# Lookups per second through the DCSA connector against a release carrier-sim on loopback
# (its own process), at concurrency 32.
#   bash bench/carriers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p carrier-sim
work=$(mktemp -d)
./target/release/carrier-sim --listen 127.0.0.1:0 --api-key bench >"$work/stdout" 2>"$work/stderr" &
sim_pid=$!
trap 'kill $sim_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/stderr" 2>/dev/null && break
  sleep 0.1
done
address=$(grep -o 'listening on http://[0-9.:]*' "$work/stderr" | head -1 | sed 's|listening on ||')
[[ -n "$address" ]] || { cat "$work/stderr" >&2; exit 1; }
SIM_URL="$address" SIM_KEY=bench cargo bench -q -p tidemark-carriers --bench lookups
