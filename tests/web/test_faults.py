"""Storage faults and many games over real HTTP/WebSocket: the first-load race, damaged
databases, failing writes, games leaving memory. Each test reproduces a finding of
issue 10 and shows that nothing a client saw is lost."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sqlite3
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import event
from sqlalchemy.pool import Pool
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from monopoly.core.records import replay
from monopoly.web.app import create_app
from monopoly.web.session import ServerConfig
from monopoly.web.storage import Store

from .conftest import ROBOT_LIMITS
from .servers import WAIT, Player, ServerThread, ann_in_a_game, create_game, simple_answer
from .test_play import play_to_the_end

FOUR_PEOPLE = [{"type": "human"}] * 4
NAMES_AND_TOKENS = [("Bob", "boot"), ("Cem", "thimble"), ("Dee", "top_hat")]


def config(**changes: Any) -> ServerConfig:
    return ServerConfig(**{"bot_delay": 0, "testing": True, "limits": ROBOT_LIMITS, **changes})


def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.02)


def wait_for_message(player: Player, kind: str, code: str | None = None) -> dict[str, Any]:
    while True:
        message = player.expect(kind)
        if code is None or message.get("code") == code:
            return message


# ---------------------------------------------------------------------- finding 2
def test_the_first_load_of_games_after_a_restart_does_not_race(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    with ServerThread(db, config()) as first:
        games = [create_game(first.base, FOUR_PEOPLE)["game_id"] for _ in range(40)]

    with ServerThread(db, config()) as second:
        jobs: list[tuple[str, str, str, str]] = [("get", game_id, "", "") for game_id in games]
        jobs += [("join", g, name, token) for g in games for name, token in NAMES_AND_TOKENS]
        random.Random(4).shuffle(jobs)

        def run(job: tuple[str, str, str, str]) -> tuple[str, httpx.Response]:
            kind, game_id, name, token = job
            url = f"{second.base}/api/games/{game_id}"
            if kind == "get":
                return game_id, httpx.get(url, timeout=WAIT * 3)
            body = {"name": name, "token": token}
            return game_id, httpx.post(f"{url}/join", json=body, timeout=WAIT * 3)

        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(run, jobs))
        joins = [(g, r.json()) for g, r in answers if r.request.method == "POST"]
        assert all(r.status_code == 200 for _, r in answers), [r.text for _, r in answers]
        hub = second.app.state.hub
        for game_id in games:
            seats = sorted(answer["seat"] for g, answer in joins if g == game_id)
            assert seats == [1, 2, 3], "two joiners on one seat"
            assert hub.sessions[game_id].status == "open"
        sample = random.Random(5).sample(joins, 12)
        for game_id, answer in sample:
            player = Player(second.base, game_id, answer["seat_token"])
            assert player.welcome["seat"] == answer["seat"], "an issued seat token is dead"
            player.close()

    store = Store(db)
    for game_id, answer in joins:
        stored = store.load(game_id)
        assert stored is not None
        assert stored.seats[answer["seat"]].name == answer["game"]["seats"][answer["seat"]]["name"]
    store.close()


# ---------------------------------------------------------------------- finding 3
def play_a_little(base: str, moves: int = 4) -> tuple[str, str]:
    game_id, token, ann = ann_in_a_game(base, moves)
    ann.close()
    return game_id, token


def test_damaged_records_are_reported_and_the_others_play_on(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with ServerThread(str(db), config()) as first:
        not_json, _ = play_a_little(first.base)
        illegal, _ = play_a_little(first.base)
        healthy, token = play_a_little(first.base)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE record_entries SET entry = '{not json' WHERE game_id = ? AND seq = 3",
            (not_json,),
        )
        rows = connection.execute(
            "SELECT seq, entry FROM record_entries WHERE game_id = ? ORDER BY seq", (illegal,)
        ).fetchall()
        seq, entry = next((s, json.loads(e)) for s, e in rows if "act" in json.loads(e))
        bad = json.dumps({"act": "pay_fine", "seat": entry["seat"]})  # not in jail
        connection.execute(
            "UPDATE record_entries SET entry = ? WHERE game_id = ? AND seq = ?",
            (bad, illegal, seq),
        )

    with ServerThread(str(db), config()) as second:
        until(lambda: len(second.app.state.hub.broken) == 2, "the restore to finish")
        health = httpx.get(f"{second.base}/api/health")
        assert health.status_code == 200 and health.json()["status"] == "degraded"
        assert health.json()["damaged_games"] == sorted([not_json, illegal])
        for game_id in (not_json, illegal, not_json):
            answer = httpx.get(f"{second.base}/api/games/{game_id}")
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "game_damaged"
        url = second.base.replace("http://", "ws://") + f"/ws/games/{illegal}"
        with connect(url, open_timeout=WAIT) as ws:
            assert json.loads(ws.recv(timeout=WAIT))["code"] == "game_damaged"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=WAIT)
        ann = Player(second.base, healthy, token)
        assert play_to_the_end(ann)["winners"]
        ann.close()


def damage_by_truncating(path: Path) -> None:
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.truncate(size // 3)


def damage_a_page(path: Path) -> None:
    with path.open("r+b") as file:
        file.seek(4096 * 2)
        file.write(random.Random(3).randbytes(4096 * 3))


def replace_by_garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" * 500)


@pytest.mark.parametrize("damage", [damage_by_truncating, damage_a_page, replace_by_garbage])
def test_a_damaged_database_file_does_not_stop_the_server(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    db = tmp_path / "games.sqlite3"
    with ServerThread(str(db), config()) as first:
        games = [play_a_little(first.base, 2)[0] for _ in range(6)]
    damage(db)
    with ServerThread(str(db), config()) as second:
        assert httpx.get(f"{second.base}/").status_code == 200
        problems = 0
        for game_id in games:
            answer = httpx.get(f"{second.base}/api/games/{game_id}")
            assert answer.status_code in (200, 503), answer.text
            problems += answer.status_code == 503
        listing = httpx.get(f"{second.base}/api/games")
        assert listing.status_code in (200, 503)
        health = httpx.get(f"{second.base}/api/health").json()
        assert problems or health["status"] != "ok", "the damage went unnoticed"
        if problems:
            assert health["status"] != "ok"


# ---------------------------------------------------------------------- finding 4 and 9
class WriteLock:
    """Another program holding SQLite's write lock (as a backup tool or a stuck writer)."""

    def __init__(self, db: Path) -> None:
        self.connection = sqlite3.connect(db, timeout=WAIT, isolation_level=None)

    def __enter__(self) -> WriteLock:
        self.connection.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.execute("ROLLBACK")
        self.connection.close()


def test_a_failed_write_is_an_error_and_the_game_never_runs_ahead(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with ServerThread(str(db), config(db_busy_timeout=0.2, bot_delay=0.3)) as server:
        game_id, token, ann = ann_in_a_game(server.base)
        before = ann.my_turn()
        with WriteLock(db):
            ann.act(simple_answer(before))
            refused = wait_for_message(ann, "error")
            assert refused["code"] == "storage_unavailable"
            assert refused["state_id"] == before["state_id"], "state_id counted before the write"
            health = httpx.get(f"{server.base}/api/health")
            assert health.status_code == 503 and health.json()["error"]["code"] == "database"
            ann.send({"type": "sync"})
            again = ann.expect("state")
            assert (again["state_id"], again["game"]) == (before["state_id"], before["game"])
        ann.act(simple_answer(again))
        after = ann.expect("state")
        assert after["state_id"] > before["state_id"]
        assert httpx.get(f"{server.base}/api/health").json() == {"status": "ok"}

        # the computer players' turn comes while the database is locked: they wait, then go on
        while not (ann.state and ann.state["decision"]["seat"] != ann.state["seat"]):
            ann.act(simple_answer(ann.my_turn()))
            ann.expect("state")
        with WriteLock(db):
            wait_for_message(ann, "error", "storage_unavailable")
            seen = ann.state["state_id"]
            time.sleep(0.5)
        ann.my_turn()
        assert ann.state["state_id"] > seen, "the computer players did not try again"
        shown = ann.state["state_id"]
        ann.send({"type": "sync", "log_from": 0})
        shown_log = ann.expect("state")["log"]
        ann.close()

    with ServerThread(str(db), config()) as restarted:
        ann = Player(restarted.base, game_id, token)
        ann.send({"type": "sync", "log_from": 0})
        state = ann.expect("state")
        state = ann.expect("state") if state["log_from"] != 0 else state
        assert state["state_id"] == shown and state["log"] == shown_log
        ann.close()


def test_a_slow_database_does_not_stall_other_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with ServerThread(str(db), config(db_busy_timeout=5.0)) as server:
        slow, slow_token = play_a_little(server.base, 1)
        other, other_token = play_a_little(server.base, 1)
        ann = Player(server.base, slow, slow_token)
        bob = Player(server.base, other, other_token)
        with WriteLock(db):
            before = ann.my_turn()
            ann.act(simple_answer(before))  # its write waits for the lock (up to 5 s)
            started = time.monotonic()
            bob.send({"type": "ping"})
            bob.expect("pong")
            assert httpx.get(f"{server.base}/api/editions").status_code == 200
            assert time.monotonic() - started < 2.0, "the event loop waited for the database"
        assert ann.expect("state")["state_id"] > before["state_id"], "stored once it could"
        ann.close()
        bob.close()


# ---------------------------------------------------------------------- finding 8
def test_unused_and_finished_games_leave_memory_and_come_back(tmp_path: Path) -> None:
    with ServerThread(str(tmp_path / "games.sqlite3"), config(idle_unload=0.3)) as server:
        hub = server.app.state.hub
        waiting = create_game(server.base, [{"type": "human"}, {"type": "human"}])["game_id"]
        finished, _, ann = ann_in_a_game(server.base)
        over = play_to_the_end(ann)
        ann.close()
        until(lambda: not hub.sessions, "the games to leave memory")

        lobby = httpx.get(f"{server.base}/api/games/{finished}").json()
        assert lobby["status"] == "over"
        watcher = Player(server.base, finished)
        assert watcher.expect("game_over")["winners"] == over["winners"]
        watcher.close()
        join = httpx.post(
            f"{server.base}/api/games/{waiting}/join", json={"name": "Bob", "token": "boot"}
        )
        assert join.status_code == 200 and join.json()["seat"] == 1


def test_a_game_that_leaves_memory_is_freed_without_the_garbage_collector(
    tmp_path: Path,
) -> None:
    """A finished game leaving memory is freed at once by reference counting: its parts
    (seating, computer players, the message handlers) used to point back at it, so every
    game waited for a garbage collection, and those paused a busy server for tens of
    milliseconds. The collector is off here, so a cycle would keep the game alive."""
    gc.collect()
    gc.disable()
    try:
        with ServerThread(str(tmp_path / "games.sqlite3"), config(idle_unload=0.3)) as server:
            hub = server.app.state.hub
            game_id, _, ann = ann_in_a_game(server.base)
            session = weakref.ref(hub.sessions[game_id])
            game = weakref.ref(hub.sessions[game_id].game)
            play_to_the_end(ann)
            ann.close()
            until(lambda: not hub.sessions, "the game to leave memory")
            until(lambda: session() is None and game() is None, "the game to be freed")
    finally:
        gc.enable()


def test_a_game_loaded_by_a_connection_lets_its_computer_players_go_on(tmp_path: Path) -> None:
    """A running game stopped at a computer player's turn and loaded by a connection (not
    by the start-up's restore: so a process takes over a dead owner's game when a player
    reaches it before the look for ownerless games) goes on at once; its computer players
    used to wait for a person's move that could never come."""
    db = str(tmp_path / "games.sqlite3")
    with ServerThread(db, config(bot_delay=3600)) as server:  # the computers never move
        game_id, _, ann = ann_in_a_game(server.base)
        state = ann.expect("state")
        while state["decision"]["seat"] == state["seat"]:
            ann.act(simple_answer(state))
            state = ann.expect("state")
        ann.close()
    stopped = Store(db).load(game_id)
    assert stopped is not None and stopped.status == "running"

    async def connect_after_a_restart() -> int:
        hub = create_app(db, config()).state.hub  # started without its restore
        try:
            session = await hub.get(game_id)  # as a player's connection does
            deadline = time.monotonic() + WAIT
            computer = session.computer
            while computer.seat_to_move() is not None or computer.task is not None:
                assert time.monotonic() < deadline, "the computer players did not move"
                await asyncio.sleep(0.02)  # until they wait for a person, all stored
            assert session.game is not None
            return len(session.game.record)
        finally:
            hub.stop()
            hub.store.close()

    played = asyncio.run(connect_after_a_restart())
    stored = Store(db).load(game_id)
    assert stored is not None
    assert len(stored.record()["log"]) == played > len(stopped.record()["log"])


# ---------------------------------------------------------------------- finding 4: real faults
def act_until_refused(player: Player) -> dict[str, Any]:
    """Play the person's decisions until a write fails (hers or a computer player's);
    the last state she saw, which the failed write must not have moved on."""
    assert player.state is not None
    for _ in range(5000):
        state = player.state
        if state["decision"] and state["decision"]["seat"] == state["seat"]:
            player.act(simple_answer(state))
        message = player.recv()
        while message["type"] not in ("state", "error"):
            message = player.recv()
        if message["type"] == "error" and message["code"] == "storage_unavailable":
            assert message["state_id"] == state["state_id"]
            return state
    raise AssertionError("no write failed")


def test_a_full_disk_is_an_error_and_the_game_goes_on_when_there_is_room(tmp_path: Path) -> None:
    """SQLite's own "database or disk is full" (SQLITE_FULL), made by capping the file's
    pages: the refused action changes nothing, health says why, and once there is room
    the same game goes on from the state the players saw."""
    db = tmp_path / "games.sqlite3"
    cap = {"pages": 2**30}

    def limit_pages(connection: Any, record: Any, proxy: Any) -> None:
        connection.execute(f"PRAGMA max_page_count = {cap['pages']}")

    event.listen(Pool, "checkout", limit_pages)
    try:
        with ServerThread(str(db), config(bot_delay=0.05)) as server:
            game_id, _, ann = ann_in_a_game(server.base)
            ann.my_turn()
            with sqlite3.connect(db) as reader:
                cap["pages"] = reader.execute("PRAGMA page_count").fetchone()[0]
            seen = act_until_refused(ann)
            health = httpx.get(f"{server.base}/api/health")
            assert health.status_code == 503
            assert health.json()["error"] == {
                "code": "database",
                "problem": "disk_full",
                "message": "the database's disk is full",
            }
            ann.send({"type": "sync"})
            assert ann.expect("state")["state_id"] == seen["state_id"]
            cap["pages"] = 2**30  # room again: her action (or the computers') goes through
            if seen["decision"]["seat"] == seen["seat"]:
                ann.act(simple_answer(seen))
            assert ann.wait_for(lambda s: s["state_id"] > seen["state_id"])
            assert play_to_the_end(ann)["winners"]
            ann.close()
    finally:
        event.remove(Pool, "checkout", limit_pages)
    stored = Store(str(db)).load(game_id)
    assert stored is not None and stored.status == "over"


def test_lost_postgresql_connections_are_replaced_and_nothing_is_lost(postgres_url: str) -> None:
    """The database server ends every connection of the game server mid-game (a restart,
    a failover, an idle timeout): the next writes use new connections and the game
    plays to its end with every action stored."""
    name = f"lost_{random.randrange(16**8):08x}"
    url = f"{postgres_url}&application_name={name}"
    with ServerThread(url, config(bot_delay=0.05)) as server:
        game_id, _, ann = ann_in_a_game(server.base, moves=3)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = %s",
                (name,),
            ).fetchone()
        assert ended is not None and ended[0] >= 1
        over = play_to_the_end(ann)
        assert over["winners"]
        ann.close()
    stored = Store(postgres_url).load(game_id)
    assert stored is not None and stored.status == "over"
    assert replay(stored.record()).over
