#!/usr/bin/env bash
# Tracking throughput: a release `tidemark serve` (API and tracker in one process, the
# built-in sandbox carrier on loopback) takes N tracking requests as fast as a client can
# create them, and the tracker looks every one up. Measured until none is pending:
# lookups per second over the whole run, and the time from create to the first decision
# (created, awaiting_manifest or failed), read from each request's created_at/updated_at.
#
#   bash bench/tracking.sh                  # SQLite, 10,000 requests
#   BACKEND=postgres bash bench/tracking.sh # a fresh database on 127.0.0.1:5432
#   N=2000 WORKERS=64 bash bench/tracking.sh
#   RATE=400 N=4000 bash bench/tracking.sh  # creates paced at 400/s, below the tracker's
#                                           # rate: the time to a decision without a queue
#   MODE=backlog bash bench/tracking.sh     # create all with the tracker off, then start
#                                           # it: the tracker's own rate, no creates beside
#   TIDEMARK_BIN=/tmp/old/tidemark bash bench/tracking.sh   # measure another build
#   KEEP=1 TIDEMARK_LOG__FILTER=warn,tidemark=info,sqlx::query=debug N=200 \
#     BACKEND=postgres bash bench/tracking.sh   # keeps the log: count the statements run
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10000}
BACKEND=${BACKEND:-sqlite}
MODE=${MODE:-live}
RATE=${RATE:-0}
export TIDEMARK_TRACKER__WORKERS=${WORKERS:-64}
# Real lines, simulated: the bench tracks MAEU bookings against the sandbox.
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

cargo build --release -q -p tidemark
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
cleanup() {
  stop_tidemark
  drop_database
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

use_backend
[[ "$MODE" == backlog ]] && export TIDEMARK_ROLES=api
start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }

cat >"$work/client.py" <<'PY'
import http.client, json, sys, threading, time
from datetime import datetime

# phase: "live" (create, then wait while the tracker works), "create" (only create), or
# "measure-backlog:<unix time the tracker started>" (only wait and measure).
phase, address, key, n, backend = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
rate = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0  # creates per second; 0: unpaced
host, port = address.split(":")
headers = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}

def connection():
    return http.client.HTTPConnection(host, int(port), timeout=30)

def create_all():
    failures = []
    def create(worker, count):
        conn = connection()
        for i in range(count):
            if rate > 0:
                # The i-th create of this thread is the (i * threads + worker)-th of all.
                due = started + (i * threads_n + worker) / rate
                time.sleep(max(0.0, due - time.monotonic()))
            number = f"BK{worker:02d}{i:08d}"
            body = json.dumps({"data": {"type": "tracking_request", "attributes": {
                "request_type": "booking_number", "request_number": number, "scac": "MAEU"}}})
            conn.request("POST", "/v2/tracking_requests", body, headers)
            response = conn.getresponse()
            response.read()
            if response.status != 201:
                failures.append(response.status)
    threads_n = 16
    started = time.monotonic()
    threads = [threading.Thread(target=create, args=(w, n // threads_n + (w < n % threads_n))) for w in range(threads_n)]
    for t in threads: t.start()
    for t in threads: t.join()
    created_in = time.monotonic() - started
    assert not failures, f"creates failed: {failures[:5]}"
    print(f"backend {backend}: {n} requests created in {created_in:.1f} s ({n / created_in:.0f}/s)")

if phase in ("live", "create"):
    create_all()
if phase == "create":
    sys.exit(0)

conn = connection()
def get(path):
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return json.loads(response.read())

deadline = time.monotonic() + 600
while True:
    pending = get("/v2/tracking_requests?filter%5Bstatus%5D=pending&page%5Bsize%5D=1")["meta"]["total"]
    if pending == 0:
        break
    if time.monotonic() > deadline:
        sys.exit(f"{pending} still pending after 10 minutes")
    time.sleep(0.2)

def ts(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

waits, first_created, last_decided, statuses = [], None, None, {}
page = 1
while True:
    body = get(f"/v2/tracking_requests?page%5Bsize%5D=100&page%5Bnumber%5D={page}")
    for request in body["data"]:
        a = request["attributes"]
        c, u = ts(a["created_at"]), ts(a["updated_at"])
        waits.append(u - c)
        first_created = c if first_created is None else min(first_created, c)
        last_decided = u if last_decided is None else max(last_decided, u)
        statuses[a["status"]] = statuses.get(a["status"], 0) + 1
    if "next" not in body["links"]:
        break
    page += 1
assert len(waits) == n, (len(waits), n)
if phase.startswith("measure-backlog:"):
    span = last_decided - float(phase.split(":", 1)[1])
    print(f"backlog of {n} worked off {span:.1f} s after the tracker started (start-up included): {n / span:.0f} lookups/s")
else:
    waits.sort()
    pct = lambda p: waits[min(len(waits) - 1, int(p / 100 * len(waits)))] * 1000
    span = last_decided - first_created
    print(f"all decided {span:.1f} s after the first create: {n / span:.0f} lookups/s")
    print(f"create -> decided: p50 {pct(50):.0f} ms, p90 {pct(90):.0f} ms, p99 {pct(99):.0f} ms, max {waits[-1] * 1000:.0f} ms")
print("statuses:", ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
PY
if [[ "$MODE" == backlog ]]; then
  python3 "$work/client.py" create "$address" "$key" "$N" "$BACKEND"
  stop_tidemark
  export TIDEMARK_ROLES=api,tracker
  started=$(date +%s.%N)
  start_tidemark
  python3 "$work/client.py" "measure-backlog:$started" "$address" "$key" "$N" "$BACKEND"
else
  python3 "$work/client.py" live "$address" "$key" "$N" "$BACKEND" "$RATE"
fi

# Where the bytes of a tracked request go, after its first lookup: each table with its
# indexes (SQLite's dbstat; PostgreSQL's pg_total_relation_size), per request.
stop_tidemark
if [[ "$BACKEND" == postgres ]]; then
  psql -q -h 127.0.0.1 -U postgres -d "$database" -c "VACUUM" >/dev/null
  psql -Atq -F ' ' -h 127.0.0.1 -U postgres -d "$database" -c \
    "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'" >"$work/sizes"
else
  python3 - "$work/tidemark.db" >"$work/sizes" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
owner = dict(db.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
sizes = {}
for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
    table = owner.get(name, name)
    sizes[table] = sizes.get(table, 0) + size
for table, size in sizes.items():
    print(table, size)
PY
fi
python3 - "$work/sizes" "$N" "$BACKEND" <<'PY'
import sys
sizes = [(int(size), table) for table, size in (line.split() for line in open(sys.argv[1]) if line.strip())]
n, total = int(sys.argv[2]), sum(size for size, _ in sizes)
print(f"database ({sys.argv[3]}): {total / 1024 / n:.1f} KiB a request ({total / 1048576:.1f} MiB for {n})")
for size, table in sorted(sizes, reverse=True)[:12]:
    if size:
        print(f"  {table}: {size / 1024 / n:.2f} KiB a request ({100 * size / total:.0f} %)")
PY
