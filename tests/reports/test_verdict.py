"""The verdict at the top of every report: too strong / too weak beyond a stated threshold,
default-value warnings before the results, and a next-step config per problem."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from experiments import cli
from reports.measures import verdict as V


@pytest.mark.parametrize("value,lo,hi,fair,expect", [
    (0.30, 0.28, 0.32, 0.25, V.STRONG),      # 5 pp above, interval above fair
    (0.20, 0.18, 0.22, 0.25, V.WEAK),
    (0.27, 0.26, 0.28, 0.25, None),          # interval excludes fair, but only 2 pp: under the threshold
    (0.31, 0.24, 0.38, 0.25, None),          # 6 pp, but the interval includes fair
    (float("nan"), 0.1, 0.2, 0.25, None),
])
def test_classify_calls_a_problem_only_beyond_the_threshold_with_the_interval_excluding_fair(value, lo, hi, fair, expect):
    assert V.classify(value, lo, hi, fair) == expect


def test_a_next_step_sweeps_the_number_behind_the_problem_towards_fair():
    tables = {"cards": [{"_row": 2, "name": "Ali", "copies": 2, "strength": 4, "amount": 1, "source": "default"}]}
    config = {"name": "x", "ruleset": "evolversi", "players": [4], "bots": ["greedy"] * 4, "games": 100, "seed": 1}
    strong = V.next_step_config({"name": "Ali", "what": "card", "direction": V.STRONG, "text": "t"}, config, tables)
    weak = V.next_step_config({"name": "Ali", "what": "card", "direction": V.WEAK, "text": "t"}, config, tables)
    assert strong[0] == "next-ali-amount.toml" and "values = [0, 1]" in strong[1]
    assert "values = [1, 2, 3]" in weak[1] and 'bots = "greedy"' in weak[1]
    assert V.next_step_config({"name": "Nobody", "what": "card", "direction": V.WEAK, "text": "t"}, config, tables) is None


@pytest.fixture(scope="module")
def report(planted_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("verdict") / "report.html"
    assert cli.main(["report", str(planted_run.path), "--out", str(out)]) == 0
    return out


def _verdict(html: str) -> str:
    m = re.search(r'<section id="verdict".*?</section>', html, re.S)
    assert m, "no verdict section"
    return m.group(0)


def test_the_verdict_comes_first_and_states_its_threshold_and_colours(report):
    html = report.read_text()
    assert html.index('id="verdict"') < html.index('id="findings"') < html.index('id="headline"')
    v = _verdict(html)
    assert "3.0 percentage points" in v and "(red)" in v and "(blue)" in v and "95%" in v


def test_the_planted_strong_card_is_called_too_strong_with_its_interval_and_a_next_step(report):
    v = _verdict(report.read_text())
    item = re.search(r'<li class="strong">(?:(?!</li>).)*Pelliccia(?:(?!</li>).)*</li>', v, re.S)
    assert item, v[:3000]
    text = item.group(0)
    assert "interval" in text and re.search(r"\+\d+\.\d pp", text)
    step = re.search(r'data-config="([^"]+)"', text)
    assert step and Path(step.group(1)).is_file()
    from experiments.config import load_config
    from experiments.grid import expand
    points = expand(load_config(step.group(1)))
    assert len(points) >= 2                    # the sweep varies the card's number


def test_results_resting_on_default_values_are_flagged_before_the_result(report):
    v = _verdict(report.read_text())
    assert v.index("Warning: every result below rests on values that are our own") < v.index('<ul class="verdict-list">')
    item = re.search(r'<li class="strong">(?:(?!</li>).)*Pelliccia(?:(?!</li>).)*</li>', v, re.S).group(0)
    assert item.index("badge") < item.index("too strong")      # the default-value badge leads the line
