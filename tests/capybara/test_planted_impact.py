"""Planted truths for Ernesto Capybara's card impact ("Must show", first bullet).

Each test plays a sweep with the project's own sweep and reads it through experiments.api
(`ablations`, `pairings`, `knockout_change`, `adjusted_association`, `entity_impact`) and the
report's context: the functions `balancelab sweep` and `balancelab report` use. Margins
measured on these seeds are in each docstring and in docs/metrics.md, "Planted checks".
"""
from __future__ import annotations

import pytest
from numba import cfunc, njit

from experiments import api
from simcore.games import get_game
from simcore.games.capybara.codes import D_ACTION, D_NEXT_CARD
from simcore.games.capybara.jit import DECIDE_SIG
from simcore.games.capybara.state import O_OPTS, O_TFAT, R_N, R_P, T_CNAME, entity_names
from strategies.capybara.batch_greedy import PLAIN, decide_greedy
from strategies.capybara.registered import BatchPolicy, greedy_script
from strategies.weights import load as load_weights
from tests.planted_kit import check_decoy, knockout_row, registered, sweep

GAME = get_game("capybara")

# ----------------------------------------------------------------------------- (a) a stronger card


@pytest.mark.slow
def test_knockout_finds_a_stronger_capybarabanshchik(tmp_path):
    """Capybarabanshchik ("every player but you places 1 tension token") planted one token
    stronger (amount 2, every colour), 4 greedy players, 12,000 games per point (seed 3). Its
    default knockout effect is already clearly positive, so the test asks for the increase with
    an interval excluding zero (api.knockout_change, paired by game: the knocked-out games are
    the same at both settings). Measured: default +1.87 pp [1.61, 2.14], stronger +2.50 pp
    [2.24, 2.75] (the two intervals overlap), change +0.62 pp [0.32, 0.93] (z about 4); at 6,000
    games +0.67 [0.25, 1.10]. The base games themselves part at once (0.0% identical between
    the settings: one more token changes every game), the knocked-out games are the same."""
    run = sweep(tmp_path, CONFIG_A)
    default, stronger = (knockout_row(run, "Capybarabanshchik", p) for p in (0, 1))
    assert run.points[1]["labels"]["data"] == "stronger"
    for r in (default, stronger):
        assert r["pair_holds"] and r["holders"] > 10000
    assert stronger["ci_low"] > 0
    change = api.knockout_change(run, "Capybarabanshchik", 0, 1)
    assert change["effect_b"] == pytest.approx(stronger["effect"])
    assert change["ci_low"] > 0, change


CONFIG_A = """
name = "planted-stronger-capybarabanshchik"
ruleset = "capybara"
players = 4
bots = "greedy"
games = 12000
seed = 3
batch_size = 4000

[[grid]]
name = "data"
edits = [[], [{ table = "cards", where = { name = "Capybarabanshchik" }, set = { amount = 2 } }]]
labels = ["default", "stronger"]

[ablation]
entities = ["Capybarabanshchik"]
"""

# ----------------------------------------------------------------------------- (b) a decoy

DECOY, LEADER = "Capybarbecue", "planted-decoy-leader"
# The decoy: Capybarbecue (1 per colour) knocked out from the start (active = 0): it is dealt,
# held and played as before but its effect does nothing. The knockout of the config then plays
# the very same ruleset, so the test also shows what a knockout says about an inert card.
INERT = '{ table = "cards", where = { name = "Capybarbecue" }, set = { active = 0 } }'


def decoy_leader_policy(decoy: int):
    """A compiled seat policy (jit.DECIDE_SIG): greedy, except that a card of entity index `decoy`
    is played (first choice) only by the sole leader and never otherwise: a non-leader whose greedy
    choice plays it discards it (ACTION) or stops (NEXT_CARD). Compiled per test, not cached (a
    test module's compiled code must not outlive its source or the card table it read)."""

    @njit
    def leads(g, rk, seat):
        """The seat alone with the least fatigue so far (fewest fatigue points wins)."""
        me = g[rk[O_TFAT] + seat]
        for x in range(rk[R_P]):
            if x != seat and g[rk[O_TFAT] + x] <= me:
                return False
        return True

    @njit
    def plays_decoy(g, rk, kind, k):
        """Option k of an ACTION (play u) or NEXT_CARD (u) decision plays a decoy card."""
        a, card = g[rk[O_OPTS] + 2 * k], g[rk[O_OPTS] + 2 * k + 1]
        if kind == D_ACTION and a != 0:
            return False                                         # discard u: not a play
        if kind == D_NEXT_CARD:
            card = a
        return 0 <= card < rk[R_N] and rk[rk[T_CNAME] + card] == decoy

    @cfunc(DECIDE_SIG)
    def decide(g, rk, kind, seat, n, h):
        if kind != D_ACTION and kind != D_NEXT_CARD:
            return decide_greedy(g, rk, kind, seat, n, PLAIN, -1)
        if leads(g, rk, seat):
            for k in range(n):
                if plays_decoy(g, rk, kind, k):
                    return k
        c = decide_greedy(g, rk, kind, seat, n, PLAIN, -1)
        if not plays_decoy(g, rk, kind, c):
            return c
        if kind == D_NEXT_CARD:
            return 0                                             # option 0: stop
        card = g[rk[O_OPTS] + 2 * c + 1]
        for k in range(n):
            if g[rk[O_OPTS] + 2 * k] == 1 and g[rk[O_OPTS] + 2 * k + 1] == card:
                return k                                         # discard that card instead
        return c

    return decide


class DecoyLeader:
    """Test only (batch engine): greedy that plays the decoy only when leading."""

    _compiled: dict = {}

    def batch(self, rs):
        decoy = entity_names(rs).index(DECOY)
        if decoy not in self._compiled:
            self._compiled[decoy] = decoy_leader_policy(decoy)
        return BatchPolicy(self._compiled[decoy], greedy_script(load_weights("capybara")))   # greedy's weights

    def reference(self, rs, seat):
        raise NotImplementedError("a test-only batch bot")


@pytest.fixture
def leader_bot():
    with registered("capybara", LEADER, DecoyLeader) as name:
        yield name


def test_decoy_is_associated_but_not_causal(tmp_path, leader_bot):
    """Capybarbecue with its effect off from the start, played (never otherwise) only by a seat
    alone with the least fatigue, 4 players, 3,000 games (seed 3). Measured: played by 1,740 of
    12,000 seats; raw association +36.1 pp [32.4, 39.8], adjusted for the number of cards played
    +28.0 pp [24.2, 31.8] (corrected over 9 cards); knockout 0.0 pp [0.0, 0.0], 100% of games
    identical (the same ruleset: the card was inert already). The report's verdict names six other
    things (seats, Capybarge, Capybaranka) but not the decoy; its findings call it an association
    and give the knockout's "no clear causal effect"."""
    run = sweep(tmp_path, CONFIG_B.format(bot=leader_bot, inert=INERT))
    check_decoy(run, DECOY, min_lift=0, min_holders=300)


CONFIG_B = """
name = "planted-decoy"
ruleset = "capybara"
players = 4
bots = "{bot}"
games = 3000
seed = 3
batch_size = 3000
edits = [{inert}]

[ablation]
entities = ["Capybarbecue"]
"""
