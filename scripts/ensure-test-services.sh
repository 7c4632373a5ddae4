# Sourced by ./test: what the tests need from Debian — PostgreSQL (storage tests),
# Chromium (browser tests) and nginx (the reverse-proxy test of deploy/nginx.conf) — installed when missing (as root, with apt-get), and a
# throwaway PostgreSQL server started, its URL exported as MONOPOLY_TEST_POSTGRES_URL.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "The tests need ${missing[*]} (Debian packages); install them as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing ${missing[*]} from Debian ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ -z "${MONOPOLY_TEST_POSTGRES_URL:-}" ]; then
  export "$(scripts/start-test-postgres.sh)"
fi
echo "PostgreSQL for the tests: $MONOPOLY_TEST_POSTGRES_URL" >&2
