"""The per-seat and per-faction tables of "How the game unfolds" (reports/page/flow.py; the arrays: reports/measures/flow.py):
present for a run with trajectories, absent without, and their numbers are reports.measures.flow_groups'
on the run's own rows."""
import re

import pytest

from experiments.cli import main
from experiments.store import open_run
from reports.measures import flow, flow_groups
from reports.page.findings import pct, pp


def _table(html: str, table_id: str) -> list[list[str]]:
    """The text of each body cell of one table, row by row."""
    body = re.search(rf'<table[^>]*id="{table_id}"[^>]*>.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [[re.sub(r"<[^>]+>", "", c).replace("&ndash;", "-").replace("&#9650;", "^").replace("&#9660;", "v").strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("flow") / "run"
    # seat 0 greedy against three random seats: a seat with a planted edge
    assert main(["run", "evolversi", "--games", "1500", "--bots", "greedy,random,random,random",
                 "--trajectories", "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    return out


def test_the_seat_and_animal_tables_show_the_numbers_flow_groups_computes(run):
    html = (run / "report.html").read_text()
    games = open_run(run).games()
    st, rounds, winner = flow.arrays(games)
    seat = flow_groups.table(st, rounds, winner, flow_groups.seat_groups(*winner.shape))
    cells = _table(html, "flow-seat-table")
    assert len(cells) == 4
    for r, c in zip(seat.iter_rows(named=True), cells):
        assert c[0] == r["group"] and c[1] == f"{r['seat_games']:,}" and c[2] == pct(r["win_rate"])
        assert c[3] == pct(r["runaway"]) and c[4] == f"{pct(r['runaway_lo'])}-{pct(r['runaway_hi'])}"
        mark = ("^" if r["runaway_diff"] > 0 else "v") if r["runaway_flag"] else ""
        assert c[5] == f"{pp(r['runaway_diff'])} {mark}".strip()
        assert c[6] == pct(r["leader_wins"]) and c[8] == pct(r["comeback"])
        assert c[11] == f"{r['decisiveness']:.2f}" and c[13] == f"{r['drama']:.2f}"
    # the planted edge: greedy seat 0 is the runaway leader more often than the random seats
    assert seat["runaway_flag"][0] and cells[0][5].endswith("^")
    assert "seat 0: runaway rate above the other seats'" in html.replace("&#39;", "'")
    animals = flow_groups.table(st, rounds, winner, flow.factions(games))
    cells = _table(html, "flow-animal-table")
    assert [c[0] for c in cells] == animals["group"].to_list()
    assert [c[3] for c in cells] == [pct(v) for v in animals["runaway"]]


def test_a_game_without_factions_gets_the_seat_table_only(tmp_path):
    out = tmp_path / "run"
    assert main(["run", "evo", "--games", "200", "--bots", "random", "--trajectories", "--out", str(out)]) == 0
    games = open_run(out).games()
    assert flow.factions(games) is None
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="flow-seat-table"' in html and 'id="flow-animal-table"' not in html
    st, rounds, winner = flow.arrays(games)
    seat = flow_groups.table(st, rounds, winner, flow_groups.seat_groups(*winner.shape))
    assert [c[3] for c in _table(html, "flow-seat-table")] == [pct(v) for v in seat["runaway"]]
