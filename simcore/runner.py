"""The runner: play any number of games of one ruleset in chunks, in parallel.

Game k of seed s is the same game in any chunk and on any worker (simcore.rng), so the
chunking, batch size, worker count and backend never change a result. Chunks stream: a
billion-game request never holds more than a few chunks in memory.

    simulate(ruleset, bots, players, games, seed, jobs, batch_size) -> Results(games, tallies)

`games` is a polars DataFrame with one row per game:
    ruleset, ruleset_hash, variant, seed, game, players, rounds, end_reason,
    s{i}_bot, s{i}_faction, s{i}_score, s{i}_win, s{i}_share   for each seat i
(`faction` is the game's faction, e.g. the animal; `score` its per-seat score, e.g. the
final track position; `win` the winner flag; `share` = 1 / number of winners for a winner,
so shared wins are shared). `tallies` has one row per (seat, entity) acquired at least once
in a chunk: entity_kind, entity, seat, games (games in which the seat acquired it),
count (copies acquired), wins (win shares of the seat in those games); summed over chunks.
"""
from __future__ import annotations

from collections.abc import Sequence as _Sequence
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np
import polars as pl

from .errors import UserError
from .games import get_game
from .ruleset import Ruleset

DEFAULT_BATCH = 20_000
MAX_SEED = 2**63 - 1               # seeds are hashed as 64-bit words (simcore.rng)
# The limits of a request (docs/reliability.md). Games stream chunk by chunk, so memory is
# flat in the number of games; these bound what a run folder and a chunk may hold.
MAX_GAMES = 10**12                 # games of one point (or one run): far beyond any run's time
MAX_BATCH = 1_000_000              # games in one chunk: its rows are held in memory at once
MAX_CHUNKS = 10**6                 # chunks per point: one file each in the run folder
MAX_JOBS = 1024                    # worker processes
MAX_HELD_GAMES = 10**7             # games of a command that holds every game's rows in memory at once
                                   # (compare, ladder, luck, train, bench): about 1 GB of rows
MAX_PLAYERS = 100                  # a first bound on a player count; each game then checks its own range


def check_count(value, key: str, lo: int, hi: int, what: str = "") -> int:
    """A whole number from lo to hi, else a UserError naming the key, the bounds and the value."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        shown = value if not isinstance(value, int) or abs(value) < 10**15 else f"about 10^{len(str(abs(value))) - 1}"
        raise UserError(f"must be a whole number from {lo:,} to {hi:,}{what}, got {shown}", key=key)
    return value


def check_run_size(games: int, batch_size: int, games_key: str = "games", batch_key: str = "batch_size") -> None:
    """Games and batch size within the limits, and no more than MAX_CHUNKS chunks."""
    check_count(games, games_key, 0, MAX_GAMES)
    check_count(batch_size, batch_key, 1, MAX_BATCH)
    if -(-games // batch_size) > MAX_CHUNKS:
        raise UserError(f"{games:,} games in chunks of {batch_size:,} make more than {MAX_CHUNKS:,} chunk files; "
                        f"raise the batch size to at least {-(-games // MAX_CHUNKS):,}", key=batch_key)


class ChunkBounds(_Sequence):
    """The chunks [a, b) of games [start, stop), batch_size games each, generated on demand:
    a billion-game request costs no memory to plan."""

    def __init__(self, start: int, stop: int, batch_size: int):
        self.start, self.stop, self.batch_size = start, stop, batch_size
        self._starts = range(start, stop, batch_size)

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        a = self._starts[i]
        return a, min(a + self.batch_size, self.stop)

    def __eq__(self, other) -> bool:
        return list(self) == list(other) if isinstance(other, (list, tuple, ChunkBounds)) else NotImplemented

    def __repr__(self) -> str:
        return f"ChunkBounds({self.start}, {self.stop}, {self.batch_size})"


@dataclass(frozen=True)
class RunSpec:
    """Everything that fixes which games are played (not how they are computed)."""

    ruleset: Ruleset
    players: int
    bots: tuple                       # one bot object per seat (BotLike: .name, .batch_policy)
    seed: int
    factions: tuple | None = None     # per seat: a faction name or None (random)
    trajectories: bool = False        # also record each seat's standing after each round


@dataclass
class Results:
    games: pl.DataFrame
    tallies: pl.DataFrame


def check_spec(ruleset: Ruleset, bots, players: int, factions=None, seed: int = 0,
               trajectories: bool = False) -> RunSpec:
    """Validate players, bots and factions; return a RunSpec (UserError on bad input).

    `bots`: one bot object per seat (strategies.registry.make_bots turns names into them;
    simcore never resolves a bot name itself).
    """
    game = get_game(ruleset.game)
    lo, hi = game.player_range(ruleset)
    if not isinstance(players, int) or isinstance(players, bool) or not lo <= players <= hi:
        raise UserError(f"player count must be between {lo} and {hi} for {ruleset.game}, got {players}",
                        key="players")
    bots = list(bots)
    if len(bots) != players:
        raise UserError(f"give one bot for every seat; got {len(bots)} for {players} players", key="bots")
    for b in bots:
        if getattr(b, "game", ruleset.game) != ruleset.game or not hasattr(b, "batch_policy"):
            raise UserError(f"{b!r} is not a bot for {ruleset.game}", key="bots")
    if factions is not None and not game.has_factions and any(f not in (None, "", "random") for f in factions):
        raise UserError(f"{ruleset.game} has no factions to choose (every seat plays the same)", key="factions")
    if factions is not None:
        factions = list(factions)
        if len(factions) == 1 and players > 1 and factions[0] in (None, "random"):
            factions = factions * players
        if len(factions) != players:
            raise UserError(f"give one {game.faction_label} per seat ({players}), or 'random'",
                            key=game.faction_label + "s")
        factions = game.resolve_factions(ruleset, factions, players)
        named = [f for f in factions if f is not None]
        if len(set(named)) != len(named):
            raise UserError(f"each {game.faction_label} can be chosen only once", key=game.faction_label + "s")
        if all(f is None for f in factions):
            factions = None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise UserError(f"seed must be a whole number from 0 to {MAX_SEED} (2**63 - 1), got {seed!r}", key="seed")
    if trajectories and game.standing_label is None:
        from .games import GAMES
        able = [g for g in GAMES if get_game(g).standing_label is not None]
        raise UserError(f"{ruleset.game}'s engines do not record trajectories yet; games that do: "
                        f"{', '.join(able) or 'none'}", key="trajectories")
    return RunSpec(ruleset, players, tuple(bots), seed, None if factions is None else tuple(factions),
                   bool(trajectories))


def chunk_bounds(start: int, stop: int, batch_size: int) -> ChunkBounds:
    """The chunks of games [start, stop): a lazy sequence of (a, b) pairs."""
    if batch_size < 1:
        raise UserError(f"batch size must be at least 1, got {batch_size}", key="batch_size")
    return ChunkBounds(start, stop, batch_size)


def run_chunk(spec: RunSpec, start: int, stop: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play games [start, stop) on the batch engine; return (games rows, tallies rows)."""
    game = get_game(spec.ruleset.game)
    idx = np.arange(start, stop, dtype=np.int64)
    # trajectories is passed only when asked for: an engine that does not record them
    # keeps its plain signature
    more = {"trajectories": True} if spec.trajectories else {}
    out = play(game, spec.ruleset, spec.players, list(spec.bots), spec.seed, idx,
               None if spec.factions is None else list(spec.factions), **more)
    return games_frame(spec, idx, out), tallies_frame(spec, out)


def driver(bots):
    """The first search bot of a line-up (BotLike.plays_games), or None."""
    return next((b for b in bots if getattr(b, "plays_games", False)), None)


def play(game, rs, players: int, bots, seed: int, games, factions=None, engine: str = "batch", log=None,
         trajectories: bool = False) -> dict:
    """Games `games` on `engine`, or by the line-up's search bot when it has one: a search bot
    drives the whole game (protocol.BotLike.play_games); the engine plays the rest."""
    d = driver(bots)
    if d is None:
        if engine == "batch":
            more = {"trajectories": True} if trajectories else {}
            return game.play_batch(rs, players, bots, seed, np.asarray(games, dtype=np.int64), factions, **more)
        return game.play_one(rs, players, bots, seed, int(np.asarray(games).ravel()[0]), factions, log=log)
    if trajectories or factions is not None:
        raise UserError(f"bot {d.name!r} plays seats only (no trajectories, no chosen factions yet)", key="bots")
    return d.play_games(rs, players, bots, seed, np.atleast_1d(np.asarray(games, dtype=np.int64)), engine, log)


def games_frame(spec: RunSpec, idx: np.ndarray, out: dict) -> pl.DataFrame:
    game = get_game(spec.ruleset.game)
    rs = spec.ruleset
    n = len(idx)
    winner = np.asarray(out["winner"], dtype=bool)
    n_win = winner.sum(axis=1)
    share = np.where(winner, 1.0 / np.maximum(n_win, 1)[:, None], 0.0).astype(np.float32)
    factions = game.factions(rs)
    reasons = list(game.end_reasons)
    cols = {
        "ruleset": pl.Series([rs.game] * n, dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical),
        "ruleset_hash": pl.Series([rs.hash] * n, dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical),
        "variant": pl.Series([rs.variant] * n, dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical),
        "seed": pl.Series(np.full(n, spec.seed, dtype=np.int64)),
        "game": pl.Series(idx),
        "players": pl.Series(np.full(n, spec.players, dtype=np.int8)),
        "rounds": pl.Series(np.asarray(out["rounds"], dtype=np.int16)),
        "end_reason": pl.Series(np.asarray(reasons, dtype=object)[np.asarray(out["end_reason"], dtype=np.int64)]
                                .tolist(), dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical),
    }
    fac = np.asarray(out["faction"], dtype=np.int64)
    score = np.asarray(out["score"])
    for s in range(spec.players):
        cols[f"s{s}_bot"] = pl.Series([spec.bots[s].name] * n, dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical)
        cols[f"s{s}_faction"] = pl.Series(np.asarray(factions, dtype=object)[fac[:, s]].tolist(),
                                          dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Categorical)
        cols[f"s{s}_score"] = pl.Series(score[:, s].astype(np.int16))
        cols[f"s{s}_win"] = pl.Series(winner[:, s])
        cols[f"s{s}_share"] = pl.Series(share[:, s])
    for name, arr in out.get("extra", {}).items():
        cols[name] = extra_column(arr)
    if "standing" in out:
        cols.update(standing_columns(np.asarray(out["standing"]), np.asarray(out["rounds"])))
    return pl.DataFrame(cols)


def extra_column(arr) -> pl.Series:
    """An Outcome's extra as a column: masked entries (not known for that game) are null."""
    if not np.ma.is_masked(arr):
        return pl.Series(np.asarray(arr))
    return pl.Series(np.ma.getdata(arr)).scatter(np.flatnonzero(np.ma.getmaskarray(arr)), None)


def standing_columns(standing: np.ndarray, rounds: np.ndarray) -> dict:
    """s{i}_standing: each seat's standing after rounds 1..R as a fixed-width array column
    (R = the game's round cap, so every chunk has the same schema). After a game's last round
    its final standing is repeated: the column reads as "standing by round r"."""
    G, R, P = standing.shape
    last = np.clip(np.asarray(rounds, np.int64) - 1, 0, R - 1)
    upto = np.minimum(np.arange(R)[None, :], last[:, None])                 # (G, R)
    filled = np.take_along_axis(standing, upto[:, :, None], axis=1).astype(np.int16)
    return {f"s{s}_standing": pl.Series(filled[:, :, s], dtype=pl.Array(pl.Int16, R)) for s in range(P)}


def tallies_frame(spec: RunSpec, out: dict) -> pl.DataFrame:
    """Per (seat, entity): games acquired, copies acquired, win shares in those games."""
    game = get_game(spec.ruleset.game)
    names = game.entities(spec.ruleset)
    acquired = np.asarray(out["acquired"])                  # (B, P, E)
    winner = np.asarray(out["winner"], dtype=bool)
    n_win = np.maximum(winner.sum(axis=1), 1)
    share = np.where(winner, 1.0 / n_win[:, None], 0.0)     # (B, P)
    has = acquired > 0
    games_with = np.count_nonzero(has, axis=0)               # (P, E)
    count = acquired.sum(axis=0, dtype=np.int64)
    # einsum sums over games without a (B, P, E) float temporary: 2x faster on a 20,000-game chunk
    wins = np.einsum("bpe,bp->pe", has, share)
    seat, ent = np.nonzero(games_with)
    return pl.DataFrame({
        "entity_kind": pl.Series([game.entity_kind] * len(seat), dtype=pl.Utf8),
        "entity": pl.Series([names[e] for e in ent], dtype=pl.Utf8),
        "entity_id": pl.Series(ent.astype(np.int32)),
        "seat": pl.Series(seat.astype(np.int8)),
        "games": pl.Series(games_with[seat, ent].astype(np.int64)),
        "count": pl.Series(count[seat, ent].astype(np.int64)),
        "wins": pl.Series(wins[seat, ent].astype(np.float64)),
    }, schema={"entity_kind": pl.Utf8, "entity": pl.Utf8, "entity_id": pl.Int32, "seat": pl.Int8,
               "games": pl.Int64, "count": pl.Int64, "wins": pl.Float64})


def sum_tallies(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    frames = [f for f in frames if f.height]
    if not frames:
        return pl.DataFrame(
            schema={"entity_kind": pl.Utf8, "entity": pl.Utf8, "entity_id": pl.Int32, "seat": pl.Int8,
                    "games": pl.Int64, "count": pl.Int64, "wins": pl.Float64})
    return (pl.concat(frames).group_by(["entity_kind", "entity", "entity_id", "seat"], maintain_order=True)
            .agg(pl.col("games").sum(), pl.col("count").sum(), pl.col("wins").sum())
            .sort(["seat", "entity_id"]))


def iter_chunks(spec: RunSpec, games: int, batch_size: int = DEFAULT_BATCH, jobs: int = 1,
                start: int = 0, backend: str = "loky") -> Iterator[tuple[int, int, pl.DataFrame, pl.DataFrame]]:
    """Yield (start, stop, games rows, tallies rows) chunk by chunk, in game order.

    With jobs > 1 the chunks run in worker processes (joblib); results come back in order
    and are yielded as they arrive, so memory holds only the chunks in flight.
    """
    check_run_size(games, batch_size)
    if not isinstance(jobs, int) or jobs < 1:
        raise UserError(f"jobs must be at least 1, got {jobs!r}", key="jobs")
    bounds = chunk_bounds(start, start + games, batch_size)
    if jobs == 1 or len(bounds) == 1:
        for a, b in bounds:
            g, t = run_chunk(spec, a, b)
            yield a, b, g, t
        return
    from joblib import Parallel, delayed
    # Compile once here, before the workers start: they load the build from the cache.
    get_game(spec.ruleset.game).warmup(spec.ruleset, spec.bots)
    with Parallel(n_jobs=jobs, backend=backend, return_as="generator") as par:
        results = par(delayed(run_chunk)(spec, a, b) for a, b in bounds)
        for (a, b), (g, t) in zip(bounds, results):
            yield a, b, g, t


def simulate(ruleset: Ruleset, bots=None, players: int = 4, games: int = 1000, seed: int = 0,
             jobs: int = 1, batch_size: int = DEFAULT_BATCH, factions=None) -> Results:
    """Play `games` games (indices 0..games-1 of `seed`) and return all rows.

    `bots`: one bot object per seat (see check_spec); experiments.api.simulate takes names.

    Use iter_chunks to stream very large runs instead of holding every row.
    """
    spec = check_spec(ruleset, bots, players, factions, seed)
    g_frames, t_frames = [], []
    for _, _, g, t in iter_chunks(spec, games, batch_size, jobs):
        g_frames.append(g)
        t_frames.append(t)
    games_df = pl.concat(g_frames) if g_frames else games_frame(spec, np.zeros(0, np.int64), {
        "winner": np.zeros((0, players), bool), "faction": np.zeros((0, players), np.int64),
        "score": np.zeros((0, players)), "rounds": np.zeros(0), "end_reason": np.zeros(0, np.int64)})
    return Results(games_df, sum_tallies(t_frames))
