"""Kingmaking (experiments/kingmaking.py): a planted last-seat choice between two leaders is
found; a control where the same choice cannot change the winner is not; a choice that only
reshuffles luck (no option favours anyone) is flagged no more often than the null says."""
from __future__ import annotations

import numpy as np
import pytest

from experiments.kingmaking import _shares, _swings, decision_effect, scan_game
from simcore import rng


class LastSeatGame:
    """Three seats, one decision: the last seat (far behind) gives a point to seat 0 or to seat
    1, then every seat gains a small random amount from the continuation's stream (rounded
    down to 0 or 1 for the leaders, 0 for the last seat), and the highest score wins.
    `lead` is seat 0's head start over seat 1: 0 plants a tie the gift decides; 3 is a
    control whose winner no gift and no luck can change."""

    search_kinds = ("gift",)
    search_until = "gift"

    def __init__(self, lead: int):
        self.lead = lead

    def new_state(self, rs, players, bots, seed, game):
        return {"scores": [10 + self.lead, 10, 0], "gift": None, "ended": False}

    def decision_point(self, rs, state):
        return None if state["ended"] or state["gift"] is not None else (2, "gift")

    def legal_options(self, rs, state, seat, kind):
        return [("give", 0), ("give", 1), ("give", 0)]          # a duplicate label: tried once

    def _finish(self, state, gift, key):
        scores = list(state["scores"])
        scores[gift] += 2
        luck = rng.key(key, 0, rng.CHANCE, 1) % 2                  # the same for every option of one key
        scores[int(luck)] += 1
        top = max(scores)
        return {"winner": np.array([[s == top for s in scores]]), "score": np.array([scores])}

    def branch(self, rs, states, seat, kind, options, bots, seed, game, keys):
        rows = [self._finish(st, self.legal_options(rs, st, seat, kind)[o][1], k)
                for o in options for st, k in zip(states, keys)]
        return {key: np.concatenate([r[key] for r in rows]) for key in ("winner", "score")}

    def run_state(self, engine, rs, state, bots, seed, game, until):
        if state["gift"] is None:
            return dict(state, gift=0), None
        out = self._finish(state, state["gift"], int(rng.key(seed, game, rng.CHANCE)))
        return dict(state, ended=True), out

    def state_outcome(self, rs, players, raw):
        return raw


class CoinGame(LastSeatGame):
    """The last seat's option only picks which coin decides between the two tied leaders: each
    option's winner is a fair coin of its own (a different stream per option), so no option
    favours anyone, yet with K playouts two options' win shares often differ by half a game."""

    def __init__(self):
        super().__init__(0)

    def legal_options(self, rs, state, seat, kind):
        return [("coin", 0), ("coin", 1), ("coin", 2)]

    def _finish(self, state, gift, key):
        scores = list(state["scores"])
        scores[int(rng.key(key, gift, rng.CHANCE, 7) % 2)] += 1
        top = max(scores)
        return {"winner": np.array([[s == top for s in scores]]), "score": np.array([scores])}


def test_a_choice_that_only_reshuffles_luck_is_flagged_about_as_often_as_its_null():
    g, games = CoinGame(), 200
    scans = [scan_game(g, None, 3, [None] * 3, seed=9, game=i, playouts=8) for i in range(games)]
    assert all(s.hopeless == 1 for s in scans)
    swing_only = sum(_big_swing(g, i) for i in range(games))
    flagged, null = sum(s.kingmaking for s in scans), sum(s.null for s in scans)
    assert swing_only >= 0.1 * games            # the swing alone calls many of these games kingmaking
    assert flagged <= 0.05 * games and null <= 0.05 * games     # beyond chance: a few, as the null
    assert abs(flagged - null) <= 0.05 * games


def _big_swing(g, i: int) -> bool:
    """Whether game i's decision swings by half a game or more (the rule without its p-value)."""
    state = g.new_state(None, 3, None, 9, i)
    keys = [int(rng.key(9, i, rng.SEARCH, 0, 2, k, 43)) for k in range(8)]
    out = g.branch(None, [state] * 8, 2, "gift", [0, 1, 2], None, 9, i, keys)
    return float(_swings(_shares(out, 3, 8), 2)) >= 0.5


@pytest.mark.parametrize("lead, planted", [(0, True), (3, False)])
def test_last_seat_choice_between_two_leaders_is_kingmaking(lead, planted):
    scan = scan_game(LastSeatGame(lead), None, 3, [None] * 3, seed=5, game=0, playouts=8)
    assert scan.decisions == 1 and scan.hopeless == 1
    assert scan.kingmaking == (1 if planted else 0)
    if planted:
        seat, kind, chance, moved = scan.swings[0]
        assert (seat, kind, chance) == (2, "gift", 0.0) and moved >= 0.5


def test_a_seat_that_can_still_win_is_not_a_kingmaker():
    game = LastSeatGame(0)
    game.new_state = lambda *a: {"scores": [10, 10, 12], "gift": None, "ended": False}
    scan = scan_game(game, None, 3, [None] * 3, seed=5, game=0, playouts=8)
    assert scan.decisions == 1 and scan.hopeless == 0 and scan.kingmaking == 0


def test_decision_effect_reads_the_best_option_and_the_largest_swing():
    # 2 options x 2 continuations, 3 seats; seat 2 decides
    winner = np.array([[1, 0, 0], [1, 1, 0],      # option 0: seat 0 wins 1.5 of 2, seat 1 0.5
                       [0, 1, 0], [0, 0, 1]])     # option 1: seat 1 wins 1, seat 2 1
    chance, swing = decision_effect({"winner": winner}, seat=2, options=2, k=2)
    assert chance == pytest.approx(0.5)
    assert swing == pytest.approx(0.75)           # seat 0: 0.75 -> 0.0


def test_measuring_a_real_game_leaves_the_bots_game_unchanged():
    from experiments.kingmaking import forcing_bot
    from simcore.games import get_game
    from simcore.runner import play
    from strategies.registry import make_bots
    g = get_game("capybara")
    rs = g.data.load()
    scan = scan_game(g, rs, 3, [forcing_bot("capybara", "greedy")] * 3, seed=3, game=1, playouts=2)
    plain = play(g, rs, 3, list(make_bots("capybara", "greedy", 3, rs)), 3, np.array([1]))
    assert scan.winner == tuple(bool(w) for w in np.asarray(plain["winner"])[0])
    assert scan.decisions > 0 and scan.kingmaking <= scan.hopeless <= scan.decisions


@pytest.mark.parametrize("argv, needle", [
    (["evolution", "--players", "2"], "3 or more players"),
    (["capybara", "--bots", "gredy"], "did you mean 'greedy'"),
    (["capybara", "--hopeless", "0"], "--hopeless"),
    (["capybara", "--games", "0"], "--games"),
    (["capybara", "--bots", "rollout", "--games", "1"], "cannot have its options forced"),
])
def test_bad_kingmaking_input_is_one_line_and_exit_2(argv, needle, capsys):
    from experiments import cli
    assert cli.main(["kingmaking", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err
