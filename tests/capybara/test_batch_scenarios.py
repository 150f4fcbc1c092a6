"""The contract's worked examples (section 14) on the batch engine, and the state round trip."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore.games.capybara import batch_io as state_io
from simcore.games.capybara.rules import _pack, run_state
from strategies.registry import Bot

from .batch_kit import ruleset

HERE = Path(__file__).parents[1] / "scenarios" / "capybara" / "batch"


def matches(actual, expect, where="state"):
    """`expect` is partial: only the keys given are compared; a list of objects compares its
    first len(expect) entries."""
    if isinstance(expect, dict):
        for k, v in expect.items():
            matches(actual[k], v, f"{where}.{k}")
    elif isinstance(expect, list) and expect and isinstance(expect[0], dict):
        assert len(actual) >= len(expect), where
        for i, (a, e) in enumerate(zip(actual, expect)):
            matches(a, e, f"{where}[{i}]")
    else:
        assert actual == expect, f"{where}: {actual!r} != {expect!r}"


def play(sc):
    rs = ruleset(sc.get("variant", "default"))
    P = sc["players"]
    bots = [Bot("capybara", "script", options=(("choices", sc["choices"].get(str(s), [])),)) for s in range(P)]
    return run_state(rs, sc["state"], [b.batch_policy(rs) for b in bots], sc["seed"], sc["game"], sc["until"])


@pytest.mark.parametrize("path", sorted(HERE.glob("*.json")), ids=lambda p: p.stem)
def test_worked_example(path):
    sc = json.loads(path.read_text())
    state, outcome = play(sc)
    matches(state, sc["expect"]["state"])
    assert outcome is None


def test_a_dumped_state_loads_back_unchanged():
    sc = json.loads((HERE / "five_strike_revolution.json").read_text())
    state, _ = play(sc)
    rs = ruleset()
    rk, g, u, pol = _pack(rs, 4, [Bot("capybara", "random").batch_policy(rs)] * 4, 1)
    state_io.load(rs, rk, g, state, 0)
    assert state_io.dump(rs, rk, g, [False] * 4) == state
