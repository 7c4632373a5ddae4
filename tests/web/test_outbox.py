"""The queue of one server process's messages to another (outbox.py) and what the
receiving process does with messages sent twice or lost (cluster.py)."""

from __future__ import annotations

import asyncio
import json
import secrets

import psycopg

from monopoly.web.client import Client
from monopoly.web.cluster import Cluster, Proxy, spans
from monopoly.web.limits import Limits
from monopoly.web.outbox import Outbox


def _kinds(outbox: Outbox) -> list[str]:
    return [kind for kind, _ in outbox.waiting]


def test_messages_are_numbered_in_order_with_their_sender() -> None:
    outbox = Outbox("a", "b", Limits())
    for kind in ["all", "out", "in"]:
        assert outbox.put({"k": kind})
    sent = [json.loads(payload) for _, payload in outbox.waiting]
    assert [(m["f"], m["q"], m["k"]) for m in sent] == [
        ("a", 1, "all"),
        ("a", 2, "out"),
        ("a", 3, "in"),
    ]


def test_at_the_bound_what_waits_is_dropped_and_reported_lost_but_a_bye() -> None:
    outbox = Outbox("a", "b", Limits(process_queue_messages=3))
    assert outbox.put({"k": "all"})
    assert outbox.put({"k": "bye", "p": "a", "c": 7})
    payload = outbox.take()  # being sent: counted too
    assert outbox.put({"k": "all"})
    assert len(outbox) == 3
    assert not outbox.put({"k": "out"})  # the fourth: all is dropped
    assert _kinds(outbox) == ["lost", "bye"]
    assert outbox.sending is None and outbox.dropped == 3
    outbox.sent(payload)  # the one in flight went through after all: nothing to count
    assert outbox.bytes == sum(len(p) for _, p in outbox.waiting)
    numbers = [json.loads(p)["q"] for _, p in outbox.waiting]
    assert numbers == [5, 6]  # after the dropped 1, 3, 4 and the bye's first number, 2
    dropped, (held, _) = outbox.went_through()
    assert dropped == 3 and held == 3
    assert outbox.dropped == 0


def test_the_bound_in_bytes() -> None:
    outbox = Outbox("a", "b", Limits(process_queue_bytes=200))
    assert outbox.put({"k": "all", "m": "x" * 100})
    assert not outbox.put({"k": "all", "m": "x" * 100})
    assert _kinds(outbox) == ["lost"] and outbox.bytes < 200
    assert outbox.put({"k": "bye", "m": "x" * 300})  # kept whatever the bound


async def _receive_in_order(cluster: Cluster, owner: str, db: str) -> tuple[list[str], list[str]]:
    """A spectator here of a game owned by process ``owner``: what it gets of the owner's
    messages 1, 2, 2 again, 4 (3 lost), then the owner's ``whole`` and a whole state;
    and what this process sent the owner meanwhile."""
    got: list[str] = []

    async def to_spectator(text: str) -> None:
        got.append(text)

    listener = await psycopg.AsyncConnection.connect(db, autocommit=True)
    await listener.execute(f"LISTEN monopoly_{owner}")
    spectator = Client(to_spectator)
    pump = asyncio.get_running_loop().create_task(spectator.pump())
    cluster.proxies[1] = Proxy("g", spectator, "127.0.0.1", owner=owner)
    for number in [1, 2, 2, 4]:
        runs = [[f"change {number}", None, spans([1])]]
        await cluster._receive({"f": owner, "q": number, "k": "all", "g": "g", "m": runs})
    await cluster._receive({"f": owner, "q": 5, "k": "whole", "c": spans([1])})
    whole = [["the whole state", None, spans([1])]]
    await cluster._receive({"f": owner, "q": 6, "k": "all", "g": "g", "m": whole})
    await asyncio.sleep(0.05)
    spectator.close()
    await pump
    sent = [notice.payload async for notice in listener.notifies(timeout=1)]
    await listener.close()
    return got, sent


def test_a_message_had_is_dropped_and_after_a_loss_only_a_whole_state_is_taken(
    postgres_url: str,
) -> None:
    """The receiving process drops a message it had (sent again after a broken
    connection); after a lost one it drops the owner's messages to the connections
    there and asks for their whole state, and takes the owner's messages again once it
    says the whole state comes."""
    cluster = Cluster(None, postgres_url)  # type: ignore[arg-type]  # no games of its own
    owner = f"o{secrets.token_hex(6)}"
    try:
        got, sent = asyncio.run(_receive_in_order(cluster, owner, postgres_url))
    finally:
        cluster.stop()
    assert got == ["change 1", "change 2", "the whole state"]
    asked = [json.loads(payload) for payload in sent]
    assert [(m["k"], m["c"], m["f"]) for m in asked] == [("resync", spans([1]), cluster.proc)]
