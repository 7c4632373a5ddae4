"""Chance outcomes: dice, deck orders and deals, taken from a script or a seeded generator.

Every outcome becomes an entry of the game record. A record's entries (or a hand-written
scenario) are offered as the *script*: when the engine needs an outcome and the next
script entry is an outcome of that kind, it is used; a script entry of another kind is an
error; where the script has an action next (or has ended), the seeded generator decides.
"""

from __future__ import annotations

import random
from typing import Any, Final, TypeVar

from .errors import RecordError

BUS = 4
MR_MONOPOLY = 5
SPEED_FACES_JSON: dict[int, Any] = {1: 1, 2: 2, 3: 3, BUS: "bus", MR_MONOPOLY: "mr_monopoly"}
SPEED_FACES_FROM_JSON: dict[Any, int] = {v: k for k, v in SPEED_FACES_JSON.items()}

_RANDOM: Final = random.Random.random
_GETRANDBITS: Final = random.Random.getrandbits
"""The generator's methods, taken from its class once: ``_RANDOM(rng)`` calls
``rng.random()`` without looking the method up on the object and binding it at every
roll (a few hundred instructions each time, in the compiled build too)."""

T = TypeVar("T")
Entry = tuple[Any, ...]
"""``("dice", (d1, d2[, speed]))``, ``("shuffle", role, keys)``, ``("deal", spaces)`` or
``("action", Action)``."""


class ChanceSource:
    """Hands out chance outcomes and writes every outcome and action to ``log``, unless
    ``keeping`` is off: a simulation that keeps no record of its games writes nothing."""

    __slots__ = ("keeping", "log", "position", "rng", "script")

    def __init__(self, seed: int, script: list[Entry] | None = None) -> None:
        self.rng = random.Random(seed)
        self.script: list[Entry] = script or []
        self.position = 0
        self.log: list[Entry] = []
        self.keeping = True

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceSource:
        """A copy with the same generator state; the entries are immutable and shared."""
        twin = ChanceSource(0, list(self.script))
        twin.rng.setstate(self.rng.getstate())
        twin.position = self.position
        twin.log = list(self.log)
        twin.keeping = self.keeping
        return twin

    def _scripted(self, kind: str) -> Entry | None:
        if self.position >= len(self.script):
            return None
        entry = self.script[self.position]
        if entry[0] == "action":
            return None
        if entry[0] != kind:
            raise RecordError(
                f"log entry {self.position + 1}: expected {kind!r} here, found {entry[0]!r}"
            )
        self.position += 1
        return entry

    def dice(self, count: int = 2, speed: bool = False) -> tuple[int, ...]:
        """Roll ``count`` white dice, plus the Speed Die (faces 1, 2, 3, BUS, MR_MONOPOLY)."""
        entry = self._scripted("dice") if self.position < len(self.script) else None
        dice: tuple[int, ...]
        if entry is not None:
            dice = entry[1]
            if len(dice) != count + speed:
                raise RecordError(
                    f"log entry {self.position}: expected {count + speed} dice, got {dice}"
                )
        else:
            rng = self.rng
            if count == 2 and not speed:  # the common case, kept cheap
                dice = (int(_RANDOM(rng) * 6) + 1, int(_RANDOM(rng) * 6) + 1)
            else:
                white = tuple(int(_RANDOM(rng) * 6) + 1 for _ in range(count))
                dice = (*white, min(int(_RANDOM(rng) * 6) + 1, MR_MONOPOLY)) if speed else white
        if self.keeping:
            self.log.append(("dice", dice))
        return dice

    def shuffle(self, role: str, keys: tuple[str, ...]) -> tuple[str, ...]:
        """A deck order (top first) of the given card keys."""
        entry = self._scripted("shuffle")
        if entry is not None:
            if entry[1] != role:
                raise RecordError(
                    f"log entry {self.position}: the {role} deck is shuffled here, not {entry[1]!r}"
                )
            if sorted(entry[2]) != sorted(keys):
                raise RecordError(
                    f"log entry {self.position}: the {role} deck must list exactly its "
                    f"cards {sorted(keys)}"
                )
            order: tuple[str, ...] = tuple(entry[2])
        else:
            order = shuffled(self.rng, keys)
        if self.keeping:
            self.log.append(("shuffle", role, order))
        return order

    def deal(self, spaces: tuple[int, ...]) -> tuple[int, ...]:
        """The order in which the title deeds are dealt (short game)."""
        entry = self._scripted("deal")
        if entry is not None:
            if len(set(entry[1])) != len(entry[1]) or not set(entry[1]) <= set(spaces):
                raise RecordError(
                    f"log entry {self.position}: a deal lists distinct property spaces"
                )
            order: tuple[int, ...] = tuple(entry[1])
        else:
            order = shuffled(self.rng, spaces)
        if self.keeping:
            self.log.append(("deal", order))
        return order

    def note_action(self, action: Any) -> None:
        """Write a played action to the log, between the outcomes it led to."""
        if self.keeping:
            self.log.append(("action", action))

    def next_action(self) -> Any:
        """The next scripted action, or None when the script has none next."""
        if self.position < len(self.script) and self.script[self.position][0] == "action":
            self.position += 1
            return self.script[self.position - 1][1]
        return None

    @property
    def script_left(self) -> int:
        return len(self.script) - self.position


def shuffled(rng: random.Random, items: tuple[T, ...]) -> tuple[T, ...]:
    """``items`` in the order ``rng.shuffle`` puts a list of them in, drawing the same
    numbers from ``rng`` (the swaps of ``random.shuffle``, each position below ``i + 1``
    drawn as ``random`` does: ``k`` bits for a bound of ``k`` bits, again while too
    large). Written out here so that the compiled build runs it natively: the library's
    shuffle is Python code, and a game starts with two of them."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = _GETRANDBITS(rng, bits)
        while j >= bound:
            j = _GETRANDBITS(rng, bits)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
