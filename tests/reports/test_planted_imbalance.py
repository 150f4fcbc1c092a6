"""A card made clearly too strong is the report's top-ranked entity, interval excluding zero."""
from __future__ import annotations

from reports.page.html import build_context


def test_planted_card_is_the_top_entity_with_an_interval_excluding_zero(planted_run):
    ctx = build_context(planted_run.manifest, planted_run.games(), planted_run.tallies())
    ranked = sorted((r for r in ctx["impact"] if r["point"] == ctx["reference"]), key=lambda r: r["rank"])
    top = ranked[0]
    assert top["entity"] == "Pelliccia"
    assert top["flagged"] and top["ci_low"] > 0
    assert top["family"] == len(ranked)                  # corrected for every card compared
    for point in {r["point"] for r in ctx["impact"]}:   # at every point of the sweep
        assert min((r for r in ctx["impact"] if r["point"] == point), key=lambda r: r["rank"])["entity"] == "Pelliccia"
    assert any(f["text"].startswith("Card Pelliccia: +") for f in ctx["findings"])


def test_planted_card_causal_check_excludes_zero(planted_run):
    ctx = build_context(planted_run.manifest, planted_run.games(), planted_run.tallies())
    checks = {(r["entity"], r["base"]): r for r in ctx["ablation"]}
    assert len(checks) == 4
    for base in (0, 1):
        r = checks[("Pelliccia", base)]
        assert r["flagged"] and r["ci_low"] > 0 and r["holders"] > 0
    assert ctx["ablation"][0]["entity"] == "Pelliccia"
