"""Grid expansion: fixed order, common random numbers, replicate seeds, permutations, ablations."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from experiments.config import load_config
from experiments.grid import expand, replicate_seeds

BASE = """
ruleset = "evolversi"
games = 10
seed = 42
"""


def test_axes_expand_in_file_order_last_fastest(write_config):
    path = write_config(BASE + """
players = [3, 4]
[[grid]]
param = "fourth_card_space"
values = [5, 3]
[[grid]]
table = "cards"
where = { name = "Ali" }
column = "strength"
values = [1, 4]
""")
    points = expand(load_config(path))
    order = [(p.labels["fourth_card_space"], p.labels["Ali.strength"], p.labels["players"]) for p in points]
    assert order == [("5", "1", "3"), ("5", "1", "4"), ("5", "4", "3"), ("5", "4", "4"),
                     ("3", "1", "3"), ("3", "1", "4"), ("3", "4", "3"), ("3", "4", "4")]
    assert [p.index for p in points] == list(range(8))
    assert {p.spec.seed for p in points} == {42}          # common random numbers: the same games
    assert points[0].ruleset["fourth_card_space"] == 5
    ali = next(r for r in points[2].ruleset.tables["cards"] if r["name"] == "Ali")
    assert ali["strength"] == 4
    assert len({p.ruleset.hash for p in points}) == 4


def test_replicate_seeds_come_from_seed_sequence_spawn():
    seeds = replicate_seeds(42, 4)
    expected = [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1))
                for c in np.random.SeedSequence(42).spawn(4)]
    assert seeds == expected
    assert len(set(seeds)) == 4
    assert all(b - a != 1 for a, b in zip(seeds, seeds[1:]))
    assert replicate_seeds(42, 1) == [42]


def test_replicates_repeat_the_grid_with_independent_seeds(write_config):
    points = expand(load_config(write_config(BASE + "replicates = 3\nplayers = 3\n")))
    assert [p.replicate for p in points] == [0, 1, 2]
    assert [p.spec.seed for p in points] == replicate_seeds(42, 3)


def test_bot_permutations_cover_every_seat_order_once(write_config):
    points = expand(load_config(write_config(BASE + "players = 3\nbots = ['greedy', 'random', 'random']\n"
                                                     "bot_permutations = true\n")))
    lineups = [tuple(b.name for b in p.spec.bots) for p in points]
    assert lineups == [("greedy", "random", "random"), ("random", "greedy", "random"),
                       ("random", "random", "greedy")]


def test_ablation_points_pair_with_their_base(write_config):
    points = expand(load_config(write_config(BASE + """
players = 4
[[grid]]
param = "fourth_card_space"
values = [3, 4]
[ablation]
kind = "removal"
entities = ["Vampirismo", "Sonar"]
""")))
    base, abl = points[:2], points[2:]
    assert [(p.base, p.ablated) for p in abl] == [(0, "Vampirismo"), (0, "Sonar"), (1, "Vampirismo"), (1, "Sonar")]
    assert all(p.spec.seed == points[p.base].spec.seed for p in abl)
    vamp = next(r for r in abl[0].ruleset.tables["cards"] if r["name"] == "Vampirismo")
    assert vamp["copies"] == 0
    assert set(base[0].tracked) == {"Vampirismo", "Sonar"} and base[0].track


def test_an_edits_axis_applies_each_values_edits_together(write_config):
    path = write_config(BASE + """
players = 4
[[grid]]
name = "mix"
edits = [
  [],
  [ { table = "cards", where = { name = "Ali" }, set = { strength = 2 } },
    { table = "cards", where = { name = "Artigli" }, set = { strength = 1 } } ],
]
labels = ["printed", "strong wings, weak claws"]
""")
    points = expand(load_config(path))
    assert [p.labels["mix"] for p in points] == ["printed", "strong wings, weak claws"]
    rows = {r["name"]: r for r in points[1].ruleset.tables["cards"]}
    base = {r["name"]: r for r in points[0].ruleset.tables["cards"]}
    assert (rows["Ali"]["strength"], rows["Artigli"]["strength"]) == (2, 1)
    assert (base["Ali"]["strength"], base["Artigli"]["strength"]) == (4, 4)
    assert [r for r in rows.values() if r["name"] not in ("Ali", "Artigli")] == \
        [r for r in base.values() if r["name"] not in ("Ali", "Artigli")]


def test_the_shipped_capybara_mix_configs_keep_every_colour_at_its_count_and_the_deck_at_40():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "experiments" / "configs"
    for name in ("capybara_card_mix", "capybara_symbol_counts", "capybara_symbols"):
        points = expand(load_config(root / f"{name}.toml"))   # the game's own checks run on every point
        assert len({p.ruleset.hash for p in points}) == len(points), name
        for p in points:
            assert sum(r["copies"] for r in p.ruleset.tables["strikes"]) == p.ruleset["strike_cards"]


def test_a_bots_axis_plays_the_same_games_with_each_line_up(write_config):
    path = write_config(BASE + """
players = 4
[[grid]]
bots = ["greedy", ["greedy", "random", "greedy", "random"]]
""")
    points = expand(load_config(path))
    assert [[b.name for b in p.spec.bots] for p in points] == [["greedy"] * 4, ["greedy", "random"] * 2]
    assert [p.labels["bots"] for p in points] == ["greedy,greedy,greedy,greedy", "greedy,random,greedy,random"]
    assert len({p.spec.seed for p in points}) == 1 and len({p.ruleset.hash for p in points}) == 1


def test_a_bots_axis_and_top_level_bots_are_refused(write_config):
    import pytest
    from simcore.errors import UserError
    path = write_config(BASE + 'bots = "greedy"\n[[grid]]\nbots = ["greedy", "random"]\n')
    with pytest.raises(UserError, match="takes its bots from the axis"):
        load_config(path)


def test_trajectories_in_a_config_reach_every_points_spec_and_only_then_the_digest(write_config):
    plain = load_config(write_config(BASE + "players = 4\n"))
    on = load_config(write_config(BASE + "players = 4\ntrajectories = true\n"))
    assert [p.spec.trajectories for p in expand(on)] == [True]
    assert [p.spec.trajectories for p in expand(plain)] == [False]
    assert "trajectories" not in plain.resolved() and on.digest() != plain.digest()


def test_ablation_of_every_entity_where_at_the_reference_point_only():
    """quick.toml: entities = "*" with where = { deck = "evolution" } and at = "reference": one
    knockout per distinct Evolution card, each against the point that plays the printed rules."""
    from experiments.sweep import reference_point
    from simcore.games.evolversi.schema import GAME_DATA
    cfg = load_config(Path(__file__).parents[2] / "experiments" / "configs" / "quick.toml")
    points = expand(cfg)
    ablated = [p for p in points if p.ablated is not None]
    names = list(dict.fromkeys(c["name"] for c in GAME_DATA.load().tables["cards"] if c["deck"] == "evolution"))
    assert [p.ablated for p in ablated] == names and len(points) == 3 + len(names)
    assert {p.base for p in ablated} == {reference_point(cfg, points)}
    assert all(p.ablation_kind == "knockout" for p in ablated)
