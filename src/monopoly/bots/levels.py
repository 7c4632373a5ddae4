"""The registered computer-player levels."""

from __future__ import annotations

from .base import register
from .random_bot import RandomBot

register("random", lambda seed: RandomBot(seed))
