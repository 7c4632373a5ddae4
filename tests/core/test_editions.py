"""Loading the edition files: the five shipped boards and broken files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from monopoly.core.board import CHANCE, COMMUNITY_CHEST, LANGUAGES, CardKind, SpaceKind
from monopoly.core.editions import (
    EDITIONS_DIR,
    REQUIRED_TERMS,
    EditionError,
    EditionRegistry,
    edition_keys,
    get_edition,
    load_edition_file,
)
from monopoly.core.rules import RuleSet
from monopoly.core.tables import tables_for

CLASSIC_TEXT = (EDITIONS_DIR / "classic.toml").read_text(encoding="utf-8")
ZELDA_TEXT = (EDITIONS_DIR / "zelda.toml").read_text(encoding="utf-8")
THEMED = ("zelda", "cthulhu", "fallout", "transformers")


def test_edition_keys_classic_first() -> None:
    assert edition_keys() == ("classic", "zelda", "cthulhu", "fallout", "transformers")


@pytest.mark.parametrize("key", edition_keys())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_all_editions_load_with_40_named_spaces(key: str, lang: str) -> None:
    edition = get_edition(key)
    names = edition.names[lang]
    assert edition.key == key
    assert edition.source == f"{key}.toml"
    assert len(names.spaces) == 40
    assert all(name.strip() for name in names.spaces)
    assert len(edition.printed) == 40
    assert names.title
    for word in (*REQUIRED_TERMS, CHANCE, COMMUNITY_CHEST):
        assert names.terms[word], word
    assert set(names.groups) == set(edition.board.groups)
    assert set(edition.group_colours) == set(edition.board.groups)
    assert len(names.cards) == 32
    for text in names.cards.values():
        for placeholder in ("{target}", "{railroad}", "{utility}", "{house}", "{hotel}", "{go}"):
            assert placeholder not in text
    assert set(edition.deck_keys) == {CHANCE, COMMUNITY_CHEST}
    assert 6 <= len(edition.tokens) <= (8 if key == "classic" else 6)
    for token in edition.tokens:
        assert token.names[lang]


@pytest.mark.parametrize("key", THEMED)
def test_no_classic_street_name_on_a_themed_board(key: str) -> None:
    classic = get_edition("classic")
    edition = get_edition(key)
    for space in classic.board.spaces:
        if not (space.is_property or space.kind is SpaceKind.TAX):
            continue
        classic_names = {classic.name_of(space.index, lang) for lang in LANGUAGES}
        for lang in LANGUAGES:
            assert edition.name_of(space.index, lang) not in classic_names, (key, space.index)


@pytest.mark.parametrize("key", THEMED)
def test_themed_boards_keep_the_classic_numbers(key: str) -> None:
    classic = get_edition("classic").board
    board = get_edition(key).board
    assert board.spaces == classic.spaces
    assert board.decks == classic.decks
    assert board.groups == classic.groups
    assert board.properties == classic.properties
    assert board.jail_index == classic.jail_index


@pytest.mark.parametrize("key", THEMED)
def test_themed_card_spaces_carry_the_deck_names(key: str) -> None:
    edition = get_edition(key)
    for space in edition.board.spaces:
        for lang in LANGUAGES:
            if space.kind is SpaceKind.CHANCE:
                assert edition.name_of(space.index, lang) == edition.term(CHANCE, lang)
            if space.kind is SpaceKind.COMMUNITY_CHEST:
                assert edition.name_of(space.index, lang) == edition.term(COMMUNITY_CHEST, lang)


def test_themed_names_and_decks() -> None:
    zelda = get_edition("zelda")
    assert zelda.deck_keys == {CHANCE: "empty_bottle", COMMUNITY_CHEST: "treasure_chest"}
    assert zelda.term(CHANCE, "de") == "Leere Flasche"
    assert zelda.term("houses", "de") == "Deku-Sprosse"
    assert zelda.term("currency", "de") == "Rubine"
    assert zelda.name_of(5, "de") == "Zug der Götter"
    assert zelda.printed[35] and not zelda.printed[13]
    assert "Zitadelle der Zeit" in zelda.names["de"].cards["chance.advance_to_boardwalk"]
    cthulhu = get_edition("cthulhu")
    assert cthulhu.name_of(39, "de") == "Großer Cthulhu"
    assert cthulhu.printed[39] and not cthulhu.printed[1]
    assert {t.key for t in cthulhu.tokens} >= {"necronomicon", "dagon_dagger"}
    fallout = get_edition("fallout")
    assert fallout.term("currency", "de") == "Kronkorken"
    assert fallout.name_of(37) == "Vault 111"
    transformers = get_edition("transformers")
    assert {transformers.name_of(12, "de"), transformers.name_of(28, "de")} == {
        "Erde",
        "Cybertron",
    }
    assert not any(transformers.printed[s.index] for s in transformers.board.spaces[1:10])


@pytest.mark.parametrize(
    ("alias", "key"),
    [
        ("classic", "classic"),
        ("Standard", "classic"),
        ("US", "classic"),
        ("  monopoly ", "classic"),
        ("ZELDA", "zelda"),
        ("legend_of_zelda", "zelda"),
        ("Lovecraft", "cthulhu"),
        ("fallout", "fallout"),
        ("Transformers", "transformers"),
    ],
)
def test_aliases(alias: str, key: str) -> None:
    assert get_edition(alias).key == key
    assert get_edition(alias) is get_edition(key)


def test_unknown_edition_lists_the_known_ones() -> None:
    with pytest.raises(EditionError) as info:
        get_edition("monopolis")
    message = str(info.value)
    assert "monopolis" in message
    for key in edition_keys():
        assert key in message


def test_classic_board_numbers() -> None:
    edition = get_edition("classic")
    board = edition.board
    boardwalk = board.spaces[39]
    assert edition.name_of(39) == "Boardwalk"
    assert edition.name_of(39, "de") == "Schlossallee"
    assert edition.name_of(1, "de") == "Badstraße"
    assert (boardwalk.price, boardwalk.house_cost) == (400, 200)
    assert boardwalk.rents == (50, 200, 600, 1400, 1700, 2000)
    assert boardwalk.mortgage_value == 200
    assert board.spaces[1].rents == (2, 10, 30, 90, 160, 250)
    assert board.spaces[24].price == 240
    assert edition.name_of(24) == "Illinois Avenue"
    assert board.spaces[37].rents == (35, 175, 500, 1100, 1300, 1500)
    for index in (5, 15, 25, 35):
        assert board.spaces[index].kind is SpaceKind.RAILROAD
        assert board.spaces[index].price == 200
    for index in (12, 28):
        assert board.spaces[index].kind is SpaceKind.UTILITY
        assert board.spaces[index].price == 150
    assert board.groups["brown"] == (1, 3)
    assert board.groups["dark_blue"] == (37, 39)
    assert board.groups["railroad"] == (5, 15, 25, 35)
    assert board.groups["utility"] == (12, 28)
    assert board.jail_index == 10
    assert board.spaces[10].kind is SpaceKind.JAIL
    assert board.spaces[30].kind is SpaceKind.GO_TO_JAIL
    assert [s.index for s in board.spaces if s.kind is SpaceKind.CHANCE] == [7, 22, 36]
    assert [s.index for s in board.spaces if s.kind is SpaceKind.COMMUNITY_CHEST] == [2, 17, 33]
    assert edition.term("currency", "de") == "Euro"
    assert edition.term("currency_symbol") == "$"
    assert edition.group_colours["brown"] == "#955436"
    assert all(edition.printed)


def test_tax_amounts() -> None:
    """R-LAND-4: Income Tax 200, Luxury Tax 100 on every board."""
    for key in edition_keys():
        spaces = get_edition(key).board.spaces
        assert spaces[4].kind is SpaceKind.TAX and spaces[4].tax == 200
        assert spaces[38].kind is SpaceKind.TAX and spaces[38].tax == 100
        assert sum(1 for s in spaces if s.kind is SpaceKind.TAX) == 2


def test_setup_counts() -> None:
    """R-SETUP-3: 28 title deeds (22 streets, 4 railroads, 2 utilities), 16 + 16 cards."""
    for key in edition_keys():
        board = get_edition(key).board
        assert len(board.properties) == 28
        kinds = [board.spaces[i].kind for i in board.properties]
        assert kinds.count(SpaceKind.STREET) == 22
        assert kinds.count(SpaceKind.RAILROAD) == 4
        assert kinds.count(SpaceKind.UTILITY) == 2
        assert len(board.decks[CHANCE]) == 16
        assert len(board.decks[COMMUNITY_CHEST]) == 16
        assert board.houses == 32 and board.hotels == 12


def test_card_decks() -> None:
    """R-CARD-1: the 2008 US Chance and Community Chest decks, 16 effects each."""
    board = get_edition("classic").board
    chance = {c.key: c for c in board.decks[CHANCE]}
    assert len(chance) == 16
    targets = sorted(c.target for c in chance.values() if c.kind is CardKind.ADVANCE_TO)
    assert targets == [0, 5, 11, 24, 39]
    assert sum(1 for c in chance.values() if c.kind is CardKind.NEAREST_RAILROAD) == 2
    assert sum(1 for c in chance.values() if c.kind is CardKind.NEAREST_UTILITY) == 1
    assert sum(1 for c in chance.values() if c.kind is CardKind.GET_OUT_OF_JAIL) == 1
    assert sum(1 for c in chance.values() if c.kind is CardKind.GO_TO_JAIL) == 1
    go_back = [c for c in chance.values() if c.kind is CardKind.GO_BACK]
    assert [c.amount for c in go_back] == [3]
    repairs = [c for c in chance.values() if c.kind is CardKind.REPAIRS]
    assert [(c.per_house, c.per_hotel) for c in repairs] == [(25, 100)]
    assert sorted(c.amount for c in chance.values() if c.kind is CardKind.COLLECT) == [50, 150]
    assert [c.amount for c in chance.values() if c.kind is CardKind.PAY] == [15]
    assert [c.amount for c in chance.values() if c.kind is CardKind.PAY_EACH_PLAYER] == [50]

    chest = {c.key: c for c in board.decks[COMMUNITY_CHEST]}
    assert len(chest) == 16
    assert [c.target for c in chest.values() if c.kind is CardKind.ADVANCE_TO] == [0]
    collects = sorted(c.amount for c in chest.values() if c.kind is CardKind.COLLECT)
    assert collects == [10, 20, 25, 50, 100, 100, 100, 200]
    assert sorted(c.amount for c in chest.values() if c.kind is CardKind.PAY) == [50, 50, 100]
    birthday = [c for c in chest.values() if c.kind is CardKind.COLLECT_FROM_EACH_PLAYER]
    assert [c.amount for c in birthday] == [10]
    repairs = [c for c in chest.values() if c.kind is CardKind.REPAIRS]
    assert [(c.per_house, c.per_hotel) for c in repairs] == [(40, 115)]
    assert sum(1 for c in chest.values() if c.kind is CardKind.GET_OUT_OF_JAIL) == 1
    assert sum(1 for c in chest.values() if c.kind is CardKind.GO_TO_JAIL) == 1
    assert tables_for(board, RuleSet()).card(CHANCE, "advance_to_boardwalk").target == 39


def test_card_texts_are_filled_per_edition_and_language() -> None:
    classic = get_edition("classic")
    assert classic.names["en"].cards["chance.advance_to_boardwalk"] == "Advance to Boardwalk."
    assert "Schlossallee" in classic.names["de"].cards["chance.advance_to_boardwalk"]
    assert "{amount}" in classic.names["en"].cards["chance.speeding_fine"]
    repairs = classic.names["de"].cards["community_chest.street_repairs"]
    assert "{per_house}" in repairs and "{per_hotel}" in repairs and "Haus" in repairs
    fallout = get_edition("fallout")
    assert "Hütte" in fallout.names["de"].cards["chance.general_repairs"]
    assert "Metro station" in fallout.names["en"].cards["chance.nearest_railroad_1"]


# ------------------------------------------------------------------ broken files


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def _error(path: Path) -> str:
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
    return str(info.value)


def test_copies_of_the_shipped_files_load(tmp_path: Path) -> None:
    _write(tmp_path, "classic.toml", CLASSIC_TEXT)
    zelda = load_edition_file(_write(tmp_path, "zelda.toml", ZELDA_TEXT))
    assert zelda.name_of(39) == "Temple of Time"


def test_bad_toml_syntax(tmp_path: Path) -> None:
    text = _replace_once(CLASSIC_TEXT, 'de = "Badstraße"', 'de = "Badstraße')
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message.startswith("classic.toml:")
    assert "TOML" in message and "line" in message


def test_missing_en(tmp_path: Path) -> None:
    text = _replace_once(CLASSIC_TEXT, 'en = "Oriental Avenue"\n', "")
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message == "classic.toml: spaces[6] (index 6): 'en' is missing"


def test_missing_en_in_themed_file(tmp_path: Path) -> None:
    _write(tmp_path, "classic.toml", CLASSIC_TEXT)
    text = _replace_once(ZELDA_TEXT, 'en = "Minish Village"\n', "")
    message = _error(_write(tmp_path, "zelda.toml", text))
    assert message == "zelda.toml: spaces[1] (index 3): 'en' is missing"


def test_negative_price(tmp_path: Path) -> None:
    text = _replace_once(
        CLASSIC_TEXT, 'price = 150\nen = "Electric Company"', 'price = -5\nen = "Electric Company"'
    )
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message == (
        "classic.toml: spaces[12] (index 12): price must be a positive integer, got -5"
    )


def test_unknown_kind(tmp_path: Path) -> None:
    text = _replace_once(CLASSIC_TEXT, 'kind = "free_parking"', 'kind = "parking_lot"')
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message.startswith("classic.toml: spaces[20] (index 20): unknown kind 'parking_lot'")


def test_deck_with_15_cards(tmp_path: Path) -> None:
    card = (
        '[[decks.community_chest.cards]]\nkey = "inheritance"\nkind = "collect"\n'
        'amount = 100\nen = "You inherit {amount}."\nde = "Du erbst {amount}."\n'
    )
    text = _replace_once(CLASSIC_TEXT, card, "")
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message == "classic.toml: decks.community_chest: needs 16 cards, got 15"


def test_themed_file_giving_a_price(tmp_path: Path) -> None:
    _write(tmp_path, "classic.toml", CLASSIC_TEXT)
    text = _replace_once(ZELDA_TEXT, 'en = "Temple of Time"', 'price = 500\nen = "Temple of Time"')
    message = _error(_write(tmp_path, "zelda.toml", text))
    assert message.startswith("zelda.toml: spaces[29] (index 39): 'price' is not allowed")
    assert "themed" in message


def test_duplicate_index(tmp_path: Path) -> None:
    text = _replace_once(CLASSIC_TEXT, "index = 3\n", "index = 1\n")
    message = _error(_write(tmp_path, "classic.toml", text))
    assert message.startswith("classic.toml: spaces[3] (index 1): duplicate index 1")


def test_more_errors(tmp_path: Path) -> None:
    cases = {
        "card target out of range": (
            ("target = 39\n", "target = 40\n"),
            "classic.toml: decks.chance.cards[0] (key 'advance_to_boardwalk'): "
            "target 40 is out of range 0..39",
        ),
        "unknown key": (
            ('de = "Turmstraße"', 'de = "Turmstraße"\ncolor = "x"'),
            "classic.toml: spaces[3] (index 3): unknown key 'color'",
        ),
        "rents not increasing": (
            ("rents = [2, 10, 30, 90, 160, 250]", "rents = [2, 10, 30, 90, 260, 250]"),
            "classic.toml: spaces[1] (index 1): rents must increase",
        ),
        "missing space": (
            (
                '[[spaces]]\nindex = 20\nkind = "free_parking"\nen = "Free Parking"\n'
                'de = "Frei Parken"\n',
                "",
            ),
            "classic.toml: spaces: index 20 missing",
        ),
        "too few tokens": (
            (
                '[[tokens]]\nkey = "cat"\nen = "Cat"\nde = "Katze"\n'
                '\n[[tokens]]\nkey = "boot"\nen = "Boot"\nde = "Stiefel"\n'
                '\n[[tokens]]\nkey = "thimble"\nen = "Thimble"\nde = "Fingerhut"\n',
                "",
            ),
            "classic.toml: tokens: needs 6 to 8 tokens, got 5",
        ),
    }
    for name, ((old, new), expected) in cases.items():
        path = _write(tmp_path, "classic.toml", _replace_once(CLASSIC_TEXT, old, new))
        assert _error(path).startswith(expected), name


def test_themed_errors(tmp_path: Path) -> None:
    _write(tmp_path, "classic.toml", CLASSIC_TEXT)
    unknown_base = _replace_once(ZELDA_TEXT, 'base = "classic"', 'base = "classics"')
    assert _error(_write(tmp_path, "zelda.toml", unknown_base)).startswith(
        "zelda.toml: edition: unknown base 'classics'"
    )
    seven_tokens = ZELDA_TEXT + '\n[[tokens]]\nkey = "sword"\nen = "Sword"\nde = "Schwert"\n'
    assert _error(_write(tmp_path, "zelda.toml", seven_tokens)) == (
        "zelda.toml: tokens: needs exactly 6 tokens, got 7"
    )
    unnamed = _replace_once(
        ZELDA_TEXT,
        '[[spaces]]\nindex = 12\nen = "Bomb Shop"\nde = "Bombenladen"\nprinted = true\n',
        "",
    )
    assert _error(_write(tmp_path, "zelda.toml", unnamed)).startswith(
        "zelda.toml: spaces: index 12 (utility) must be named"
    )
    cards = ZELDA_TEXT.replace('key = "empty_bottle"', 'key = "empty_bottle"\ncards = []')
    assert "cards come from base" in _error(_write(tmp_path, "zelda.toml", cards))


def test_adding_an_edition_is_adding_one_file(tmp_path: Path) -> None:
    """The registry finds the edition files itself, in the order their files give."""
    for key in ("classic", "zelda"):
        (tmp_path / f"{key}.toml").write_text(CLASSIC_TEXT if key == "classic" else ZELDA_TEXT)
    mirror = ZELDA_TEXT.replace('key = "zelda"', 'key = "mirror"').replace("order = 1", "order = 9")
    mirror = re.sub(r"aliases = \[[^\]]*\]", 'aliases = ["looking glass"]', mirror)
    (tmp_path / "mirror.toml").write_text(mirror)
    registry = EditionRegistry(tmp_path)
    assert registry.keys() == ("classic", "zelda", "mirror")
    assert registry.get("Looking Glass").key == "mirror"
