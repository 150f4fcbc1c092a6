"""The one game protocol: what every game package offers the runner, the CLI and the tests.

Every game lives in simcore/games/<game>/ with the same files:

    data/          params.toml, CSV tables (each row with a `source`), variants/*.toml
    schema.py      GAME_DATA: the table schemas and rule parameters of the game
    state.py       the batch state: a dataclass of arrays, batch axis first
    rules.py       the batch engine (vectorised numpy, or compiled with numba: docs/design.md)
    reference.py   the one-game reference engine, written straight from the rulebook
    state_io.py    a game state <-> JSON (scenario files)
    adapter.py     GAME: an object satisfying `Game` below

Bots are not part of a game package: they live in strategies/<game>/ and reach the engines
as objects satisfying `BotLike` (strategies.registry.Bot). An engine never names a bot.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence, TypedDict, runtime_checkable

import numpy as np


class BotLike(Protocol):
    """A seat's bot as handed to a game: it builds the policy each engine calls."""

    name: str

    def batch_policy(self, rs) -> Any: ...

    def reference_policy(self, rs, seat: int) -> Any: ...


class Outcome(TypedDict):
    """What both engines return for a batch of B games with P seats (play_one: B = 1, squeezed)."""

    score: np.ndarray        # (B, P) the game's per-seat score (Game.score_label)
    winner: np.ndarray       # (B, P) bool, every winner of a shared win True
    rounds: np.ndarray       # (B,) rounds played
    end_reason: np.ndarray   # (B,) index into Game.end_reasons
    faction: np.ndarray      # (B, P) index into Game.factions(rs)
    acquired: np.ndarray     # (B, P, E) per seat, how often each entity was acquired
    extra: dict              # name -> (B,) array: game-specific per-game columns
    # Only when asked for (trajectories=True), from a game whose standing_label is set:
    # standing: (B, R, P) each seat's standing after rounds 1..R (R = the game's round cap;
    # rounds after a game's end are not meaningful: use `rounds`)


@runtime_checkable
class Game(Protocol):
    """The adapter every game package exports as `GAME`."""

    name: str                  # the ruleset name on the command line
    title: str
    data: Any                  # simcore.ruleset.GameData: load(variant, data_dir, overrides)
    default_bot: str
    has_factions: bool
    faction_label: str         # what a seat plays as ("animal", or "seat" without factions)
    score_label: str           # what the per-seat score column means
    score_lower_is_better: bool  # True where the least score wins (Capybara's fatigue)
    entity_kind: str           # what the per-seat tallies count ("card", "trait", ...)
    # Knockouts (issue 9): entity kind -> (table, name column). Every row of that table has
    # an `active` column (1 by default); a row edited to active = 0 keeps its cards in the
    # game (same deck, same shuffles, same draws) with its effect switched off in the rules.
    knockout_targets: dict[str, tuple[str, str]]
    end_reasons: tuple[str, ...]

    def factions(self, rs) -> list[str]: ...

    def entities(self, rs) -> list[str]: ...

    def player_range(self, rs) -> tuple[int, int]: ...

    def resolve_factions(self, rs, factions, players: int) -> list | None: ...

    def warmup(self, rs, bots: Sequence[BotLike]) -> None:
        """Build whatever the batch engine compiles for these bots (no-op for numpy engines)."""

    # Trajectories (issue 14): what a seat's standing after each round is (its own progress
    # measure: track position, score so far, -fatigue; higher is better), or None when the
    # game's engines do not record them yet.
    standing_label: str | None

    def play_batch(self, rs, players: int, bots: Sequence[BotLike], seed: int, games,
                   factions=None, trajectories: bool = False) -> Outcome: ...

    def play_one(self, rs, players: int, bots: Sequence[BotLike], seed: int, game: int,
                 factions=None, log=None, trajectories: bool = False) -> Outcome: ...

    def new_state(self, rs, players: int, bots: Sequence[BotLike], seed: int, game: int,
                  factions=None) -> dict:
        """The JSON state (state_io) of game `game` of run `seed` just after setup."""

    def run_state(self, engine: str, rs, state: dict, bots: Sequence[BotLike] | None, seed: int,
                  game: int, until: str, choices=None, log=None) -> tuple[dict, dict]:
        """Play a JSON game state forward on `engine` ("batch" or "reference") to `until`."""

    def board(self, rs, players: int) -> dict | None:
        """The board a game of `players` is played on, as plain data for a figure (the report
        draws it with reports/map_plot.py): {"zones": [{"name", "x", "y", "terrain", "coast",
        "start"}, ...], "edges": [[name, name], ...], "terrains": [...]}; None for a game
        without a board."""
