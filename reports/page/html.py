"""The balance report: one self-contained HTML file (figures embedded, no network needed).

    render(manifest, games, tallies) -> str
    write_report(manifest, games, tallies, out) -> Path

`manifest` is a run folder's manifest.json (points, rulesets with value sources, config,
versions, git revision); `games`/`tallies` are its frames with a `point` column. This
module imports nothing from the rest of balancelab.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

import jinja2
import polars as pl

from ..measures import answer as A
from ..measures import coverage as C
from ..measures import impact as I
from ..measures import metrics as M
from ..measures import pairing as P
from ..measures import restricted as R
from ..measures import sequential as S
from ..measures import verdict as V
from ..measures.luck import TEXT
from . import findings as F
from . import flow as flow_section
from . import luck as luck_section
from . import map as map_plot
from . import plots
from . import targets as targets_section

TEMPLATES = Path(__file__).parent / "templates"
MAX_POINT_FIGURES = 4
OPEN_FIGURES = 2            # the first figures are open; the others are folded (<details>)


def describe_point(point: dict) -> str:
    """A short label: the swept values, player count and bots (bots shortened when all alike)."""
    labels = dict(point["labels"])
    bots = labels.pop("bots", "").split(",")
    players = labels.pop("players", None)
    ablation = labels.pop("ablation", None)
    parts = [f"{k} = {v}" for k, v in labels.items()]
    if players:
        parts.append(f"{players} players")
    if bots and bots[0]:
        parts.append(f"{bots[0]} bots" if len(set(bots)) == 1 else "bots " + ",".join(bots))
    if ablation:
        knockout = point.get("ablation_kind") == "knockout"
        parts.append(f"{ablation} knocked out" if knockout else f"without {ablation} (removal)")
    return ", ".join(parts)


def _short_bots(text: str) -> str:
    bots = str(text).split(",")
    return bots[0] if len(set(bots)) == 1 else text


def _num(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text      # never "-0.00"


def _rows(df: pl.DataFrame) -> list[dict]:
    return list(df.iter_rows(named=True))


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    env.filters.update(pct=F.pct, pp=F.pp, num=_num,
                       sortkey=lambda x: "" if x is None or (isinstance(x, float) and math.isnan(x)) else x,
                       tojson_pretty=lambda d: json.dumps(d, indent=2, default=str))
    return env


def _sweep_axis(manifest: dict, base_points: list[dict]) -> tuple[str | None, list[str]]:
    """The first grid axis with more than one value, and the other labels that vary."""
    axes = [a["name"] for a in manifest["config"].get("grid", [])]
    varying = [k for k in base_points[0]["labels"]
               if len({p["labels"].get(k) for p in base_points}) > 1] if base_points else []
    x = next((a for a in axes if a in varying), None)
    return x, [k for k in varying if k != x]


# Columns that say where a row comes from, not what the entity does.
BOOKKEEPING = {"_row", "name", "source", "printed", "text", "module", "min_players", "deck"}


def entity_notes(tables: dict | None, names) -> dict:
    """Entity name -> {"stats": its row's values in short, "text": its card text}, from the table
    that names the most of `names` (the first row of a name that repeats)."""
    names = set(names)
    best = max((rows for rows in (tables or {}).values()), default=(),
               key=lambda rows: len(names & {str(r.get("name")) for r in rows}))
    out = {}
    for r in best:
        n = str(r.get("name"))
        if n in names and n not in out:
            stats = [f"{c} {v}" for c, v in r.items()
                     if c not in BOOKKEEPING and v not in (None, "", False) and not (c == "optional" and not v)]
            out[n] = {"stats": ", ".join(stats[:7]), "text": str(r.get("text", ""))}
    return out


def luck_text() -> dict:
    return TEXT


def _one_bot(point: dict | None) -> str:
    """The bot of a point whose every seat plays the same bot, else ""."""
    bots = str((point or {}).get("labels", {}).get("bots", "")).split(",")
    return bots[0] if bots[0] and len(set(bots)) == 1 else ""


def causal_facts(manifest: dict, seats: pl.DataFrame, factions: pl.DataFrame, ablation: pl.DataFrame,
                 restricted: pl.DataFrame, reference: int, labels: dict) -> list[dict]:
    """Every quantity the verdict may rest on, one fact row each (reports.measures.verdict.fact):

    - seats and factions at the reference point, only when every seat plays the same bot (then
      the seat, or the faction dealt to it, is the only difference between the seats);
    - knockouts at the reference point whose pairing holds (the same games, the effect off);
    - restricted play: one seat favouring (or avoiding) the entity against the plain bot in the
      same seats and games."""
    kind, flabel = manifest.get("entity_kind", "entity"), manifest.get("faction_label", "faction")
    by_index = {p["index"]: p for p in manifest["points"]}
    bot, at = _one_bot(by_index.get(reference)), pl.col("point") == reference
    where = labels.get(reference, "")
    anytime = bool(manifest.get("until_decided"))
    interval = "confidence sequence" if anytime else "interval"
    facts = []
    if bot:
        if flabel != "seat" and factions.height:
            facts += V.faction_facts(factions.filter(at).to_dicts(), flabel,
                                     f"win rate per {flabel}, every seat the same bot", bot, where, interval=interval)
        if seats.height:
            facts += V.faction_facts(seats.filter(at).to_dicts(), "seat", "win rate per seat, every seat the same bot",
                                     bot, where, name_key="seat", interval=interval)
    if ablation.height:
        held = ablation.filter((pl.col("base") == reference) & pl.col("holds") & (pl.col("kind") == "knockout"))
        for r in held.iter_rows(named=True):
            measure = "knockout: the same games with its effect off"
            if anytime:
                measure += f", played until decided ({r['games']:,} games)"
            facts += V.entity_facts([r], kind, measure, _one_bot(by_index.get(r["base"])) or "mixed", where)
    for r in restricted.iter_rows(named=True) if restricted.height else ():
        sign = 1 if r["modifier"] == "favor" else -1     # avoiding a strong entity loses: its worth is -diff
        lo, hi = sorted((sign * r["diff_lo"], sign * r["diff_hi"]))
        facts.append(V.fact(kind, r["entity"], sign * r["diff"], lo, hi, 0.0,
                            f"restricted play: one seat {'favouring' if sign > 0 else 'avoiding'} it against plain "
                            f"{r['bot']}" + ("" if sign > 0 else " (sign turned: what having it is worth)"),
                            r["bot"], r["setting"], unit="effect", interval=interval))
    return facts


def build_verdict(manifest: dict, seats: pl.DataFrame, factions: pl.DataFrame, ablation: pl.DataFrame,
                  reference: int, tables: dict | None, folder: str, labels: dict, associations: pl.DataFrame,
                  association_measure: str, restricted: pl.DataFrame | None = None) -> dict:
    """Too strong / too weak at the reference point from causes only (causal_facts), each with
    its next step; the associations beyond the threshold are listed apart, never as verdicts."""
    kind = manifest.get("entity_kind", "entity")
    facts = causal_facts(manifest, seats, factions, ablation,
                         restricted if restricted is not None else pl.DataFrame(), reference, labels)
    bot = _one_bot(next((p for p in manifest["points"] if p["index"] == reference), None)) or "mixed"
    assoc = [f for f in V.entity_facts(associations.to_dicts() if associations.height else [], kind,
                                       association_measure, bot, labels.get(reference, "")) if f["direction"]]
    assoc = sorted(assoc, key=lambda f: -f["size"])
    return V.build(V.problems_of(facts), manifest.get("config", {}), tables or {}, manifest.get("rulesets", {}),
                   folder, facts=facts, associations=assoc)


def build_context(manifest: dict, games: pl.DataFrame, tallies: pl.DataFrame, tables: dict | None = None,
                  steps_folder: str = "next-steps") -> dict:
    """Every number, table, finding and figure of the report.

    `tables`: the reference point's ruleset tables (table -> rows), for the verdict's next-step
    configs; `steps_folder`: where those configs are written, as the report names it.
    """
    points = manifest["points"]
    kind, flabel = manifest.get("entity_kind", "entity"), manifest.get("faction_label", "faction")
    target = manifest.get("target_rounds")
    base = [p for p in points if p.get("ablated") is None]
    base_ids = [p["index"] for p in base]
    labels = {p["index"]: describe_point(p) for p in points}
    reference = manifest.get("reference_point", base_ids[0] if base_ids else 0)
    base_games = games.filter(pl.col("point").is_in(base_ids))
    # A run played until decided stopped where its tests chose: its intervals are confidence sequences.
    anytime = bool(manifest.get("until_decided"))
    seats, factions = M.seat_win_rates(base_games), M.faction_win_rates(base_games)
    bots = M.bot_win_rates(base_games)
    if anytime:
        seats, factions, bots = S.anytime_rates(seats), S.anytime_rates(factions), S.anytime_rates(bots)
    head = M.headline(base_games, target, seats)
    impact = M.entity_impact(tallies, base_games, base_ids)
    grid = [a["name"] for a in manifest["config"].get("grid", [])]
    pairings = P.point_pairings(games, points, reference, grid)
    ablation = M.ablation_effects(games, points, anytime)
    if ablation.height:      # every paired check carries its pairing figures and its plain-words label
        ablation = ablation.join(pairings.filter(pl.col("kind") != "sweep").select(
            pl.col("point").cast(ablation["point"].dtype), "kind", "identical", "changed", "correlation",
            "identical_unused", "unused_games", "holds", "label"), on="point", how="left").with_columns(
            pl.col("holds").fill_null(False))
    names = I.entity_names(tallies)
    adjusted = I.adjusted_association(games.filter(pl.col("point") == reference), names)
    mattered = {r["entity"]: r["changed"] for r in pairings.filter(
        (pl.col("against") == reference) & (pl.col("kind") != "sweep")).iter_rows(named=True)}
    by_bot = I.bots_impact(games, points, reference, names, pairings)
    hist = M.length_histogram(base_games)
    label_cols = pl.DataFrame([{"point": p["index"], **{k: str(v) for k, v in p["labels"].items()}} for p in base],
                              infer_schema_length=None).with_columns(pl.col("point").cast(pl.Int32))
    head = head.with_columns(pl.col("point").cast(pl.Int32)).join(label_cols, on="point", how="left")
    if "bots" in head.columns:     # "greedy,greedy,greedy" -> "greedy"
        head = head.with_columns(pl.col("bots").map_elements(_short_bots, return_dtype=pl.Utf8))
    x, series = _sweep_axis(manifest, base)
    figures = []
    if x is not None:
        figures.append({"title": f"Sweep over {x}", "src": plots.sweep_chart(head, x, series, target),
                        "alt": f"balance, seat 0 win rate, mean rounds and stalls against {x}, with 95% bands"})
        ref_labels = next((p["labels"] for p in base if p["index"] == reference), {})
        along = {p["index"]: p["labels"][x] for p in base     # along x, every other setting as at the reference
                 if all(p["labels"].get(k) == ref_labels.get(k) for k in series)}
        if factions.height and factions["faction"].n_unique() > 1:
            figures.append({"title": f"Win rate per {flabel} against {x}",
                            "src": plots.faction_sweep_chart(factions, along, x, flabel),
                            "alt": f"each {flabel}'s win rate against {x}, with 95% bands and the fair share"})
    shown = [reference] + [i for i in base_ids if i != reference]
    for i in shown[:MAX_POINT_FIGURES if len(base_ids) <= MAX_POINT_FIGURES else 1]:
        fold = i != reference            # the reference's figures open; the other points' folded
        figures.append({"title": f"Win rates: {labels[i]}", "fold": fold,
                        "src": plots.win_rate_chart(seats.filter(pl.col("point") == i),
                                                    factions.filter(pl.col("point") == i), flabel),
                        "alt": f"win rate per seat and per {flabel} with 95% intervals"})
        figures.append({"title": f"Game length: {labels[i]}", "fold": fold,
                        "src": plots.length_chart(hist.filter(pl.col("point") == i), target),
                        "alt": "histogram of game length in rounds"})
    ref_impact = impact.filter(pl.col("point") == reference) if impact.height else impact
    if ref_impact.height:
        figures.append({"title": f"{kind.capitalize()} impact (an association, not a verdict): {labels[reference]}",
                        "src": plots.entity_chart(ref_impact, kind=kind),
                        "alt": f"{kind} win-rate difference when acquired, with corrected 95% intervals"})
    if ablation.height:
        figures.append({"title": "Ablations (causal, paired)", "src": plots.ablation_chart(ablation, kind),
                        "alt": f"effect of each {kind} on its acquirers, same games with and without it"})
    board = manifest.get("board")
    if board:       # a game with a board (Evo): the map the reference point was played on
        title = f"The board: {board['players']} players"
        figures.insert(0, {"title": title,
                           "src": map_plot.map_data_uri(board["zones"], [tuple(e) for e in board["edges"]],
                                                        board["terrains"], title),
                           "alt": "the map: zones coloured by terrain, coast outlined, adjacency lines, "
                                  "starting areas labelled with their seat"})
    found = F.headline_findings(head, seats, factions, reference, labels[reference], flabel, target)
    found += F.entity_findings(impact, reference, kind)
    found += F.ablation_findings(ablation, kind, lambda i: labels[i])
    found += F.bot_findings(by_bot, kind)
    if x is not None:
        ref_row = head.filter(pl.col("point") == reference)
        same_series = head
        for col in series:                  # compare along x with everything else as at the reference
            same_series = same_series.filter(pl.col(col) == ref_row[col][0]) if ref_row.height else same_series
    else:
        same_series = head.clear()
    found += F.defaults_findings(manifest.get("rulesets", {}))
    if adjusted.height:
        assoc, assoc_measure = adjusted, "association adjusted for the number acquired (not a cause)"
    else:
        assoc = impact.filter(pl.col("point") == reference) if impact.height else impact
        assoc_measure = "association: acquirers against the other seats (not a cause)"
    restricted = R.restricted_play(games, points, anytime)      # one table: the verdict and its section
    verdict = build_verdict(manifest, seats, factions, ablation, reference, tables, steps_folder, labels,
                            assoc, assoc_measure, restricted)
    flow = flow_section.build(base_games, base_ids, reference, labels, manifest.get("standing_label") or "standing",
                              flabel)
    targets = targets_section.build(base_games, tallies, base_ids, labels, manifest["config"].get("target"))
    if targets is not None:
        found.insert(0, {"level": "info" if targets["rows"] and targets["rows"][0]["all_met"] else "warn",
                         "text": "Targets: " + targets["summary"] + "."})
    touched = {r["point"]: r["changed"] for r in pairings.filter(pl.col("kind") == "sweep").iter_rows(named=True)}
    knocked = ablation.filter((pl.col("base") == reference) & (pl.col("kind") == "knockout")).to_dicts() \
        if ablation.height else []
    difference = A.best_against_reference(same_series, games, reference, pairings, manifest["config"].get("seed", 0)) \
        if x is not None else None
    answer = F.sweep_answer(same_series, x, reference, labels, touched, knocked, target, targets, difference)
    lucks = luck_section.build(base_games, points, labels, seed=manifest["config"].get("seed", 0))
    found += [{"level": "info", "text": f"Luck and skill: {lk['words']} ({lk['title']})."} for lk in lucks]
    skill = skill_context(manifest, reference, verdict)
    return {
        "answer": answer, "flow": flow, "targets": targets, "lucks": lucks, "luck_text": luck_text(),
        "verdict": verdict,
        "m": manifest, "title": manifest["config"].get("name", "sweep"), "kind": kind, "flabel": flabel,
        "target": target, "labels": labels, "reference": reference, "findings": found,
        "figures": [f for f in figures if not f.get("fold")][:OPEN_FIGURES],
        "folded": [f for f in figures if not f.get("fold")][OPEN_FIGURES:] + [f for f in figures if f.get("fold")],
        "head": _rows(head.sort("point")), "seats": _rows(seats), "factions": _rows(factions), "bots": _rows(bots),
        "impact": _rows(impact.sort(["point", "rank"])) if impact.height else [],
        "impact_wide": impact_wide(impact, base_ids, reference),
        "short": {i: ", ".join(f"{k} = {base[n]['labels'][k]}" for k in ([x] if x else []) + series) or labels[i]
                  for n, i in enumerate(base_ids)},
        "notes": entity_notes(tables, impact["entity"].to_list() if impact.height else []),
        "ablation": _rows(ablation.sort("rank")) if ablation.height else [],
        "pairings": _rows(pairings.sort("point")) if pairings.height else [],
        "adjusted": _rows(adjusted) if adjusted.height else [], "mattered": mattered,
        "by_bot": _rows(by_bot) if by_bot.height else [],
        "touched": touched,
        "paired_min": P.PAIRED_MIN, "paired_corr": P.PAIRED_CORRELATION,
        "total_games": games.height, "points": points, "rulesets": manifest.get("rulesets", {}),
        "missing": manifest.get("_missing_chunks", 0),
        "coverage": coverage_context(manifest, base_games, tallies, base_ids),
        "restricted": R.context(restricted),
        "until_decided": manifest.get("until_decided"),      # a run played until decided (sequential checks)
        "skill": skill,
    }


def skill_context(manifest: dict, reference: int, verdict: dict) -> dict | None:
    """The run folder's skill curve (manifest["_skill"]: reports.page.skill.read), its section; the
    verdict's lines gain "stronger bots agree / disagree" when the curve played the reference's rules."""
    if not manifest.get("_skill"):
        return None
    from . import skill as skill_page  # the skill page imports this module's helpers
    curve_manifest, curve = manifest["_skill"]
    ref = next((p for p in manifest["points"] if p["index"] == reference), {})
    if ref.get("ruleset_hash") == curve_manifest.get("ruleset_hash"):
        skill_page.annotate_verdict(verdict, curve)
    return skill_page.section(curve_manifest, curve)


def impact_wide(impact: pl.DataFrame, base_ids: list[int], reference: int) -> list[dict]:
    """One row per entity, the points as columns ({point: that point's impact row}), in the
    reference point's rank order (entities it lacks last)."""
    if not impact.height:
        return []
    rows: dict[str, dict] = {}
    order = impact.sort([pl.col("point") != reference, "point", "rank"])
    for r in order.iter_rows(named=True):
        rows.setdefault(r["entity"], {"entity": r["entity"], "cells": {}})["cells"][r["point"]] = r
    return list(rows.values())


def coverage_context(manifest: dict, base_games: pl.DataFrame, tallies: pl.DataFrame, base_ids: list) -> dict:
    """Per point and bot, the share of games using each entity (reports.measures.coverage), for _coverage.html.j2."""
    entities = [e for rs in manifest.get("rulesets", {}).values() for e in rs.get("entities", [])]
    if not base_games.height:
        return {"summary": [], "rows": []}
    base_tallies = tallies.filter(pl.col("point").is_in(base_ids)) if tallies.height else tallies
    cov = C.coverage(base_games, base_tallies, list(dict.fromkeys(entities)) or None)
    return {"summary": C.coverage_summary(cov), "rows": _rows(cov), "rare": C.RARE}


def render(manifest: dict, games: pl.DataFrame, tallies: pl.DataFrame, tables: dict | None = None) -> str:
    """The report as one HTML string."""
    return _environment().get_template("report.html.j2").render(**build_context(manifest, games, tallies, tables))


def write_text_atomic(out: Path, text: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=out.name + ".tmp-", dir=out.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)


def write_steps(verdict: dict, folder: Path) -> list[Path]:
    """The verdict's next-step configs, written into `folder`; return their paths."""
    paths = []
    for name, text in verdict["files"].items():
        write_text_atomic(folder / name, text)
        paths.append(folder / name)
    return paths


def write_report(manifest: dict, games: pl.DataFrame, tallies: pl.DataFrame, out: str | Path,
                 tables: dict | None = None) -> Path:
    """Render and write the report atomically, and the verdict's next-step configs beside it."""
    out = Path(out)
    write_report_context(manifest, games, tallies, out, tables)
    return out


def write_report_context(manifest: dict, games: pl.DataFrame, tallies: pl.DataFrame, out: Path,
                         tables: dict | None = None) -> dict:
    """write_report, returning the context the page was rendered from (the terminal prints from it)."""
    folder = out.parent / "next-steps"
    ctx = build_context(manifest, games, tallies, tables, steps_folder=str(folder))
    html = _environment().get_template("report.html.j2").render(**ctx)
    write_steps(ctx["verdict"], folder)
    write_text_atomic(out, html)
    return ctx
