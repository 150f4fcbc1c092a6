"""One number per fact: the report of every shipped sweep config (at a small size) says in its
verdict only what its tables hold.

Each config in experiments/configs is played at GAMES games per point and its report context
built as `balancelab report` builds it. Every verdict line must be rendered from one fact row
whose value is the one in the report's own table (seats, factions, knockouts, restricted play),
with the same value and sign in its words; every (what, name) beyond the threshold is in the
verdict once, and nothing within it; every verdict line is on the page once, and no association
is among the verdict's lines.
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import polars as pl
import pytest
from markupsafe import escape

from experiments.grid import _Loader
from experiments.restricted import entity_names
from reports.measures import verdict as V
from reports.page.html import _environment, build_context

GAMES = 60
# A restricted-play config over every entity has 100-500 points; here it runs over its game's
# first RESTRICTED_ENTITIES entities (every other setting as shipped), which takes the same paths.
RESTRICTED_ENTITIES = 3
# Every shipped sweep config (a tune config, with [[variables]], is tested in tests/tune); the
# restricted-play configs are slow.
CONFIGS = [pytest.param(p, marks=[pytest.mark.slow] if "[restricted]" in p.read_text() else [])
           for p in sorted((Path(__file__).parents[2] / "experiments" / "configs").glob("*.toml"))
           if "[[variables]]" not in p.read_text()]


def _small(cfg):
    """The config at GAMES games per point; a restricted one over its first entities."""
    cfg = dataclasses.replace(cfg, games=GAMES, batch_size=GAMES)
    if cfg.restricted is None or cfg.restricted.entities:
        return cfg
    loader = _Loader(cfg)
    rs = loader.load(cfg.variant, cfg.data, cfg.set, list(cfg.edits), "base")
    names = entity_names(loader.game, rs)[:RESTRICTED_ENTITIES]
    return dataclasses.replace(cfg, restricted=dataclasses.replace(cfg.restricted, entities=tuple(names)))


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _pp(x: float) -> str:
    v = round(x * 100, 1)
    return f"{0.0 if v == 0 else v:+.1f} pp"


def _beyond(r: dict) -> bool:
    """The threshold rule, restated: more than THRESHOLD from fair and the interval excluding fair."""
    if any(v is None or math.isnan(v) for v in (r["value"], r["ci_low"], r["ci_high"])):
        return False
    gap = r["value"] - r["fair"]
    return abs(gap) > V.THRESHOLD and (r["ci_low"] > r["fair"] if gap > 0 else r["ci_high"] < r["fair"])


def _table_value(ctx: dict, r: dict) -> float | None:
    """The same quantity read from the report's own table, or None for a measure without one here."""
    ref = ctx["reference"]
    if r["measure"].startswith("win rate per seat"):
        return next(x["win_rate"] for x in ctx["seats"] if x["point"] == ref and str(x["seat"]) == r["name"])
    if r["measure"].startswith("win rate per"):
        return next(x["win_rate"] for x in ctx["factions"] if x["point"] == ref and str(x["faction"]) == r["name"])
    if r["measure"].startswith("knockout"):
        return next(x["effect"] for x in ctx["ablation"] if x["base"] == ref and x["entity"] == r["name"])
    return None


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda p: p.stem)
def shipped(request, shipped_small):
    run = shipped_small(request.param, _small)
    ctx = build_context(run.manifest, run.games(), run.tallies())
    return ctx, _environment().get_template("report.html.j2").render(**ctx)


def test_every_verdict_line_is_rendered_from_its_row_with_the_same_value_and_sign(shipped):
    ctx, _ = shipped
    facts = ctx["verdict"]["facts"]
    for p in ctx["verdict"]["problems"]:
        rows = [r for r in facts if (r["what"], r["name"], r["measure"]) == (p["what"], p["name"], p["measure"])]
        assert len(rows) == 1, p
        r = rows[0]
        assert p["text"] == V.fact_text(r) and p["value"] == r["value"]
        said = _pct(r["value"]) if r["unit"] == "rate" else _pp(r["value"])
        assert said in p["text"], (said, p["text"])
        assert (p["direction"] == V.STRONG) == (r["value"] > r["fair"]), p
        table = _table_value(ctx, r)
        assert table is None or table == r["value"], (table, r)


def test_everything_beyond_the_threshold_is_in_the_verdict_once_and_nothing_within_it(shipped):
    ctx, _ = shipped
    named = [(p["what"], p["name"]) for p in ctx["verdict"]["problems"]]
    assert len(named) == len(set(named)), named                      # no entity twice
    beyond = {(r["what"], r["name"]) for r in ctx["verdict"]["facts"] if _beyond(r)}
    assert set(named) == beyond
    assert all(_beyond(p) for p in ctx["verdict"]["problems"])


def test_the_page_shows_each_verdict_line_once_and_no_association_as_a_verdict(shipped):
    ctx, page = shipped
    verdict = page[page.index('<section id="verdict"'):page.index("</section>", page.index('<section id="verdict"'))]
    listed = verdict.split('<ul class="verdict-list">')[1].split("</ul>")[0] if ctx["verdict"]["problems"] else ""
    for p in ctx["verdict"]["problems"]:
        assert listed.count(escape(p["text"])) == 1, p["text"]
    for a in ctx["verdict"]["associations"]:
        assert escape(a["text"]) not in listed and "not a cause" in a["text"]


def test_the_answer_quotes_the_headline_rows(shipped):
    ctx, _ = shipped
    if not ctx["answer"] or not ctx["answer"]["lines"]:
        pytest.skip("no swept axis")
    settings = [line for line in ctx["answer"]["lines"] if " rounds (95% CI " in line]
    assert settings, ctx["answer"]
    for line in settings:               # each setting's numbers are one headline row's
        assert any(f"balance {r['balance']:.2f} " in line and f"; {r['mean_rounds']:.1f} rounds" in line
                   for r in ctx["head"]), line


def test_the_answers_comparison_is_rendered_from_its_row_and_paired_where_the_pairing_holds(shipped):
    ctx, page = shipped
    row = (ctx["answer"] or {}).get("difference")
    if row is None:
        pytest.skip("no swept axis, or the reference is the best setting")
    head = {r["point"]: r for r in ctx["head"]}
    assert row["value"] == head[row["point"]]["balance"] and row["against_value"] == head[row["against"]]["balance"]
    assert row["difference"] == row["value"] - row["against_value"]
    holds = [r["holds"] for r in ctx["pairings"] if (r["point"], r["against"]) == (row["point"], row["against"])]
    assert row["paired"] == bool(holds and holds[0])
    assert (row["ci_low"], row["ci_high"]) == ((row["paired_low"], row["paired_high"]) if row["paired"]
                                               else (row["unpaired_low"], row["unpaired_high"]))
    said = [line for line in ctx["answer"]["lines"] if line.startswith("Balance is highest at ")]
    assert len(said) == 1 and f"{row['difference']:+.2f} (95% CI {row['ci_low']:+.2f} to {row['ci_high']:+.2f}, " \
        in said[0] and ("paired over the same" in said[0]) == row["paired"]
    assert page.count(str(escape(said[0]))) == 1
