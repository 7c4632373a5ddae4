"""No doubled punctuation in anything a player reads: a sentence that ends with a name
carrying its own stop (Fallout's "You're S.P.E.C.I.A.L.!", German "Sie sind
S.P.E.C.I.A.L.") adds no full stop of its own; no second pair of brackets after a
computer player's "(Normal)"; no engine jargon such as "(Stufe 0)". Seeded games in
every edition, both languages and every rule set: each log line with its note, and every
refusal reason the page shows beside a disabled step."""

from __future__ import annotations

import re

import pytest

from monopoly.bots.base import play
from monopoly.bots.random_bot import RandomBot
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.wording import one_stop
from monopoly.web.texts import LANGUAGES
from monopoly.web.views import log_lines, refused_actions
from tests.quick import sized

DOUBLED = re.compile(r"(?<!\.)\.\.(?!\.)|[!?]\.(?![.\w])|[.!?],")
"""Two full stops that are no ellipsis, "!." or "?." at a sentence's end, ".," and "!,"."""
BRACKETS_TWICE = re.compile(r"\)\s*\(")
"""A second pair of brackets after a bracketed name: "Bot 2 (Normal) (rent)"."""
JARGON = re.compile(r"Stufe|\blevel \d|\(\w+ \d\)")
"""The engine's building levels ("(Stufe 0)") where a player reads words ("1 house")."""
NAMES = ["Ann", "Bot 2 (Normal)", "Bot 3 (Schwer)", "Ben Jr."]
"""Computer players are named with their level in brackets, as the server names them; a
person's name may end in a stop of its own ("Ben Jr.")."""


def test_one_stop_keeps_ellipses_abbreviations_and_ranges() -> None:
    assert one_stop("Ann zieht auf Sie sind S.P.E.C.I.A.L..") == (
        "Ann zieht auf Sie sind S.P.E.C.I.A.L."
    )
    assert one_stop("Ann moves to You're S.P.E.C.I.A.L.!.") == "Ann moves to You're S.P.E.C.I.A.L.!"
    assert one_stop("Is it yours?. Yes.") == "Is it yours? Yes."
    assert one_stop("Wait... and see.") == "Wait... and see."
    assert one_stop("Spaces 0..39, St. Charles Place.") == "Spaces 0..39, St. Charles Place."


def refusal_reasons(game: Game, language: str) -> list[str]:
    """Each seat's refusal reasons right now, in ``language``."""
    texts: list[str] = []
    for seat in range(len(game.active)):
        if game.active[seat]:
            free = game.free_actions(seat)
            texts.extend(r["reason_text"][language] for r in refused_actions(game, seat, free))
    return texts


@pytest.mark.parametrize("edition", edition_keys())
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_doubled_punctuation_in_any_log_line_or_reason(edition: str, language: str) -> None:
    checked = 0
    for rules in ("standard", "short", "speed"):
        for seed in range(sized(2, 1)):
            game = Game.new(NAMES, edition, rules, seed=seed, language=language)
            bots = [RandomBot(seat, trade_rate=0.2) for seat in range(4)]
            texts: list[str] = []
            for _ in range(6):  # reasons at several moments of the game
                play(game, bots, max_actions=400)
                texts.extend(refusal_reasons(game, language))
            texts.extend(log_lines(Narrator(game, language), game))  # the whole log, once
            doubled = sorted({text for text in texts if DOUBLED.search(text)})
            assert doubled == [], (rules, seed, doubled[:5])
            brackets = sorted({text for text in texts if BRACKETS_TWICE.search(text)})
            assert brackets == [], (rules, seed, brackets[:5])
            jargon = sorted({text for text in texts if JARGON.search(text)})
            assert jargon == [], (rules, seed, jargon[:5])
            checked += len(texts)
    assert checked > 2000
