"""Start a batch of the compiled engine from a saved decision point (the search
protocol: docs/rollout.md).

A decision point is a state saved by run_state(until="feed"): a feeding under way, just
before a feeding turn where the bot of seat `turn` chooses (its queue, passes and turn number
saved). `branch` loads the K states (K determinizations of one point) into games 0..K-1
of one batch, once, then plays options x K continuations in one compiled loop
(engine.play_branches): continuation (o, k) copies game k, appends option o to the
deciding seat's scripted feeding choices (its bot follows its script, then its base bot:
`script:then=greedy`), plays on the streams of keys[k] and goes on to the game's end.
Row o * K + k of the outcome is continuation (o, k).

The streams of continuation k: keys[k] with the decision's place (round, feeding turn)
mixed in, as its game index; every option of one k plays the same streams (common random
numbers). The rollout bot's keys name the seat's turn by the state's `turn`, which in
Evolution is the seat to play, so the place is what tells two decisions of a seat apart.
"""
from __future__ import annotations

import numpy as np

from ... import rng
from ...errors import UserError
from . import rules as R
from . import state_io
from .schema import compile_rules
from .state import from_games

_M63 = (1 << 63) - 1


def stream_of(key: int, state: dict) -> int:
    """The game index (a non-negative int64) continuation or determinization streams of
    `key` use at the decision point `state`."""
    return int(rng.key(int(key), int(state.get("round", 0)), rng.SEARCH, int(state.get("turns", 0)))) & _M63


def branch(rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
    """Outcomes (play_batch's dict, B = len(options) * len(states)) of playing each option
    of the feeding decision of `seat` from each state, continuation k on keys[k]."""
    if kind != "feed":
        raise UserError(f"unknown decision kind {kind!r}; kinds: feed", key="kinds")
    rules, cards = compile_rules(rs)
    loaded = [state_io.load(rules, cards, st, seed, game) for st in states]
    where = loaded[0][1]
    if where["phase"] != "feeding" or not where["queue"] or where["queue"][0] != seat:
        raise ValueError("a decision point is a feeding turn of the seat saved by run_state(until='feed')")
    policies = [b.batch_policy(rs) for b in bots]
    at = policies[seat].script_at
    if at < 0:
        raise ValueError(f"bots[{seat}] must be a script that falls back to a base bot (script:then=...)")
    K, O, P = len(states), len(options), len(policies)
    games = [g for g, _ in loaded] + [loaded[0][0]] * (O * K)
    st = from_games(games, S=rules.species_slots)
    st.seed = 0                       # each continuation's streams: its game index (stream_of)
    E = R.Engine(rules, cards)
    pl = R._Bots(E, policies, P)
    mem0 = np.zeros((P, pl.mem.shape[1] + 1), np.int64)      # room for the forced option
    mem0[:, :pl.mem.shape[1]] = pl.mem
    queue = where["queue"]
    place = np.array([len(queue), where["passes"], where["turns"]] + list(queue), np.int64)
    opts, acts = R._scratch(st)
    pl.mod.play_branches(R.pack_state(st), E.rk, K, seat, at, np.asarray(options, np.int64),
                         np.array([stream_of(k, states[0]) for k in keys], np.int64), place, pl.idx,
                         opts, acts, np.zeros(P, np.int64), mem0.copy(), mem0, pl.err)
    if pl.err[0]:
        raise UserError(f"seat {int(pl.err[0]) - 1}: the bot chose no legal option (a forced option "
                        "out of range?)", key="choices")
    rows = slice(K, K + O * K)
    score = R.scores(st)[rows]
    return {"score": score, "winner": R.winners(E, st)[rows], "rounds": st.round[rows].copy(),
            "end_reason": st.end_reason[rows].astype(np.int64),
            "traits_played": st.traits_played[rows].copy()}

