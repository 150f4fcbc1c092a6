"""The answer's "clear difference" is paired: the best setting against the reference, measured on
the same game indices (reports.measures.answer), and the answer's sentence is rendered from that
one row.

Planted: the same games at two settings, where at the second one a quarter of the favourite
faction's wins go to the weakest faction instead. Faction win rates 40/25/20/15% become
30/25/20/25%: balance 0.75 becomes 0.90, a known difference of +0.15.
"""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from reports.measures import answer as A
from reports.page import findings as F

FACTIONS = ["a", "b", "c", "d"]
WINNER_ODDS = [0.40, 0.25, 0.20, 0.15]      # the chance that the seat dealt each faction wins
MOVED = 0.25                                # share of a's wins that go to d at the second setting
PLANTED = 0.15                              # balance 0.90 - 0.75
GAMES = 3000


def _frame(point: int, dealt: np.ndarray, winner: np.ndarray) -> pl.DataFrame:
    """Per-game rows as a run stores them: seat s is dealt faction dealt[g, s]; the seat dealt
    faction winner[g] wins."""
    cols = {"point": np.full(len(winner), point, np.int32), "game": np.arange(len(winner)),
            "players": np.full(len(winner), 4)}
    for s in range(4):
        cols[f"s{s}_faction"] = [FACTIONS[f] for f in dealt[:, s]]
        cols[f"s{s}_share"] = (dealt[:, s] == winner).astype(float)
    return pl.DataFrame(cols)


def planted_pair(seed: int, games: int = GAMES) -> tuple[pl.DataFrame, pl.DataFrame]:
    rng = np.random.default_rng(seed)
    dealt = np.argsort(rng.random((games, 4)), axis=1)            # every faction once per game
    winner = rng.choice(4, size=games, p=WINNER_ODDS)
    moved = np.where((winner == 0) & (rng.random(games) < MOVED), 3, winner)
    return _frame(0, dealt, winner), _frame(1, dealt, moved)


def test_the_balance_tallies_give_the_headline_balance():
    from reports.measures.metrics import balance
    a, _ = planted_pair(0)
    wins, seats = A.faction_tallies(a, FACTIONS)
    assert A.balance_of(wins.sum(axis=0), seats.sum(axis=0)) == pytest.approx(balance(a)["balance"][0], abs=1e-12)


SEEDS = 12          # planted pairs; a 95% interval may miss now and then, rarely three times in 12
COVERED = 10


def test_the_paired_interval_covers_the_planted_difference_and_is_narrower_than_the_unpaired():
    covered = {"paired": 0, "unpaired": 0}
    for seed in range(SEEDS):
        a, b = planted_pair(seed, games=1000)
        row = A.balance_difference(a, b, holds=True, seed=seed)
        assert row["paired"] and (row["ci_low"], row["ci_high"]) == (row["paired_low"], row["paired_high"])
        covered["paired"] += row["paired_low"] < PLANTED < row["paired_high"]
        covered["unpaired"] += row["unpaired_low"] < PLANTED < row["unpaired_high"]
        assert row["paired_high"] - row["paired_low"] < 0.8 * (row["unpaired_high"] - row["unpaired_low"]), row
    assert min(covered.values()) >= COVERED, covered


def test_where_the_pairing_does_not_hold_the_comparison_is_unpaired_and_says_so():
    a, b = planted_pair(1)
    row = A.balance_difference(a, b, holds=False, seed=1)
    assert not row["paired"] and (row["ci_low"], row["ci_high"]) == (row["unpaired_low"], row["unpaired_high"])
    row.update(value=0.9, against_value=0.75, point=1)
    line = F.difference_line(row, "x = 2", "x = 1")
    assert "unpaired" in line and "paired over" not in line


def test_settings_with_different_games_are_never_paired():
    a, b = planted_pair(2)
    row = A.balance_difference(a, b.head(GAMES - 10), holds=True, seed=2)
    assert not row["paired"] and np.isnan(row["paired_low"])


def _head(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    from reports.measures.metrics import headline
    return headline(pl.concat([a, b]).with_columns(rounds=pl.lit(10), end_reason=pl.lit("score"),
                                                   **{f"s{s}_score": pl.lit(1) for s in range(4)})
                    ).with_columns(pl.col("point").cast(pl.Int32), x=pl.Series(["1", "2"]))


def test_the_answer_sentence_is_rendered_from_the_row():
    a, b = planted_pair(3)
    pairings = pl.DataFrame({"point": [1], "against": [0], "kind": ["sweep"], "holds": [True],
                             "label": ["causal (pairing holds)"]})
    head = _head(a, b)
    row = A.best_against_reference(head, pl.concat([a, b]), 0, pairings, seed=3)
    assert row["point"] == 1 and row["paired"] and row["clear"]
    assert row["value"] == head["balance"][1] and row["against_value"] == head["balance"][0]
    assert row["difference"] == pytest.approx(PLANTED, abs=0.04)
    answer = F.sweep_answer(head, "x", 0, {0: "x = 1", 1: "x = 2"}, {}, [], None, None, row)
    line = F.difference_line(row, "x = 2", "x = 1")
    assert answer["lines"][0] == line and answer["difference"] is row
    assert f"{row['difference']:+.2f} (95% CI {row['ci_low']:+.2f} to {row['ci_high']:+.2f}, paired over the same " \
           f"{GAMES:,} games): a clear gain" in line


def test_without_a_holding_pairing_the_answer_is_an_unpaired_comparison():
    a, b = planted_pair(4)
    pairings = pl.DataFrame({"point": [1], "against": [0], "kind": ["sweep"], "holds": [False],
                             "label": ["association only"]})
    row = A.best_against_reference(_head(a, b), pl.concat([a, b]), 0, pairings, seed=4)
    assert not row["paired"] and row["pairing"] == "association only"
    assert (row["ci_low"], row["ci_high"]) == (row["unpaired_low"], row["unpaired_high"])
