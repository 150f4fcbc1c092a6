"""Scenario files on either engine: a JSON state (state_io) played forward to `until`.

One driver walks the phases of a round (state_io.PHASES: deal, cards, reveal, feeding,
end); each engine supplies the same six steps, run on its own data: the reference engine
on a `Game`, the batch engine on a batch of one (state.from_games / to_game).

until: "turn" (in the feeding phase: one feeding turn of the seat `turn`; elsewhere as
"phase"), "phase" (the next phase), "round" (to the start of the next round), "end", or
"feed": to just before the next feeding turn whose bot chooses among two or more
options (the searches' decision points, docs/rollout.md), its place in the feeding saved
in the state (`queue`, `passes`, `turns`); from such a state every `until` but "turn"
goes on with that feeding exactly as a whole feeding would (that turn first). A state in the feeding
phase without a saved queue goes on with a whole feeding from the first player.
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from . import reference as ref
from . import reference_feeding as ref_feeding
from . import rules as R
from . import state_io
from .addresses import END_DECK_SHORT, END_MAX_ROUNDS
from .schema import compile_rules
from .state import from_games, to_game

UNTIL = ("turn", "phase", "round", "end", "feed")


class _Reference:
    def __init__(self, g, bots, log):
        self.g, self.bots = g, bots
        g.log = log

    def game(self):
        return self.g

    def deal(self) -> bool:
        return ref.deal(self.g)

    def cards(self):
        ref.food_cards_and_plays(self.g, self.bots)

    def reveal(self):
        ref.reveal_effects(self.g)

    def feeding_turn(self, seat, turn):
        ref_feeding.feeding_turn(self.g, seat, self.bots[seat], turn)

    def feeding(self):
        ref_feeding.feeding(self.g, self.bots)

    def feeding_from(self, place, stop):
        return ref_feeding.feeding(self.g, self.bots, place, stop)

    def end_round(self):
        ref.end_round(self.g)

    def outcome(self):
        return {"score": ref.score(self.g), "winner": ref.winners(self.g)}


class _Batch:
    def __init__(self, g, policies):
        self.like, self.pols = g, policies
        self.E = R.Engine(g.rules, g.cards)
        self.st = from_games([g], S=g.rules.species_slots)

    def game(self):
        return to_game(self.st, 0, self.like)

    def deal(self) -> bool:
        return len(R.deal(self.E, self.st, 0)) == 1

    def cards(self):
        R.cards(self.E, self.st, 0, self.pols)

    def reveal(self):
        R.reveal_effects(self.E, self.st, 0)

    def feeding_turn(self, seat, turn):
        R.feeding_turn(self.E, self.st, 0, seat, self.pols, turn)

    def feeding(self):
        R.feeding(self.E, self.st, 0, self.pols)

    def feeding_from(self, place, stop):
        return R.feeding_from(self.E, self.st, 0, self.pols, place, stop)

    def end_round(self):
        R.end_round(self.E, self.st, 0, self.pols)

    def outcome(self):
        return {"score": R.scores(self.st)[0].tolist(),
                "winner": R.winners(self.E, self.st)[0].tolist()}


def _ended(g) -> bool:
    return g.round > g.final_round or g.end_reason in (END_MAX_ROUNDS, END_DECK_SHORT)


def _advance(run, where: dict, until: str) -> None:
    start = run.game().round
    while not _ended(run.game()):
        phase = where["phase"]
        if phase == "deal":
            if not run.deal():
                return                               # cs4500: the deck cannot deal a round
            where["phase"] = "cards"
        elif phase == "cards":
            run.cards()
            where["phase"] = "reveal"
        elif phase == "reveal":
            run.reveal()
            where.update(phase="feeding", turn=run.game().first, turns=0, queue=None, passes=0)
        elif phase == "feeding" and until == "turn":
            run.feeding_turn(where["turn"], where["turns"])
            where.update(turn=(where["turn"] + 1) % len(run.game().players), turns=where["turns"] + 1,
                         queue=None, passes=0)
            return
        elif phase == "feeding" and (until == "feed" or where.get("queue")):
            saved = {"queue": where["queue"], "passes": where["passes"],
                     "turns": where["turns"]} if where.get("queue") else None
            place = run.feeding_from(saved, until == "feed")
            if place is not None:                    # stopped before a bot's feeding turn
                where.update(turn=place["queue"][0], **place)
                return
            where.update(phase="end", queue=None, passes=0)
        elif phase == "feeding":
            run.feeding()
            where["phase"] = "end"
        else:
            run.end_round()
            g = run.game()
            where.update(phase="deal", turn=g.first, turns=0, queue=None, passes=0)
            if g.round >= g.rules.max_rounds and not _ended(g):
                if isinstance(run, _Reference):
                    run.g.end_reason = END_MAX_ROUNDS
                else:
                    run.st.end_reason[0] = END_MAX_ROUNDS
        if until in ("turn", "phase") or (until == "round" and run.game().round != start):
            return


def run_state(engine: str, rs, state: dict, bots, seed: int, game: int, until: str, log=None):
    """Play a JSON state forward on `engine`; returns (state, outcome or None)."""
    if until not in UNTIL:
        raise UserError(f"must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
    rules, cards = compile_rules(rs)
    g, where = state_io.load(rules, cards, state, seed, game)
    bots = list(bots or ())
    if len(bots) != len(g.players):
        raise UserError(f"needs one bot per seat ({len(g.players)}), got {len(bots)}", key="bots")
    if engine == "reference":
        run = _Reference(g, [b.reference_policy(rs, s) for s, b in enumerate(bots)], log)
    elif engine == "batch":
        run = _Batch(g, [b.batch_policy(rs) for b in bots])
    else:
        raise UserError(f"unknown engine {engine!r}; expected batch or reference", key="engine")
    _advance(run, where, until)
    end = run.game()
    outcome = None
    if _ended(end):
        outcome = dict(run.outcome(), rounds=end.round, end_reason=state_io.END_NAMES[end.end_reason],
                       traits_played=[list(p.played) for p in end.players])
    return state_io.dump(end, where), outcome
