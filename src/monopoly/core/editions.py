"""Load editions from their TOML data files and keep a registry of them.

A *full* edition (``classic.toml``) gives every number of the board and the card effects;
a *themed* edition names a ``base`` and gives names only (spaces, decks, terms, groups,
tokens). Every problem in a file raises :class:`EditionError`, whose message names the
file, the entry and the problem, e.g.
``zelda.toml: spaces[3] (index 6): 'en' is missing``.
"""

from __future__ import annotations

import itertools
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from monopoly.core.board import (
    BOARD_SIZE,
    CHANCE,
    COMMUNITY_CHEST,
    DECK_ROLES,
    LANGUAGES,
    Board,
    Card,
    CardKind,
    Edition,
    Names,
    Space,
    SpaceKind,
    Token,
)
from monopoly.core.errors import MonopolyError

__all__ = [
    "EDITIONS_DIR",
    "REQUIRED_TERMS",
    "EditionError",
    "edition_keys",
    "get_edition",
    "load_edition_file",
]

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "editions"
"""The folder holding the shipped edition files."""

_EDITION_ORDER: list[str] = []
"""The keys of the edition files found in EDITIONS_DIR, by their ``order`` and key."""

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
# Placeholders left in the card texts for the UI to format (money).
_MONEY_FIELDS = ("amount", "per_house", "per_hotel")
# Term placeholders the loader fills in (any defined term may be used).
_SPACE_NUMBER_KEYS = ("group", "price", "rents", "house_cost", "tax")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class EditionError(MonopolyError, ValueError):
    """A problem in an edition file: the message names the file, the entry and the problem."""


@dataclass(frozen=True)
class _Loaded:
    """An edition plus what a themed edition based on it needs (unfilled card texts)."""

    edition: Edition
    templates: dict[str, dict[str, str]]  # language -> "<role>.<key>" -> template
    themed: bool


class _Ctx:
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


def _read(path: Path) -> tuple[_Ctx, dict[str, Any]]:
    ctx = _Ctx(path.name)
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


def _edition_header(
    ctx: _Ctx, data: dict[str, Any]
) -> tuple[str, tuple[str, ...], dict[str, str], str, bool]:
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
    return key, aliases, title, base, role_printed


def _terms(
    ctx: _Ctx, data: dict[str, Any], inherited: dict[str, dict[str, str]] | None
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


def _tokens(ctx: _Ctx, data: dict[str, Any], themed: bool) -> tuple[Token, ...]:
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


def _groups_full(ctx: _Ctx, data: dict[str, Any]) -> dict[str, dict[str, str]]:
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
    ctx: _Ctx, entry: str, item: dict[str, Any], groups: dict[str, dict[str, str]]
) -> Space:
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
        return Space(index, kind, group, price, tuple(rents), house_cost)
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


def _check_index(ctx: _Ctx, i: int, item: dict[str, Any], seen: dict[int, int]) -> str:
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


def _placeholders(ctx: _Ctx, entry: str, text: str) -> set[str]:
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
    ctx: _Ctx, entry: str, item: dict[str, Any], terms: dict[str, dict[str, str]]
) -> tuple[Card, dict[str, str]]:
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
    if kind is CardKind.REPAIRS and values["per_hotel"] <= 0:
        raise ctx.error(entry, f"per_hotel must be a positive integer, got {values['per_hotel']}")
    card = Card(key=str(item["key"]), kind=kind, **values)
    texts = ctx.names(entry, item)
    allowed = set(numbers) - {"amount"} if kind not in _MONEY_KINDS else set(numbers)
    for lang, text in texts.items():
        fields = _placeholders(ctx, entry, text)
        for field in fields:
            if field in allowed or field in terms[lang]:
                continue
            raise ctx.error(entry, f"unknown placeholder {{{field}}} in the {lang!r} text")
        needed = [f for f in numbers if f in allowed]
        for field in needed:
            if field not in fields:
                raise ctx.error(entry, f"the {lang!r} text must contain {{{field}}}")
    return card, texts


def _decks_full(
    ctx: _Ctx, data: dict[str, Any], terms: dict[str, dict[str, str]]
) -> tuple[
    dict[str, tuple[Card, ...]],
    dict[str, dict[str, str]],
    dict[str, str],
    dict[str, dict[str, str]],
    dict[str, bool],
]:
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
        decks[role] = tuple(cards)
    return decks, templates, deck_keys, deck_names, deck_printed


def _validate_board(ctx: _Ctx, spaces: list[Space], groups: dict[str, dict[str, str]]) -> None:
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


def _load_full(ctx: _Ctx, data: dict[str, Any], header: tuple[Any, ...]) -> _Loaded:
    key, aliases, title, _base, role_printed = header
    if not role_printed:
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
    tokens = _tokens(ctx, data, themed=False)
    board = _make_board(spaces, decks, groups)
    edition = _make_edition(
        ctx,
        key=key,
        aliases=aliases,
        title=title,
        board=board,
        names=_names(
            {lang: [by_index[i][1][lang] for i in range(BOARD_SIZE)] for lang in LANGUAGES},
            groups,
            terms,
            deck_names,
        ),
        templates=templates,
        tokens=tokens,
        printed=tuple(by_index[i][2] for i in range(BOARD_SIZE)),
        deck_keys=deck_keys,
        colours={g: v["colour"] for g, v in groups.items()},
    )
    return _Loaded(edition, templates, themed=False)


def _make_board(
    spaces: list[Space], decks: dict[str, tuple[Card, ...]], groups: dict[str, dict[str, str]]
) -> Board:
    return Board(
        spaces=tuple(spaces),
        decks=decks,
        groups={g: tuple(s.index for s in spaces if s.group == g) for g in groups},
        jail_index=next(s.index for s in spaces if s.kind is SpaceKind.JAIL),
        properties=tuple(s.index for s in spaces if s.is_property),
    )


def _fill(template: str, card: Card, spaces: list[str], terms: dict[str, str]) -> str:
    text = template
    if card.target >= 0:
        text = text.replace("{target}", spaces[card.target])
    for word, value in terms.items():
        text = text.replace("{" + word + "}", value)
    return text


def _names(
    space_names: dict[str, list[str]],
    groups: dict[str, dict[str, str]],
    terms: dict[str, dict[str, str]],
    deck_names: dict[str, dict[str, str]],
) -> dict[str, tuple[list[str], dict[str, str], dict[str, str]]]:
    """Per language: the space names, the group names and the terms (with deck names)."""
    return {
        lang: (
            space_names[lang],
            {g: v[lang] for g, v in groups.items()},
            {**terms[lang], **deck_names[lang]},
        )
        for lang in LANGUAGES
    }


def _make_edition(
    ctx: _Ctx,
    *,
    key: str,
    aliases: tuple[str, ...],
    title: dict[str, str],
    board: Board,
    names: dict[str, tuple[list[str], dict[str, str], dict[str, str]]],
    templates: dict[str, dict[str, str]],
    tokens: tuple[Token, ...],
    printed: tuple[bool, ...],
    deck_keys: dict[str, str],
    colours: dict[str, str],
) -> Edition:
    per_lang: dict[str, Names] = {}
    for lang in LANGUAGES:
        spaces, group_names, terms = names[lang]
        cards = {
            f"{role}.{card.key}": _fill(templates[lang][f"{role}.{card.key}"], card, spaces, terms)
            for role in DECK_ROLES
            for card in board.decks[role]
        }
        per_lang[lang] = Names(
            title=title[lang],
            spaces=tuple(spaces),
            groups=group_names,
            terms=terms,
            cards=cards,
        )
    return Edition(
        key=key,
        aliases=aliases,
        board=board,
        names=per_lang,
        tokens=tokens,
        printed=printed,
        deck_keys=deck_keys,
        group_colours=colours,
        source=ctx.source,
    )


# --------------------------------------------------------------------------- themed edition

_THEMED_NUMBERS = ("kind", *_SPACE_NUMBER_KEYS)


def _load_themed(
    ctx: _Ctx, data: dict[str, Any], header: tuple[Any, ...], base: _Loaded, base_name: str
) -> _Loaded:
    key, aliases, title, _base, role_printed = header
    base_ed = base.edition
    board = base_ed.board
    numbers_reason = f"is not allowed in a themed edition (numbers come from base {base_name!r})"
    inherited_terms = {
        lang: {w: t for w, t in base_ed.names[lang].terms.items() if w not in DECK_ROLES}
        for lang in LANGUAGES
    }
    terms = _terms(ctx, data, inherited_terms)

    # groups: optional overrides of names and colours
    groups: dict[str, dict[str, str]] = {
        g: {
            "colour": base_ed.group_colours[g],
            **{lang: base_ed.names[lang].groups[g] for lang in LANGUAGES},
        }
        for g in board.groups
    }
    raw_groups = ctx.table("groups", data.get("groups", {}))
    for name, value in raw_groups.items():
        entry = f"groups.{name}"
        if name not in groups:
            raise ctx.error(
                entry, f"unknown group {name!r} (base {base_name!r} has: {', '.join(groups)})"
            )
        table = ctx.table(entry, value)
        ctx.keys(entry, table, ("colour", *LANGUAGES))
        for field in table:
            value_s = ctx.text(entry, table, field)
            if field == "colour":
                if not _COLOUR.match(value_s):
                    raise ctx.error(entry, f"colour must look like '#rrggbb', got {value_s!r}")
                value_s = value_s.lower()
            groups[name][field] = value_s

    # decks: names only, cards come from the base
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
        deck_printed[role] = ctx.boolean(entry, table, "printed", None) and role_printed
        for lang, name in ctx.names(entry, table).items():
            deck_names[lang][role] = name

    # spaces: names only
    if "spaces" not in data:
        raise ctx.error("spaces", "the [[spaces]] array is missing")
    items = ctx.array_of_tables("spaces", data["spaces"])
    seen: dict[int, int] = {}
    space_names = {lang: list(base_ed.names[lang].spaces) for lang in LANGUAGES}
    printed = list(base_ed.printed)
    for i in range(BOARD_SIZE):
        kind = board.spaces[i].kind
        if kind is SpaceKind.CHANCE or kind is SpaceKind.COMMUNITY_CHEST:
            role = CHANCE if kind is SpaceKind.CHANCE else COMMUNITY_CHEST
            for lang in LANGUAGES:
                space_names[lang][i] = deck_names[lang][role]
            printed[i] = deck_printed[role]
    for i, item in enumerate(items):
        entry = _check_index(ctx, i, item, seen)
        ctx.keys(
            entry,
            item,
            ("index", "printed", *LANGUAGES),
            {k: numbers_reason for k in _THEMED_NUMBERS},
        )
        index = int(item["index"])
        for lang, name in ctx.names(entry, item).items():
            space_names[lang][index] = name
        printed[index] = ctx.boolean(entry, item, "printed", None)
    for space in board.spaces:
        if space.index not in seen and (space.is_property or space.kind is SpaceKind.TAX):
            raise ctx.error(
                "spaces",
                f"index {space.index} ({space.kind.name.lower()}) must be named "
                "in a themed edition",
            )

    tokens = _tokens(ctx, data, themed=True)
    edition = _make_edition(
        ctx,
        key=key,
        aliases=aliases,
        title=title,
        board=board,
        names=_names(space_names, groups, terms, deck_names),
        templates=base.templates,
        tokens=tokens,
        printed=tuple(printed),
        deck_keys=deck_keys,
        colours={g: v["colour"] for g, v in groups.items()},
    )
    return _Loaded(edition, base.templates, themed=True)


# --------------------------------------------------------------------------- public API


def _load(path: Path) -> _Loaded:
    ctx, data = _read(path)
    header = _edition_header(ctx, data)
    base_name = header[3]
    if not base_name:
        return _load_full(ctx, data, header)
    base_path = path.parent / f"{base_name}.toml"
    if base_path.resolve() == path.resolve():
        raise ctx.error("edition", f"base {base_name!r} is the file itself")
    if not base_path.is_file():
        raise ctx.error("edition", f"unknown base {base_name!r} (no {base_path.name} next to it)")
    base = _load(base_path)
    if base.themed:
        raise ctx.error("edition", f"base {base_name!r} is itself a themed edition")
    return _load_themed(ctx, data, header, base, base_name)


def load_edition_file(path: Path) -> Edition:
    """Load one edition file; a ``base`` is looked up as ``<base>.toml`` in the same folder."""
    return _load(Path(path)).edition


_REGISTRY: dict[str, Edition] = {}
_LOOKUP: dict[str, str] = {}


def _edition_files() -> list[str]:
    """The edition files in EDITIONS_DIR (adding an edition is adding a file), in list
    order: the ``order`` of their [edition] table (0 if none), then the key."""
    found = []
    for path in EDITIONS_DIR.glob("*.toml"):
        try:
            head = tomllib.loads(path.read_text(encoding="utf-8")).get("edition", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            head = {}  # loading the file reports the problem with its place
        order = head.get("order", 0) if isinstance(head, dict) else 0
        found.append((order if type(order) is int else 0, path.stem))
    return [key for _, key in sorted(found)]


def _registry() -> dict[str, Edition]:
    if not _REGISTRY:
        editions: dict[str, Edition] = {}
        lookup: dict[str, str] = {}
        for key in _edition_files():
            edition = load_edition_file(EDITIONS_DIR / f"{key}.toml")
            if edition.key != key:
                raise EditionError(
                    f"{key}.toml: edition: 'key' must be {key!r} (the file name), "
                    f"got {edition.key!r}"
                )
            editions[key] = edition
            for name in (key, *edition.aliases):
                folded = name.casefold()
                if folded in lookup and lookup[folded] != key:
                    raise EditionError(
                        f"{key}.toml: edition: alias {name!r} is already used by "
                        f"{lookup[folded]}.toml"
                    )
                lookup[folded] = key
        _LOOKUP.update(lookup)
        _REGISTRY.update(editions)
        _EDITION_ORDER[:] = list(editions)
    return _REGISTRY


def edition_keys() -> tuple[str, ...]:
    """The keys of the shipped editions, in list order (classic first)."""
    _registry()
    return tuple(_EDITION_ORDER)


def get_edition(name: str) -> Edition:
    """The shipped edition with this key or alias (case-insensitive); cached."""
    registry = _registry()
    key = _LOOKUP.get(name.strip().casefold())
    if key is None:
        known = ", ".join(
            f"{k} ({', '.join(registry[k].aliases)})" if registry[k].aliases else k
            for k in _EDITION_ORDER
        )
        raise EditionError(f"unknown edition {name!r}; known editions: {known}")
    return registry[key]
