"""Loading rulesets: variants, overrides, designer folders, stable hashes, clear errors."""
import pickle
import shutil

import pytest

from simcore.errors import UserError
from simcore.games.evolversi.schema import GAME_DATA


def test_default_ruleset_has_a_stable_hash():
    assert GAME_DATA.load().hash == GAME_DATA.load().hash


def test_override_changes_the_value_and_the_hash():
    base = GAME_DATA.load()
    rs = GAME_DATA.load(overrides=["track_length=25"])
    assert rs["track_length"] == 25 and rs.hash != base.hash


def test_variant_overlays_parameters():
    rs = GAME_DATA.load("advanced-genetics")
    assert rs["modules"] == ("base", "advanced")


def test_every_row_and_parameter_has_a_source():
    rs = GAME_DATA.load()
    for name, rows in rs.tables.items():
        assert all(r["source"] in ("rulebook", "inferred", "default") for r in rows), name
    assert all(p.source in ("rulebook", "inferred", "default") for p in rs.specs.values())


def test_ruleset_survives_pickling_for_worker_processes():
    rs = GAME_DATA.load(overrides={"track_length": 30})
    back = pickle.loads(pickle.dumps(rs))
    assert back.hash == rs.hash and back["track_length"] == 30


def test_designer_folder_replaces_only_the_files_it_holds(tmp_path):
    shutil.copy(GAME_DATA.data_dir / "cards.csv", tmp_path / "cards.csv")
    text = (tmp_path / "cards.csv").read_text().replace("Vampirismo,evolution,,2,2,2", "Vampirismo,evolution,,2,5,2")
    (tmp_path / "cards.csv").write_text(text)
    rs = GAME_DATA.load(data_dir=tmp_path)
    assert [r["strength"] for r in rs.tables["cards"] if r["name"] == "Vampirismo"] == [5]
    assert rs.files["animals"].endswith("simcore/games/evolversi/data/animals.csv")


@pytest.mark.parametrize("edit, message", [
    ({"table": "cards", "where": {"name": "Nope"}, "set": {"copies": 0}}, "no row of cards.csv"),
    ({"table": "cards", "where": {"name": "Vampirismo"}, "set": {"strength": -1}}, "must be >= 0"),
    ({"table": "cardz", "where": {}, "set": {"copies": 0}}, "unknown table"),
])
def test_bad_table_edits_name_what_is_wrong(edit, message):
    with pytest.raises(UserError, match=message):
        GAME_DATA.load(edits=[edit])
