#!/usr/bin/env bash
# Webhook delivery: a release `tidemark serve` delivers to a local receiver
# (crates/tidemark/examples/webhook_receiver.rs, which checks every signature).
#
# 1. Throughput. With the dispatcher off, the tracker records the events of N sandbox
#    requests (about nine each) and so fills the queue; then a process running only the
#    dispatcher starts, and the receiver's clock says how fast it empties the queue:
#    deliveries per second from the dispatcher's start (start-up included) and between
#    the first and the last arrival.
# 2. Latency on an idle queue. Everything runs; requests come one at a time, a pause
#    apart; each notification's latency is its arrival minus its event's created_at.
#
#   bash bench/webhooks.sh                   # SQLite, 1,000 requests, one webhook
#   BACKEND=postgres bash bench/webhooks.sh  # a fresh database on 127.0.0.1:5432
#   N=500 PER_WEBHOOK=16 bash bench/webhooks.sh
#   N=300 WEBHOOKS=8 bash bench/webhooks.sh  # eight subscriptions (each gets every event)
#   PROFILE=/tmp/dispatcher.perf bash bench/webhooks.sh   # the dispatcher under perf record
#   BACKLOG=500000 BACKEND=postgres N=100 bash bench/webhooks.sh
#       # a receiver down for a day: the events of N requests copied (a day old) until
#       # BACKLOG notifications wait; the dispatcher's rate over its first MEASURE seconds
#       # (60), and the claim statement's time from PostgreSQL's own statistics
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
WEBHOOKS=${WEBHOOKS:-1}
IDLE=${IDLE:-200}
BACKEND=${BACKEND:-sqlite}
BACKLOG=${BACKLOG:-}
MEASURE=${MEASURE:-60}
if [[ -n "$BACKLOG" && "$BACKEND" != postgres ]]; then
  echo "BACKLOG needs BACKEND=postgres" >&2
  exit 2
fi
# The defaults unless given.
[[ -n "${WORKERS:-}" ]] && export TIDEMARK_DISPATCHER__WORKERS=$WORKERS
[[ -n "${PER_WEBHOOK:-}" ]] && export TIDEMARK_WEBHOOKS__PER_WEBHOOK=$PER_WEBHOOK
export TIDEMARK_TRACKER__WORKERS=64
# Real lines, simulated: the bench tracks MAEU bookings against the sandbox.
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
export TIDEMARK_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

cargo build --release -q -p tidemark --bin tidemark --example webhook_receiver
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
receiver_pid=""
cleanup() {
  stop_tidemark
  [[ -n "$receiver_pid" ]] && kill "$receiver_pid" 2>/dev/null || true
  drop_database
  rm -rf "$work"
}
trap cleanup EXIT

use_backend

export TIDEMARK_ROLES=api,tracker
start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }

cat >"$work/client.py" <<'PY'
import http.client, json, sys, threading, time

command, address, key = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = address.split(":")
headers = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}

def call(conn, method, path, body=None):
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    text = response.read()
    return response.status, (json.loads(text) if text else None)

def conn():
    return http.client.HTTPConnection(host, int(port), timeout=30)

def wait_tracked(c):
    deadline = time.monotonic() + 600
    while call(c, "GET", "/v2/tracking_requests?filter%5Bstatus%5D=pending&page%5Bsize%5D=1")[1]["meta"]["total"]:
        if time.monotonic() > deadline:
            sys.exit("requests still pending after 10 minutes")
        time.sleep(0.2)

def create(c, number):
    status, body = call(c, "POST", "/v2/tracking_requests", {"data": {"type": "tracking_request",
        "attributes": {"request_type": "booking_number", "request_number": number, "scac": "MAEU"}}})
    assert status == 201, (status, body)

if command == "subscribe":
    url, secret_file, count = sys.argv[4], sys.argv[5], int(sys.argv[6])
    secrets = []
    for _ in range(count):
        status, body = call(conn(), "POST", "/v2/webhooks",
            {"data": {"type": "webhook", "attributes": {"url": url}}})
        assert status == 201, (status, body)
        secrets.append(body["data"]["attributes"]["secret"])
    open(secret_file, "w").write(",".join(secrets))
elif command == "fill":
    n = int(sys.argv[4])
    def worker(w, count):
        c = conn()
        for i in range(count):
            create(c, f"WH{w:02d}{i:08d}")
    threads = [threading.Thread(target=worker, args=(w, n // 16 + (w < n % 16))) for w in range(16)]
    for t in threads: t.start()
    for t in threads: t.join()
    c = conn()
    wait_tracked(c)
    total = call(c, "GET", "/v2/webhook_notifications?page%5Bsize%5D=1")[1]["meta"]["total"]
    print(total)
elif command == "trickle":
    n, pause = int(sys.argv[4]), float(sys.argv[5])
    c = conn()
    for i in range(n):
        create(c, f"IDLE{i:08d}")
        time.sleep(pause)
    wait_tracked(c)
    print(call(c, "GET", "/v2/webhook_notifications?page%5Bsize%5D=1")[1]["meta"]["total"])
PY

cat >"$work/stats.py" <<'PY'
import json, sys, time, urllib.request
# wait <receiver> <count>: until the receiver has that many distinct deliveries.
# report-throughput <receiver> <count> <dispatcher start, unix seconds> | report-latency <receiver>
command, receiver = sys.argv[1], sys.argv[2]
def stats():
    return json.load(urllib.request.urlopen(f"{receiver}/stats"))
if command == "count":
    print(stats()["distinct"])
    sys.exit(0)
if command == "wait":
    want, deadline = int(sys.argv[3]), time.monotonic() + 600
    while (s := stats())["distinct"] < want:
        if time.monotonic() > deadline:
            sys.exit(f"only {s['distinct']} of {want} delivered after 10 minutes")
        time.sleep(0.05)
    assert s["rejected"] == 0, f"{s['rejected']} deliveries with a bad signature"
    sys.exit(0)
s = stats()
if command == "report-throughput":
    count, started = int(sys.argv[3]), float(sys.argv[4])
    whole = s["last_us"] / 1e6 - started
    flowing = (s["last_us"] - s["first_us"]) / 1e6
    print(f"{count} deliveries (received {s['received']}, distinct {s['distinct']}): "
          f"{count / whole:.0f}/s from the dispatcher's start ({whole:.2f} s, start-up included), "
          f"{count / flowing:.0f}/s first to last arrival ({flowing:.2f} s)")
else:
    lat = sorted(s["latencies_ms"])
    pct = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))]
    print(f"event -> delivery on an idle queue, {len(lat)} deliveries: p50 {pct(50):.1f} ms, "
          f"p90 {pct(90):.1f} ms, p99 {pct(99):.1f} ms, max {lat[-1]:.1f} ms")
PY

# backlog COUNT: the recorded events copied, a day old, until COUNT notifications are
# pending (the receiver was down for a day), and the statistics fresh.
backlog() {
  local count=$1 columns
  columns=$(psql -Atq -h 127.0.0.1 -U postgres -d "$database" -c "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'domain_events' AND column_name NOT IN ('id', 'dedupe_key', 'created_at')")
  psql -q -h 127.0.0.1 -U postgres -d "$database" <<SQL
INSERT INTO domain_events (id, $columns, dedupe_key, created_at)
SELECT gen_random_uuid(), $columns, dedupe_key || ':backlog:' || g, created_at - interval '1 day'
FROM domain_events, generate_series(1, CEIL($count::numeric / GREATEST(1, (SELECT count(*) FROM domain_events)))::int) g;
INSERT INTO webhook_notifications (id, account_id, webhook_id, domain_event_id, event,
    delivery_status, attempts, due_at, created_at, updated_at)
SELECT gen_random_uuid(), d.account_id, w.id, d.id, d.name, 'pending', 0, d.created_at,
    d.created_at, d.created_at
FROM domain_events d JOIN webhooks w ON w.account_id = d.account_id
WHERE d.dedupe_key LIKE '%:backlog:%'
LIMIT GREATEST(0, $count - (SELECT count(*) FROM webhook_notifications WHERE delivery_status = 'pending'));
VACUUM ANALYZE;
SQL
  echo "pending: $(psql -Atq -h 127.0.0.1 -U postgres -d "$database" -c "SELECT count(*) FROM webhook_notifications WHERE delivery_status = 'pending'")"
  # The statements' times from here on, where the server can keep them.
  psql -q -h 127.0.0.1 -U postgres -d "$database" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" 2>/dev/null &&
    psql -q -h 127.0.0.1 -U postgres -d "$database" -c "SELECT pg_stat_statements_reset()" >/dev/null 2>&1 || true
}

# CPU seconds so far of the dispatcher, of every PostgreSQL server process, of the receiver.
cpu_seconds() {
  python3 - "$server_pid" "$receiver_pid" <<'PY'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
def cpu(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick
    except (OSError, IndexError, ValueError):
        return 0.0
def named(name):
    found = []
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{p}/comm").read().strip() == name:
                found.append(p)
        except OSError:
            pass
    return found
postgres = sum(cpu(p) for p in named("postgres"))
print(cpu(sys.argv[1]), postgres, cpu(sys.argv[2]))
PY
}

# The dispatcher's statements by total time, when pg_stat_statements is loaded.
claim_statistics() {
  psql -q -h 127.0.0.1 -U postgres -d "$database" -c "SELECT calls, round(mean_exec_time::numeric, 2) AS mean_ms, round(total_exec_time::numeric) AS total_ms, left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS statement FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 8" 2>/dev/null ||
    echo "(pg_stat_statements is not loaded: shared_preload_libraries)"
}

./target/release/examples/webhook_receiver 127.0.0.1:0 >"$work/receiver.out" &
receiver_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/receiver.out" 2>/dev/null && break; sleep 0.05; done
receiver=$(grep -o 'http://[0-9.:]*' "$work/receiver.out" | head -1)
python3 "$work/client.py" subscribe "$address" "$key" "$receiver/hook" "$work/secret" "$WEBHOOKS"
# Signatures are checked from here on.
kill "$receiver_pid"; wait "$receiver_pid" 2>/dev/null || true
./target/release/examples/webhook_receiver "${receiver#http://}" "$(cat "$work/secret")" >"$work/receiver.out" &
receiver_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/receiver.out" 2>/dev/null && break; sleep 0.05; done

echo "backend $BACKEND, $WEBHOOKS webhook(s), dispatcher workers ${WORKERS:-default}, per webhook ${PER_WEBHOOK:-default}"
total=$(python3 "$work/client.py" fill "$address" "$key" "$N")
stop_tidemark
# PostgreSQL plans from statistics, which autovacuum refreshes within a minute of a bulk
# change; a fresh database has none yet for the rows just written, so gather them now.
if [[ "$BACKEND" == postgres ]]; then
  psql -q -h 127.0.0.1 -U postgres -d "$database" -c "ANALYZE"
fi

if [[ -n "$BACKLOG" ]]; then
  backlog "$BACKLOG"
  total=$BACKLOG
fi

# Only the dispatcher: no API, so no address to wait for.
export TIDEMARK_ROLES=dispatcher
started=$(date +%s.%N)
if [[ -n "${PROFILE:-}" ]]; then
  perf record -F 999 -g -o "$PROFILE" -- "${TIDEMARK_BIN:-./target/release/tidemark}" serve >"$work/stdout" 2>"$work/stderr" &
else
  "${TIDEMARK_BIN:-./target/release/tidemark}" serve >"$work/stdout" 2>"$work/stderr" &
fi
server_pid=$!
if [[ -n "$BACKLOG" ]]; then
  cpu_before=$(cpu_seconds)
  sleep "$MEASURE"
  delivered=$(python3 "$work/stats.py" count "$receiver")
  elapsed=$(python3 -c "import time; print(f'{time.time() - $started:.2f}')")
  cpu_after=$(cpu_seconds)
  stop_tidemark
  python3 -c "
b, a = [float(x) for x in '$cpu_before'.split()], [float(x) for x in '$cpu_after'.split()]
d = [y - x for x, y in zip(b, a)]
print(f'CPU over the window: dispatcher {d[0]:.1f} s, PostgreSQL {d[1]:.1f} s, receiver {d[2]:.1f} s; per delivery {1e3 * d[0] / $delivered:.2f}, {1e3 * d[1] / $delivered:.2f}, {1e3 * d[2] / $delivered:.2f} ms')"
  python3 -c "print(f'backlog of $BACKLOG: {$delivered} delivered in the first {$elapsed} s from the dispatcher\'s start: {$delivered / $elapsed:.0f}/s')"
  claim_statistics
  exit 0
fi
python3 "$work/stats.py" wait "$receiver" "$total"
python3 "$work/stats.py" report-throughput "$receiver" "$total" "$started"
stop_tidemark

curl -sf -X POST "$receiver/reset"
export TIDEMARK_ROLES=api,tracker,dispatcher
start_tidemark
after=$(python3 "$work/client.py" trickle "$address" "$key" "$IDLE" 0.05)
python3 "$work/stats.py" wait "$receiver" "$((after - total))"
python3 "$work/stats.py" report-latency "$receiver"
