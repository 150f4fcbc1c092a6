"""Greedy's incremental E(s) (batch_evaluation.option_e) equals E(s) recomputed on the
look-ahead arrays after the option is played (contract 13's "after o"), for every option of
every effect in states met in seeded games."""
from __future__ import annotations

import pytest

from simcore.games.capybara import codes as C
from simcore.games.capybara import state as S
from simcore.games.capybara.table import effect_options
from strategies.capybara.batch_best_option import best_effect
from strategies.capybara.batch_evaluation import after_effect, option_e, values_now

from .batch_kit import ruleset, turns

EFFECTS = [(C.PLACE, 1), (C.PLACE, 2), (C.PLACE_OTHERS, 1), (C.COMPLETE, 0), (C.GATHER, 0),
           (C.COPY_TOKENS, 0), (C.COPY_TOKENS, 1), (C.LOCK, 0)]


@pytest.mark.parametrize("variant", ["default", "additional-rules"])
def test_incremental_evaluation_matches_the_look_ahead(variant):
    rs = ruleset(variant)
    checked = 0
    for rk, g in turns(rs, ["random"] * 4, seed=3, game=1):
        oo = int(rk[S.O_OPTS2])
        for s in range(4):
            for eff, amount in EFFECTS:
                for colour in range(len(rs["colours"])):
                    n = effect_options(g, rk, eff, colour, s, oo)
                    for k in range(n):
                        a, b = int(g[oo + 2 * k]), int(g[oo + 2 * k + 1])
                        now = values_now(g, rk, s)
                        fast = option_e(g, rk, s, now, eff, amount, colour, (s + 1) % 4, a, b)
                        slow = after_effect(g, rk, s, eff, amount, colour, (s + 1) % 4, a, b)
                        assert fast == slow, (eff, amount, colour, a, b)
                        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("variant", ["default", "additional-rules"])
def test_the_best_option_is_the_lowest_look_ahead_with_ties_to_the_lowest_index(variant):
    """best_effect (every effect scored as its rows are enumerated, none written; GATHER's
    per-seat part once per seat) picks the option a one-by-one look-ahead would among the
    engine's option rows: lowest E(s) after it, the lowest index among equals."""
    rs = ruleset(variant)
    checked = 0
    for rk, g in turns(rs, ["random"] * 4, seed=5, game=2):
        oo = int(rk[S.O_OPTS2])
        for s in range(4):
            for eff, amount in EFFECTS:
                for colour in range(len(rs["colours"])):
                    actor = (s + 2) % 4
                    now = values_now(g, rk, s)
                    best, arg, n = best_effect(g, rk, s, eff, amount, colour, actor, now)
                    # the option rows as the engine lists them (best_effect writes none)
                    assert effect_options(g, rk, eff, colour, actor, oo) == n
                    if n == 0:
                        continue
                    slow = [after_effect(g, rk, s, eff, amount, colour, actor, int(g[oo + 2 * k]),
                                         int(g[oo + 2 * k + 1])) for k in range(n)]
                    assert (best, arg) == (min(slow), slow.index(min(slow))), (eff, amount, colour)
                    checked += 1
    assert checked > 300
