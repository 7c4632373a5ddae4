# Sourced by ./run and ./test: make .venv with the locked dependencies (and, with DEV=1,
# the test tools), reinstalling only when a lock file or pyproject.toml changed.
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
runtime_stamp="$(cat requirements.lock pyproject.toml | sha256sum)"
dev_stamp="$(cat requirements-dev.lock | sha256sum)"
if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.installed 2>/dev/null)" != "$runtime_stamp" ]; then
  echo "Installing into .venv ..." >&2
  "$python" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -r requirements.lock >&2
  .venv/bin/python -m pip install -q --no-deps -e . >&2
  printf '%s' "$runtime_stamp" > .venv/.installed
  rm -f .venv/.installed-dev
fi
if [ "${DEV:-0}" = 1 ] && [ "$(cat .venv/.installed-dev 2>/dev/null)" != "$dev_stamp" ]; then
  echo "Installing the test tools into .venv ..." >&2
  .venv/bin/python -m pip install -q -r requirements-dev.lock >&2
  printf '%s' "$dev_stamp" > .venv/.installed-dev
fi
