"""The report's "Luck and skill" section from sweep points that differ in one seat's bot."""
from __future__ import annotations

import numpy as np
import pytest

from reports.measures import luck as L
from reports.page.luck import build, seat_pairs


def _pt(i, bots, **labels):
    return {"index": i, "labels": {**labels, "players": "3", "bots": ",".join(bots)}}


def test_points_one_seat_apart_pair_up_and_pool_over_seats():
    pts = [_pt(0, ["r", "r", "r"]), _pt(1, ["g", "r", "r"]), _pt(2, ["r", "g", "r"]),
           _pt(3, ["g", "g", "r"]),                                  # two seats from the mirror
           _pt(4, ["g", "r", "r"], v="x"), {**_pt(5, ["r", "r", "r"]), "ablated": "Ali"}]
    pairs = seat_pairs(pts)
    mirror = pairs[((("players", "3"),), "g", "r", "r")]
    assert sorted(mirror) == [(0, 1, 0), (1, 2, 0)]
    # point 3 pairs with 1 and 2 (one seat apart) against a mixed field; never with the mirror
    assert all(0 not in (pa, pb) for key, v in pairs.items() if key[3] != "r" for _, pa, pb in v)
    assert not any(4 in (pa, pb) or 5 in (pa, pb) for v in pairs.values() for _, pa, pb in v)


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory):
    from experiments import cli
    folder = tmp_path_factory.mktemp("luck-sweep")
    path = folder / "luck.toml"
    path.write_text('ruleset = "evolversi"\nplayers = 3\ngames = 300\nseed = 3\nbatch_size = 300\n'
                    '[[grid]]\nbots = ["random", ["greedy", "random", "random"], ["random", "random", "greedy"]]\n')
    assert cli.main(["sweep", str(path), "--out", str(folder / "run")]) == 0
    return folder / "run"


def test_sweep_luck_is_the_same_decomposition_as_balancelab_luck(small_sweep):
    from experiments.luck import play_luck
    from experiments.store import open_run
    from simcore.games import get_game
    run = open_run(small_sweep)
    found = build(run.games(), run.manifest["points"], {}, bootstrap=200, seed=3)
    assert len(found) == 1 and found[0]["bots"] == ["greedy", "random"] and found[0]["field"] == "random"
    played = play_luck(get_game("evolversi").data.load(), "greedy,random", players=3, games=300, seed=3)
    direct = L.decompose(played.y[:, [0, 2], :], ["greedy", "random"], bootstrap=200, seed=3)
    assert found[0]["shares"] == direct["shares"] and found[0]["seats"] == 2


def test_report_has_the_luck_section_when_the_run_has_the_pairs(small_sweep):
    from experiments import cli
    assert cli.main(["report", str(small_sweep)]) == 0
    html = (small_sweep / "report.html").read_text()
    assert 'id="luck"' in html and "greedy against random at seats 0, 2, other seats random" in html


def test_no_section_without_one_seat_pairs():
    assert build(None, [_pt(0, ["g", "g"]), _pt(1, ["r", "r"])], {}) == []
