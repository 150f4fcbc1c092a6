"""Tune's proof until decided: looks of games until every target's 95% confidence sequence is
wholly inside or outside it, up to `proof.games`; valid under that optional stopping."""
from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from experiments.config import toml_text
from experiments.tune.config import parse_tune
from experiments.tune.evaluate import candidate_id
from experiments.tune.proof import FIXED, MET, NOT_MET, SEQUENCE
from experiments.tune.run import tune
from reports.measures.sequential import ALPHA, CHUNK, gap_sequence

from .kit import BASE, ONE_VAR, run, write

SHIPPED = Path(__file__).resolve().parents[2] / "experiments" / "configs" / "tune_market.toml"

# Planted factions: true win rates and the gap target (points) a run stops against; both stop
# at looks spread from a few thousand games to the cap, so the stopping is data-dependent.
PLANTED = {
    "gap 8 points, target 5 (missed)": ((0.21, 0.25, 0.25, 0.29), 5.0),
    "gap 2 points, target 5 (met)": ((0.24, 0.25, 0.25, 0.26), 5.0),
}
RUNS = 300
CAP = 40 * CHUNK
MC_SIGMAS = 3          # coverage may fall short of 95% by this many Monte Carlo standard errors

SMALL_UNTIL = """
[budget]
games = 6000
[search]
first_games = 1000
max_games = 2000
max_changes = 1
[proof]
games = 6000
until_decided = true
"""


@pytest.mark.parametrize("case", list(PLANTED))
def test_the_gap_sequence_covers_the_true_gap_when_a_run_stops_at_its_first_decided_look(case):
    rates, target = PLANTED[case]
    p = np.array(rates)
    true_gap = (p.max() - p.min()) * 100
    rng = np.random.default_rng([44, len(case)])
    wins = np.zeros((RUNS, p.size))
    stopped = np.full(RUNS, False)
    covered = np.full(RUNS, False)
    stopped_at = np.zeros(RUNS)
    n = 0
    while n < CAP and not stopped.all():
        n += CHUNK
        wins += rng.binomial(CHUNK, p, size=wins.shape)
        gap, lo, hi = (x * 100 for x in gap_sequence(np.full(p.size, n), wins / n, ALPHA))
        stop_now = ~stopped & ((hi <= target) | (lo > target) | (n >= CAP))
        covered[stop_now] = (lo[stop_now] <= true_gap) & (true_gap <= hi[stop_now])
        stopped_at[stop_now] = n
        stopped |= stop_now
    assert stopped.all() and np.median(stopped_at) < CAP, "the runs must stop at data-dependent looks"
    floor = (1 - ALPHA) - MC_SIGMAS * math.sqrt(ALPHA * (1 - ALPHA) / RUNS)
    assert covered.mean() >= floor, f"{case}: coverage {covered.mean():.3f} below {floor:.3f}"


def _summary(out: Path) -> dict:
    return json.loads((out / "tune.json").read_text())


def test_a_clearly_met_target_is_decided_before_the_cap_and_the_outputs_say_so(tmp_path, capsys):
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nrounds = [5, 40]\n" + SMALL_UNTIL)
    out = tmp_path / "out"
    code, stdout, err = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 0, err
    proof = _summary(out)["proof"]
    record = proof["until_decided"]["targets"]["rounds"]
    assert record["decision"] == MET and record["kind"] == SEQUENCE
    assert proof["games"] == record["games"] < proof["until_decided"]["cap"] == 6000
    est, lo, hi = record["interval"]
    assert 5 <= lo <= est <= hi <= 40
    assert f"decided after {record['games']:,} fresh games" in stdout and "95% confidence sequences" in stdout
    page = (out / "report.html").read_text()
    assert "95% confidence sequences" in page and f"decided after {record['games']:,} games" in page
    assert f"at the stopped count of {record['games']:,} games" in page


def test_the_flag_plays_until_decided_and_a_resume_replays_the_same_looks(tmp_path, capsys):
    fixed_proof = SMALL_UNTIL.replace("until_decided = true\n", "")
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nrounds = [5, 40]\nfirst_seat = 6.0\n" + fixed_proof)
    out = tmp_path / "out"
    code, _, err = run([cfg, "--out", out, "--quiet", "--until-decided"], capsys)
    assert code == 0, err
    first = _summary(out)["proof"]
    assert CHUNK < first["games"] < first["until_decided"]["cap"]          # several looks, stopped early
    proposal = out / "evals" / "proof" / candidate_id(tuple(_summary(out)["proposal"]))
    looks = sorted(proposal.glob("games-*.parquet"))
    assert len(looks) == first["games"] // CHUNK
    looks[-1].unlink()                                  # the last look's chunk, as a kill would leave it
    (out / "tune.json").unlink()
    code, _, err = run([cfg, "--out", out, "--quiet", "--until-decided", "--resume"], capsys)
    assert code == 0, err
    assert _summary(out)["proof"] == first


def test_a_target_without_a_confidence_sequence_keeps_the_fixed_count_and_says_so(tmp_path, capsys):
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nrounds = [5, 40]\nentity_impact = 90.0\n"
                + SMALL_UNTIL.replace("games = 6000\nuntil", "games = 1500\nuntil"))
    out = tmp_path / "out"
    code, stdout, err = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 0, err
    u = _summary(out)["proof"]["until_decided"]
    assert u["games"] == u["cap"] == 1500
    assert u["targets"]["entity_impact"]["kind"] == FIXED and u["targets"]["rounds"]["kind"] == SEQUENCE
    assert u["targets"]["rounds"]["games"] <= 1500
    assert "fixed count: judged at the cap, 1,500 games" in stdout


def _shipped(gap_target: float) -> str:
    """The shipped tune_market config at a small size: a short search, the shipped proof cap."""
    doc = tomllib.loads(SHIPPED.read_text(encoding="utf-8"))
    doc["budget"] = {"games": 3000}
    doc["search"] = {"first_games": 1000, "max_games": 3000, "max_changes": 1, "beam": 1}
    doc["targets"] = {"faction_gap": gap_target}
    return toml_text(doc)


@pytest.mark.slow
@pytest.mark.parametrize("gap_target, verdict", [(15.0, MET), (0.5, NOT_MET)])
def test_the_shipped_market_config_decides_before_the_cap_as_the_fixed_proof_does_on_any_workers(tmp_path, gap_target, verdict):
    cfg = parse_tune(_shipped(gap_target), str(SHIPPED))
    fixed = tune(cfg, tmp_path / "fixed", jobs=2)
    until = tune(cfg, tmp_path / "until", jobs=2, until_decided=True)
    assert fixed["proof"]["games"] == until["proof"]["until_decided"]["cap"] == cfg.proof_games
    record = until["proof"]["until_decided"]["targets"]["faction_gap"]
    assert record["decision"] == verdict and record["games"] < cfg.proof_games
    assert until["verdict"] == fixed["verdict"] == verdict
    assert until["proposal"] == fixed["proposal"]
    one_worker = tune(cfg, tmp_path / "until-1", jobs=1, until_decided=True)
    assert one_worker["proof"] == until["proof"]                 # the same looks on any worker count
