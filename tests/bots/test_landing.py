"""The landing-frequency table the levels value groups with."""

from __future__ import annotations

import pytest

from monopoly.bots.landing import CLASSIC, landing_frequencies, markov_landing
from monopoly.core.editions import edition_keys, get_edition


def test_the_table_is_the_markov_chain_of_the_classic_board() -> None:
    assert markov_landing(get_edition("classic").board) == pytest.approx(CLASSIC, abs=1e-5)


def test_known_facts_of_the_classic_board() -> None:
    jail, go_to_jail, illinois, chance = 10, 30, 24, (7, 22, 36)
    assert CLASSIC[go_to_jail] == 0
    assert max(CLASSIC) == CLASSIC[jail]
    streets = [s for s in get_edition("classic").board.properties if s not in (5, 15, 25, 35)]
    assert max(streets, key=lambda s: CLASSIC[s]) == illinois
    assert all(CLASSIC[s] < 0.015 for s in chance)  # most chance cards move you on
    assert 1.1 < sum(CLASSIC) < 1.25  # landings per turn: doubles move twice


@pytest.mark.parametrize("edition", edition_keys())
def test_every_edition_has_frequencies(edition: str) -> None:
    table = landing_frequencies(get_edition(edition).board)
    assert len(table) == 40 and table == CLASSIC  # the editions share the classic layout
