"""Turn a checked edition file into an :class:`Edition`: its board, names and card texts.

:mod:`monopoly.core.edition_schema` checks the data; this module assembles it. A themed
edition takes every number and card of its ``base`` (``<base>.toml`` in the same folder)
and puts its own names in; the card texts are filled in per edition, so a themed card
names the themed space and uses the themed terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from monopoly.core.board import (
    BOARD_SIZE,
    CHANCE,
    COMMUNITY_CHEST,
    DECK_ROLES,
    LANGUAGES,
    Board,
    Card,
    Edition,
    Names,
    Space,
    SpaceKind,
    Token,
)
from monopoly.core.edition_schema import (
    Checker,
    FullParts,
    Header,
    ThemedParts,
    check_full,
    check_header,
    check_themed,
    read_edition,
)

__all__ = ["load_edition_file"]


@dataclass(frozen=True)
class _Loaded:
    """An edition plus what a themed edition based on it needs (unfilled card texts)."""

    edition: Edition
    templates: dict[str, dict[str, str]]  # language -> "<role>.<key>" -> template
    themed: bool


def load_edition_file(path: Path) -> Edition:
    """Load one edition file; a ``base`` is looked up as ``<base>.toml`` in the same folder."""
    return _load(Path(path)).edition


def _load(path: Path) -> _Loaded:
    ctx, data = read_edition(path)
    header = check_header(ctx, data)
    if not header.base:
        return _build_full(ctx, header, check_full(ctx, data, header))
    base_name = header.base
    base_path = path.parent / f"{base_name}.toml"
    if base_path.resolve() == path.resolve():
        raise ctx.error("edition", f"base {base_name!r} is the file itself")
    if not base_path.is_file():
        raise ctx.error("edition", f"unknown base {base_name!r} (no {base_path.name} next to it)")
    base = _load(base_path)
    if base.themed:
        raise ctx.error("edition", f"base {base_name!r} is itself a themed edition")
    parts = check_themed(ctx, data, header, base.edition, base_name)
    return _build_themed(ctx, header, parts, base)


# --------------------------------------------------------------------------- full edition


def _build_full(ctx: Checker, header: Header, parts: FullParts) -> _Loaded:
    board = _make_board(parts.spaces, parts.decks, parts.groups)
    edition = _make_edition(
        ctx,
        header,
        board=board,
        names=_names(parts.space_names, parts.groups, parts.terms, parts.deck_names),
        templates=parts.templates,
        tokens=parts.tokens,
        printed=parts.printed,
        deck_keys=parts.deck_keys,
        colours={g: v["colour"] for g, v in parts.groups.items()},
    )
    return _Loaded(edition, parts.templates, themed=False)


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


# --------------------------------------------------------------------------- themed edition


def _build_themed(ctx: Checker, header: Header, parts: ThemedParts, base: _Loaded) -> _Loaded:
    """The base's board and cards under this file's names, colours and tokens."""
    base_ed = base.edition
    groups: dict[str, dict[str, str]] = {
        g: {
            "colour": base_ed.group_colours[g],
            **{lang: base_ed.names[lang].groups[g] for lang in LANGUAGES},
        }
        for g in base_ed.board.groups
    }
    for name, fields in parts.groups.items():
        groups[name].update(fields)
    space_names, printed = _themed_space_names(base_ed, parts)
    edition = _make_edition(
        ctx,
        header,
        board=base_ed.board,
        names=_names(space_names, groups, parts.terms, parts.deck_names),
        templates=base.templates,
        tokens=parts.tokens,
        printed=printed,
        deck_keys=parts.deck_keys,
        colours={g: v["colour"] for g, v in groups.items()},
    )
    return _Loaded(edition, base.templates, themed=True)


def _themed_space_names(
    base: Edition, parts: ThemedParts
) -> tuple[dict[str, list[str]], tuple[bool, ...]]:
    """The base's space names with the deck names on the card spaces, then the file's."""
    space_names = {lang: list(base.names[lang].spaces) for lang in LANGUAGES}
    printed = list(base.printed)
    for i in range(BOARD_SIZE):
        kind = base.board.spaces[i].kind
        if kind is SpaceKind.CHANCE or kind is SpaceKind.COMMUNITY_CHEST:
            role = CHANCE if kind is SpaceKind.CHANCE else COMMUNITY_CHEST
            for lang in LANGUAGES:
                space_names[lang][i] = parts.deck_names[lang][role]
            printed[i] = parts.deck_printed[role]
    for index, names in parts.space_names.items():
        for lang, name in names.items():
            space_names[lang][index] = name
        printed[index] = parts.space_printed[index]
    return space_names, tuple(printed)


# --------------------------------------------------------------------------- both


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
    ctx: Checker,
    header: Header,
    *,
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
            title=header.title[lang],
            spaces=tuple(spaces),
            groups=group_names,
            terms=terms,
            cards=cards,
        )
    return Edition(
        key=header.key,
        aliases=header.aliases,
        board=board,
        names=per_lang,
        tokens=tokens,
        printed=printed,
        deck_keys=deck_keys,
        group_colours=colours,
        source=ctx.source,
    )
