"""The HTML report of a comparison (`balancelab compare --out DIR`): one self-contained file.

    write_compare_report(doc, faction_label, kind, out_dir, tables) -> [compare.html, next-step configs]

`doc` is experiments.compare.as_json's plain data (edit, pairing, seats, factions, bots,
entities, length, balance, plus `config` and `rulesets` for the verdict); `tables` the
after side's ruleset tables (for the next-step configs). Imports nothing from simcore.
"""
from __future__ import annotations

from pathlib import Path

from ..measures import verdict as V
from ..measures.pairing import describe
from . import plots
from .html import _environment, write_steps, write_text_atomic


def compare_verdict(doc: dict, flabel: str, kind: str, tables: dict, folder: str) -> dict:
    """What the edit made stronger or weaker beyond the threshold (paired changes: causes), and
    the levels after the edit (seats and factions against their fair share, every seat the same
    bot), each once, with next steps."""
    bots = {str(r["bot"]) for r in doc.get("bots", [])}
    bot = bots.pop() if len(bots) == 1 else ""
    after = f"after the edit ({doc['b']['data']})"
    change = "paired change, the same games before and after the edit"
    facts = V.faction_facts(doc["factions"], flabel, change, bot, rate="change", change=True)
    facts += V.faction_facts(doc["seats"], "seat", change, bot, name_key="seat", rate="change", change=True)
    # The edited entities' acquirers: a cause. Another entity's acquirers change with the edit too,
    # but who acquires it changed as well, so that is an association, listed apart.
    edited = [r for r in doc["entities"] if r["changed"]]
    facts += V.entity_facts(edited, kind, "paired change of its acquirers' win rate (corrected)", bot,
                            effect="change", change=True)
    others = [r for r in doc["entities"] if r["affected"] and not r["changed"]]
    assoc = [f for f in V.entity_facts(others, kind, "its acquirers' win rate after against before, the edit "
                                       "changing who acquires it (not a cause)", bot, effect="change", change=True)
             if f["direction"]]
    if bot:
        levels = [{**r, "win_rate": r["rate_b"], "ci_low": r["b_low"], "ci_high": r["b_high"]}
                  for r in doc["factions"] if "b_low" in r]
        facts += V.faction_facts(levels, flabel, f"win rate per {flabel}, every seat the same bot", bot, after)
    return V.build(V.problems_of(facts), doc.get("config", {}), tables or {}, doc.get("rulesets", {}), folder,
                   facts=facts, associations=sorted(assoc, key=lambda f: -f["size"]))


def build_context(doc: dict, flabel: str, kind: str, tables: dict | None, folder: str) -> dict:
    ents = sorted([r for r in doc["entities"] if r["changed"] or r["affected"]],
                  key=lambda r: (not r["changed"], -abs(r["change"]) if r["change"] == r["change"] else 0))
    figures = []
    if doc["factions"]:
        figures.append({"src": plots.change_chart(doc["factions"], "faction",
                                                  f"Change in win rate per {flabel}, after - before (paired 95% intervals)",
                                                  "win rate after minus before (percentage points)"),
                        "alt": f"paired change of each {flabel}'s win rate with its 95% interval"})
    shown = [r for r in ents if r["change"] == r["change"]][:20]
    if shown:
        figures.append({"src": plots.change_chart(shown, "entity",
                                                  f"Change in the win rate of each {kind}'s acquirers (corrected intervals)",
                                                  f"acquirers' win rate after minus before (percentage points)"),
                        "alt": f"paired change of the win rate of each {kind}'s acquirers"})
    return {"d": doc, "flabel": flabel, "kind": kind, "entities": ents, "figures": figures,
            "pairing_text": describe(doc["pairing"]), "verdict": compare_verdict(doc, flabel, kind, tables, folder),
            "title": f"{doc['b']['data']} against {doc['a']['data']}"}


def render(doc: dict, flabel: str, kind: str, tables: dict | None = None, folder: str = "next-steps") -> tuple[str, dict]:
    ctx = build_context(doc, flabel, kind, tables, folder)
    return _environment().get_template("compare.html.j2").render(**ctx), ctx["verdict"]


def write_compare_report(doc: dict, flabel: str, kind: str, out_dir: Path, tables: dict | None = None) -> list[Path]:
    """compare.html and the verdict's next-step configs (out_dir/next-steps/) ; return the paths written."""
    out_dir = Path(out_dir)
    folder = out_dir / "next-steps"
    html, verdict = render(doc, flabel, kind, tables, str(folder))
    steps = write_steps(verdict, folder)
    write_text_atomic(out_dir / "compare.html", html)
    return [out_dir / "compare.html", *steps]
