"""A sweep config's `[target]`: flow metrics (and tune's other targets) mark and rank the points.

The planted check: Evolversi's `runaway-leader` variant (the sole track leader moves one more
space every round) against the printed rules, with a target on lead changes: the printed
rules meet it, the runaway variant misses it, both by their whole 95% intervals.
"""
from __future__ import annotations

import textwrap

import polars as pl
import pytest

from experiments import api, cli
from experiments.config import parse_config
from reports.measures.targets import FLOW_TARGETS, TARGETS
from reports.measures.targets import rank_points
from reports.page.targets import NO_TRAJECTORIES, build
from simcore.errors import UserError

BASE = """
ruleset = "evolversi"
players = 4
bots = "greedy"
games = 1500
seed = 17
batch_size = 1500
"""


def test_a_flow_target_turns_trajectories_on_and_leaves_the_games_digest_of_a_trajectories_run():
    with_target = parse_config(BASE + "[target]\nlead_changes = [1.0, 3.0]\n")
    assert with_target.trajectories and with_target.target == {"lead_changes": (1.0, 3.0)}
    plain = parse_config(BASE + "trajectories = true\n")
    assert with_target.digest() == plain.digest()            # the target decides no game
    assert with_target.resolved()["target"] == {"lead_changes": [1.0, 3.0]}
    assert not parse_config(BASE + "[target]\nfaction_gap = 5.0\n").trajectories


@pytest.mark.parametrize("extra, key, words", [
    ("[target]\nlead_change = 2.0\n", "target.lead_change", "no such metric"),
    ("trajectories = false\n[target]\ndrama = 2.0\n", "target.drama", "needs trajectories"),
    ("[target]\nlead_changes = [3.0]\n", "target.lead_changes", "[low, high]"),
    ("[target]\ndecisiveness = [0.9, 0.2]\n", "target.decisiveness", "low must not exceed high"),
    ("[target]\n", "target", "names no target"),
    ("target = 'lead_changes'\n", "target", "must be a table"),
])
def test_bad_target_is_one_user_error_naming_the_key(extra, key, words):
    with pytest.raises(UserError) as e:
        parse_config(BASE + extra, "flow.toml")
    assert e.value.key == key and words in e.value.message and e.value.file == "flow.toml"
    if words == "no such metric":
        assert all(name in e.value.message for name in list(FLOW_TARGETS) + list(TARGETS))


def test_flow_target_on_a_game_without_trajectories_names_the_key(monkeypatch):
    """Every shipped game records trajectories; a game that does not (standing_label None) is
    refused a flow target, naming the key and the games that can."""
    from simcore.games import get_game
    monkeypatch.setattr(get_game("evo"), "standing_label", None)
    with pytest.raises(UserError) as e:
        parse_config(BASE.replace('"evolversi"', '"evo"').replace('bots = "greedy"\n', "")
                     + "[target]\ncomeback = 5.0\n")
    assert e.value.key == "target.comeback" and "do not record yet" in e.value.message and "evolversi" in e.value.message


def test_cli_sweep_with_an_unknown_target_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(BASE + "[target]\nlead_chnages = 2.0\n")
    assert cli.main(["sweep", str(path), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "target.lead_chnages" in err and "lead_changes" in err
    assert not (tmp_path / "r").exists()


@pytest.fixture(scope="module")
def runaway_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flow-targets")
    path = folder / "flow.toml"
    path.write_text(BASE + textwrap.dedent("""
        [[grid]]
        variants = ["runaway-leader", "default"]
        [target]
        lead_changes = [1.0, 4.0]
        faction_gap = 100.0
    """))
    assert cli.main(["sweep", str(path), "--out", str(folder / "run")]) == 0
    return folder / "run"


def test_runaway_leader_misses_the_lead_change_target_the_printed_rules_meet(runaway_run):
    ranked = api.targets(runaway_run)
    assert ranked["label"].to_list()[0].startswith("variant = default")        # ranked first, though point 1
    best, worst = ranked.row(0, named=True), ranked.row(1, named=True)
    assert best["lead_changes_mark"] == "met" and best["lead_changes_low"] >= 1.0
    assert worst["lead_changes_mark"] == "missed" and worst["lead_changes_high"] < 1.0
    assert worst["lead_changes_high"] < best["lead_changes_low"]                 # intervals exclude equality
    assert best["faction_gap_mark"] == worst["faction_gap_mark"] == "met"
    assert best["shortfall"] == 0 and worst["shortfall"] > 0 and ranked["rank"].to_list() == [1, 2]


def test_report_shows_the_targets_section_and_prints_the_ranking(runaway_run, capsys):
    assert cli.main(["report", str(runaway_run)]) == 0
    out = capsys.readouterr().out
    assert "1. variant = default" in out and "missed" in out
    html = (runaway_run / "report.html").read_text()
    assert 'id="targets"' in html and "1 of 2 points meet every target" in html


def test_rows_without_trajectories_say_the_flow_target_was_not_measured(runaway_run):
    from experiments.store import open_run
    run = open_run(runaway_run)
    games = run.games()
    games = games.drop([c for c in games.columns if c.endswith("_standing")])
    labels = {0: "runaway", 1: "default"}
    ranked = rank_points(games, run.tallies(), [0, 1], labels, {"lead_changes": (1.0, 4.0)})
    assert set(ranked["lead_changes_mark"].to_list()) == {"not measured"}
    section = build(games, run.tallies(), [0, 1], labels, {"lead_changes": [1.0, 4.0]})
    assert section["notes"] == [NO_TRAJECTORIES]
