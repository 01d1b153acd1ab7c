#!/usr/bin/env bash
# A carrier's push, from the carrier to the client's webhook: a release `tidemark serve`
# tracks bills at MAEU reached at a separate `carrier-sim` that pushes (DCSA 2.2 event
# subscriptions, `push = "dcsa_2_2"`), with polling slowed to its safety net; each round
# the simulator records a new estimated arrival for one shipment and pushes its events,
# signed. The latency is from just before the push to the signed webhook's arrival at the
# receiver (crates/tidemark/examples/webhook_receiver.rs): callback, signature check, the
# shipment read again, the commit, the dispatcher.
#
#   bash bench/push.sh              # SQLite, 8 shipments, 40 rounds
#   ROUNDS=100 bash bench/push.sh
#   BACKEND=postgres bash bench/push.sh
#   BACKEND=postgres SPLIT=1 bash bench/push.sh   # the dispatcher in a process of its own,
#                                                  # polling once a minute: woken by
#                                                  # PostgreSQL's announcements
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-40}
SHIPMENTS=${SHIPMENTS:-8}
BACKEND=${BACKEND:-sqlite}
export TIDEMARK_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

cargo build --release -q -p tidemark --bin tidemark --example webhook_receiver
cargo build --release -q -p carrier-sim
work=$(mktemp -d)
database=""
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n "$database" ]]; then
    psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true
  fi
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

wait_for() { # file pattern
  for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  cat "$1" >&2; echo "did not start" >&2; return 1
}

./target/release/carrier-sim --listen 127.0.0.1:0 --api-key sim-key --admin-key sim-admin 2>"$work/sim.log" &
pids+=($!)
wait_for "$work/sim.log" "listening on"
sim=$(grep -o 'http://[0-9.:]*' "$work/sim.log" | head -1)

./target/release/examples/webhook_receiver 127.0.0.1:0 >"$work/receiver.out" &
pids+=($!)
wait_for "$work/receiver.out" "listening on"
receiver=$(grep -o 'http://[0-9.:]*' "$work/receiver.out" | head -1)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
if [[ "$BACKEND" == postgres ]]; then
  database="tidemark_push_$$"
  psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE $database"
  export TIDEMARK_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$database"
else
  export TIDEMARK_DATABASE_URL="sqlite://$work/tidemark.db"
fi
export TIDEMARK_CARRIERS__CALLBACK_BASE_URL="http://127.0.0.1:$port"
export TIDEMARK_CARRIERS__ENDPOINTS__MAEU__BASE_URL="$sim/MAEU"
export TIDEMARK_CARRIERS__ENDPOINTS__MAEU__PUSH=dcsa_2_2
export TIDEMARK_CARRIERS__ENDPOINTS__MAEU__AUTH__KIND=header
export TIDEMARK_CARRIERS__ENDPOINTS__MAEU__AUTH__NAME=API-Key
export TIDEMARK_CARRIERS__ENDPOINTS__MAEU__AUTH__VALUE=sim-key
export TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE=1000000
bin=${TIDEMARK_BIN:-./target/release/tidemark}
if [[ -n "${SPLIT:-}" ]]; then
  [[ "$BACKEND" == postgres ]] || { echo "SPLIT needs BACKEND=postgres" >&2; exit 1; }
  "$bin" serve --roles api,tracker --listen "127.0.0.1:$port" >"$work/stdout" 2>"$work/stderr" &
  pids+=($!)
  wait_for "$work/stderr" "listening on"
  TIDEMARK_DISPATCHER__POLL=60s "$bin" serve --roles dispatcher >"$work/dispatcher.out" 2>"$work/dispatcher.err" &
  pids+=($!)
  wait_for "$work/dispatcher.err" "dispatcher started"
  echo "two processes: api+tracker, and a dispatcher polling once a minute"
else
  "$bin" serve --listen "127.0.0.1:$port" >"$work/stdout" 2>"$work/stderr" &
  pids+=($!)
  wait_for "$work/stderr" "listening on"
fi
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }

cat >"$work/push.py" <<'PY'
import http.client, json, sys, time, urllib.request, uuid
from datetime import datetime, timedelta, timezone

tidemark, key, sim, receiver, rounds, shipments = sys.argv[1:7]
rounds, shipments = int(rounds), int(shipments)
headers = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}

def call(method, path, body=None):
    c = http.client.HTTPConnection(tidemark, timeout=30)
    c.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = c.getresponse()
    text = r.read()
    return r.status, (json.loads(text) if text else None)

def sim_call(method, path, body=None):
    request = urllib.request.Request(f"{sim}{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Admin-Key": "sim-admin", "API-Key": "sim-key", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        text = r.read()
        return json.loads(text) if text else None

def stats():
    return json.load(urllib.request.urlopen(f"{receiver}/stats"))

status, body = call("POST", "/v2/webhooks", {"data": {"type": "webhook", "attributes": {"url": f"{receiver}/hook"}}})
assert status == 201, body

# Bills at sea: the arrival at the port of discharge is still ahead.
bills = []
for n in range(400):
    bill = f"MAEU2405{n:05d}"
    events = sim_call("GET", f"/MAEU/v2/events?transportDocumentReference={bill}&limit=1000")
    arrivals = [e for e in events if e.get("eventType") == "TRANSPORT" and e["transportEventTypeCode"] == "ARRI"]
    if not arrivals or any(e["eventClassifierCode"] == "ACT" for e in arrivals):
        continue
    last = max(arrivals, key=lambda e: e["transportCall"].get("transportCallSequenceNumber", 0))
    if last["transportCall"]["transportCallSequenceNumber"] != max(
            e["transportCall"]["transportCallSequenceNumber"] for e in arrivals):
        continue
    bills.append((bill, last))
    if len(bills) == shipments:
        break
for bill, _ in bills:
    status, body = call("POST", "/v2/tracking_requests", {"data": {"type": "tracking_request",
        "attributes": {"request_type": "bill_of_lading", "request_number": bill, "scac": "MAEU"}}})
    assert status == 201, body
deadline = time.monotonic() + 60
while call("GET", "/v2/tracking_requests?filter%5Bstatus%5D=created&page%5Bsize%5D=1")[1]["meta"]["total"] < len(bills):
    assert time.monotonic() < deadline, "not every bill was tracked within a minute"
    time.sleep(0.1)
time.sleep(1)  # the subscriptions follow the lookups' commits

latencies = []
for round in range(rounds):
    bill, arrival = bills[round % len(bills)]
    urllib.request.urlopen(urllib.request.Request(f"{receiver}/reset", method="POST"))
    # The simulator's clock starts at a whole second, so it may lag the wall clock by one.
    now = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(seconds=2)
    eta = datetime.fromisoformat(arrival["eventDateTime"].replace("Z", "+00:00")) + timedelta(hours=round + 1)
    event = dict(arrival, eventID=str(uuid.uuid4()), eventClassifierCode="EST",
                 eventCreatedDateTime=now.isoformat().replace("+00:00", "Z"),
                 eventDateTime=eta.isoformat().replace("+00:00", "Z"))
    sim_call("POST", "/admin/events", {"scac": "MAEU", "events": [event]})
    started = time.time()
    pushed = sim_call("POST", "/admin/event-pushes", {"scac": "MAEU"})["pushes"]
    assert pushed and all(p["status"] == 204 for p in pushed), pushed
    deadline = time.monotonic() + 10
    while (s := stats())["distinct"] == 0:
        assert time.monotonic() < deadline, f"round {round}: no webhook within 10 s"
        time.sleep(0.002)
    assert s["rejected"] == 0, "a webhook with a bad signature"
    latencies.append(s["first_us"] / 1e3 - started * 1e3)
    time.sleep(0.2)
lat = sorted(latencies)
pct = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))]
print(f"carrier push -> signed webhook, {len(lat)} rounds over {len(bills)} shipments: "
      f"p50 {pct(50):.0f} ms, p90 {pct(90):.0f} ms, p99 {pct(99):.0f} ms, max {lat[-1]:.0f} ms")
PY
echo "backend $BACKEND"
python3 "$work/push.py" "127.0.0.1:$port" "$key" "$sim" "$receiver" "$ROUNDS" "$SHIPMENTS"
