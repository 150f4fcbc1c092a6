"""The adjusted association (reports/measures/impact.py) against a planted truth with a planted confounder.

Synthetic seat-games: each seat acquires k entities in all (1..8); a seat with more
acquisitions is more likely to hold each entity (P = k/10) AND wins more (+5 pp per
acquisition). "Planted" adds a true +8 pp to its holder's win chance; "Decoy" adds nothing.
The raw holders-vs-non-holders difference is then biased upwards by about +10.6 pp
(holders acquired 5.7 entities on average, non-holders 3.5); within strata of equal k the
bias is gone.
"""
import numpy as np
import polars as pl
import pytest

from reports.measures.impact import ADJUSTED_LABEL, adjusted_association, bots_impact

TRUE_EFFECT = 0.08
PER_ACQUISITION = 0.05


def planted_games(seed: int, n: int = 20_000, seats: int = 4, effect_by_bot: dict | None = None) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    cols = {"game": np.arange(n), "players": np.full(n, seats)}
    for s in range(seats):
        bot = "greedy" if s % 2 == 0 else "silly"
        effect = TRUE_EFFECT if effect_by_bot is None else effect_by_bot[bot]
        k = rng.integers(1, 9, n)
        planted = rng.random(n) < k / 10
        decoy = rng.random(n) < k / 10
        p_win = 0.05 + PER_ACQUISITION * k + effect * planted
        cols[f"s{s}_share"] = (rng.random(n) < p_win).astype(np.float32)
        cols[f"s{s}_bot"] = [bot] * n
        cols[f"s{s}_acquired"] = k.astype(np.int16)
        cols[f"s{s}_has_0"] = planted
        cols[f"s{s}_has_1"] = decoy
    return pl.DataFrame(cols)


NAMES = {"Planted": [0], "Decoy": [1]}


@pytest.fixture(scope="module")
def table():
    df = adjusted_association(planted_games(11), NAMES)
    return {r["entity"]: r for r in df.iter_rows(named=True)}


def test_the_raw_association_is_biased_by_the_confounder(table):
    r = table["Planted"]
    assert r["raw_low"] > TRUE_EFFECT + 0.05          # about +18.6 pp: the planted 8 plus the confounder's 10.6
    d = table["Decoy"]
    assert d["raw_low"] > 0.05                        # a card with no effect looks strong


def test_the_adjusted_association_recovers_the_planted_effect_within_its_interval(table):
    r = table["Planted"]
    assert r["ci_low"] < TRUE_EFFECT < r["ci_high"]
    assert r["ci_low"] > 0 and r["label"] == ADJUSTED_LABEL
    d = table["Decoy"]
    assert d["ci_low"] < 0 < d["ci_high"] and not d["excludes_zero"]


def test_the_adjusted_interval_covers_the_truth_in_most_replicates():
    # 95% intervals corrected for 2 entities: expect about 97.5% coverage; 20 replicates, allow 2 misses.
    hits = 0
    for seed in range(20):
        r = adjusted_association(planted_games(100 + seed, n=4000), NAMES).filter(pl.col("entity") == "Planted").row(0, named=True)
        hits += r["ci_low"] < TRUE_EFFECT < r["ci_high"]
    assert hits >= 18


def test_an_entity_whose_sign_differs_between_bots_is_flagged_only_when_both_intervals_exclude_zero():
    games = planted_games(12, effect_by_bot={"greedy": 0.15, "silly": -0.15}).with_columns(point=pl.lit(0))
    points = [{"index": 0, "labels": {"players": "4", "bots": "greedy,silly,greedy,silly"},
               "bots": ["greedy", "silly", "greedy", "silly"], "ablated": None, "base": None}]
    df = bots_impact(games, points, 0, NAMES)
    planted = df.filter(pl.col("entity") == "Planted")
    assert set(planted["bot"]) == {"greedy", "silly"} and planted["sign_differs"].all()
    assert not df.filter(pl.col("entity") == "Decoy")["sign_differs"].any()
    # The same opposite signs with too few games for clear intervals: no flag.
    small = planted_games(13, n=150, effect_by_bot={"greedy": 0.15, "silly": -0.15}).with_columns(point=pl.lit(0))
    df_small = bots_impact(small, points, 0, NAMES).filter(pl.col("entity") == "Planted")
    assert not df_small["excludes_zero"].all() and not df_small["sign_differs"].any()
