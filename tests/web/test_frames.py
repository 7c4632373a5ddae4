"""The server's messages written straight to the socket as frames made once (see
web/connections.py), and the ASGI way they take when that is not possible: either way a
client gets every message, whole and in order."""

from __future__ import annotations

from pathlib import Path

import pytest
from websockets.server import ServerProtocol

from monopoly.web.connections import GuardedWebSocket, text_frame
from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import Player, ServerThread, create_game, simple_answer, start_game

ANN_AND_BOTS = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3
CHANGES = 150


@pytest.mark.parametrize("length", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_frame_made_once_is_the_frame_websockets_sends(length: int) -> None:
    """Short, 16-bit and 64-bit lengths (RFC 6455 5.2), and text beyond ASCII."""
    text = ("Mönopoly €" * (length // 10 + 1))[:length]
    protocol = ServerProtocol()
    protocol.state = protocol.state.OPEN  # as after the handshake
    protocol.send_text(text.encode())
    assert text_frame(text) == b"".join(protocol.data_to_send())


@pytest.mark.parametrize("compression", [False, True], ids=["frames", "deflate"])
def test_a_player_and_a_watcher_get_every_change(
    tmp_path: Path, compression: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With per-message deflate (the client's library asks for it) every message is
    compressed on its own and goes the ASGI way; without it, straight to the socket."""
    written: list[bool] = []
    write_frame = GuardedWebSocket.write_frame

    def counted(protocol: GuardedWebSocket, frame: bytes) -> bool:
        written.append(write_frame(protocol, frame))
        return written[-1]

    monkeypatch.setattr(GuardedWebSocket, "write_frame", counted)
    config = ServerConfig(bot_delay=0, testing=True, limits=ROBOT_LIMITS)
    config.ws_compression = compression
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        created = create_game(server.base, ANN_AND_BOTS)
        game_id, token = created["game_id"], created["seat_token"]
        ann = Player(server.base, game_id, token)
        watcher = Player(server.base, game_id, deltas=True)
        start_game(server.base, game_id, token)
        for _ in range(CHANGES):
            state = ann.expect("state")
            watched = watcher.expect("state")
            assert (watched["state_id"], watched["game"]) == (state["state_id"], state["game"])
            if state["game"]["over"]:
                break
            if state["decision"] and state["decision"]["seat"] == 0:
                ann.act(simple_answer(state))
        assert bool(watcher.ws.protocol.extensions) is compression
        assert any(written) is not compression, "straight to the socket unless compressed"
        assert sum(1 for m in watcher.seen if m.get("delta")) > 20
        watcher.send({"type": "sync"})
        assert watcher.expect("state")["game"] == ann.state["game"]  # type: ignore[index]
        ann.close()
        watcher.close()
