"""Deploying: the nginx configuration of deploy/nginx.conf run for real on loopback (TLS,
the WebSocket upgrade, the player's address forwarded), and the Dockerfile linted (there
is no container engine here to build it)."""

from __future__ import annotations

import json
import shlex
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

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
        f"user root;\nerror_log {folder}/error.log;\npid {folder}/nginx.pid;\n"
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
        with connect(url, ssl=tls, origin=public, open_timeout=WAIT) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(ws.recv(timeout=WAIT))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            state = json.loads(ws.recv(timeout=WAIT))
            assert state["type"] == "state" and state["full"]
            assert state["game"]["players"][0]["name"] == "Ann"


DOCKER_INSTRUCTIONS = {
    "FROM", "ENV", "WORKDIR", "COPY", "RUN", "USER", "VOLUME", "EXPOSE", "HEALTHCHECK",
    "ENTRYPOINT", "CMD", "ARG", "LABEL",
}  # fmt: skip


def test_the_dockerfile_lints() -> None:
    """What a linter checks, without a container engine: known instructions, a pinned
    base image, pinned dependencies, sources that exist, no root at run time, the port it
    serves exposed and a health check on /api/health."""
    lines = (REPO / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    instructions = [line.split(None, 1) for line in lines if line.strip() and line[0] != "#"]
    kinds = [kind for kind, _ in instructions]
    assert set(kinds) <= DOCKER_INSTRUCTIONS, set(kinds) - DOCKER_INSTRUCTIONS
    assert kinds[0] == "FROM"
    image = instructions[0][1]
    assert ":" in image and not image.endswith(":latest"), "the base image is not pinned"
    runs = " ".join(rest for kind, rest in instructions if kind == "RUN")
    assert "-r requirements.lock" in runs and "--no-deps ." in runs
    for kind, rest in instructions:
        if kind == "COPY":
            *sources, _target = shlex.split(rest)
            for source in sources:
                assert (REPO / source).exists(), f"COPY {source}: no such file"
    users = [rest for kind, rest in instructions if kind == "USER"]
    assert users and users[-1] not in ("root", "0")
    entry = json.loads(next(rest for kind, rest in instructions if kind == "ENTRYPOINT"))
    assert entry[:2] == ["monopoly", "serve"]
    port = entry[entry.index("--port") + 1]
    assert f"EXPOSE {port}" in lines
    health = next(rest for kind, rest in instructions if kind == "HEALTHCHECK")
    assert f"127.0.0.1:{port}/api/health" in health
    ignored = (REPO / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored
