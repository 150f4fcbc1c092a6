"""Evolversi Male, the batch engine: B games at once as numpy arrays (docs/games/evolversi.md).

This module is the entry (`play_batch`, `run_state`) and the round loop (`play_round`,
`step`). The rules live in one module per part of the round, as functions of the run
(`run.Run`: the state arrays plus the engine's place in the round), named like the
reference engine's methods where they do the same thing:

    setup.py     setup, the play-request checks          piles.py     the own discard pile
    phases.py    play_cards, turn_order, take_turn        effects.py   resolve, targets, verbs, reactions,
                 (take_tokens, reveal, reserve)                        the market (buy, swap_market,
                                                                       new_market), Events, Pressure
                                                          state_io.py  the JSON game state
    arrays.py    flat-index and reduction helpers         decisions.py the bots' decision interface
    kernels.py   the decision-free loops, compiled        jit.py       their numba build and cache
                 (draws and shuffles, verbs, targets, phase 4 ...: docs/games/evolversi.md 14)
    turn.py      phase 3 compiled, decisions included     rounds.py    whole rounds compiled
                 (the bots with a compiled form)                       around it (play_batch)
    turn_inputs.py  what turn.py and rounds.py are handed (state tuple, tables, rule numbers)

Games take different paths, so every step works on `g`, the game rows it applies to; a
game that ends drops out of `g` at once, and the batch is compacted between rounds.
Random draws and decisions follow the contract's addresses exactly, so game k of seed s is
the same game in any batch and agrees with the one-game reference engine.
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...ruleset import Ruleset
from ...jit import compiled
from . import effects, phases, rounds, setup, state_io, turn, turn_inputs
from .decisions import OPT
from .arrays import put_rows
from .run import Run
from .state import State, Tables, empty_state, tables_for


UNTIL = ("turn", "phase", "round", "place", "end")   # run_state stopping points
POLICY_SLOTS = 8              # compiled policies handed to rounds.play (at least players_max)
BATCH_SIZE = 32768            # games per chunk in play_batch (memory stays flat)
COMPACT_BELOW = 0.5           # compact the batch when fewer than this share of games live
NO_STANDING = np.zeros((0, 1, 1), np.int16)   # rounds.play records no trajectories


def _outcome_arrays(n: int, P: int, R: int) -> dict:
    return {"position": np.zeros((n, P), np.int16), "winner": np.zeros((n, P), bool),
            "rounds": np.zeros(n, np.int16), "end_reason": np.zeros(n, np.int8),
            "animal": np.zeros((n, P), np.int8), "fury": np.zeros((n, P), np.int8),
            "tokens": np.zeros((n, P), np.int16), "bought": np.zeros((n, P, R), np.uint16),
            "fourth_round": np.zeros(n, np.int16)}


def _record(st: State, rows, out: dict, offset: int) -> None:
    """The outcome of the games `rows`; rows None: every game of a batch never compacted
    (its row b is outcome row b: one slice copy per field)."""
    fields = (("position", st.pos), ("winner", st.winner), ("rounds", st.rounds),
              ("end_reason", st.end_reason), ("animal", st.animal), ("fury", st.fury),
              ("tokens", st.tokens), ("bought", st.bought), ("fourth_round", st.fourth_round))
    if rows is None:
        for name, field in fields:
            out[name][offset:offset + st.size] = field
        return
    dst = st.out.take(rows) + offset
    for name, field in fields:
        put_rows(out[name], dst, field.take(rows, axis=0))


def play_batch(ruleset: Ruleset, players: int, bots, seed: int, games, animals=None,
               trajectories: bool = False) -> dict:
    """Play the games `games` (int64 game indices) to the end; section 8 outcome arrays.

    `bots`: one batch policy per seat (decisions.py; strategies/evolversi/ builds them);
    `animals`: None, or one animal name
    (or None for a random one) per seat. Game k is the same whatever batch it runs in.
    `trajectories`: also return "standing" (B, max_rounds, P) int16, each seat's track
    position after each round (rounds after a game's end left 0).
    """
    bots = list(bots)
    setup.check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    fixed = setup.fixed_animals(ruleset, tb, animals)
    games = np.asarray(games, dtype=np.int64).reshape(-1)
    out = _outcome_arrays(len(games), players, tb.n_rows)
    if trajectories:
        out["standing"] = np.zeros((len(games), ruleset["max_rounds"], players), np.int16)
    for start in range(0, len(games), BATCH_SIZE):
        _play_chunk(ruleset, tb, bots, seed, games[start:start + BATCH_SIZE], fixed, out, start)
    return out


def _play_chunk(rs, tb, bots, seed, games, fixed, out, offset):
    st = empty_state(rs, tb, games)
    run = Run(rs, tb, st, bots, seed)
    run.turn_engine = compiled_turn(run, bots)
    setup.setup(run, fixed)
    standing = out.get("standing")
    if run.turn_engine is not None:      # every game to its end in one compiled call
        rows = standing[offset:offset + len(games)] if standing is not None else NO_STANDING
        _compiled_rounds(run, rounds.FROM_PLAY, rs["max_rounds"], rows)
        _record(run.st, None, out, offset)
        return
    while run.st.alive.any():
        played = np.flatnonzero(run.st.alive) if standing is not None else None
        r = run.rnd
        play_round(run)
        if standing is not None:        # the track after round r, for the games that played it
            standing[run.st.out.take(played) + offset, r - 1] = run.st.pos.take(played, axis=0)
        alive = run.st.alive
        if alive.mean() < COMPACT_BELOW:
            _record(run.st, np.flatnonzero(~alive), out, offset)
            run.st = run.st.take(np.flatnonzero(alive))
            run.check_layout()
    _record(run.st, np.arange(run.st.size), out, offset)


def initial_state(ruleset: Ruleset, players: int, bots, seed: int, game: int, animals=None) -> dict:
    """The state (section 10, card names) of game `game` of run `seed` right after setup
    (section 3), set up by the batch engine."""
    bots = list(bots)
    setup.check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    run = Run(ruleset, tb, empty_state(ruleset, tb, np.array([game], np.int64)), bots, seed)
    setup.setup(run, setup.fixed_animals(ruleset, tb, animals))
    return state_io.to_names(ruleset, tb.comps, state_io.dump_batch_state(run))


def run_state(ruleset: Ruleset, state: dict, bots, seed: int, game: int, until: str):
    """Load a game state (section 10), play on until `until` (turn, phase, round, place,
    end), and return (state with card names, outcome dict or None). `bots`: one batch policy
    per seat (decisions.py); a scenario's scripted choices live in its `script` policies.
    "place" stops where a seat's PLACE is next due (`to_place`)."""
    if until not in UNTIL:
        raise UserError(f"until must be {', '.join(UNTIL[:-1])} or {UNTIL[-1]}, got {until!r}", key="until")
    players = len(state.get("seats", []))
    bots = list(bots)
    setup.check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    s = state_io.resolve(ruleset, tb.comps, state)
    dumped, outcome = run_resolved(ruleset, tb, s, bots, seed, game, until)
    return state_io.to_names(ruleset, tb.comps, dumped), outcome


def run_resolved(rs: Ruleset, tb: Tables, s: dict, bots, seed: int, game: int, until: str):
    """run_state on a state whose cards are uids (state_io.resolve); returns the same form."""
    st = state_io.load_batch_state(rs, tb, s, game)
    run = Run(rs, tb, st, bots, seed)
    run.count_decisions = True         # the saved state carries the counter, whatever the bots read
    run.rnd, run.phase, run.turn = s["round"], s["phase"], s["turn"]
    run.order_known = run.phase in ("actions", "market")
    if not s.get("ended"):
        _run_until(run, until)
    outcome = None
    if not run.st.alive[0]:
        outcome = _outcome_arrays(1, tb.players, tb.n_rows)
        _record(run.st, np.array([0]), outcome, 0)
        outcome = {k: v[0].tolist() for k, v in outcome.items()}
    return state_io.dump_batch_state(run), outcome


def _run_until(run: Run, until: str) -> None:
    if until == "place":
        to_place(run)
        return
    start_round, start_phase = run.rnd, run.phase
    while run.st.alive[0]:
        done = step(run)
        if until == "turn" and done == "turn":
            return
        if until == "phase" and run.phase != start_phase:
            return
        if until == "round" and (run.rnd != start_round):
            return


def to_place(run: Run) -> None:
    """until="place" on a batch of one: play on until a seat with cards in hand is next to
    PLACE (every seat has drawn, the seats before it in seat order have placed), having
    done something: drawn, placed a hand, or played a later phase. A seat with no card to
    place is asked its one-option PLACE on the way (phase 1 asks it), which changes
    nothing, so it never stops a run. The reference engine's Game.play_to_place does the same."""
    moved, after = False, -1           # after: the last seat placed by this call
    while run.st.alive[0]:
        if run.phase != "play":
            step(run)
            moved, after = True, -1
            continue
        st, g = run.st, run.live()
        before = int(st.n_hand[0].sum())
        g = phases.draw_due(run, g)
        if not len(g):
            return
        moved |= int(st.n_hand[0].sum()) != before
        seat = next((s for s in range(after + 1, run.P) if not phases.placed(run, g, s)[0]), None)
        if seat is None:
            run.phase, run.turn = "order", 0
            moved = True
            continue
        if st.n_hand[0, seat] > 0 and moved:
            return
        moved |= bool(st.n_hand[0, seat] > 0)
        phases.place(run, g, seat)
        after = seat


def step(run):
    """Run the next unit: a whole phase, or one turn of phase 3. Returns its kind."""
    g = run.live()
    if run.phase == "play":
        phases.play_cards(run, g)
        if run.st.alive.any():          # a Power may end the game in phase 1
            run.phase, run.turn = "order", 0
        return "phase"
    if run.phase == "order":
        phases.turn_order(run, g)
        run.phase, run.turn = "actions", 0
        return "phase"
    if run.phase == "actions":
        if run.turn < run.P:
            phases.take_turn(run, g, run.turn)
            if len(run.live()):
                run.turn += 1
            if run.turn >= run.P:
                run.phase = "market"
            return "turn"
        run.phase = "market"
        return "phase"
    effects.new_market(run, g)
    if run.st.alive.any():
        run.rnd += 1
        run.phase, run.turn = "play", 0
        run.st.counter[:] = 0
        run.st.order[:] = np.arange(run.P)
        run.st.order_pos[:] = np.arange(run.P)
        run.order_known = False
    return "round"


def compiled_turn(run, bots):
    """(policies, their data, phase 3's tables, scratch, phases 1 and 4's tables) for the
    round compiled whole (rounds.py, turn.py), if every seat's bot has a compiled form
    (decisions.py); else None: the numpy path plays it."""
    forms = []
    for p in bots:
        form = getattr(p, "compiled_form", None)
        form = form(run.tb) if form is not None else None
        if form is None:
            return None
        forms.append(form)
    P, H, M = run.P, run.H, run.M
    if H >= OPT - 1 or np.isin(run.tb.ev_verb, turn.EVENT_VERBS_NOT_COMPILED).any():
        return None
    n_place = max(len(o) for o in run.tb.place_options)
    Q = OPT + 3 * (max(H * H * (P - 1), M * M, M + 1, P, n_place) + 1)
    rk = np.zeros((P, max(len(f[1]) for f in forms)), np.int64)
    for s, (_, data) in enumerate(forms):
        rk[s, :len(data)] = data
    # one tuple length for every player count (one compiled signature): seats past P unused
    pol = tuple(compiled(f[0]) for f in forms)
    pol += (pol[0],) * (POLICY_SLOTS - P)
    tables = turn_inputs.turn_tables(run, effects.VERB_FAMILY, effects._PER_TARGET_VERB)
    return pol, rk, tables, turn_inputs.scratch(run, Q), rounds.tables(run)


def play_round(run):
    """Phases 1-4 of one round on every live game (the fast path of play_batch)."""
    compiled = run.turn_engine
    if run.count_decisions or compiled is not None:
        run.st.counter[:] = 0
    if compiled is not None:
        _compiled_round(run, rounds.FROM_PLAY)
        return
    phases.play_cards(run, run.live(), fresh=True)
    finish_round(run)


def finish_round(run):
    """Phases 2-4 of the round on every live game, phase 1 played (play_round's rest; a
    search branch resumes a saved round here, branch.py)."""
    if run.turn_engine is not None:
        _compiled_round(run, rounds.FROM_ORDER)
        return
    phases.turn_order(run, run.live())
    for k in range(run.P):
        phases.take_turn(run, run.live(), k)
    effects.new_market(run, run.live())
    run.rnd += 1
    run.order_known = False


def _compiled_round(run, first):
    """Phases `first`..4 of the round compiled, game by game (rounds.play)."""
    _compiled_rounds(run, first, 1, NO_STANDING)
    run.rnd += 1
    run.order_known = False


def _compiled_rounds(run, first, n_rounds, standing):
    """rounds.play: every live game on from phase `first` for n_rounds rounds at most."""
    pol, rk, tables, X, round_tables = run.turn_engine
    rounds.play(run.live(), first, n_rounds, turn_inputs.turn_arrays(run.st), tables, round_tables,
                rounds.constants(run), pol, rk, X, standing)
