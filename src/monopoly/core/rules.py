"""Rule sets: the official rules, the short game, the Speed Die and house rules.

A :class:`RuleSet` is a frozen bag of named options. Editions never change behaviour;
rule sets do. ``RuleSet.named("short+speed")`` combines presets; keyword overrides set
single options (``RuleSet.named("standard", free_parking_pot=True)``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import SetupError

UTILITY_ROLL_FRESH = "fresh"
UTILITY_ROLL_MOVING = "moving"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every option of a game. Defaults are the official rules (R-*)."""

    short_game: bool = False
    """R-SHORT-1..4: three free deeds each, hotels on 3 houses, one jail turn, first
    bankruptcy ends the game and the richest wins."""
    speed_die: bool = False
    """R-SPEED-1..9: the third die with 1, 2, 3, Bus and Mr. Monopoly."""
    max_players: int = 6
    """R-SETUP-1: up to 6 (8 allowed for the classic edition)."""
    starting_cash: int = 1500
    """R-SETUP-2 (the Speed Die adds 1000 on top, R-SPEED-1)."""
    rent_must_be_claimed: bool = False
    """R-RENT-5 option: the owner must claim rent before the next player rolls."""
    utility_roll: str = UTILITY_ROLL_FRESH
    """R-RENT-3: ``fresh`` (roll for the rent, the seeds' rule) or ``moving``."""
    auction_minimum_bid: int = 1
    """R-AUCTION-1: the lowest opening bid."""
    # House rules: never official, each off by default.
    free_parking_pot: bool = False
    """House rule: taxes, fines and card payments to the Bank go to a pot that whoever
    lands on Free Parking takes."""
    double_go_salary: bool = False
    """House rule: landing exactly on GO pays twice the salary."""
    no_auctions: bool = False
    """House rule: a property nobody buys stays with the Bank; no auctions at all."""
    turn_limit: int = 0
    """House rule: after this many turns (0 = none) the richest player wins (R-SHORT-4
    counting)."""
    round_limit: int = 0
    """House rule: after this many rounds (0 = none) the richest player wins."""

    @property
    def houses_per_hotel(self) -> int:
        """Houses a street needs before its hotel (R-BUILD-3, R-SHORT-2)."""
        return 3 if self.short_game else 4

    @property
    def initial_cash(self) -> int:
        return self.starting_cash + (1000 if self.speed_die else 0)

    @property
    def ends_on_first_bankruptcy(self) -> bool:
        return self.short_game

    @classmethod
    def named(cls, spec: str = "standard", **overrides: Any) -> RuleSet:
        """Build a rule set from preset names joined by ``+`` or ``,``.

        Presets: ``standard``, ``short`` (alias ``short-game``), ``speed`` (alias
        ``speed-die``). Unknown names or options raise :class:`SetupError`.
        """
        options: dict[str, Any] = {}
        for part in spec.replace(",", "+").split("+"):
            name = part.strip().lower()
            if name in ("", "standard", "official", "classic"):
                continue
            if name in ("short", "short-game", "short_game"):
                options["short_game"] = True
            elif name in ("speed", "speed-die", "speed_die"):
                options["speed_die"] = True
            else:
                raise SetupError(
                    f"unknown rule set {name!r}: use standard, short, speed or a "
                    "combination like short+speed"
                )
        options.update(overrides)
        return cls.from_options(options)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> RuleSet:
        """Build a rule set from a mapping of option names, checking names and types."""
        known = {f.name: f for f in fields(cls)}
        for key, value in options.items():
            if key not in known:
                raise SetupError(f"unknown rule option {key!r}; known: {', '.join(known)}")
            default = getattr(cls(), key)
            if type(value) is not type(default):
                raise SetupError(
                    f"rule option {key!r} must be {type(default).__name__}, got {value!r}"
                )
        rules = cls(**options)
        rules.check()
        return rules

    def check(self) -> None:
        if self.utility_roll not in (UTILITY_ROLL_FRESH, UTILITY_ROLL_MOVING):
            raise SetupError(f"utility_roll must be 'fresh' or 'moving', got {self.utility_roll!r}")
        if not 2 <= self.max_players <= 8:
            raise SetupError(f"max_players must be 2..8, got {self.max_players}")
        for name in ("starting_cash", "turn_limit", "round_limit"):
            if getattr(self, name) < 0:
                raise SetupError(f"{name} must not be negative")
        if self.auction_minimum_bid < 1:
            raise SetupError("auction_minimum_bid must be at least 1")

    def __reduce__(self) -> tuple[type[RuleSet], tuple[Any, ...]]:
        """Pickled as the arguments of its constructor (simulations send rule sets to
        worker processes): the compiled build's native class would otherwise be restored
        by setting its fields one by one, which a frozen class refuses."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self))

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the official rules."""
        default = RuleSet()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

    def with_options(self, **overrides: Any) -> RuleSet:
        return replace(self, **overrides)

    def describe(self) -> str:
        parts = [name for name, on in (("short", self.short_game), ("speed", self.speed_die)) if on]
        return "+".join(parts) or "standard"
