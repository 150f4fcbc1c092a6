"""The run folder: chunk files written atomically, a manifest, and reading it all back.

    RUN/manifest.json                    resolved config, points, ruleset hashes, versions, git
    RUN/config.toml                      the config file as given
    RUN/rulesets/<hash>.json             the rule parameters and tables each point played with
    RUN/chunks/point=0003/games-000000000-000001000.parquet
    RUN/chunks.jsonl                     the chunk record: per finished chunk its point, game
                                         range, row count and the sha256 of its bytes

A chunk file holds the per-game rows of games [start, stop) of one point; its per-entity
tallies (already aggregated over the chunk) ride in the file's parquet metadata, so one
file is one finished chunk. Files are written to a temporary name and renamed into place
(os.replace), so a file with a final name is always complete and a killed sweep leaves at
worst a `*.tmp-*` file, which readers ignore and a resume deletes.

A chunk is trusted only when its bytes hash to what the chunk record says (one line
appended, and synced, after each chunk is renamed into place): a damaged, truncated,
emptied or swapped file is never read. `--resume` replays such a chunk; `report`
refuses the run, naming it. A chunk on disk without a record (a kill between the rename
and the append) counts as unfinished and is played again.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import tempfile
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import polars as pl
import pyarrow.parquet as pq

from simcore.errors import UserError
from simcore.runner import chunk_bounds

MANIFEST = "manifest.json"
CHUNKS = "chunks"
LEDGER = "chunks.jsonl"
FORMAT = 2                         # 2: chunks verified against the chunk record; 1: not recorded
TALLY_KEY = b"balancelab.tallies"
_CHUNK_RE = re.compile(r"^games-(\d+)-(\d+)\.parquet$")
TALLY_SCHEMA = {"entity_kind": pl.Utf8, "entity": pl.Utf8, "entity_id": pl.Int32, "seat": pl.Int8,
                "games": pl.Int64, "count": pl.Int64, "wins": pl.Float64}


def point_dir(run: Path, point: int) -> Path:
    return Path(run) / CHUNKS / f"point={point:04d}"


def chunk_path(run: Path, point: int, start: int, stop: int) -> Path:
    """Where the chunk of games [start, stop) of a point lives."""
    return point_dir(run, point) / f"games-{start:09d}-{stop:09d}.parquet"


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".tmp-", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_with(path: Path, write) -> None:
    """Write a file atomically: `write(tmp)` fills a temporary file beside `path`, renamed over it."""
    _atomic_write(Path(path), write)


def check_output_file(out: Path, overwrite: bool, ours, what: str) -> None:
    """An output file that is new or (with --overwrite) a previous `what` of ours: `ours(path)`
    says whether balancelab wrote the file there. Anything else is the user's and is refused."""
    if out.is_dir():
        raise UserError(f"is a folder; give the {what} file to write", file=str(out))
    if not out.exists():
        return
    if not ours(out):
        raise UserError(f"exists and is not a {what} balancelab wrote; choose another --out", file=str(out))
    if not overwrite:
        raise UserError(f"holds a previous {what}; pass --overwrite to replace it, or choose another --out",
                        file=str(out))


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically."""
    _atomic_write(Path(path), lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_json(path: Path, doc: dict) -> None:
    """Write a JSON file atomically."""
    write_text(path, json.dumps(doc, indent=2, default=str))


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (read in 1 MiB blocks)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def write_chunk(path: Path, games: pl.DataFrame, tallies: pl.DataFrame) -> dict:
    """One finished chunk -> one parquet file (per-game rows; tallies in the metadata).
    Return its record: row count and the sha256 of the bytes written."""
    table = games.to_arrow()
    meta = dict(table.schema.metadata or {})
    meta[TALLY_KEY] = json.dumps(tallies.to_dict(as_series=False)).encode()
    table = table.replace_schema_metadata(meta)
    record = {"rows": games.height}

    def write(tmp):
        pq.write_table(table, tmp, compression="zstd")
        record["sha256"] = file_sha256(tmp)
    _atomic_write(Path(path), write)
    return record


def record_chunk(run: Path, point: int, start: int, stop: int, record: dict) -> None:
    """Append a finished chunk's record to the run's chunk record (synced to disk)."""
    line = json.dumps({"point": point, "start": start, "stop": stop, **record}, separators=(",", ":")) + "\n"
    with open(Path(run) / LEDGER, "a+b") as fh:
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                line = "\n" + line                  # after a torn line (a kill mid-append): start a new one
        fh.write(line.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


def read_ledger(run: Path) -> dict[tuple[int, int, int], dict]:
    """{(point, start, stop): record}; a later record of a chunk replaces an earlier one, and a
    torn line (a kill during the append) is skipped: its chunk is then unrecorded, so replayed."""
    out = {}
    try:
        text = (Path(run) / LEDGER).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return out
    for line in text.splitlines():
        try:
            r = json.loads(line)
            out[(int(r["point"]), int(r["start"]), int(r["stop"]))] = r
        except (ValueError, KeyError, TypeError):
            continue
    return out


def check_chunk(path: Path, start: int, stop: int, record: dict | None) -> str | None:
    """Why the chunk file at `path` cannot be trusted, or None when it matches its record."""
    if record is None:
        return "is not in the chunk record (written but never recorded)"
    if record.get("rows") != stop - start:
        return f"its record says {record.get('rows')} rows for games {start}-{stop}"
    try:
        digest = file_sha256(path)
    except OSError as e:
        return f"cannot be read: {e.strerror}"
    if digest != record.get("sha256"):
        size = path.stat().st_size
        return ("is empty" if size == 0 else
                f"its bytes do not match the recorded sha256 (damaged, truncated or replaced; {size:,} bytes)")
    return None


def read_chunk_tallies(path: Path) -> pl.DataFrame:
    meta = pq.read_schema(path).metadata or {}
    if TALLY_KEY not in meta:
        return pl.DataFrame(schema=TALLY_SCHEMA)
    return pl.DataFrame(json.loads(meta[TALLY_KEY]), schema=TALLY_SCHEMA)


def finished_chunks(run: Path, point: int) -> dict[tuple[int, int], Path]:
    """{(start, stop): path} of the complete chunk files of a point."""
    folder = point_dir(run, point)
    if not folder.is_dir():
        return {}
    out = {}
    for p in folder.iterdir():
        m = _CHUNK_RE.match(p.name)
        if m:
            out[(int(m.group(1)), int(m.group(2)))] = p
    return dict(sorted(out.items()))


def remove_partial(run: Path) -> int:
    """Delete temporary files left by a killed sweep; return how many."""
    n = 0
    root = Path(run) / CHUNKS
    if root.is_dir():
        for p in root.rglob("*.tmp-*"):
            p.unlink()
            n += 1
    return n


def read_manifest(run: Path) -> dict:
    path = Path(run) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError("is not a sweep run folder (no manifest.json)", file=str(run)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise UserError(f"manifest.json is not valid JSON: {e}", file=str(run)) from None
    except OSError as e:
        raise UserError(f"manifest.json cannot be read: {e.strerror}", file=str(run)) from None
    points = manifest.get("points") if isinstance(manifest, dict) else None
    if not isinstance(points, list) or not all(isinstance(p, dict) for p in points) \
            or not isinstance(manifest.get("games_per_point"), int):
        raise UserError("manifest.json is not a sweep manifest (expected `points` and `games_per_point`); "
                        "was this folder written by `balancelab sweep` or `balancelab run --out`?", file=str(run))
    return manifest


class Run:
    """A run folder opened for reading. Frames carry a leading `point` column."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_dir():
            raise UserError("run folder does not exist", file=str(self.path))
        self.manifest = read_manifest(self.path)
        self._good: dict[int, dict[tuple[int, int], Path]] | None = None
        self._damaged: list = []

    @property
    def points(self) -> list[dict]:
        return self.manifest["points"]

    def point_frame(self) -> pl.DataFrame:
        """One row per point: index, its axis labels, players, bots, ablation, ruleset hash."""
        rows = []
        for p in self.points:
            rows.append({"point": p["index"], **{k: str(v) for k, v in p["labels"].items()},
                         "ablated": p.get("ablated"), "base": p.get("base"), "seed": p["seed"],
                         "ruleset_hash": p["ruleset_hash"]})
        return pl.DataFrame(rows, infer_schema_length=None)

    def expected_chunks(self, point: int) -> Iterator[tuple[int, int]]:
        """The chunks of a point, generated from games_per_point and batch_size (a format-1
        manifest lists them)."""
        if "chunks" in self.manifest:
            return (tuple(b) for b in self.manifest["chunks"][point])
        return chunk_bounds(0, self.manifest["games_per_point"], self.manifest["batch_size"])

    @property
    def verified(self) -> bool:
        """Whether chunks are checked against a chunk record (format 2 run folders)."""
        return self.manifest.get("format", 1) >= FORMAT

    def _check(self) -> None:
        """Sort every chunk file on disk into good and damaged, once per Run."""
        if self._good is not None:
            return
        ledger = read_ledger(self.path) if self.verified else {}
        self._good, self._damaged = {}, []
        for p in self.points:
            i = p["index"]
            done = finished_chunks(self.path, i)
            good = self._good[i] = {}
            for a, b in self.expected_chunks(i):
                path = done.get((a, b))
                if path is None:
                    continue
                why = check_chunk(path, a, b, ledger.get((i, a, b))) if self.verified else None
                if why is None:
                    good[(a, b)] = path
                else:
                    self._damaged.append((i, a, b, path, why))

    def damaged(self) -> list[tuple[int, int, int, Path, str]]:
        """(point, start, stop, path, why) of every chunk file that does not match its record."""
        self._check()
        return list(self._damaged)

    def missing(self) -> list[tuple[int, int, int]]:
        """(point, start, stop) of every chunk not yet finished (absent, unrecorded or damaged)."""
        self._check()
        return [(p["index"], a, b) for p in self.points for a, b in self.expected_chunks(p["index"])
                if (a, b) not in self._good[p["index"]]]

    @property
    def complete(self) -> bool:
        return not self.missing()

    def _paths(self, point: int) -> list[Path]:
        self._check()
        return list(self._good.get(point, {}).values())

    def scan_games(self, point: int) -> pl.LazyFrame:
        """One point's finished chunks as a lazy scan: aggregate it (streaming) without loading the rows."""
        paths = self._paths(point)
        if not paths:
            raise ValueError(f"point {point} has no finished chunk")
        return pl.scan_parquet(paths).with_columns(pl.lit(point, dtype=pl.Int32).alias("point"))

    def games(self, points: Sequence[int] | None = None, columns: Iterable[str] | None = None) -> pl.DataFrame:
        """Per-game rows of the finished chunks, sorted by point then game."""
        frames = []
        for point in self._select(points):
            paths = self._paths(point)
            if not paths:
                continue
            cols = None if columns is None else [c for c in columns if c != "point"]
            df = pl.concat([pl.read_parquet(p, columns=cols) for p in paths], how="vertical")
            frames.append(df.with_columns(pl.lit(point, dtype=pl.Int32).alias("point")).select(
                ["point", *[c for c in df.columns if c != "point"]]))
        if not frames:
            return pl.DataFrame(schema={"point": pl.Int32})
        return pl.concat(frames, how="diagonal_relaxed")

    def tallies(self, points: Sequence[int] | None = None) -> pl.DataFrame:
        """Per (point, seat, entity): games acquired, copies, win shares, summed over chunks."""
        frames = []
        for point in self._select(points):
            for path in self._paths(point):
                t = read_chunk_tallies(path)
                if t.height:
                    frames.append(t.with_columns(pl.lit(point, dtype=pl.Int32).alias("point")))
        if not frames:
            return pl.DataFrame(schema={"point": pl.Int32, **TALLY_SCHEMA})
        keys = ["point", "entity_kind", "entity", "entity_id", "seat"]
        return (pl.concat(frames).group_by(keys).agg(pl.col("games").sum(), pl.col("count").sum(),
                                                     pl.col("wins").sum()).sort(["point", "seat", "entity_id"]))

    def _select(self, points) -> list[int]:
        known = [p["index"] for p in self.points]
        if points is None:
            return known
        bad = [p for p in points if p not in known]
        if bad:
            raise UserError(f"no point {bad[0]} in this run (points 0..{len(known) - 1})", key="points")
        return list(points)


def open_run(path: str | Path) -> Run:
    """Open a run folder written by `balancelab sweep` (or `balancelab run --out`: a one-point sweep)."""
    return Run(path)



# ----------------------------------------------------------------------------- one writer

LOCK = "writer.lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True                  # another user's live process
    return True


class RunLock:
    """`with RunLock(folder):` one writer per run folder. The lock file holds the writer's
    process id and host; a second writer gets a UserError naming them. A lock left by a
    dead process on this host is taken over, with a note on stderr; one from another host
    cannot be checked from here, so the user is told how to clear it."""

    def __init__(self, folder: Path, note=None):
        self.path = Path(folder) / LOCK
        self.note = note
        self.held = False

    def __enter__(self) -> "RunLock":
        me = {"pid": os.getpid(), "host": socket.gethostname()}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                other = self._holder()
                if other is None:
                    continue                                   # removed meanwhile, or torn: try again
                pid, host = other.get("pid"), other.get("host")
                if host == me["host"] and isinstance(pid, int) and not _alive(pid):
                    if self.note:
                        self.note(f"note: {self.path.parent}: taking over the lock of process {pid}, "
                                  "which has ended")
                    self.path.unlink(missing_ok=True)
                    continue
                where = f"process {pid} on {host}"
                hint = "wait for it to finish" if host == me["host"] else \
                    f"if that run has ended, delete {self.path}"
                raise UserError(f"another balancelab run ({where}) is writing this folder; {hint}",
                                file=str(self.path.parent))
            with os.fdopen(fd, "w") as fh:
                json.dump(me, fh)
            self.held = True
            return self
        raise UserError(f"cannot take the lock {self.path}; delete it if no run is writing this folder",
                        file=str(self.path.parent))

    def _holder(self) -> dict | None:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (ValueError, UnicodeDecodeError, OSError):
            return {"pid": None, "host": "an unknown host (the lock file is unreadable)"}
        return doc if isinstance(doc, dict) else None

    def __exit__(self, *exc) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False


# ----------------------------------------------------------------------------- what the tool wrote

_OWN_TOP = {MANIFEST, "config.toml", LEDGER, LOCK, "report.html"}
_OWN_PATTERNS = (re.compile(r"^rulesets/[0-9a-f]+\.json$"),
                 re.compile(r"^chunks/point=\d+/games-\d+-\d+\.parquet(\.tmp-\w+)?$"),
                 re.compile(r"^next-steps/[\w.-]+\.toml$"))


def foreign_files(run: Path) -> list[str]:
    """The files and folders under a run folder that balancelab did not write (relative paths,
    sorted): what `--overwrite` must not delete."""
    run = Path(run)
    out = []
    for path in sorted(run.rglob("*")):
        rel = path.relative_to(run).as_posix()
        if path.is_dir() and not path.is_symlink():
            if rel in ("rulesets", "chunks", "next-steps") or re.fullmatch(r"chunks/point=\d+", rel):
                continue
            if not any(path.iterdir()):
                out.append(rel + "/")
            continue
        if rel in _OWN_TOP or any(p.match(rel) for p in _OWN_PATTERNS):
            continue
        out.append(rel)
    return out
