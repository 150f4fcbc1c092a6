"""The sweep runner: config -> points -> chunks -> workers -> one parquet file per chunk.

Chunks fan out with joblib: local worker processes (loky), or a dask.distributed cluster
through joblib's dask backend (a LocalCluster when no scheduler address is given). The
main process writes every finished chunk atomically, so workers need no shared disk.
A chunk's rows depend only on (point, start, stop) (per-game random streams), so the
results are the same whatever the backend, the number of workers or the interruptions;
`resume=True` plays only the chunks whose files are missing.

Compiled engines (numba) are built once, here, before the chunks fan out (`warm_up`), on
every backend including a remote scheduler; workers then load the build from numba's
cache (simcore/jit.py: `$BALANCELAB_CACHE_DIR/numba/<game>-<hash>`, default
~/.cache/balancelab). Workers on other machines see that cache only if they share
BALANCELAB_CACHE_DIR (and the same sources) with this process.
"""
from __future__ import annotations

import asyncio
import datetime as _dt
import logging
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import polars as pl

from simcore.errors import EnvironmentFault, UserError
from simcore.games import get_game
from simcore.runner import RunSpec, games_frame, play, run_chunk, tallies_frame

from . import store
from .config import SweepConfig, load_config
from .grid import Point, expand
from .provenance import git_revision, versions

BACKENDS = ("loky", "dask")


def play_chunk(spec: RunSpec, start: int, stop: int, track: tuple[int, ...] = ()) -> tuple[pl.DataFrame, pl.DataFrame]:
    """run_chunk's rows, plus per seat `s{i}_has_{id}` flags for the tracked entity ids and, with any
    tracked, `s{i}_acquired`: how many entities the seat acquired in all (the adjusted association's strata)."""
    if not track:
        return run_chunk(spec, start, stop)
    game = get_game(spec.ruleset.game)
    idx = np.arange(start, stop, dtype=np.int64)
    # as simcore.runner.run_chunk (a line-up with a search bot is played by its driver)
    out = play(game, spec.ruleset, spec.players, list(spec.bots), spec.seed, idx,
               None if spec.factions is None else list(spec.factions), trajectories=spec.trajectories)
    acquired = np.asarray(out["acquired"])                          # (B, P, E)
    flags = {f"s{s}_has_{e}": acquired[:, s, e] > 0 for s in range(spec.players) for e in track}
    flags.update({f"s{s}_acquired": acquired[:, s, :].sum(axis=1).astype(np.int16) for s in range(spec.players)})
    return games_frame(spec, idx, out).with_columns(**flags), tallies_frame(spec, out)


def _task(play: Callable, point: int, spec: RunSpec, start: int, stop: int, track: tuple[int, ...]):
    games, tallies = play(spec, start, stop, track)
    return point, start, stop, games, tallies


# ----------------------------------------------------------------------------- manifest

def ruleset_record(rs) -> dict:
    """What a report needs to know about a ruleset: every value and where it comes from."""
    params = {n: {"value": list(p.value) if isinstance(p.value, tuple) else p.value, "source": p.source,
                  "doc": p.doc} for n, p in rs.specs.items()}
    tables = {}
    for name, rows in rs.tables.items():
        if rows and "source" in rows[0]:
            key = "name" if "name" in rows[0] else next(iter(k for k in rows[0] if k != "_row"))
            tables[name] = {"rows": len(rows),
                            "by_source": {s: sum(r["source"] == s for r in rows) for s in ("rulebook", "inferred", "default")},
                            "default_rows": [str(r[key]) for r in rows if r["source"] == "default"]}
    return {"game": rs.game, "variant": rs.variant, "hash": rs.hash, "params": params,
            "defaults_used": rs.defaults_used(), "tables": tables, "files": dict(rs.files),
            "overrides": {k: (list(v) if isinstance(v, tuple) else v) for k, v in rs.overrides.items()},
            "entities": list(get_game(rs.game).entities(rs))}


def reference_point(cfg: SweepConfig, points: list[Point]) -> int:
    """The first base point that plays the config's own ruleset (no grid change), else point 0."""
    rs = get_game(cfg.ruleset).data.load(cfg.variant, data_dir=cfg.data, overrides=cfg.set, edits=list(cfg.edits))
    return next((p.index for p in points if p.ablated is None and p.ruleset.hash == rs.hash), 0)


def board_record(game, points: list[Point], reference: int) -> dict | None:
    """The board of the reference point's ruleset and player count, as plain data the report
    draws (Game.board), or None for a game without a board."""
    ref = next((p for p in points if p.index == reference), points[0] if points else None)
    if ref is None:
        return None
    board = game.board(ref.ruleset, ref.spec.players)
    if board is None:
        return None
    return {"players": ref.spec.players, "zones": board["zones"],
            "edges": [list(e) for e in board["edges"]], "terrains": list(board["terrains"])}


def build_manifest(cfg: SweepConfig, points: list[Point], command: str = "sweep") -> dict:
    """The run folder's provenance record; `command` says what wrote it (`sweep`, or `run` for one point)."""
    game = get_game(cfg.ruleset)
    rulesets = {}
    for p in points:
        rulesets.setdefault(p.ruleset.hash, ruleset_record(p.ruleset))
    config_file = str(Path(cfg.file).resolve()) if Path(cfg.file).is_file() else cfg.file
    reference = reference_point(cfg, points)
    return {
        "format": store.FORMAT, "kind": "balancelab sweep", "command": command, "status": "running",
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "config_file": config_file, "config_digest": cfg.digest(), "config": cfg.resolved(),
        "ruleset": cfg.ruleset, "faction_label": game.faction_label, "score_label": game.score_label,
        "standing_label": game.standing_label,
        "entity_kind": game.entity_kind, "end_reasons": list(game.end_reasons),
        "games_per_point": cfg.games, "batch_size": cfg.batch_size, "target_rounds": cfg.resolved()["target_rounds"],
        "reference_point": reference, "board": board_record(game, points, reference), "points": [p.describe() for p in points],
        "rulesets": rulesets, "versions": versions(), "git": git_revision(), "sessions": [],
    }


def _write_ruleset_data(out: Path, points: list[Point]) -> None:
    for p in points:
        path = out / "rulesets" / f"{p.ruleset.hash}.json"
        if not path.exists():
            rs = p.ruleset
            store.write_json(path, {"game": rs.game, "variant": rs.variant, "params": dict(rs.params),
                                    "tables": {k: [{c: v for c, v in r.items()} for r in rows]
                                               for k, rows in rs.tables.items()}})


# ----------------------------------------------------------------------------- running

def _check_options(jobs, backend, scheduler) -> None:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise UserError(f"must be at least 1, got {jobs!r}", key="--jobs")
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; choose loky or dask", key="--backend")
    if scheduler is not None and backend != "dask":
        raise UserError("a scheduler address needs --backend dask", key="--scheduler")
    if scheduler is not None:
        check_scheduler_address(scheduler)


def _prepare_folder(out: Path, manifest: dict, resume: bool) -> dict:
    """Check the run folder; return the manifest to use (the old one when resuming)."""
    if out.exists() and not out.is_dir():
        raise UserError("exists and is not a folder", file=str(out))
    has_manifest = (out / store.MANIFEST).exists()
    if not resume:
        if out.exists() and any(out.iterdir()):
            hint = "; add --resume to finish it" if has_manifest else ""
            raise UserError(f"output folder is not empty{hint}, or choose another --out", file=str(out))
        return manifest
    if not has_manifest:
        if out.exists() and any(out.iterdir()):
            raise UserError("cannot resume: the folder holds no sweep (no manifest.json)", file=str(out))
        return manifest
    old = store.read_manifest(out)
    if old.get("command", "sweep") != manifest["command"]:
        raise UserError(f"cannot resume: the folder holds a run of `{old.get('command', 'sweep')}`, not "
                        f"`{manifest['command']}` (their chunks are cut differently); use another --out", file=str(out))
    new_hashes = [p["ruleset_hash"] for p in manifest["points"]]
    if old.get("config_digest") != manifest["config_digest"] or \
            [p["ruleset_hash"] for p in old.get("points", [])] != new_hashes:
        raise UserError("cannot resume: the folder holds a sweep of a different config or different data; "
                        "use another --out", file=str(out))
    old["status"] = "running"
    return old


def check_scheduler_address(address: str) -> None:
    """A dask scheduler address that parses (`tcp://HOST:PORT`, `HOST:PORT`), else a UserError."""
    from distributed.comm.addressing import parse_address, parse_host_port  # start-up: dask, --backend dask only
    try:
        scheme, loc = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(loc)
    except (ValueError, TypeError) as exc:
        raise UserError(f"is not a scheduler address like tcp://HOST:8786 ({exc})", key="--scheduler") from None


def _lost_cluster(exc: BaseException) -> bool:
    """Whether an error raised while waiting on a remote cluster says the cluster went away."""
    from distributed.client import FutureCancelledError  # start-up: dask, --backend dask only
    from distributed.comm.core import CommClosedError
    return isinstance(exc, (OSError, TimeoutError, FutureCancelledError, CommClosedError, asyncio.CancelledError)) \
        and not isinstance(exc, UserError)


def _dask_client(jobs: int, scheduler: str | None, processes: bool):
    from distributed import Client, LocalCluster  # start-up: dask, --backend dask only
    if scheduler:
        check_scheduler_address(scheduler)
        # A lost scheduler is reported by the sweep in one line (exit 3, with the resume hint);
        # the client's own reconnect tracebacks would bury it.
        for name in [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")] \
                + ["distributed", "tornado"]:
            logging.getLogger(name).setLevel(logging.CRITICAL)     # distributed sets levels per logger
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError) as exc:
            raise EnvironmentFault(f"--scheduler {scheduler}: cannot reach the dask scheduler ({exc}); "
                                   "is it running, and is the address right?") from None
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=processes,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster), cluster


def warm_up(specs) -> None:
    """Build each compiled engine once, here in the parent, before work fans out to workers
    (which then load the build from the cache instead of compiling it again each)."""
    seen = set()
    for spec in specs:
        key = (spec.ruleset.game, tuple(b.name for b in spec.bots))
        if key not in seen:
            seen.add(key)
            get_game(spec.ruleset.game).warmup(spec.ruleset, spec.bots)


def execute(tasks: list[tuple], jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
            dask_processes: bool = True, play: Callable = play_chunk) -> Iterator[tuple]:
    """Run (point, spec, start, stop, track) tasks; yield (point, start, stop, games, tallies) as they finish."""
    if not tasks:
        return
    if backend == "loky" and jobs == 1:
        for t in tasks:
            yield _task(play, *t)
        return
    from joblib import Parallel, delayed, parallel_config  # start-up: joblib, only when chunks are played
    warm_up([t[1] for t in tasks])
    calls = (delayed(_task)(play, *t) for t in tasks)
    if backend == "loky":
        yield from Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(calls)
        return
    client, cluster = _dask_client(jobs, scheduler, dask_processes)
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class _PlainProgress:
    """Without a terminal (no bar): one line on stderr every PLAIN_EVERY seconds while games play."""

    def __init__(self, name: str, total: int, done: int, on: bool):
        self.name, self.total, self.done, self.on = name, total, done, on
        self.t0 = time.perf_counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self):
        if self.on:
            self.thread.start()
        return self

    def update(self, n: int) -> None:
        self.done += n

    def _tick(self) -> None:
        while not self.stop.wait(PLAIN_EVERY):
            print(f"{self.name}: {self.done:,} of {self.total:,} games ({self.done / max(self.total, 1):.0%}), "
                  f"{time.perf_counter() - self.t0:.0f} s", file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


PLAIN_EVERY = 10.0          # seconds between progress lines when stderr is not a terminal


def run_sweep(config: SweepConfig | str | Path, out: str | Path, *, jobs: int = 1, backend: str = "loky",
              scheduler: str | None = None, resume: bool = False, progress: bool = False,
              dask_processes: bool = True, play: Callable = play_chunk, command: str = "sweep") -> Path:
    """Run (or finish, with resume=True) a sweep into the folder `out`; return its path.

    Everything is checked before anything is written: a bad config, option or output
    folder raises UserError and leaves the disk untouched. `progress`: a bar on stderr
    when it is a terminal. `command` is recorded in the manifest (`run` writes one point).
    """
    cfg = config if isinstance(config, SweepConfig) else load_config(config)
    _check_options(jobs, backend, scheduler)
    points = expand(cfg)
    out = Path(out)
    manifest = _prepare_folder(out, build_manifest(cfg, points, command), resume)
    if backend == "dask" and scheduler:
        _dask_client(jobs, scheduler, dask_processes)[0].close()   # reachable? (before writing anything)
    out.mkdir(parents=True, exist_ok=True)
    with store.RunLock(out, note=lambda text: print(text, file=sys.stderr)):
        return _run_locked(cfg, points, out, manifest, jobs, backend, scheduler, progress, dask_processes, play)


def _run_locked(cfg, points, out, manifest, jobs, backend, scheduler, progress, dask_processes, play) -> Path:
    store.remove_partial(out)
    if not (out / "config.toml").exists():
        if cfg.text:
            store.write_text(out / "config.toml", cfg.text)
        elif Path(cfg.file).is_file():
            shutil.copyfile(cfg.file, out / "config.toml")
    _write_ruleset_data(out, points)
    store.write_json(out / store.MANIFEST, manifest)
    run = store.Run(out)
    damaged = run.damaged()
    for i, a, b, path, why in damaged:
        print(f"note: replaying {path.relative_to(out)}: {why}", file=sys.stderr)
        path.unlink(missing_ok=True)
    todo = run.missing()
    by_index = {p.index: p for p in points}
    tasks = [(i, by_index[i].spec, a, b, by_index[i].track) for i, a, b in todo]
    total = len(points) * cfg.games
    left = sum(b - a for _, a, b in todo)
    session = {"started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), "jobs": jobs,
               "backend": backend, "scheduler": scheduler, "chunks": len(tasks), "games": left,
               "replayed": len(damaged)}
    t0 = time.perf_counter()
    if tasks and progress:
        warm_up([t[1] for t in tasks])      # any compile line on stderr before the bar, which counts play only
    from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
    with tqdm(total=total, initial=total - left, unit="game", unit_scale=True, disable=None if progress else True,
              file=sys.stderr, dynamic_ncols=True, desc=cfg.name) as bar, \
            _PlainProgress(cfg.name, total, total - left, progress and bar.disable) as plain:
        written = 0
        try:
            for point, a, b, games, tallies in execute(tasks, jobs, backend, scheduler, dask_processes, play):
                record = store.write_chunk(store.chunk_path(out, point, a, b), games, tallies)
                store.record_chunk(out, point, a, b, record)
                written += 1
                bar.update(b - a)
                plain.update(b - a)
        except (Exception, asyncio.CancelledError) as exc:     # a cancelled wait is not an Exception
            if backend != "dask" or not scheduler or not _lost_cluster(exc):
                raise
            why = str(exc).splitlines()[0] if str(exc) else ""
            raise EnvironmentFault(f"--scheduler {scheduler}: the dask cluster was lost after {written} of "
                                   f"{len(tasks)} chunks ({type(exc).__name__}: {why}); the finished chunks are "
                                   f"kept in {out}: start the scheduler again and resume with --resume") from None
    session["seconds"] = round(time.perf_counter() - t0, 3)
    manifest["sessions"] = manifest.get("sessions", []) + [session]
    manifest["status"] = "complete" if written == len(tasks) else "incomplete"
    store.write_json(out / store.MANIFEST, manifest)
    return out
