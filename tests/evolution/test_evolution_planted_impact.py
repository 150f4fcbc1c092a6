"""Planted truths for Evolution's trait impact ("Must show", first bullet).

Each test plays a sweep with the project's own sweep and reads it through experiments.api
(`ablations`, `pairings`, `knockout_change`, `adjusted_association`, `entity_impact`) and the
report's context: the functions `balancelab sweep` and `balancelab report` use. Margins
measured on these seeds are in each docstring and in docs/metrics.md, "Planted checks".
(File name: tests/evolversi/ already has a test_planted_impact.py, and neither folder is a
package, so the basenames must differ.)
"""
from __future__ import annotations

import pytest

from experiments import api
from planted_decoy_bot import DecoyLeader
from tests.planted_kit import check_decoy, knockout_row, registered, sweep

# ----------------------------------------------------------------------------- (a) a stronger trait


def test_knockout_finds_a_stronger_foraging(tmp_path):
    """Foraging planted one food stronger: `foraging_extra` 1 -> 2 (Evolution's trait strengths
    are rule numbers in params.toml, so the edit is the parameter, not a card row), 4 greedy
    players, 8,000 games per point (seed 3). Foraging's default knockout effect is already
    clearly positive, so the test asks for the increase with an interval excluding zero
    (api.knockout_change: paired by game; the two settings share 89% of their games and the
    knocked-out games are the same). Measured: default +2.89 pp [2.49, 3.28], stronger +3.61 pp
    [3.18, 4.04] (the two intervals overlap, which is why the change is measured paired), change
    +0.72 pp [0.52, 0.92] (z about 7)."""
    run = sweep(tmp_path, CONFIG_A)
    default, stronger = (knockout_row(run, "foraging", p) for p in (0, 1))
    assert run.points[1]["labels"]["foraging_extra"] == "2"
    for r in (default, stronger):
        assert r["pair_holds"] and r["pair_identical_unused"] == 1.0 and r["holders"] > 5000
    assert stronger["ci_low"] > 0
    change = api.knockout_change(run, "foraging", 0, 1)
    assert change["effect_b"] == pytest.approx(stronger["effect"])
    assert change["ci_low"] > 0, change


CONFIG_A = """
name = "planted-stronger-foraging"
ruleset = "evolution"
players = 4
bots = "greedy"
games = 8000
seed = 3
batch_size = 4000

[[grid]]
param = "foraging_extra"
values = [1, 2]

[ablation]
entities = ["foraging"]
"""

# ----------------------------------------------------------------------------- (b) a decoy

DECOY, LEADER = "ambush", "planted-decoy-leader"


@pytest.fixture
def leader_bot():
    with registered("evolution", LEADER, DecoyLeader) as name:
        yield name


@pytest.mark.slow
def test_decoy_is_associated_but_not_causal(tmp_path, leader_bot):
    """Ambush knocked out from the start (active = 0: the cards are dealt, held and played as
    before, the trait does nothing), played only by a seat alone with the most food in its bag
    (tests/evolution/planted_decoy_bot.py: a compiled decisions.Policy; greedy never plays Ambush),
    4 players, 3,000 games (seed 3). Slow only because a new bot set builds its own compiled
    engine the first time (about 40 s of CPU, then cached). Measured: played by 135 of 12,000
    seats (greedy uses Ambush as its food card first, so leaders rarely still hold one); raw
    association +50.3 pp [39.2, 61.3], adjusted for the number of traits played +49.9 pp
    [38.8, 60.9] (corrected over 16 traits; the test asks for lower bounds above +15 pp);
    knockout 0.0 pp [0.0, 0.0], 100% of games identical. The verdict names seven other traits
    (as associations) but not Ambush; the findings call it an association and give the
    knockout's "no clear causal effect"."""
    run = sweep(tmp_path, CONFIG_B.format(bot=leader_bot))
    check_decoy(run, DECOY, min_lift=0.15, min_holders=50)


CONFIG_B = """
name = "planted-decoy"
ruleset = "evolution"
players = 4
bots = "{bot}"
games = 3000
seed = 3
batch_size = 3000
edits = [{{ table = "cards", where = {{ trait = "ambush" }}, set = {{ active = 0 }} }}]

[ablation]
entities = ["ambush"]
"""
