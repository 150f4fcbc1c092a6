"""Play candidates on common game indices and keep every finished chunk on disk.

Candidate c at n games = games 0..n-1 of the stream's seed, so candidates are compared on
the same games (common random numbers). Games are played in chunks (experiments.sweep.execute:
loky or dask, any worker count) and each chunk is one parquet file written atomically
(experiments.store), under RUN/evals/<stream>/<candidate id>/, and recorded with its sha256 in that
folder's chunks.jsonl: a chunk whose bytes do not match its record is played again. A rung that needs more games
plays only the missing range, and a resumed search reads the chunks it already has: the
numbers never depend on the workers, the backend or an interruption.
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simcore.errors import UserError
from simcore.runner import chunk_bounds, sum_tallies

from .. import store
from ..grid import _Loader
from ..lineup import run_spec
from ..sweep import execute
from .config import FLOW_TARGETS
from .space import Space, load_candidate
from .targets import measure


def candidate_id(candidate: tuple) -> str:
    return hashlib.sha256(json.dumps(list(candidate)).encode()).hexdigest()[:12]


@dataclass
class Evaluator:
    space: Space
    out: Path
    jobs: int = 1
    backend: str = "loky"
    scheduler: str | None = None
    on_games: object = None             # callback(games) as chunks finish (a progress bar)
    played: int = 0                     # games evaluated (read or played) so far: the budget's count
    fresh: int = 0                      # games actually played by this process
    started: float = field(default_factory=time.perf_counter)
    _loader: _Loader = None
    _specs: dict = field(default_factory=dict)

    def __post_init__(self):
        self._loader = _Loader(self.space.cfg.base)

    def spec(self, candidate: tuple, seed: int):
        key = (candidate, seed)
        if key not in self._specs:
            cfg = self.space.cfg.base
            rs = load_candidate(self.space, candidate, self._loader)
            factions = cfg.factions
            if factions is not None and len(factions) == 1 and cfg.players[0] > 1:
                factions = factions * cfg.players[0]
            bots = list(cfg.bots) if cfg.bots else None
            flow = any(t in FLOW_TARGETS for t in self.space.cfg.targets)     # game-flow targets need trajectories
            self._specs[key] = run_spec(rs, bots, cfg.players[0], factions, seed, trajectories=flow)
        return self._specs[key]

    def feasible(self, candidate: tuple) -> bool:
        """False when the game's own checks reject the candidate's data (two values that clash)."""
        try:
            self.spec(candidate, self.space.cfg.base.seed)
        except UserError:
            return False
        return True

    def folder(self, stream: str, candidate: tuple) -> Path:
        return self.out / "evals" / stream / candidate_id(candidate)

    def bounds(self, n: int, have: int = 0) -> list[tuple[int, int]]:
        return chunk_bounds(have, n, self.space.cfg.base.batch_size)

    def cost(self, candidates: list[tuple], n: int, have: dict) -> int:
        """Games a rung adds to the budget (those beyond what each candidate already has)."""
        return sum(max(0, n - have.get(c, 0)) for c in candidates)

    def run(self, stream: str, seed: int, candidates: list[tuple], n: int, have: dict,
            track: tuple[int, ...] = ()) -> dict:
        """Make sure each candidate has games [0, n) on disk; return {candidate: (games, tallies)}.

        track: entity ids whose per-game, per-seat `s{i}_has_{id}` flags the rows carry (the
        proof's paired interval of the entity-impact target needs them).
        """
        tasks, wanted = [], {}
        for i, c in enumerate(candidates):
            a = have.get(c, 0)
            chunks = self.bounds(n, a) if n > a else []
            wanted[c] = chunks
            self.played += max(0, n - a)
            done = _done(self.folder(stream, c))
            for lo, hi in chunks:
                if (lo, hi) not in done:
                    tasks.append((i, self.spec(c, seed), lo, hi, track))
        for i, lo, hi, games, tallies in execute(tasks, self.jobs, self.backend, self.scheduler):
            folder = self.folder(stream, candidates[i])
            record = store.write_chunk(folder / f"games-{lo:09d}-{hi:09d}.parquet", games, tallies)
            store.record_chunk(folder, 0, lo, hi, record)
            self.fresh += hi - lo
            if self.on_games is not None:
                self.on_games(hi - lo)
        for c in candidates:
            have[c] = max(have.get(c, 0), n)
        return {c: self.read(stream, c, n) for c in candidates}

    def read(self, stream: str, candidate: tuple, n: int) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Games [0, n) of a candidate (every chunk must be on disk) and their tallies."""
        done = _done(self.folder(stream, candidate))
        paths = [p for (lo, hi), p in sorted(done.items()) if hi <= n]
        games = pl.concat([pl.read_parquet(p) for p in paths]).sort("game")
        if games.height != n or games["game"][-1] != n - 1:
            raise RuntimeError(f"candidate {candidate}: chunks on disk cover {games.height} of {n} games")
        return games, sum_tallies([store.read_chunk_tallies(p) for p in paths])

    def measure(self, stream: str, seed: int, candidates: list[tuple], n: int, have: dict) -> dict:
        """{candidate: {target: (estimate, low, high)}} on games [0, n)."""
        frames = self.run(stream, seed, candidates, n, have)
        return {c: measure(g, t, self.space.cfg.targets) for c, (g, t) in frames.items()}


def _done(folder: Path) -> dict:
    """{(lo, hi): path} of the candidate's chunks whose bytes match their record (the folder's
    chunks.jsonl, as a sweep's); any other chunk file is replayed, with a note on stderr."""
    if not folder.is_dir():
        return {}
    ledger = store.read_ledger(folder)
    out = {}
    for p in folder.glob("games-*.parquet"):
        parts = p.stem.split("-")
        lo, hi = int(parts[1]), int(parts[2])
        why = store.check_chunk(p, lo, hi, ledger.get((0, lo, hi)))
        if why is None:
            out[(lo, hi)] = p
        else:
            print(f"note: replaying {p}: {why}", file=sys.stderr)
    return out
