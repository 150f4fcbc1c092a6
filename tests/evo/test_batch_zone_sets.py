"""The batch engine's zone sets (simcore/games/evo/batch_bits.py): its MOVE and BIRTH option
rows equal the reference engine's, row for row, on random positions of the default boards
and of a designer's board of 130 zones (three 63-zone words a set, the shipped boards
need one); and whole games on that board agree between the engines.

Each position holds random dinosaurs (a full clan at times: the replace rule) and genes
that open every kind of option: Wings, Flippers, Killer babies, Thick shell (range),
Regeneration (the clan floor), legs."""
import random

import numpy as np
import pytest

from simcore.games.evo import batch_io, reference, rules, state_io
from simcore.games.evo.batch_board import birth_options, move_options
from simcore.games.evo.codes import M_ATTACK, M_FLIPPERS, M_STEP, M_STOP, M_WINGS
from simcore.games.evo.schema import GAME_DATA
from simcore.games.evo.state import O_OPTS
from strategies.evo.registered import batch_policy
from simcore.games import get_game
from strategies.registry import make_bots
from tests.games.kit import outcome_row

RS = GAME_DATA.load()
KINDS = {M_STOP: "stop", M_STEP: "step", M_ATTACK: "attack", M_WINGS: "wings", M_FLIPPERS: "flippers"}
GENES = ["Wings", "Flippers", "Killer babies", "Thick shell", "Regeneration", "Pair of legs", "Pair of legs"]


def _grid_map(folder, rows=10, cols=13):
    """A 2-player board of rows x cols zones, each next to its 4 grid neighbours; the border
    is coast; seat 0 starts in one corner, seat 1 in the opposite one."""
    d = folder / "maps" / "2"
    d.mkdir(parents=True)
    name = lambda r, c: f"G{r:02d}{c:02d}"          # noqa: E731
    starts = {(0, 0): 0, (0, 1): 0, (rows - 1, cols - 1): 1, (rows - 1, cols - 2): 1}
    lines = ["zone,terrain,coast,start,x,y,source"]
    edges = ["zone,neighbour,source"]
    for r in range(rows):
        for c in range(cols):
            coast = int(r in (0, rows - 1) or c in (0, cols - 1))
            terrain = ("desert", "plains", "hills", "mountains")[(r * 3 + c) % 4]
            lines.append(f"{name(r, c)},{terrain},{coast},{starts.get((r, c), '')},{c * 10},{r * 10},default")
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    edges.append(f"{name(r, c)},{name(r + dr, c + dc)},default")
    (d / "zones.csv").write_text("\n".join(lines) + "\n")
    (d / "adjacency.csv").write_text("\n".join(edges) + "\n")


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grid")
    _grid_map(folder)
    return GAME_DATA.load(data_dir=folder)


def _positions(rs, players, n, seed):
    """n random JSON states in the movement phase."""
    rnd = random.Random(seed)
    base = rules.initial_state(rs, players, 1, 0)
    names = reference.Game(rs, players, [None] * players, 1, 0).map.names
    cap = rs["dinosaurs_per_player"]
    for _ in range(n):
        st = dict(base, phase="movement")
        zones = rnd.sample(range(len(names)), min(len(names), players * cap))
        seats, at = [], 0
        for s in range(players):
            k = cap if rnd.random() < 0.3 else rnd.randint(1, cap - 1)
            mine, at = zones[at:at + k], at + k
            genes = [x for x in GENES if rnd.random() < 0.4]
            seats.append({"mp": 6, "genes": genes, "events": [], "dinosaurs": [names[z] for z in sorted(mine)]})
        bag = list(st["bag"])
        for x in seats:             # the genes on the boards come out of the bag
            for e in x["genes"]:
                if e in bag:
                    bag.remove(e)
                else:
                    x["genes"].remove(e)
        st.update(seats=seats, bag=bag)
        yield st


def _both(rs, st):
    players = len(st["seats"])
    pk, _ = rules.pack(rs, players, [batch_policy("random", rs)] * players, 1)
    batch_io.load(rs, pk, st, 0)
    g = reference.Game(rs, players, [None] * players, 1, 0)
    g.load(state_io.load(g, st))
    return pk, g


def _rows(pk, n):
    at = int(pk.rk[O_OPTS])
    return [tuple(int(v) for v in pk.g[at + 3 * k:at + 3 * k + 3]) for k in range(n)]


def _check_options(rs, players, n, seed):
    kinds = set()
    for st in _positions(rs, players, n, seed):
        pk, ref = _both(rs, st)
        for s in range(players):
            for points, wing_uses, flip_uses in ((1, 0, 0), (3, 0, 0), (3, 1, 1)):
                want = ref.move_options(s, points, wing_uses, flip_uses)
                rows = _rows(pk, move_options(pk.g, pk.rk, s, points, wing_uses, flip_uses, True))
                got = [("stop",)] + [(KINDS[k], a, b) for k, a, b in rows[1:]]
                assert rows[0][0] == M_STOP and got == want, (s, points, st["seats"])
                kinds |= {o[0] for o in want}
            want = ref.birth_options(s)
            rows = _rows(pk, birth_options(pk.g, pk.rk, s))
            got = [None] + [t if r < 0 else (r, t) for r, t, _ in rows[1:]]
            assert rows[0][:2] == (-1, -1) and got == want, (s, st["seats"])
            kinds |= {"replace" if isinstance(o, tuple) else "birth" for o in want[1:]}
    return kinds


@pytest.mark.parametrize("players", (2, 4, 5))
def test_move_and_birth_rows_equal_the_reference_engines_on_the_default_boards(players):
    kinds = _check_options(RS, players, 40, players)
    assert {"step", "attack", "wings", "flippers", "birth", "replace"} <= kinds


def test_move_and_birth_rows_equal_the_reference_engines_on_a_board_of_130_zones(big):
    assert len(reference.Game(big, 2, [None, None], 1, 0).map.names) == 130       # 3 words a set
    kinds = _check_options(big, 2, 60, 7)
    assert {"step", "attack", "wings", "flippers", "birth", "replace"} <= kinds


@pytest.mark.parametrize("bots", (("greedy", "greedy"), ("random", "greedy")))
def test_engines_agree_game_by_game_on_a_board_of_130_zones(big, bots):
    g = get_game("evo")
    lineup = make_bots("evo", list(bots), 2)
    games = np.arange(12, dtype=np.int64)
    batch = g.play_batch(big, 2, lineup, 5, games)
    for i, k in enumerate(games):
        assert outcome_row(batch, i) == outcome_row(g.play_one(big, 2, lineup, 5, int(k))), f"game {k}"
