"""The knockout switch in the data: an `active` column (0/1, default 1) in every
entity table the adapter names in knockout_targets; a bad value is a UserError naming the
file, row and column; a knockout edit of an unknown entity names the edit."""
import csv

import pytest

from simcore.errors import UserError
from simcore.games.evolversi.adapter import GAME
from simcore.games.evolversi.schema import GAME_DATA

RS = GAME_DATA.load()


def test_every_entity_kind_names_a_table_whose_rows_carry_active_1_by_default():
    assert set(GAME.knockout_targets) == {"card", "animal", "event", "pressure"}
    for kind, (table, column) in GAME.knockout_targets.items():
        schema = GAME_DATA.schemas[table]
        assert column in schema.names() and "active" in schema.names(), kind
        assert [r["active"] for r in RS.tables[table]] == [1] * len(RS.tables[table]), kind


def _copy_without_active(src, dst):
    with open(src, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    i = rows[0].index("active")
    with open(dst, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([r[:i] + r[i + 1:] for r in rows])


@pytest.mark.parametrize("table", ["cards", "animals", "events", "pressure"])
def test_a_designers_table_without_the_active_column_plays_every_row_active(tmp_path, table):
    _copy_without_active(GAME_DATA.data_dir / f"{table}.csv", tmp_path / f"{table}.csv")
    rs = GAME_DATA.load(data_dir=tmp_path)
    assert all(r["active"] == 1 for r in rs.tables[table])
    assert rs.tables[table] == RS.tables[table]


@pytest.mark.parametrize("table", ["cards", "animals", "events", "pressure"])
@pytest.mark.parametrize("bad", ["2", "-1", "yes"])
def test_an_active_value_other_than_0_or_1_names_the_file_row_and_column(tmp_path, table, bad):
    with open(GAME_DATA.data_dir / f"{table}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    rows[2][rows[0].index("active")] = bad                     # the second data row: line 3
    with open(tmp_path / f"{table}.csv", "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    with pytest.raises(UserError) as err:
        GAME_DATA.load(data_dir=tmp_path)
    text = str(err.value)
    assert f"{table}.csv" in text and "row 3" in text and "'active'" in text


def test_an_edit_setting_active_to_2_is_refused_naming_the_column():
    with pytest.raises(UserError, match="'active' must be <= 1"):
        GAME_DATA.load(edits=[{"table": "cards", "where": {"name": "Rapina"}, "set": {"active": 2}}])


def test_a_knockout_of_an_unknown_card_names_the_edit():
    with pytest.raises(UserError, match="no row of cards.csv matches") as err:
        GAME_DATA.load(edits=[{"table": "cards", "where": {"name": "Rapinna"}, "set": {"active": 0}}])
    assert "edits[0].where" in str(err.value)


def test_knocking_out_a_shared_name_switches_off_every_row_of_it():
    rs = GAME_DATA.load(edits=[{"table": "cards", "where": {"name": "Istinto"}, "set": {"active": 0}}])
    rows = [r for r in rs.tables["cards"] if r["name"] == "Istinto"]
    assert len(rows) == 6 and all(r["active"] == 0 for r in rows)
    assert all(r["active"] == 1 for r in rs.tables["cards"] if r["name"] != "Istinto")


def test_active_is_a_switch_not_a_card_fact_so_it_has_no_source_of_its_own():
    from simcore.games.evolversi.schema import NOT_VALUES, value_sources
    assert "active" in NOT_VALUES
    rs = GAME_DATA.load(edits=[{"table": "cards", "where": {"name": "Rapina"}, "set": {"active": 0}}])
    assert value_sources(rs) == value_sources(RS)
