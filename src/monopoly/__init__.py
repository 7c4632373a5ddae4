"""MONOPOLY, rules-exact: the classic game and its themed editions, the short game and the
Speed Die, in English and German.

    >>> import monopoly
    >>> game = monopoly.Game.new(["Ann", "Bob"], seed=1)
    >>> game.decision.kind
    <DecisionKind.ROLL: 'roll'>

The engine lives in :mod:`monopoly.core`; this module gathers its public face. Computer
players are in :mod:`monopoly.bots`, the simulator in :mod:`monopoly.sim`, the browser
game's server in :mod:`monopoly.web`.
"""

# First: picks the compiled or the pure Python modules before any of them is imported.
from monopoly.build import BUILD
from monopoly.core.actions import (
    AcceptTrade,
    Action,
    Bid,
    Build,
    Buy,
    ChooseBreakdown,
    ChooseMove,
    ChooseSpace,
    ClaimRent,
    DeclareBankruptcy,
    DeclareWant,
    DeclineBuy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJailFine,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
    UseJailCard,
    action_from_json,
)
from monopoly.core.board import BANK, BOARD_SIZE
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.errors import (
    IllegalActionError,
    MalformedActionError,
    MonopolyError,
    NotYourTurnError,
    RecordError,
    SetupError,
)
from monopoly.core.events import Event
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.narrate import Narrator
from monopoly.core.reasons import Reason
from monopoly.core.records import game_state, load_record, record_of, replay
from monopoly.core.rules import RuleSet
from monopoly.core.state import Decision, DecisionKind
from monopoly.core.view import PlayerView

__all__ = [
    "BANK",
    "BOARD_SIZE",
    "BUILD",
    "AcceptTrade",
    "Action",
    "Bid",
    "Build",
    "Buy",
    "ChooseBreakdown",
    "ChooseMove",
    "ChooseSpace",
    "ClaimRent",
    "Decision",
    "DecisionKind",
    "DeclareBankruptcy",
    "DeclareWant",
    "DeclineBuy",
    "Event",
    "Game",
    "IllegalActionError",
    "KeepMortgaged",
    "MalformedActionError",
    "MonopolyError",
    "Mortgage",
    "Narrator",
    "NotYourTurnError",
    "PassBid",
    "PayJailFine",
    "PlaceBuilding",
    "PlayerSetup",
    "PlayerView",
    "ProposeTrade",
    "Reason",
    "RecordError",
    "RejectTrade",
    "Roll",
    "RollForDoubles",
    "RuleSet",
    "SellBuilding",
    "Setup",
    "SetupError",
    "Unmortgage",
    "UseJailCard",
    "action_from_json",
    "edition_keys",
    "game_state",
    "get_edition",
    "load_record",
    "record_of",
    "replay",
]
