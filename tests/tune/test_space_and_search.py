"""The decision space and the search's deterministic order (no games played)."""
from __future__ import annotations

from experiments.tune.config import parse_tune
from experiments.tune.output import data_folder
from experiments.tune.search import neighbours, rungs
from experiments.tune.space import build_space, load_candidate
from simcore.games import get_game

from .kit import BASE, SMALL

VARS = """
[[variables]]
param = "market_costs"
index = 2
min = 1
max = 5
step = 1
[[variables]]
table = "cards"
where = { name = "Artigli" }
column = "strength"
min = 2
max = 6
step = 2
[targets]
faction_gap = 3
"""


def _space(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(BASE + VARS + SMALL)
    return build_space(parse_tune(path.read_text(), str(path)))


def test_allowed_values_are_current_plus_whole_steps_inside_the_bounds(tmp_path):
    space = _space(tmp_path)
    assert space.current == (3, 4)                       # market_costs[2] and Artigli's printed strength
    assert space.values == ((1, 2, 3, 4, 5), (2, 4, 6))
    assert space.steps((5, 2)) == (2, -1) and space.changed((5, 2)) == 2 and space.distance((5, 2)) == 3
    assert space.moved((3, 6), 1, 1) is None and space.moved((3, 6), 0, -1) == (2, 6)


def test_neighbours_change_one_more_value_nearest_first_in_config_order(tmp_path):
    space = _space(tmp_path)
    assert neighbours(space, [space.current]) == [(2, 4), (4, 4), (3, 2), (3, 6), (1, 4), (5, 4)]
    assert neighbours(space, [(2, 4)]) == [(2, 2), (2, 6)]


def test_rungs_grow_by_eta_and_end_at_the_top():
    assert rungs(1000, 9000, 3) == [1000, 3000, 9000]
    assert rungs(2000, 20000, 3) == [2000, 6000, 18000, 20000]
    assert rungs(500, 500, 3) == [500]


def test_a_candidate_changes_one_list_item_and_one_card_cell(tmp_path):
    space = _space(tmp_path)
    rs = load_candidate(space, (5, 6))
    assert rs.params["market_costs"] == (1, 2, 5, 4, 5, 6)
    assert next(r for r in rs.tables["cards"] if r["name"] == "Artigli")["strength"] == 6
    assert space.diff((5, 4)) == ["market_costs[2] 3 -> 5"]


def test_the_data_folder_holds_only_changed_files_and_loads_to_the_candidate(tmp_path):
    space = _space(tmp_path)
    folder = tmp_path / "data"
    assert data_folder(space, (5, 6), folder) == ["params.toml", "cards.csv"]
    rs = get_game("evolversi").data.load("default", data_dir=folder)
    want = load_candidate(space, (5, 6))
    assert rs.params == want.params
    assert [r["strength"] for r in rs.tables["cards"]] == [r["strength"] for r in want.tables["cards"]]
    artigli = next(r for r in rs.tables["cards"] if r["name"] == "Artigli")
    assert "strength" not in artigli["printed"].split(";")     # the tuned value is ours, not the rulebook's
    folder2 = tmp_path / "data2"
    assert data_folder(space, (5, 4), folder2) == ["params.toml"]


def test_shipped_tuning_configs_are_valid():
    from pathlib import Path

    from experiments.tune.config import load_tune
    shipped = sorted((Path(__file__).resolve().parents[2] / "experiments" / "configs").glob("tune_*.toml"))
    assert shipped
    for path in shipped:
        space = build_space(load_tune(path))
        assert all(len(v) > 1 for v in space.values)
