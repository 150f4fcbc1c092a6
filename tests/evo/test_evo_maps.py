"""Evo's maps: the four default boards load and seat everyone fairly enough to play; a designer's
map replaces one with no code change; each kind of broken map is one line on stderr naming the
file and row, exit code 2, and no figure written (`balancelab map`)."""
import shutil

import numpy as np
import pytest

from experiments.cli import main
from simcore.games.evo.maps import load_map, plot_data
from simcore.games.evo.schema import GAME_DATA

PLAYERS = (2, 3, 4, 5)


@pytest.fixture(scope="module")
def rs():
    return GAME_DATA.load()


@pytest.mark.parametrize("players", PLAYERS)
def test_default_map_seats_every_player_on_two_adjacent_coastal_zones(rs, players):
    m = load_map(rs, players)
    assert len(m.names) >= 8 * players          # room for every dinosaur
    for seat in range(players):
        a, b = m.starts(seat)
        assert m.dist[a, b] == 1 and m.coast[a] and m.coast[b]
    assert (m.start >= 0).sum() == 2 * players


@pytest.mark.parametrize("players", PLAYERS)
def test_default_map_is_connected_symmetric_and_uses_every_terrain(rs, players):
    m = load_map(rs, players)
    assert (m.adjacent == m.adjacent.T).all() and not m.adjacent.diagonal().any()
    assert m.dist.max() < len(m.names)
    assert set(m.terrain.tolist()) == set(range(len(rs["terrains"])))
    # every zone's neighbours are at distance 1 and only those
    assert ((m.dist == 1) == m.adjacent).all()


def test_zone_uids_follow_names_not_row_order(rs, tmp_path):
    folder = tmp_path / "data"
    (folder / "maps" / "4").mkdir(parents=True)
    src = GAME_DATA.data_dir / "maps" / "4"
    lines = (src / "zones.csv").read_text().splitlines(keepends=True)
    (folder / "maps" / "4" / "zones.csv").write_text(lines[0] + "".join(reversed(lines[1:])))
    shutil.copy(src / "adjacency.csv", folder / "maps" / "4" / "adjacency.csv")
    mine = load_map(GAME_DATA.load(data_dir=folder), 4)
    base = load_map(rs, 4)
    assert mine.names == base.names
    assert (mine.adjacent == base.adjacent).all() and (mine.terrain == base.terrain).all()


def _write_map(folder, players, zones, edges):
    """A designer's map: zones = [(name, terrain, coast, start, x, y)], edges = [(a, b)] rows as given."""
    d = folder / "maps" / str(players)
    d.mkdir(parents=True, exist_ok=True)
    lines = ["zone,terrain,coast,start,x,y,source"]
    lines += [f"{n},{t},{c},{'' if s is None else s},{x},{y},default" for n, t, c, s, x, y in zones]
    (d / "zones.csv").write_text("\n".join(lines) + "\n")
    (d / "adjacency.csv").write_text("zone,neighbour,source\n" + "".join(f"{a},{b},default\n" for a, b in edges))


def _ring(n):
    """A valid 2-player ring of n zones (each zone adjacent to the next), seats on opposite sides."""
    half = n // 2
    zones = [(f"R{i:02d}", ("desert", "plains", "hills", "mountains")[i % 4], 1,
              0 if i in (0, 1) else 1 if i in (half, half + 1) else None, i * 10, (i % 2) * 10) for i in range(n)]
    edges = []
    for i in range(n):
        j = (i + 1) % n
        edges += [(f"R{i:02d}", f"R{j:02d}"), (f"R{j:02d}", f"R{i:02d}")]
    return zones, edges


def test_a_designers_map_replaces_the_default_for_its_player_count(rs, tmp_path, capsys):
    zones, edges = _ring(20)
    _write_map(tmp_path, 2, zones, edges)
    mine = GAME_DATA.load(data_dir=tmp_path)
    m = load_map(mine, 2)
    assert len(m.names) == 20 and m.starts(0) == [0, 1] and m.starts(1) == [10, 11]
    assert m.dist[0, 10] == 10
    assert load_map(mine, 4).names == load_map(rs, 4).names    # other counts keep the built-in map
    out = tmp_path / "ring.png"
    assert main(["map", "evo", "--players", "2", "--data", str(tmp_path), "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "20 zones, 20 adjacencies, 4 starting areas" in capsys.readouterr().out


def test_map_command_draws_every_default_board(tmp_path, capsys):
    for players in PLAYERS:
        out = tmp_path / f"map-{players}.png"
        assert main(["map", "evo", "--players", str(players), "--out", str(out)]) == 0
        assert out.stat().st_size > 10_000


def test_plot_data_lists_each_adjacency_once(rs):
    m = load_map(rs, 3)
    zones, edges = plot_data(rs, m)
    assert len(edges) == m.adjacent.sum() // 2 and len(zones) == len(m.names)
    assert sum(z["start"] >= 0 for z in zones) == 6


def _missing_neighbour():
    zones, edges = _ring(20)
    return zones, edges + [("R03", "R99"), ("R99", "R03")], "adjacency.csv, row 42", "'R03' is adjacent to 'R99'"


def _one_way():
    zones, edges = _ring(20)
    return zones, edges + [("R00", "R05")], "adjacency.csv, row 42", "one-way adjacency: R00 -> R05"


def _no_start_for_seat():
    zones, edges = _ring(20)
    zones = [(n, t, c, None if s == 1 else s, x, y) for n, t, c, s, x, y in zones]
    return zones, edges, "zones.csv", "no starting area for seat 1"


def _unknown_terrain():
    zones, edges = _ring(20)
    zones[6] = ("R06", "swamp") + zones[6][2:]
    return zones, edges, "zones.csv, row 8", "unknown terrain 'swamp'"


def _disconnected():
    zones, edges = _ring(20)
    zones.append(("R20", "plains", 0, None, 300, 50))
    return zones, edges, "zones.csv, row 22", "zone 'R20' cannot be reached"


def _seat_beyond_the_player_count():
    zones, edges = _ring(20)
    zones[5] = zones[5][:3] + (2,) + zones[5][4:]
    return zones, edges, "zones.csv, row 7", "starting area of seat 2, but this map is for 2 players"


def _self_adjacent():
    zones, edges = _ring(20)
    return zones, edges + [("R04", "R04")], "adjacency.csv, row 42", "'R04' is adjacent to itself"


BAD_MAPS = {f.__name__.lstrip("_"): f for f in (_missing_neighbour, _one_way, _no_start_for_seat, _unknown_terrain,
                                                 _disconnected, _seat_beyond_the_player_count, _self_adjacent)}


@pytest.mark.parametrize("case", sorted(BAD_MAPS))
def test_broken_map_is_one_clear_error_naming_file_and_row(case, tmp_path, capsys):
    zones, edges, where, what = BAD_MAPS[case]()
    data = tmp_path / "data"
    _write_map(data, 2, zones, edges)
    out = tmp_path / "map.png"
    code = main(["map", "evo", "--players", "2", "--data", str(data), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"maps/2/{where}" in err and what in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_a_broken_map_for_another_player_count_stops_the_load_too(tmp_path, capsys):
    zones, edges, where, what = _one_way()
    _write_map(tmp_path, 2, zones, edges)
    code = main(["map", "evo", "--players", "4", "--data", str(tmp_path), "--out", str(tmp_path / "m.png")])
    assert code == 2 and what in capsys.readouterr().err


def test_map_command_refuses_a_game_without_a_board_and_a_bad_player_count(tmp_path, capsys):
    assert main(["map", "capybara", "--players", "4", "--out", str(tmp_path / "m.png")]) == 2
    assert "has no board" in capsys.readouterr().err
    assert main(["map", "evo", "--players", "6", "--out", str(tmp_path / "m.png")]) == 2
    assert "2 to 5 players" in capsys.readouterr().err
    assert main(["map", "evo", "--players", "4", "--out", str(tmp_path / "m.svg")]) == 2
    assert not any(tmp_path.iterdir())


def test_default_starting_areas_see_the_same_terrain_for_two_and_three_players(rs):
    # The 2- and 3-player boards are built with the P-fold symmetry of the hex grid: every seat
    # sees the same terrains at each distance from its starting areas.
    for players in (2, 3):
        m = load_map(rs, players)
        profiles = []
        for seat in range(players):
            near = m.dist[m.starts(seat)].min(axis=0)
            profiles.append(sorted(zip(near.tolist(), m.terrain.tolist())))
        assert all(p == profiles[0] for p in profiles), players
    assert np.all(load_map(rs, 2).terrain[load_map(rs, 2).start >= 0] == rs["terrains"].index("plains"))


def test_a_map_file_at_the_top_of_the_data_folder_is_pointed_to_maps_p(tmp_path, capsys):
    shutil.copy(GAME_DATA.data_dir / "maps" / "4" / "zones.csv", tmp_path / "zones.csv")
    code = main(["map", "evo", "--players", "4", "--data", str(tmp_path), "--out", str(tmp_path / "m.png")])
    err = capsys.readouterr().err
    assert code == 2 and "zones.csv: unknown data file" in err and "maps/4/zones.csv" in err, err
