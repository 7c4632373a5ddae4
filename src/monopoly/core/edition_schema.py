"""Check an edition file's data: every entry, every number, every text placeholder.

A *full* edition (``classic.toml``) gives every number of the board and the card effects;
a *themed* edition names a ``base`` and gives names only (spaces, decks, terms, groups,
tokens). The checks here turn the TOML data into checked parts (spaces, cards, names);
:mod:`monopoly.core.edition_loader` assembles those into an :class:`Edition`. Every
problem raises :class:`EditionError`, whose message names the file, the entry and the
problem, e.g. ``zelda.toml: spaces[3] (index 6): 'en' is missing``.
"""

from __future__ import annotations

import itertools
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from monopoly.core.board import (
    BOARD_SIZE,
    DECK_ROLES,
    LANGUAGES,
    Card,
    CardKind,
    Edition,
    Space,
    SpaceKind,
    Token,
)
from monopoly.core.errors import MonopolyError

__all__ = [
    "DECK_SIZE",
    "REQUIRED_TERMS",
    "Checker",
    "EditionError",
    "FullParts",
    "Header",
    "ThemedParts",
    "check_full",
    "check_header",
    "check_themed",
    "read_edition",
]

REQUIRED_TERMS: tuple[str, ...] = (
    "currency",
    "currency_symbol",
    "house",
    "houses",
    "hotel",
    "hotels",
    "street",
    "streets",
    "railroad",
    "railroads",
    "utility",
    "utilities",
    "go",
    "jail",
    "just_visiting",
    "free_parking",
    "go_to_jail",
    "bank",
    "get_out_of_jail_free",
    "speed_die",
    "bus",
    "mr_monopoly",
)

DECK_SIZE = 16

_SPACE_KINDS: dict[str, SpaceKind] = {kind.name.lower(): kind for kind in SpaceKind}
_CARD_KINDS: dict[str, CardKind] = {kind.name.lower(): kind for kind in CardKind}

# Which numbers each card kind takes (all others are an error).
_CARD_NUMBERS: dict[CardKind, tuple[str, ...]] = {
    CardKind.ADVANCE_TO: ("target",),
    CardKind.NEAREST_RAILROAD: (),
    CardKind.NEAREST_UTILITY: (),
    CardKind.COLLECT: ("amount",),
    CardKind.PAY: ("amount",),
    CardKind.GET_OUT_OF_JAIL: (),
    CardKind.GO_BACK: ("amount",),
    CardKind.GO_TO_JAIL: (),
    CardKind.REPAIRS: ("per_house", "per_hotel"),
    CardKind.PAY_EACH_PLAYER: ("amount",),
    CardKind.COLLECT_FROM_EACH_PLAYER: ("amount",),
}
_MONEY_KINDS = frozenset(
    {
        CardKind.COLLECT,
        CardKind.PAY,
        CardKind.PAY_EACH_PLAYER,
        CardKind.COLLECT_FROM_EACH_PLAYER,
    }
)
# The numbers of a space: a full edition gives them where they apply, a themed one never.
_SPACE_NUMBER_KEYS = ("group", "price", "rents", "house_cost", "tax")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_THEMED_NUMBERS = ("kind", *_SPACE_NUMBER_KEYS)


class EditionError(MonopolyError, ValueError):
    """A problem in an edition file: the message names the file, the entry and the problem."""


class Header(NamedTuple):
    """The checked ``[edition]`` table of a file."""

    key: str
    aliases: tuple[str, ...]
    title: dict[str, str]
    base: str
    """The key of the full edition a themed edition renames; empty for a full edition."""
    role_printed: bool


class Checker:
    """Carries the file name so that every error names it."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, entry: str, problem: str) -> EditionError:
        return EditionError(f"{self.source}: {entry}: {problem}")

    def table(self, entry: str, value: object) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(entry, f"must be a table, got {_type_name(value)}")
        return value

    def array_of_tables(self, entry: str, value: object) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise self.error(entry, f"must be an array of tables, got {_type_name(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"{entry}[{i}]", f"must be a table, got {_type_name(item)}")
        return value

    def keys(
        self,
        entry: str,
        table: dict[str, Any],
        allowed: tuple[str, ...],
        forbidden_reason: dict[str, str] | None = None,
    ) -> None:
        for key in table:
            if key in allowed:
                continue
            if forbidden_reason and key in forbidden_reason:
                raise self.error(entry, f"{key!r} {forbidden_reason[key]}")
            raise self.error(entry, f"unknown key {key!r} (allowed: {', '.join(sorted(allowed))})")

    def text(self, entry: str, table: dict[str, Any], key: str) -> str:
        if key not in table:
            raise self.error(entry, f"{key!r} is missing")
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            raise self.error(entry, f"{key!r} must be a non-empty string, got {value!r}")
        return value

    def integer(self, entry: str, table: dict[str, Any], key: str, *, positive: bool) -> int:
        if key not in table:
            raise self.error(entry, f"{key!r} is missing")
        value = table[key]
        ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok or (value <= 0 if positive else value < 0):
            what = "a positive integer" if positive else "a non-negative integer"
            raise self.error(entry, f"{key} must be {what}, got {value!r}")
        return int(value)

    def boolean(self, entry: str, table: dict[str, Any], key: str, default: bool | None) -> bool:
        if key not in table:
            if default is None:
                raise self.error(entry, f"{key!r} is missing (true or false)")
            return default
        value = table[key]
        if not isinstance(value, bool):
            raise self.error(entry, f"{key!r} must be true or false, got {value!r}")
        return value

    def names(self, entry: str, table: dict[str, Any]) -> dict[str, str]:
        return {lang: self.text(entry, table, lang) for lang in LANGUAGES}


def _type_name(value: object) -> str:
    return {
        dict: "a table",
        list: "an array",
        str: "a string",
        int: "an integer",
        float: "a float",
        bool: "a boolean",
    }.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------- reading


def read_edition(path: Path) -> tuple[Checker, dict[str, Any]]:
    """The TOML data of an edition file (readable, UTF-8, TOML, known top-level tables)."""
    ctx = Checker(path.name)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EditionError(f"{path.name}: cannot read the file: {exc.strerror}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise EditionError(f"{path.name}: line {line}: the file is not valid UTF-8") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(f"{path.name}: TOML syntax error: {exc}") from exc
    ctx.keys("top level", data, ("edition", "terms", "groups", "spaces", "decks", "tokens"))
    return ctx, data


def check_header(ctx: Checker, data: dict[str, Any]) -> Header:
    """The ``[edition]`` table: key, aliases, title, base and list order."""
    if "edition" not in data:
        raise ctx.error("edition", "the [edition] table is missing")
    head = ctx.table("edition", data["edition"])
    ctx.keys("edition", head, ("key", "aliases", "title", "base", "chance_role_printed", "order"))
    order = head.get("order", 0)
    if type(order) is not int:
        raise ctx.error(
            "edition", f"'order' (place in lists) must be a whole number, got {order!r}"
        )
    key = ctx.text("edition", head, "key")
    if not _KEY.match(key):
        raise ctx.error("edition", f"'key' must be lower-case letters, digits and _, got {key!r}")
    aliases_raw = head.get("aliases", [])
    if not isinstance(aliases_raw, list) or not all(
        isinstance(a, str) and a.strip() for a in aliases_raw
    ):
        raise ctx.error("edition", f"'aliases' must be an array of strings, got {aliases_raw!r}")
    aliases = tuple(str(a) for a in aliases_raw)
    if "title" not in head:
        raise ctx.error("edition", "'title' is missing")
    title = ctx.names("edition.title", ctx.table("edition.title", head["title"]))
    ctx.keys("edition.title", head["title"], LANGUAGES)
    base = ""
    if "base" in head:
        base = ctx.text("edition", head, "base")
    role_printed = ctx.boolean("edition", head, "chance_role_printed", True)
    return Header(key, aliases, title, base, role_printed)


def _terms(
    ctx: Checker, data: dict[str, Any], inherited: dict[str, dict[str, str]] | None
) -> dict[str, dict[str, str]]:
    raw = ctx.table("terms", data.get("terms", {}))
    ctx.keys("terms", raw, LANGUAGES)
    result: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        entry = f"terms.{lang}"
        if lang not in raw and inherited is None:
            raise ctx.error(entry, "the table is missing")
        table = ctx.table(entry, raw.get(lang, {}))
        terms = dict(inherited[lang]) if inherited is not None else {}
        for word in table:
            if word in DECK_ROLES:
                raise ctx.error(entry, f"{word!r} is not a term: deck names go in [decks.{word}]")
            terms[word] = ctx.text(entry, table, word)
        for word in REQUIRED_TERMS:
            if word not in terms:
                raise ctx.error(entry, f"{word!r} is missing")
        result[lang] = terms
    return result


def _tokens(ctx: Checker, data: dict[str, Any], themed: bool) -> tuple[Token, ...]:
    if "tokens" not in data:
        raise ctx.error("tokens", "the [[tokens]] array is missing")
    items = ctx.array_of_tables("tokens", data["tokens"])
    low, high = (6, 6) if themed else (6, 8)
    if not low <= len(items) <= high:
        wanted = "exactly 6" if low == high else f"{low} to {high}"
        raise ctx.error("tokens", f"needs {wanted} tokens, got {len(items)}")
    tokens: list[Token] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        entry = f"tokens[{i}]"
        ctx.keys(entry, item, ("key", "en", "de", "printed"))
        key = ctx.text(entry, item, "key")
        if key in seen:
            raise ctx.error(entry, f"duplicate token key {key!r}")
        seen.add(key)
        ctx.boolean(entry, item, "printed", True)
        tokens.append(Token(key=key, names=ctx.names(f"{entry} (key {key!r})", item)))
    return tuple(tokens)


# --------------------------------------------------------------------------- full edition


def _groups_full(ctx: Checker, data: dict[str, Any]) -> dict[str, dict[str, str]]:
    if "groups" not in data:
        raise ctx.error("groups", "the [groups] table is missing")
    raw = ctx.table("groups", data["groups"])
    groups: dict[str, dict[str, str]] = {}
    for name, value in raw.items():
        entry = f"groups.{name}"
        table = ctx.table(entry, value)
        ctx.keys(entry, table, ("colour", *LANGUAGES))
        colour = ctx.text(entry, table, "colour")
        if not _COLOUR.match(colour):
            raise ctx.error(entry, f"colour must look like '#rrggbb', got {colour!r}")
        groups[name] = {"colour": colour.lower(), **ctx.names(entry, table)}
    return groups


def _space_full(
    ctx: Checker, entry: str, item: dict[str, Any], groups: dict[str, dict[str, str]]
) -> Space:
    """One space of a full edition: its kind and exactly the numbers that kind has."""
    index = item["index"]
    kind_name = ctx.text(entry, item, "kind")
    if kind_name not in _SPACE_KINDS:
        raise ctx.error(
            entry, f"unknown kind {kind_name!r} (known: {', '.join(sorted(_SPACE_KINDS))})"
        )
    kind = _SPACE_KINDS[kind_name]
    common = ("index", "kind", "printed", *LANGUAGES)
    if kind is SpaceKind.STREET:
        ctx.keys(entry, item, (*common, "group", "price", "rents", "house_cost"))
        return _street(ctx, entry, item, groups)
    if kind in (SpaceKind.RAILROAD, SpaceKind.UTILITY):
        ctx.keys(entry, item, (*common, "group", "price"))
        default = "railroad" if kind is SpaceKind.RAILROAD else "utility"
        group = str(item.get("group", default))
        if group != default:
            raise ctx.error(entry, f"a {kind_name} must be in group {default!r}, got {group!r}")
        if group not in groups:
            raise ctx.error(entry, f"group {group!r} is not defined in [groups]")
        price = ctx.integer(entry, item, "price", positive=True)
        return Space(index, kind, group, price)
    if kind is SpaceKind.TAX:
        ctx.keys(entry, item, (*common, "tax"))
        return Space(index, kind, tax=ctx.integer(entry, item, "tax", positive=True))
    ctx.keys(
        entry,
        item,
        common,
        {k: f"is not allowed on a {kind_name} space" for k in _SPACE_NUMBER_KEYS},
    )
    return Space(index, kind)


def _street(
    ctx: Checker, entry: str, item: dict[str, Any], groups: dict[str, dict[str, str]]
) -> Space:
    """A street's group, price, six rising rents and house cost."""
    group = ctx.text(entry, item, "group")
    if group not in groups or group in ("railroad", "utility"):
        raise ctx.error(entry, f"unknown street group {group!r}")
    price = ctx.integer(entry, item, "price", positive=True)
    if "rents" not in item:
        raise ctx.error(entry, "'rents' is missing")
    rents = item["rents"]
    if (
        not isinstance(rents, list)
        or len(rents) != 6
        or not all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in rents)
    ):
        raise ctx.error(entry, f"rents must be 6 non-negative integers, got {rents!r}")
    if any(a >= b for a, b in itertools.pairwise(rents)):
        raise ctx.error(entry, f"rents must increase, got {rents!r}")
    house_cost = ctx.integer(entry, item, "house_cost", positive=True)
    return Space(item["index"], SpaceKind.STREET, group, price, tuple(rents), house_cost)


def _check_index(ctx: Checker, i: int, item: dict[str, Any], seen: dict[int, int]) -> str:
    """A space's index (0..39, each once); returns the entry name errors use from here."""
    if "index" not in item:
        raise ctx.error(f"spaces[{i}]", "'index' is missing")
    index = item["index"]
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < BOARD_SIZE:
        raise ctx.error(f"spaces[{i}]", f"index must be an integer 0..39, got {index!r}")
    entry = f"spaces[{i}] (index {index})"
    if index in seen:
        raise ctx.error(entry, f"duplicate index {index} (already used by spaces[{seen[index]}])")
    seen[index] = i
    return entry


def _placeholders(ctx: Checker, entry: str, text: str) -> set[str]:
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ctx.error(entry, f"bad placeholder in text {text!r}: {exc}") from exc
    fields: set[str] = set()
    for literal, field, spec, conversion in parsed:
        if "{" in literal or "}" in literal:
            raise ctx.error(entry, f"literal braces are not allowed in card texts: {text!r}")
        if field is None:
            continue
        if not _KEY.match(field) or spec or conversion:
            raise ctx.error(entry, f"bad placeholder {{{field}}} in text {text!r}")
        fields.add(field)
    return fields


def _card(
    ctx: Checker, entry: str, item: dict[str, Any], terms: dict[str, dict[str, str]]
) -> tuple[Card, dict[str, str]]:
    """One card: its kind, exactly the numbers that kind takes, and its texts (which
    must show the numbers a player needs to read)."""
    kind_name = ctx.text(entry, item, "kind")
    if kind_name not in _CARD_KINDS:
        raise ctx.error(
            entry, f"unknown card kind {kind_name!r} (known: {', '.join(sorted(_CARD_KINDS))})"
        )
    kind = _CARD_KINDS[kind_name]
    numbers = _CARD_NUMBERS[kind]
    unused = {
        k: f"is not used by a {kind_name!r} card"
        for k in ("target", "amount", "per_house", "per_hotel")
        if k not in numbers
    }
    ctx.keys(entry, item, ("key", "kind", *numbers, *LANGUAGES), unused)
    values = _card_values(ctx, entry, item, numbers)
    if kind is CardKind.REPAIRS and values["per_hotel"] <= 0:
        raise ctx.error(entry, f"per_hotel must be a positive integer, got {values['per_hotel']}")
    card = Card(key=str(item["key"]), kind=kind, **values)
    texts = ctx.names(entry, item)
    allowed = set(numbers) - {"amount"} if kind not in _MONEY_KINDS else set(numbers)
    for lang, text in texts.items():
        _card_text(ctx, entry, lang, text, [f for f in numbers if f in allowed], terms[lang])
    return card, texts


def _card_values(
    ctx: Checker, entry: str, item: dict[str, Any], numbers: tuple[str, ...]
) -> dict[str, int]:
    """The numbers of a card: a target space, or amounts."""
    values: dict[str, int] = {}
    for name in numbers:
        if name == "target":
            if "target" not in item:
                raise ctx.error(entry, "'target' is missing")
            target = item["target"]
            if not isinstance(target, int) or isinstance(target, bool):
                raise ctx.error(entry, f"target must be a space index 0..39, got {target!r}")
            if not 0 <= target < BOARD_SIZE:
                raise ctx.error(entry, f"target {target} is out of range 0..39")
            values[name] = target
        else:
            values[name] = ctx.integer(entry, item, name, positive=name != "per_house")
    return values


def _card_text(
    ctx: Checker, entry: str, lang: str, text: str, needed: list[str], terms: dict[str, str]
) -> None:
    """A card text uses only its numbers and the edition's terms, and shows every number
    in ``needed`` (a money card's amount, a target's name)."""
    fields = _placeholders(ctx, entry, text)
    for field in fields:
        if field in needed or field in terms:
            continue
        raise ctx.error(entry, f"unknown placeholder {{{field}}} in the {lang!r} text")
    for field in needed:
        if field not in fields:
            raise ctx.error(entry, f"the {lang!r} text must contain {{{field}}}")


def _decks_full(
    ctx: Checker, data: dict[str, Any], terms: dict[str, dict[str, str]]
) -> tuple[
    dict[str, tuple[Card, ...]],
    dict[str, dict[str, str]],
    dict[str, str],
    dict[str, dict[str, str]],
    dict[str, bool],
]:
    """The two decks of a full edition: keys, names, printed flags, and 16 cards each
    (returned with their unfilled texts, which themed editions reuse)."""
    if "decks" not in data:
        raise ctx.error("decks", "the [decks] table is missing")
    raw = ctx.table("decks", data["decks"])
    ctx.keys("decks", raw, DECK_ROLES)
    decks: dict[str, tuple[Card, ...]] = {}
    templates: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    deck_keys: dict[str, str] = {}
    deck_names: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    deck_printed: dict[str, bool] = {}
    for role in DECK_ROLES:
        entry = f"decks.{role}"
        if role not in raw:
            raise ctx.error(entry, "the deck is missing")
        table = ctx.table(entry, raw[role])
        ctx.keys(entry, table, ("key", "printed", "cards", *LANGUAGES))
        deck_keys[role] = ctx.text(entry, table, "key") if "key" in table else role
        deck_printed[role] = ctx.boolean(entry, table, "printed", True)
        for lang, name in ctx.names(entry, table).items():
            deck_names[lang][role] = name
        decks[role] = _cards(ctx, entry, table, role, terms, templates)
    return decks, templates, deck_keys, deck_names, deck_printed


def _cards(
    ctx: Checker,
    entry: str,
    table: dict[str, Any],
    role: str,
    terms: dict[str, dict[str, str]],
    templates: dict[str, dict[str, str]],
) -> tuple[Card, ...]:
    """The 16 cards of one deck, each key once; their texts go into ``templates``."""
    if "cards" not in table:
        raise ctx.error(entry, f"'cards' is missing (needs {DECK_SIZE} cards)")
    items = ctx.array_of_tables(f"{entry}.cards", table["cards"])
    if len(items) != DECK_SIZE:
        raise ctx.error(entry, f"needs {DECK_SIZE} cards, got {len(items)}")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        entry_i = f"{entry}.cards[{i}]"
        key = ctx.text(entry_i, item, "key")
        entry_i = f"{entry_i} (key {key!r})"
        if key in seen:
            raise ctx.error(entry_i, f"duplicate card key (already used by cards[{seen[key]}])")
        seen[key] = i
        card, texts = _card(ctx, entry_i, item, terms)
        cards.append(card)
        for lang, text in texts.items():
            templates[lang][f"{role}.{key}"] = text
    return tuple(cards)


def _validate_board(ctx: Checker, spaces: list[Space], groups: dict[str, dict[str, str]]) -> None:
    """The board as a whole: the official count of each kind, GO first, 2-3 streets a
    group (the rules count on these: monopolies, nearest railroad, jail)."""
    counts = {kind: sum(1 for s in spaces if s.kind is kind) for kind in SpaceKind}
    expected = {
        SpaceKind.STREET: 22,
        SpaceKind.RAILROAD: 4,
        SpaceKind.UTILITY: 2,
        SpaceKind.GO: 1,
        SpaceKind.JAIL: 1,
        SpaceKind.GO_TO_JAIL: 1,
    }
    for kind, wanted in expected.items():
        if counts[kind] != wanted:
            raise ctx.error(
                "spaces", f"needs {wanted} {kind.name.lower()} space(s), got {counts[kind]}"
            )
    if spaces[0].kind is not SpaceKind.GO:
        raise ctx.error("spaces", "space 0 must be GO")
    if counts[SpaceKind.CHANCE] == 0 or counts[SpaceKind.COMMUNITY_CHEST] == 0:
        raise ctx.error("spaces", "needs at least one chance and one community_chest space")
    for name in groups:
        members = [s.index for s in spaces if s.group == name]
        if name in ("railroad", "utility"):
            continue
        if not 2 <= len(members) <= 3:
            raise ctx.error(f"groups.{name}", f"needs 2 or 3 streets, got {len(members)}")
    for name in ("railroad", "utility"):
        if name not in groups:
            raise ctx.error("groups", f"group {name!r} is missing")


@dataclass(frozen=True)
class FullParts:
    """The checked contents of a full edition file, ready to be assembled."""

    terms: dict[str, dict[str, str]]
    groups: dict[str, dict[str, str]]
    """Per group: its ``colour`` and its name in every language."""
    spaces: list[Space]
    space_names: dict[str, list[str]]
    printed: tuple[bool, ...]
    decks: dict[str, tuple[Card, ...]]
    templates: dict[str, dict[str, str]]
    """Per language: ``"<role>.<key>"`` -> the card text with its placeholders."""
    deck_keys: dict[str, str]
    deck_names: dict[str, dict[str, str]]
    tokens: tuple[Token, ...]


def check_full(ctx: Checker, data: dict[str, Any], header: Header) -> FullParts:
    """Every table of a full edition, in file order: terms, groups, spaces, decks, tokens."""
    if not header.role_printed:
        raise ctx.error("edition", "'chance_role_printed' is only for themed editions")
    terms = _terms(ctx, data, None)
    groups = _groups_full(ctx, data)
    if "spaces" not in data:
        raise ctx.error("spaces", "the [[spaces]] array is missing")
    items = ctx.array_of_tables("spaces", data["spaces"])
    seen: dict[int, int] = {}
    by_index: dict[int, tuple[Space, dict[str, str], bool]] = {}
    for i, item in enumerate(items):
        entry = _check_index(ctx, i, item, seen)
        space = _space_full(ctx, entry, item, groups)
        space_names = ctx.names(entry, item)
        printed = ctx.boolean(entry, item, "printed", True)
        by_index[space.index] = (space, space_names, printed)
    missing = [i for i in range(BOARD_SIZE) if i not in by_index]
    if missing:
        raise ctx.error("spaces", f"index {', '.join(map(str, missing))} missing")
    spaces = [by_index[i][0] for i in range(BOARD_SIZE)]
    _validate_board(ctx, spaces, groups)
    decks, templates, deck_keys, deck_names, _printed = _decks_full(ctx, data, terms)
    return FullParts(
        terms=terms,
        groups=groups,
        spaces=spaces,
        space_names={lang: [by_index[i][1][lang] for i in range(BOARD_SIZE)] for lang in LANGUAGES},
        printed=tuple(by_index[i][2] for i in range(BOARD_SIZE)),
        decks=decks,
        templates=templates,
        deck_keys=deck_keys,
        deck_names=deck_names,
        tokens=_tokens(ctx, data, themed=False),
    )


# --------------------------------------------------------------------------- themed edition


@dataclass(frozen=True)
class ThemedParts:
    """The checked contents of a themed edition file: what it renames in its base."""

    terms: dict[str, dict[str, str]]
    """Every term in every language (the base's, with this file's in their place)."""
    groups: dict[str, dict[str, str]]
    """Per renamed group: the fields it sets (``colour`` and names)."""
    deck_keys: dict[str, str]
    deck_names: dict[str, dict[str, str]]
    deck_printed: dict[str, bool]
    space_names: dict[int, dict[str, str]]
    """Per named space (in file order): its name in every language."""
    space_printed: dict[int, bool]
    tokens: tuple[Token, ...]


def check_themed(
    ctx: Checker, data: dict[str, Any], header: Header, base: Edition, base_name: str
) -> ThemedParts:
    """Every table of a themed edition, checked against its ``base`` edition."""
    inherited_terms = {
        lang: {w: t for w, t in base.names[lang].terms.items() if w not in DECK_ROLES}
        for lang in LANGUAGES
    }
    terms = _terms(ctx, data, inherited_terms)
    groups = _themed_groups(ctx, data, list(base.board.groups), base_name)
    deck_keys, deck_names, deck_printed = _themed_decks(ctx, data, header, base_name)
    space_names, space_printed = _themed_spaces(ctx, data, base, base_name)
    return ThemedParts(
        terms=terms,
        groups=groups,
        deck_keys=deck_keys,
        deck_names=deck_names,
        deck_printed=deck_printed,
        space_names=space_names,
        space_printed=space_printed,
        tokens=_tokens(ctx, data, themed=True),
    )


def _themed_groups(
    ctx: Checker, data: dict[str, Any], known: list[str], base_name: str
) -> dict[str, dict[str, str]]:
    """Optional renames and recolours of the base's groups."""
    groups: dict[str, dict[str, str]] = {}
    raw_groups = ctx.table("groups", data.get("groups", {}))
    for name, value in raw_groups.items():
        entry = f"groups.{name}"
        if name not in known:
            raise ctx.error(
                entry, f"unknown group {name!r} (base {base_name!r} has: {', '.join(known)})"
            )
        table = ctx.table(entry, value)
        ctx.keys(entry, table, ("colour", *LANGUAGES))
        fields = groups.setdefault(name, {})
        for field in table:
            value_s = ctx.text(entry, table, field)
            if field == "colour":
                if not _COLOUR.match(value_s):
                    raise ctx.error(entry, f"colour must look like '#rrggbb', got {value_s!r}")
                value_s = value_s.lower()
            fields[field] = value_s
    return groups


def _themed_decks(
    ctx: Checker, data: dict[str, Any], header: Header, base_name: str
) -> tuple[dict[str, str], dict[str, dict[str, str]], dict[str, bool]]:
    """The decks' keys, names and printed flags; the cards come from the base."""
    raw_decks = ctx.table("decks", data.get("decks", {}))
    ctx.keys("decks", raw_decks, DECK_ROLES)
    deck_keys: dict[str, str] = {}
    deck_names: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    deck_printed: dict[str, bool] = {}
    for role in DECK_ROLES:
        entry = f"decks.{role}"
        if role not in raw_decks:
            raise ctx.error(entry, "the deck is missing (a themed edition must name its decks)")
        table = ctx.table(entry, raw_decks[role])
        ctx.keys(
            entry,
            table,
            ("key", "printed", *LANGUAGES),
            {"cards": f"is not allowed in a themed edition (cards come from base {base_name!r})"},
        )
        deck_keys[role] = ctx.text(entry, table, "key")
        deck_printed[role] = ctx.boolean(entry, table, "printed", None) and header.role_printed
        for lang, name in ctx.names(entry, table).items():
            deck_names[lang][role] = name
    return deck_keys, deck_names, deck_printed


def _themed_spaces(
    ctx: Checker, data: dict[str, Any], base: Edition, base_name: str
) -> tuple[dict[int, dict[str, str]], dict[int, bool]]:
    """The spaces' names (no numbers); every property and tax space must be named."""
    if "spaces" not in data:
        raise ctx.error("spaces", "the [[spaces]] array is missing")
    items = ctx.array_of_tables("spaces", data["spaces"])
    numbers_reason = f"is not allowed in a themed edition (numbers come from base {base_name!r})"
    seen: dict[int, int] = {}
    names: dict[int, dict[str, str]] = {}
    printed: dict[int, bool] = {}
    for i, item in enumerate(items):
        entry = _check_index(ctx, i, item, seen)
        ctx.keys(
            entry,
            item,
            ("index", "printed", *LANGUAGES),
            {k: numbers_reason for k in _THEMED_NUMBERS},
        )
        index = int(item["index"])
        names[index] = ctx.names(entry, item)
        printed[index] = ctx.boolean(entry, item, "printed", None)
    for space in base.board.spaces:
        if space.index not in seen and (space.is_property or space.kind is SpaceKind.TAX):
            raise ctx.error(
                "spaces",
                f"index {space.index} ({space.kind.name.lower()}) must be named "
                "in a themed edition",
            )
    return names, printed
