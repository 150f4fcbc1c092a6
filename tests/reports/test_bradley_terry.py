"""Bradley-Terry ladder ratings against a planted truth (synthetic matches, known strengths)."""
from __future__ import annotations

import numpy as np
import polars as pl

from reports.measures.bradley_terry import fit_ratings, separated

TRUTH = {"weak": -0.8, "mid": 0.0, "strong": 0.9}      # log-strengths; centred below


def planted_matches(seed: int, games: int = 600, players: int = 4) -> pl.DataFrame:
    """The ladder's design: each bot alone against P-1 seats of the other, every seat, every pair."""
    rng = np.random.default_rng(seed)
    rows = []
    names = list(TRUTH)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for lone, field in ((a, b), (b, a)):
                for seat in range(players):
                    w_lone, w_field = np.exp(TRUTH[lone]), (players - 1) * np.exp(TRUTH[field])
                    won = rng.random(games) < w_lone / (w_lone + w_field)
                    rows.append(pl.DataFrame({"a": [lone] * games, "b": [field] * games, "n_a": [1] * games,
                                              "n_b": [players - 1] * games, "seat": [seat] * games,
                                              "game": np.arange(games), "y": won.astype(float)}))
    return pl.concat(rows)


def centred_truth() -> dict:
    mean = np.mean(list(TRUTH.values()))
    return {k: v - mean for k, v in TRUTH.items()}


def test_fit_recovers_the_planted_order_and_intervals_cover_the_truth():
    truth = centred_truth()
    covered = 0
    total = 0
    for rep in range(5):
        ratings = fit_ratings(planted_matches(seed=100 + rep), bootstrap=150, seed=rep)
        assert ratings["bot"].to_list() == ["strong", "mid", "weak"]
        for r in ratings.iter_rows(named=True):
            total += 1
            covered += r["ci_low"] <= truth[r["bot"]] <= r["ci_high"]
    assert covered >= total - 2          # 95% intervals: nearly all of 15 cover


def test_planted_gaps_give_separated_intervals_and_a_tie_does_not():
    ratings = fit_ratings(planted_matches(seed=7), bootstrap=150)
    assert separated(ratings, "weak", "mid") and separated(ratings, "mid", "strong")
    tie = planted_matches(seed=8)
    # Every lone seat wins with its fair share (1 in 4), whoever sits alone: no bot is better.
    tie = tie.with_columns(y=pl.Series((np.random.default_rng(9).random(tie.height) < 0.25).astype(float)))
    flat = fit_ratings(tie, bootstrap=100)
    assert not separated(flat, "weak", "strong") and not separated(flat, "strong", "weak")
    assert np.abs(flat["rating"].to_numpy()).max() < 0.05


def test_games_nobody_won_are_left_out():
    m = planted_matches(seed=3, games=200)
    with_nulls = pl.concat([m, m.head(500).with_columns(y=pl.lit(None, dtype=pl.Float64))])
    a = fit_ratings(m, bootstrap=0)
    b = fit_ratings(with_nulls, bootstrap=0)
    assert np.allclose(a["rating"].to_numpy(), b["rating"].to_numpy())


def test_head_to_head_fits_planted_strengths_and_flags_a_lone_seat_advantage():
    from reports.measures.ladder import head_to_head, skill_matters, with_predictions
    m = planted_matches(seed=11)
    ratings = fit_ratings(m, bootstrap=50)
    h2h = with_predictions(head_to_head(m, 4), ratings, 4)
    assert h2h.height == 6 and h2h["fits"].sum() >= 5
    skill = skill_matters(ratings, h2h)
    assert (skill["best"], skill["weakest"]) == ("strong", "weak") and "skill matters" in skill["words"]
    # Whoever sits alone wins half the games: no single rating per bot can say that.
    rng = np.random.default_rng(12)
    odd = m.with_columns(y=pl.Series((rng.random(m.height) < 0.5).astype(float)))
    r2 = fit_ratings(odd, bootstrap=50)
    assert not with_predictions(head_to_head(odd, 4), r2, 4)["fits"].any()


def test_a_fair_share_for_every_lone_seat_reads_as_a_game_of_luck():
    from reports.measures.ladder import head_to_head, skill_matters, with_predictions
    m = planted_matches(seed=13)
    m = m.with_columns(y=pl.Series((np.random.default_rng(14).random(m.height) < 0.25).astype(float)))
    ratings = fit_ratings(m, bootstrap=50)
    words = skill_matters(ratings, with_predictions(head_to_head(m, 4), ratings, 4))["words"]
    assert words.startswith("a game of luck")
