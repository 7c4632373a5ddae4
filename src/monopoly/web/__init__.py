"""The browser game's server: lobby (HTTP), live play (WebSocket), storage (SQLAlchemy).

See ``docs/protocol.md`` for the protocol and :func:`monopoly.web.app.create_app`.
"""

from pathlib import Path

DEFAULT_DB = Path("data") / "monopoly.sqlite3"
"""The server's database file when ``serve`` is given none (here, not in ``storage``: the
command line names it in its help without loading the database libraries)."""
