"""Helpers of the planted impact tests (tests/games/test_planted_impact.py, tests/<game>/test_*planted_impact.py).

Each planted test writes a sweep config, plays it with the project's own sweep (in this
process: `jobs=1`, so a bot registered by the test module is known to the engine), and reads
the answers through experiments.api and the report's own context (what a designer reads).
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import polars as pl

from experiments import api
from reports.page.html import build_context


def sweep(tmp_path: Path, text: str):
    """Play the config `text` into tmp_path/run; return the Run."""
    cfg = tmp_path / "planted.toml"
    cfg.write_text(text)
    return api.sweep(cfg, tmp_path / "run", jobs=1)


def knockout_row(run, entity: str, base: int) -> dict:
    """The knockout of `entity` against base point `base` (api.ablations), with its pairing (api.pairings)."""
    ab = api.ablations(run).filter((pl.col("entity") == entity) & (pl.col("base") == base))
    assert ab.height == 1, f"no knockout of {entity} at point {base}"
    row = ab.row(0, named=True)
    pr = api.pairings(run).filter(pl.col("point") == row["point"])
    return {**row, **{f"pair_{k}": v for k, v in pr.row(0, named=True).items()}}


def report_context(run, knockouts: bool = True) -> dict:
    """The report's context (reports.page.html.build_context): verdict, findings, tables; with
    knockouts=False, the report of the base points alone (as if the config had no [ablation])."""
    if knockouts:
        return build_context(run.manifest, run.games(), run.tallies())
    base = [p for p in run.points if p.get("ablated") is None]
    index = [p["index"] for p in base]
    return build_context(dict(run.manifest, points=base), run.games(index), run.tallies(index))


def said_about(ctx: dict, entity: str) -> tuple[list[dict], list[dict]]:
    """(verdict problems naming `entity`, findings whose text names it)."""
    problems = [p for p in ctx["verdict"]["problems"] if p["name"] == entity]
    findings = [f for f in ctx["findings"] if f" {entity} " in f" {f['text']} " or f" {entity}:" in f["text"]]
    return problems, findings


@contextmanager
def registered(game: str, name: str, cls):
    """Register a test-only bot for the duration of a test (never left in the registry, so other
    tests' "every registered bot" fields do not see it)."""
    from strategies import registry
    registry._load(game)
    registry.register(game, name)(cls)
    try:
        yield name
    finally:
        registry._BOTS.pop((game, name), None)
        registry._DOCS.pop((game, name), None)


def check_decoy(run, entity: str, min_lift: float, min_holders: int) -> None:
    """The decoy's whole story, as a designer reads it: holders win clearly more (raw and
    adjusted lower bounds above `min_lift`), its knockout changes nothing (interval around 0,
    pairing holds), the verdict does not name it, the findings call it an association and give
    the knockout's "no clear causal effect"; without the knockout, the verdict still does not
    name it, and it is listed among the associations (strong, "not a cause")."""
    adj = api.adjusted_association(run).filter(pl.col("entity") == entity).row(0, named=True)
    assert adj["raw_low"] > min_lift and adj["ci_low"] > min_lift, adj
    raw = api.entity_impact(run).filter(pl.col("entity") == entity).row(0, named=True)
    assert raw["flagged"] and raw["ci_low"] > min_lift
    ko = knockout_row(run, entity, 0)
    assert ko["holders"] == adj["holders"] > min_holders
    assert ko["ci_low"] <= 0 <= ko["ci_high"] and ko["pair_holds"]
    problems, findings = said_about(report_context(run), entity)
    assert problems == []
    assert not any("strong" in f["text"] or "helps" in f["text"] for f in findings), findings
    assert any(f["level"] == "ok" and "no clear causal effect" in f["text"] for f in findings), findings
    assert all("association" in f["text"] for f in findings if f["level"] == "warn"), findings
    alone = report_context(run, knockouts=False)
    assert said_about(alone, entity)[0] == []           # without its knockout: never a verdict ...
    assoc = [a for a in alone["verdict"]["associations"] if a["name"] == entity]
    assert [(a["direction"], "not a cause" in a["text"]) for a in assoc] == [("strong", True)], assoc   # ... an association


def check_rare_knockout(run, entity: str, max_used_share: float) -> None:
    """A rarely used entity (in at most `max_used_share` of games): its knockout's pairing still
    holds (Wilson lower bound of identical games >= 90%), and every game without it is identical."""
    ko = knockout_row(run, entity, 0)
    assert ko["pair_unused_games"] >= (1 - max_used_share) * ko["pair_games"], ko
    assert ko["pair_identical_lo"] >= 0.90 and ko["pair_holds"], ko
    assert ko["pair_identical_unused"] == 1.0


def rare_config(ruleset: str, players: int, entity: str, games: int = 2000, seed: int = 3) -> str:
    """The sweep config of a rare-entity check: greedy players, one knockout of `entity`."""
    return f"""
name = "planted-rare"
ruleset = "{ruleset}"
players = {players}
bots = "greedy"
games = {games}
seed = {seed}
batch_size = {games}

[ablation]
entities = ["{entity}"]
"""
