"""What the runner and the command line need to know about Evolversi, in one place."""
from __future__ import annotations

import difflib

import numpy as np

from ...errors import UserError
from ...ruleset import Ruleset
from ..checks import check_state_bots
from ..search_face import SearchFace
from .schema import GAME_DATA


class EvolversiGame(SearchFace):
    name = "evolversi"
    title = "Barbascura X: Evolversi Male"
    data = GAME_DATA
    default_bot = "greedy"
    has_factions = True
    faction_label = "animal"           # what a seat plays as
    score_label = "track position"     # the per-seat score column
    score_lower_is_better = False
    entity_kind = "card"               # what the per-seat tallies count
    standing_label = "track position"  # the trajectories' per-seat standing after each round
    # Knockouts (contract 5.5): a row with active = 0 stays in the game, its effect off
    knockout_targets = {"card": ("cards", "name"), "animal": ("animals", "name"),
                        "event": ("events", "name"), "pressure": ("pressure", "name")}
    end_reasons = ("track", "stalled")

    def factions(self, rs: Ruleset) -> list[str]:
        return [a["name"] for a in rs.tables["animals"]]

    def entities(self, rs: Ruleset) -> list[str]:
        """Names of the entities tallied (card designs, in cards.csv row order)."""
        return [c["name"] for c in rs.tables["cards"]]

    def acquirable_entities(self, rs: Ruleset, players: int) -> list[str]:
        """The card designs a seat can buy in a game of `players`: Evolution cards of a module in
        play (starting cards are dealt, never acquired)."""
        return list(dict.fromkeys(c["name"] for c in rs.tables["cards"]
                                  if c["deck"] != "starting" and c["module"] in rs["modules"]
                                  and c["min_players"] <= players))

    def player_range(self, rs: Ruleset) -> tuple[int, int]:
        return rs["players_min"], rs["players_max"]

    def resolve_factions(self, rs: Ruleset, animals, players: int) -> list | None:
        """--animals a,b,... (names or 'random') -> per-seat names or None for random."""
        if animals is None:
            return None
        known = self.factions(rs)
        rows = {a["name"]: a for a in rs.tables["animals"]}
        out = []
        for i, a in enumerate(animals):
            if a in (None, "", "random"):
                out.append(None)
            elif a not in known:
                close = difflib.get_close_matches(a, known, 1, 0.6) or \
                    [k for k in known if k.casefold() == str(a).casefold()]
                hint = f"did you mean {close[0]!r}?" if close else f"animals: {', '.join(known)}, or random"
                raise UserError(f"unknown animal {a!r} for seat {i}; {hint}", key="animals")
            elif rows[a]["min_players"] > players:
                raise UserError(f"the {a} is not in play with {players} animals (min_players "
                                f"{rows[a]['min_players']} in animals.csv)", key="animals")
            else:
                out.append(a)
        return out

    def play_batch(self, rs, players, bots, seed, games, factions=None, trajectories=False) -> dict:
        """Play games on the batch engine; return the common outcome arrays."""
        from .rules import play_batch
        out = play_batch(rs, players, [b.batch_policy(rs) for b in bots], seed, np.asarray(games, dtype=np.int64),
                         animals=factions, trajectories=trajectories)
        return _common(out)

    def play_one(self, rs, players, bots, seed, game, factions=None, log=None, trajectories=False) -> dict:
        from .reference import play_one
        out = play_one(rs, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                       animals=factions, log=log, trajectories=trajectories)
        if trajectories:                 # the batch form: (max_rounds, P), rounds after the end 0
            standing = np.zeros((rs["max_rounds"], players), np.int16)
            standing[:len(out["standing"])] = out["standing"]
            out["standing"] = standing
        return _common(out)

    def warmup(self, rs, bots) -> None:
        """Compile (or load from the cache) the batch engine: its kernels (kernels.py) and, for
        bots with a compiled form, phase 3 and the bots (rounds.py, turn.py): one game.
        A script that runs out just stops it (the run itself reports that, with its games)."""
        from .rules import play_batch
        try:
            play_batch(rs, len(bots), [b.batch_policy(rs) for b in bots], 0, np.zeros(1, np.int64))
        except UserError:
            pass

    def new_state(self, rs, players, bots, seed, game, factions=None, engine="reference") -> dict:
        """The JSON state of game `game` of run `seed` just after setup, on `engine`."""
        if engine == "batch":
            from .rules import initial_state
            return initial_state(rs, players, [b.batch_policy(rs) for b in bots], seed, int(game), factions)
        from .reference import Game
        policies = [b.reference_policy(rs, s) for s, b in enumerate(bots)]
        return Game.new(rs, players, policies, seed, game, animals=factions).to_state()

    def setup_removals(self, rs, players: int) -> list:
        """The set-up's '3+' removals as data (state_io.setup_removals)."""
        from .state_io import setup_removals
        return setup_removals(rs, players)

    def put_in_play(self, rs, state: dict, removal) -> dict:
        """A setup state holding `removal`: the animal on the last seat, a starting card below
        the last seat's board, an Evolution card first in the market, an Event on the Event deck."""
        out = dict(state, seats=[dict(s) for s in state["seats"]])
        last = out["seats"][-1]
        if removal.kind == "animal":
            last["animal"] = removal.component
        elif removal.kind == "event":
            out["event_deck"] = [removal.component] + list(state.get("event_deck", []))
        elif any(r["name"] == removal.component and r["deck"] == "starting" for r in rs.tables["cards"]):
            last["below"] = list(last.get("below", [])) + [removal.component]
        else:
            out["market"] = [removal.component] + list(state.get("market", []))[1:]
        return out

    def run_state(self, engine: str, rs, state: dict, bots, seed, game, until, choices=None, log=None):
        """Play a JSON state forward. `bots`: one bot object per seat; a scenario's scripted
        choices travel inside its `script` bots, so `choices` must stay None here."""
        check_state_bots("evolversi", state, bots, choices)
        if engine == "batch":
            from .rules import run_state
            return run_state(rs, state, [b.batch_policy(rs) for b in bots], seed, game, until)
        from .reference import run_state
        return run_state(rs, state, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed, game,
                         until, log=log)

    def board(self, rs, players: int) -> None:
        return None                     # no board: the game is played with cards only

    # ---- the search protocol (docs/rollout.md; search.py via SearchFace, branch.py)
    search_kinds = ("PLACE",)          # phase 1's plan, every round (why not BUY: search.py)
    search_until = "place"             # run_state stops where a seat is next to PLACE
    score_sense = 1                    # track position: higher is better

    def branch(self, rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
        from .branch import branch
        return _common(branch(rs, states, seat, kind, options, bots, seed, game, keys))

    def state_outcome(self, rs, players, raw) -> dict:
        """run_state's end outcome (its second value) as the Outcome of one game (B = 1)."""
        out = {k: np.asarray(v)[None] for k, v in raw.items()}
        out["winner"] = out["winner"].astype(bool)
        return _common(out)


def _common(out: dict) -> dict:
    """The engines' outcome as the protocol's Outcome."""
    common = {"score": out["position"], "winner": out["winner"], "rounds": out["rounds"],
              "end_reason": out["end_reason"], "faction": out["animal"], "acquired": out["bought"],
              "extra": {"fourth_round": out["fourth_round"]}}
    if "standing" in out:
        common["standing"] = out["standing"]
    return common


GAME = EvolversiGame()
