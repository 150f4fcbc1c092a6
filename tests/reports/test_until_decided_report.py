"""A run played until decided stops where its sequential tests chose, so the report's intervals
must stay valid at a data-dependent stop: the verdict, the win-rate tables, restricted play and
the paired checks quote 95% confidence sequences there (reports.measures.sequential), and a
fixed-count run keeps its fixed-count intervals.

The planted check first: stopping at the first look where a fixed-count interval excludes zero
(optional stopping under no effect) makes that interval miss the truth far more often than 5%;
the confidence sequence at the same stop keeps its level.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from experiments.config import load_config
from experiments.store import open_run
from experiments.sweep import run_sweep
from experiments.until_decided import sweep_until_decided
from reports.measures import metrics as M
from reports.measures import sequential as S
from reports.page.html import build_context

QUICK = Path(__file__).parents[2] / "experiments" / "configs" / "quick.toml"
CAP = 1_000          # games per point at most: a look at 500 and one at 1,000


def _stopped_coverage(reps: int = 2_000, looks: int = 20, chunk: int = 200, seed: int = 7) -> tuple[float, float]:
    """(miss rate of the fixed 95% interval, miss rate of the 95% confidence sequence) for a mean
    of +-1 differences with true mean 0, each replicate stopped at its first look where the fixed
    interval excludes 0 (or at the last look)."""
    rng = np.random.default_rng(seed)
    d = rng.choice([-1.0, 1.0], size=(reps, looks * chunk))
    n = np.arange(1, looks * chunk + 1)[chunk - 1::chunk]
    sums = np.cumsum(d, axis=1)[:, chunk - 1::chunk]
    means = sums / n
    half = 1.959963984540054 / np.sqrt(n)
    excludes = np.abs(means) > half
    stop = np.where(excludes.any(axis=1), excludes.argmax(axis=1), looks - 1)
    at = np.arange(reps)
    m, k = means[at, stop], n[stop]
    fixed_miss = np.mean(np.abs(m) > half[stop])
    lo, hi = S.confidence_sequence(k, m, np.ones(reps))
    return float(fixed_miss), float(np.mean((lo > 0) | (hi < 0)))


def test_a_confidence_sequence_keeps_its_level_where_optional_stopping_breaks_a_fixed_interval():
    fixed_miss, cs_miss = _stopped_coverage()
    assert fixed_miss > 0.15          # the fixed-count interval, read at a chosen stop, is far off 5%
    assert cs_miss <= 0.05 + 0.015    # the confidence sequence holds 95% (plus Monte Carlo error)


def test_anytime_interval_of_a_ratio_is_wider_than_the_fixed_one_and_centred_on_the_same_effect():
    rng = np.random.default_rng(3)
    den = rng.integers(0, 3, 800).astype(float)
    num = den * 0.1 + rng.normal(0, 0.3, 800) * (den > 0)
    eff, lo, hi = S.anytime_interval(num, den)
    feff, flo, fhi = M.ratio_interval(num, den)
    assert eff == pytest.approx(feff)
    assert lo < flo < eff < fhi < hi
    _, clo, chi = S.anytime_interval(num, den, family=10)     # Bonferroni over 10 checks: wider still
    assert clo < lo and chi > hi


@pytest.fixture(scope="module")
def runs(built_once):
    cfg = dataclasses.replace(load_config(QUICK), games=CAP, batch_size=500)

    def make(folder):
        sweep_until_decided(cfg, folder / "decided", jobs=1)
        run_sweep(dataclasses.replace(cfg, games=200, batch_size=200), folder / "fixed", jobs=1)
    folder = built_once("until-decided-quick", make)
    out = {}
    for name in ("decided", "fixed"):
        run = open_run(folder / name)
        out[name] = (run, build_context(run.manifest, run.games(), run.tallies()))
    return out


def test_the_verdict_of_a_run_played_until_decided_quotes_confidence_sequences(runs):
    _, ctx = runs["decided"]
    facts = ctx["verdict"]["facts"]
    assert facts and all(f["interval"] == "confidence sequence" for f in facts)
    for p in ctx["verdict"]["problems"]:
        assert "95% confidence sequence" in p["text"]
        if p["measure"].startswith("knockout"):
            assert "played until decided (" in p["text"]


def test_a_fixed_count_run_keeps_its_fixed_intervals(runs):
    _, ctx = runs["fixed"]
    facts = ctx["verdict"]["facts"]
    assert facts and all(f["interval"] == "interval" for f in facts)
    assert all("confidence sequence" not in p["text"] for p in ctx["verdict"]["problems"])


def test_each_knockout_of_a_run_played_until_decided_shows_the_wider_interval_of_its_own_games(runs):
    run, ctx = runs["decided"]
    fixed = {r["entity"]: r for r in M.ablation_effects(run.games(), run.manifest["points"]).to_dicts()}
    shown = [r for r in ctx["ablation"] if r["effect"] == r["effect"] and r["ci_high"] > r["ci_low"]]
    assert shown
    for r in shown:
        f = fixed[r["entity"]]
        assert r["interval"] == "confidence sequence"
        assert r["effect"] == pytest.approx(f["effect"])          # the same games, the same effect
        assert r["ci_low"] < f["ci_low"] and r["ci_high"] > f["ci_high"]
    played = {p["index"]: n for p, n in zip(run.manifest["points"], map(len, run.manifest["chunks"]))}
    assert min(played.values()) < max(played.values())           # some checks did stop early


def test_the_seat_table_of_a_run_played_until_decided_is_the_one_the_verdict_quotes(runs):
    run, ctx = runs["decided"]
    ref = ctx["reference"]
    plain = M.seat_win_rates(run.games().filter(run.games()["point"] == ref))
    widened = S.anytime_rates(plain).to_dicts()
    shown = [r for r in ctx["seats"] if r["point"] == ref]
    for s, w in zip(sorted(shown, key=lambda r: r["seat"]), sorted(widened, key=lambda r: r["seat"])):
        assert (s["ci_low"], s["ci_high"]) == pytest.approx((w["ci_low"], w["ci_high"]))
    for f in ctx["verdict"]["facts"]:
        if f["what"] == "seat":
            row = next(s for s in shown if str(s["seat"]) == f["name"])
            assert (f["ci_low"], f["ci_high"]) == pytest.approx((row["ci_low"], row["ci_high"]))
