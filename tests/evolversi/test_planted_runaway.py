"""Planted dynamics: the `runaway-leader` variant (the sole track leader gains a
space at the end of every round) must show what it was built to show: a higher
P(win | sole leader after round r) and fewer lead changes than the printed rules, each
difference with a 95% interval that excludes zero."""
import numpy as np

from reports.measures import flow
from reports.measures.metrics import diff_interval
from reports.measures.stats import mean_interval
from simcore.games import get_game
from strategies.registry import make_bots

GAMES = 4000


def _trajectories(variant: str):
    game = get_game("evolversi")
    rs = game.data.load(variant)
    out = game.play_batch(rs, 4, make_bots("evolversi", "greedy", 4), 17, np.arange(GAMES), trajectories=True)
    return np.asarray(out["standing"], float), np.asarray(out["rounds"], np.int64), np.asarray(out["winner"], bool)


def test_the_runaway_leader_variant_has_a_higher_leader_win_curve_and_fewer_lead_changes():
    base, runaway = _trajectories("default"), _trajectories("runaway-leader")
    cb, cr = flow.runaway_curve(*base), flow.runaway_curve(*runaway)
    for r in (2, 3, 4, 5):
        b = cb.filter(cb["round"] == r).row(0, named=True)
        x = cr.filter(cr["round"] == r).row(0, named=True)
        wins_b, wins_x = round(b["p_win"] * b["games"]), round(x["p_win"] * x["games"])
        d, lo, hi = diff_interval(wins_x, x["games"], wins_b, b["games"])
        assert lo > 0, f"round {r}: P(win | leader) {x['p_win']:.3f} vs {b['p_win']:.3f}, difference [{lo:.3f}, {hi:.3f}]"
    lc_b = flow.lead_changes(base[0], base[1]).astype(float)
    lc_x = flow.lead_changes(runaway[0], runaway[1]).astype(float)
    d = lc_x.mean() - lc_b.mean()
    se = np.sqrt(lc_x.var(ddof=1) / len(lc_x) + lc_b.var(ddof=1) / len(lc_b))
    assert d + 1.96 * se < 0, f"lead changes {lc_x.mean():.2f} vs {lc_b.mean():.2f}"
    assert mean_interval(lc_x)[2] < mean_interval(lc_b)[1]


def test_the_runaway_rule_is_off_in_the_printed_rules():
    rs = get_game("evolversi").data.load()
    assert rs["leader_bonus"] == 0 and rs.specs["leader_bonus"].source == "default"
