#!/usr/bin/env bash
# One load measurement (see benchmarks/locustfile.py): start `monopoly serve` on a fresh
# database, run Locust with USERS concurrent games for SECONDS, print Locust's summary and
# the server's CPU time and peak memory (RSS). By hand, not in ./test.
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
trap 'kill $server 2>/dev/null || true' EXIT
sleep 3
pids() { echo "$server" $(cat "/proc/$server/task/$server/children" 2>/dev/null); }
ticks() { for p in $(pids); do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk '{s += $1} END {print s}'; }
before=$(ticks)
.venv/bin/locust -f benchmarks/locustfile.py --headless -H "http://127.0.0.1:$port" \
  -u "$users" -r 20 -t "${seconds}s" --csv /tmp/monopoly-load --only-summary 2>&1 |
  grep -E "action->state|spectator|/api/games|Aggregated|^Type|^WS|^POST" | tail -12 || true
after=$(ticks)
hz=$(getconf CLK_TCK)
peak=$(for p in $(pids); do grep VmHWM "/proc/$p/status"; done | awk '{s += $2} END {print s}')
echo "server CPU: $(( (after - before) / hz )) s over ${seconds} s; peak RSS: $(( peak / 1024 )) MiB"
