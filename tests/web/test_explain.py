"""The log says why things happen: doubles, third doubles, triples, the Bus, Mr. Monopoly,
jail doubles, a shortage auction, a lapsed rent claim, the short game's dealt deeds."""

from __future__ import annotations

from monopoly.core import events as ev
from monopoly.core.actions import Roll
from monopoly.core.narrate import Narrator
from monopoly.web import explain, views
from tests.scenario import start

TERMS = {
    "bus": "Bus",
    "mr_monopoly": "Mr. Monopoly",
    "jail": "Jail",
    "go_to_jail": "Go to Jail",
    "bank": "Bank",
    "houses": "houses",
    "hotels": "hotels",
    "go": "GO",
}


def why(events: list[object], language: str = "en") -> list[str]:
    return explain.notes(events, 0, language, TERMS)


def test_doubles_then_third_doubles_in_one_turn() -> None:
    """R-TURN-4: doubles roll again; the third doubles send to jail."""
    events = [
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (2, 2), True),
        ev.Moved(0, 0, 4),
        ev.DiceRolled(0, (3, 3), True),
        ev.Moved(0, 4, 10),
        ev.DiceRolled(0, (1, 1), True),
        ev.SentToJail(0),
    ]
    notes = why(events)
    assert notes[1] == notes[3] == "Doubles: another roll after this move."
    assert notes[5] == "Third doubles in a row: straight to Jail, the turn ends."
    assert notes[2] == notes[4] == notes[6] == ""


def test_the_count_of_doubles_starts_again_each_turn() -> None:
    events = [
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (2, 2), True),
        ev.DiceRolled(0, (3, 3), True),
        ev.DiceRolled(0, (1, 2), False),
        ev.TurnStarted(1, 2),
        ev.DiceRolled(1, (5, 5), True),
    ]
    assert why(events)[5] == "Doubles: another roll after this move."


def test_speed_die_faces_and_mr_monopolys_own_move() -> None:
    """R-SPEED-4, R-SPEED-5, R-SPEED-7."""
    events = [
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (2, 2, 2), True),
        ev.TurnStarted(1, 2),
        ev.DiceRolled(1, (1, 3, 4), False),
        ev.TurnStarted(0, 3),
        ev.DiceRolled(0, (1, 4, 5), False),
        ev.Moved(0, 0, 5),
        ev.Moved(0, 5, 6),
    ]
    notes = why(events)
    assert notes[1].startswith("Triples")
    assert notes[3] == "Bus: move by either white die or by both together, as you choose."
    assert notes[5].startswith("Mr. Monopoly: after this move")
    assert notes[6] == ""
    assert notes[7] == "Mr. Monopoly's move."


def test_a_card_move_is_not_mr_monopolys() -> None:
    events = [
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (3, 4, 5), False),
        ev.Moved(0, 0, 7),
        ev.CardDrawn(0, "chance", "advance_to_go"),
        ev.Moved(0, 7, 0),
        ev.Moved(0, 0, 1),
    ]
    notes = why(events)
    assert notes[4] == "" and notes[5] == "Mr. Monopoly's move."


def test_jail_shortage_lapsed_claim_and_dealt_deeds_in_german() -> None:
    events = [
        ev.PropertyDealt(0, 1),
        ev.PropertyDealt(0, 3),
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (4, 4), True),
        ev.LeftJail(0, "doubles"),
        ev.AuctionStarted(-1, (0, 1)),
        ev.RentForfeited(1, 6),
        ev.Moved(0, 25, 30),
        ev.SentToJail(0),
    ]
    terms = {
        **TERMS,
        "jail": "Gefängnis",
        "houses": "Häuser",
        "go_to_jail": "Gehen Sie in das Gefängnis",
    }
    notes = explain.notes(events, 0, "de", terms)
    assert notes[0].startswith("Kurzes Spiel") and notes[1] == ""
    assert notes[3] == "Pasch im Gefängnis: frei und Zug um diesen Wurf, aber kein weiterer Wurf."
    assert "zu wenige Häuser" in notes[5]
    assert notes[6].startswith("Miete muss vor dem nächsten Wurf verlangt werden")
    assert notes[8] == "Auf „Gehen Sie in das Gefängnis“ gelandet."


def test_notes_from_the_middle_of_a_turn_match_the_whole_log() -> None:
    """A state's events start mid-turn; their notes equal those of the full log."""
    events = [
        ev.TurnStarted(0, 1),
        ev.DiceRolled(0, (2, 2), True),
        ev.Moved(0, 0, 4),
        ev.DiceRolled(0, (3, 3), True),
        ev.DiceRolled(0, (1, 1), True),
    ]
    assert explain.notes(events, 4, "en", TERMS) == why(events)[4:]


def test_a_real_game_sends_the_notes_with_its_events_and_in_its_log() -> None:
    """A speed game from a position: the Bus roll's note reaches the client both ways."""
    game = start({"players": [{"position": 1}, {}]}, rules="speed", dice=[(1, 3, 4)])
    game.speed_active[0] = True
    game.apply(Roll(0))
    narrator = Narrator(game)
    sent = views.events_json(narrator, game, 0)
    rolled = next(e for e in sent if e["type"] == "DiceRolled")
    assert rolled["dice"] == [1, 3, "bus"]
    assert rolled["why"].startswith("Bus: move by either white die")
    lines = views.log_lines(narrator, game)
    assert explain.WHY_PREFIX + rolled["why"] in lines
    assert lines.index(explain.WHY_PREFIX + rolled["why"]) == lines.index(rolled["text"]) + 1
