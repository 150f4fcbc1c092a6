"""Blind spots (experiments/blind_spots.py, reports/measures/blind_spots.py): a rule change that
changes most games is touched, one that changes nothing is a blind spot; every shipped
variant's changed parameters are listed."""
from __future__ import annotations

import polars as pl
import pytest

from experiments import blind_spots as B
from reports.measures.blind_spots import blind_spots_text, spots
from simcore.games import get_game


def test_rule_changes_lists_each_parameter_a_shipped_variant_changes():
    rs = get_game("evolution").data.load()
    changes = B.rule_changes("evolution", rs)
    assert ("second-printing", "hard_shell_bonus", 4) in changes
    assert all(rs.params[p] != v for _, p, v in changes)
    assert {v for v, _, _ in changes} == set(rs.variants) - {"default"}


def test_a_change_that_moves_every_game_is_touched_and_a_no_op_is_a_blind_spot(monkeypatch):
    rs = get_game("capybara").data.load()
    same = rs.params["strikes_extra"]
    monkeypatch.setattr(B, "rule_changes", lambda game, rs: [("additional-rules", "strikes_extra", same + 2),
                                                              ("boxed-last-resolves", "strikes_extra", same)])
    table = B.blind_spots(rs, ["greedy"], players=3, games=60, seed=1)
    rules = {r["name"]: r["share"] for r in table.filter(pl.col("kind") == "rule").iter_rows(named=True)}
    assert rules[f"additional-rules: strikes_extra = {same + 2}"] > 0.5
    assert rules[f"boxed-last-resolves: strikes_extra = {same}"] == 0.0
    listed = spots(table)["name"].to_list()
    assert f"boxed-last-resolves: strikes_extra = {same}" in listed and f"additional-rules: strikes_extra = {same + 2}" not in listed
    entities = table.filter(pl.col("kind") == "entity")
    assert entities.filter(pl.col("rules") == "default").height == len(set(get_game("capybara").entities(rs)))
    assert entities["touched"].max() > 0


def test_an_entity_is_a_blind_spot_only_if_every_bot_misses_it():
    table = pl.DataFrame({"kind": ["entity"] * 6, "name": ["a", "a", "b", "b", "c", "c"],
                          "bot": ["x", "y"] * 3, "games": [100] * 6, "touched": [1, 30, 2, 4, 0, 0]}).with_columns(
        share=pl.col("touched") / pl.col("games"))
    out = spots(table)
    assert out["name"].to_list() == ["c", "b"] and out["best_bot"].to_list()[1] == "y"
    text = blind_spots_text(table)
    assert "b: at most 4.0% (y)" in text and "never acquired by any bot (1: " in text and text.endswith(
        "rests on almost no games.)")


@pytest.mark.parametrize("bots, kept", [(["greedy", "rollout", "script"], ["greedy"])])
def test_search_bots_and_scripts_are_left_out(bots, kept):
    assert B.shippable("capybara", bots) == kept


def test_an_entity_in_play_only_in_a_variant_is_counted_there():
    rs = get_game("evolversi").data.load()
    table = B.blind_spots(rs, ["greedy"], players=4, games=60, seed=2)
    ent = table.filter(pl.col("kind") == "entity")
    default = dict(ent.filter(pl.col("rules") == "default").select("name", "share").iter_rows())
    advanced = dict(ent.filter(pl.col("rules") == "advanced-genetics").select("name", "share").iter_rows())
    module_only = [n for n, v in advanced.items() if v >= 0.05 and default.get(n, 0) == 0]
    assert module_only                                  # the advanced module's cards
    listed = spots(table)["name"].to_list()
    assert not set(module_only) & set(listed)
