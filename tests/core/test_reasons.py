"""Refusals are keyed reasons that exist in English and German, in the edition's words."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from monopoly.bots.random_bot import RandomBot
from monopoly.core.actions import (
    ACTION_TYPES,
    Action,
    Build,
    Buy,
    ProposeTrade,
    Roll,
    SellBuilding,
    field_types,
)
from monopoly.core.board import DECK_ROLES
from monopoly.core.editions import REQUIRED_TERMS, edition_keys, get_edition
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.reasons import Reason, fill, templates
from tests.scenario import start

CORE = Path(__file__).resolve().parents[2] / "src" / "monopoly" / "core"
TERMS = {*REQUIRED_TERMS, "chance", "community_chest"}
HOUSES = {"buildings": 4}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_reason_has_an_english_and_a_german_template_with_the_same_values() -> None:
    english, german = templates("en"), templates("de")
    assert len(english) > 40
    assert set(english) == set(german)
    for key, template in english.items():
        # The reason's own values must match; the edition's words may differ for grammar.
        assert fields(template) - TERMS == fields(german[key]) - TERMS, key


@pytest.mark.parametrize("edition", edition_keys())
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_template_fills_with_the_words_of_every_edition(edition: str, language: str) -> None:
    terms = get_edition(edition).names[language].terms
    for key, template in templates(language).items():
        values = {name: "x" for name in fields(template) - TERMS}
        text = fill(template, values, terms)
        assert "{" not in text and text.strip(), key


def test_the_engine_uses_every_template_and_names_no_key_without_one() -> None:
    source = "\n".join(path.read_text("utf-8") for path in CORE.glob("*.py"))
    named = set(re.findall(r"refuse\(\s*\w+,\s*\"(\w+)\"", source))
    literals = set(re.findall(r"\"(\w+)\"", source))
    assert len(named) > 40 and named <= set(templates("en"))
    assert set(templates("en")) <= literals


def zelda_position() -> dict[str, object]:
    """Seat 1 holds every house of the Bank (brown, light blue, pink) and hotels on red;
    seat 0 holds orange without buildings, 100 in cash, five spaces before Temple of
    Time."""
    owned_by_1 = {s: {"owner": 1, **HOUSES} for s in (1, 3, 6, 8, 9, 11, 13, 14)}
    hotels = {s: {"owner": 1, "buildings": "hotel"} for s in (21, 23, 24)}
    orange = {s: {"owner": 0} for s in (16, 18, 19)}
    return {
        "players": [{"cash": 100, "position": 34}, {}],
        "properties": {**owned_by_1, **hotels, **orange},
    }


def refusal(game: Game, action: object) -> Reason:
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)  # type: ignore[arg-type]
    reason = caught.value.reason
    assert isinstance(reason, Reason)
    return reason


def test_a_german_zelda_game_refuses_in_german_with_its_spaces_words_and_money() -> None:
    game = start(zelda_position(), edition="zelda", language="de", dice=[(2, 3)])
    names = get_edition("zelda").names
    narrator = Narrator(game)

    sell = refusal(game, SellBuilding(0, 18))
    assert narrator.reason(sell) == "auf Todesberg stehen keine Gebäude"
    assert str(sell) == "Death Mountain has no buildings"

    no_houses = refusal(game, Build(0, (18,)))
    assert narrator.reason(no_houses) == "die Bank hat keine Deku-Sprosse mehr (R-BUILD-5)"
    assert str(no_houses) == "the Bank has no Deku Sprouts left (R-BUILD-5)"

    hotel = narrator.reason(refusal(game, Build(1, (21,))))
    assert hotel == "Gerudo-Wüste hat schon die höchste Ausbaustufe: Deku-Baum (R-BUILD-3)"

    waiting = narrator.reason(refusal(game, Roll(1)))
    assert waiting == "du bist nicht dran: P0 muss entscheiden (würfeln)"

    game.apply(Roll(0))
    assert game.board.spaces[39].price == 400
    buy = refusal(game, Buy(0))
    assert narrator.reason(buy) == "kostet 400 ◆, du hast 100 ◆"
    assert str(buy) == "costs 400, you have 100"

    not_theirs = narrator.reason(refusal(game, ProposeTrade(0, partner=1, take=(39,))))
    assert not_theirs == f"{names['de'].spaces[39]} gehört nicht P1"
    assert names["de"].spaces[39] != names["en"].spaces[39]


def test_english_text_formats_money_and_names_players_for_people() -> None:
    game = start({"players": [{"cash": 100, "position": 34}, {}]}, dice=[(2, 3)])
    game.apply(Roll(0))
    buy = refusal(game, Buy(0))
    assert str(buy) == "costs 400, you have 100"
    assert Narrator(game).reason(buy) == "costs $400, you have $100"
    waiting = refusal(game, Roll(1))
    assert str(waiting) == "not your decision: waiting for seat 0 (buy)"
    assert Narrator(game).reason(waiting) == "not your decision: waiting for P0 (to buy or not)"


def test_a_plain_string_passes_through_the_narrator_unchanged() -> None:
    assert Narrator(Game.new(2)).reason("no such thing") == "no such thing"


def random_value(rng: random.Random, kind: str) -> object:
    """A field value of ``kind``: mostly plausible, sometimes absurd or of the wrong type."""
    if rng.random() < 0.03:
        return rng.choice(["x", None, 1.5])
    if kind == "int":
        return rng.choice([rng.randint(-2, 45), rng.randint(0, 3000), 10**9])
    if kind == "str":
        return rng.choice([*DECK_ROLES, "", "joker"])
    item = "int" if "int" in kind else "str"
    return tuple(random_value(rng, item) for _ in range(rng.randint(0, 3)))


def random_action(rng: random.Random, game: Game) -> Action:
    """Any kind of action, half of them by the seat that must decide now."""
    cls = ACTION_TYPES[rng.choice(sorted(ACTION_TYPES))]
    values = {
        name: random_value(rng, f"tuple[{kind.__name__}]" if is_tuple else kind.__name__)
        for name, kind, is_tuple in field_types(cls)
    }
    deciding = game.decision.seat if game.decision else 0
    if rng.random() < 0.9:
        values["seat"] = deciding if rng.random() < 0.5 else rng.randint(0, game.players - 1)
    return cls(**values)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_refusal_of_random_actions_is_a_keyed_reason_in_both_languages(
    language: str,
) -> None:
    rng = random.Random(language)
    english, german = templates("en"), templates("de")
    seen: set[str] = set()
    refused = 0
    for number, edition in enumerate(edition_keys() * 3):
        game = Game.new(rng.randint(2, 5), edition, "standard", seed=number, language=language)
        bots = [RandomBot(number * 10 + s, trade_rate=0.3) for s in range(game.players)]
        for _ in range(rng.randint(0, 400)):
            decision = game.decision
            if decision is None:
                break
            game.apply(bots[decision.seat].choose(game, decision.seat))
        narrator = Narrator(game)
        for _ in range(60):
            try:
                action = random_action(rng, game)
            except TypeError as error:
                # The compiled build's actions refuse a field of the wrong type when made
                # (the pure build's are refused by game.problem, as bad_field, below).
                assert "expected" in str(error), error
                continue
            reason = game.problem(action)
            if not reason:
                continue
            refused += 1
            assert isinstance(reason, Reason), repr(reason)
            assert reason.key in english and reason.key in german
            text = narrator.reason(reason)
            assert text and (language == "en" or text != str(reason)), reason
            with pytest.raises(IllegalActionError) as caught:
                game.check(action)
            assert caught.value.reason == reason
            assert getattr(caught.value.reason, "key", None) == reason.key
            seen.add(reason.key)
    assert refused > 300
    assert len(seen) >= 15, seen
