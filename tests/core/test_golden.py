"""Golden records (tests/golden/): complete games over every edition and the standard,
short, speed and short+speed rule sets, in both languages, replayed and compared with the
final state they had when made. A failure here means the rules' outcome changed: read the
diff (``python -m tests.golden`` regenerates the files) before accepting it.
R-END-1, R-SHORT-4, R-SPEED-1.
"""

from __future__ import annotations

import json

import pytest

from monopoly.core.records import game_state, replay
from tests.golden import cases, path_of

CASES = cases()


def test_every_edition_and_rule_set_has_a_golden_record_in_both_languages() -> None:
    editions = {edition for edition, *_ in CASES}
    assert len(editions) == 5
    for edition in editions:
        mine = [(rules, language) for e, rules, language, _ in CASES if e == edition]
        assert {rules for rules, _ in mine} == {"standard", "short", "speed", "short+speed"}
    assert {language for *_, language, _ in CASES} == {"en", "de"}
    for edition, rules, language, _ in CASES:
        assert path_of(edition, rules, language).is_file()


@pytest.mark.parametrize(
    ("edition", "rules", "language"), [case[:3] for case in CASES], ids=lambda v: str(v)
)
def test_golden_record_replays_to_its_final_state(edition: str, rules: str, language: str) -> None:
    data = json.loads(path_of(edition, rules, language).read_text(encoding="utf-8"))
    expected = data["final_state"]
    game = replay(data)
    assert game.over and list(game.winners) == data["result"]["winners"]
    assert game_state(game) == expected
