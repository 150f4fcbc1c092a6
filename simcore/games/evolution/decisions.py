"""How Evolution's batch engine asks its bots: a bot's batch face is a `Policy` of three
compiled functions with fixed signatures, for game `b` of the packed batch `a`
(packed.Arr), rules `rk` (packed.RK), the seat's row of `mem` (int64 (P, M), the
policies' own memory):

    food_card(a, rk, b, seat, mem) -> card id (-1: none)
    plan_cards(a, rk, b, seat, acts, mem) -> rows written to acts (int64 (8, 4))
    feed_choice(a, rk, b, seat, opts, n_opts, turn, mem) -> row index of opts (int64 (K, 5))

The engine never names a bot: jit.engine_for compiles the engine with the seats' distinct
policies (at most MAX_POLICIES) as constants.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from simcore.errors import UserError

MAX_POLICIES = 4        # distinct bots in one engine build (engine.py dispatches on 0..3)

# `memory`: the policy's initial int64 memory row (or None); the engine hands each seat its
# row and writes it back after a call (scripted players keep their script position there).
# `script_at`: where a script's part of the row starts (-1: no script a search can force):
# [feeds used, feeds, food cards used, food cards, food indices..., feed indices...] (the
# feed indices last: a search appends its forced option there, branch.py).
Policy = namedtuple("Policy", "name food_card plan_cards feed_choice memory script_at", defaults=(None, -1))
FEED_POS, N_FEED, FOOD_POS, N_FOOD, LISTS = 0, 1, 2, 3, 4


def _name(face) -> tuple:
    return tuple(f"{getattr(f, 'py_func', f).__module__}.{getattr(f, 'py_func', f).__qualname__}"
                 for f in face)


def distinct(policies) -> tuple[tuple, np.ndarray]:
    """The distinct compiled faces (food_card, plan_cards, feed_choice) among the seats'
    policies, and each seat's index into them."""
    seats = [(pol.food_card, pol.plan_cards, pol.feed_choice) for pol in policies]
    # in a fixed order, so that the same set of bots in any seats is the same build
    faces = sorted(set(seats), key=_name)
    index = [faces.index(face) for face in seats]
    if len(faces) > MAX_POLICIES:
        raise UserError(f"at most {MAX_POLICIES} different bots play in one game, got {len(faces)}",
                        key="bots")
    return tuple(faces), np.array(index, np.int64)
