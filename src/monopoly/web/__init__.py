"""The browser game's server: lobby (HTTP), live play (WebSocket), storage (SQLAlchemy).

See ``docs/protocol.md`` for the protocol and :func:`monopoly.web.app.create_app`.
"""
