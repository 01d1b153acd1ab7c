#!/usr/bin/env bash
# Memory under load: a release `tidemark serve` with every role (API, tracker, dispatcher,
# pruner) on a fresh SQLite file, the sandbox's simulated lines tracking what is created,
# takes ROUNDS rounds of a mixed load (bench/mixed.lua: creates, lists with includes,
# infer-number; wrk, CONNECTIONS connections, SECONDS_PER_ROUND each) while the tracker
# works its growing backlog, then idles IDLE seconds. The resident set (VmRSS) is sampled
# every second; the script prints it at the start, the peak of each round, and after the
# idle period, and fails above PEAK_MB or when idle stays above IDLE_MB.
#
#   bash bench/memory.sh                         # 3 x 60 s, 64 connections, 60 s idle
#   ROUNDS=1 SECONDS_PER_ROUND=20 IDLE=20 bash bench/memory.sh
#   BACKEND=postgres bash bench/memory.sh        # a fresh database on 127.0.0.1:5432
#   TIDEMARK_BIN=/tmp/old/tidemark bash bench/memory.sh   # measure another build
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
SECONDS_PER_ROUND=${SECONDS_PER_ROUND:-60}
CONNECTIONS=${CONNECTIONS:-64}
IDLE=${IDLE:-60}
PEAK_MB=${PEAK_MB:-250}
IDLE_MB=${IDLE_MB:-200}
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
sampler=
cleanup() {
  [[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null
  stop_tidemark
  drop_database
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
need_wrk
use_backend
start_tidemark
export TIDEMARK_BENCH_KEY
TIDEMARK_BENCH_KEY=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$TIDEMARK_BENCH_KEY" ]] || { echo "no API key was printed" >&2; exit 1; }

rss_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status"; }
# One sample a second: seconds since the start, MB resident, and the phase.
phase_file="$work/phase"
echo start >"$phase_file"
(
  t=0
  while kill -0 "$server_pid" 2>/dev/null; do
    echo "$t $(rss_mb) $(cat "$phase_file")"
    sleep 1
    t=$((t + 1))
  done
) >"$work/rss" &
sampler=$!
sleep 2
echo "backend ${BACKEND:-sqlite}, every role; resident at start: $(rss_mb) MB"

for round in $(seq 1 "$ROUNDS"); do
  echo "round$round" >"$phase_file"
  BENCH_ROUND="r$round" wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_ROUND}s" -s bench/mixed.lua \
    "http://$address" | grep -E "Requests/sec|answers"
  pending=$(curl -s -H "Authorization: Token $TIDEMARK_BENCH_KEY" \
    "http://$address/v2/tracking_requests?filter%5Bstatus%5D=pending&page%5Bsize%5D=1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')
  echo "round $round: peak $(awk -v p="round$round" '$3 == p && $2 > m { m = $2 } END { print m }' "$work/rss") MB, now $(rss_mb) MB; $pending requests still pending"
done
echo idle >"$phase_file"
sleep "$IDLE"
peak=$(awk '$2 > m { m = $2 } END { print m }' "$work/rss")
idle=$(rss_mb)
echo "peak $peak MB (at most $PEAK_MB); after $IDLE s idle $idle MB (at most $IDLE_MB)"
python3 - "$peak" "$idle" "$PEAK_MB" "$IDLE_MB" <<'PY'
import sys
peak, idle, peak_max, idle_max = map(float, sys.argv[1:])
ok = peak <= peak_max and idle <= idle_max
print("memory bounded" if ok else "MEMORY OVER ITS BOUND")
sys.exit(0 if ok else 1)
PY
