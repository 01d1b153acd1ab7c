#!/usr/bin/env bash
# Recovery after kill -9: how long a restarted Tidemark takes to resume a webhook's
# deliveries that the killed process held. A receiver on loopback records when each
# delivery arrives and never answers the first ones, so the process holds them (as many as
# the webhook may have in flight) when it is killed; the same database is then served
# again and the first delivery to arrive after the restart is timed from the kill.
#   bash bench/recovery.sh            # SQLite; ROUNDS (default 3) kills
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
cargo build --release -q -p tidemark

work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
receiver_pid=
trap 'stop_tidemark; [[ -n "$receiver_pid" ]] && kill "$receiver_pid" 2>/dev/null; rm -rf "$work"' EXIT
export TIDEMARK_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8
export TIDEMARK_LOG__FILTER=warn,tidemark::commands=info

# The receiver: logs "<unix time> <webhook-id>" per arrival and holds every request.
python3 - "$work/arrivals" >"$work/receiver.out" 2>&1 <<'PY' &
import http.server, socketserver, sys, threading, time
log = open(sys.argv[1], "a", buffering=1)
class Hold(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["content-length"]))
        log.write(f"{time.time():.3f} {self.headers['webhook-id']}\n")
        threading.Event().wait(3600)
    def log_message(self, *args):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
Server(("127.0.0.1", 9477), Hold).serve_forever()
PY
receiver_pid=$!

start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
api() { curl -s -X POST "http://$address$1" -H "Authorization: Token $key" \
  -H 'Content-Type: application/vnd.api+json' -d "$2" >/dev/null; }
api /v2/webhooks '{"data":{"type":"webhook","attributes":{"url":"http://127.0.0.1:9477/hook"}}}'
arrivals() { [[ -f "$work/arrivals" ]] && wc -l <"$work/arrivals" || echo 0; }

api /v2/tracking_requests '{"data":{"type":"tracking_request","attributes":{"request_type":"bill_of_lading","request_number":"TEST-TR-SUCCEEDED","scac":"TEST"}}}'
for _ in $(seq 1 200); do
  [[ $(arrivals) -gt 0 ]] && break
  sleep 0.05
done

# Each round kills the process holding deliveries; the restarted one delivers them again
# (and they hang again), ready for the next round.
for round in $(seq 1 "$ROUNDS"); do
  sleep 1
  held=$(arrivals)
  kill -9 "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  killed=$(date +%s.%N)
  server_pid=
  start_tidemark
  started=$(date +%s.%N)
  for _ in $(seq 1 1800); do
    [[ $(arrivals) -gt $held ]] && break
    sleep 0.05
  done
  resumed=$(tail -n +"$((held + 1))" "$work/arrivals" | head -1 | cut -d' ' -f1)
  if [[ -z "$resumed" ]]; then
    echo "round $round: deliveries did not resume within 90 s of the restart"
    continue
  fi
  python3 -c "print(f'round $round: deliveries resumed {float(\"$resumed\") - $killed:.1f} s after kill -9 ({float(\"$resumed\") - $started:.1f} s after the restart listened)')"
done
