"""Deltas over real WebSockets: a client that asks for them gets the table whole once and
then JSON Patches (RFC 6902) that rebuild exactly the states a client of whole states
gets — applied by the ``jsonpatch`` library (tests/web/servers.py), not the server's code."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from monopoly.web.client import dumps

from .servers import Player, ServerThread, ann_in_a_game, create_game, simple_answer, start_game

ANN_AND_BOTS = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3
PER_CHANGE = ("state_id", "seat", "decision", "decision_actions", "free_actions", "bid_range")
"""The parts of a state a delta carries whole."""
MIXED = [{"type": "human"}] + [{"type": "bot", "level": level} for level in ("random", "easy")]
"""The random computer player also mortgages and lifts mortgages at random."""
LONG = {"preset": "standard", "options": {"turn_limit": 300}}


def test_deltas_rebuild_every_state_a_client_of_whole_states_gets(server: ServerThread) -> None:
    created = create_game(server.base, ANN_AND_BOTS, rules=LONG)
    game_id, token = created["game_id"], created["seat_token"]
    whole = Player(server.base, game_id, token)
    delta = Player(server.base, game_id, token, deltas=True)
    watcher = Player(server.base, game_id, None, deltas=True)
    start_game(server.base, game_id, token)
    compared = 0
    while True:
        state = whole.expect("state")
        rebuilt, watched = delta.expect("state"), watcher.expect("state")
        assert rebuilt["game"] == state["game"], f"state {state['state_id']}"
        assert {k: rebuilt[k] for k in PER_CHANGE} == {k: state[k] for k in PER_CHANGE}
        assert rebuilt["events"] == state["events"]
        assert watched["game"] == state["game"] and watched["decision_actions"] == []
        compared += 1
        if state["game"]["over"] or compared >= 400:
            break
        if state["decision"] and state["decision"]["seat"] == 0:
            whole.act(simple_answer(state))
    deltas = sum(1 for m in delta.seen if m.get("delta"))
    assert deltas == compared - 1 and deltas > 50, "after the first state, only deltas"
    assert not any(m.get("delta") for m in whole.seen)
    session = server.app.state.hub.sessions[game_id]
    tables = {id(client.table) for client in session.clients if client.deltas}
    assert len(tables) == 1, "the delta clients share the one last table"

    delta.send({"type": "sync"})
    synced = delta.expect("state")
    assert synced["full"] and not synced.get("delta")
    assert synced["game"] == rebuilt["game"] == whole.state["game"]  # type: ignore[index]
    for client in (whole, delta, watcher):
        client.close()


def test_a_hello_without_deltas_gets_whole_states(server: ServerThread) -> None:
    _, _, ann = ann_in_a_game(server.base)
    state = ann.my_turn()
    ann.act(simple_answer(state))
    ann.wait_for(lambda s: s["state_id"] > state["state_id"])
    assert not any(m.get("delta") for m in ann.seen)
    assert ann.state is not None and "seq" not in ann.state
    ann.close()


def test_a_bad_deltas_field_is_refused_and_changes_nothing(server: ServerThread) -> None:
    created = create_game(server.base, ANN_AND_BOTS)
    game_id, token = created["game_id"], created["seat_token"]
    start_game(server.base, game_id, token)
    ann = Player(server.base, game_id, greet=False)
    for value in ("yes", 1, None, [True]):
        ann.send({"type": "hello", "token": token, "deltas": value})
        error = ann.expect("error")
        assert error["code"] == "bad_message" and error["request"] == "hello"
        assert "hello.deltas must be true or false" in error["message"]
    ann.send({"type": "ping"})
    assert ann.recv()["code"] == "hello_first", "the refused hellos greeted nobody"
    ann.send({"type": "hello", "token": token, "deltas": True})
    assert ann.expect("welcome")["seat"] == 0
    assert ann.expect("state")["seq"] is not None
    ann.close()


def test_a_lone_surrogate_is_sent_escaped() -> None:
    text = dumps({"type": "chat", "text": "a\ud800b", "n": 2**70})
    assert text.isascii() and json.loads(text) == {"type": "chat", "text": "a\ud800b", "n": 2**70}
    assert dumps({"text": "Zitadelle ✓"}) == '{"text":"Zitadelle ✓"}'


def test_the_kept_holdings_and_amounts_match_the_game_at_every_action(tmp_path: Path) -> None:
    """The table keeps each seat's deeds, buildings and their worth, and the spaces'
    owners, levels and mortgages, while no deed or building changes, and the narrator
    each amount of money it formatted: over whole games of computer players (buildings,
    mortgages, bankruptcies; in English and in German) the table always equals the one
    computed afresh, and the events' texts the plain narrator's."""
    from monopoly.core import narrate
    from monopoly.core.narrate import Narrator
    from monopoly.core.view import PlayerView
    from monopoly.web import views
    from monopoly.web.hub import Hub
    from monopoly.web.lobby import parse_new_game
    from monopoly.web.session import ServerConfig
    from monopoly.web.storage import Store

    async def play() -> tuple[int, set[str]]:
        hub = Hub(Store(str(tmp_path / "games.sqlite3")), ServerConfig(bot_delay=1e9))
        actions, kinds = 0, set()
        for seed, edition, language, token in (
            (3, "classic", "en", "cat"),
            (4, "zelda", "de", "triforce"),
        ):
            body = {"name": "Ann", "token": token, "seats": MIXED, "seed": seed}
            body.update(edition=edition, language=language)
            session, secret = await hub.create(parse_new_game(body, hub.levels, testing=True))
            await session.start(secret)
            game = session.game
            assert game is not None
            while not game.over and actions < 6000:
                assert game.decision is not None
                session.computer.move(game.decision.seat)
                actions += 1
                kinds.update(type(event).__name__ for event in game.events[-5:])
                kept = session._table()
                fresh = views.table_json(PlayerView(game), session._players())
                assert {key: kept[key] for key in fresh} == fresh, f"action {actions}"
            narrate._money.cache_clear()
            plain = views.events_json(Narrator(game), game, 0)
            for _ in range(2):  # the amounts formatted, then kept
                assert views.events_json(Narrator(game), game, 0) == plain
            session.stop()
        hub.stop()
        hub.store.close()
        return actions, kinds

    actions, kinds = asyncio.run(play())
    assert actions > 1000
    assert {"BuildingBuilt", "PropertyMortgaged", "PlayerBankrupt"} <= kinds, kinds
