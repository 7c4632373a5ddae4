"""The game log speaks English and German, in each edition's own words."""

from __future__ import annotations

import inspect

import pytest

from monopoly.bots.random_bot import RandomBot, play
from monopoly.core import events as ev
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator, catalog, money
from monopoly.sim.texts import Texts as SimTexts
from tests.scenario import start

EVENT_TYPES = [
    cls
    for name, cls in inspect.getmembers(ev, inspect.isclass)
    if issubclass(cls, tuple) and cls.__module__ == ev.__name__
]


def test_both_languages_have_the_same_messages() -> None:
    assert set(catalog("en")) == set(catalog("de"))


def test_every_event_type_has_a_sentence() -> None:
    for cls in EVENT_TYPES:
        assert hasattr(Narrator, "_" + cls.__name__), cls.__name__


@pytest.mark.parametrize("edition", edition_keys())
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_whole_game_narrates_without_gaps(edition: str, language: str) -> None:
    game = Game.new(4, edition, "speed", seed=8, language=language)
    play(game, [RandomBot(seat, trade_rate=0.2) for seat in range(4)], max_actions=3000)
    narrator = Narrator(game)
    lines = [narrator.describe(event) for event in game.events]
    assert len(lines) == len(game.events) > 100
    text = "\n".join(lines)
    assert "{" not in text and "}" not in text
    names = get_edition(edition).names[language]
    assert any(name in text for name in names.spaces[1:10])
    if edition != "classic":
        classic = get_edition("classic").names[language].spaces
        streets = [classic[s] for s in get_edition("classic").board.properties]
        assert not any(street in text for street in streets if street not in names.spaces)


def test_money_follows_the_language_and_the_edition() -> None:
    assert money(Game.new(2, "classic", language="en"), 1500) == "$1,500"
    assert money(Game.new(2, "classic", language="de"), 1500) == "1.500 €"
    assert money(Game.new(2, "cthulhu", language="en"), 1500) == "1,500 IP"
    assert money(Game.new(2, "fallout", language="de"), 20) == "20 " + get_edition("fallout").term(
        "currency_symbol", "de"
    )


def test_card_texts_name_the_editions_spaces() -> None:
    game = start(edition="zelda", language="de", dice=[(3, 4)])
    game.apply(game.legal_actions()[0])  # roll 7 from GO onto the first Chance space
    drawn = [e for e in game.events if isinstance(e, ev.CardDrawn)]
    assert drawn
    text = Narrator(game).describe(drawn[0])
    assert "Leere Flasche" in text
    assert "Zitadelle der Zeit" in text  # the first card advances to space 39


def test_building_sentences_use_the_editions_words() -> None:
    game = start(
        {"players": [{}, {}], "properties": {"1": {"owner": 0}, "3": {"owner": 0}}},
        edition="cthulhu",
    )
    events = game.apply(game.legal_actions(0)[1])  # the first free action: build on 1
    built = [e for e in events if isinstance(e, ev.BuildingBuilt)]
    text = Narrator(game).describe(built[0])
    assert "Crypt" in text
    assert "50 IP" in text


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "the Bank has 1 house left", "the Bank has 2 houses left"),
        ("de", "Die Bank hat nur noch 1 Haus,", "Die Bank hat nur noch 2 Häuser,"),
    ],
)
def test_a_shortage_counts_the_banks_houses_in_the_plural_form(
    language: str, one: str, two: str
) -> None:
    """R-BUILD-5: a shortage names the Bank's stock as "1 house", "2 houses"."""
    narrator = Narrator(Game.new(2, "classic", language=language))
    assert one in narrator.describe(ev.BuildingShortage(hotel=False, stock=1, wanted=3))
    assert two in narrator.describe(ev.BuildingShortage(hotel=False, stock=2, wanted=3))


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 game ended in a shared win", "2 games ended in a shared win"),
        ("de", "1 Spiel endete mit geteiltem Sieg", "2 Spiele endeten mit geteiltem Sieg"),
    ],
)
def test_the_simulators_counts_take_the_plural_form(language: str, one: str, two: str) -> None:
    texts = SimTexts(get_edition("classic"), language)
    assert texts("shared", count=1).startswith(one)
    assert texts("shared", count=2).startswith(two)
