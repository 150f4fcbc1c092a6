"""Tools behind docs/games/evo.md section 17 (the greedy seat bias), each a command:

    python -m strategies.evo.seat_bias symmetry             # per player count: is seat s's start a
                                                       # rotation of seat 0's (adjacency, terrain, coast)?
    python -m strategies.evo.seat_bias mirror --players 2 --out DIR
                                                       # DIR/maps/2/: the same board, zone names reversed
                                                       # (uid order reversed); play it with --data DIR
    python -m strategies.evo.seat_bias ties --players 4 --games 200
                                                       # reference greedy: decisions per kind whose best
                                                       # score is shared by 2+ options

Win rates per seat come from the CLI (`balancelab run evo --players P --bots ... --games N`).
"""
from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path

import numpy as np

from simcore.games.evo import maps, reference
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.reference_bots import GreedyBot

_DATA = Path(maps.__file__).resolve().parent / "data" / "maps"


# -- symmetry of the map data -------------------------------------------------------------
def _automorphism(m: maps.Map, fixed: dict[int, int]) -> dict[int, int] | None:
    """A map of zones onto zones keeping adjacency, terrain and coast, extending `fixed`
    (backtracking, zones in breadth-first order from the fixed ones); None if there is none."""
    Z = len(m.names)
    nb = [set(m.neighbours(z)) for z in range(Z)]
    sig = [(int(m.terrain[z]), bool(m.coast[z]), len(nb[z])) for z in range(Z)]
    order, seen = [], set(fixed)
    frontier = list(fixed)
    while frontier:
        nxt = []
        for z in frontier:
            for y in sorted(nb[z]):
                if y not in seen:
                    seen.add(y)
                    order.append(y)
                    nxt.append(y)
        frontier = nxt

    def ok(f, z, w):
        return sig[z] == sig[w] and all((y in nb[z]) == (f[y] in nb[w]) for y in f)

    def go(f, used, i):
        if i == len(order):
            return dict(f)
        z = order[i]
        for w in range(Z):
            if w not in used and ok(f, z, w):
                f[z] = w
                used.add(w)
                r = go(f, used, i + 1)
                if r:
                    return r
                del f[z]
                used.discard(w)
        return None

    for z, w in fixed.items():
        if sig[z] != sig[w]:
            return None
    return go(dict(fixed), set(fixed.values()), 0)


def symmetry(rs, players: int) -> list[str]:
    """One line per seat: whether a symmetry of the board takes seat 0's starting areas onto
    the seat's (either pairing), and whether it also maps every seat's starts onto a seat's."""
    m = maps.load_map(rs, players)
    s0 = m.starts(0)
    lines = []
    for s in range(players):
        found = None
        for pair in ((0, 1), (1, 0)):
            t = m.starts(s)
            f = _automorphism(m, {s0[0]: t[pair[0]], s0[1]: t[pair[1]]})
            if f:
                found = f
                break
        if found is None:
            lines.append(f"{players}p seat {s}: NO symmetry of the board takes seat 0's starts to seat {s}'s; "
                         + _reach(rs, m, s))
            continue
        seat_of = {z: int(m.start[z]) for z in range(len(m.names)) if m.start[z] >= 0}
        perm = sorted({(seat_of[z], seat_of.get(found[z], -1)) for z in seat_of})
        terr = [rs.params["terrains"][m.terrain[z]] for z in m.starts(s)]
        lines.append(f"{players}p seat {s}: starts {[m.names[z] for z in m.starts(s)]} ({', '.join(terr)}); "
                     f"a board symmetry maps seat 0's starts onto them; seats map {perm}; " + _reach(rs, m, s))
    return lines


def _reach(rs, m: maps.Map, s: int) -> str:
    """Zones within 1, 2 and 3 steps of seat s's starting areas, and their terrains."""
    d = m.dist[m.starts(s)].min(axis=0)
    near = [int(((d >= 1) & (d <= k)).sum()) for k in (1, 2, 3)]
    terr = Counter(rs.params["terrains"][m.terrain[z]] for z in np.flatnonzero((d >= 1) & (d <= 2)))
    return f"zones within 1/2/3 steps {near[0]}/{near[1]}/{near[2]}, within 2: {dict(sorted(terr.items()))}"


# -- a mirrored map: the same board with the zone uids in reverse order -------------------
def mirror(players: int, out: Path) -> Path:
    """Write out/maps/P/{zones,adjacency}.csv: zone k renamed so that uid order reverses."""
    src = _DATA / str(players)
    with open(src / "zones.csv", newline="") as f:
        zones = list(csv.DictReader(f))
    names = sorted(r["zone"] for r in zones)
    rename = dict(zip(names, reversed(names)))
    dst = out / "maps" / str(players)
    dst.mkdir(parents=True, exist_ok=True)
    for name in ("zones.csv", "adjacency.csv"):
        with open(src / name, newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            for k in ("zone", "neighbour"):
                if k in r:
                    r[k] = rename[r[k]]
        with open(dst / name, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return dst


# -- ties in greedy's decisions -----------------------------------------------------------
class _TieCounter(GreedyBot):
    """The reference greedy, counting per kind the decisions whose best score is shared."""

    def __init__(self, rs, seat, tally):
        super().__init__(rs, seat)
        self.tally = tally

    def choose(self, decision, view) -> int:
        got = self.scores(decision, view)
        if got is not None:
            scores, floor = got
            live = [x for x in scores if x is not None]
            top = max(live)
            tied = sum(1 for x in live if x == top)
            if not (floor and top <= 0):
                self.tally[decision.kind, "asked"] += 1
                self.tally[decision.kind, "tied"] += tied > 1
        return super().choose(decision, view)


def ties(rs, players: int, games: int, seed: int = 0) -> list[str]:
    tally: Counter = Counter()
    for k in range(games):
        pols = [_TieCounter(rs, s, tally) for s in range(players)]
        reference.play_one(rs, players, pols, seed, k)
    kinds = sorted({k for k, _ in tally})
    return [f"{players}p {k:<8} scored decisions {tally[k, 'asked']:>7}  best score shared "
            f"{tally[k, 'tied']:>7} ({tally[k, 'tied'] / max(1, tally[k, 'asked']):.1%})" for k in kinds]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("symmetry", "mirror", "ties"))
    ap.add_argument("--players", type=int, default=0, help="0: every player count (symmetry)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    rs = GAME_DATA.load()
    counts = [a.players] if a.players else list(range(rs["players_min"], rs["players_max"] + 1))
    if a.what == "symmetry":
        for p in counts:
            print("\n".join(symmetry(rs, p)))
    elif a.what == "mirror":
        print(mirror(a.players, a.out))
    else:
        for p in counts:
            print("\n".join(ties(rs, p, a.games, a.seed)))


if __name__ == "__main__":
    main()
