"""The rules' refusals reach a German game's players in German, in the edition's words."""

from __future__ import annotations

from .servers import Player, ServerThread, create_game, start_game

ZELDA_IN_GERMAN = {
    "edition": "zelda",
    "language": "de",
    "token": "triforce",
    "rules": {"preset": "standard", "options": {"turn_limit": 40}},
}
TEMPLE_OF_TIME = 39


def test_a_german_games_trade_check_and_illegal_action_come_back_in_german(
    server: ServerThread,
) -> None:
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    created = create_game(server.base, seats, **ZELDA_IN_GERMAN)
    ann = Player(server.base, created["game_id"], created["seat_token"])
    start_game(server.base, created["game_id"], created["seat_token"])
    ann.my_turn()

    too_much = {"act": "propose_trade", "partner": 1, "give_cash": 10**6}
    ann.send({"type": "check", "action": too_much})
    answer = ann.expect("check_result")
    assert answer["legal"] is False and answer["reason"] == "offer_exceeds_cash"
    assert answer["problem"].startswith("du bietest 1.000.000 ◆, hast aber nur ")

    not_hers = {"act": "propose_trade", "partner": 1, "give": [TEMPLE_OF_TIME]}
    ann.act(not_hers)
    error = ann.expect("error")
    assert (error["code"], error["reason"]) == ("illegal_action", "not_theirs")
    assert error["message"] == "Zitadelle der Zeit gehört nicht Ann"

    ann.send({"type": "check", "action": {"act": "propose_trade", "partner": 1, "give_cash": 1}})
    answer = ann.expect("check_result")
    assert (answer["legal"], answer["problem"], answer["reason"]) == (True, "", None)
    ann.close()
