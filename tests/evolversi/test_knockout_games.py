"""Knockouts over whole games: for every entity of the built-in data (each card
design, animal, Event and Pressure token; the advanced cards on the advanced-genetics
variant), the knockout ruleset (that row's active = 0)

- plays the same games on both engines, game by game (mixed greedy and random bots), and
- is paired with the base ruleset: with the same seed, a game whose base run never used the
  entity is the same game. "Used": an Evolution card bought by some seat; a starting card
  or an animal seated; an Event drawn or a Pressure token revealed (traced on the reference
  engine). Measured (seed 5, 4 players, greedy/random/greedy/random; 4,000 games per card
  and animal, 400 traced games per Event and Pressure token): 100% of the unused games
  are identical for every entity (Istinto, which every animal starts with, has none), so
  the bound is all of them. Where the entity is used, 0.4% (Mutazione) to 100% (Pelliccia
  and Gigantismo, which have no effect) of the games stay identical.

The default run checks a few entities (test_knockout_scenarios.py covers every effect kind);
`-m slow` checks them all (about 6 minutes).
"""
from functools import lru_cache

import numpy as np
import pytest

from evolversi_kit import play_batch, play_one, ref_policies
from simcore.games.evolversi import reference
from simcore.games.evolversi.schema import GAME_DATA

BOTS = ["greedy", "random", "greedy", "random"]
SEED = 5
FIELDS = ("position", "winner", "rounds", "end_reason", "animal", "fury", "tokens", "bought", "fourth_round")


def entities() -> list[tuple[str, str, str]]:
    """(variant, table, name) of every entity: base cards, animals, Events and Pressure tokens
    on the default data, the advanced cards on advanced-genetics."""
    out = []
    for variant, module in (("default", "base"), ("advanced-genetics", "advanced")):
        rs = GAME_DATA.load(variant)
        names = dict.fromkeys(c["name"] for c in rs.tables["cards"] if c["module"] == module)
        out += [(variant, "cards", n) for n in names]
    rs = GAME_DATA.load()
    out += [("default", t, r["name"]) for t in ("animals", "events", "pressure") for r in rs.tables[t]]
    return out


ALL = entities()
# the default run: a few entities whose use is seen in the outcome (bought, seated)
QUICK_AGREE = [("default", "cards", "Rapina"), ("default", "animals", "Panda"), ("default", "pressure", "Meteor"),
               ("advanced-genetics", "cards", "Umorismo")]
QUICK_PAIR = [("default", "cards", "Rapina"), ("default", "cards", "Morso"), ("default", "animals", "Panda")]


def knockout(variant, table, name):
    return GAME_DATA.load(variant, edits=[{"table": table, "where": {"name": name}, "set": {"active": 0}}])


@lru_cache(maxsize=None)
def base_run(variant, n):
    return play_batch(GAME_DATA.load(variant), 4, BOTS, SEED, np.arange(n))


class Traced(reference.Game):
    """The reference engine noting every Event drawn and Pressure token revealed."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.used = set()

    def resolve_event(self, a, uid):
        self.used.add(("events", self.events[self.comps.event_row[uid]]["name"]))
        super().resolve_event(a, uid)

    def activate_pressure(self, a, token):
        self.used.add(("pressure", self.rs.tables["pressure"][self.comps.pressure_row[token["token"]]]["name"]))
        super().activate_pressure(a, token)


@lru_cache(maxsize=None)
def traced_uses(n) -> tuple:
    """Per base game (default data): the Events and Pressure tokens it used."""
    rs = GAME_DATA.load()
    out = []
    for k in range(n):
        g = Traced.new(rs, 4, ref_policies(rs, BOTS, 4), SEED, k)
        g.play("end")
        out.append(frozenset(g.used))
    return tuple(out)


def used_in_base(variant, table, name, n) -> np.ndarray:
    """(n,) bool: the base game used the entity (see the module docstring)."""
    rs = GAME_DATA.load(variant)
    base = base_run(variant, n)
    if table in ("events", "pressure"):
        return np.array([(table, name) in u for u in traced_uses(n)])
    animals = [a["name"] for a in rs.tables["animals"]]
    if table == "animals":
        return (base["animal"] == animals.index(name)).any(axis=1)
    rows = [i for i, c in enumerate(rs.tables["cards"]) if c["name"] == name]
    if rs.tables["cards"][rows[0]]["deck"] == "evolution":
        return base["bought"][:, :, rows].sum(axis=(1, 2)) > 0
    owners = [animals.index(rs.tables["cards"][i]["animal"]) for i in rows]
    return np.isin(base["animal"], owners).any(axis=1)


def identical(a, b) -> np.ndarray:
    n = len(a["rounds"])
    return np.all([(a[k] == b[k]).reshape(n, -1).all(axis=1) for k in FIELDS], axis=0)


def check_engines_agree(variant, table, name, count):
    """The first `count` games in which the base run used the entity, on both engines."""
    rs = knockout(variant, table, name)
    if table == "pressure":                   # revealed in about 99% of games: no need to trace
        games = np.arange(count)
    else:
        used = np.flatnonzero(used_in_base(variant, table, name, 300))
        games = used[:count] if len(used) >= count else np.arange(count)
    batch = play_batch(rs, 4, BOTS, SEED, games)
    for i, k in enumerate(games.tolist()):
        ref = play_one(rs, 4, BOTS, SEED, k)
        for key in FIELDS:
            assert np.asarray(batch[key][i]).tolist() == ref[key], f"{name} knocked out, game {k}: {key}"


def check_pairing(variant, table, name, n):
    """Every base game that never used the entity is identical under the knockout; returns
    (share identical where unused, share identical where used)."""
    used = used_in_base(variant, table, name, n)
    if used.all():          # Istinto: every animal starts with it
        pytest.skip(f"{name} is used in every game: no unused game to pair")
    same = identical(base_run(variant, n), play_batch(knockout(variant, table, name), 4, BOTS, SEED, np.arange(n)))
    assert same[~used].all(), f"{name}: {(~same[~used]).sum()} of {(~used).sum()} unused games changed"
    return same[~used].mean(), same[used].mean() if used.any() else float("nan")


@pytest.mark.parametrize("variant,table,name", QUICK_AGREE)
def test_a_knockout_plays_the_same_games_on_both_engines(variant, table, name):
    check_engines_agree(variant, table, name, 3)


@pytest.mark.parametrize("variant,table,name", QUICK_PAIR)
def test_a_knockout_leaves_every_game_that_never_used_the_entity_unchanged(variant, table, name):
    check_pairing(variant, table, name, 300)


def test_a_knockout_changes_games_that_used_the_entity():
    # Rapina's steals: measured 46% of the games where Rapina was bought differ (4,000 games)
    used = used_in_base("default", "cards", "Rapina", 300)
    same = identical(base_run("default", 300), play_batch(knockout("default", "cards", "Rapina"), 4, BOTS, SEED,
                                                          np.arange(300)))
    assert (~same[used]).mean() > 0.25


@pytest.mark.slow
@pytest.mark.parametrize("variant,table,name", ALL)
def test_every_knockout_plays_the_same_games_on_both_engines(variant, table, name):
    check_engines_agree(variant, table, name, 20)


@pytest.mark.slow
@pytest.mark.parametrize("variant,table,name", ALL)
def test_every_knockout_leaves_every_game_that_never_used_the_entity_unchanged(variant, table, name):
    # Pressure tokens are revealed in all but 1-2% of games: 400 traced games leave 2 to 7 unused
    n = 400 if table in ("events", "pressure") else 2000
    check_pairing(variant, table, name, n)
