"""Several server processes over one PostgreSQL: a player connected to one process plays
a game owned by another; when the owner is killed mid-game, the game goes on."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.exceptions import ConnectionClosed

from monopoly.core.records import replay
from monopoly.web.cluster import numbers_of
from monopoly.web.storage import Store

from .servers import ANN_AND_BOTS, Player, ServerProcess, create_game, simple_answer
from .test_play import play_to_the_end, sync


def test_a_game_survives_the_death_of_its_owner_process(postgres_url: str) -> None:
    db = postgres_url
    with ServerProcess(db, "--cluster") as owner, ServerProcess(db, "--cluster") as other:
        waiting = create_game(owner.base, [{"type": "human"}, {"type": "human"}])
        listed = httpx.get(f"{other.base}/api/games").json()["games"]
        assert [game["game_id"] for game in listed] == [waiting["game_id"]]
        created = create_game(owner.base, ANN_AND_BOTS)
        game_id, token = created["game_id"], created["seat_token"]
        watcher = Player(owner.base, game_id)  # someone there: the game stays with its owner
        # connected to the process that does not own it; deltas, as the browser takes them
        ann = Player(other.base, game_id, token, deltas=True)
        first_owner = owner_proc(db, game_id)
        assert watcher.welcome["spectator"] is True
        assert ann.welcome["seat"] == 0
        assert ann.expect("lobby")["game"]["game_id"] == game_id
        started = httpx.post(f"{other.base}/api/games/{game_id}/start", json={"seat_token": token})
        assert started.status_code == 200, started.text
        for _ in range(16):  # enough for a log too long for one NOTIFY
            ann.act(simple_answer(ann.my_turn()))
            ann.expect("state")
        seen = ann.my_turn()["state_id"]
        synced = sync(ann)  # the whole table and the log: too long for one NOTIFY
        assert len(json.dumps(synced, separators=(",", ":"))) > 8000
        assert synced["full"] is True and synced["state_id"] == seen and synced["log"]
        assert owner_proc(db, game_id) == first_owner
        owner.kill()

        ann.expect("welcome", timeout=15)  # the other process took over and greets again
        again = ann.expect("state")
        assert again["full"] is True and again["state_id"] >= seen
        over = play_to_the_end(ann)
        assert over["winners"]
        assert any(m.get("delta") for m in ann.seen), "deltas came through both owners"
        lobby = httpx.get(f"{other.base}/api/games/{game_id}").json()
        assert lobby["status"] == "over"
        ann.close()
        other.process.terminate()
        assert other.process.stdout is not None
        log = other.process.stdout.read()
    assert f"this process took game {game_id} over" in log

    store = Store(postgres_url)
    stored = store.load(game_id)
    assert stored is not None and stored.status == "over"
    assert replay(stored.record()).over
    store.close()


def owner_proc(db: str, game_id: str) -> str | None:
    """The server process that holds the game's lease now (its random name)."""
    with psycopg.connect(db) as connection:
        row = connection.execute(
            "SELECT proc FROM monopoly_owners WHERE game_id = %s", (game_id,)
        ).fetchone()
    return None if row is None else str(row[0])


ANN_AND_STEADY_BOTS = [{"type": "human"}] + [{"type": "bot", "level": "normal"}] * 2
"""Computer players that do not go bankrupt within a few dozen moves."""
LONGER = {"preset": "standard", "options": {"turn_limit": 400}}
"""A game that does not end at a turn limit while the test plays it."""


def test_a_game_follows_its_player_to_the_process_she_is_connected_to(postgres_url: str) -> None:
    """The owner hands the game over to the process all its players use; an action sent
    during the move is neither lost nor played twice."""
    db = postgres_url
    with ServerProcess(db, "--cluster") as first, ServerProcess(db, "--cluster") as second:
        created = create_game(first.base, ANN_AND_STEADY_BOTS, rules=LONGER)
        game_id, token = created["game_id"], created["seat_token"]
        creator = owner_proc(db, game_id)
        ann = Player(second.base, game_id, token, deltas=True)
        started = httpx.post(f"{second.base}/api/games/{game_id}/start", json={"seat_token": token})
        assert started.status_code == 200, started.text
        ids: list[int] = []
        after_move: list[int] = []
        deadline = time.monotonic() + 30
        while len(after_move) < 5 and not any(m["type"] == "game_over" for m in ann.seen):
            assert time.monotonic() < deadline, "the game did not move to the player's process"
            state = ann.my_turn()
            time.sleep(0.06)  # as a person: below the server's 20 actions a second per connection
            ann.act(simple_answer(state))
            after = ann.wait_for(lambda s, before=state["state_id"]: s["state_id"] > before)
            ids.append(after["state_id"])
            if owner_proc(db, game_id) != creator:
                after_move.append(after["state_id"])
        assert after_move, "the game ended before it moved"
        assert owner_proc(db, game_id) not in (None, creator)
        assert ann.welcome["seat"] == 0
        assert [m for m in ann.seen if m["type"] == "welcome"][-1]["seat"] == 0
        assert ids == sorted(set(ids))  # every action answered by a newer state, none twice
        assert not [m for m in ann.seen if m["type"] == "error"]
        moved = max(i for i, m in enumerate(ann.seen) if m["type"] == "welcome")
        assert any(m.get("delta") for m in ann.seen[moved:]), "deltas from the new owner"
        ann.close()
        first.process.terminate()
        second.process.terminate()
        assert first.process.stdout is not None and second.process.stdout is not None
        first_log, second_log = first.process.stdout.read(), second.process.stdout.read()
    assert f"game {game_id} moved to process" in first_log
    assert second_log.count(f"this process took game {game_id} over") == 1  # once, not each look
    stored = Store(postgres_url).load(game_id)
    assert stored is not None
    replay(stored.record())  # every stored action, on both sides of the move, is legal


def worker_pids(parent: int) -> list[int]:
    return child_pids(parent, b"spawn_main")


def child_pids(parent: int, command: bytes) -> list[int]:
    """The processes started by ``parent`` whose command line holds ``command``."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    return [int(pid) for pid in children if command in Path(f"/proc/{pid}/cmdline").read_bytes()]


def test_workers_share_one_port_and_a_killed_worker_loses_nothing(postgres_url: str) -> None:
    with ServerProcess(postgres_url, "--workers", "2") as server:
        assert "2 processes" in server.banner
        created = create_game(server.base, ANN_AND_STEADY_BOTS)
        game_id, token = created["game_id"], created["seat_token"]
        start = httpx.post(f"{server.base}/api/games/{game_id}/start", json={"seat_token": token})
        assert start.status_code == 200, start.text
        seen = -1
        for _ in range(4):  # new connections land on either worker
            ann = Player(server.base, game_id, token)
            state = ann.my_turn()
            assert state["state_id"] >= seen
            ann.act(simple_answer(state))
            seen = ann.expect("state")["state_id"]
            ann.close()
        workers = worker_pids(server.process.pid)
        assert len(workers) == 2
        # multiprocessing's helper process killed too (as killing every child does): no
        # KeyError traceback for each semaphore afterwards
        os.kill(child_pids(server.process.pid, b"resource_tracker")[0], signal.SIGKILL)
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 20
        while True:  # as a browser does: reconnect until a worker answers with the game
            try:
                ann = Player(server.base, game_id, token)
                state = ann.my_turn()
                break
            except (OSError, ConnectionClosed, TimeoutError):
                assert time.monotonic() < deadline, "the game did not come back"
                time.sleep(0.2)
        assert state["state_id"] >= seen
        assert play_to_the_end(ann)["winners"]
        ann.close()
        deadline = time.monotonic() + 20
        while len(worker_pids(server.process.pid)) < 2:
            assert time.monotonic() < deadline, "the killed worker was not replaced"
            time.sleep(0.2)
        server.process.terminate()
        assert server.process.stdout is not None
        log = server.process.stdout.read()
    assert log.count("; starting another") == 1  # the new worker started at the first try
    assert "Traceback" not in log and "KeyError" not in log and "Warning" not in log


def test_a_connection_greeted_twice_by_its_process_is_greeted_once(postgres_url: str) -> None:
    """A process may say its connection's hello to the owner twice (two of its tasks can
    each find that the game has a new owner): the owner opens the connection once and
    answers the second hello with nothing, not with an ``already_hello`` error."""
    with ServerProcess(postgres_url, "--cluster") as owner:
        game_id = create_game(owner.base, [{"type": "human"}, {"type": "human"}])["game_id"]
        proc = owner_proc(postgres_url, game_id)
        assert proc is not None
        hello = json.dumps({"type": "hello", "token": None})
        message = {"k": "in", "p": "visitor", "c": 7, "g": game_id, "a": "127.0.0.1", "t": hello}
        with psycopg.connect(postgres_url, autocommit=True) as listener:
            listener.execute("LISTEN monopoly_visitor")
            with psycopg.connect(postgres_url, autocommit=True) as sender:
                for _ in range(2):
                    sender.execute(
                        "SELECT pg_notify(%s, %s)", (f"monopoly_{proc}", json.dumps(message))
                    )
            payloads = [n.payload for n in listener.notifies(timeout=3)]
    texts = [json.loads(text) for conn, seat, text in received(payloads)]
    kinds = [text["type"] for text in texts]
    assert kinds.count("welcome") == 1, kinds
    assert "error" not in kinds, texts


def received(payloads: list[str]) -> list[tuple[int, int | None, str]]:
    """The game's messages in the NOTIFY payloads sent to a process, as each of its
    connections gets them: (connection, its seat, the text); a message to everyone
    names the connections of each text."""
    texts = []
    for message, _ in notified(payloads):
        if message["k"] == "out":
            texts.append((message["c"], message["s"], message["t"]))
        elif message["k"] == "all":
            for text, seat, runs in message["m"]:
                texts += [(conn, seat, text) for conn in numbers_of(runs)]
    return texts


def notified(payloads: list[str]) -> list[tuple[dict[str, Any], int]]:
    """The messages between processes in NOTIFY payloads, each with the number of
    NOTIFYs it took (a payload too long for one comes in pieces)."""
    messages, pieces = [], ""
    for payload in payloads:
        message = json.loads(payload)
        if message["k"] == "piece":
            pieces = "" if message["i"] == 0 else pieces
            pieces += message["t"]
            if message["i"] < message["n"] - 1:
                continue
            messages.append((json.loads(pieces), message["n"]))
            pieces = ""
        else:
            messages.append((message, 1))
    return messages
