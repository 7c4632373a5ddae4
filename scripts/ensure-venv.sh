# Sourced by ./run and ./test: make .venv with the locked dependencies (and, with DEV=1,
# the test tools), reinstalling only when a lock file or pyproject.toml changed; then
# install the package itself, compiled with mypyc (setup.py), whenever its sources
# changed. With NO_PACKAGE=1 the package is not installed (./test --quick runs src/).
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
  printf '%s' "$runtime_stamp" > .venv/.installed
  rm -f .venv/.installed-dev .venv/.installed-package
fi
# torch for the train extra: PyPI's Linux wheel bundles CUDA (several GB), so take the CPU
# build (~190 MB) from PyTorch's index when it answers; otherwise pip's usual sources (a
# wheel on disk, or PyPI). Only this one install asks that index: named in a lock file,
# it would be asked for every package, and an unreachable index costs retries each time.
install_torch_cpu() {
  local index=()
  if .venv/bin/python -c 'import urllib.request as u; u.urlopen("https://download.pytorch.org/whl/cpu/torch/", timeout=5)' 2>/dev/null; then
    index=(--extra-index-url https://download.pytorch.org/whl/cpu)
  fi
  .venv/bin/python -m pip install -q "${index[@]}" "$(grep -m1 '^torch==' requirements-dev.lock)" >&2
}
if [ "${DEV:-0}" = 1 ] && [ "$(cat .venv/.installed-dev 2>/dev/null)" != "$dev_stamp" ]; then
  echo "Installing the test tools into .venv ..." >&2
  install_torch_cpu
  .venv/bin/python -m pip install -q -r requirements-dev.lock >&2
  printf '%s' "$dev_stamp" > .venv/.installed-dev
fi
if [ "${NO_PACKAGE:-0}" != 1 ]; then
  # Every file of the package counts: the installed copy is not linked to src/.
  package_stamp="$(
    find setup.py pyproject.toml src/monopoly -type f ! -name '*.pyc' ! -name '*.so' \
      ! -name _compiled.json | LC_ALL=C sort | xargs cat | sha256sum
  )"
  if [ "$(cat .venv/.installed-package 2>/dev/null)" != "$package_stamp" ]; then
    echo "Installing the package into .venv (compiling its hot path, a minute or two) ..." >&2
    # MONOPOLY_PURE only chooses at run time; the installed package is always compiled.
    env -u MONOPOLY_PURE .venv/bin/python -m pip install -q --no-deps --force-reinstall . >&2
    printf '%s' "$package_stamp" > .venv/.installed-package
  fi
fi
