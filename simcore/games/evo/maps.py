"""Evo's boards: load the map for a player count, check it, and give the engines its arrays.

A map is two tables of the ruleset (schema.py): `maps/<P>/zones.csv` (zone, terrain, coast,
start, x, y) and `maps/<P>/adjacency.csv` (zone, neighbour; one row per direction). The
built-in maps are the defaults; a designer's folder (`--data`) holding `maps/<P>/...`
replaces the map for P players with no code change. Every problem is one UserError naming
the file and row: a neighbour that is not a zone, a zone adjacent to itself, a repeated
row, a one-way adjacency, an unknown terrain, a starting area for a seat the map does not
seat, a seat without its starting areas, a map in two or more pieces.

Zone uids are the ranks of the zone names (Python string order), never row positions
(contract section 1). This is bookkeeping shared by both engines: it decides nothing
about play.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ...errors import UserError
from ...ruleset import parse_params


def _player_bounds() -> tuple[int, int]:
    """The player counts any Evo ruleset may ask for: the bounds data/params.toml declares
    for `players_min` (its `min`) and `players_max` (its `max`). The map tables are declared
    for these counts (schema.py); a ruleset's own `players_min..players_max` lies inside."""
    _, specs = parse_params(Path(__file__).resolve().parent / "data" / "params.toml")
    return int(specs["players_min"].min), int(specs["players_max"].max)


MIN_PLAYERS, MAX_PLAYERS = _player_bounds()


def table_names(players: int) -> tuple[str, str]:
    """The ruleset table names of the zones and the adjacency of the P-player map."""
    return f"zones_{players}", f"adjacency_{players}"


@dataclass(frozen=True)
class Map:
    """One board, zones in uid order (Z zones)."""

    players: int
    names: tuple[str, ...]      # (Z,) zone names; index = zone uid
    terrain: np.ndarray         # (Z,) int8 index into the `terrains` parameter (hottest first)
    coast: np.ndarray           # (Z,) bool, next to the sea
    start: np.ndarray           # (Z,) int8 seat whose starting area it is, -1 none
    x: np.ndarray               # (Z,) int64 figure position
    y: np.ndarray               # (Z,) int64 figure position
    adjacent: np.ndarray        # (Z, Z) bool, symmetric, False on the diagonal
    dist: np.ndarray            # (Z, Z) int16 steps of a shortest path (any zones on the way)

    def neighbours(self, z: int) -> list[int]:
        """Zones adjacent to z, ascending uid."""
        return list(self._neighbours[z])

    @cached_property
    def _neighbours(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(int(n) for n in np.flatnonzero(row)) for row in self.adjacent)

    @cached_property
    def steps(self) -> list[list[int]]:
        """`dist` as plain lists: the reference engine reads single entries (numpy's scalar
        indexing costs more than the comparison it feeds)."""
        return self.dist.tolist()

    def within(self, r: int) -> list[list[int]]:
        """Per zone, the zones at most r steps away, ascending (the reference engine's birth
        range and Wings: a table per r, made on first use)."""
        if r not in self._within:
            self._within[r] = [[z for z, d in enumerate(row) if d <= r] for row in self.steps]
        return self._within[r]

    @cached_property
    def _within(self) -> dict[int, list[list[int]]]:
        return {}

    @cached_property
    def swims(self) -> list[list[int]]:
        """Per zone, the other coastal zones not adjacent to it, ascending (Flippers' targets
        from a coastal zone, for the reference engine)."""
        coast = [int(z) for z in np.flatnonzero(self.coast)]
        return [[b for b in coast if b != a and not self.adjacent[a, b]] for a in range(len(self.names))]

    def starts(self, seat: int) -> list[int]:
        """The starting zones of a seat, ascending uid."""
        return [int(z) for z in np.flatnonzero(self.start == seat)]


def _tables(rs, players: int):
    zones, adjacency = table_names(players)
    if zones not in rs.tables:
        raise UserError(f"no map for {players} players; maps exist for {MIN_PLAYERS} to {MAX_PLAYERS}",
                        key="players")
    return rs.tables[zones], rs.files[zones], rs.tables[adjacency], rs.files[adjacency]


def _check_zones(rs, players, rows, file) -> dict[str, dict]:
    terrains = rs.params["terrains"]
    for r in rows:
        if r["terrain"] not in terrains:
            raise UserError(f"zone {r['zone']!r} has unknown terrain {r['terrain']!r}; terrains: "
                            f"{', '.join(terrains)} (parameter `terrains`)", file=file, row=r["_row"])
        if r["start"] >= players:
            raise UserError(f"zone {r['zone']!r} is a starting area of seat {r['start']}, but this map is for "
                            f"{players} players (seats 0..{players - 1})", file=file, row=r["_row"])
    per_seat: dict[int, list[dict]] = {s: [] for s in range(players)}
    for r in rows:
        if r["start"] >= 0:
            per_seat[r["start"]].append(r)
    want = rs.params["start_dinosaurs"]
    for seat, starts in per_seat.items():
        if not starts:
            raise UserError(f"no starting area for seat {seat}: {want} zones need start = {seat}",
                            file=file, key="start")
        if len(starts) != want:
            raise UserError(f"seat {seat} has {len(starts)} starting areas; expected start_dinosaurs = {want}",
                            file=file, row=starts[0]["_row"])
    return {r["zone"]: r for r in rows}


def _check_adjacency(rows, file, zones: dict, zones_file: str) -> set[tuple[str, str]]:
    pairs: dict[tuple[str, str], int] = {}
    for r in rows:
        a, b = r["zone"], r["neighbour"]
        if a not in zones:
            raise UserError(f"zone {a!r} is not a zone of {Path(zones_file).name}", file=file, row=r["_row"])
        if b not in zones:
            raise UserError(f"zone {a!r} is adjacent to {b!r}, which is not a zone of {Path(zones_file).name}",
                            file=file, row=r["_row"])
        if a == b:
            raise UserError(f"zone {a!r} is adjacent to itself", file=file, row=r["_row"])
        if (a, b) in pairs:
            raise UserError(f"{a} -> {b} is listed twice (also on row {pairs[(a, b)]})", file=file, row=r["_row"])
        pairs[(a, b)] = r["_row"]
    for (a, b), row in pairs.items():
        if (b, a) not in pairs:
            raise UserError(f"one-way adjacency: {a} -> {b} has no row {b} -> {a} (adjacency goes both ways: "
                            "one row per direction)", file=file, row=row)
    return set(pairs)


def _distances(adjacent: np.ndarray) -> np.ndarray:
    """All-pairs shortest path lengths by breadth-first search; Z for unreachable."""
    n = len(adjacent)
    dist = np.full((n, n), n, dtype=np.int16)
    nbrs = [np.flatnonzero(adjacent[z]) for z in range(n)]
    for s in range(n):
        dist[s, s] = 0
        queue = deque([s])
        while queue:
            z = queue.popleft()
            for y in nbrs[z]:
                if dist[s, y] == n:
                    dist[s, y] = dist[s, z] + 1
                    queue.append(y)
    return dist


def load_map(rs, players: int) -> Map:
    """The checked P-player map of a ruleset (UserError naming file and row if it is broken)."""
    zone_rows, zones_file, adj_rows, adj_file = _tables(rs, players)
    zones = _check_zones(rs, players, zone_rows, zones_file)
    pairs = _check_adjacency(adj_rows, adj_file, zones, zones_file)
    names = tuple(sorted(zones))
    uid = {name: i for i, name in enumerate(names)}
    adjacent = np.zeros((len(names), len(names)), dtype=bool)
    for a, b in pairs:
        adjacent[uid[a], uid[b]] = True
    dist = _distances(adjacent)
    unreachable = np.flatnonzero(dist[0] == len(names))
    if len(unreachable):
        lost = zones[names[unreachable[0]]]
        raise UserError(f"the map is in pieces: zone {lost['zone']!r} cannot be reached from zone {names[0]!r} "
                        f"({len(unreachable)} zone(s) cut off)", file=zones_file, row=lost["_row"])
    terrains = rs.params["terrains"]
    rows = [zones[n] for n in names]
    return Map(players=players, names=names,
               terrain=np.array([terrains.index(r["terrain"]) for r in rows], dtype=np.int8),
               coast=np.array([r["coast"] for r in rows], dtype=bool),
               start=np.array([r["start"] for r in rows], dtype=np.int8),
               x=np.array([r["x"] for r in rows], dtype=np.int64),
               y=np.array([r["y"] for r in rows], dtype=np.int64),
               adjacent=adjacent, dist=dist)


_MAPS: dict = {}


def map_of(rs, players: int) -> Map:
    """load_map, kept per ruleset content (rs.hash) and player count: both engines read the
    board many times per run, and a board's checks and distances need computing once."""
    k = (rs.hash, players)
    if k not in _MAPS:
        _MAPS[k] = load_map(rs, players)
    return _MAPS[k]


def check_map(rs, players: int) -> None:
    """Raise the first problem of the P-player map as a UserError naming file and row."""
    load_map(rs, players)


def plot_data(rs, m: Map) -> tuple[list[dict], list[tuple[str, str]]]:
    """Plain data for reports.page.map: zone dicts and each adjacency once."""
    terrains = rs.params["terrains"]
    zones = [{"name": name, "x": int(m.x[z]), "y": int(m.y[z]), "terrain": terrains[m.terrain[z]],
              "coast": bool(m.coast[z]), "start": int(m.start[z])} for z, name in enumerate(m.names)]
    edges = [(m.names[a], m.names[b]) for a, b in zip(*np.nonzero(np.triu(m.adjacent)))]
    return zones, edges
