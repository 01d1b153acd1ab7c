#!/usr/bin/env bash
# Load benchmark of the API against a release build on loopback (SQLite, fresh file).
# Every figure is compared with GET /healthz (the ceiling) measured on the same server just
# before it, so that a slow or busy spell of the machine moves both. Each endpoint is
# measured in ROUNDS alternations of ceiling and endpoint; the round with the median share
# is reported, with the lowest and highest share (on two cores shared with wrk, one round's
# share moves by ten points). The console's shipment page (HTML, signed in by cookie) is
# measured on a second server.
#
#   bash bench/run.sh            # 64 connections, 3 rounds of 5 s per endpoint
#   ROUNDS=5 DURATION=10s bash bench/run.sh
set -euo pipefail

cd "$(dirname "$0")/.."
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}

# TIDEMARK_BIN names another binary to measure (see bench/serve.sh); otherwise this tree's.
[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark

work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
need_wrk
trap 'stop_tidemark; rm -rf "$work"' EXIT

# Rate limits are raised for the run; everything else is the zero-config default
# (SQLite in WAL mode, synchronous=FULL: every 201 is on disk before it is sent). Only
# the API role runs: this measures the API, and bench/tracking.sh the tracker.
export TIDEMARK_ROLES=api
# Real lines, simulated: the bench creates requests for MAEU numbers.
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
start_tidemark
export TIDEMARK_BENCH_KEY=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$TIDEMARK_BENCH_KEY" ]] || { echo "no API key was printed" >&2; exit 1; }
base="http://$address"

run() { # name, wrk arguments…
  local name=$1; shift
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" >"$work/$name.txt" 2>&1
}
measure() { # name, wrk arguments…: rounds of the ceiling on the same server, then the endpoint
  local name=$1; shift
  for round in $(seq 1 "$ROUNDS"); do
    run "$name.ceiling.$round" "${base}/healthz"
    BENCH_ROUND=$round run "$name.$round" "$@"
  done
}

measure create -s bench/create.lua "$base/v2/tracking_requests"
one=$(curl -sf -H "Authorization: Token $TIDEMARK_BENCH_KEY" "$base/v2/tracking_requests?page%5Bsize%5D=1" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
measure get_one -s bench/auth.lua "$base/v2/tracking_requests/$one"
measure list -s bench/auth.lua "$base/v2/tracking_requests?page%5Bsize%5D=30"
measure infer -s bench/infer.lua "$base/v2/tracking_requests/infer_number"
# A search for one booking the create rounds made, among all of them: the number is
# matched anywhere in every request's number and reference numbers. Before the trigram
# index (migration 0022) that was a scan of the account, so few connections and wrk's
# timeout raised from 2 s (an answer after it is not timed); kept, so builds compare.
SEARCH_CONNECTIONS=${SEARCH_CONNECTIONS:-4}
CONNECTIONS=$SEARCH_CONNECTIONS measure search --timeout 10s -s bench/auth.lua \
  "$base/v2/search?query=B11000000001234"
stored=$(curl -sf -H "Authorization: Token $TIDEMARK_BENCH_KEY" "$base/v2/tracking_requests?page%5Bsize%5D=1" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')

# The console's shipment page needs a shipment: a second server on a fresh database with
# the tracker, one sandbox request (a voyage with a container on hold), found at once.
stop_tidemark
mkdir "$work/console" && work_api=$work && work=$work/console
export TIDEMARK_ROLES=api,tracker
start_tidemark
export TIDEMARK_BENCH_KEY=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
console="http://$address"
curl -sf -o /dev/null -X POST "$console/v2/tracking_requests" -H "Authorization: Token $TIDEMARK_BENCH_KEY" \
  -H 'Content-Type: application/vnd.api+json' \
  -d '{"data":{"type":"tracking_request","attributes":{"request_type":"bill_of_lading","request_number":"TEST-TR-HOLDS","scac":"TEST"}}}'
shipment=""
for _ in $(seq 1 100); do
  shipment=$(curl -sf -H "Authorization: Token $TIDEMARK_BENCH_KEY" "$console/v2/shipments" \
    | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d[0]["id"] if d else "")')
  [[ -n "$shipment" ]] && break
  sleep 0.2
done
[[ -n "$shipment" ]] || { echo "the sandbox found no shipment" >&2; exit 1; }
page=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: tidemark_session=$TIDEMARK_BENCH_KEY" "$console/console/shipments/$shipment")
[[ "$page" == 200 ]] || { echo "the console's shipment page answered $page" >&2; exit 1; }
work=$work_api base=$console
measure console -s bench/console.lua "$console/console/shipments/$shipment"

python3 - "$work" "$stored" "$DURATION" "$CONNECTIONS" "$ROUNDS" "$SEARCH_CONNECTIONS" <<'PY'
import sys, pathlib
sys.path.insert(0, "bench")
from wrk_figures import parse as parse_file
work, stored, duration, connections = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rounds, search_connections = int(sys.argv[5]), sys.argv[6]
def parse(name):
    return parse_file(work / f"{name}.txt")
rows = [("POST /v2/tracking_requests", "create"),
        ("GET /v2/tracking_requests/{id}", "get_one"), ("GET /v2/tracking_requests?page[size]=30", "list"),
        ("POST /v2/tracking_requests/infer_number", "infer"),
        (f"GET /v2/search?query=… (one booking; {search_connections} connections)", "search"),
        ("GET /console/shipments/{id} (HTML)", "console")]
print(f"wrk, {connections} connections, {rounds} rounds of {duration} per endpoint, release build, "
      "SQLite (WAL, synchronous=FULL)\n")
print("| endpoint | req/s | p50 ms | p99 ms | ceiling just before (GET /healthz) | vs ceiling | lowest–highest | non-2xx or timed out |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
created = 0
for label, key in rows:
    measured = [(parse(f"{key}.{r}"), parse(f"{key}.ceiling.{r}")[0]) for r in range(1, rounds + 1)]
    shares = sorted(result[0] / ceiling for result, ceiling in measured)
    (rps, p50, p99, _, _), ceiling = sorted(measured, key=lambda m: m[0][0] / m[1])[len(measured) // 2]
    errors = sum(result[3] for result, _ in measured)
    created += sum(result[4] or 0 for result, _ in measured) if key == "create" else 0
    print(f"| {label} | {rps:,.{0 if rps >= 100 else 1}f} | {p50:.2f} | {p99:.2f} | {ceiling:,.0f} | {rps / ceiling:.0%} "
          f"| {shares[0]:.0%}–{shares[-1]:.0%} | {errors} |")
print(f"\n201 answers: {created}; tracking requests in the database afterwards: {stored} "
      f"({'every 201 is stored' if stored >= created else 'MISSING ROWS'})")
PY
