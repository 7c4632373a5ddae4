#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the storage tests (or reuse the one already
# running) and print the line `MONOPOLY_TEST_POSTGRES_URL=postgresql://...`.
# Needs Debian's postgresql package; as root the server runs as the postgres user.
#   eval "export $(scripts/start-test-postgres.sh)"
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi
dir=${MONOPOLY_PG_DIR:-/tmp/monopoly-test-pg}
port=${MONOPOLY_PG_PORT:-55432}
exec 9>"$dir.lock"
flock 9  # parallel test workers start it once
as_owner=()
if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi
if ! "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  "${as_owner[@]}" "$bindir/initdb" -D "$dir" -U monopoly --auth=trust >/dev/null
  # 9>&-: the server must not inherit the lock, or every later caller waits forever
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 9>&-
fi
psql=("$bindir/psql" -h 127.0.0.1 -p "$port" -U monopoly -d postgres -qtA)
if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'monopoly_test'")" ]; then
  "${psql[@]}" -c "CREATE DATABASE monopoly_test" >/dev/null
fi
echo "MONOPOLY_TEST_POSTGRES_URL=postgresql://monopoly@127.0.0.1:$port/monopoly_test"
