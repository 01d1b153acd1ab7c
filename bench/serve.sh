# Sourced by the benchmarks and .ci/schemathesis.sh: starts the release build on a fresh
# SQLite file in $work (or $BENCH_DATABASE_URL) with rate limits raised, and sets $address
# (host:port) and $server_pid. The caller's EXIT trap should call stop_tidemark.
# TIDEMARK_BIN names another binary to measure (an earlier build, to compare in the same
# sitting). Also: a fresh PostgreSQL database for BACKEND=postgres (use_backend), and wrk.

start_tidemark() {
  export TIDEMARK_DATABASE_URL="${BENCH_DATABASE_URL:-sqlite://$work/tidemark.db}"
  # One a microsecond: as good as unlimited here, and a rate every build takes (builds
  # before 2026-11-25 divided by zero above it on PostgreSQL, where limits are shared).
  export TIDEMARK_RATE_LIMITS__CREATE_PER_MINUTE=60000000
  export TIDEMARK_RATE_LIMITS__DEFAULT_PER_MINUTE=60000000
  export TIDEMARK_RATE_LIMITS__INFER_PER_MINUTE=60000000
  # The default log level (info: one access-log line per request) unless the caller
  # chose another; the line saying where the server listens must stay.
  export TIDEMARK_LOG__FILTER=${TIDEMARK_LOG__FILTER:-info}
  "${TIDEMARK_BIN:-./target/release/tidemark}" serve --listen 127.0.0.1:0 >"$work/stdout" 2>"$work/stderr" &
  server_pid=$!
  for _ in $(seq 1 100); do
    grep -q "listening on" "$work/stderr" 2>/dev/null && break
    sleep 0.1
  done
  address=$(grep -o 'listening on http://[0-9.:]*' "$work/stderr" | head -1 | sed 's|listening on http://||')
  if [[ -z "$address" ]]; then
    cat "$work/stderr" >&2
    echo "tidemark did not start" >&2
    return 1
  fi
}

stop_tidemark() {
  if [[ -n "${server_pid:-}" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}

# BACKEND=postgres: a fresh database on 127.0.0.1:5432 for this run, named in $database
# and served through $BENCH_DATABASE_URL; drop_database (from the caller's EXIT trap)
# removes it. SQLite otherwise: a fresh file in $work.
use_backend() {
  database=""
  if [[ "${BACKEND:-sqlite}" == postgres ]]; then
    database="tidemark_bench_$$"
    psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE $database"
    export BENCH_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$database"
  fi
}

drop_database() {
  if [[ -n "${database:-}" ]]; then
    psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true
  fi
}

# wrk, from Debian's package when it is missing.
need_wrk() {
  if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)…" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null
  fi
}
