"""Deploying: the nginx configuration of deploy/nginx.conf run for real on loopback (TLS,
the WebSocket upgrade, the player's address forwarded), and the Dockerfile linted (there
is no container engine here to build it)."""

from __future__ import annotations

import asyncio
import json
import shlex
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from monopoly.web.session import ServerConfig

from .conftest import REPO, ROBOT_LIMITS
from .servers import ANN_AND_BOTS, WAIT, ServerThread, free_port

NGINX = Path("/usr/sbin/nginx")


def rendered(tls_port: int, http_port: int, upstream: str, folder: Path) -> str:
    """deploy/nginx.conf with this test's ports, certificate and server."""
    text = (REPO / "deploy" / "nginx.conf").read_text()
    changes = {
        "monopoly.example.org/fullchain.pem": "cert.pem",
        "/etc/letsencrypt/live/cert.pem": str(folder / "cert.pem"),
        "monopoly.example.org/privkey.pem": "key.pem",
        "/etc/letsencrypt/live/key.pem": str(folder / "key.pem"),
        "monopoly.example.org": "localhost",
        "listen 443 ssl;": f"listen 127.0.0.1:{tls_port} ssl;",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "server 127.0.0.1:8000;": f"server {upstream};",
    }
    for old, new in changes.items():
        assert old in text, f"deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[tuple[Path, int, int]]:
    """The folder for nginx's files and two free ports; nginx is stopped at the end."""
    if not NGINX.exists():
        pytest.fail("nginx is not installed: run ./test (it installs it), or apt-get install nginx")
    certificate = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subject = ["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"]
    files = ["-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")]
    subprocess.run(
        [*certificate, *subject, *files],
        check=True,
        capture_output=True,
    )
    yield tmp_path, free_port(), free_port()
    pid = tmp_path / "nginx.pid"
    if pid.exists():
        subprocess.run([str(NGINX), "-p", str(tmp_path), "-c", "main.conf", "-s", "stop"])


def start_nginx(folder: Path, site: str, tls_port: int) -> None:
    (folder / "site.conf").write_text(site)
    (folder / "main.conf").write_text(
        f"user root;\nerror_log {folder}/error.log info;\npid {folder}/nginx.pid;\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; client_body_temp_path {folder}/body; "
        f"proxy_temp_path {folder}/proxy; fastcgi_temp_path {folder}/fastcgi; "
        f"uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi; "
        f"include {folder}/site.conf; }}\n"
    )
    command = [str(NGINX), "-p", str(folder), "-c", "main.conf"]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    subprocess.run(command, check=True, capture_output=True)
    deadline = time.monotonic() + WAIT
    while True:
        try:
            httpx.get(f"https://127.0.0.1:{tls_port}/", verify=False, timeout=1)
            return
        except httpx.HTTPError:
            assert time.monotonic() < deadline, (folder / "error.log").read_text()
            time.sleep(0.1)


async def greeted(
    url: str, tls: ssl.SSLContext, origin: str, token: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The welcome and the first state of the seat whose token this is, over a WebSocket
    through nginx.

    With asyncio's client, not websockets' threaded one: that one reads the TLS socket in
    a thread of its own while the caller writes the handshake, and Python's TLS sockets
    are not safe for a read and a write at once from two threads (now and then, on a
    busy machine, the handshake's answer never arrived)."""
    async with connect(url, ssl=tls, origin=Origin(origin), open_timeout=WAIT) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        state = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    return welcome, state


def test_a_game_is_played_through_nginx_over_tls(nginx: tuple[Path, int, int]) -> None:
    folder, tls_port, http_port = nginx
    public = f"https://localhost:{tls_port}"
    limits = replace(ROBOT_LIMITS, create_rate=(0.001, 2.0))
    config = ServerConfig(
        bot_delay=0, testing=True, limits=limits, public_url=public + "/", host="::1"
    )
    # the server on ::1, nginx reaching it from there: the proxy's address is ::1 and the
    # players' 127.0.0.1, so the test tells them apart
    with ServerThread(str(folder / "games.sqlite3"), config, "::1", host="::1") as server:
        upstream = server.base.removeprefix("http://")
        start_nginx(folder, rendered(tls_port, http_port, upstream, folder), tls_port)
        tls = ssl.create_default_context(cafile=str(folder / "cert.pem"))
        with httpx.Client(verify=tls, base_url=public) as client:
            assert client.get("/api/health").json() == {"status": "ok"}
            redirect = httpx.get(f"http://localhost:{http_port}/api/health")
            assert redirect.status_code == 301
            assert redirect.headers["location"] == "https://localhost/api/health"
            body = {"seats": ANN_AND_BOTS, "name": "Ann", "token": "cat"}
            answers = [  # a client's own X-Forwarded-For is overwritten by nginx
                client.post("/api/games", json=body, headers={"x-forwarded-for": f"10.0.0.{n}"})
                for n in range(3)
            ]
            assert [answer.status_code for answer in answers] == [201, 201, 429]
            limited = {key[1] for key in server.app.state.hub.limiter.buckets}
            assert limited == {"127.0.0.1"}, "the player's address, not the proxy's"
            created = answers[0].json()
            assert created["invite_url"].startswith(public + "/")
            game_id, token = created["game_id"], created["seat_token"]
            started = client.post(f"/api/games/{game_id}/start", json={"seat_token": token})
            assert started.status_code == 200
        url = f"wss://localhost:{tls_port}/ws/games/{game_id}"
        try:
            welcome, state = asyncio.run(greeted(url, tls, public, token))
        except TimeoutError as error:
            pytest.fail(f"{error!r}; nginx's log:\n{(folder / 'error.log').read_text()[-6000:]}")
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert state["type"] == "state" and state["full"]
        assert state["game"]["players"][0]["name"] == "Ann"


DOCKER_INSTRUCTIONS = {
    "FROM", "ENV", "WORKDIR", "COPY", "RUN", "USER", "VOLUME", "EXPOSE", "HEALTHCHECK",
    "ENTRYPOINT", "CMD", "ARG", "LABEL",
}  # fmt: skip


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's instructions (kind, rest), line continuations joined, one list
    per stage (each begins with its ``FROM``)."""
    lines = (REPO / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    stages: list[list[tuple[str, str]]] = []
    for line in lines:
        if not line.strip() or line.lstrip()[0] == "#":
            continue
        kind, rest = line.split(None, 1)
        assert kind in DOCKER_INSTRUCTIONS, f"unknown instruction {kind}"
        if kind == "FROM":
            stages.append([])
        assert stages, "the Dockerfile does not begin with FROM"
        stages[-1].append((kind, rest))
    return stages


def test_the_dockerfile_lints() -> None:
    """What a linter checks, without a container engine: known instructions, pinned base
    images, pinned dependencies, sources that exist, no root at run time, the port it
    serves exposed and a health check on /api/health."""
    stages = dockerfile_stages()
    names = {}
    for stage in stages:
        image, *alias = stage[0][1].split()
        assert ":" in image and not image.endswith(":latest"), f"{image} is not pinned"
        if alias:
            assert alias[0].upper() == "AS"
            names[alias[1]] = stage
    runtime = stages[-1]
    for kind, rest in (instruction for stage in stages for instruction in stage):
        if kind == "COPY" and not rest.startswith("--from="):
            *sources, _target = shlex.split(rest)
            for source in sources:
                assert (REPO / source).exists(), f"COPY {source}: no such file"
    runs = " ".join(rest for kind, rest in runtime if kind == "RUN")
    assert "-r requirements.lock" in runs and "--no-deps" in runs
    users = [rest for kind, rest in runtime if kind == "USER"]
    assert users and users[-1] not in ("root", "0")
    entry = json.loads(next(rest for kind, rest in runtime if kind == "ENTRYPOINT"))
    assert entry[:2] == ["monopoly", "serve"]
    port = entry[entry.index("--port") + 1]
    assert ("EXPOSE", port) in runtime
    health = next(rest for kind, rest in runtime if kind == "HEALTHCHECK")
    assert f"127.0.0.1:{port}/api/health" in health
    ignored = (REPO / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored


def test_the_image_runs_the_compiled_build() -> None:
    """The slim image has no C compiler, so the package is compiled (mypyc, through
    setup.py) in a stage on the full image, and the slim one installs that wheel; both
    stages stop the build if what they made is the pure Python package (setup.py falls
    back to it silently when compiling fails)."""
    stages = dockerfile_stages()
    runtime = stages[-1]
    assert "-slim-" in runtime[0][1], "the image that runs the server is the slim one"
    copied = [shlex.split(rest) for kind, rest in runtime if kind == "COPY"]
    from_stage = [words for words in copied if words[0].startswith("--from=")]
    assert len(from_stage) == 1, "the runtime takes the wheel from the build stage"
    stage_name, wheels = from_stage[0][0].removeprefix("--from="), from_stage[0][1]
    build = next(stage for stage in stages[:-1] if stage[0][1].split()[-1] == stage_name)
    assert "-slim-" not in build[0][1], "the build stage needs the image with a C compiler"
    build_copies = " ".join(rest for kind, rest in build if kind == "COPY").split()
    assert {"pyproject.toml", "setup.py", "src"} <= set(build_copies)
    build_runs = " ".join(rest for kind, rest in build if kind == "RUN")
    assert f"pip wheel --no-cache-dir --no-deps --wheel-dir {wheels} ." in build_runs
    assert "monopoly/_compiled.json" in build_runs, "a pure wheel must stop the build"
    runtime_runs = " ".join(rest for kind, rest in runtime if kind == "RUN")
    assert f"--no-deps {wheels}/monopoly-" in runtime_runs
    assert 'monopoly --version | grep -q "compiled (mypyc"' in runtime_runs
    # the runtime image installs its dependencies from the lock file before the wheel
    assert runtime_runs.index("-r requirements.lock") < runtime_runs.index(wheels)
