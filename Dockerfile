# MONOPOLY's game server in a container:
#   docker build -t monopoly .
#   docker run -p 8000:8000 -v monopoly-data:/data monopoly \
#       --public-url https://monopoly.example.org/ --forwarded-allow-ips 172.17.0.1
# Behind a reverse proxy (deploy/nginx.conf); see docs/server.md, "Deploying".
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir --no-deps . \
    && useradd --system --create-home --home-dir /data monopoly

USER monopoly
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]
ENTRYPOINT ["monopoly", "serve", "--host", "0.0.0.0", "--port", "8000", "--db", "/data/monopoly.sqlite3"]
