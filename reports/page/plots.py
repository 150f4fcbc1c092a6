"""Figures for the balance report: matplotlib (Agg canvas, no pyplot state), PNG as base64.

Each function takes metric frames (reports.measures.metrics) and returns a `data:image/png;base64,`
URI, ready for an <img src>, so the HTML file needs nothing from the network.
"""
from __future__ import annotations

import base64
import functools
import io
import textwrap
from typing import Sequence

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

BLUE, RED, GREY, GREEN = "#1f77b4", "#d62728", "#7f7f7f", "#2ca02c"
DPI = 96
BAND = "shaded: 95% interval"        # the legend entry of every 95% interval band
WRAP = 14                            # characters per line of a wrapped tick label
MAX_VALUE_TICKS = 12                 # an integer parameter with more values gets whole-number ticks of its own choosing


def _figure(width: float, height: float, ncols: int = 1):
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, axes


def to_data_uri(fig: Figure) -> str:
    """Render a figure to a base64 PNG data URI."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _label_boxes(fig: Figure) -> list[list]:
    """Per axes, its shown x tick labels' drawn boxes (renderer window extents), left to right."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        shown = [t for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
        out.append(sorted(((t.get_window_extent(renderer), t.get_text()) for t in shown), key=lambda b: b[0].x0))
    return out


def overlapping_tick_labels(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of neighbouring x tick labels whose drawn boxes overlap, over every axes of the figure."""
    return [(a[1], b[1]) for boxes in _label_boxes(fig) for a, b in zip(boxes, boxes[1:]) if a[0].overlaps(b[0])]


def _crowded(fig: Figure) -> list:
    """The axes whose x tick labels overlap, with their label boxes."""
    return [(ax, boxes) for ax, boxes in zip(fig.axes, _label_boxes(fig))
            if any(a[0].overlaps(b[0]) for a, b in zip(boxes, boxes[1:]))]


def legible(fig: Figure) -> Figure:
    """Make every axes' x tick labels readable: where neighbours overlap, wrap them at spaces,
    then turn them upright, then show only every k-th label, k from the widest label and the
    narrowest gap between ticks."""
    for ax, _ in _crowded(fig):
        ax.set_xticks(ax.get_xticks(), [textwrap.fill(t.get_text(), WRAP) for t in ax.get_xticklabels()])
    for ax, _ in _crowded(fig):
        ax.tick_params(axis="x", labelrotation=90)
    for ax, boxes in _crowded(fig):
        centres = np.array([(b.x0 + b.x1) / 2 for b, _ in boxes])
        widest = max(b.width for b, _ in boxes) * 1.15
        step = int(np.ceil(widest / max(np.diff(centres).min(), 1e-9)))
        for k, t in enumerate(ax.get_xticklabels()):
            t.set_visible(k % step == 0)
    return fig


def chart(build):
    """A figure builder -> a function returning its PNG data URI, its labels made legible first;
    `.figure(...)` returns the finished Figure (for tests and for saving)."""
    def figure(*args, **kwargs) -> Figure:
        return legible(build(*args, **kwargs))

    @functools.wraps(build)
    def uri(*args, **kwargs) -> str:
        return to_data_uri(figure(*args, **kwargs))
    uri.figure = figure
    return uri


def integer_ticks(ax, axis: str = "x") -> None:
    """Ticks at whole numbers only (a count or a round number)."""
    getattr(ax, f"{axis}axis").set_major_locator(MaxNLocator(integer=True))


def legend_once(target, **kwargs) -> None:
    """A legend on an axes, or on the figure over all its axes, with each label once."""
    axes = target.axes if isinstance(target, Figure) else [target]
    entries = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(lab, h)
    if entries:
        target.legend(list(entries.values()), list(entries), **kwargs)


def _errorbars(ax, labels, rate, lo, hi, fair=None, colour=BLUE, title="", ylabel="win rate"):
    x = np.arange(len(labels))
    rate, lo, hi = (np.asarray(v, dtype=float) for v in (rate, lo, hi))
    ax.bar(x, rate, color=colour, alpha=0.75)
    ax.errorbar(x, rate, yerr=[rate - lo, hi - rate], fmt="none", ecolor="black", capsize=4, lw=1)
    if fair is not None:
        ax.axhline(fair, color=GREY, ls="--", lw=1, label=f"fair share {fair:.0%}")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, max(0.05, float(np.nanmax(hi)) * 1.15) if len(hi) else 1)


@chart
def win_rate_chart(seats: pl.DataFrame, factions: pl.DataFrame, faction_label: str = "faction",
                   title: str = "") -> Figure:
    """Win rate per seat and per faction, with 95% intervals and the fair share; one panel when
    the factions are the seats (faction_label "seat", or every faction named after its seat)."""
    same = sorted(map(str, factions["faction"].to_list())) == sorted(f"seat {s}" for s in seats["seat"].to_list()) \
        if factions.height else True
    two = faction_label != "seat" and not same
    fig, axes = _figure(10 if two else 6, 3.6, 2 if two else 1)
    fair = float(seats["fair"][0]) if seats.height else None
    _errorbars(axes[0], [f"seat {s}" for s in seats["seat"]], seats["win_rate"], seats["ci_low"], seats["ci_high"],
               fair, BLUE, "by seat (turn order at the table)")
    if two:
        _errorbars(axes[1], factions["faction"].to_list(), factions["win_rate"], factions["ci_low"],
                   factions["ci_high"], float(factions["fair"].mean()) if factions.height else None, GREEN,
                   f"by {faction_label}")
    default = f"Win rate per seat and per {faction_label} (95% intervals)" if two else "Win rate per seat (95% intervals)"
    fig.suptitle(title or default, fontsize=11)
    return fig


@chart
def length_chart(hist: pl.DataFrame, target: Sequence[int] | None = None, title: str = "") -> Figure:
    """Histogram of game length in rounds, with the target band shaded."""
    fig, (ax,) = _figure(7, 3.4)
    ax.bar(hist["rounds"].to_numpy(), hist["share"].to_numpy(), width=0.85, color=BLUE, alpha=0.8)
    if target is not None:
        ax.axvspan(target[0] - 0.5, target[1] + 0.5, color=GREEN, alpha=0.12,
                   label=f"target {target[0]}-{target[1]} rounds")
        ax.legend(fontsize=8)
    integer_ticks(ax)
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games")
    ax.set_title(title or "Game length (share of games per number of rounds)", fontsize=11)
    return fig


def _numeric(labels: Sequence[str]) -> np.ndarray | None:
    try:
        return np.array([float(v) for v in labels])
    except (TypeError, ValueError):
        return None


SWEEP_PANELS = (
    ("balance", "balance_low", "balance_high", "balance (1 - largest win-rate gap)"),
    ("seat0_rate", "seat0_low", "seat0_high", "seat 0 win rate"),
    ("mean_rounds", "ci_low", "ci_high", "mean rounds"),
    ("stall_rate", "stall_low", "stall_high", "stalled games"),
)


@chart
def sweep_chart(table: pl.DataFrame, x: str, series: Sequence[str] = (), target: Sequence[int] | None = None) -> Figure:
    """Headline metrics against one swept variable, one line per combination of `series`,
    with 95% interval bands."""
    # A panel whose values are all zero (e.g. no game ever stalls) says nothing: leave it out.
    panels = [p for p in SWEEP_PANELS if p[0] in table.columns
              and not (table[p[0]].fill_null(0).fill_nan(0) == 0).all()]
    fig, axes = _figure(3.4 * len(panels), 3.3, len(panels))
    xs_all = list(dict.fromkeys(table[x].to_list()))
    numeric = _numeric(xs_all)
    groups = table.group_by(list(series), maintain_order=True) if series else [((), table)]
    for key, grp in groups:
        name = ", ".join(f"{s} {v}" for s, v in zip(series, key)) or None
        pos = np.array([xs_all.index(v) for v in grp[x].to_list()])
        xv = numeric[pos] if numeric is not None else pos.astype(float)
        order = np.argsort(xv)
        for ax, (col, lo, hi, label) in zip(axes, panels):
            y, l, h = (grp[c].to_numpy().astype(float)[order] for c in (col, lo, hi))
            line = ax.plot(xv[order], y, marker="o", ms=4, label=name)[0]
            ax.fill_between(xv[order], l, h, color=line.get_color(), alpha=0.18, label=BAND)
            ax.set_title(label, fontsize=10)
            ax.set_xlabel(x)
    for ax, (col, *_rest) in zip(axes, panels):
        _parameter_ticks(ax, xs_all, numeric)
        if col == "seat0_rate" and "fair" in table.columns:
            for f in sorted(set(table["fair"].drop_nulls().to_list())):
                ax.axhline(f, color=GREY, ls="--", lw=0.8, label=f"fair share {f:.0%}")
        if col == "mean_rounds" and target is not None:
            ax.axhspan(target[0], target[1], color=GREEN, alpha=0.08, label=f"target {target[0]}-{target[1]} rounds")
    legend_once(fig, loc="outside lower center", ncols=4, fontsize=8)
    fig.suptitle(f"Headline metrics against {x} (95% bands)", fontsize=11)
    return fig


def _parameter_ticks(ax, values: list, numeric: np.ndarray | None) -> None:
    """Ticks at a swept parameter's values: its labels when not numbers, its values when an integer
    parameter with few values, whole numbers when one with many, the default ticks otherwise."""
    if numeric is None:
        ax.set_xticks(np.arange(len(values)), [str(v) for v in values])
    elif np.all(numeric == np.round(numeric)) and len(numeric) <= MAX_VALUE_TICKS:
        ax.set_xticks(numeric, [str(int(v)) for v in numeric])
    elif np.all(numeric == np.round(numeric)):
        integer_ticks(ax)


@chart
def faction_sweep_chart(factions: pl.DataFrame, x_of_point: dict, x: str, faction_label: str = "faction") -> Figure:
    """Each faction's win rate against the swept value, with its 95% band and the fair share."""
    fig, (ax,) = _figure(8, 3.8)
    xs_all = list(dict.fromkeys(x_of_point[p] for p in sorted(x_of_point)))
    numeric = _numeric(xs_all)
    df = factions.filter(pl.col("point").is_in(list(x_of_point)))
    for (name,), grp in df.sort("point").group_by(["faction"], maintain_order=True):
        pos = np.array([xs_all.index(x_of_point[p]) for p in grp["point"].to_list()])
        xv = numeric[pos] if numeric is not None else pos.astype(float)
        order = np.argsort(xv)
        y, lo, hi = (grp[c].to_numpy().astype(float)[order] for c in ("win_rate", "ci_low", "ci_high"))
        line = ax.plot(xv[order], y, marker="o", ms=4, label=str(name))[0]
        ax.fill_between(xv[order], lo, hi, color=line.get_color(), alpha=0.15, label=BAND)
    if df.height:
        for f in sorted(set(df["fair"].drop_nulls().round(4).to_list())):
            ax.axhline(f, color=GREY, ls="--", lw=0.8, label=f"fair share {f:.0%}")
    _parameter_ticks(ax, xs_all, numeric)
    ax.set_xlabel(x)
    ax.set_ylabel("win rate")
    legend_once(ax, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(f"Win rate per {faction_label} against {x} (95% bands)", fontsize=11)
    return fig


@chart
def entity_chart(impact: pl.DataFrame, top: int = 15, kind: str = "card", title: str = "") -> Figure:
    """The entities with the surest effects: win-rate difference (acquired - not) with the
    comparison-corrected interval; entities whose interval excludes zero are highlighted."""
    df = impact.sort("rank").head(top)
    n = max(df.height, 1)
    fig, (ax,) = _figure(8, 0.9 + 0.32 * n)
    y = np.arange(df.height)[::-1]
    eff = df["effect"].to_numpy() * 100
    lo, hi = df["ci_low"].to_numpy() * 100, df["ci_high"].to_numpy() * 100
    # An association: never in the verdict's red and blue; the intervals that exclude zero darker.
    colours = ["#4b5563" if f else "#c7cbd1" for f in df["flagged"].to_list()]
    ax.barh(y, eff, color=colours, alpha=0.7)
    ax.errorbar(eff, y, xerr=[eff - lo, hi - eff], fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, df["entity"].to_list())
    ax.set_xlabel(f"win rate when the {kind} was acquired minus when not (percentage points)")
    ax.set_title(title or f"{kind} impact, an association (ranked by the interval bound nearest zero)", fontsize=10)
    return fig


@chart
def ablation_chart(ablation: pl.DataFrame, kind: str = "card") -> Figure:
    """Causal effect on the acquirers' win rate (paired by game), one bar per ablation."""
    df = ablation.sort("rank")
    labels = [f"{e} (point {b})" for e, b in zip(df["entity"].to_list(), df["base"].to_list())]
    fig, (ax,) = _figure(8, 0.9 + 0.34 * max(df.height, 1))
    y = np.arange(df.height)[::-1]
    eff = np.nan_to_num(df["effect"].to_numpy().astype(float) * 100, nan=0.0)
    lo = np.nan_to_num(df["ci_low"].to_numpy().astype(float) * 100, nan=0.0)
    hi = np.nan_to_num(df["ci_high"].to_numpy().astype(float) * 100, nan=0.0)
    ax.barh(y, eff, color=[RED if f else GREY for f in df["flagged"].to_list()], alpha=0.7)
    ax.errorbar(eff, y, xerr=[np.maximum(eff - lo, 0), np.maximum(hi - eff, 0)], fmt="none", ecolor="black",
                capsize=3, lw=1)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel(f"acquirers' win rate with the {kind} minus without it, same games (pp)")
    ax.set_title("paired checks: the same games with the entity knocked out or removed", fontsize=10)
    return fig



@chart
def change_chart(rows: Sequence[dict], name_key: str, title: str, xlabel: str) -> Figure:
    """Paired changes (after - before) with their intervals, one bar per row; red = up, blue = down
    where the interval excludes zero, grey otherwise."""
    n = max(len(rows), 1)
    fig, (ax,) = _figure(8, 1.1 + 0.34 * n)
    y = np.arange(len(rows))[::-1]
    eff = np.nan_to_num(np.array([r["change"] for r in rows], dtype=float) * 100)
    lo = np.nan_to_num(np.array([r["ci_low"] for r in rows], dtype=float) * 100)
    hi = np.nan_to_num(np.array([r["ci_high"] for r in rows], dtype=float) * 100)
    colours = [RED if l > 0 else (BLUE if h < 0 else GREY) for l, h in zip(lo, hi)]
    ax.barh(y, eff, color=colours, alpha=0.7)
    ax.errorbar(eff, y, xerr=[np.maximum(eff - lo, 0), np.maximum(hi - eff, 0)], fmt="none", ecolor="black",
                capsize=3, lw=1)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [str(r[name_key]) for r in rows])
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return fig
