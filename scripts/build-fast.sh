#!/usr/bin/env bash
# Compile the hot path (rules engine, computer players, the simulator's play loop) with
# mypyc into build/fast/, a copy of the package that runs the same code 2-3 times faster. The pure
# Python package stays what the tests and development use; `MONOPOLY_FAST=1 ./run ...`
# and the benchmarks' --fast runs use this copy. Rebuilt only when a source changed.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(
  core/game.py core/movement.py core/rent.py core/chance.py core/cards.py core/jail.py
  core/auction.py core/building.py core/mortgage.py core/debt.py core/trade.py
  core/state.py core/view.py core/rules.py sim/loop.py
  bots/player.py bots/normal.py bots/hard.py bots/judge.py bots/easy.py bots/trading.py
  bots/valuation.py
)
# Left as Python: actions and events (mypyc rejects a ClassVar on a frozen dataclass),
# bots/base.py (a runtime-checkable Protocol) and the rest of the simulator (its frozen
# config must pickle to the worker processes). The rule set is compiled: the engine reads its
# options on every turn, and its __reduce__ lets the frozen native class pickle.
# One build at a time: parallel test workers may all ask for it at once.
mkdir -p build
exec 9>build/.fast.lock
flock 9
stamp=$(cat "$0" pyproject.toml $(find src/monopoly -name '*.py' | sort) | sha256sum | cut -c1-16)
if [ -f build/fast/.stamp ] && [ "$(cat build/fast/.stamp)" = "$stamp" ]; then
  exit 0
fi
echo "Compiling the hot path with mypyc (about a minute) ..." >&2
rm -rf build/fast
mkdir -p build/fast
cp -r src/monopoly build/fast/monopoly
(
  cd build/fast
  "$OLDPWD/.venv/bin/mypyc" "${MODULES[@]/#/monopoly/}" >build.log 2>&1 || {
    cat build.log >&2
    exit 1
  }
)
echo "$stamp" > build/fast/.stamp
