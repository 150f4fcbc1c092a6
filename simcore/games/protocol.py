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
    """A seat's bot as handed to a game: it builds the policy each engine calls.

    Optional driver hook (search bots: strategies/rollout.py). A compiled engine
    cannot call Python mid-game, so a bot that searches plays whole games itself: when
    `plays_games` is true, the runner (simcore.runner.play) calls
    `play_games(rs, players, bots, seed, games, engine, log) -> Outcome` instead of the
    engine, with the whole line-up; its policies (batch_policy / reference_policy) are then
    those of its base bot. simcore only reads the attribute: it never imports strategies.
    """

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
    extra: dict              # name -> (B,) array: game-specific per-game columns; a masked
                             # entry (numpy.ma) is not known for that game: null in the rows
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
    # Knockouts: entity kind -> (table, name column). Every row of that table has
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

    # Trajectories: what a seat's standing after each round is (its own progress
    # measure: track position, score so far, -fatigue; higher is better), or None when the
    # game's engines do not record them yet.
    standing_label: str | None

    def play_batch(self, rs, players: int, bots: Sequence[BotLike], seed: int, games,
                   factions=None, trajectories: bool = False) -> Outcome: ...

    def play_one(self, rs, players: int, bots: Sequence[BotLike], seed: int, game: int,
                 factions=None, log=None, trajectories: bool = False) -> Outcome: ...

    def new_state(self, rs, players: int, bots: Sequence[BotLike], seed: int, game: int,
                  factions=None, engine: str = "reference") -> dict:
        """The JSON state (state_io) of game `game` of run `seed` just after setup, set up by
        `engine` ("batch" or "reference"): the same state on both."""

    def setup_removals(self, rs, players: int) -> list:
        """What the rulebook's setup returns to the box at `players`, as data: a list of
        checks.Removal ([] if nothing). A state holding one is refused by both loaders."""

    def put_in_play(self, rs, state: dict, removal) -> dict:
        """A copy of setup `state` with `removal` put in play (the shared test's refused
        state); needed only by a game whose setup_removals can be non-empty."""

    def run_state(self, engine: str, rs, state: dict, bots: Sequence[BotLike] | None, seed: int,
                  game: int, until: str, choices=None, log=None) -> tuple[dict, dict]:
        """Play a JSON game state forward on `engine` ("batch" or "reference") to `until`."""

    def board(self, rs, players: int) -> dict | None:
        """The board a game of `players` is played on, as plain data for a figure (the report
        draws it with reports/page/map.py): {"zones": [{"name", "x", "y", "terrain", "coast",
        "start"}, ...], "edges": [[name, name], ...], "terrains": [...]}; None for a game
        without a board."""


# The members of Searchable a game adapter must have for a search bot to play it.
SEARCH_MEMBERS = ("search_kinds", "search_until", "decision_point", "legal_options", "determinize", "branch",
                  "state_outcome")


def missing_search(game) -> list[str]:
    """The search protocol's members (SEARCH_MEMBERS) a game adapter does not provide."""
    return [m for m in SEARCH_MEMBERS if not hasattr(game, m)]


class Searchable(Protocol):
    """The search protocol (docs/rollout.md): what a game adds to `Game` so that
    search bots (`rollout`) can play it. A game without these members has no `rollout` bot
    (asking for one is a UserError naming what is missing). The shared suite
    (tests/games/test_rollout_shared.py) checks every game that provides them.

    A decision point is a saved JSON state (state_io) at which `run_state(..., until=
    search_until)` stops; there, one seat takes its first decision of a searched kind.
    """

    search_kinds: tuple[str, ...]   # decision kinds a search bot can search at a saved state
    search_until: str               # the run_state `until` that stops at the decision points
    score_sense: int                # +1: a higher score is better, -1: lower (the search's margin)

    def decision_point(self, rs, state: dict) -> tuple[int, str] | None:
        """(seat, kind) of the decision the saved `state` asks first, when its kind is in
        search_kinds and it has options; None otherwise (and at the end)."""

    def legal_options(self, rs, state: dict, seat: int, kind: str) -> list:
        """The options of that decision in the engines' order (option i = index i), as
        labels; equal labels are equal moves (a search tries only the first)."""

    def determinize(self, rs, state: dict, seat: int, key: int) -> dict:
        """`state` with what `seat` cannot see (opponents' hands, deck orders, face-down
        cards) re-dealt from the stream of `key`, consistently with what it saw (its hand,
        face-up cards, counts). It must depend only on what the seat saw: two states that
        differ only in hidden information give the same result for the same key."""

    def branch(self, rs, states: list, seat: int, kind: str, options, bots: Sequence[BotLike],
               seed: int, game: int, keys) -> Outcome:
        """Start a batch from a decision point: each state of `states` (K determinizations
        of one point) loaded into the batch engine, each option of `options` forced as the
        `kind` decision of `seat`, every game played to the end by `bots`; continuation
        (o, k) runs on seed keys[k] (its own streams) and is row o * K + k. bots[seat] must
        follow a script (the option is written as its one scripted choice) and fall back to
        its base bot (e.g. capybara's `script:then=greedy`)."""

    def state_outcome(self, rs, players: int, raw: dict) -> Outcome:
        """run_state's end outcome (its second value) as the Outcome of one game (B = 1)."""

    # Optional, for speed only (a search must choose the same option with or without them;
    # Evo provides both, docs/rollout.md "Starting a batch from a decision point"):
    #   decision_seat(rs, state) -> int | None: decision_point's seat (None: no decision
    #       point), cheaper than decision_point; the driver skips the point of a seat
    #       that does not search.
    #   branch_pruned(...same as branch) -> (Outcome, live): branch, but the continuations
    #       of an option that provably cannot have the best mean win share are left out
    #       (live[o] False; its rows are not to be read); used only where win share ranks first.
