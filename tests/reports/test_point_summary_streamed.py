"""`balancelab run`'s summary is aggregated from a lazy scan of the chunk files (flat memory):
it must equal the summary of the same rows loaded eagerly, and the histogram-based mean and
sd of the rounds must equal numpy's over every game."""
import math

import numpy as np
import polars as pl
import pytest

from reports.measures.metrics import point_summary


def _rows(n: int, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    players = 3
    winner = rng.integers(0, players, n)
    cols = {"game": np.arange(n), "players": np.full(n, players), "rounds": rng.integers(5, 15, n),
            "end_reason": rng.choice(["track", "stalled"], n, p=[0.9, 0.1])}
    for s in range(players):
        cols[f"s{s}_share"] = (winner == s).astype(float)
        cols[f"s{s}_score"] = rng.integers(0, 20, n)
        cols[f"s{s}_faction"] = rng.choice(["Panda", "Koala", "Ape"], n)
        cols[f"s{s}_bot"] = np.full(n, "greedy" if s == 0 else "random")
    return pl.DataFrame(cols)


def test_summary_of_a_lazy_scan_of_chunks_equals_the_eager_summary(tmp_path):
    chunks = [_rows(700, k) for k in range(3)]
    for k, c in enumerate(chunks):
        c.write_parquet(tmp_path / f"chunk-{k}.parquet")
    eager = point_summary(pl.concat(chunks))
    lazy = point_summary(pl.scan_parquet(sorted(tmp_path.glob("*.parquet"))))
    assert lazy == eager
    rounds = pl.concat(chunks)["rounds"].to_numpy().astype(float)
    assert eager["games"] == 2100
    assert math.isclose(eager["mean_rounds"], rounds.mean())
    assert math.isclose(eager["sd_rounds"], rounds.std(ddof=1))
    assert eager["end_reasons"]["stalled"] == int((pl.concat(chunks)["end_reason"] == "stalled").sum())


def test_summary_refuses_a_scan_of_several_points(tmp_path):
    rows = pl.concat([_rows(50, 1).with_columns(point=pl.lit(0)), _rows(50, 2).with_columns(point=pl.lit(1))])
    rows.write_parquet(tmp_path / "two.parquet")
    with pytest.raises(ValueError, match="one point"):
        point_summary(pl.scan_parquet(tmp_path / "two.parquet"))
