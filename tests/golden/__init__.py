"""Golden records: complete games whose final state is kept beside their record.

Every edition is played under the standard, short, speed and short+speed rule sets by
computer players (the languages alternate, so both are covered); each file is a normal
game record (``./run replay tests/golden/FILE.json`` reads it) with one extra key,
``final_state``: what ``monopoly replay --json`` printed when the file was made.
``tests/core/test_golden.py`` replays each record and compares. A change to the rules'
outcome therefore shows up as a failing test and, once regenerated with
``python -m tests.golden``, as a diff of these files that someone must read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from monopoly.bots.base import make_bot, play
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.records import game_state, record_of

HERE = Path(__file__).parent
RULE_SETS = ("standard", "short", "speed", "short+speed")
LEVELS = ("hard", "normal", "easy")


def cases() -> list[tuple[str, str, str, int]]:
    """(edition, rule set, language, seed) of every golden game."""
    result = []
    for e, edition in enumerate(edition_keys()):
        for r, rules in enumerate(RULE_SETS):
            language = ("en", "de")[(e + r) % 2]
            result.append((edition, rules, language, 1000 + 10 * e + r))
    return result


def path_of(edition: str, rules: str, language: str) -> Path:
    return HERE / f"{edition}-{rules.replace('+', '-')}-{language}.json"


def play_case(edition: str, rules: str, language: str, seed: int) -> Game:
    """A complete game; computer players can reach a stalemate (everyone rich, nobody
    trading), so a seed whose game runs past 20,000 actions is replaced by the next."""
    names = ["Ann", "Bob", "Cem"]
    for attempt in range(seed, seed + 100 * 10, 100):
        game = Game.new(names, edition=edition, rules=rules, seed=attempt, language=language)
        bots = [make_bot(level, attempt + seat) for seat, level in enumerate(LEVELS)]
        play(game, bots, max_actions=20_000)
        if game.over:
            return game
    raise AssertionError(f"{edition}/{rules}: no game ended")


def dumps(data: dict[str, Any]) -> str:
    """JSON with one log entry per line, so that a diff shows where a game changed."""
    lines = ["{"]
    keys = list(data)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = data[key]
        if key == "log":
            entries = [json.dumps(entry, ensure_ascii=False) for entry in value]
            body = ",\n    ".join(entries)
            lines.append(f'  "log": [\n    {body}\n  ]{comma}')
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_all() -> list[Path]:
    written = []
    for edition, rules, language, seed in cases():
        game = play_case(edition, rules, language, seed)
        data = record_of(game)
        data["final_state"] = game_state(game)
        path = path_of(edition, rules, language)
        path.write_text(dumps(data), encoding="utf-8")
        written.append(path)
    return written
