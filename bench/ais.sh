#!/usr/bin/env bash
# AIS intake: a release `tidemark serve --roles api,ais` reads a local TCP feed of
# sentences pyais made (bench/ais_feed.py: VESSELS vessels' static data, then ROUNDS
# positions each, twice), and the figures are:
#   - sentences decoded and stored per second, the feed alone (from /metrics'
#     tidemark_ais_sentences_total, until every sentence of the phase is counted and
#     written, the last vessel's latest position read back);
#   - the API's p99 (GET /v2/vessels/{imo} and GET /healthz, wrk) without the feed, then
#     while the second phase streams at RATE sentences a second (20,000), and the feed's
#     rate under that load;
#   - the database's bytes per vessel-day: the track's bytes per point (SQLite's dbstat
#     over ais_positions and its index) times the points a vessel-day keeps at the
#     default interval (144), plus a vessel's latest-position row.
#
#   bash bench/ais.sh                       # SQLite, 5,000 vessels, 40 rounds
#   VESSELS=2000 ROUNDS=20 bash bench/ais.sh
#   RATE=0 bash bench/ais.sh                # the second phase as fast as it is read
#   BACKEND=postgres bash bench/ais.sh      # the rate and p99 on PostgreSQL (no dbstat)
set -euo pipefail
cd "$(dirname "$0")/.."
VESSELS=${VESSELS:-5000}
ROUNDS=${ROUNDS:-40}
DURATION=${DURATION:-5s}
# The second phase's pace while the API is measured (sentences a second; 0: unpaced).
RATE=${RATE:-20000}
python3 -c "import pyais" 2>/dev/null || pip install -q pyais==3.3.1

# TIDEMARK_BIN names another binary to measure (see bench/serve.sh); otherwise this tree's.
[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
need_wrk
feed_pid=""
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
iso() { python3 -c "import datetime; print(datetime.datetime.fromtimestamp($1, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))"; }

warm_lines=$(wc -l <"$work/feed/warm.nmea")
bulk_lines=$(wc -l <"$work/feed/bulk1.nmea")
phase warm "$warm_lines" "$(iso 1800000000)" >/dev/null
imo=$(python3 -c "
digits=[int(d) for d in f'{900000:06d}']
print(900000 * 10 + sum(d * w for d, w in zip(digits, range(7, 1, -1))) % 10)")

cat >"$work/vessel.lua" <<LUA
wrk.headers["Authorization"] = "Token $key"
LUA
measure() { # label, path: wrk's p99 in ms and requests/s
  wrk -t2 -c32 -d"$DURATION" --latency -s "$work/vessel.lua" "$base$2" >"$work/wrk-$1.txt"
  python3 -c "
import sys; sys.path.insert(0, 'bench')
from wrk_figures import parse
rps, p50, p99, failed, _ = parse('$work/wrk-$1.txt')
print(f'{rps:.0f} {p50:.2f} {p99:.2f} {failed}')"
}

read -r h_rps _ h_p99 _ < <(measure healthz-quiet /healthz)
read -r v_rps _ v_p99 v_failed < <(measure vessel-quiet "/v2/vessels/$imo")

seconds=$(phase bulk1 $((warm_lines + bulk_lines)) "$(iso $((1800000000 + 600 * ROUNDS)))")
alone=$(python3 -c "print(f'{$bulk_lines / $seconds:.0f}')")

# The second phase streams while the API is measured: a poller notes when it is all read.
expected="$(iso $((1800000000 + 600 * 2 * ROUNDS)))"
started=$(date +%s.%N)
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
busy_seconds=$(python3 -c "print(f'{$(cat "$work/bulk2-done") - $started:.2f}')")
busy=$(python3 -c "print(f'{$bulk_lines / $busy_seconds:.0f}')")
streaming=$(python3 -c "print('yes' if $busy_seconds >= ${DURATION%s} else 'no: the feed ended before the measurement, raise ROUNDS')")
broken=$(curl -s "$base/metrics" | awk '/^tidemark_ais_sentences_total\{outcome="broken"\}/ {print $2}')

echo "backend: ${BACKEND:-sqlite}; $VESSELS vessels; $bulk_lines positions a phase"
echo "AIS sentences decoded and stored, the feed alone: $alone/s ($bulk_lines in ${seconds} s)"
echo "AIS sentences decoded and stored beside the API load: $busy/s (${busy_seconds} s; the feed streamed through the vessel measurement: $streaming)"
echo "broken sentences: ${broken:-0}"
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
