# Sourced by ./run and ./test: make .venv with the locked dependencies (and, with DEV=1,
# the test tools) unless it is already up to date with the lock files.
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
stamp=.venv/.installed
want="$(cat requirements.lock pyproject.toml) dev=${DEV:-0}"
if [ "${DEV:-0}" = 1 ]; then want="$want $(cat requirements-dev.lock)"; fi
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Installing into .venv ..." >&2
  "$python" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -r requirements.lock >&2
  if [ "${DEV:-0}" = 1 ]; then .venv/bin/python -m pip install -q -r requirements-dev.lock >&2; fi
  .venv/bin/python -m pip install -q --no-deps -e . >&2
  printf '%s' "$want" > "$stamp"
fi
