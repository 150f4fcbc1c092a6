"""Pairing figures (reports/measures/pairing.py) against planted truths."""
import math

import numpy as np
import polars as pl
import pytest

from reports.measures.pairing import PAIRED_MIN, describe, pairing


def frame(rng, n=2000, seats=4):
    winner = rng.integers(0, seats, n)
    cols = {"game": np.arange(n)}
    for s in range(seats):
        cols[f"s{s}_share"] = (winner == s).astype(np.float32)
        cols[f"s{s}_score"] = rng.integers(0, 12, n).astype(np.int16)
    return pl.DataFrame(cols)


def altered(df, rows, rng):
    """The same games, with the outcome of `rows` changed (the winner moved to another seat)."""
    out = {c: df[c].to_numpy().copy() for c in df.columns}
    seats = sum(c.endswith("_share") for c in df.columns)
    for r in rows:
        w = int(np.argmax([out[f"s{s}_share"][r] for s in range(seats)]))
        out[f"s{w}_share"][r] = 0
        out[f"s{(w + 1) % seats}_share"][r] = 1
    return pl.DataFrame(out)


def test_a_change_that_touches_two_percent_of_games_says_so():
    rng = np.random.default_rng(1)
    a = frame(rng)
    b = altered(a, rng.choice(a.height, 40, replace=False), rng)
    fig = pairing(a, b)
    assert fig["changed"] == pytest.approx(0.02)
    assert fig["identical_lo"] < 0.98 < fig["identical_hi"]
    assert fig["correlation"] > 0.9 and fig["holds"]


def test_different_games_are_not_paired():
    rng = np.random.default_rng(2)
    a, b = frame(rng), frame(rng)
    fig = pairing(a, b)
    assert abs(fig["correlation"]) < 0.1 and not fig["holds"]
    assert "NOT hold" in describe(fig) and "association" in describe(fig)


def test_a_knockout_that_changes_games_where_the_entity_was_unused_breaks_the_pairing():
    rng = np.random.default_rng(3)
    a = frame(rng)
    used = rng.random(a.height) < 0.3
    unused_rows = np.flatnonzero(~used)
    leak = rng.choice(unused_rows, int(0.05 * len(unused_rows)), replace=False)
    fig = pairing(a, altered(a, leak, rng), used)
    assert fig["identical_unused"] == pytest.approx(0.95, abs=0.002) and not fig["holds"]


def test_a_knockout_that_changes_only_games_where_the_entity_was_used_holds():
    rng = np.random.default_rng(4)
    a = frame(rng)
    used = rng.random(a.height) < 0.3
    fig = pairing(a, altered(a, np.flatnonzero(used)[::2], rng), used)
    assert fig["identical_unused"] == 1.0 >= PAIRED_MIN and fig["holds"]
    assert "caused by the change" in describe(fig)


def test_points_with_different_games_cannot_be_paired():
    rng = np.random.default_rng(5)
    with pytest.raises(ValueError):
        pairing(frame(rng, 100), frame(rng, 90))
    assert math.isnan(pairing(frame(rng, 50), frame(rng, 50))["identical_unused"])


def test_a_knockout_of_an_entity_in_nearly_every_game_is_causal_by_design_and_says_it_was_not_checked():
    from reports.measures.pairing import MIN_UNUSED, label
    rng = np.random.default_rng(7)
    a = frame(rng)
    used = np.ones(a.height, bool)
    used[: MIN_UNUSED - 1] = False                 # too few games without it to check the pairing
    b = altered(a, np.flatnonzero(used)[::3], rng)
    fig = pairing(a, b, used, by_design=True)
    assert fig["holds"] and not fig["checked"] and label(fig).startswith("causal by design, pairing not checked")
    # The same figures for a removal (not paired by design) are judged as measured.
    assert not pairing(a, altered(a, np.arange(a.height), rng), used)["holds"]
    # With enough games without it, a knockout is checked like anything else.
    used[: 5 * MIN_UNUSED] = False
    leak = altered(a, np.arange(0, 5 * MIN_UNUSED, 2), rng)
    fig = pairing(a, leak, used, by_design=True)
    assert fig["checked"] and not fig["holds"]
