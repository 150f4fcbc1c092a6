"""Helpers for the Evo reference engine's tests: rulesets, policies, scenario files."""
from __future__ import annotations

import json
from pathlib import Path

from experiments.scenario import _matches
from simcore.games.evo import reference
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.reference_bots import reference_policy

SCENARIO_DIR = Path(__file__).resolve().parents[1] / "scenarios" / "evo"


_RULESETS: dict = {}


def ruleset(variant="default", **overrides):
    """The loaded ruleset (cached: loading checks every table and map)."""
    k = json.dumps([variant, overrides], sort_keys=True)
    if k not in _RULESETS:
        _RULESETS[k] = GAME_DATA.load(variant, overrides=overrides)
    return _RULESETS[k]


def policies(rs, players, bot="random", choices=None):
    choices = choices or {}
    bots = [bot] * players if isinstance(bot, str) else list(bot)
    return [reference_policy(b, rs, s, choices=choices.get(s, ())) for s, b in enumerate(bots)]


def play(rs, players, bot="random", seed=1, game=0, log=None, trajectories=False):
    return reference.play_one(rs, players, policies(rs, players, bot), seed, game, log=log,
                              trajectories=trajectories)


def run_doc(doc: dict, log=None):
    """Run a scenario dict on the reference engine: (result, mismatches, leftover choices)."""
    rs = ruleset(doc.get("variant", "default"), **doc.get("set", {}))
    players = len(doc["state"]["seats"])
    choices = {int(k): list(v) for k, v in doc.get("choices", {}).items()}
    pols = policies(rs, players, doc.get("bots", "script"), choices)
    state, outcome = reference.run_state(rs, doc["state"], pols, doc.get("seed", 0), doc.get("game", 0),
                                         doc.get("until", "phase"), log=log)
    result = {"state": state, "outcome": outcome}
    left = {s: p.items for s, p in enumerate(pols) if getattr(p, "items", None)}
    return result, _matches(doc.get("expect", {}), result, ""), left


def load(name: str) -> dict:
    return json.loads((SCENARIO_DIR / name).read_text())
