# MONOPOLY's game server in a container:
#   docker build -t monopoly .
#   docker run -p 8000:8000 -v monopoly-data:/data monopoly \
#       --public-url https://monopoly.example.org/ --forwarded-allow-ips 172.17.0.1
# Behind a reverse proxy (deploy/nginx.conf); see docs/server.md, "Deploying".
#
# Two stages: the full image has the C compiler that mypyc needs, so the package is
# built there as a wheel with its hot path compiled (setup.py); the slim image that runs
# the server gets only that wheel, not the compiler.
FROM python:3.11.7-bookworm AS build

WORKDIR /build
COPY pyproject.toml setup.py README.md ./
COPY src ./src
# setup.py falls back to a pure Python package when compiling fails: a wheel without
# the record of its compiled modules stops the build instead of shipping the slow one.
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
    && python -m zipfile -l /wheels/monopoly-*.whl | grep -q "monopoly/_compiled.json"

FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/monopoly-*.whl \
    && rm -r /wheels \
    && monopoly --version | grep -q "compiled (mypyc" \
    && useradd --system --create-home --home-dir /data monopoly

USER monopoly
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]
ENTRYPOINT ["monopoly", "serve", "--host", "0.0.0.0", "--port", "8000", "--db", "/data/monopoly.sqlite3"]
