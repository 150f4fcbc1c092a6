"""Every game: a broken data file gives one line naming the file, row or key; exit 2; no traceback.

The corruptions are made from each game's own schemas, so a new game's tables are covered
with no new test code.
"""
import csv
import shutil
import subprocess
import sys

import pytest

from simcore.games import GAMES, get_game


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def _tables(game):
    data = get_game(game).data
    return [(name, schema) for name, schema in data.schemas.items() if (data.data_dir / schema.file).exists()]


def _first_int_column(schema):
    return next((c for c in schema.columns if c.kind is int), None)


def _assert_one_clear_line(proc, *must_name):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in must_name:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("game", GAMES)
def test_a_non_number_in_a_number_column_names_file_row_and_column(game, tmp_path):
    name, schema = next((n, s) for n, s in _tables(game) if _first_int_column(s) is not None)
    col = _first_int_column(schema)
    src = get_game(game).data.data_dir / schema.file
    with open(src, newline="") as f:
        table = list(csv.reader(f))
    table[1][table[0].index(col.name)] = "lots"
    mine = tmp_path / "mine"
    mine.mkdir()
    with open(mine / schema.file, "w", newline="") as f:
        csv.writer(f).writerows(table)
    proc = _cli("run", game, "--data", str(mine), "--games", "10", "--out", str(tmp_path / "out"), cwd=tmp_path)
    _assert_one_clear_line(proc, schema.file, "row 2", col.name)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_column_is_named(game, tmp_path):
    name, schema = _tables(game)[0]
    src = get_game(game).data.data_dir / schema.file
    with open(src, newline="") as f:
        table = list(csv.reader(f))
    required = next(c.name for c in schema.columns if c.required and c.name != "source")
    drop = table[0].index(required)
    mine = tmp_path / "mine"
    mine.mkdir()
    with open(mine / schema.file, "w", newline="") as f:
        csv.writer(f).writerows([r[:drop] + r[drop + 1:] for r in table])
    _assert_one_clear_line(_cli("run", game, "--data", str(mine), "--games", "5", cwd=tmp_path),
                           schema.file, required)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_parameter_is_named(game, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(get_game(game).data.data_dir / "params.toml", mine / "params.toml")
    with open(mine / "params.toml", "a") as f:
        f.write("\n[params.no_such_rule_number]\nvalue = 3\nsource = \"default\"\n")
    _assert_one_clear_line(_cli("run", game, "--data", str(mine), "--games", "5", cwd=tmp_path),
                           "no_such_rule_number")


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_bot_is_named(game, tmp_path):
    _assert_one_clear_line(_cli("run", game, "--bots", "nobody", "--games", "5", cwd=tmp_path), "nobody")


def _every_table():
    return [(game, name) for game in GAMES for name, _ in _tables(game)]


def test_every_table_of_every_game_names_what_identifies_a_row():
    """The one rule for all four games: each table declares the columns no two rows may share."""
    missing = [(game, name) for game, name in _every_table() if not get_game(game).data.schemas[name].identity()]
    assert missing == []


@pytest.mark.parametrize("game, name", _every_table())
def test_a_duplicated_row_is_refused_naming_file_and_row(game, name, tmp_path):
    from simcore.errors import UserError
    schema = get_game(game).data.schemas[name]
    src = get_game(game).data.data_dir / schema.file
    lines = src.read_text(encoding="utf-8").splitlines()
    mine = tmp_path / "mine"
    (mine / schema.file).parent.mkdir(parents=True)
    (mine / schema.file).write_text("\n".join(lines + [lines[1]]) + "\n", encoding="utf-8")
    with pytest.raises(UserError) as err:
        get_game(game).data.load("default", data_dir=mine)
    assert err.value.file.endswith(schema.file) and err.value.row == len(lines) + 1
    assert "duplicate" in err.value.message and "also on row 2" in err.value.message
