"""The run folder: chunk files written atomically, a manifest, and reading it all back.

    RUN/manifest.json                    resolved config, points, ruleset hashes, versions, git
    RUN/config.toml                      the config file as given
    RUN/rulesets/<hash>.json             the rule parameters and tables each point played with
    RUN/chunks/point=0003/games-000000000-000001000.parquet

A chunk file holds the per-game rows of games [start, stop) of one point; its per-entity
tallies (already aggregated over the chunk) ride in the file's parquet metadata, so one
file is one finished chunk. Files are written to a temporary name and renamed into place
(os.replace), so a file with a final name is always complete and a killed sweep leaves at
worst a `*.tmp-*` file, which readers ignore and a resume deletes.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Iterable, Sequence

import polars as pl
import pyarrow.parquet as pq

from simcore.errors import UserError

MANIFEST = "manifest.json"
CHUNKS = "chunks"
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


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically."""
    _atomic_write(Path(path), lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_json(path: Path, doc: dict) -> None:
    """Write a JSON file atomically."""
    write_text(path, json.dumps(doc, indent=2, default=str))


def write_chunk(path: Path, games: pl.DataFrame, tallies: pl.DataFrame) -> None:
    """One finished chunk -> one parquet file (per-game rows; tallies in the metadata)."""
    table = games.to_arrow()
    meta = dict(table.schema.metadata or {})
    meta[TALLY_KEY] = json.dumps(tallies.to_dict(as_series=False)).encode()
    table = table.replace_schema_metadata(meta)
    _atomic_write(Path(path), lambda tmp: pq.write_table(table, tmp, compression="zstd"))


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

    def expected_chunks(self, point: int) -> list[tuple[int, int]]:
        return [tuple(b) for b in self.manifest["chunks"][point]]

    def missing(self) -> list[tuple[int, int, int]]:
        """(point, start, stop) of every chunk not yet finished."""
        out = []
        for p in self.points:
            done = finished_chunks(self.path, p["index"])
            out += [(p["index"], a, b) for a, b in self.expected_chunks(p["index"]) if (a, b) not in done]
        return out

    @property
    def complete(self) -> bool:
        return not self.missing()

    def _paths(self, point: int) -> list[Path]:
        done = finished_chunks(self.path, point)
        return [done[b] for b in self.expected_chunks(point) if b in done]

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

