#!/usr/bin/env bash
# One load measurement (see benchmarks/locustfile.py): start `monopoly serve` on a fresh
# database, run Locust with USERS concurrent games for SECONDS, print Locust's summary and
# the server's CPU time, the actions stored meanwhile, the CPU per action and the peak
# memory (RSS). By hand, not in ./test.
#   benchmarks/load.sh USERS SECONDS [DB]     DB: sqlite (default) or a postgresql:// URL
#   WORKERS=2 benchmarks/load.sh ...          several server processes (PostgreSQL only)
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-100}
seconds=${2:-60}
db=${3:-sqlite}
port=${PORT:-8765}
source scripts/ensure-venv.sh
if [ ! -x .venv/bin/locust ]; then
  echo "Installing Locust into .venv (requirements-load.lock) ..." >&2
  .venv/bin/python -m pip install -q -r requirements-load.lock >&2
fi
if [ "$db" = sqlite ]; then
  db=$(mktemp -d)/load.sqlite3
fi
.venv/bin/monopoly serve --port "$port" --db "$db" --create-rate 1000 --no-access-log \
  --address-factor 1000 --connections-per-address 100000 \
  --workers "${WORKERS:-1}" \
  >/tmp/monopoly-load-server.log 2>&1 &
server=$!
pids() { echo "$server" $(cat "/proc/$server/task/$server/children" 2>/dev/null); }
trap 'kill -CONT $(pids) 2>/dev/null; kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do  # until the server answers (and a little longer for its other workers)
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 0.2
done
sleep 2
ticks() { for p in $(pids); do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk '{s += $1} END {print s}'; }
actions() {  # actions stored so far (record entries that are actions, not dice or shuffles)
  .venv/bin/python - "$db" <<'PY'
import sys
from sqlalchemy import create_engine, text
from monopoly.web.storage import database_url
url = database_url(sys.argv[1])
act = "entry->>'act'" if url.startswith("postgresql") else "json_extract(entry, '$.act')"
with create_engine(url).connect() as connection:
    print(connection.execute(text(f"SELECT count(*) FROM record_entries WHERE {act} IS NOT NULL")).scalar())
PY
}
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
pg_ticks() {  # the local PostgreSQL server's processes (0 for SQLite or a remote one)
  for p in $(pgrep -x postgres); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null; done |
    awk '{s += $1} END {print s + 0}'
}
before=$(ticks)
busy_before=$(busy)
pg_before=$(pg_ticks)
actions_before=$(actions)
timer=()  # Locust's own CPU time, where GNU time is installed
rm -f /tmp/monopoly-load-locust-cpu
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -o /tmp/monopoly-load-locust-cpu -f "%U %S"); fi
"${timer[@]}" .venv/bin/locust -f benchmarks/locustfile.py --headless -H "http://127.0.0.1:$port" \
  -u "$users" -r 20 -t "${seconds}s" --csv /tmp/monopoly-load --only-summary 2>&1 |
  grep -E "action->state|spectator|/api/games|Aggregated|^Type|^WS|^POST" | tail -12 || true
kill -STOP $(pids)  # stop the server: its CPU time and the stored actions match
after=$(ticks)
busy_after=$(busy)
pg_after=$(pg_ticks)
actions_after=$(actions)
hz=$(getconf CLK_TCK)
peak=$(for p in $(pids); do grep VmHWM "/proc/$p/status"; done | awk '{s += $2} END {print s}')
stored=$(( actions_after - actions_before ))
echo "server CPU: $(( (after - before) / hz )) s over ${seconds} s; peak RSS: $(( peak / 1024 )) MiB"
echo "machine CPU: $(( (busy_after - busy_before) / hz )) s of $(( $(nproc) * seconds )) s (PostgreSQL $(( (pg_after - pg_before) / hz )) s, Locust $(tail -n 1 /tmp/monopoly-load-locust-cpu 2>/dev/null | awk '{printf "%.0f", $1 + $2}') s)"
echo "actions stored: $stored; server CPU per action: $(awk -v t=$(( after - before )) -v hz="$hz" -v n="$stored" 'BEGIN {printf "%.2f ms", n ? t / hz / n * 1000 : 0}')"
