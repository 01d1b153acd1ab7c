#!/usr/bin/env bash
# The console's lists with a large account: a release `tidemark serve` (SQLite, or a fresh
# PostgreSQL database with BACKEND=postgres) tracks sandbox-simulated MAEU bookings until
# the account holds CONTAINERS boxes (100,000 by default; the simulator gives each shipment
# a few), through the real paths (the API's creates, the tracker's lookups and commits).
# Then each list page (50 rows) is measured with wrk at a few people's load, beside
# /healthz in the same run: p50 and p99 per page.
#
#   bash bench/console_lists.sh                       # 100,000 containers, SQLite
#   CONTAINERS=20000 BACKEND=postgres bash bench/console_lists.sh
#   CONNECTIONS=4 DURATION=10s bash bench/console_lists.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CONTAINERS=${CONTAINERS:-100000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-4}
export TIDEMARK_TRACKER__WORKERS=${WORKERS:-64}
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
# Looked up once while the account fills; nothing is refreshed while the pages are measured.
export TIDEMARK_TRACKING__REFRESH=7d TIDEMARK_TRACKING__REFRESH_AT_SEA=7d \
  TIDEMARK_TRACKING__REFRESH_NEAR=7d
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
need_wrk
trap 'stop_tidemark; drop_database; rm -rf "$work"' EXIT
use_backend
start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }
export TIDEMARK_BENCH_KEY=$key

cat >"$work/fill.py" <<'PY'
import http.client, json, sys, threading, time

address, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
host, port = address.split(":")
headers = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}

def get(path):
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.request("GET", path, headers=headers)
    return json.loads(conn.getresponse().read())

def create(worker, start, count):
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    for i in range(start, start + count):
        body = json.dumps({"data": {"type": "tracking_request", "attributes": {
            "request_type": "booking_number", "request_number": f"BL{worker:02d}{i:08d}",
            "scac": "MAEU"}}})
        conn.request("POST", "/v2/tracking_requests", body, headers)
        response = conn.getresponse()
        response.read()
        if response.status != 201:
            sys.exit(f"create answered {response.status}")

started, made, batch = time.monotonic(), 0, 4000
while True:
    boxes = get("/v2/containers?page%5Bsize%5D=1")["meta"]["total"]
    pending = get("/v2/tracking_requests?filter%5Bstatus%5D=pending&page%5Bsize%5D=1")["meta"]["total"]
    print(f"{time.monotonic() - started:6.0f} s: {made} requests, {boxes} containers, {pending} pending", flush=True)
    if boxes >= target and pending == 0:
        break
    if boxes + pending * 3 < target:
        threads = [threading.Thread(target=create, args=(w, made // 16, batch // 16)) for w in range(16)]
        for t in threads: t.start()
        for t in threads: t.join()
        made += batch
    else:
        time.sleep(2)
print(f"filled: {boxes} containers from {made} requests in {time.monotonic() - started:.0f} s")
PY
python3 "$work/fill.py" "$address" "$key" "$CONTAINERS"
# Measured once the tracker has nothing due (its follow-up checks of the new boxes done),
# so the pages are timed as an account at rest is read, not beside the fill's aftermath.
for _ in $(seq 1 60); do
  due=$(curl -s "http://$address/metrics" | awk '/^tidemark_jobs_due/ {sum += $2} END {print sum + 0}')
  [[ "$due" == 0 ]] && break
  sleep 2
done
echo "jobs due before measuring: $due"
# One box's number, for a search that finds one box (MSKU finds about a third of them).
number=$(curl -s -H "Authorization: Token $key" "http://$address/v2/containers?page%5Bsize%5D=1" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["attributes"]["number"])')

run() { # name, path
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/console.lua "http://$address$2" >"$work/$1.txt" 2>&1
}
pages=(
  "containers|/console/containers"
  "containers_held|/console/containers?hold=yes"
  "containers_by_lfd|/console/containers?sort=last_free_day"
  "containers_searched|/console/containers?q=MSKU"
  "containers_found|/console/containers?q=$number"
  "requests_found|/console/requests?q=$number"
  "containers_page_40|/console/containers?page=40"
  "shipments|/console/shipments"
)
run ceiling /healthz
for page in "${pages[@]}"; do run "${page%%|*}" "${page#*|}"; done
python3 - "$work" "$CONNECTIONS" "${pages[@]}" <<'PY'
import sys
sys.path.insert(0, "bench")
from wrk_figures import parse
work, connections, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
rps, p50, p99, failed, _ = parse(f"{work}/ceiling.txt")
print(f"\n{connections} connections; /healthz: {rps:,.0f}/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
for page in pages:
    name, path = page.split("|", 1)
    rps, p50, p99, failed, _ = parse(f"{work}/{name}.txt")
    mark = "" if failed == 0 else f"  ({failed} failed)"
    print(f"{path}: {rps:,.0f}/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms{mark}")
PY
