"""The owner's lease connection breaks (an administrator ends it, the database restarts):
PostgreSQL releases all its advisory locks at once, and another process may take its
games over. The old owner stops serving them before any further action of theirs is
stored and its clients connect again; the game goes on under the new owner with every
action stored once, and every client ends with the table a fresh client gets
(cluster.py: the lease; storage.py: the fenced write)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest
from sqlalchemy.exc import DBAPIError
from websockets.exceptions import ConnectionClosed

from monopoly.core.records import replay
from monopoly.web.cluster import prepare_lease_table
from monopoly.web.storage import LogWrite, Store, refused_as_not_owner

from .servers import Player, ServerProcess, create_game, simple_answer, start_game
from .test_cluster import ANN_AND_STEADY_BOTS, owner_proc
from .test_cluster_faults import _a_game_on, _output, _terminate


def _play(player: Player, moves: int) -> None:
    """``moves`` of the player's decisions, each answered by a new state."""
    for _ in range(moves):
        player.act(simple_answer(player.my_turn()))
        player.expect("state")


def _until_closed(player: Player, timeout: float = 15.0) -> tuple[list[dict[str, Any]], bool]:
    """What the connection gets until the server ends it, and whether it did."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            got.append(player.recv(max(0.01, deadline - time.monotonic())))
    except ConnectionClosed:
        return got, True
    except TimeoutError:
        return got, False


def _presence(player: Player, check: Any, timeout: float = 15.0) -> dict[str, Any]:
    """Read until a presence message for which ``check`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        message = player.expect("presence", max(0.01, deadline - time.monotonic()))
        if check(message):
            return message


def _fresh_table(base: str, game_id: str) -> dict[str, Any]:
    fresh = Player(base, game_id)
    state = fresh.expect("state")
    fresh.close()
    return state


def _same_table(player: Player, fresh: dict[str, Any]) -> None:
    state = player.wait_for(lambda s: s["state_id"] == fresh["state_id"])
    assert state["game"] == fresh["game"]


def test_a_broken_lease_connection_never_leaves_two_owners(postgres_url: str) -> None:
    db = postgres_url
    with ServerProcess(db, "--cluster") as a, ServerProcess(db, "--cluster") as b:
        game_id, token, a_name, b_name = _a_game_on(a, b, db)
        ann = Player(a.base, game_id, token)
        watcher = Player(a.base, game_id)
        start_game(a.base, game_id, token)
        _play(ann, 3)
        before = ann.my_turn()
        for player in (ann, watcher):  # what came before the fault is read
            player.send({"type": "ping"})
            player.expect("pong")

        assert _terminate(db, f"monopoly lease {a_name}") == 1
        # Ann, in a second tab, on the other process: it takes the game over
        ann_on_b = Player(b.base, game_id, token)
        assert owner_proc(db, game_id) == b_name
        # ... while her first tab acts on the old owner: nothing of it is accepted
        ann.act(simple_answer(before))
        for player in (ann, watcher):
            got, closed = _until_closed(player)
            assert not [m for m in got if m["type"] == "state"], "acted on a lost game"
            assert closed, "told to connect again"
        ann.close()
        watcher.close()

        ann_on_b.expect("state")
        _play(ann_on_b, 3)
        # both tabs again, one on each process; they play in turn
        ann = Player(a.base, game_id, token)
        watcher = Player(a.base, game_id)
        ann.expect("state")
        for _ in range(3):
            _play(ann, 1)
            _play(ann_on_b, 1)
        fresh = _fresh_table(b.base, game_id)
        assert fresh["state_id"] > before["state_id"]
        for player in (ann, watcher, ann_on_b):
            _same_table(player, fresh)
        assert _fresh_table(a.base, game_id)["game"] == fresh["game"]
        for player in (ann, watcher, ann_on_b):
            player.close()
        log = _output(a)
    assert log.count("the lease connection broke") == 1, log
    assert log.count("the lease connection is open again") == 1, log

    store = Store(db)
    stored = store.load(game_id)
    assert stored is not None
    actions = [entry for entry in stored.log if "act" in entry]
    assert len(actions) == fresh["state_id"], "every action stored once"
    replay(stored.record(), check_result=False)  # raises if the two owners' entries mixed
    store.close()


def test_a_player_arriving_just_after_the_lease_broke_is_served(postgres_url: str) -> None:
    """A process whose lease connection broke a moment ago, before it noticed: a player
    opening a game there is served once the new lease connection is open. Before, taking
    the game's lease failed on the broken connection and her socket was dropped without
    a word (and a traceback in the log)."""
    db = postgres_url
    with ServerProcess(db, "--cluster") as a, ServerProcess(db, "--cluster") as b:
        game_id, token, _, a_name = _a_game_on(b, a, db)  # owned by b
        start_game(b.base, game_id, token)
        assert _terminate(db, f"monopoly lease {a_name}") == 1
        ann = Player(a.base, game_id, token)  # a looks for the game's owner at once
        assert ann.welcome["seat"] == 0
        _play(ann, 2)
        ann.close()
        log = _output(a)
    assert log.count("the lease connection broke") == 1, log
    assert log.count("the lease connection is open again") == 1, log
    assert "Traceback" not in log, log


def test_an_action_write_of_a_game_owned_elsewhere_is_refused(postgres_url: str) -> None:
    """The fenced write: a process stores a game's actions only while the owners' table
    gives the game to it; another game in the same batch is stored."""
    db = postgres_url
    with ServerProcess(db) as server:
        ours = create_game(server.base, ANN_AND_STEADY_BOTS)
        theirs = create_game(server.base, ANN_AND_STEADY_BOTS)
        for created in (ours, theirs):
            start_game(server.base, created["game_id"], created["seat_token"])
    prepare_lease_table(db)
    with psycopg.connect(db, autocommit=True) as connection:
        for created, proc in ((ours, "me"), (theirs, "other")):
            connection.execute(
                "INSERT INTO monopoly_owners VALUES (%s, %s)", (created["game_id"], proc)
            )
    store = Store(db)
    store.fence = "me"
    lengths = {c["game_id"]: store.log_length(c["game_id"]) for c in (ours, theirs)}
    writes = [LogWrite(game_id, n, [{"dice": [1, 2]}], "running") for game_id, n in lengths.items()]
    with pytest.raises(DBAPIError) as refused:
        store.append_logs(writes)
    assert refused_as_not_owner(refused.value)
    store.append_logs(writes[:1])

    async def on_the_loop() -> None:  # the server's own way to write
        try:
            with pytest.raises(DBAPIError) as refused:
                await store.append_logs_async(writes[1:])
            assert refused_as_not_owner(refused.value)
        finally:
            await store.close_async()

    asyncio.run(on_the_loop())
    after = {game_id: store.log_length(game_id) for game_id in lengths}
    assert after == {
        ours["game_id"]: lengths[ours["game_id"]] + 1,
        theirs["game_id"]: lengths[theirs["game_id"]],
    }
    store.close()


def test_the_owner_ends_the_connections_of_a_process_that_died(postgres_url: str) -> None:
    """A spectator watches through another process, which is killed: the owner ends
    that connection (the players see one watcher less) instead of keeping it for ever."""
    db = postgres_url
    with ServerProcess(db, "--cluster") as a, ServerProcess(db, "--cluster") as b:
        game_id, token, _, _ = _a_game_on(a, b, db)
        ann = Player(a.base, game_id, token)
        watcher = Player(b.base, game_id)
        watcher.expect("lobby")
        assert _presence(ann, lambda p: p["watchers"] == 1)
        b.kill()
        gone = _presence(ann, lambda p: p["watchers"] == 0, timeout=60)
        assert gone["seats"][0]["connected"]
        ann.close()
        log = _output(a)
    assert log.count("is gone: its connections here are ended") == 1, log
