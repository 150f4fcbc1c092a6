"""Tables and figures that explain themselves: every column defined, settings named, entity
values beside each name, no "-0.0", no all-zero panel, a per-faction sweep figure."""
from __future__ import annotations

import base64
import io
import re

import polars as pl
import pytest

from experiments import cli
from reports.page import plots
from reports.page.findings import pp


@pytest.fixture(scope="module")
def html(planted_run, tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("explain") / "report.html"
    assert cli.main(["report", str(planted_run.path), "--out", str(out)]) == 0
    return out.read_text()


def _table(html: str, table_id: str) -> str:
    return re.search(rf'<table[^>]*id="{table_id}".*?</table>', html, re.S).group(0)


@pytest.mark.parametrize("table_id", ["headline-table", "entity-table"])
def test_every_column_of_the_main_tables_has_a_definition(html, table_id):
    heads = re.findall(r"<th(\s[^>]*)?>(.*?)</th>", re.search(r"<thead>.*?</thead>", _table(html, table_id), re.S).group(0))
    assert len(heads) >= (8 if table_id == "headline-table" else 5)     # the entity table: 2 columns a point
    undefined = [text for attrs, text in heads if "title=" not in (attrs or "")]
    assert not undefined, undefined


def test_settings_are_named_and_entities_carry_their_values(html):
    table = _table(html, "entity-table")
    assert "fourth_card_space = 3" in table                      # the setting, not "point 0"
    cell = re.search(r"<td class=\"l\" title=\"([^\"]*)\"><b>Pelliccia</b><br><small>([^<]+)</small>", table)
    assert cell and "amount 4" in cell.group(2) and "effect gain_points" in cell.group(2)


def test_no_negative_zero_anywhere(html):
    text = re.sub(r"data:image/png;base64,[^\"]+", "", html)
    assert not re.search(r"-0\.0+(?![0-9])", text)
    assert pp(-0.0004) == "0.0 pp" and pp(0.0004) == "0.0 pp" and pp(-0.0006) == "-0.1 pp"


def test_the_sweep_has_a_per_faction_win_rate_figure_with_bands(html):
    assert re.search(r'alt="each animal&#39;s win rate against fourth_card_space, with 95% bands', html)


def _width(uri: str) -> int:
    from PIL import Image
    return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).size[0]


def test_an_all_zero_panel_is_left_out_of_the_sweep_figure():
    pytest.importorskip("PIL")
    base = {"point": [0, 1], "x": ["1", "2"], "balance": [0.9, 0.92], "balance_low": [0.88, 0.9],
            "balance_high": [0.92, 0.94], "mean_rounds": [10.0, 11.0], "ci_low": [9.8, 10.8], "ci_high": [10.2, 11.2],
            "stall_rate": [0.0, 0.0], "stall_low": [0.0, 0.0], "stall_high": [0.001, 0.001]}
    without = plots.sweep_chart(pl.DataFrame(base), "x")
    stalls = plots.sweep_chart(pl.DataFrame({**base, "stall_rate": [0.01, 0.02]}), "x")
    assert _width(without) < _width(stalls)
