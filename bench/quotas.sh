#!/usr/bin/env bash
# A carrier's quota held by several tracker processes together on one PostgreSQL database:
# a release `tidemark serve --roles api` takes 400 bills at HLCU, reached at a separate
# `carrier-sim`; then TRACKERS processes `tidemark serve --roles tracker` (each with its
# own in-process limiter) look them up for SECONDS_RUN seconds of wall clock. The
# simulator notes when each call arrives; the script fails when any window of T seconds
# (1, 5, 10) holds more calls than the token bucket allows (BURST + PER_SECOND x T), when
# the total exceeds it, or when a request failed instead of waiting.
#
#   bash bench/quotas.sh                     # 3 trackers, 60 s, 5 calls/s, burst 5
#   TRACKERS=1 SECONDS_RUN=20 bash bench/quotas.sh
#   PROFILE=debug bash bench/quotas.sh       # a debug build
#   TIDEMARK_BIN=… CARRIER_SIM_BIN=… bash bench/quotas.sh   # binaries already built (CI: the tests')
set -euo pipefail
cd "$(dirname "$0")/.."
TRACKERS=${TRACKERS:-3}
SECONDS_RUN=${SECONDS_RUN:-60}
PER_SECOND=${PER_SECOND:-5}
BURST=${BURST:-5}
BILLS=${BILLS:-400}
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info,tidemark_workers::tracker=info}

PROFILE=${PROFILE:-release}
if [[ "$PROFILE" == release ]]; then flag=--release; else flag=; fi
# TIDEMARK_BIN and CARRIER_SIM_BIN name binaries already built (CI passes the tests' own).
bin=${TIDEMARK_BIN:-./target/$PROFILE/tidemark}
sim_bin=${CARRIER_SIM_BIN:-./target/$PROFILE/carrier-sim}
[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build $flag -q -p tidemark --bin tidemark
[[ -n "${CARRIER_SIM_BIN:-}" ]] || cargo build $flag -q -p carrier-sim
work=$(mktemp -d)
database="tidemark_quotas_$$"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

wait_for() { # file pattern
  for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  cat "$1" >&2; echo "did not start" >&2; return 1
}

"$sim_bin" --listen 127.0.0.1:0 --api-key sim-key --admin-key sim-admin 2>"$work/sim.log" &
pids+=($!)
wait_for "$work/sim.log" "listening on"
sim=$(grep -o 'http://[0-9.:]*' "$work/sim.log" | head -1)

psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE $database"
export TIDEMARK_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$database"
export TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE=1000000
cat >"$work/tidemark.toml" <<TOML
[carriers.endpoints.HLCU]
base_url = "$sim/HLCU"
auth = { kind = "header", name = "API-Key", value = "sim-key" }
settings = { per_second = $PER_SECOND, burst = $BURST, concurrency = 8, connect_timeout = "2s", timeout = "5s", max_response_bytes = 8388608, page_size = 100, max_pages = 50 }
TOML

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" --config "$work/tidemark.toml" serve --roles api --listen "127.0.0.1:$port" >"$work/api.out" 2>"$work/api.err" &
pids+=($!)
wait_for "$work/api.err" "listening on"
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/api.out" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }

cat >"$work/quotas.py" <<'PY'
import http.client, json, sys, time, urllib.request

tidemark, key, sim, bills = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
headers = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}

def call(method, path, body=None):
    c = http.client.HTTPConnection(tidemark, timeout=30)
    c.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = c.getresponse()
    text = r.read()
    return r.status, (json.loads(text) if text else None)

if sys.argv[5] == "create":
    for n in range(bills):
        status, body = call("POST", "/v2/tracking_requests", {"data": {"type": "tracking_request",
            "attributes": {"request_type": "bill_of_lading", "request_number": f"HLCUQ{n:06d}", "scac": "HLCU"}}})
        assert status == 201, body
    sys.exit(0)

rate, burst, seconds = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
request = urllib.request.Request(f"{sim}/admin/calls?scac=HLCU", headers={"Admin-Key": "sim-admin"})
calls = sorted(json.load(urllib.request.urlopen(request))["calls"])
assert calls, "the trackers made no call"
start = calls[0]
calls = [c for c in calls if c < start + seconds * 1000]
# The most calls in any window of `width` milliseconds.
def busiest(times, width):
    best, j = 0, 0
    for i, t in enumerate(times):
        while times[j] <= t - width:
            j += 1
        best = max(best, i - j + 1)
    return best
# A token bucket's guarantee: any window of T seconds holds at most burst + rate x T calls
# (one more for a call granted at a window's edge and noted by the simulator a moment later).
# A tighter figure for one second after the start would assume the bucket never refills,
# which it does whenever the trackers pause between batches.
windows = {1: busiest(calls, 1000), 5: busiest(calls, 5000), 10: busiest(calls, 10000)}
bounds = {w: burst + rate * w + 1 for w in windows}
allowed_total = burst + rate * seconds
failed = call("GET", "/v2/tracking_requests?filter%5Bstatus%5D=failed&page%5Bsize%5D=1")[1]["meta"]["total"]
print(f"{len(calls)} calls in {seconds} s (at most {allowed_total} allowed: {rate}/s after a burst of {burst}); "
      + ", ".join(f"busiest {w} s {n} (at most {bounds[w]})" for w, n in windows.items())
      + f"; requests failed: {failed}")
ok = len(calls) <= allowed_total and all(n <= bounds[w] for w, n in windows.items()) and failed == 0
ok = ok and len(calls) >= rate * (seconds - 5)
print("quota held" if ok else "QUOTA BROKEN (or starved)")
sys.exit(0 if ok else 1)
PY
python3 "$work/quotas.py" "127.0.0.1:$port" "$key" "$sim" "$BILLS" create

for n in $(seq 1 "$TRACKERS"); do
  "$bin" --config "$work/tidemark.toml" serve --roles tracker >"$work/tracker$n.out" 2>"$work/tracker$n.err" &
  pids+=($!)
done
echo "$TRACKERS tracker processes on one PostgreSQL database, $SECONDS_RUN s"
sleep "$((SECONDS_RUN + 2))"
for n in $(seq 1 "$TRACKERS"); do
  echo "tracker $n: $(grep -c ' lookup' "$work/tracker$n.err" || true) lookups"
done
python3 "$work/quotas.py" "127.0.0.1:$port" "$key" "$sim" "$BILLS" count "$PER_SECOND" "$BURST" "$SECONDS_RUN"
