"""The registered computer-player levels: easy, normal, hard, expert, learned (and random)."""

from __future__ import annotations

from .base import Bot, register
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


def _learned(seed: int) -> Bot:
    from monopoly.rl.learned import LearnedBot  # numpy only; loads the shipped weights

    return LearnedBot(seed)


register("learned", _learned)
