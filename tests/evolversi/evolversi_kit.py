"""Test helpers: the engines called with bots named as in the tests (names -> registered
bots -> the policies each engine calls), as the adapter and the scenario runner do.

`None` for the bots means every seat is `script`; `choices` = {seat: [{"kind", "option"}]}
go into the script bots, and what a script did not use is written back into `choices`,
so a test can check that every scripted choice was used.
"""
from __future__ import annotations

from simcore.games.evolversi import reference, rules
from strategies.registry import Bot, make_bot


def bots_for(names, players: int, choices=None) -> list[Bot]:
    if names is None:
        names = ["script"] * players
    elif isinstance(names, str):
        names = [names] * players
    choices = {int(k): v for k, v in (choices or {}).items()}
    return [Bot("evolversi", "script", (("choices", tuple(choices.get(s, ()))),)) if n == "script"
            else make_bot("evolversi", n) for s, n in enumerate(names)]


def batch_policies(rs, names, players: int, choices=None) -> list:
    return [b.batch_policy(rs) for b in bots_for(names, players, choices)]


def ref_policies(rs, names, players: int, choices=None) -> list:
    return [b.reference_policy(rs, s) for s, b in enumerate(bots_for(names, players, choices))]


def _write_back(choices, policies) -> None:
    for seat, items in (choices or {}).items():
        items[:] = policies[int(seat)].items if hasattr(policies[int(seat)], "items") else items


def play_batch(rs, players, bots, seed, games, animals=None) -> dict:
    return rules.play_batch(rs, players, batch_policies(rs, bots, players), seed, games, animals=animals)


def play_one(rs, players, names, seed, game, animals=None, log=None) -> dict:
    return reference.play_one(rs, players, ref_policies(rs, names, players), seed, game, animals=animals, log=log)


def batch_run_state(rs, state, names, seed, game, until, choices=None):
    pol = batch_policies(rs, names, len(state["seats"]), choices)
    out = rules.run_state(rs, state, pol, seed, game, until)
    _write_back(choices, pol)
    return out


def ref_run_state(rs, state, names, seed, game, until, choices=None, log=None):
    pol = ref_policies(rs, names, len(state["seats"]), choices)
    out = reference.run_state(rs, state, pol, seed, game, until, log=log)
    _write_back(choices, pol)
    return out


def new_game(rs, players, names, seed, game, animals=None, log=None) -> reference.Game:
    return reference.Game.new(rs, players, ref_policies(rs, names, players), seed, game, animals, log)


def game_from_state(rs, state, names, seed, game, log=None) -> reference.Game:
    return reference.Game.from_state(rs, state, ref_policies(rs, names, len(state["seats"])), seed, game, log)
