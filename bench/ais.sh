#!/usr/bin/env bash
# AIS intake: a release `tidemark serve --roles api,ais` reads a local TCP feed of
# sentences pyais made (bench/ais_feed.py: VESSELS vessels' static data, then ROUNDS
# positions each, twice), and the figures are:
#   - sentences decoded and stored per second, the feed alone (from /metrics'
#     tidemark_ais_sentences_total, until every sentence of the phase is counted and
#     written, the last vessel's latest position read back);
#   - the API's p99 (GET /v2/vessels/{imo} and GET /healthz) at a fixed request rate,
#     API_RATE a second (2,000; open loop: oha with its latency correction, so a stall
#     counts against every request that should have been sent during it) without the
#     feed, then while the second phase streams at RATE sentences a second (20,000), and
#     the feed's rate under that load;
#   - the database's bytes per vessel-day: the track's bytes per point (SQLite's dbstat
#     over ais_positions and its index) times the points a vessel-day keeps at the
#     default interval (144), plus a vessel's latest-position row.
#
#   bash bench/ais.sh                       # SQLite, 5,000 vessels, 100 rounds
#   VESSELS=2000 ROUNDS=20 bash bench/ais.sh
#   RATE=0 bash bench/ais.sh                # the second phase as fast as it is read
#   BACKEND=postgres bash bench/ais.sh      # the rate and p99 on PostgreSQL (no dbstat)
set -euo pipefail
cd "$(dirname "$0")/.."
VESSELS=${VESSELS:-5000}
ROUNDS=${ROUNDS:-100}
DURATION=${DURATION:-10s}
# The second phase's pace while the API is measured (sentences a second; 0: unpaced).
RATE=${RATE:-20000}
# The API's load: requests a second, sent on time whatever the answers do.
API_RATE=${API_RATE:-2000}
python3 -c "import pyais" 2>/dev/null || pip install -q pyais==3.3.1
command -v oha >/dev/null || cargo install -q oha --locked --version 1.16.0

# TIDEMARK_BIN names another binary to measure (see bench/serve.sh); otherwise this tree's.
[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
feed_pid=""""
cleanup() {
  touch "$work/feed/go-stop" 2>/dev/null || true
  [[ -n "$feed_pid" ]] && kill "$feed_pid" 2>/dev/null || true
  stop_tidemark
  drop_database
  rm -rf "$work"
}
trap cleanup EXIT

echo "making the feed: $VESSELS vessels, 2 x $ROUNDS rounds (pyais)…" >&2
python3 bench/ais_feed.py make "$work/feed" "$VESSELS" "$ROUNDS"
python3 bench/ais_feed.py serve "$work/feed" "$work/feed/port" "$RATE" &
feed_pid=$!
for _ in $(seq 1 100); do [[ -s "$work/feed/port" ]] && break; sleep 0.05; done

use_backend
export TIDEMARK_ROLES=api,ais
export TIDEMARK_SANDBOX__ENABLED=false
export TIDEMARK_AIS__SOURCES="tcp://127.0.0.1:$(cat "$work/feed/port")"
export TIDEMARK_LOG__FILTER=warn,tidemark::commands=info
start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
base="http://$address"

counted() { # sentences the reader has read, by every outcome
  curl -s "$base/metrics" | awk '/^tidemark_ais_sentences_total/ {sum += $2} END {print sum + 0}'
}
latest_at() { # the position time of the last vessel
  curl -s "$base/v2/vessels/$(python3 -c "
digits=[int(d) for d in f'{900000 + $VESSELS - 1:06d}']
print((900000 + $VESSELS - 1) * 10 + sum(d * w for d, w in zip(digits, range(7, 1, -1))) % 10)")" \
    -H "Authorization: Token $key" | python3 -c "import json,sys; print(json.load(sys.stdin)['data']['attributes']['position_timestamp'] or '')" 2>/dev/null || true
}
phase() { # name, lines expected in all so far, the last vessel's time then: seconds taken
  local name=$1 total=$2 expected=$3 started
  started=$(date +%s.%N)
  touch "$work/feed/go-$name"
  for _ in $(seq 1 6000); do
    if (( $(counted) >= total )) && [[ "$(latest_at)" == "$expected" ]]; then break; fi
    sleep 0.05
  done
  python3 -c "import time; print(f'{time.time() - $started:.2f}')"
}
threads() { # the server's CPU time by thread name, in clock ticks: "name ticks" lines
  for stat in /proc/"$server_pid"/task/*/stat; do
    awk '{ match($0, /\(.*\)/); name = substr($0, RSTART + 1, RLENGTH - 2); rest = substr($0, RSTART + RLENGTH + 1); split(rest, f, " "); gsub(/ /, "_", name); print name, f[12] + f[13] }' "$stat" 2>/dev/null
  done | awk '{ ticks[$1] += $2 } END { for (n in ticks) print n, ticks[n] }' | sort
}
cpu_between() { # two threads() snapshots: CPU seconds by thread name, the busiest first
  python3 - "$1" "$2" "$(getconf CLK_TCK)" <<'PY'
import sys
read = lambda p: {n: int(t) for n, t in (l.split() for l in open(p) if l.strip())}
a, b, tick = read(sys.argv[1]), read(sys.argv[2]), int(sys.argv[3])
used = sorted(((b[n] - a.get(n, 0)) / tick, n) for n in b)
total = sum(u for u, _ in used)
print(f"{total:.2f} " + ", ".join(f"{n} {u:.2f}" for u, n in reversed(used) if u > 0))
PY
}
iso() { python3 -c "import datetime; print(datetime.datetime.fromtimestamp($1, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))"; }

warm_lines=$(wc -l <"$work/feed/warm.nmea")
bulk_lines=$(wc -l <"$work/feed/bulk1.nmea")
phase warm "$warm_lines" "$(iso 1800000000)" >/dev/null
imo=$(python3 -c "
digits=[int(d) for d in f'{900000:06d}']
print(900000 * 10 + sum(d * w for d, w in zip(digits, range(7, 1, -1))) % 10)")

measure() { # label, path: requests/s, p50 and p99 in ms, answers not 2xx
  oha -z "$DURATION" -q "$API_RATE" -c 32 --latency-correction --no-tui --output-format json \
    -H "Authorization: Token $key" "$base$2" >"$work/oha-$1.json"
  python3 -c "
import json
d = json.load(open('$work/oha-$1.json'))
p = d['latencyPercentiles']
codes = d['statusCodeDistribution']
# A request still in flight when the measurement ends is no failure.
failed = sum(n for code, n in codes.items() if not code.startswith('2')) + sum(n for e, n in d['errorDistribution'].items() if 'deadline' not in e)
print(f\"{d['summary']['requestsPerSec']:.0f} {p['p50'] * 1000:.2f} {p['p99'] * 1000:.2f} {failed}\")"
}

read -r h_rps _ h_p99 _ < <(measure healthz-quiet /healthz)
read -r v_rps _ v_p99 v_failed < <(measure vessel-quiet "/v2/vessels/$imo")

threads >"$work/cpu-before-alone"
seconds=$(phase bulk1 $((warm_lines + bulk_lines)) "$(iso $((1800000000 + 600 * ROUNDS)))")
threads >"$work/cpu-after-alone"
read -r alone_cpu alone_threads < <(cpu_between "$work/cpu-before-alone" "$work/cpu-after-alone")
alone=$(python3 -c "print(f'{$bulk_lines / $seconds:.0f}')")

# The second phase streams while the API is measured: a poller notes when it is all read.
expected="$(iso $((1800000000 + 600 * 2 * ROUNDS)))"
started=$(date +%s.%N)
threads >"$work/cpu-before-busy"
touch "$work/feed/go-bulk2"
(
  for _ in $(seq 1 12000); do
    if (( $(counted) >= warm_lines + 2 * bulk_lines )) && [[ "$(latest_at)" == "$expected" ]]; then break; fi
    sleep 0.05
  done
  date +%s.%N >"$work/bulk2-done"
) &
poller=$!
read -r vl_rps _ vl_p99 vl_failed < <(measure vessel-busy "/v2/vessels/$imo")
read -r hl_rps _ hl_p99 _ < <(measure healthz-busy /healthz)
wait "$poller"
threads >"$work/cpu-after-busy"
read -r busy_cpu busy_threads < <(cpu_between "$work/cpu-before-busy" "$work/cpu-after-busy")
busy_seconds=$(python3 -c "print(f'{$(cat "$work/bulk2-done") - $started:.2f}')")
busy=$(python3 -c "print(f'{$bulk_lines / $busy_seconds:.0f}')")
streaming=$(python3 -c "print('yes' if $busy_seconds >= ${DURATION%s} else 'no: the feed ended before the measurement, raise ROUNDS')")
broken=$(curl -s "$base/metrics" | awk '/^tidemark_ais_sentences_total\{outcome="broken"\}/ {print $2}')

echo "backend: ${BACKEND:-sqlite}; $VESSELS vessels; $bulk_lines positions a phase; the API at $API_RATE requests/s (open loop)"
echo "AIS sentences decoded and stored, the feed alone: $alone/s ($bulk_lines in ${seconds} s)"
echo "AIS sentences decoded and stored beside the API load: $busy/s (${busy_seconds} s; the feed streamed through the vessel measurement: $streaming)"
echo "broken sentences: ${broken:-0}"
python3 -c "print(f'the server CPU, the feed alone: $alone_cpu s for $bulk_lines sentences, {1e6 * $alone_cpu / $bulk_lines:.1f} µs a sentence')"
echo "  by thread: $alone_threads"
echo "the server CPU beside the API load: $busy_cpu s in $busy_seconds s"
echo "  by thread: $busy_threads"
echo "GET /healthz: p99 $h_p99 ms quiet, $hl_p99 ms with the feed ($h_rps/s, $hl_rps/s)"
echo "GET /v2/vessels/{imo}: p99 $v_p99 ms quiet, $vl_p99 ms with the feed ($v_rps/s, $vl_rps/s; failed $v_failed, $vl_failed)"
python3 -c "print(f'API p99 with the feed: {100 * ($vl_p99 / $v_p99 - 1):+.0f} % (the ceiling /healthz: {100 * ($hl_p99 / $h_p99 - 1):+.0f} %)')"

if [[ "${BACKEND:-sqlite}" == sqlite ]]; then
  stop_tidemark
  python3 - "$work/tidemark.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
size = dict(db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
points = db.execute("SELECT COUNT(*) FROM ais_positions").fetchone()[0]
vessels = db.execute("SELECT COUNT(*) FROM ais_vessels").fetchone()[0]
track = size.get("ais_positions", 0) + size.get("ais_positions_at", 0)
latest = size.get("ais_vessels", 0) + size.get("ais_vessels_imo", 0)
per_point = track / points
per_vessel = latest / vessels
print(f"track: {points} points in {track} bytes, {per_point:.1f} bytes a point (table and index)")
print(f"database per vessel-day at the default 10-minute track: {144 * per_point / 1024:.1f} KiB "
      f"(144 points), plus {per_vessel:.0f} bytes a vessel for its latest position")
PY
fi
