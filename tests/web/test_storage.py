"""Storage on SQLite and PostgreSQL: records round-trip, and a new server resumes games."""

from __future__ import annotations

from pathlib import Path

import pytest

from monopoly.core.records import game_state, replay
from monopoly.web.session import ServerConfig
from monopoly.web.storage import SeatData, Store, StoredGame, database_url, now

from .servers import ANN_AND_BOTS, Player, ServerThread, create_game, simple_answer, start_game


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_database_urls_from_the_command_line(tmp_path: Path) -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    path = tmp_path / "new" / "games.sqlite3"
    assert database_url(str(path)) == f"sqlite:///{path}"
    assert path.parent.is_dir()


def test_a_game_round_trips_through_the_store(db_url: str) -> None:
    store = Store(db_url)
    seats = [SeatData("human", name="Ann", token="cat", secret_hash="ab" * 32), SeatData("human")]
    setup = {"edition": "classic", "language": "de", "rules": {"short_game": True}, "seed": 3}
    store.create_game(StoredGame("g1", "open", setup, {"preset": "short"}, now(), seats))
    assert store.game_ids("open") == ["g1"]
    seats[1] = SeatData("human", name="Bob", token="boot", secret_hash="cd" * 32)
    store.save_seat("g1", 1, seats[1])
    players = {
        **setup,
        "players": [{"name": "Ann", "token": "cat"}, {"name": "Bob", "token": "boot"}],
    }
    store.save_start("g1", players, seats)
    store.append_log("g1", 0, [{"dice": [3, 4]}, {"dice": [1, 2]}], "running")
    store.append_log("g1", 2, [{"act": "roll", "seat": 0}], "running")
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded.status == "running" and store.game_ids("open") == []
    assert loaded.setup == players and loaded.seats == seats
    assert loaded.log == [{"dice": [3, 4]}, {"dice": [1, 2]}, {"act": "roll", "seat": 0}]
    assert loaded.record()["setup"]["players"][1]["name"] == "Bob"
    assert store.load("nope") is None
    assert store.healthy()
    store.close()


def test_a_new_server_on_the_same_database_resumes_the_game(db_url: str) -> None:
    config = ServerConfig(bot_delay=0, testing=True)
    with ServerThread(db_url, config) as first:
        created = create_game(
            first.base, ANN_AND_BOTS, language="de", edition="fallout", token="vault_boy"
        )
        game_id, token = created["game_id"], created["seat_token"]
        ann = Player(first.base, game_id, token)
        start_game(first.base, game_id, token)
        for _ in range(5):
            ann.act(simple_answer(ann.my_turn()))
            ann.expect("state")
        before = ann.my_turn()
        ann.close()
        live = first.app.state.hub.sessions[game_id].game
        expected = game_state(live)

    store = Store(db_url)
    stored = store.load(game_id)
    assert stored is not None and stored.status == "running"
    assert game_state(replay(stored.record())) == expected
    store.close()

    with ServerThread(db_url, config) as second:
        ann = Player(second.base, game_id, token)
        after = ann.expect("state")
        assert after["state_id"] == before["state_id"] and after["game"] == before["game"]
        ann.act(simple_answer(after))
        assert ann.expect("state")["state_id"] > after["state_id"]
        ann.close()


def test_a_running_games_row_is_written_once_a_minute_not_with_every_action(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every action stores its record entries, but the game's row (status, ``updated``)
    is rewritten only when its status changes or a minute has passed: in PostgreSQL each
    rewrite is a new row version, which cost three times the entries' insert."""
    from monopoly.web import session as session_module
    from monopoly.web.storage import GameRow

    def stored_row(store: Store, game_id: str) -> tuple[str, object, int]:
        with store.session() as db:
            row = db.get(GameRow, game_id)
            assert row is not None
            loaded = store.load(game_id)
            assert loaded is not None
            return row.status, row.updated, len(loaded.log)

    config = ServerConfig(bot_delay=0, testing=True)
    store = Store(db_url)
    with ServerThread(db_url, config) as server:
        created = create_game(server.base, ANN_AND_BOTS, token="cat")
        game_id, token = created["game_id"], created["seat_token"]
        ann = Player(server.base, game_id, token)
        start_game(server.base, game_id, token)
        ann.my_turn()
        status, started, entries = stored_row(store, game_id)
        for _ in range(4):
            ann.act(simple_answer(ann.my_turn()))
            ann.expect("state")
        ann.my_turn()
        status, updated, more = stored_row(store, game_id)
        assert status == "running" and more > entries, "the actions are stored"
        assert updated == started, "the row is not rewritten within the minute"

        monkeypatch.setattr(session_module, "TOUCH_EVERY", 0.0)
        ann.act(simple_answer(ann.my_turn()))
        ann.expect("state")
        ann.my_turn()
        status, touched, latest = stored_row(store, game_id)
        assert status == "running" and latest > more
        assert touched > started, "a minute later the next write rewrites the row"
        ann.close()
    store.close()


def test_writes_that_wait_together_are_stored_together_and_fail_alone(db_url: str) -> None:
    """The per-action writes of several games go in one transaction (a group commit); a
    write that breaks the record (an entry number taken twice) fails alone."""
    import asyncio

    from monopoly.web.hub import Hub
    from monopoly.web.storage import LogWrite, StorageFailure

    store = Store(db_url)
    for game_id in ("g1", "g2", "g3"):
        store.create_game(StoredGame(game_id, "running", {}, {"preset": "short"}, now(), []))
    store.append_log("g2", 0, [{"dice": [1, 1]}], "running")
    hub = Hub(store, ServerConfig())
    batches: list[int] = []
    if store.appends_async:  # PostgreSQL: on the event loop
        append_async = store.append_logs_async

        async def counted_async(writes: list[LogWrite]) -> None:
            batches.append(len(writes))
            await append_async(writes)

        store.append_logs_async = counted_async  # type: ignore[method-assign]
    else:
        append_logs = store.append_logs

        def counted(writes: list[LogWrite]) -> None:
            batches.append(len(writes))
            append_logs(writes)

        store.append_logs = counted  # type: ignore[method-assign]

    async def write_three() -> list[BaseException | None]:
        writes = [
            LogWrite("g1", 0, [{"dice": [3, 4]}, {"act": "roll", "seat": 0}], "running"),
            LogWrite("g2", 0, [{"dice": [2, 2]}], "running"),  # entry 0 is taken
            LogWrite("g3", 0, [{"dice": [5, 6]}], "over", {"winners": [0], "reason": "limit"}),
        ]
        results = await asyncio.gather(*map(hub.append_log, writes), return_exceptions=True)
        await store.close_async()
        return list(results)

    g1, g2, g3 = asyncio.run(write_three())
    assert batches == [3, 1, 1, 1], "together, then one by one when one of them failed"
    assert g1 is None and g3 is None and isinstance(g2, StorageFailure)
    assert store.load("g1").log == [{"dice": [3, 4]}, {"act": "roll", "seat": 0}]  # type: ignore[union-attr]
    assert store.load("g2").log == [{"dice": [1, 1]}]  # type: ignore[union-attr]
    finished = store.load("g3")
    assert finished is not None and finished.status == "over"
    hub.stop()
    store.close()


def test_postgresql_creates_and_starts_games_on_the_event_loop(postgres_url: str) -> None:
    """On PostgreSQL the server creates and starts a game with one statement each on the
    event loop, not in a worker thread (whose SQLAlchemy work held the GIL the loop
    waited for): the database then holds exactly what the thread's ORM writes hold, and
    a write the database refuses is a StorageFailure that changes nothing."""
    import asyncio
    from dataclasses import replace

    from monopoly.web.hub import Hub
    from monopoly.web.storage import StorageFailure

    store = Store(postgres_url)
    hub = Hub(store, ServerConfig())
    seats = [
        SeatData("human", name="Ann", token="cat", secret_hash="ab" * 32),
        SeatData("bot", level="easy", name="Robo", token="boot"),
        SeatData("human"),
    ]
    setup = {"edition": "zelda", "language": "de", "rules": {"speed_die": True}, "seed": 7}
    started = [*seats[:2], SeatData("human", name="Cem", token="top_hat", standin=True)]
    players = {**setup, "players": [{"name": s.name, "token": s.token} for s in started]}

    def stored(game_id: str) -> tuple[object, ...]:
        loaded = store.load(game_id)
        assert loaded is not None
        return loaded.status, loaded.setup, loaded.seats, loaded.created

    async def on_the_loop() -> tuple[tuple[object, ...], tuple[object, ...], object]:
        created = StoredGame("loop", "open", setup, {"preset": "speed"}, now(), seats)
        store.create_game(replace(created, id="thread"))
        await hub.write(store.create_game, created)
        after_create = stored("loop")
        assert after_create == stored("thread")
        store.save_start("thread", players, started)
        await hub.write(store.save_start, "loop", players, started)
        after_start = stored("loop")
        refused: object = None
        try:
            await hub.write(store.create_game, created)  # the same id again
        except StorageFailure as failure:
            refused = failure
        await store.close_async()
        return after_create, after_start, refused

    after_create, after_start, refused = asyncio.run(on_the_loop())
    assert after_create == ("open", setup, seats, after_create[3])
    assert after_start == stored("thread") == ("running", players, started, after_create[3])
    assert isinstance(refused, StorageFailure) and stored("loop") == after_start
    assert hub.storage_error is not None and "UniqueViolation" in hub.storage_error
    assert not hub._writers._threads, "no worker thread was used"  # type: ignore[attr-defined]
    hub.stop()
    store.close()


def test_a_burst_of_new_games_shares_a_few_postgresql_connections(postgres_url: str) -> None:
    """Fifty games created at once on the event loop wait for a few connections instead
    of opening one each (PostgreSQL refuses connections beyond its limit); all are stored."""
    import asyncio

    from monopoly.web.hub import Hub
    from monopoly.web.storage import ASYNC_CONNECTIONS

    store = Store(postgres_url)
    hub = Hub(store, ServerConfig())
    seats = [SeatData("human", name="Ann", token="cat"), SeatData("bot", level="easy")]
    rules = {"preset": "short"}
    games = [StoredGame(f"burst{i}", "open", {}, rules, now(), seats) for i in range(50)]

    async def create_all() -> int:
        await asyncio.gather(*(hub.write(store.create_game, game) for game in games))
        opened = len(store._idle)
        await store.close_async()
        return opened

    opened = asyncio.run(create_all())
    assert 1 <= opened <= ASYNC_CONNECTIONS
    assert sorted(store.game_ids("open")) == sorted(game.id for game in games)
    assert all(store.load(game.id).seats == seats for game in games)  # type: ignore[union-attr]
    hub.stop()
    store.close()
