#!/usr/bin/env bash
# The delivery log's pruner catching up on a long backlog, against a release build on
# loopback. A release `tidemark serve` starts over a database holding N settled webhook
# notifications (an attempt each) last changed 100 days ago, as the first start after an
# upgrade finds a long-running log, plus N/50 pending ones, which must stay. Measured: how
# fast the pruner forgets them (its counter on /metrics), and creating tracking requests
# while it works against the same server once it is done (wrk, CONNECTIONS connections):
# what the pruning costs the API.
#
#   bash bench/prune.sh                    # SQLite, 100,000 notifications
#   BACKEND=postgres bash bench/prune.sh   # a fresh database on 127.0.0.1:5432
#   N=20000 DURATION=10s bash bench/prune.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-100000}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
BACKEND=${BACKEND:-sqlite}

[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark

work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
need_wrk
cleanup() {
  stop_tidemark
  drop_database
  rm -rf "$work"
}
trap cleanup EXIT
use_backend
export TIDEMARK_SANDBOX__ALL_CARRIERS=true
export TIDEMARK_LOG__FILTER=warn,tidemark::commands=info

# The first start makes the database, its account and a key.
export TIDEMARK_ROLES=api
start_tidemark
export TIDEMARK_BENCH_KEY=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$TIDEMARK_BENCH_KEY" ]] || { echo "no API key was printed" >&2; exit 1; }
stop_tidemark

# The backlog, written straight into the tables: one webhook (turned off, so the pending
# ones wait and nothing is sent), N settled notifications and N/50 pending ones.
pending=$((N / 50))
if [[ "$BACKEND" == postgres ]]; then
  psql -q -h 127.0.0.1 -U postgres -d "$database" -v n="$N" -v pending="$pending" <<'SQL'
INSERT INTO webhooks (id, account_id, url, active, all_events, secret, headers, created_at, updated_at)
  SELECT gen_random_uuid(), id, 'https://hooks.example.com/t', false, true, 'whsec_bench', '[]', now(), now()
  FROM accounts LIMIT 1;
INSERT INTO domain_events (id, account_id, name, subject_type, subject_id, detail, dedupe_key, created_at)
  SELECT gen_random_uuid(), (SELECT id FROM accounts LIMIT 1), 'container.updated', 'container',
         gen_random_uuid(), '{}', 'bench-' || i, now() - interval '100 days' + i * interval '1 ms'
  FROM generate_series(1, :n + :pending) i;
INSERT INTO webhook_notifications
  (id, account_id, webhook_id, domain_event_id, event, delivery_status, attempts, due_at, created_at, updated_at)
  SELECT gen_random_uuid(), d.account_id, (SELECT id FROM webhooks LIMIT 1), d.id, d.name,
         CASE WHEN row_number() OVER (ORDER BY d.created_at) <= :pending THEN 'pending' ELSE 'succeeded' END,
         1, NULL, d.created_at, d.created_at
  FROM domain_events d;
UPDATE webhook_notifications SET due_at = created_at WHERE delivery_status = 'pending';
INSERT INTO webhook_attempts (id, notification_id, attempted_at, status_code, latency_ms, response_body)
  SELECT gen_random_uuid(), id, created_at, 200, 12, repeat('ok', 200) FROM webhook_notifications;
ANALYZE;
SQL
else
  python3 - "$work/tidemark.db" "$N" "$pending" <<'PY'
import datetime, sqlite3, sys, uuid
path, n, pending = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(path)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"
start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=100)
account = db.execute("SELECT id FROM accounts LIMIT 1").fetchone()[0]
webhook = str(uuid.uuid4())
db.execute("INSERT INTO webhooks (id, account_id, url, active, all_events, secret, headers, created_at, "
           "updated_at) VALUES (?, ?, 'https://hooks.example.com/t', 0, 1, 'whsec_bench', '[]', ?, ?)",
           (webhook, account, stamp(start), stamp(start)))
events, notifications, attempts = [], [], []
for i in range(n + pending):
    at = stamp(start + datetime.timedelta(milliseconds=i))
    event, notification = str(uuid.uuid4()), str(uuid.uuid4())
    status = "pending" if i < pending else "succeeded"
    events.append((event, account, "container.updated", "container", str(uuid.uuid4()), "{}",
                   f"bench-{i}", at))
    notifications.append((notification, account, webhook, event, "container.updated", status,
                          at if status == "pending" else None, at, at))
    attempts.append((str(uuid.uuid4()), notification, at, "ok" * 200))
db.executemany("INSERT INTO domain_events (id, account_id, name, subject_type, subject_id, detail, "
               "dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", events)
db.executemany("INSERT INTO webhook_notifications (id, account_id, webhook_id, domain_event_id, event, "
               "delivery_status, attempts, due_at, created_at, updated_at) "
               "VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)", notifications)
db.executemany("INSERT INTO webhook_attempts (id, notification_id, attempted_at, status_code, "
               "latency_ms, response_body) VALUES (?, ?, ?, 200, 12, ?)", attempts)
db.commit()
PY
fi

# Then the API and the dispatcher, whose pruner starts on the backlog at once.
export TIDEMARK_ROLES=api,dispatcher
start_tidemark
started=$(date +%s.%N)
base="http://$address"
forgotten() {
  curl -sf "$base/metrics" | awk '/^tidemark_webhook_notifications_forgotten_total/ {print $2}' | tail -1
}
BENCH_ROUND=during wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/create.lua \
  "$base/v2/tracking_requests" >"$work/during.txt" 2>&1
during_forgotten=$(forgotten)
deadline=$(( $(date +%s) + 1800 ))
until [[ "$(forgotten)" == "$N" ]]; do
  (( $(date +%s) < deadline )) || { echo "only $(forgotten) of $N forgotten after 30 minutes" >&2; exit 1; }
  sleep 0.2
done
took=$(python3 -c "import time; print(time.time() - $started)")
BENCH_ROUND=after wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/create.lua \
  "$base/v2/tracking_requests" >"$work/after.txt" 2>&1
left=$(curl -sf -H "Authorization: Token $TIDEMARK_BENCH_KEY" "$base/v2/webhook_notifications?page%5Bsize%5D=1" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')

python3 - "$work" "$BACKEND" "$N" "$took" "${during_forgotten:-0}" "$left" "$pending" "$DURATION" "$CONNECTIONS" <<'PY'
import pathlib, sys
sys.path.insert(0, "bench")
from wrk_figures import parse
work = pathlib.Path(sys.argv[1])
backend, n, took, during, left, pending, duration, connections = sys.argv[2:10]
n, took, left, pending = int(n), float(took), int(left), int(pending)
print(f"{backend}: {n:,} settled notifications forgotten in {took:.1f} s ({n / took:,.0f}/s, "
      f"{int(during):,} of them during the first {duration}); {left:,} left, "
      f"{'the pending ones' if left == pending else f'expected {pending:,}'}")
print(f"POST /v2/tracking_requests, wrk {connections} connections, {duration} each:")
for label, name in (("while pruning", "during"), ("after", "after")):
    rps, p50, p99, _, _ = parse(work / f"{name}.txt")
    print(f"  {label:>13}: {rps:,.0f} req/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
PY
