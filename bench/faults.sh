#!/usr/bin/env bash
# The fault suite: how a release `tidemark serve` answers when something around it fails.
# Each case prints its figures and whether they are as expected (docs/operations.md, "What
# happens when…"); the script fails when one is not.
#
#   bodies   a declared 100,000-byte body that stalls, and a body trickled at one byte
#            every 5 s (body_total_timeout shortened to 20 s so the case takes seconds)
#   full     SQLite on a 20 MB tmpfs filled by creates: 507s, reads, /readyz, log growth
#            (log level warn: the info level writes one access line per request whatever
#            happens), then a filler file removed and creates answered 201 again
#   restart  PostgreSQL restarted (pg_ctlcluster) under 64 creating clients, then stopped:
#            no 500, nothing acknowledged lost, 503s within their bounds
#   memory   bench/memory.sh: 3 x 60 s of mixed load with every role on SQLite
#
#   sudo bash bench/faults.sh                  # every case (tmpfs and pg_ctlcluster: root)
#   CASES="bodies memory" bash bench/faults.sh
#   TIDEMARK_BIN=/tmp/old/tidemark bash bench/faults.sh   # measure another build
#
# `restart` stops the PostgreSQL server at 127.0.0.1:5432 for a few seconds: never run it
# beside the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=${CASES:-"bodies full restart memory"}
[[ -n "${TIDEMARK_BIN:-}" ]] || cargo build --release -q -p tidemark
export TIDEMARK_BIN=${TIDEMARK_BIN:-$PWD/target/release/tidemark}
# shellcheck source=bench/serve.sh
source bench/serve.sh
failed=()
work=
mounted=
cleanup() {
  stop_tidemark
  drop_database
  [[ -n "$mounted" ]] && umount "$mounted" 2>/dev/null && rmdir "$mounted"
  [[ -n "$work" && -z "${KEEP:-}" ]] && rm -rf "$work"
  return 0
}
trap cleanup EXIT

fresh() { cleanup; work=$(mktemp -d); server_pid=; database=; unset BENCH_DATABASE_URL; }
key() { grep -o 'tdm_[A-Za-z0-9]*' "$work/stdout" | head -1; }
check() { # case, command...
  local name=$1; shift
  "$@" || failed+=("$name")
}

for case in $CASES; do
  printf '\n== %s\n' "$case"
  case $case in
    bodies)
      fresh
      TIDEMARK_LIMITS__BODY_TOTAL_TIMEOUT=20s start_tidemark
      check bodies python3 bench/faults.py bodies "$address" "$(key)"
      ;;
    full)
      fresh
      mounted=$(mktemp -d)
      mount -t tmpfs -o size=20m tmpfs "$mounted"
      # Space to free later: 2 MB the database cannot use while the file is there.
      dd if=/dev/zero of="$mounted/filler" bs=1M count=2 status=none
      BENCH_DATABASE_URL="sqlite://$mounted/tidemark.db" TIDEMARK_LOG__FILTER=warn,tidemark::commands=info start_tidemark
      check full python3 bench/faults.py full "$address" "$(key)" "$work/stderr" "$mounted/filler"
      ;;
    restart)
      fresh
      cluster=$(pg_lsclusters -h | awk '$3 == 5432 { print $1 " " $2; exit }')
      [[ -n "$cluster" ]] || { echo "no PostgreSQL cluster on port 5432" >&2; failed+=(restart); continue; }
      BACKEND=postgres use_backend
      TIDEMARK_ROLES=api TIDEMARK_LOG__FILTER=warn,tidemark::commands=info start_tidemark
      check restart python3 bench/faults.py restart "$address" "$(key)" "pg_ctlcluster $cluster restart"
      pg_ctlcluster $cluster stop
      check stopped python3 bench/faults.py stopped "$address" "$(key)"
      pg_ctlcluster $cluster start
      pg_isready -q -t 30 -h 127.0.0.1
      ;;
    memory)
      check memory bash bench/memory.sh
      ;;
    *) echo "unknown case $case" >&2; failed+=("$case") ;;
  esac
done

if ((${#failed[@]})); then
  printf '\nnot as expected: %s\n' "${failed[*]}"
  exit 1
fi
printf '\nevery case as expected\n'
