"""What the runner and the command line need to know about Evolution, in one place."""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...ruleset import Ruleset
from ..search_face import SearchFace
from . import addresses as A
from .schema import GAME_DATA, compile_rules
from .traits import TRAITS


class EvolutionGame(SearchFace):
    name = "evolution"
    title = "Evolution (North Star Games)"
    data = GAME_DATA
    default_bot = "greedy"
    has_factions = False
    faction_label = "seat"             # no factions: the seat (turn order at setup) is the asymmetry
    score_label = "score"
    score_lower_is_better = False
    entity_kind = "trait"
    standing_label = "score so far"    # trajectories: each seat's score after each round
    # a trait's rows in cards.csv carry its `active` flag (every row of a trait must agree)
    knockout_targets = {"trait": ("cards", "trait")}
    end_reasons = ("deck_empty", "reshuffle", "stalled", "deck_short")
    _END = {A.END_DECK_EMPTY: 0, A.END_RESHUFFLE: 1, A.END_MAX_ROUNDS: 2, A.END_DECK_SHORT: 3}

    def factions(self, rs: Ruleset) -> list[str]:
        return [f"seat {i}" for i in range(rs["players_max"])]

    def entities(self, rs: Ruleset) -> list[str]:
        """Names of the entities tallied: the traits, in trait id order (traits.TRAITS)."""
        return list(TRAITS)

    def player_range(self, rs: Ruleset) -> tuple[int, int]:
        return rs["players_min"], rs["players_max"]

    def resolve_factions(self, rs: Ruleset, factions, players: int):
        if factions is not None and any(f not in (None, "", "random") for f in factions):
            raise UserError("Evolution has no factions to choose", key="factions")
        return None

    def _common(self, out, n_games, players) -> dict:
        end = np.vectorize(self._END.get)(np.asarray(out["end_reason"]).reshape(-1)) if n_games else np.zeros(0, int)
        return {"score": np.asarray(out["score"]).reshape(n_games, players),
                "winner": np.asarray(out["winner"], dtype=bool).reshape(n_games, players),
                "rounds": np.asarray(out["rounds"]).reshape(n_games),
                "end_reason": end.astype(np.int64),
                "faction": np.broadcast_to(np.arange(players, dtype=np.int64), (n_games, players)),
                # trait cards each seat played onto its species, per trait
                "acquired": np.asarray(out["traits_played"], dtype=np.int64)
                .reshape(n_games, players, len(TRAITS)),
                "extra": {},
                **({"standing": np.asarray(out["standing"]).reshape(n_games, -1, players)}
                   if "standing" in out else {})}

    def play_batch(self, rs, players, bots, seed, games, factions=None, trajectories=False) -> dict:
        from .rules import play_batch
        rules, cards = compile_rules(rs)
        games = np.asarray(games, dtype=np.int64)
        out = play_batch(rules, cards, players, [b.batch_policy(rs) for b in bots], seed, games,
                         trajectories=trajectories)
        return self._common(out, len(games), players)

    def play_one(self, rs, players, bots, seed, game, factions=None, log=None, trajectories=False) -> dict:
        from .reference import play_one
        rules, cards = compile_rules(rs)
        out = play_one(rules, cards, players, [b.reference_policy(rs, s) for s, b in enumerate(bots)], seed,
                       int(game), log=log, trajectories=trajectories)
        if trajectories:               # the batch form: (max_rounds, P), rounds after the end 0
            standing = np.zeros((rules.max_rounds, players), np.int64)
            standing[:len(out["standing"])] = out["standing"]
            out["standing"] = standing
        common = self._common({k: [v] for k, v in out.items() if k != "game"}, 1, players)
        return {k: (v[0] if isinstance(v, np.ndarray) else v) for k, v in common.items()}

    def warmup(self, rs, bots) -> None:
        """Build the batch engine with these bots: compiled once (one line on stderr while
        it compiles), then loaded from the cache by this process and by every worker."""
        from .rules import Engine, engine
        rules, cards = compile_rules(rs)
        engine(Engine(rules, cards), [b.batch_policy(rs) for b in bots])

    def new_state(self, rs, players, bots, seed, game, factions=None, engine="reference") -> dict:
        """The JSON state (state_io) of game `game` of run `seed` just after setup, on `engine`."""
        from . import state_io
        rules, cards = compile_rules(rs)
        if engine == "batch":
            from types import SimpleNamespace
            from .rules import Engine, new_batch
            from .state import to_game
            st = new_batch(Engine(rules, cards), players, seed, [int(game)])
            g = to_game(st, 0, SimpleNamespace(rules=rules, cards=cards, seed=seed))
        else:
            from .reference import new_game
            g = new_game(rules, cards, players, seed, int(game))
        return state_io.dump(g, {"phase": "deal", "turn": g.first, "turns": 0})

    def setup_removals(self, rs, players: int) -> list:
        """What the set-up returns to the box at `players`: nothing (Evolution's rulebook: the same deck and boards at every player count; nothing goes back to the box)."""
        return []

    def run_state(self, engine, rs, state, bots, seed, game, until, choices=None, log=None):
        """A scenario state (state_io) played forward; bots: one registered bot per seat
        (a `script` bot carries its seat's choices)."""
        from .scenario import run_state
        return run_state(engine, rs, state, bots, seed, game, until, log=log)

    def board(self, rs, players: int) -> None:
        return None                     # no board: the game is played with cards only

    # ---- the search protocol (docs/rollout.md; search.py via SearchFace, branch.py)
    # Searched: the feeding choices (search.py says why), at the feeding turns that ask a
    # bot, where run_state(until="feed") stops with the feeding's place saved.
    search_kinds = ("feed",)
    search_until = "feed"
    score_sense = 1                    # a higher score is better

    def branch(self, rs, states, seat, kind, options, bots, seed, game, keys) -> dict:
        from .branch import branch
        out = branch(rs, states, seat, kind, options, bots, seed, game, keys)
        return self._common(out, len(out["score"]), len(bots))

    def state_outcome(self, rs, players, raw) -> dict:
        """run_state's end outcome (its second value) as the Outcome of one game (B = 1)."""
        from .state_io import END_NAMES
        codes = {v: k for k, v in END_NAMES.items()}
        out = {"score": [raw["score"]], "winner": [raw["winner"]], "rounds": [raw["rounds"]],
               "end_reason": [codes[raw["end_reason"]]], "traits_played": [raw["traits_played"]]}
        return self._common(out, 1, players)


GAME = EvolutionGame()
