"""The registered computer-player levels: easy, normal, hard, expert (and random)."""

from __future__ import annotations

from .base import register
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .normal import NormalBot
from .random_bot import RandomBot

register("random", lambda seed: RandomBot(seed))
register("easy", lambda seed: EasyBot(seed))
register("normal", lambda seed: NormalBot(seed))
register("hard", lambda seed: HardBot(seed))
register("expert", lambda seed: ExpertBot(seed))
