"""Planted truths for Evolversi's card impact ("Must show", first bullet).

Each test plays a sweep with the project's own sweep and reads it through experiments.api
(`ablations`, `pairings`, `adjusted_association`, `entity_impact`) and the report's context:
the functions `balancelab sweep` and `balancelab report` use. Margins measured on these
seeds are in each docstring and in docs/metrics.md, "Planted checks".
"""
from __future__ import annotations

import numpy as np
import pytest

from experiments import api
from simcore.games.evolversi.schema import GAME_DATA
from strategies.evolversi.batch_policies import GreedyBatch
from strategies.weights import default
from strategies.evolversi.reference_bots import GreedyBot

from evolversi_kit import play_batch, play_one
from tests.planted_kit import check_decoy, knockout_row, registered, report_context, sweep

# ----------------------------------------------------------------------------- (a) a stronger card


def test_knockout_finds_a_stronger_mutazione(tmp_path):
    """Mutazione ("gain 2 Evolution points") planted one point stronger (amount 3), 4 greedy
    players, 1,000 games per point (seed 3). Its default knockout effect is already clearly
    positive, so the test asks for the increase: the stronger card's corrected interval lies
    wholly above the default card's (non-overlapping intervals: stricter than a paired test
    of the difference). Measured: default +8.9 pp [7.5, 10.2], stronger +16.5 pp [14.7, 18.3]
    (4.5 pp between the intervals; paired, api.knockout_change: +7.6 pp [5.8, 9.4]); with 4,000
    games +8.4 [7.8, 9.1] and +16.5 [15.6, 17.5].
    Mutazione is bought in nearly every game, so the knockout's pairing is causal by design."""
    run = sweep(tmp_path, CONFIG_A)
    default, stronger = (knockout_row(run, "Mutazione", p) for p in (0, 1))
    assert run.points[1]["labels"]["data"] == "stronger"
    for r in (default, stronger):
        assert r["pair_holds"] and r["holders"] > 1000
    assert stronger["ci_low"] > 0
    assert default["ci_low"] > 0 and stronger["ci_low"] > default["ci_high"], (default, stronger)
    change = api.knockout_change(run, "Mutazione", 0, 1)            # the same, paired by game
    assert change["ci_low"] > 0.03, change


CONFIG_A = """
name = "planted-stronger-mutazione"
ruleset = "evolversi"
players = 4
bots = "greedy"
games = 1000
seed = 3
batch_size = 1000

[[grid]]
name = "data"
edits = [[], [{ table = "cards", where = { name = "Mutazione" }, set = { amount = 3 } }]]
labels = ["default", "stronger"]

[ablation]
entities = ["Mutazione"]
"""

# ----------------------------------------------------------------------------- (b) a decoy

DECOY, LEADER = "Pelliccia", "planted-decoy-leader"
# The decoy: Pelliccia (effect none) printed blank as well: no Strength, tokens or Fury, so
# the card does nothing at all for whoever buys it.
BLANK = '{ table = "cards", where = { name = "Pelliccia" }, set = { strength = 0, tokens = 0, fury = 0 } }'


def _decoy_rows(rs) -> np.ndarray:
    """(rows + 1,) bool: the decoy's rows of cards.csv (the last entry: an empty slot)."""
    return np.array([c["name"] == DECOY for c in rs.tables["cards"]] + [False])


class LeaderBatch(GreedyBatch):
    """Greedy, except BUY: the decoy only when the seat is alone at the top of the track
    (then the leftmost decoy slot it can afford), never otherwise."""

    def __init__(self, rs):
        super().__init__(rs, default("evolversi"))
        self.decoy = _decoy_rows(rs)

    def _buy(self, q, v):
        rows = np.append(np.asarray(q.view.tb.comps.card_row, np.int64), -1)
        market = q.info["market"]                                       # (G, M) uids, -1 empty
        is_decoy = self.decoy[rows[market]]                              # (G, M)
        decoy_ok = q.valid[:, 1:] & is_decoy
        valid = q.valid.copy()
        valid[:, 1:] &= ~is_decoy
        pos = q.view.st.pos[q.g].astype(np.int64)                        # (G, P)
        at = np.arange(len(q))
        own = pos[at, q.seat].copy()
        pos[at, q.seat] = np.iinfo(np.int64).min
        leading = own > pos.max(axis=1)
        others = super()._buy(type(q)(q.kind, q.g, q.seat, q.n_given, valid, q.view, q.info, q.shared,
                                      q._seat_key, q._d), v)
        return np.where(leading & decoy_ok.any(axis=1), 1 + decoy_ok.argmax(axis=1), others)


class LeaderRef(GreedyBot):
    """LeaderBatch's one-game form (the same choices)."""

    def __init__(self, rs):
        super().__init__(rs)
        self.decoy = _decoy_rows(rs)

    def _buy(self, d, view):
        me = view.seats[d.seat].position
        leading = all(me > s.position for i, s in enumerate(view.seats) if i != d.seat)
        decoy = [slot is not None and bool(self.decoy[view.row(view.market[slot])]) for slot in d.options]
        if leading and any(decoy):
            return decoy.index(True)
        scores = [-(1 << 30) if is_decoy else 0 if slot is None else
                  self.buy[view.row(view.market[slot])] - self.w["cost"] * view.purchase_cost(slot)
                  for slot, is_decoy in zip(d.options, decoy)]
        return int(np.argmax(scores))


class DecoyLeader:
    """Test only: greedy that buys the decoy only when leading."""

    _batch: dict = {}

    def batch(self, rs):
        return self._batch.setdefault(rs.hash, LeaderBatch(rs))

    def reference(self, rs, seat):
        return LeaderRef(rs)


@pytest.fixture
def leader_bot():
    with registered("evolversi", LEADER, DecoyLeader) as name:
        yield name


def test_the_decoy_bot_plays_the_same_games_on_both_engines(leader_bot):
    """The test bot is a bot like any other: both engines agree with it game by game."""
    rs = GAME_DATA.load(edits=[{"table": "cards", "where": {"name": DECOY},
                                "set": {"strength": 0, "tokens": 0, "fury": 0}}])
    games = np.arange(4)
    batch = play_batch(rs, 4, [leader_bot] * 4, 3, games)
    for k in games.tolist():
        one = play_one(rs, 4, [leader_bot] * 4, 3, k)
        for key in ("position", "winner", "rounds", "bought"):
            assert np.asarray(batch[key][k]).tolist() == one[key], (k, key)
    assert batch["bought"][:, :, _decoy_rows(rs)[:-1]].sum() > 0


def test_decoy_is_associated_but_not_causal(tmp_path, leader_bot):
    """A blank card (Pelliccia with no effect, Strength, tokens or Fury) that the bots buy only
    when alone at the top of the track, 4 players, 2,000 games (seed 3). Measured: bought by
    2,661 of 8,000 seats; raw association +34.1 pp [30.3, 37.8], adjusted for the number of
    cards bought +33.9 pp [30.3, 37.5] (both corrected over 28 cards): "holders win more"
    (the test asks for a lower bound above +15 pp).
    Its knockout: 100% of games identical, effect 0.0 pp [0.0, 0.0]: the card does nothing, and
    the report's verdict does not name it (it names other cards, as associations) while the
    findings call it an association and give the knockout's "no clear causal effect"."""
    run = sweep(tmp_path, CONFIG_B.format(bot=leader_bot, blank=BLANK))
    check_decoy(run, DECOY, min_lift=0.15, min_holders=1000)


CONFIG_B = """
name = "planted-decoy"
ruleset = "evolversi"
players = 4
bots = "{bot}"
games = 2000
seed = 3
batch_size = 2000
edits = [{blank}]

[ablation]
entities = ["Pelliccia"]
"""


def test_the_verdict_names_the_planted_strong_card_first_from_its_knockout_and_never_the_decoy(tmp_path, leader_bot):
    """The decoy (blank Pelliccia, bought only when leading) beside a planted strong card
    (Mutazione gaining 5 points instead of 2), both knocked out, 1,000 games (seed 3): the
    verdict's first line is Mutazione, from its knockout; the decoy, whose holders win far more,
    is only an association and never a verdict line."""
    strong = '{ table = "cards", where = { name = "Mutazione" }, set = { amount = 5 } }'
    run = sweep(tmp_path, CONFIG_D.format(bot=leader_bot, blank=BLANK, strong=strong))
    verdict = report_context(run)["verdict"]
    first = verdict["problems"][0]
    assert (first["name"], first["direction"]) == ("Mutazione", "strong"), verdict["problems"]
    assert first["measure"].startswith("knockout") and first["text"].startswith("Card Mutazione: +")
    assert DECOY not in {p["name"] for p in verdict["problems"]}
    assert DECOY in {a["name"] for a in verdict["associations"]}


CONFIG_D = """
name = "planted-strong-and-decoy"
ruleset = "evolversi"
players = 4
bots = "{bot}"
games = 1000
seed = 3
batch_size = 1000
edits = [{blank}, {strong}]

[ablation]
entities = ["Pelliccia", "Mutazione"]
"""
