"""The report's "How the game unfolds" section, from the per-game trajectories.

A run recorded with trajectories (`balancelab run --trajectories`, or `trajectories = true`
in a config) has `s{seat}_standing` columns: each seat's standing after every round (the
game's own progress measure, named by the manifest's `standing_label`). Per base point this
builds the metric table of reports.measures.flow (with 95% intervals), and for the reference point the
P(win | sole leader after round r) curve, the lead-change histogram, a few real games, and
the per-seat (and per-faction) tables of reports.measures.flow_groups.
"""
from __future__ import annotations

import polars as pl

from ..measures import flow, flow_groups
from . import flow_plots

SAMPLE_GAMES = 4          # real games drawn as one line per seat
METRIC_TEXT = {
    "lead_changes": "lead changes per game (mean)",
    "decisiveness": "decisiveness: share of the game played when the winner took the lead for good (mean)",
    "drama": "drama: how far behind the winner was at its worst, in standing (mean)",
    "comeback": "comebacks: the winner was last at the halfway round (share of games)",
    "late_swap": "uncertainty: the last round changed the leader (share of games)",
}


def _pp(t) -> str:
    return f"{100 * t[0]:+.1f} pp [{100 * t[1]:+.1f}, {100 * t[2]:+.1f}]"


def group_tables(g: pl.DataFrame, st, rounds, winner, faction_label: str) -> list[dict]:
    """The per-seat table, and the per-faction one for a game with factions (reports.measures.flow_groups),
    each with a sentence per group whose runaway or comeback rate differs from the others."""
    out = []
    fac = flow.factions(g)
    kinds = [("seat", flow_groups.seat_groups(*winner.shape))] + ([(faction_label, fac)] if fac is not None else [])
    for kind, group in kinds:
        t = flow_groups.table(st, rounds, winner, group)
        notes = []
        for r in t.iter_rows(named=True):
            for m in flow_groups.RATES:
                if r[f"{m}_flag"]:
                    d = (r[f"{m}_diff"], r[f"{m}_diff_lo"], r[f"{m}_diff_hi"])
                    notes.append(f"{kind} {r['group']}: {m} rate {'above' if d[0] > 0 else 'below'} the other "
                                 f"{kind}s', {_pp(d)} (an association: interval excludes equality, "
                                 f"Bonferroni over {t.height} {kind}s)")
        out.append({"kind": kind, "rows": t.to_dicts(), "notes": notes})
    return out


def build(games: pl.DataFrame, base_ids: list[int], reference: int, labels: dict, standing_label: str,
          faction_label: str = "faction") -> dict | None:
    """Tables and figures of the section, or None for a run without trajectories."""
    if not flow.has_trajectories(games):
        return None
    rows = []
    ref = None
    for point in base_ids:
        g = games.filter(pl.col("point") == point)
        if g.height == 0:
            continue
        st, rounds, winner = flow.arrays(g)
        summ = flow.summary(st, rounds, winner)
        row = {"point": point, "label": labels[point], "games": g.height}
        for r in summ.iter_rows(named=True):
            row[r["metric"]] = (r["value"], r["lo"], r["hi"], r["kind"])
        rows.append(row)
        if point == reference:
            ref = (g, st, rounds, winner)
    if ref is None:
        return {"rows": rows, "figures": [], "label": standing_label, "metric_text": METRIC_TEXT}
    g, st, rounds, winner = ref
    curve = flow.runaway_curve(st, rounds, winner)
    changes = flow.per_game(st, rounds, winner)["lead_changes"].to_numpy()
    sample = [(int(g["game"][k]), st[k, :rounds[k]], winner[k]) for k in range(min(SAMPLE_GAMES, g.height))]
    figures = [
        {"title": f"Runaway leader: {labels[reference]}", "src": flow_plots.runaway_chart(curve),
         "alt": "probability that the sole leader after round r wins, with 95% bands, against the fair share"},
        {"title": f"Lead changes per game: {labels[reference]}", "src": flow_plots.lead_change_chart(changes),
         "alt": "histogram of the number of lead changes per game"},
        {"title": f"Real games ({standing_label} after each round): {labels[reference]}",
         "src": flow_plots.trajectory_chart(sample, standing_label),
         "alt": "one line per seat for a few games, the winner drawn thick"},
    ]
    return {"rows": rows, "figures": figures, "label": standing_label, "metric_text": METRIC_TEXT,
            "curve": curve.to_dicts(), "groups": group_tables(g, st, rounds, winner, faction_label),
            "group_text": flow_groups.TEXT, "reference_label": labels[reference]}
