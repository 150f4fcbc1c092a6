"""Each data value has one source: a row's `printed` columns are rulebook values, the rest
take the row's `source`, so the count of rulebook vs default values is exact (and checked)."""
import pytest

from simcore.errors import UserError
from simcore.games.evolversi.schema import DATA_DIR, GAME_DATA, NOT_VALUES, TABLES, printed, value_sources

RS = GAME_DATA.load()


def _row(table, name):
    return next(r for r in RS.tables[table] if r["name"] == name)


def test_a_mixed_row_gives_its_printed_values_the_rulebook_and_the_rest_its_source():
    rapina = _row("cards", "Rapina")
    assert rapina["source"] == "default"
    assert set(printed(rapina)) == {"fury", "effect", "amount", "target", "more"}
    assert printed(_row("cards", "Istinto")) == []             # an own card: every value ours


def test_the_value_count_is_row_by_column_exact():
    counts = value_sources(RS)
    for table, schema in TABLES.items():
        columns = [c for c in schema.names() if c not in NOT_VALUES]
        rows = RS.tables[table]
        assert sum(counts[table].values()) == len(rows) * len(columns)
        expected_rulebook = sum(len(columns) if r["source"] == "rulebook" else len(printed(r)) for r in rows)
        assert counts[table]["rulebook"] == expected_rulebook
    assert counts["cards"]["rulebook"] >= 5 + 4           # Rapina's 5 printed values, Falso Pollice's 4, ...


def _edited(tmp_path, name, column, value):
    text = (DATA_DIR / "cards.csv").read_text()
    import csv, io
    rows = list(csv.reader(io.StringIO(text)))
    i = rows[0].index(column)
    for r in rows[1:]:
        if r[0] == name:
            r[i] = value
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    (tmp_path / "cards.csv").write_text(buf.getvalue())
    return tmp_path


@pytest.mark.parametrize("name,column,value,message", [
    ("Rapina", "printed", "fury;colour", "printed names 'colour', not a value column"),
    ("Rapina", "printed", "fury;fury", "printed names a column twice"),
    ("Rapina", "source", "rulebook", "source is already rulebook"),
    ("Rapina", "printed", "text", "printed names 'text', not a value column"),
])
def test_a_bad_printed_list_is_a_user_error_naming_the_row(tmp_path, name, column, value, message):
    with pytest.raises(UserError, match=message) as e:
        GAME_DATA.load(data_dir=_edited(tmp_path, name, column, value))
    assert e.value.row is not None and "cards.csv" in str(e.value.file)
