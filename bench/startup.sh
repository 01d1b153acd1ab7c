#!/usr/bin/env bash
# Start-up time and memory of a release build: from `tidemark serve` on a fresh SQLite
# file until /readyz answers 200, the process's resident memory then (anonymous + file
# pages, KiB), and again after the first port and metro area looked up in the bundled
# reference places. RUNS starts (5 unless set), one line each, then the medians.
#
#   bash bench/startup.sh
#   TIDEMARK_BIN=/path/to/an/earlier/tidemark bash bench/startup.sh   # to compare
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
bin=${TIDEMARK_BIN:-}
if [[ -z "$bin" ]]; then
  cargo build --release -q -p tidemark
  bin=$PWD/target/release/tidemark
fi

rss() { awk '/RssAnon/{a=$2} /RssFile/{f=$2} END{print a+f, a, f}' "/proc/$1/status"; }
results=$(mktemp)
for _ in $(seq 1 "$RUNS"); do
  work=$(mktemp -d)
  started=$(date +%s%N)
  (cd "$work" && exec "$bin" serve --listen 127.0.0.1:0 >stdout 2>stderr) &
  pid=$!
  address=
  for _ in $(seq 1 2000); do
    address=$(grep -o 'listening on http://[0-9.:]*' "$work/stderr" 2>/dev/null | head -1 | sed 's|listening on http://||' || true)
    [[ -n "$address" ]] && curl -fs "http://$address/readyz" >/dev/null 2>&1 && break
    sleep 0.005
  done
  ready_ms=$(( ($(date +%s%N) - started) / 1000000 ))
  read -r at_ready _ _ < <(rss "$pid")
  key=$(grep -oE 'tdm_[A-Za-z0-9_]{30,}' "$work/stdout" "$work/stderr" | head -1 | cut -d: -f2)
  curl -s -o /dev/null -H "Authorization: Token $key" "http://$address/v2/ports/ESVLC" || true
  curl -s -o /dev/null -H "Authorization: Token $key" "http://$address/v2/metro_areas/USDEN" || true
  read -r after_lookup _ _ < <(rss "$pid")
  echo "ready in $ready_ms ms; resident $at_ready KiB, $after_lookup KiB after a place lookup"
  echo "$ready_ms $at_ready $after_lookup" >>"$results"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
done
median() { sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
echo "median: ready $(cut -d' ' -f1 "$results" | median) ms," \
  "resident $(cut -d' ' -f2 "$results" | median) KiB," \
  "$(cut -d' ' -f3 "$results" | median) KiB after a place lookup"
rm -f "$results"
