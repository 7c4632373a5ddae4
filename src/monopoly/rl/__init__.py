"""Reinforcement-learning interfaces (``pip install .[rl]``): a PettingZoo AEC
environment, a Gymnasium single-agent environment and an OpenSpiel game. See
``docs/rl.md``."""

from __future__ import annotations

from .catalogue import CATALOGUE, SIZE
from .observation import OBS_SIZE, observe, observe_dict

__all__ = ["CATALOGUE", "OBS_SIZE", "SIZE", "env", "observe", "observe_dict", "raw_env"]


def env(**kwargs):  # type: ignore[no-untyped-def]
    """The PettingZoo AEC environment (imports pettingzoo on first use)."""
    from .aec_env import env as make

    return make(**kwargs)


def raw_env(**kwargs):  # type: ignore[no-untyped-def]
    from .aec_env import raw_env as make

    return make(**kwargs)
