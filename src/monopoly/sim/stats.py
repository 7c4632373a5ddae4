"""What one simulated game yields (:class:`GameResult`) and their sum (:class:`Summary`).

A *landing* is where the rolling player's token rests once everything a roll caused has
been carried out (its move, the cards it drew, Go to Jail): one landing per roll (also per
roll for doubles in jail and per third double). Landings are counted in 41 slots: the 40
spaces, the jail space counting only "just visiting", and :data:`JAIL_SLOT`, "in jail".
"""

from __future__ import annotations

import statistics
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from monopoly.core.board import BOARD_SIZE, Edition

from .texts import JAIL_SLOT, SLOTS, Texts

if TYPE_CHECKING:
    from monopoly.core.odds import LandingOdds

TIMING_KEYS = (
    "seconds",
    "games_per_second",
    "player_turns_per_second",
    "rolls_per_second",
    "backend",
    "workers",
)
"""The JSON summary's fields that depend on how and where it ran, not on the games."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The numbers one game adds to a summary."""

    index: int
    seed: int
    levels: tuple[str, ...]
    """The bot level of each seat."""
    winners: tuple[int, ...]
    end_reason: str
    turns: int
    """Player-turns: one turn of one player with all its decisions (the engine's
    ``game.turn``; a turn with doubles is still one turn)."""
    rolls: int
    landings: tuple[int, ...]
    """Landings per slot (41 slots, see the module's docstring)."""
    rent: tuple[int, ...]
    """Rent collected per space (40)."""
    net_worths: tuple[int, ...] = ()
    """Each seat's net worth when the game ended (R-SHORT-4's count; 0 once bankrupt)."""


@dataclass(slots=True)
class Summary:
    """The sum of many games' results, added in game order; ``complete`` is False when
    the run was stopped (Ctrl-C) before all ``planned`` games were played."""

    players: int
    games: int = 0
    planned: int = 0
    complete: bool = True
    seconds: float = 0.0
    workers: int = 0
    turns: array[int] = field(default_factory=lambda: array("l"))
    """Player-turns of each game, in game order (8 bytes a game, not a Python int)."""
    rolls: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    seat_wins: list[int] = field(default_factory=list)
    level_seat_games: Counter[str] = field(default_factory=Counter)
    level_wins: Counter[str] = field(default_factory=Counter)
    shared_wins: int = 0
    landings: list[int] = field(default_factory=lambda: [0] * SLOTS)
    rent: list[int] = field(default_factory=lambda: [0] * BOARD_SIZE)

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.turns.append(result.turns)
        self.rolls += result.rolls
        self.end_reasons[result.end_reason] += 1
        self.level_seat_games.update(result.levels)
        for seat in result.winners:
            self.seat_wins[seat] += 1
            self.level_wins[result.levels[seat]] += 1
        if len(result.winners) > 1:
            self.shared_wins += 1
        for slot, count in enumerate(result.landings):
            self.landings[slot] += count
        for space, amount in enumerate(result.rent):
            self.rent[space] += amount

    # ------------------------------------------------------------------ derived numbers
    def win_rate_by_level(self) -> dict[str, float]:
        return {
            level: self.level_wins[level] / seat_games
            for level, seat_games in self.level_seat_games.items()
        }

    def win_rate_by_seat(self) -> list[float]:
        return [wins / max(self.games, 1) for wins in self.seat_wins]

    def landing_shares(self) -> list[float]:
        total = max(self.rolls, 1)
        return [count / total for count in self.landings]

    def rent_by_group(self, edition: Edition) -> dict[str, int]:
        board = edition.board
        return {group: sum(self.rent[s] for s in spaces) for group, spaces in board.groups.items()}

    # ------------------------------------------------------------------ JSON
    def to_json(self, setup: dict[str, Any], edition: Edition, texts: Texts) -> dict[str, Any]:
        """The summary ``monopoly simulate --json`` prints (fields in docs/simulator.md)."""
        seconds = max(self.seconds, 1e-9)
        return {
            **setup,
            "games": self.games,
            "planned_games": self.planned,
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / seconds, 2),
            "player_turns_per_second": round(sum(self.turns) / seconds, 1),
            "rolls_per_second": round(self.rolls / seconds, 1),
            "workers": self.workers or setup.get("workers"),
            "turns": self._turns_json(),
            "rolls": {"total": self.rolls, "mean": _mean(self.rolls, self.games)},
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "wins": self._wins_json(),
            "landings": {"total": self.rolls, "spaces": self._landings_json(edition, texts)},
            "rent": self._rent_json(edition, texts),
        }

    def _turns_json(self) -> dict[str, Any]:
        turns = self.turns or [0]
        return {
            "total": sum(self.turns),
            "mean": _mean(sum(self.turns), self.games),
            "median": statistics.median(turns),
            "min": min(turns),
            "max": max(turns),
        }

    def _wins_json(self) -> dict[str, Any]:
        rates = self.win_rate_by_level()
        return {
            "by_seat": [
                {"seat": seat + 1, "wins": wins, "rate": round(rate, 4)}
                for seat, (wins, rate) in enumerate(
                    zip(self.seat_wins, self.win_rate_by_seat(), strict=True)
                )
            ],
            "by_level": {
                level: {
                    "seat_games": self.level_seat_games[level],
                    "wins": self.level_wins[level],
                    "rate": round(rates[level], 4),
                }
                for level in sorted(self.level_seat_games)
            },
            "shared_games": self.shared_wins,
        }

    def _landings_json(self, edition: Edition, texts: Texts) -> list[dict[str, Any]]:
        shares = self.landing_shares()
        return [
            {
                **slot_fields(edition, texts, slot),
                "count": self.landings[slot],
                "share": round(shares[slot], 6),
            }
            for slot in range(SLOTS)
        ]

    def _rent_json(self, edition: Edition, texts: Texts) -> dict[str, Any]:
        board = edition.board
        games = max(self.games, 1)
        return {
            "total": sum(self.rent),
            "by_property": [
                {
                    "index": space,
                    "name": texts.slot_name(space),
                    "group": board.spaces[space].group,
                    "total": self.rent[space],
                    "per_game": round(self.rent[space] / games, 2),
                }
                for space in board.properties
            ],
            "by_group": [
                {
                    "group": group,
                    "name": texts.group_name(group),
                    "total": total,
                    "per_game": round(total / games, 2),
                }
                for group, total in self.rent_by_group(edition).items()
            ],
        }


def slot_fields(edition: Edition, texts: Texts, slot: int) -> dict[str, Any]:
    """How a landing slot is named in JSON: ``index`` (0..39), ``in_jail``, ``name``, ``group``."""
    in_jail = slot == JAIL_SLOT
    index = edition.board.jail_index if in_jail else slot
    return {
        "index": index,
        "in_jail": in_jail,
        "name": texts.slot_name(slot),
        "group": edition.board.spaces[index].group,
    }


def odds_table(odds: LandingOdds, texts: Texts) -> list[dict[str, Any]]:
    """The landing odds, one row per slot, most likely first: index, in_jail, name,
    group, probability."""
    rows = [
        {**slot_fields(odds.edition, texts, slot), "probability": float(p)}
        for slot, p in enumerate(odds.probabilities)
    ]
    return sorted(rows, key=lambda row: -row["probability"])


def _mean(total: float, count: int) -> float:
    return round(total / count, 3) if count else 0.0
