"""What the runner and the command line need to know about Evo, in one place.

The batch engine is rules.py (compiled; imported only inside the batch methods, so this
module imports before it exists); play_one / new_state / run_state("reference") call the
reference engine (reference.py) with the fixed signatures of the engine brief. Both
engines return the contract's section 8 outcome; `_common` turns it into the protocol's
Outcome (per-seat dinosaurs become the extra columns s0_dinosaurs, s1_dinosaurs, ...).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from ..checks import check_state_bots
from ..search_face import SearchFace
from .schema import GAME_DATA

EXTRAS = ("sector", "attacks", "kills", "births", "climate_deaths", "events")


def _common(out: dict, players: int) -> dict:
    dinos = np.asarray(out["dinosaurs"])
    extra = {k: np.asanyarray(out[k]) for k in EXTRAS}     # asany: keeps a mask (not known)
    extra.update({f"s{s}_dinosaurs": dinos[..., s] for s in range(players)})
    common = {"score": np.asarray(out["score"]), "winner": np.asarray(out["winner"], dtype=bool),
              "rounds": np.asarray(out["rounds"]), "end_reason": np.asarray(out["end_reason"]),
              "faction": np.asarray(out["faction"]) if "faction" in out
              else np.broadcast_to(np.arange(players), np.shape(out["score"])).copy(),
              "acquired": np.asarray(out["won"]), "extra": extra}
    if "standing" in out:
        common["standing"] = np.asarray(out["standing"])
    return common


class EvoGame(SearchFace):
    name = "evo"
    title = "Evo (second edition)"
    data = GAME_DATA
    default_bot = "greedy"
    has_factions = False
    faction_label = "seat"
    score_label = "MP"
    score_lower_is_better = False
    entity_kind = "gene"
    standing_label = "MP"              # trajectories: each seat's MP after each round
    # A knocked-out gene is drawn, bid on, held and counted; its effect is off (contract 10).
    knockout_targets = {"gene": ("genes", "name")}
    end_reasons = ("meteorite",)

    def factions(self, rs) -> list[str]:
        return [f"seat {s}" for s in range(rs["players_max"])]

    def entities(self, rs) -> list[str]:
        """The distinct gene names in first-appearance row order of genes.csv (section 8)."""
        names: list[str] = []
        for r in rs.tables["genes"]:
            if r["name"] not in names:
                names.append(r["name"])
        return names

    def player_range(self, rs) -> tuple[int, int]:
        return rs["players_min"], rs["players_max"]

    def resolve_factions(self, rs, factions, players: int):
        if factions is not None:
            raise UserError("evo has no factions (seats only)", key="factions")
        return None

    def play_batch(self, rs, players, bots, seed, games, factions=None, trajectories=False) -> dict:
        from .rules import play_batch
        out = play_batch(rs, players, [b.batch_policy(rs) for b in bots], seed,
                         np.asarray(games, dtype=np.int64), trajectories=trajectories)
        return _common(out, players)

    def play_one(self, rs, players, bots, seed, game, factions=None, log=None, trajectories=False) -> dict:
        from .reference import play_one
        out = play_one(rs, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                       log=log, trajectories=trajectories)
        return _common(out, players)

    def warmup(self, rs, bots) -> None:
        """Compile (or load from the cache) the batch engine for these bots."""
        from . import rules
        if hasattr(rules, "warmup"):
            rules.warmup(rs, len(bots), [b.batch_policy(rs) for b in bots])

    def new_state(self, rs, players, bots, seed, game, factions=None, engine="reference") -> dict:
        if engine == "batch":
            from .rules import initial_state
            return initial_state(rs, players, seed, int(game))
        from .reference import new_state
        return new_state(rs, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game)

    def setup_removals(self, rs, players: int) -> list:
        """What the set-up returns to the box at `players`: nothing (Evo's rulebook: a board per player count (maps/<P>/) and one set of pieces per player; no shared component goes back to the box)."""
        return []

    def run_state(self, engine: str, rs, state: dict, bots, seed, game, until, choices=None, log=None):
        """Play a JSON state forward; scripted choices travel inside `script` bots."""
        check_state_bots("evo", state, bots, choices)
        if engine == "batch":
            from .rules import run_state
            from .rules import policies_of
            out = run_state(rs, state, policies_of(rs, bots), seed, game, until)
        else:
            from .reference import run_state
            out = run_state(rs, state, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                            until, log=log)
        raw = _outcome(out[1])
        if raw is not None:
            raw["held"] = _held(rs, out[0])
        return out[0], raw

    def board(self, rs, players: int) -> dict:
        """The P-player map as plain data (reports/page/map.py draws it)."""
        from . import maps
        zones, edges = maps.plot_data(rs, maps.load_map(rs, players))
        return {"zones": zones, "edges": edges, "terrains": list(rs["terrains"])}

    # ---- the search protocol (docs/rollout.md; search.py via SearchFace, branch.py)
    search_kinds = ("bid", "move")     # search.py's module doc says why these two
    search_until = "turn"              # each seat's turn of an auction or a movement phase
    score_sense = 1                    # MP: higher is better

    def decision_seat(self, rs, state):
        """search.decision_seat: decision_point's seat, cheaply (None: no decision point)."""
        from .search import decision_seat
        return decision_seat(rs, state)

    def branch(self, rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
        from .branch import branch
        return _common(branch(rs, states, seat, kind, options, bots, seed, game, keys), len(states[0]["seats"]))

    def branch_pruned(self, rs, states, seat, kind, options, bots, seed, game, keys) -> tuple[dict, np.ndarray]:
        """`branch` leaving out the options that cannot have the best mean win share of `seat`
        (branch.branch_pruned): (outcomes, live per option); rows of options not live are
        not to be read."""
        from .branch import branch_pruned
        out, live = branch_pruned(rs, states, seat, kind, options, bots, seed, game, keys)
        return _common(out, len(states[0]["seats"])), live

    def state_outcome(self, rs, players, raw) -> dict:
        """run_state's end outcome (its second value) as the Outcome of one game (B = 1).
        The per-game tallies (attacks, kills, births, climate_deaths, events) of a game
        played on from saved states are not known (a loaded state's tallies start at 0):
        they are masked, null in the rows; `acquired` is the genes held at the end (genes
        never leave a board, so that is what a whole game's tally is)."""
        out = {k: np.asarray(raw[k])[None] for k in ("score", "winner", "rounds", "end_reason", "dinosaurs",
                                                     "sector")}
        out["won"] = np.asarray(raw["held"], np.int64)[None]
        out.update({k: np.ma.masked_array(np.zeros(1, np.int64), mask=True) for k in EXTRAS if k not in out})
        out["faction"] = np.arange(players)[None]
        return _common(out, players)


def _held(rs, state: dict) -> list:
    """Per seat, the genes it holds, counted per name in the entities' order."""
    names = GAME.entities(rs)
    return [[seat.get("genes", []).count(n) for n in names] for seat in state["seats"]]


# The outcome fields a continued state determines (the tallies of a game loaded mid-way
# count only what happened after the load, so they are left out of the common form).
OUTCOME_FIELDS = ("score", "winner", "rounds", "end_reason", "dinosaurs", "sector")


def _outcome(out):
    """One form for both engines: the shared fields as plain JSON values."""
    if out is None:
        return None
    return {k: np.asarray(out[k]).tolist() for k in OUTCOME_FIELDS if k in out}


GAME = EvoGame()
