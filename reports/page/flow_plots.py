"""Figures of the "How the game unfolds" section (matplotlib, Agg canvas, PNG data URIs)."""
from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .plots import BAND, BLUE, DPI, GREY, _figure, chart, integer_ticks


@chart
def runaway_chart(curve: pl.DataFrame) -> Figure:
    """P(win | sole leader after round r) against r, its 95% band, and the fair share."""
    fig, (ax,) = _figure(6.4, 3.2)
    r, p, lo, hi = (curve[c].to_numpy() for c in ("round", "p_win", "lo", "hi"))
    ax.fill_between(r, lo, hi, color=BLUE, alpha=0.2, lw=0, label=BAND)
    ax.plot(r, p, color=BLUE, marker="o", ms=3, label="P(win | sole leader after round r)")
    if curve.height:
        ax.axhline(float(curve["fair_share"][0]), color=GREY, ls="--", lw=1, label="fair share")
    integer_ticks(ax)
    ax.set_xlabel("round r")
    ax.set_ylabel("win probability")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Runaway leader: how often the sole leader after round r wins", fontsize=11)
    return fig


@chart
def lead_change_chart(changes: np.ndarray) -> Figure:
    """Histogram of lead changes per game."""
    fig, (ax,) = _figure(6.4, 2.8)
    changes = np.asarray(changes, dtype=np.int64)
    counts = np.bincount(changes) if changes.size else np.zeros(1, np.int64)
    ax.bar(np.arange(len(counts)), counts / max(changes.size, 1), color=BLUE, alpha=0.8)
    integer_ticks(ax)
    ax.set_xlabel("lead changes in the game")
    ax.set_ylabel("share of games")
    ax.set_title("Lead changes per game", fontsize=11)
    return fig


@chart
def trajectory_chart(sample: list, standing_label: str) -> Figure:
    """A few real games (two per row): each seat's standing after each round; winners drawn thick."""
    n = max(len(sample), 1)
    rows = (n + 1) // 2
    fig = Figure(figsize=(6.4, 0.3 + 2.6 * rows), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    fig.suptitle(f"A few games: each seat's {standing_label} after each round", fontsize=11)
    axes = fig.subplots(rows, 2, squeeze=False).ravel()
    for ax in axes[len(sample):]:
        ax.set_visible(False)
    for ax, (game, standing, winner) in zip(axes, sample):
        rounds = np.arange(1, standing.shape[0] + 1)
        for s in range(standing.shape[1]):
            ax.plot(rounds, standing[:, s], lw=2.5 if winner[s] else 1,
                    label=f"seat {s}" + (" (won)" if winner[s] else ""))
        ax.set_title(f"game {game}", fontsize=9)
        integer_ticks(ax)
        ax.set_xlabel("round")
        ax.set_ylabel(standing_label, fontsize=8)
        ax.legend(fontsize=7, loc="upper left")
    return fig
