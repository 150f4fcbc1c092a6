"""Evo's compiled engine and bots are built without numba's reference counting
(simcore/games/evo/jit.py): with it, every helper call that takes the state arrays cost an
atomic increment and decrement per array, about 80% of a greedy game's time."""
from __future__ import annotations

from numba import cfunc, njit

from simcore.games.evo.batch_game import play_games
from simcore.games.evo.jit import BUILD
from simcore.jit import DECIDE_SIG
from strategies.evo.batch_bots import random_policy
from strategies.evo.batch_greedy import choose, greedy_policy


def _policy_llvm(options: dict) -> str:
    """The LLVM of a policy-shaped function that calls a helper on g and rk in a loop,
    both compiled with `options` (uncached: cached code cannot be inspected)."""
    @njit(**options)
    def at(g, rk, i):
        return g[rk[i]] if i >= 0 else 0

    def read(g, rk, kind, seat, n, h):
        t = 0
        for k in range(n):
            if k != seat:
                t += at(g, rk, k)
        return t
    return cfunc(DECIDE_SIG, **options)(read).inspect_llvm()


def test_kernels_and_policies_take_the_build_options():
    assert BUILD.options == {"_nrt": False}
    for k in (play_games, choose):
        assert k.targetoptions["_nrt"] is False
    for p in (greedy_policy, random_policy):
        assert p.compiled._compiler.targetoptions == BUILD.options


def test_the_build_options_compile_helper_calls_without_reference_counting():
    """What numba's private `_nrt=False` means: fails loudly if an upgrade changes it."""
    plain, lean = _policy_llvm({}), _policy_llvm(BUILD.options)
    assert "NRT_incref" in plain or "NRT_decref" in plain, \
        "numba no longer reference-counts here: check what _nrt=False means now"
    assert "NRT_incref" not in lean and "NRT_decref" not in lean
