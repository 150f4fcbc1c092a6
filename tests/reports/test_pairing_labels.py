"""Every paired comparison of a real sweep carries its pairing figures and says what it may claim.

A removal that takes a card out of the deck reshuffles every game, so the "same games without
it" are different games: the report must call its result an association. A sweep point whose
value equals the reference's plays the very same games (touched 0%, causal); one that changes a
rule touches some share of the games, reported as such.
"""
from __future__ import annotations

import polars as pl
import pytest

from reports.page.html import build_context
from reports.measures.pairing import point_pairings

REMOVAL = """
name = "removal-pairing"
ruleset = "evolversi"
players = 4
games = 300
seed = 4
batch_size = 300

[[grid]]
param = "fourth_card_space"
values = [4, 4, 3]
labels = ["4", "4 again", "3"]

[ablation]
kind = "removal"
entities = ["Vampirismo"]
"""


@pytest.fixture(scope="module")
def removal_run(tmp_path_factory):
    from experiments.store import open_run
    from experiments.sweep import run_sweep
    folder = tmp_path_factory.mktemp("removal")
    (folder / "c.toml").write_text(REMOVAL)
    return open_run(run_sweep(folder / "c.toml", folder / "run", jobs=1))


def test_a_removal_that_reshuffles_the_decks_is_labelled_association_only(removal_run):
    ctx = build_context(removal_run.manifest, removal_run.games(), removal_run.tallies())
    rows = [r for r in ctx["ablation"] if r["base"] == 0]
    assert len(rows) == 1 and rows[0]["kind"] == "removal"
    r = rows[0]
    assert not r["holds"] and r["identical_unused"] < 0.99 and r["unused_games"] > 0
    assert r["label"].startswith("association only: the games are not the same games")
    texts = [f["text"] for f in ctx["findings"] if "Vampirismo" in f["text"]]
    assert texts and all("not a causal estimate" in t for t in texts)


def test_sweep_points_report_the_share_of_games_they_touched(removal_run):
    pr = point_pairings(removal_run.games(), removal_run.points, 0, ["fourth_card_space"])
    sweep = {r["point"]: r for r in pr.filter(pl.col("kind") == "sweep").iter_rows(named=True)}
    assert set(sweep) == {1, 2} and all(r["against"] == 0 for r in sweep.values())
    assert sweep[1]["changed"] == 0.0 and sweep[1]["holds"] and sweep[1]["label"].startswith("causal")
    assert 0 < sweep[2]["changed"] < 1
