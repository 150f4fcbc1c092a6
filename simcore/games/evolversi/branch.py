"""Start a batch of the numpy engine from a saved decision point (the search
protocol: docs/rollout.md).

`branch` loads the K saved states (the K determinizations of one decision point) once,
stacks them options x K times into one batch (row o * K + k is continuation (o, k): state
k, option o), and plays the whole batch to the end as play_batch does: the round the
states stopped in step by step (rules.step, which resumes a saved phase), then whole rounds
(rules.play_round), compacting finished games away. Once the saved phase 1 is over every
continuation has made its forced choice, so the rest runs on a `Run` of the plain
policies, whose phase 3 compiles (rules.compiled_turn) when every seat's policy has a
compiled form: the same games, at the batch engine's speed.

The option is the deciding seat's one scripted choice: its policy (bots[seat], a script
that falls back to its base bot: `script:then=greedy`) is wrapped so that its first
decision in row o * K + k answers option o, and every later one is its own.

Streams: the engine draws by (seed, game index, ...), so continuation k plays under a game
index of its own derived from keys[k] (mixed with the round, search.round_key) and shared
by every option: the options are compared on the same K worlds (common random numbers).
"""
from __future__ import annotations

from dataclasses import fields

import numpy as np

from ...errors import UserError
from . import setup, state_io
from .rules import COMPACT_BELOW, _outcome_arrays, _record, compiled_turn, finish_round, play_round, step
from .run import Run
from .search import SEARCH_KINDS, round_key
from .state import State, tables_for


class _Forced:
    """A seat's policy whose first decision in outcome row r answers `option[r]` (its one
    scripted choice, which must be of `kind`); later decisions are the policy's own."""

    def __init__(self, policy, kind: str, option: np.ndarray):
        self.policy, self.kind, self.option = policy, kind, option
        self.done = np.zeros(len(option), bool)
        self.uses_keys = getattr(policy, "uses_keys", True)

    def choose(self, q) -> np.ndarray:
        rows = q.view.st.out.take(q.g)
        first = ~self.done.take(rows)
        if not first.any():
            return self.policy.choose(q)
        if q.kind != self.kind:
            raise ValueError(f"the forced {self.kind} option meets a {q.kind} decision first")
        out = np.zeros(len(q), np.int64)
        if not first.all():
            out[~first] = self.policy.choose(q.subset(~first))
        sel = np.flatnonzero(first)
        opt = self.option.take(rows[sel])
        if (opt >= q.n[sel]).any():
            raise ValueError(f"a forced {self.kind} option is out of range")
        out[sel] = q.subset(sel).column(opt)
        self.done[rows[sel]] = True
        return out


def _stack(states: list) -> State:
    return State(**{f.name: np.concatenate([getattr(s, f.name) for s in states]) for f in fields(State)})


def _settled(run: Run, policies: list, seat: int) -> Run:
    """The batch on with the forced seat's own policy, once every live
    continuation has made its forced choice (a `_Forced` then only passes decisions on), so
    phase 3 can play compiled; else `run` as it is."""
    forced = policies[seat]
    if not forced.done.take(run.st.out.take(run.live())).all():
        return run
    policies = list(policies)
    policies[seat] = forced.policy
    resumed = Run(run.rs, run.tb, run.st, policies, run.seed)
    resumed.rnd, resumed.phase, resumed.turn, resumed.order_known = run.rnd, run.phase, run.turn, run.order_known
    resumed.turn_engine = compiled_turn(resumed, policies)
    return resumed


def branch(rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
    """Outcomes (the batch engine's dict, B = len(options) * len(states)) of playing each
    option of decision `kind` of `seat` from each state, continuation k seeded by keys[k]."""
    if kind not in SEARCH_KINDS:
        raise UserError(f"unknown decision kind {kind!r}; kinds it can search: {', '.join(SEARCH_KINDS)}",
                        key="kinds")
    players = len(states[0]["seats"])
    policies = [b.batch_policy(rs) for b in bots]
    setup.check_players(rs, players, policies)
    tb = tables_for(rs, players)
    K, O = len(states), len(options)
    first = state_io.resolve(rs, tb.comps, states[0])
    loaded = [state_io.load_batch_state(rs, tb, first if k == 0 else state_io.resolve(rs, tb.comps, s), game)
              for k, s in enumerate(states)]
    st = _stack(loaded).take(np.tile(np.arange(K), O))
    ids = np.array([round_key(int(x), states[0]) >> 1 for x in keys], np.int64)
    st.games[:] = np.tile(ids, O)
    st.out[:] = np.arange(K * O)
    policies[seat] = _Forced(policies[seat], kind, np.repeat(np.asarray(options, np.int64), K))
    run = Run(rs, tb, st, policies, seed)
    run.rnd, run.phase, run.turn = first["round"], first["phase"], first["turn"]
    run.order_known = run.phase in ("actions", "market")
    out = _outcome_arrays(K * O, players, tb.n_rows)
    start = run.rnd
    while run.st.alive.any() and run.rnd == start and run.phase == "play":
        step(run)                       # the saved phase 1, where the forced choice is made
    if run.st.alive.any():
        run = _settled(run, policies, seat)
    if run.st.alive.any() and run.rnd == start and run.phase == "order":
        finish_round(run)               # phases 2-4 of the saved round
    while run.st.alive.any() and run.rnd == start:
        step(run)                       # a state saved later in its round
    while run.st.alive.any():
        play_round(run)
        alive = run.st.alive
        if alive.mean() < COMPACT_BELOW:
            _record(run.st, np.flatnonzero(~alive), out, 0)
            run.st = run.st.take(np.flatnonzero(alive))
            run.check_layout()
    _record(run.st, np.arange(run.st.size), out, 0)
    return out
