"""What the runner and the command line need to know about Ernesto Capybara, in one place.

The batch engine is rules.py (compiled); play_one / new_state / run_state("reference")
call the reference engine (reference.py) with the fixed signatures of the engine brief.
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from .codes import END_REASONS
from ..checks import check_state_bots
from ..search_face import SearchFace
from .schema import GAME_DATA
from .state import entity_names, round_cap


def _common(out: dict) -> dict:
    """The engines' outcome as the protocol's Outcome (standing only when recorded)."""
    common = {"score": out["fatigue"], "winner": out["winner"], "rounds": out["rounds"],
              "end_reason": out["end_reason"], "faction": out.get("faction"), "acquired": out["played"],
              "extra": {k: out[k] for k in ("turns", "revolutions", "boxed") if k in out}}
    if "standing" in out:
        common["standing"] = out["standing"]
    return common


class CapybaraGame(SearchFace):
    name = "capybara"
    title = "Ernesto Capybara"
    data = GAME_DATA
    default_bot = "greedy"
    has_factions = False
    faction_label = "seat"
    score_label = "fatigue"
    score_lower_is_better = True       # the least fatigue wins (luck's score outcome negates the margin)
    entity_kind = "card"
    standing_label = "-fatigue"        # trajectories: minus the fatigue taken so far (higher is better)
    # A knocked-out card keeps its place in every pile and is played as usual, its effect does
    # nothing; a knocked-out strike keeps its fatigue, its symbol does nothing (contract 17).
    knockout_targets = {"card": ("cards", "name"), "strike": ("strikes", "name")}
    end_reasons = END_REASONS

    def factions(self, rs) -> list[str]:
        return [f"seat {s}" for s in range(rs["players_max"])]

    def entities(self, rs) -> list[str]:
        return entity_names(rs)

    def player_range(self, rs) -> tuple[int, int]:
        return rs["players_min"], rs["players_max"]

    def resolve_factions(self, rs, factions, players: int):
        if factions is not None:
            raise UserError("capybara has no factions (seats only)", key="factions")
        return None

    def play_batch(self, rs, players, bots, seed, games, factions=None, trajectories=False) -> dict:
        from .rules import play_batch
        out = play_batch(rs, players, [b.batch_policy(rs) for b in bots], seed,
                         np.asarray(games, dtype=np.int64), trajectories=trajectories)
        return _common(out)

    def play_one(self, rs, players, bots, seed, game, factions=None, log=None, trajectories=False) -> dict:
        from .reference import play_one
        out = dict(play_one(rs, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                            log=log))
        out.setdefault("faction", np.arange(players))
        trajectory = out.pop("trajectory")
        if trajectories:               # the batch form: (round_cap, P), rounds after the end 0
            out["standing"] = np.zeros((round_cap(rs, players), players), np.int64)
            out["standing"][:len(trajectory)] = trajectory
        return _common(out)

    def warmup(self, rs, bots) -> None:
        """Compile (or load from the cache) the engine and these bots: one tiny game."""
        from .rules import warmup
        warmup(rs, len(bots), [b.batch_policy(rs) for b in bots])

    def new_state(self, rs, players, bots, seed, game, factions=None, engine="reference") -> dict:
        if engine == "batch":
            from .rules import initial_state
            return initial_state(rs, players, [b.batch_policy(rs) for b in bots], seed, int(game))
        from .reference import new_state
        return new_state(rs, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game)

    def setup_removals(self, rs, players: int) -> list:
        """Setup step 3 as data (state_io.setup_removals): one colour and a Capybaranka at 2-3."""
        from .state_io import setup_removals
        return setup_removals(rs, players)

    def put_in_play(self, rs, state: dict, removal) -> dict:
        """A setup state with one card of `removal` moved from the box (`removed`) into seat
        0's hand: a card of the removed colour, or the removed Capybaranka."""
        from .schema import design_key
        rows = {design_key(r): r for r in rs.tables["cards"]}
        kind = {"colour": lambda r: r["colour"] != "", "cancel": lambda r: r["effect"] == "cancel"}[removal.kind]
        out = dict(state, removed=list(state["removed"]), seats=[dict(s) for s in state["seats"]])
        card = next(k for k in out["removed"] if kind(rows[k]))
        out["removed"].remove(card)
        out["seats"][0]["hand"] = list(out["seats"][0]["hand"]) + [card]
        return out

    def run_state(self, engine: str, rs, state: dict, bots, seed, game, until, choices=None, log=None):
        check_state_bots("capybara", state, bots, choices)
        if engine == "batch":
            from .rules import run_state
            out = run_state(rs, state, [b.batch_policy(rs) for b in bots], seed, game, until)
        else:
            from .reference import run_state
            out = run_state(rs, state, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                            until, log=log)
        return out[0], _outcome(out[1])


    def board(self, rs, players: int) -> None:
        return None                     # no board: the game is played with cards only

    # ---- the search protocol (docs/rollout.md; search.py via SearchFace, branch.py)
    search_kinds = ("action",)
    search_until = "turn"              # run_state stops at the turn start, the decision point
    score_sense = -1                   # fatigue: lower is better

    def branch(self, rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
        from .branch import branch
        return _common(branch(rs, states, seat, kind, options, bots, seed, game, keys))

    def state_outcome(self, rs, players, raw) -> dict:
        """run_state's end outcome (its second value) as the Outcome of one game (B = 1)."""
        out = {k: np.asarray(raw[k])[None] for k in ("fatigue", "winner", "rounds", "end_reason", "played",
                                                     "turns", "revolutions", "boxed")}
        out["winner"] = out["winner"].astype(bool)
        out["faction"] = np.arange(players)[None]
        return _common(out)


# The outcome fields both engines report from a state (the reference adds its own extras).


OUTCOME_FIELDS = ("fatigue", "winner", "rounds", "end_reason", "played", "turns", "revolutions", "boxed",
                  "tokens_left", "strikes")


def _outcome(out):
    """One form for both engines: the shared fields as plain JSON values."""
    if out is None:
        return None
    return {k: np.asarray(out[k]).tolist() for k in OUTCOME_FIELDS if k in out}


GAME = CapybaraGame()
