"""A new decision kind is one checked change: every surface must handle each kind.

The kinds are listed once, in :class:`monopoly.core.state.DecisionKind`. The engine's
answer table and the computer players check themselves at import (``for_every_kind``);
this test checks the rest: the texts in both languages, the terminal's headers and menu
labels, and the answer of every kind reaching each surface.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources

import pytest

from monopoly.cli.menus import LABELS
from monopoly.core import actions
from monopoly.core.game import decisions_answered
from monopoly.core.state import DecisionKind, for_every_kind

KINDS = list(DecisionKind)


def catalog(name: str) -> dict[str, str]:
    text = resources.files("monopoly").joinpath("locales", name).read_text("utf-8")
    return tomllib.loads(text)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_decision_kind_is_named_in_the_game_log(language: str) -> None:
    texts = catalog(f"{language}.toml")
    assert [k for k in KINDS if f"decision_{k.value}" not in texts] == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_decision_kind_has_a_terminal_header(language: str) -> None:
    texts = catalog(f"terminal_{language}.toml")
    assert [k for k in KINDS if f"ask_{k.value}" not in texts] == []


def test_every_answer_has_a_terminal_menu_label() -> None:
    """Bids and triples destinations are asked for with their own prompts."""
    answers = [cls for cls, kinds in decisions_answered().items() if kinds is not None]
    special = {actions.Bid, actions.ChooseSpace}
    assert [c.__name__ for c in answers if c not in LABELS and c not in special] == []


def test_every_decision_kind_is_answered_by_some_action() -> None:
    answered = {kind for kinds in decisions_answered().values() for kind in kinds or ()}
    assert set(KINDS) == answered


def test_a_table_that_forgets_a_kind_fails_naming_it() -> None:
    """The engine's answers and the computer players build their tables this way."""
    table = {kind: kind.value for kind in KINDS if kind != DecisionKind.BREAKDOWN}
    with pytest.raises(AssertionError, match="the test table handles no decision kind breakdown"):
        for_every_kind(table, "the test table")


def test_the_browser_has_a_panel_for_every_decision_kind() -> None:
    """decision.js draws each kind with its own panel (an unknown kind would still get a
    button per legal answer, but every kind of the engine has a proper one)."""
    script = resources.files("monopoly").joinpath("web", "static", "js", "decision.js")
    text = script.read_text("utf-8")
    drawn = {kind for kind in KINDS if f"  {kind.value}(screen, state, decision, actions)" in text}
    assert set(KINDS) - drawn == set()


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_decision_kind_has_a_how_this_works_in_the_browser(language: str) -> None:
    """The first time a kind of decision appears, its panel offers "How this works": a
    short text per kind (decision.js shows one wherever the page has the text)."""
    path = resources.files("monopoly").joinpath("web", "static", "i18n", f"{language}.json")
    labels = json.loads(path.read_text("utf-8"))
    assert [k.value for k in KINDS if len(labels.get(f"how_{k.value}", "")) < 40] == []
