"""Planted truths every game with a rarely used entity shares: the knockout of an entity the
greedy players seldom use still pairs its games (tests/planted_kit.py, check_rare_knockout).
The entity, the table size and the measured shares are the game's facts
(tests/data/games/<game>.toml, [planted_rare]); each game's stronger-card and decoy checks,
which need a bot of their own, are beside its engine's tests."""
import pytest

from tests.planted_kit import check_rare_knockout, rare_config, sweep

from .kit import facts, games_with


@pytest.mark.parametrize("game", games_with("planted_rare"))
def test_rare_entity_knockout_pairs_90pct(game, tmp_path):
    fact = facts(game)["planted_rare"]
    run = sweep(tmp_path, rare_config(game, fact["players"], fact["entity"]))
    check_rare_knockout(run, fact["entity"], max_used_share=fact["max_used_share"])
