"""Ernesto Capybara's data: the default tables load, and each kind of bad data gets one
UserError naming the file and row (or the parameter key) and what was expected."""
import re

import pytest

from simcore.errors import UserError
from simcore.games.capybara.schema import GAME_DATA, SYMBOLS, design_key


def _load_with(tmp_path, file, edit, **kw):
    """Load the ruleset with one data file copied into a designer folder and edited."""
    text = (GAME_DATA.data_dir / file).read_text()
    changed = edit(text)
    assert changed != text, "the edit must change the file"
    (tmp_path / file).write_text(changed)
    return GAME_DATA.load(data_dir=tmp_path, **kw)


def _row_of(file, starts):
    """1-based CSV line of the first row starting with `starts` (the header is line 1)."""
    lines = (GAME_DATA.data_dir / file).read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(starts))


def test_default_data_has_the_rulebook_components():
    rs = GAME_DATA.load()
    cards, strikes = rs.tables["cards"], rs.tables["strikes"]
    for colour in rs["colours"]:
        assert sum(r["copies"] for r in cards if r["colour"] == colour) == 14
    assert len(rs["colours"]) == 4
    assert sum(r["copies"] for r in cards if not r["colour"]) == 4
    assert sum(r["copies"] for r in cards) == 60
    assert sum(r["copies"] for r in strikes) == 40
    assert (rs["revolutions"], rs["tokens_per_player"], rs["hand_size"], rs["hand_size_small"]) == (4, 20, 5, 4)


def test_every_row_and_parameter_has_a_source():
    rs = GAME_DATA.load()
    for name, rows in rs.tables.items():
        assert all(r["source"] in ("rulebook", "inferred", "default") for r in rows), name
    assert all(p.source in ("rulebook", "inferred", "default") for p in rs.specs.values())


def test_design_keys_are_unique_and_carry_the_colour():
    rs = GAME_DATA.load()
    keys = [design_key(r) for r in rs.tables["cards"]]
    assert len(keys) == len(set(keys))
    assert "red Capybara" in keys and "Capybaranka" in keys


@pytest.mark.parametrize("variant", GAME_DATA.variant_names())
def test_every_variant_loads(variant):
    assert GAME_DATA.load(variant).variant == variant


def test_additional_rules_turn_every_symbol_on_and_the_default_none():
    assert GAME_DATA.load()["symbols"] == ()
    assert set(GAME_DATA.load("additional-rules")["symbols"]) == set(SYMBOLS)


def test_every_symbol_appears_in_the_default_strikes():
    used = {r["symbol"] for r in GAME_DATA.load().tables["strikes"]}
    assert set(SYMBOLS) <= used


def test_unknown_card_kind_names_file_and_row(tmp_path):
    row = _row_of("cards.csv", "Capybarge,green,")
    with pytest.raises(UserError, match=r"cards\.csv, row %d: .*unknown value 'teleport'" % row):
        _load_with(tmp_path, "cards.csv", lambda t: t.replace("Capybarge,green,gather", "Capybarge,green,teleport"))


def test_colour_with_the_wrong_count_names_file_and_row(tmp_path):
    row = _row_of("cards.csv", "Capybara,blue,")
    with pytest.raises(UserError, match=r"cards\.csv, row %d: colour 'blue' has 15 cards; expected "
                                        r"cards_per_colour = 14" % row):
        _load_with(tmp_path, "cards.csv", lambda t: t.replace("Capybara,blue,place,1,4", "Capybara,blue,place,1,5"))


def test_unknown_symbol_names_file_and_row(tmp_path):
    row = _row_of("strikes.csv", "Strike 4 double_tokens,")
    with pytest.raises(UserError, match=r"strikes\.csv, row %d: .*unknown value 'x3'" % row):
        _load_with(tmp_path, "strikes.csv", lambda t: t.replace("4,double_tokens,", "4,x3,"))


def test_unknown_symbol_in_the_module_names_the_key():
    with pytest.raises(UserError, match=r"key 'symbols': unknown symbol 'crown_triple'"):
        GAME_DATA.load(overrides={"symbols": ["crown_peek", "crown_triple"]})


def test_unknown_card_colour_names_file_and_row(tmp_path):
    row = _row_of("cards.csv", "Copybara,yellow,")
    with pytest.raises(UserError, match=r"cards\.csv, row %d: unknown colour 'purple'" % row):
        _load_with(tmp_path, "cards.csv", lambda t: t.replace("Copybara,yellow,", "Copybara,purple,"))


def test_a_coloured_capybaranka_is_refused(tmp_path):
    with pytest.raises(UserError, match=r"cards\.csv, row \d+: effect 'cancel'"):
        _load_with(tmp_path, "cards.csv", lambda t: t.replace("Capybaranka,,cancel", "Capybaranka,red,cancel"))


def test_a_placing_card_needs_an_amount(tmp_path):
    row = _row_of("cards.csv", "Capybarricade,red,")
    with pytest.raises(UserError, match=r"cards\.csv, row %d: effect 'place' places tokens" % row):
        _load_with(tmp_path, "cards.csv", lambda t: t.replace("Capybarricade,red,place,2", "Capybarricade,red,place,0"))


def test_banned_colour_strike_must_name_a_colour(tmp_path):
    row = _row_of("strikes.csv", "Strike 3 banned_colour blue,")
    with pytest.raises(UserError, match=r"strikes\.csv, row %d: a banned_colour strike names one of the colours"
                                        % row):
        _load_with(tmp_path, "strikes.csv", lambda t: t.replace("banned_colour,blue,", "banned_colour,,"))


def test_wrong_number_of_strikes_names_the_file(tmp_path):
    with pytest.raises(UserError, match=re.escape("41 strike cards; expected strike_cards = 40")):
        _load_with(tmp_path, "strikes.csv", lambda t: t.replace("Strike 5,5,none,,3", "Strike 5,5,none,,4"))


def test_a_deal_larger_than_the_deck_names_the_hand_size():
    with pytest.raises(UserError, match=r"key 'hand_size': with 6 players the deal"):
        GAME_DATA.load(overrides={"hand_size": 11})


@pytest.mark.parametrize("file,row_start", [("cards.csv", "Capybarge,green,"), ("strikes.csv", "Strike 3 plus_one,")])
def test_an_active_flag_other_than_0_or_1_names_file_row_and_column(tmp_path, file, row_start):
    row = _row_of(file, row_start)
    lines = (GAME_DATA.data_dir / file).read_text().splitlines()
    lines[row - 1] = lines[row - 1][:-len(",1")] + ",2"
    with pytest.raises(UserError, match=r"column 'active' must be <= 1, got 2") as e:
        _load_with(tmp_path, file, lambda t: "\n".join(lines) + "\n")
    assert e.value.file.endswith(file) and e.value.row == row


def test_a_table_without_the_active_column_plays_every_row(tmp_path):
    # a designer's older table without the column: every row is active
    def drop(text):
        return "\n".join(line.rsplit(",", 1)[0] for line in text.splitlines()) + "\n"
    rs = _load_with(tmp_path, "cards.csv", drop)
    assert "active" not in (tmp_path / "cards.csv").read_text().splitlines()[0]
    assert all(r["active"] == 1 for r in rs.tables["cards"])


def test_a_knockout_edit_switches_every_colour_of_the_named_card():
    rs = GAME_DATA.load(edits=[{"table": "cards", "where": {"name": "Capybara"}, "set": {"active": 0}}])
    off = {design_key(r) for r in rs.tables["cards"] if not r["active"]}
    assert off == {f"{c} Capybara" for c in rs["colours"]}
