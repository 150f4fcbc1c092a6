"""A game with a board puts the map of the reference point's player count in the report;
games without one (every card game) put none."""
from __future__ import annotations

import copy

from reports.page.html import build_context
from simcore.games.evo import maps
from simcore.games.evo.schema import GAME_DATA as EVO_DATA


def _evo_board(players: int) -> dict:
    rs = EVO_DATA.load("default")
    zones, edges = maps.plot_data(rs, maps.load_map(rs, players))
    return {"players": players, "zones": zones, "edges": [list(e) for e in edges],
            "terrains": list(rs["terrains"])}


def test_card_games_have_no_board_figure(planted_run):
    assert planted_run.manifest.get("board") is None
    ctx = build_context(planted_run.manifest, planted_run.games(), planted_run.tallies())
    assert not any(f["title"].startswith("The board") for f in ctx["figures"])


def test_a_board_in_the_manifest_is_drawn_first_with_its_player_count(planted_run):
    manifest = copy.deepcopy(planted_run.manifest)
    manifest["board"] = _evo_board(3)
    ctx = build_context(manifest, planted_run.games(), planted_run.tallies())
    first = ctx["figures"][0]
    assert first["title"] == "The board: 3 players"
    assert first["src"].startswith("data:image/png;base64,") and len(first["src"]) > 5000


def test_board_record_takes_the_reference_points_players():
    from types import SimpleNamespace
    from experiments.sweep import board_record
    seen = []

    class FakeGame:
        def board(self, rs, players):
            seen.append(players)
            return {"zones": [{"name": "a"}], "edges": [("a", "a")], "terrains": ["plains"]}

    points = [SimpleNamespace(index=i, ruleset=None, spec=SimpleNamespace(players=p)) for i, p in enumerate((2, 5))]
    rec = board_record(FakeGame(), points, reference=1)
    assert seen == [5] and rec["players"] == 5 and rec["edges"] == [["a", "a"]]
