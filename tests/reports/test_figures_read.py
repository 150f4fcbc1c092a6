"""The report's figures read: a title on the board image, whole-number ticks on whole-number
axes, every shaded band named in a legend, no panel drawn twice, and no two x tick labels
overlapping (their drawn boxes, from the renderer's window extents)."""
from __future__ import annotations

import base64
import copy
import io

import numpy as np
import polars as pl
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from reports.page import flow_plots, plots
from reports.page.html import build_context

from test_board_in_report import _evo_board

GENE_MIXES = ["printed", "fewer eggs, more horns", "more eggs, fewer horns", "fewer layers, more legs", "no vials"]


def sweep_table(xs: list, series: dict | None = None) -> pl.DataFrame:
    """Headline rows along a swept axis `x` (and a second one, `series`, when given)."""
    rows = []
    for s in (series or {None: None}):
        for k, x in enumerate(xs):
            b = 0.9 + 0.01 * k
            rows.append({"point": len(rows), "x": x, **({"unique": str(s)} if series else {}),
                         "balance": b, "balance_low": b - 0.03, "balance_high": b + 0.03,
                         "seat0_rate": 0.25 + 0.01 * k, "seat0_low": 0.22, "seat0_high": 0.3, "fair": 0.25,
                         "mean_rounds": 10.0 + k, "ci_low": 9.8 + k, "ci_high": 10.2 + k,
                         "stall_rate": 0.0, "stall_low": 0.0, "stall_high": 0.0})
    return pl.DataFrame(rows)


def _bands(ax) -> list:
    """The shaded areas of an axes: interval bands (fill_between) and spans (axhspan, axvspan),
    not the bars."""
    bars = {id(p) for c in ax.containers for p in c}
    return [c for c in ax.collections if isinstance(c, PolyCollection)] + \
        [p for p in ax.patches if id(p) not in bars]


def _legend_texts(fig: Figure, ax) -> set[str]:
    legends = [lg for lg in [ax.get_legend(), *fig.legends] if lg is not None]
    return {t.get_text() for lg in legends for t in lg.get_texts()}


def _whole_ticks(ax) -> list[float]:
    lo, hi = ax.get_xlim()
    return [t for t in ax.get_xticks() if lo <= t <= hi]


# ----------------------------------------------------------------------------- the board's title

def test_the_board_figure_has_its_title_drawn_on_the_image(planted_run):
    from PIL import Image
    manifest = copy.deepcopy(planted_run.manifest)
    manifest["board"] = _evo_board(4)
    board = build_context(manifest, planted_run.games(), planted_run.tallies())["figures"][0]
    image = np.asarray(Image.open(io.BytesIO(base64.b64decode(board["src"].split(",", 1)[1]))).convert("L"))
    top = image[: image.shape[0] // 14, : image.shape[1] * 3 // 4]       # above the map, left of the legend
    assert (top < 80).sum() > 100, "no title text above the map"


def _titles(fig: Figure) -> list[str]:
    return [t for t in [fig.get_suptitle()] + [ax.get_title() for ax in fig.axes] if t]


@pytest.mark.parametrize("figure", [
    lambda: flow_plots.lead_change_chart.figure(np.array([0, 1, 1, 2, 3])),
    lambda: flow_plots.runaway_chart.figure(pl.DataFrame({"round": [1, 2], "p_win": [0.3, 0.5], "lo": [0.2, 0.4],
                                                          "hi": [0.4, 0.6], "fair_share": [0.25] * 2})),
    lambda: flow_plots.trajectory_chart.figure([(7, np.array([[1, 2], [2, 3]]), np.array([True, False]))], "points"),
    lambda: plots.length_chart.figure(pl.DataFrame({"rounds": [9, 10], "share": [0.5, 0.5]})),
    lambda: plots.sweep_chart.figure(sweep_table(["3", "4"]), "x"),
], ids=["lead changes", "runaway", "trajectory", "length", "sweep"])
def test_every_figure_has_a_title_drawn_on_it(figure):
    assert _titles(figure())


# ----------------------------------------------------------------------------- whole-number axes

@pytest.mark.parametrize("figure", [
    lambda: plots.length_chart.figure(pl.DataFrame({"rounds": [9, 10, 11], "share": [0.4, 0.3, 0.3]}), (8, 15)),
    lambda: flow_plots.lead_change_chart.figure(np.array([0, 1, 1, 2, 3])),
    lambda: flow_plots.runaway_chart.figure(pl.DataFrame({"round": [1, 2, 3], "p_win": [0.3, 0.5, 0.7],
                                                          "lo": [0.2, 0.4, 0.6], "hi": [0.4, 0.6, 0.8],
                                                          "fair_share": [0.25] * 3})),
    lambda: flow_plots.trajectory_chart.figure([(7, np.array([[1, 2], [2, 3], [4, 3]]), np.array([True, False]))],
                                               "points"),
    lambda: plots.sweep_chart.figure(sweep_table(["3", "4", "5", "6"]), "x"),
], ids=["length", "lead changes", "runaway", "trajectory", "integer parameter"])
def test_a_whole_number_axis_has_whole_number_ticks_only(figure):
    fig = figure()
    fig.draw_without_rendering()
    for ax in fig.axes:
        if ax.get_visible():
            ticks = _whole_ticks(ax)
            assert ticks and all(float(t).is_integer() for t in ticks), ticks


# ----------------------------------------------------------------------------- bands in the legend

@pytest.mark.parametrize("figure", [
    lambda: plots.sweep_chart.figure(sweep_table(["3", "4", "6"], {4: 0, 8: 0}), "x", ["unique"], (8, 15)),
    lambda: plots.sweep_chart.figure(sweep_table(["3", "4", "6"]), "x", (), (8, 15)),
    lambda: plots.length_chart.figure(pl.DataFrame({"rounds": [9, 10, 11], "share": [0.4, 0.3, 0.3]}), (8, 15)),
    lambda: plots.faction_sweep_chart.figure(
        pl.DataFrame({"point": [0, 1, 0, 1], "faction": ["Panda", "Panda", "Mantis", "Mantis"],
                      "win_rate": [0.3, 0.28, 0.2, 0.22], "ci_low": [0.28, 0.26, 0.18, 0.2],
                      "ci_high": [0.32, 0.3, 0.22, 0.24], "fair": [0.25] * 4}), {0: "3", 1: "4"}, "x", "animal"),
    lambda: flow_plots.runaway_chart.figure(pl.DataFrame({"round": [1, 2, 3], "p_win": [0.3, 0.5, 0.7],
                                                          "lo": [0.2, 0.4, 0.6], "hi": [0.4, 0.6, 0.8],
                                                          "fair_share": [0.25] * 3})),
], ids=["sweep with series", "sweep", "length", "faction sweep", "runaway"])
def test_every_shaded_band_is_named_in_a_legend(figure):
    fig = figure()
    bands = [(ax, b) for ax in fig.axes for b in _bands(ax)]
    assert bands
    for ax, band in bands:
        assert not band.get_label().startswith("_") and band.get_label() in _legend_texts(fig, ax), band.get_label()


# ----------------------------------------------------------------------------- no panel twice

def test_seats_named_as_factions_are_drawn_once_not_as_a_second_identical_panel():
    seats = pl.DataFrame({"seat": [0, 1, 2, 3], "win_rate": [0.3, 0.25, 0.2, 0.25], "ci_low": [0.25, 0.2, 0.15, 0.2],
                          "ci_high": [0.35, 0.3, 0.25, 0.3], "fair": [0.25] * 4})
    as_factions = seats.with_columns(faction=pl.format("seat {}", "seat"))
    assert len(plots.win_rate_chart.figure(seats, as_factions, "faction").axes) == 1
    animals = as_factions.with_columns(faction=pl.Series(["Panda", "Mantis", "Platypus", "Tardigrade"]))
    assert len(plots.win_rate_chart.figure(seats, animals, "animal").axes) == 2


# ----------------------------------------------------------------------------- x labels apart

def test_the_overlap_check_sees_labels_drawn_over_each_other():
    fig, (ax,) = plots._figure(4, 3)
    ax.set_xticks(range(5), GENE_MIXES)
    assert plots.overlapping_tick_labels(fig)


@pytest.mark.parametrize("figure", [
    lambda: plots.sweep_chart.figure(sweep_table(GENE_MIXES, {4: 0, 8: 0, 12: 0}), "x", ["unique"]),
    lambda: plots.sweep_chart.figure(sweep_table(GENE_MIXES), "x"),
    lambda: plots.sweep_chart.figure(sweep_table([str(v) for v in range(1, 31)]), "x"),
    lambda: plots.win_rate_chart.figure(
        pl.DataFrame({"seat": [0, 1, 2, 3], "win_rate": [0.25] * 4, "ci_low": [0.2] * 4, "ci_high": [0.3] * 4,
                      "fair": [0.25] * 4}),
        pl.DataFrame({"faction": [f"Sea Cucumber {k}" for k in range(12)], "win_rate": [0.25] * 12,
                      "ci_low": [0.2] * 12, "ci_high": [0.3] * 12, "fair": [0.25] * 12}), "animal"),
], ids=["gene mix with series", "gene mix", "thirty values", "twelve animals"])
def test_no_two_x_tick_labels_overlap(figure):
    assert plots.overlapping_tick_labels(figure()) == []
