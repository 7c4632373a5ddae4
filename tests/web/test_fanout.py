"""A change reaches the players first and a crowd of spectators in slices (fanout.py):
a player's message that arrives while the crowd is served is read between two slices,
and every spectator still gets every change once, in order, its deltas chained."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from monopoly.web import fanout
from monopoly.web.client import Client
from monopoly.web.connections import GuardedWebSocket
from monopoly.web.fanout import SLICE, SpectatorFanout
from monopoly.web.states import StateTexts

from .servers import Player, ServerThread, create_game, simple_answer, start_game


async def _nothing(text: str) -> None:
    return None


def _change(seq: int) -> StateTexts:
    shared = {"state_id": seq, "decision": None, "events": [], "turn_timer": None}
    answers = {"decision_actions": [], "free_actions": [], "bid_range": None}
    return StateTexts({"round": seq}, seq, shared, lambda seat: answers)


async def served_before_a_player_is_read(
    spectators: list[Client], fan_out: Callable[[], Awaitable[None]]
) -> int:
    """``fan_out`` a message to ``spectators`` (and a player) while the player's next
    message waits on a socket: how many spectators had it queued when that was read."""
    loop = asyncio.get_running_loop()
    player, peer = socket.socketpair()
    player.setblocking(False)
    served_when_read: list[int] = []

    def read_the_player() -> None:
        player.recv(100)
        served_when_read.append(sum(not client.queue.empty() for client in spectators))

    loop.add_reader(player, read_the_player)
    try:
        peer.send(b'{"type":"action"}')  # the player's answer is already on its way
        await fan_out()
        while not all(client.queue.qsize() for client in spectators):
            await asyncio.sleep(0.001)
    finally:
        loop.remove_reader(player)
        player.close()
        peer.close()
    return served_when_read[0]


async def _fan_out_while_a_player_writes() -> tuple[int, list[Client]]:
    """A change for 4 slices of spectators while a player's message waits on a socket."""
    spectators = [Client(_nothing) for _ in range(4 * SLICE)]

    async def fan_out() -> None:
        SpectatorFanout(asyncio.Lock()).send(_change(1), spectators)

    return await served_before_a_player_is_read(spectators, fan_out), spectators


def test_a_players_message_is_read_before_the_crowd_is_served() -> None:
    served, spectators = asyncio.run(_fan_out_while_a_player_writes())
    assert served <= SLICE, f"the player waited for {served} spectators, not one slice"
    texts = {client.queue.get_nowait() for client in spectators}
    assert len(texts) == 1 and '"state_id":1' in texts.pop(), "one text for the whole crowd"


async def _changes_to(client_seq: int | None) -> list[Any]:
    """Changes 5 and 6 sent to a spectator whose last table is ``client_seq``."""
    client = Client(_nothing)
    client.seq = client_seq
    crowd = SpectatorFanout(asyncio.Lock())
    crowd.send(_change(5), [client])
    crowd.send(_change(6), [client])
    await asyncio.sleep(0.01)
    return [json.loads(client.queue.get_nowait())["state_id"] for _ in range(client.queue.qsize())]


def test_a_spectator_is_sent_only_changes_newer_than_its_table() -> None:
    """A spectator's full state (after ``sync``) may overtake a change still queued for
    the crowd; that change is not sent to it afterwards (its events would show twice)."""
    assert asyncio.run(_changes_to(None)) == [5, 6]
    assert asyncio.run(_changes_to(5)) == [6]
    assert asyncio.run(_changes_to(6)) == []


async def _fan_out_during_an_action() -> tuple[int, int]:
    """Spectators sent a change while the game's lock is held (an action and its write
    under way), and after it is released."""
    game_lock = asyncio.Lock()
    spectators = [Client(_nothing) for _ in range(3)]
    async with game_lock:
        SpectatorFanout(game_lock).send("a chat line", spectators)
        await asyncio.sleep(0.01)
        during = sum(client.queue.qsize() for client in spectators)
    await asyncio.sleep(0.01)
    return during, sum(client.queue.qsize() for client in spectators)


def test_the_crowd_waits_while_an_action_is_carried_out() -> None:
    assert asyncio.run(_fan_out_during_an_action()) == (0, 3)


ANN_AND_BOTS = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * 3


def test_every_spectator_gets_every_change_once_in_order(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over real WebSockets, the crowd served one spectator per turn of the event loop,
    while one of them asks for the whole table again and again: each change reaches
    every spectator once, in order, each delta on the table before it, most of them
    framed once and written straight to the sockets."""
    monkeypatch.setattr(fanout, "SLICE", 1)
    written: list[bytes] = []
    write_frame = GuardedWebSocket.write_frame

    def counted(self: GuardedWebSocket, frame: bytes) -> bool:
        done = write_frame(self, frame)
        if done:
            written.append(frame)
        return done

    monkeypatch.setattr(GuardedWebSocket, "write_frame", counted)
    created = create_game(server.base, ANN_AND_BOTS, rules={"preset": "short"})
    game_id, token = created["game_id"], created["seat_token"]
    ann = Player(server.base, game_id, token)
    watchers = [Player(server.base, game_id, None, deltas=True) for _ in range(3)]
    watchers.append(Player(server.base, game_id, None))  # whole states
    syncing = watchers[0]
    start_game(server.base, game_id, token)
    changes: list[int] = []
    for turn in range(300):
        state = ann.expect("state")
        changes.append(state["state_id"])
        if state["game"]["over"]:
            break
        if turn % 3 == 0:
            syncing.send({"type": "sync"})
        if state["decision"] and state["decision"]["seat"] == 0:
            ann.act(simple_answer(state))
    last = changes[-1]
    for watcher in watchers:
        watcher.wait_for(lambda s: s["state_id"] == last)
    syncing_seen = [m for m in syncing.seen if m["type"] == "state"]
    assert sum(m["full"] for m in syncing_seen) > 10, "the spectator synced meanwhile"
    for watcher in watchers:
        states = [m for m in watcher.seen if m["type"] == "state"]
        for before, after in itertools.pairwise(states):
            if after["full"]:
                assert after["state_id"] >= before["state_id"], "an older table"
            else:
                assert after["state_id"] > before["state_id"], "a change twice or late"
        if watcher is not syncing:
            numbers = [m["state_id"] for m in states[1:]]
            assert numbers == [n for n in changes if n > states[0]["state_id"]], "every one"
    assert len(written) > len(changes) * 2, "the crowd's changes go out as frames made once"
    for client in (ann, *watchers):
        client.close()
