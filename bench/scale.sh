#!/usr/bin/env bash
# A million rows: a release `tidemark serve` (API only) over an account seeded with ROWS
# tracking requests of the sandbox line TEST (nine in ten found, with one to three
# containers each; crates/tidemark/examples/seed_requests.rs writes them straight through
# the store in batches, as the tracker's first lookups would have left them). Then each
# read is measured with wrk beside /healthz in the same run, one line per figure:
# `<what>: p99 <ms> ms at <rows> rows`.
#
#   bash bench/scale.sh                         # SQLite, 1,000,000 requests
#   BACKEND=postgres bash bench/scale.sh        # a fresh database on 127.0.0.1:5432
#   ROWS=100000 DURATION=5s bash bench/scale.sh
#   KEEP=1 bash bench/scale.sh                  # keep the seeded SQLite file (printed)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-4}
BACKEND=${BACKEND:-sqlite}
export TIDEMARK_ROLES=api
export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-warn,tidemark::commands=info}

cargo build --release -q -p tidemark --bin tidemark --example seed_requests
work=$(mktemp -d)
# shellcheck source=bench/serve.sh
source bench/serve.sh
need_wrk
cleanup() {
  stop_tidemark
  drop_database
  if [[ -n "${KEEP:-}" ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
use_backend

# The schema and the first account, then the seed with the server stopped.
start_tidemark
key=$(grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1)
[[ -n "$key" ]] || { echo "no API key was printed" >&2; exit 1; }
export TIDEMARK_BENCH_KEY=$key
stop_tidemark
concurrent=2
[[ "$BACKEND" == postgres ]] && concurrent=4
seeding=$SECONDS
./target/release/examples/seed_requests "$TIDEMARK_DATABASE_URL" "$ROWS" "$concurrent" | tail -1
echo "seeded $ROWS requests in $((SECONDS - seeding)) s ($BACKEND)"
if [[ "$BACKEND" == postgres ]]; then
  # Statistics for the rows just written (autovacuum would gather them within a minute).
  psql -q -h 127.0.0.1 -U postgres -d "$database" -c "VACUUM ANALYZE"
  psql -Atq -h 127.0.0.1 -U postgres -d "$database" -c "SELECT 'database: ' || pg_size_pretty(pg_database_size(current_database()))"
else
  echo "database: $(du -h "$work/tidemark.db" | cut -f1)"
fi
start_tidemark

api() { curl -sf -H "Authorization: Token $key" "http://$address$1"; }
total=$(api "/v2/tracking_requests?page%5Bsize%5D=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["total"])')
deep=$((total / 30 * 2 / 3))
# A container's number, for a search that finds one box.
number=$(api "/v2/containers?page%5Bsize%5D=1" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["attributes"]["number"])')
echo "$total requests; a deep page is page $deep of 30; the search is for $number"

run() { # name, script, path
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "bench/$2.lua" "http://$address$3" >"$work/$1.txt" 2>&1
}
reads=(
  "GET /v2/tracking_requests (first page)|auth|/v2/tracking_requests"
  "GET /v2/tracking_requests (page $deep)|auth|/v2/tracking_requests?page%5Bnumber%5D=$deep"
  "GET /v2/tracking_requests?filter[status]=awaiting_manifest|auth|/v2/tracking_requests?filter%5Bstatus%5D=awaiting_manifest"
  "GET /v2/containers (default include)|auth|/v2/containers"
  "GET /v2/search (a container number)|auth|/v2/search?query=$number"
  "the console's containers list|console|/console/containers"
)
run ceiling auth /healthz
i=0
for read in "${reads[@]}"; do
  IFS='|' read -r _ script path <<<"$read"
  run "read$i" "$script" "$path"
  i=$((i + 1))
done
python3 - "$work" "$total" "${reads[@]}" <<'PY'
import sys
sys.path.insert(0, "bench")
from wrk_figures import parse
work, rows, reads = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rps, p50, p99, failed, _ = parse(f"{work}/ceiling.txt")
print(f"/healthz: {rps:,.0f}/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
for i, read in enumerate(reads):
    what = read.split("|")[0]
    rps, p50, p99, failed, _ = parse(f"{work}/read{i}.txt")
    mark = "" if failed == 0 else f" ({failed} failed)"
    print(f"{what}: p99 {p99:.2f} ms at {rows:,} rows (p50 {p50:.2f} ms, {rps:,.0f}/s){mark}")
PY
